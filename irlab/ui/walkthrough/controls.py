"""The controls shared by every chapter: K, the chapter's settings, undo and redo above the tiles; the rest in the
sidebar.

Above the tiles, drawn by the live region itself (:func:`live_controls`): a change of K costs no run, and the
others one run of the region only. In the chapter's title row: the relevance mode (:func:`mode_control`). In the
sidebar (Streamlit widgets): presentation mode, the link, start over. The widgets hold no state of their own: each
run seeds them from the learner's state, and their callbacks write the learner's state, so the values persist when
moving between chapters (Streamlit forgets the widgets of pages that are not shown).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import streamlit as st

from irlab.errors import ValidationError
from irlab.ui.components.share import share_link
from irlab.ui.walkthrough.state import current_state, set_state
from irlab.walkthrough.chapter import Setting
from irlab.walkthrough.chapters import Chapter
from irlab.walkthrough.history import History
from irlab.walkthrough.state import DEFAULT_STATE, MODES, SCENARIO, WalkthroughState

PRESENT_WIDGET = "irlab.widget.present"
MODE_WIDGET = "irlab.widget.mode"


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


def _start_over() -> None:
    set_state(replace(DEFAULT_STATE, present=current_state().present))


def live_controls(state: WalkthroughState, chapter: Chapter, steps: History) -> dict[str, Any]:
    """The controls the live region draws above the tiles (one row, so that at 1280x800 the tiles and the numbers
    are on the first screen): K, the chapter's own settings (what counts as relevant, how many items the system
    returned, ...), undo, redo and (graded mode) reset the edited grades. The region sends what the learner does
    with them back as its messages (:mod:`irlab.ui.walkthrough.live`); a setting's value travels as its text."""
    edited = state.grades is not None
    return {
        "k": {"value": state.effective_k(chapter), "min": 1, "max": len(SCENARIO.items), "label": "K: results returned",
              "help": ("How many results the system returns: the top K are predicted relevant." if chapter.uses_k
                       else "MRR looks at the whole ranking; K only sets MRR@K, shown below the table.")},
        "settings": [setting_json(state, chapter, setting) for setting in chapter.settings],
        "undo": steps.can_undo, "redo": steps.can_redo,
        "resetGrades": None if state.effective_mode(chapter) != "graded" else {
            "enabled": edited, "help": ("Back to the rubric's grades; the order and K stay." if edited else
                                        "No grade is edited: click a tile's grade (or type 0-4 on it) to change it.")},
    }


def setting_json(state: WalkthroughState, chapter: Chapter, setting: Setting) -> dict[str, Any]:
    """A chapter's setting (:class:`~irlab.walkthrough.chapter.Setting`) as the region draws it: a slider or a row of
    buttons over its choices, with its note under it; where it does not apply (the relevance level in binary mode),
    only its note."""
    return {"name": setting.name, "label": setting.label, "help": setting.help, "buttons": setting.buttons,
            "applies": setting.applies(state, chapter), "note": setting.note(state, chapter),
            "value": str(setting.value(state)),
            "choices": [{"value": str(choice), "label": setting.format(choice)} for choice in setting.choices]}


def apply_control(state: WalkthroughState, chapter: Chapter, control: Mapping[str, Any]) -> WalkthroughState | None:
    """The state after a control the region sent (``reset-grades``, or ``setting`` with its ``name`` and ``value``);
    None when the message names nothing the chapter offers (it is ignored). Undo and redo step the history
    instead (:func:`irlab.ui.walkthrough.state.undo`)."""
    action = control.get("action")
    if action == "reset-grades":
        return replace(state, grades=None)
    if action == "setting":
        setting = next((s for s in chapter.settings if s.name == control.get("name")), None)
        value = control.get("value")
        if setting is None or not isinstance(value, str) or len(value) > 40 or not setting.applies(state, chapter):
            return None
        try:
            return replace(state, **{setting.name: setting.parse(value)})
        except ValidationError:
            return None
    return None


MODE_LABELS = {"binary": "Binary", "graded": "Graded 0\u20134"}


def mode_control(state: WalkthroughState, chapter: Chapter) -> None:
    """Binary or graded relevance, in the chapter's title row: in the sidebar, a phone hid it behind a 28 px button.
    The chapters of three binary queries show it disabled, and say why in its help."""
    seed_widget(MODE_WIDGET, "binary" if chapter.binary_only else state.effective_mode(chapter))
    st.segmented_control(
        "Relevance", MODES, key=MODE_WIDGET, format_func=MODE_LABELS.get, required=True, width="content",
        label_visibility="collapsed",  # the buttons say it (their help too), and the title's row keeps one line
        disabled=chapter.binary_only, on_change=lambda: _update(mode=st.session_state[MODE_WIDGET]),
        help=("Binary only here: this chapter's three queries are judged relevant or not." if chapter.binary_only
              else "Binary: \u201ccat in a box\u201d, relevant or not. Graded: \u201cwhite cat in a box\u201d, "
                   "0 (no box) to 4 (a white cat in a box)."))


def sidebar_controls(state: WalkthroughState, chapter: Chapter) -> None:
    """Presentation mode, the share link and "start over" (the relevance mode is in the chapter's title row,
    :func:`mode_control`)."""
    with st.sidebar:
        seed_widget(PRESENT_WIDGET, state.present)
        st.toggle("Presentation mode", key=PRESENT_WIDGET, help="Larger type and tiles, less text: for a projector.",
                  on_change=lambda: _update(present=st.session_state[PRESENT_WIDGET]))
        st.caption("Each chapter opens with its sources' example until you change K or the relevance; "
                   "then your choices follow you. The link below restores exactly this view.")
        share_link()
        st.button("Start over", on_click=_start_over, help="Back to the sources' rankings, grades and defaults.",
                  width="stretch")
