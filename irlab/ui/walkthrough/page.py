"""What every walkthrough chapter page does: open, draw the live region, close.

A chapter page is three calls::

    state = open_chapter(CHAPTER)      # follows Back/Forward, styles, title and preset
    live_region(CHAPTER)               # a fragment: a drag, K or undo reruns only this part
    close_chapter(state, CHAPTER)      # teaching text, Chapter n of 6, sidebar controls

The live region holds the controls a move uses (K, undo, redo) and one component that draws the
chapter's screen (:mod:`irlab.walkthrough.screens`: tiles, numbers, formulas, tables, charts, "Try
this"), redrawing only what changed (:mod:`irlab.ui.components.region`); with it, when the learner has
just moved K or comes to the K slider, the screen at every other K, so that the browser draws a K
change the moment the slider shows it, and when the learner comes to a tile, the screen after each of
its moves, so that the browser draws a drop the moment the tile lands.

Why a fragment: a move changes the tiles, the numbers, the formulas and the charts, and nothing
else. Rerunning only that region spares the browser the title, the teaching text, the sidebar and
the navigation on every move. What lies outside the region and depends on the state (the relevance
mode in the sidebar, presentation mode) is drawn by a full rerun, which the region asks for when an
undo changed one of them.
"""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from irlab.ui.components.region import live_region as draw_region
from irlab.ui.components.region import moved_ahead
from irlab.ui.components.shortcuts import undo_shortcuts
from irlab.ui.components.tiles import unseen_change
from irlab.ui.kit.notices import notices
from irlab.ui.kit.screen import moved_blocks, other_k_blocks, region_blocks, take_ack
from irlab.ui.shell.error_boundary import error_boundary
from irlab.ui.shell.pages import chapter_page_path
from irlab.ui.shell.style import apply_style
from irlab.ui.walkthrough import chapter as chapter_ui
from irlab.ui.walkthrough.controls import K_WIDGET, REDO_KEY, UNDO_KEY, live_controls, sidebar_controls, took_k_move
from irlab.ui.walkthrough.state import (
    adopt_tile_change,
    current_state,
    follow_url,
    history,
    set_state,
    sync_url,
    take_notices,
    tile_change_state,
)
from irlab.walkthrough import guide
from irlab.walkthrough.chapters import CHAPTERS, Chapter
from irlab.walkthrough.screens import chapter_screen
from irlab.walkthrough.state import WalkthroughState

OUTSIDE = "irlab.page.outside"
"""What the last full run drew outside the live region from the state (mode, presentation mode)."""


def _outside(state: WalkthroughState, chapter: Chapter) -> tuple[str, bool]:
    return state.effective_mode(chapter), state.present


def open_chapter(chapter: Chapter) -> WalkthroughState:
    """Set up a chapter page and return the learner's state for the parts outside the live region."""
    state = follow_url()
    st.session_state[OUTSIDE] = _outside(state, chapter)
    apply_style(state.present)
    chapter_ui.chapter_intro(chapter, state, preset=lambda: set_state(current_state().with_preset(chapter)),
                         leave_presentation=lambda: set_state(replace(current_state(), present=False)))
    return state


REGION = "live-region"
"""The component key of a chapter's live region (its value carries the learner's tile moves)."""


def live_region(chapter: Chapter) -> None:
    """The chapter's live region, a fragment: the live controls, then tiles, numbers, formulas, charts and
    "Try this" drawn by one component from the chapter's screen; the state written into the URL.

    The chapter's ``tile_rows`` map each tile row's key to what it reorders (``main``: the shared order, or a query id).
    """
    targets = chapter.tile_rows
    @st.fragment
    def region() -> None:
        # the page's boundary does not see inside a fragment (Streamlit reports a fragment's error itself)
        with error_boundary(chapter.slug):
            _region()

    def _region() -> None:
        state = current_state()
        change = unseen_change(REGION)
        take_ack(change)
        mode = state.effective_mode(chapter)
        state = adopt_tile_change(state, change, targets, mode)
        if _outside(state, chapter) != st.session_state.get(OUTSIDE):
            st.rerun(scope="app")  # an undo changed the mode or presentation mode: redraw the sidebar too
        steps = history()
        notices(take_notices())
        live_controls(state, chapter, steps)
        screen = chapter_screen(state, chapter)
        blocks = region_blocks(screen, state, chapter, guide.steps(state, chapter))
        draw_region(blocks, key=REGION, present=state.present, k=state.effective_k(chapter), k_slider=K_WIDGET,
                    other_k=lambda: other_k_blocks(state, chapter), send_other_k=took_k_move(),
                    moves=lambda row, item: moved_blocks(
                        screen, chapter, row, item, lambda move: tile_change_state(state, move, targets, mode)),
                    moves_of=moved_ahead(change))
        sync_url(state, chapter)

    region()


def close_chapter(state: WalkthroughState, chapter: Chapter) -> None:
    """The teaching text, "Chapter n of 6" with the previous and next chapter, and the shared controls."""
    chapter_ui.teaching(chapter, state)
    chapter_steps(chapter)
    sidebar_controls(state, chapter)
    undo_shortcuts(undo_key=UNDO_KEY, redo_key=REDO_KEY)


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
