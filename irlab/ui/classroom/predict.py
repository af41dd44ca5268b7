"""Predict a number, as the pages show it: the lecturer's form, the projector's blocks, the student's screen.

The kind itself (settings, checking, summaries, the right answer with its breakdown) is
:mod:`irlab.classroom.activities.predict`; this module only draws what it returns:

* **lecturer**: :func:`settings_form` asks for a walkthrough state (this session's, or a pasted
  walkthrough link), a number the chapter shows (:func:`~irlab.classroom.activities.chapter_numbers.offered`)
  and a tolerance, and returns the raw settings the kind checks;
* **projector**: :func:`projector_blocks` gives the live region's blocks: the question and its ranking,
  and once revealed, the right answer, then each round's histogram, share within tolerance and named
  mistakes side by side (the ranking folded below them, so the answer and the class's answers fill the
  projector's first screen), then the breakdown (the chapter's own computation);
* **student**: :func:`student_question`, :func:`answer_form` and :func:`student_result` (after the reveal,
  Practise's verdict in words: :attr:`irlab.exercises.questions.answers.Feedback.message`).

Every text that reaches the screen is plain text: the region sets it as text, Streamlit elements get
it Markdown-escaped.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import streamlit as st

from irlab.classroom.activities.base import MIN_ANSWERS_SHOWN
from irlab.classroom.activities.chapter_numbers import chapter_number, offered
from irlab.classroom.activities.predict import NumberSummary, PredictQuestion, PredictSolution, predict_settings
from irlab.classroom.records import ActivityReport, StudentActivity
from irlab.exercises.model import DEFAULT_TOLERANCE
from irlab.exercises.questions.answers import Feedback
from irlab.explain.formula import format_number
from irlab.ui.classroom.charts import answers, describe_histogram, describe_live, histogram_spec
from irlab.ui.classroom.links import pick_state
from irlab.ui.kit.formulas import breakdown as breakdown_markdown
from irlab.ui.kit.gallery import picture_strip
from irlab.ui.kit.markdown import escape_markdown
from irlab.ui.kit.screen import block_json
from irlab.walkthrough.screens import Chart, Columns, Details, Heading, Paragraph, Pictures, Table, breakdown
from irlab.walkthrough.state import SCENARIO
from irlab.walkthrough.urlstate import params_from_state
from irlab.walkthrough.views import TileRow

KIND = "predict"


# --- the lecturer's form ---------------------------------------------------------------------------------------------

def settings_form(prefix: str) -> dict[str, Any] | None:
    """The question's settings (raw, for the kind to check), or None while the form is incomplete; widgets keyed
    under ``prefix``."""
    picked = pick_state(prefix, "The ranking and K", chapter_slug="ndcg", placeholder="http://.../ndcg?order=2,1,...&k=3")
    if picked is None:
        return None
    chapter, state, link = picked
    described = ", ".join(f"{name} {value}" for name, value in params_from_state(state, chapter).items())
    st.caption(escape_markdown(f"{chapter.title}: {described}"))
    choices = dict(offered(state, chapter))
    number = st.selectbox("Number to predict", list(choices), format_func=choices.get,
                          key=f"{prefix}number.{chapter.slug}")
    whole = chapter_number(state, chapter, number).whole_numbers
    tolerance = st.number_input("Tolerance (\u00b1)", min_value=0.0, max_value=1.0, step=0.001, format="%.3f",
                                value=0.0 if whole else DEFAULT_TOLERANCE, key=f"{prefix}tolerance.{number}",
                                help="An answer this close to the right value counts as right.")
    if link is not None:
        return {"link": link, "number": number, "tolerance": float(tolerance)}
    return predict_settings(state, chapter, number, float(tolerance))


# --- the projector ---------------------------------------------------------------------------------------------------

def _badges(row: TileRow) -> tuple[str, ...]:
    return tuple(f"{rank} \u00b7 {tile['relevance_label']}" for rank, tile in enumerate(row.tiles, 1))


def _ranking_blocks(question: PredictQuestion) -> list:
    blocks: list = []
    for row in question.rows:
        if len(question.rows) > 1:
            blocks.append(Paragraph(f"{row.key}-label", row.label))
        blocks.append(Pictures(f"{row.key}-pictures", tuple(str(tile["id"]) for tile in row.tiles), _badges(row)))
    return blocks


def _round_block(summary: NumberSummary, y_max: int, right: str, tolerance: str) -> Details:
    """One round, opened: its count, and once shown its share within tolerance, histogram and named mistakes."""
    key = f"round-{summary.round}"
    title = f"Round {summary.round}: {answers(summary.count)} ({summary.state})"
    return Details(key, title, tuple(_round_body(key, summary, y_max, right, tolerance)), open=True)


def _round_body(key: str, summary: NumberSummary, y_max: int, right: str, tolerance: str) -> list:
    if summary.histogram is None:
        why = (f"The distribution shows from {MIN_ANSWERS_SHOWN} answers on." if summary.count < MIN_ANSWERS_SHOWN
               else "Hidden until the reveal.")
        return [Paragraph(f"{key}-none", why)]
    if summary.within is None:  # shown live: the spread only, nothing that tells the right answer
        return [Chart(f"{key}-chart", histogram_spec(summary, y_max=y_max, right_text=""),
                      describe_live(summary))]
    blocks: list = []
    share = summary.share_within or 0.0
    blocks.append(Paragraph(f"{key}-within", f"{summary.within} of {summary.count} ({share:.0%}) within "
                                              f"\u00b1{tolerance} of {right}", lead="Right:"))
    blocks.append(Chart(f"{key}-chart", histogram_spec(summary, y_max=y_max, right_text=right),
                        describe_histogram(summary, right, tolerance)))
    if summary.mistakes:
        blocks.append(Table(f"{key}-mistakes", ("Named mistake", "Answers"),
                            tuple((m.title, str(m.count)) for m in summary.mistakes)))
    else:
        blocks.append(Paragraph(f"{key}-mistakes-none", "No wrong answer matches a known mistake."))
    return blocks


def projector_blocks(report: ActivityReport) -> list[dict[str, Any]]:
    """The live region's blocks for one predict activity (as JSON): the question, then the reveal if any."""
    question: PredictQuestion = report.question
    blocks: list = [Heading("prompt", question.prompt)]
    solution: PredictSolution | None = report.solution
    if solution is None:
        blocks += _ranking_blocks(question)
        live: Sequence[NumberSummary] = report.summaries
        if any(s.histogram is not None for s in live):  # the lecturer shows the answers live
            y_max = max((b.count for s in live if s.histogram for b in s.histogram.bins), default=1)
            blocks.append(Columns("rounds", tuple(_round_block(s, y_max, "", "") for s in live)))
    else:  # the class's answers on the first screen; the ranking one click away
        right = solution.display_value
        tolerance = format_number(question.tolerance)
        shown: Sequence[NumberSummary] = report.summaries
        y_max = max((b.count for s in shown if s.histogram for b in s.histogram.bins), default=1)
        blocks.append(Heading("answer", f"The right answer: {solution.number.label} = {right}"))
        blocks.append(Columns("rounds", tuple(_round_block(s, y_max, right, tolerance) for s in shown)))
        blocks.append(Details("question-ranking", "The ranking in the question", tuple(_ranking_blocks(question))))
        blocks.append(breakdown("breakdown", solution.number.breakdown, heading=""))
    return [block_json(block) for block in blocks]


# --- the student -------------------------------------------------------------------------------------------------

def student_question(question: PredictQuestion) -> None:
    """The question and its ranking, on a phone."""
    st.markdown(f"**{escape_markdown(question.prompt)}**")
    for row in question.rows:
        if len(question.rows) > 1:
            st.caption(escape_markdown(row.label))
        picture_strip([SCENARIO.item(str(tile["id"])) for tile in row.tiles], badges=_badges(row))


def answer_form(activity: StudentActivity) -> dict[str, Any]:
    """The answer form of the activity's open round: a text box with a phone's number keyboard, and Send (drawn and sent
    by the answer component, :mod:`irlab.ui.components.classanswer`)."""
    question: PredictQuestion = activity.question
    hint = "a whole number, e.g. 3" if question.whole_numbers else "e.g. 0.75, 0,75, 3/4 or 75%"
    return {"kind": "number", "label": f"Your answer: {question.label}", "placeholder": hint,
            "whole": question.whole_numbers, "send": "Send"}


def student_result(activity: StudentActivity) -> None:
    """After the reveal: whether the student was right and why (Practise's words), and the right answer."""
    feedback: Feedback | None = activity.feedback
    solution: PredictSolution | None = activity.solution
    if feedback is None:
        st.info("You did not answer this round.", icon=":material/info:")
    elif feedback.correct:  # Practise's words: "Correct: 0.39 is within 0.005 of 0.3869."
        st.success(escape_markdown(feedback.message), icon=":material/check_circle:")
    else:  # "Not quite: ... It looks like a known mistake (...). ... That computation gives 0.47."
        st.error(escape_markdown(feedback.message), icon=":material/cancel:")
    if solution is None:
        return
    st.markdown(f"The right answer: **{escape_markdown(solution.number.label)} = "
                f"{escape_markdown(solution.display_value)}**")
    breakdown_markdown(solution.number.breakdown, SCENARIO.labels(), table_label="Rank by rank")
