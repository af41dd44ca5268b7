"""The controls shared by every chapter, in the sidebar: K, relevance mode, presentation mode, link.

Widgets hold no state of their own: each run seeds them from the learner's state, and their
callbacks write the learner's state, so the values persist when moving between chapters
(Streamlit forgets the widgets of pages that are not shown).
"""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from irlab.ui.markdown import escape_markdown
from irlab.ui.share import share_link
from irlab.ui.state import current_state, set_state
from irlab.walkthrough.chapters import Chapter
from irlab.walkthrough.state import DEFAULT_STATE, MODES, SCENARIO, WalkthroughState
from irlab.walkthrough.views import relevance_rule

K_WIDGET = "irlab.widget.k"
MODE_WIDGET = "irlab.widget.mode"
PRESENT_WIDGET = "irlab.widget.present"
RETURNED_WIDGET = "irlab.widget.returned"

MODE_LABELS = {"binary": "Binary: \u201ccat in a box\u201d", "graded": "Graded 0\u20134: \u201cwhite cat in a box\u201d"}


def _update(**changes: object) -> None:
    set_state(replace(current_state(), **changes))


def _start_over() -> None:
    set_state(replace(DEFAULT_STATE, present=current_state().present))


def sidebar_controls(state: WalkthroughState, chapter: Chapter) -> None:
    """K slider, relevance mode, presentation mode, the share link and "start over"."""
    n = len(SCENARIO.items)
    with st.sidebar:
        st.session_state[K_WIDGET] = state.effective_k(chapter)
        k_help = ("How many results the system returns: the top K are predicted relevant."
                  if chapter.uses_k else "MRR looks at the whole ranking; K only sets MRR@K, shown below the table.")
        st.slider("K: results returned", 1, n, key=K_WIDGET, help=k_help,
                  on_change=lambda: _update(k=st.session_state[K_WIDGET]))
        st.session_state[MODE_WIDGET] = "binary" if chapter.binary_only else state.effective_mode(chapter)
        st.radio("Relevance", MODES, key=MODE_WIDGET, format_func=MODE_LABELS.get, disabled=chapter.binary_only,
                 on_change=lambda: _update(mode=st.session_state[MODE_WIDGET]),
                 help=("This chapter's three queries are judged relevant or not, so it is binary only."
                       if chapter.binary_only else "Binary: relevant or not. Graded: 0 (no box) to 4 (a white cat in "
                                                   "a box)."))
        if chapter.binary_only:
            st.caption("Binary only here: the three queries of this chapter are judged relevant or not, so there "
                       "are no grades to choose from.")
        st.session_state[PRESENT_WIDGET] = state.present
        st.toggle("Presentation mode", key=PRESENT_WIDGET, help="Larger type and tiles, less text: for a projector.",
                  on_change=lambda: _update(present=st.session_state[PRESENT_WIDGET]))
        st.caption("Each chapter opens with its sources' example until you change K or the relevance; "
                   "then your choices follow you. The link below restores exactly this view.")
        share_link()
        st.button("Start over", on_click=_start_over, help="Back to the sources' rankings, grades and defaults.",
                  width="stretch")


LEVEL_WIDGET = "irlab.w.level"


def relevance_level_control(state: WalkthroughState, chapter: Chapter) -> None:
    """What counts as relevant, always said; in graded mode, the level to choose (trec_eval's ``-l``).

    Chapters 1-2 compute binary measures; from grades, an item is relevant when its grade is at least the level.
    """
    rule = relevance_rule(state, chapter)
    if state.effective_mode(chapter) != "graded":
        st.caption(escape_markdown(rule))
        return
    top = state.graded_judgments().max_grade
    st.session_state[LEVEL_WIDGET] = state.effective_level(chapter)
    left, right = st.columns([2, 3], vertical_alignment="center")
    left.segmented_control("Relevant from grade", list(range(1, top + 1)), key=LEVEL_WIDGET, required=True,
                           on_change=lambda: _update(level=st.session_state[LEVEL_WIDGET]),
                           help="Binary measures need relevant or not: a picture counts as relevant when its grade "
                                "is at least this (trec_eval's -l). Change it and watch the counts.")
    right.caption(escape_markdown(rule))


def returned_control(state: WalkthroughState) -> None:
    """Conventions: how many of the ranked items the system actually returned."""
    n = len(SCENARIO.items)
    st.session_state[RETURNED_WIDGET] = state.returned if state.returned is not None else n
    st.slider("Items the system returned", 1, n, key=RETURNED_WIDGET,
              help="A run can return fewer items than K; several conventions differ exactly then.",
              on_change=lambda: _update(returned=st.session_state[RETURNED_WIDGET]))
