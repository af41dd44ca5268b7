"""Predict, then reveal: the practice page's quiz on random rankings of the eight pictures.

The question, the value and the scoring are :mod:`irlab.walkthrough.quiz` (pure); this module keeps the
seed, the chosen metric and K, the revealed questions and the session's scores in
``st.session_state`` and draws the widgets.
"""

from __future__ import annotations

import secrets

import streamlit as st

from irlab.scenarios.cats_in_boxes import CATS_IN_BOXES
from irlab.ui.kit import formulas
from irlab.ui.kit.gallery import picture_strip
from irlab.ui.kit.markdown import escape_markdown
from irlab.walkthrough.quiz import (
    METRICS,
    N_PICTURES,
    TOLERANCES,
    QuizQuestion,
    make_question,
    next_seed,
    record,
    reveal,
    score_rows,
    total,
)

SEED = "irlab.quiz.seed"
REVEALED = "irlab.quiz.revealed"
SCORES = "irlab.quiz.scores"
W = "irlab.quiz.w."


def _new_ranking() -> None:
    st.session_state[SEED] = next_seed(st.session_state[SEED])


def _reveal(question: QuizQuestion, key: str) -> None:
    name = (question.seed, question.metric, question.k)
    revealed = st.session_state.setdefault(REVEALED, {})
    result = reveal(question, st.session_state.get(key) or "", st.session_state.get(W + "tolerance", TOLERANCES[0]))
    if name not in revealed and result.within is not None:
        st.session_state[SCORES] = record(st.session_state.get(SCORES, {}), question.metric, result.within)
    if name not in revealed or result.within is not None:
        revealed[name] = result


def controls() -> QuizQuestion:
    """Metric, K and tolerance; the question they make with the current seed."""
    seed = st.session_state.setdefault(SEED, secrets.randbelow(999_999) + 1)
    metric = st.radio("Metric", list(METRICS), format_func=lambda m: METRICS[m].label, key=W + "metric",
                      horizontal=True)
    middle, right = st.columns(2)
    k = middle.slider("K", 1, N_PICTURES, 3, key=W + "k", disabled=not METRICS[metric].uses_k,
                      help="The cut-off: the top K pictures count as returned."
                           if METRICS[metric].uses_k else "This metric looks at the whole ranking.")
    right.radio("Count a prediction as right within", TOLERANCES, format_func=lambda t: f"\u00b1 {t:g}",
                key=W + "tolerance", horizontal=True)
    return make_question(seed, metric, k)


def quiz() -> None:
    """The whole quiz: the ranking, the prediction, the reveal with its breakdown, the scores."""
    question = controls()
    st.markdown(f"**{escape_markdown(question.prompt)}** {escape_markdown(METRICS[question.metric].hint)}")
    picture_strip([CATS_IN_BOXES.item(i) for i in question.ranking], badges=question.badges())
    left, right = st.columns([4, 1], vertical_alignment="center")
    left.caption(f"Ranking no. {question.seed}. Under each picture: its rank · its judgment for "
                 f"\u201c{escape_markdown(question.query.text)}\u201d"
                 + (f" · top {question.k} when it is among the {question.k} pictures returned."
                    if question.k is not None else "."))
    right.button("New ranking", on_click=_new_ranking, icon=":material/shuffle:", width="stretch", key=W + "new")
    key = f"{W}prediction.{question.seed}.{question.metric}.{question.k}"
    with st.form(W + "form", border=False, enter_to_submit=True):
        left, right = st.columns([4, 1], vertical_alignment="bottom")
        left.text_input("Your prediction", key=key, placeholder="e.g. 0.5, 1/3 or 40%")
        right.form_submit_button("Reveal", icon=":material/visibility:", type="primary", width="stretch",
                                 on_click=_reveal, args=(question, key))
    result = st.session_state.get(REVEALED, {}).get((question.seed, question.metric, question.k))
    if result is not None:
        if result.within is None:
            st.warning(escape_markdown(result.message), icon=":material/help:")
        elif result.within:
            st.success(escape_markdown(result.message), icon=":material/check_circle:")
        else:
            st.error(escape_markdown(result.message), icon=":material/cancel:")
        st.metric(result.breakdown.measure, result.breakdown.display_value, border=True, width="content")
        formulas.breakdown(result.breakdown, CATS_IN_BOXES.labels())
    scores = st.session_state.get(SCORES, {})
    if scores:
        overall = total(scores)
        st.markdown(f"**Your score this session: {overall.correct} of {overall.attempted} predictions within "
                    "the tolerance.**")
        formulas.table_of(["metric", "within tolerance", "revealed"], score_rows(scores))
