"""The controls shared by every chapter: K, undo and redo above the tiles; the rest in the sidebar.

Above the tiles (inside the chapter's live region, so using them reruns only that region): K, undo,
redo and "reset grades". In the sidebar: relevance mode, presentation mode, the link, start over.

Widgets hold no state of their own: each run seeds them from the learner's state, and their
callbacks write the learner's state, so the values persist when moving between chapters
(Streamlit forgets the widgets of pages that are not shown).
"""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from irlab.ui.components.share import share_link
from irlab.ui.kit.markdown import escape_markdown
from irlab.ui.walkthrough.state import current_state, redo, set_state, undo
from irlab.walkthrough.chapter import Setting
from irlab.walkthrough.chapters import Chapter
from irlab.walkthrough.history import History
from irlab.walkthrough.state import DEFAULT_STATE, MODES, SCENARIO, WalkthroughState

K_WIDGET = "irlab.widget.k"
MODE_WIDGET = "irlab.widget.mode"
PRESENT_WIDGET = "irlab.widget.present"

MODE_LABELS = {"binary": "Binary: \u201ccat in a box\u201d",
               "graded": "Graded 0\u20134: \u201cwhite cat in a box\u201d"}


def seed_widget(key: str, value: object) -> None:
    """Show ``value`` in the widget ``key`` (drawn next), writing it only when the widget shows something else.

    Streamlit sends a widget whose value was written this run with "set this value", and the browser then
    redraws that widget and records its value anew: on every drag, for a K that did not change. Writing only
    a different value (an undo, a preset, a widget Streamlit forgot on another page) keeps that work for the
    runs that need it.
    """
    if key not in st.session_state or st.session_state[key] != value:
        st.session_state[key] = value


def _update(**changes: object) -> None:
    set_state(replace(current_state(), **changes))


K_MOVED = "irlab.k-moved"
"""Set when the learner moved the K slider, until the live region takes it (:func:`took_k_move`)."""


def _move_k() -> None:
    _update(k=st.session_state[K_WIDGET])
    st.session_state[K_MOVED] = True


def took_k_move() -> bool:
    """Whether the learner moved K since the last call: they may well move it again, so the live region then sends
    its screens at the other K with this run (:func:`irlab.ui.components.region.live_region`)."""
    return bool(st.session_state.pop(K_MOVED, False))


def _start_over() -> None:
    set_state(replace(DEFAULT_STATE, present=current_state().present))


UNDO_KEY = "irlab-undo"
REDO_KEY = "irlab-redo"
RESET_GRADES_KEY = "irlab-reset-grades"


def live_controls(state: WalkthroughState, chapter: Chapter, steps: History) -> None:
    """One row above the tiles: K, then the chapter's own settings (what counts as relevant, how many items the
    system returned, ...), then undo, redo and (graded mode) reset the edited grades. One row, so that at 1280x800
    the tiles and the numbers are on the first screen."""
    middle = bool(chapter.settings)
    widths = [3, 3, 1.2, 1.2, 1.8] if middle else [5, 1.25, 1.25, 2]
    columns = st.columns(widths, vertical_alignment="bottom")
    if middle:
        with columns.pop(1):
            for setting in chapter.settings:
                setting_control(state, chapter, setting)
    _k_row(state, chapter, steps, columns)


def _k_row(state: WalkthroughState, chapter: Chapter, steps: History, columns: list) -> None:
    n = len(SCENARIO.items)
    graded = state.effective_mode(chapter) == "graded"
    k_column, undo_column, redo_column, grades_column = columns
    seed_widget(K_WIDGET, state.effective_k(chapter))
    k_help = ("How many results the system returns: the top K are predicted relevant."
              if chapter.uses_k else "MRR looks at the whole ranking; K only sets MRR@K, shown below the table.")
    k_column.slider("K: results returned", 1, n, key=K_WIDGET, help=k_help,
                    on_change=_move_k)
    undo_column.button("Undo", key=UNDO_KEY, on_click=undo, disabled=not steps.can_undo, icon=":material/undo:",
                       help="Back to the state before your last move (Ctrl+Z).", width="stretch")
    redo_column.button("Redo", key=REDO_KEY, on_click=redo, disabled=not steps.can_redo, icon=":material/redo:",
                       help="Forward again to the state you undid (Ctrl+Shift+Z).", width="stretch")
    if graded:
        edited = state.grades is not None
        grades_column.button("Reset grades", key=RESET_GRADES_KEY, on_click=lambda: _update(grades=None),
                             disabled=not edited, icon=":material/restart_alt:", width="stretch",
                             help=("Back to the rubric's grades; the order and K stay." if edited else
                                   "No grade is edited: click a tile's grade (or type 0-4 on it) to change it."))


def sidebar_controls(state: WalkthroughState, chapter: Chapter) -> None:
    """Relevance mode, presentation mode, the share link and "start over"."""
    with st.sidebar:
        seed_widget(MODE_WIDGET, "binary" if chapter.binary_only else state.effective_mode(chapter))
        st.radio("Relevance", MODES, key=MODE_WIDGET, format_func=MODE_LABELS.get, disabled=chapter.binary_only,
                 on_change=lambda: _update(mode=st.session_state[MODE_WIDGET]),
                 help=("This chapter's three queries are judged relevant or not, so it is binary only."
                       if chapter.binary_only else "Binary: relevant or not. Graded: 0 (no box) to 4 (a white cat in "
                                                   "a box)."))
        if chapter.binary_only:
            st.caption("Binary only here: the three queries of this chapter are judged relevant or not, so there "
                       "are no grades to choose from.")
        seed_widget(PRESENT_WIDGET, state.present)
        st.toggle("Presentation mode", key=PRESENT_WIDGET, help="Larger type and tiles, less text: for a projector.",
                  on_change=lambda: _update(present=st.session_state[PRESENT_WIDGET]))
        st.caption("Each chapter opens with its sources' example until you change K or the relevance; "
                   "then your choices follow you. The link below restores exactly this view.")
        share_link()
        st.button("Start over", on_click=_start_over, help="Back to the sources' rankings, grades and defaults.",
                  width="stretch")


def setting_key(setting: Setting) -> str:
    """The widget key of a chapter's setting (``irlab.widget.returned``)."""
    return f"irlab.widget.{setting.name}"


def setting_control(state: WalkthroughState, chapter: Chapter, setting: Setting) -> None:
    """A chapter's setting (:class:`~irlab.walkthrough.chapter.Setting`): a slider or a row of buttons, with its note
    under it; where the setting does not apply (the relevance level in binary mode), only its note."""
    note = setting.note(state, chapter)
    if setting.applies(state, chapter):
        key = setting_key(setting)
        seed_widget(key, setting.value(state))

        def changed() -> None:
            _update(**{setting.name: st.session_state[key]})

        choices = list(setting.choices)
        if setting.buttons:
            st.segmented_control(setting.label, choices, key=key, required=True, on_change=changed,
                                 format_func=setting.format, help=setting.help)
        elif all(isinstance(c, int) for c in choices) and choices == list(range(choices[0], choices[-1] + 1)):
            # whole numbers in a row: a plain slider
            st.slider(setting.label, choices[0], choices[-1], key=key, on_change=changed, help=setting.help)
        else:
            st.select_slider(setting.label, choices, key=key, on_change=changed, format_func=setting.format,
                             help=setting.help)
    if note:
        st.caption(escape_markdown(note))
