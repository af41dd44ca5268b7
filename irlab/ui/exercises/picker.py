"""The builder's question picker: measure family, K, variants, query or mean, system, then "Add".

The measure name is built by :func:`irlab.exercises.builder.measure_picker.measure_text` and shown before it is
added, so a lecturer learns the spelling the table accepts when typed.
"""

from __future__ import annotations

import streamlit as st

from irlab.errors import ValidationError
from irlab.exercises import MEAN
from irlab.exercises.builder.drafts import add_question, question_id
from irlab.exercises.builder.measure_picker import FAMILY_LABELS, measure_choices, measure_text, takes_k, takes_rel
from irlab.ui.exercises.editor import questions
from irlab.ui.exercises.state import DRAFT, Builder, commit
from irlab.ui.kit.markdown import escape_markdown

KEY = "irlab.builder.pick."


def _add(measure: str, query: str, system: str, prompt: str) -> None:
    commit(add_question(st.session_state[DRAFT], measure, query, system, prompt),
           f"Added the question {measure} ({'mean over queries' if query == MEAN else 'query ' + query}).")


def picker(state: Builder) -> None:
    """Widgets that build one question and add it to the draft."""
    draft = state.draft
    query_ids = list(dict.fromkeys(str(q.get("id")) for q in draft["queries"] if q.get("id")))
    system_ids = list(dict.fromkeys(str(s.get("id")) for s in draft["systems"] if s.get("id")))
    texts = {str(q.get("id")): q.get("text") or "" for q in draft["queries"]}
    with st.container(border=True):
        st.markdown("**Add a question**")
        first, second, third, fourth = st.columns(4)
        family = first.selectbox("Measure", list(FAMILY_LABELS), format_func=FAMILY_LABELS.get, key=KEY + "family")
        cut = takes_k(family)
        k = None
        if cut != "none":
            k = second.number_input("K (cut-off)" if cut == "required" else "K (blank: the whole ranking)",
                                    min_value=1, max_value=200, step=1, key=KEY + "k",
                                    value=5 if cut == "required" else None, placeholder="whole ranking")
        query = third.selectbox("Query", [*query_ids, MEAN], key=KEY + "query",
                                format_func=lambda q: "Mean over all queries" if q == MEAN
                                else f"{q}: {texts.get(q)}" if texts.get(q) else q)
        system = fourth.selectbox("System", system_ids, key=KEY + "system")
        choices = measure_choices(family)
        options = {}
        columns = st.columns(max(len(choices) + takes_rel(family), 1))
        for column, (param, values) in zip(columns, choices.items()):
            labels = dict(values)
            options[param] = column.selectbox(param.capitalize(), list(labels), format_func=labels.get,
                                              key=KEY + family + param)
        rel = None
        if takes_rel(family):
            rel = columns[-1].number_input("Relevant from grade", min_value=1, max_value=20, step=1, value=1,
                                           key=KEY + "rel", help="Items with at least this grade count as relevant.")
        prompt = st.text_input("Prompt (optional; shown instead of the generated question text)", key=KEY + "prompt")
        if cut == "required" and k is None:
            st.caption(f"{FAMILY_LABELS[family]} needs a K.")
            return
        try:
            measure = measure_text(family, k, options, rel)
        except ValidationError as error:
            st.error(escape_markdown(str(error)), icon=":material/error:")
            return
        left, right = st.columns([3, 1], vertical_alignment="center")
        left.markdown(f"Measure name: **{escape_markdown(measure)}** · question id "
                      f"**{escape_markdown(question_id(draft, measure, query or ''))}**")
        right.button("Add this question", icon=":material/add:", disabled=not (query and system), width="stretch",
                     on_click=_add, args=(measure, query, system, prompt), key=KEY + "add")


def questions_tab(state: Builder) -> None:
    """The builder's questions: the measure picker, then the table of questions."""
    picker(state)
    questions(state)
