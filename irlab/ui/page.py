"""What every walkthrough chapter page does first and last.

``open_chapter`` adopts tile moves, styles the page, draws the title and the preset, and shows
notices; it returns the state the page renders. ``close_chapter`` draws the shared controls in
the sidebar (last: Streamlit shows elements as they arrive, and the page's numbers matter more
right after a drag) and writes the state into the URL. A page is then: open, ask irlab for the
chapter's view, render, close.
"""

from __future__ import annotations

from collections.abc import Mapping

from irlab.ui.controls import sidebar_controls
from irlab.ui.render import chapter_intro, notices
from irlab.ui.state import MAIN, adopt_tile_changes, current_state, set_state, sync_url, take_notices
from irlab.ui.style import apply_style
from irlab.walkthrough.chapters import Chapter
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
    """Draw the shared controls and mirror the state into the URL."""
    sidebar_controls(state, chapter)
    sync_url(state, chapter)
