"""What every walkthrough chapter page does: open, draw the live region, close.

A chapter page is three calls::

    state = open_chapter(CHAPTER)      # follows Back/Forward, styles, title and preset
    live_region(CHAPTER)               # a fragment: a drag, a settled K or undo reruns only this part
    close_chapter(state, CHAPTER)      # teaching text, Chapter n of N, sidebar controls

The live region is one component that draws the controls a move uses (K, the chapter's settings, undo,
redo) and the chapter's screen (:mod:`irlab.walkthrough.screens`: tiles, numbers, formulas, tables,
charts, "Try this"), redrawing only what changed (:mod:`irlab.ui.components.region`). With the screen
come the screen at every other K, so that a change of K is drawn in the browser and costs no run, and,
when the learner comes to a tile, the screen after each of its moves, so that the browser draws a drop
the moment the tile lands (:mod:`irlab.ui.walkthrough.live`).

Why a fragment: a move changes the tiles, the numbers, the formulas and the charts, and nothing
else. Rerunning only that region spares the browser the title, the teaching text, the sidebar and
the navigation on every move. What lies outside the region and depends on the state (the relevance
mode in the sidebar, presentation mode) is drawn by a full rerun, which the region asks for when an
undo changed one of them.
"""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from irlab.ui.shell.error_boundary import error_boundary
from irlab.ui.shell.pages import chapter_page_path
from irlab.ui.shell.style import apply_style
from irlab.ui.walkthrough import chapter as chapter_ui
from irlab.ui.walkthrough.controls import sidebar_controls
from irlab.ui.walkthrough.live import REGION, draw, take_messages  # noqa: F401 - REGION: the tests' key
from irlab.ui.walkthrough.screen import VISIT
from irlab.ui.walkthrough.settle import take_settled
from irlab.ui.walkthrough.state import current_state, follow_url, set_state, sync_url
from irlab.walkthrough.chapters import CHAPTERS, Chapter
from irlab.walkthrough.state import WalkthroughState

OUTSIDE = "irlab.page.outside"
"""What the last full run drew outside the live region from the state (mode, presentation mode)."""


def _outside(state: WalkthroughState, chapter: Chapter) -> tuple[str, bool]:
    return state.effective_mode(chapter), state.present


def open_chapter(chapter: Chapter) -> WalkthroughState:
    """Set up a chapter page and return the learner's state for the parts outside the live region."""
    slug, visits = st.session_state.get(VISIT, (None, 0))
    if slug != chapter.slug:  # the learner came from another chapter: its moves are done there, not here
        st.session_state[VISIT] = (chapter.slug, visits + 1)
    state = follow_url()
    st.session_state[OUTSIDE] = _outside(state, chapter)
    apply_style(state.present)
    chapter_ui.chapter_intro(chapter, state, preset=lambda: set_state(current_state().with_preset(chapter)),
                         leave_presentation=lambda: set_state(replace(current_state(), present=False)))
    return state


def live_region(chapter: Chapter) -> None:
    """The chapter's live region, a fragment: one component draws its controls (K, the chapter's settings, undo,
    redo), tiles, numbers, formulas, charts and "Try this" (:mod:`irlab.ui.walkthrough.live`); the state is
    written into the URL."""
    @st.fragment
    def region() -> None:
        # the page's boundary does not see inside a fragment (Streamlit reports a fragment's error itself)
        with error_boundary(chapter.slug):
            take_settled()  # a fragment's run is the region's own: the Ks settled since the last run come first
            state, messages = take_messages(chapter, current_state())
            if _outside(state, chapter) != st.session_state.get(OUTSIDE):
                st.rerun(scope="app")  # an undo changed the mode or presentation mode: redraw the sidebar too
            draw(chapter, state, messages)
            sync_url(state, chapter)

    region()


def close_chapter(state: WalkthroughState, chapter: Chapter) -> None:
    """The teaching text, "Chapter n of N" with the previous and next chapter, and the shared controls."""
    chapter_ui.teaching(chapter, state)
    chapter_steps(chapter)
    sidebar_controls(state, chapter)


def chapter_steps(chapter: Chapter) -> None:
    """Where this chapter is in the walkthrough, and links to its neighbours (the learner's K and mode come along)."""
    index = CHAPTERS.index(chapter)
    before, here, after = st.columns([2, 1, 2], vertical_alignment="center")
    if index > 0:
        previous = CHAPTERS[index - 1]
        before.page_link(chapter_page_path(previous), label=f"Previous: {previous.number}. {previous.title}",
                         icon=":material/arrow_back:")
    here.markdown(f"Chapter {chapter.number} of {len(CHAPTERS)}", text_alignment="center")
    if index < len(CHAPTERS) - 1:
        following = CHAPTERS[index + 1]
        after.page_link(chapter_page_path(following), label=f"Next: {following.number}. {following.title}",
                        icon=":material/arrow_forward:")
