"""What every walkthrough chapter page does first and last.

``open_chapter`` adopts tile moves, styles the page, draws the title and the preset, and shows
notices; it returns the state the page renders. ``close_chapter`` draws the shared controls in
the sidebar (last: Streamlit shows elements as they arrive, and the page's numbers matter more
right after a drag) and writes the state into the URL. A page is then: open, ask irlab for the
chapter's view, render, close.
"""

from __future__ import annotations

from collections.abc import Mapping

import streamlit as st

from irlab.ui.controls import sidebar_controls
from irlab.ui.pages import chapter_page_path
from irlab.ui.render import chapter_intro, notices
from irlab.ui.state import MAIN, adopt_tile_changes, current_state, set_state, sync_url, take_notices
from irlab.ui.style import apply_style
from irlab.walkthrough.chapters import CHAPTERS, Chapter
from irlab.walkthrough.state import WalkthroughState

MAIN_TILES = {"tiles-main": MAIN}


def open_chapter(chapter: Chapter, targets: Mapping[str, str] = MAIN_TILES) -> WalkthroughState:
    """Set up a chapter page and return the learner's state for it.

    ``targets`` maps each tile row's component key to what it reorders (:data:`MAIN` or a query id).
    """
    state = current_state()
    state = adopt_tile_changes(state, targets, state.effective_mode(chapter))
    apply_style(state.present)
    chapter_intro(chapter, state, preset=lambda: set_state(current_state().with_preset(chapter)))
    notices(take_notices())
    return state


def close_chapter(state: WalkthroughState, chapter: Chapter) -> None:
    """Draw "Chapter n of 6" with the previous and next chapter, the shared controls, and mirror the state into the URL."""
    chapter_steps(chapter)
    sidebar_controls(state, chapter)
    sync_url(state, chapter)


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
