"""Which is it, as the pages show it: the lecturer's form, the projector's blocks, the student's options.

The kind itself (the questions, the right options computed by IR Lab, the shares) is
:mod:`irlab.classroom.activities.choice`; this module only draws what it returns:

* **lecturer**: :func:`settings_form`: a question about a walkthrough state (which pictures are TP/FP/FN/TN
  at K; which query has the lowest AP@K or RR) or a concept question from the bank;
* **projector**: :func:`projector_blocks`: the question and its pictures; from 3 answers on each round's share
  of each option as bars (live, without names); after the reveal the right options marked, how many were right,
  the named mistakes, and why;
* **student**: the options as large buttons (one, or several where the question says so), Send; after the
  reveal whether the choice was right and why.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from irlab.classroom.activities.base import MIN_ANSWERS_SHOWN
from irlab.classroom.activities.choice import (
    CLASSES,
    LOWEST,
    ChoiceFeedback,
    ChoiceQuestion,
    ChoiceSolution,
    ChoiceSummary,
)
from irlab.classroom.activities.concepts import CONCEPT, CONCEPTS
from irlab.classroom.records import ActivityReport, StudentActivity
from irlab.metrics.confusion import CLASS_LABELS
from irlab.ui.classroom.charts import answers, bars_spec, describe_bars
from irlab.ui.classroom.links import pick_state
from irlab.ui.kit.gallery import picture_strip
from irlab.ui.kit.markdown import escape_markdown
from irlab.ui.kit.screen import block_json
from irlab.walkthrough.screens import Chart, Columns, Details, Heading, Paragraph, Pictures, Table
from irlab.walkthrough.state import SCENARIO
from irlab.walkthrough.urlstate import params_from_state
from irlab.walkthrough.views import TileRow

KIND = "choice"
STATE_QUESTION, CONCEPT_QUESTION = "About a walkthrough state", "A concept question"
ABOUT = {**{name: f"Which pictures are {CLASS_LABELS[name[6:]]}s ({name[6:]}) at K?" for name in CLASSES},
         "lowest:AP": "Which query has the lowest AP@K? (chapter 4)", "lowest:RR": "Which query has the lowest RR? "
         "(chapter 3)"}


# --- the lecturer's form ---------------------------------------------------------------------------------------------

def settings_form(prefix: str) -> dict[str, Any] | None:
    """The activity's raw settings (for the kind to check), or None while the form is incomplete."""
    what = st.radio("Question", (STATE_QUESTION, CONCEPT_QUESTION), key=f"{prefix}what", horizontal=True)
    if what == CONCEPT_QUESTION:
        concept = st.selectbox("Concept question", [c.id for c in CONCEPTS], key=f"{prefix}concept",
                               format_func=lambda c: CONCEPT[c].title)
        return {"concept": concept}
    picked = pick_state(prefix, "The state", chapter_slug="actual-vs-predicted", placeholder="http://.../map?k=3")
    if picked is None:
        return None
    chapter, state, link = picked
    offered = [*CLASSES, *(name for name, slug in LOWEST.items() if slug == chapter.slug)]
    about = st.selectbox("Ask", offered, key=f"{prefix}about.{chapter.slug}", format_func=ABOUT.get)
    if link is not None:
        return {"link": link, "about": about}
    return {"chapter": chapter.slug, "params": params_from_state(state, chapter), "about": about}


# --- the projector ---------------------------------------------------------------------------------------------------

def _badges(row: TileRow, k: int | None) -> tuple[str, ...]:
    cut = (lambda rank: " \u00b7 returned" if rank <= k else " \u00b7 not returned") if k else (lambda rank: "")
    return tuple(f"{rank} \u00b7 {tile['relevance_label']}{cut(rank)}" for rank, tile in enumerate(row.tiles, 1))


def _question_blocks(question: ChoiceQuestion) -> list:
    blocks: list = [Heading("prompt", question.prompt)]
    if question.hint:
        blocks.append(Paragraph("hint", question.hint))
    for row in question.rows:
        if len(question.rows) > 1:
            blocks.append(Paragraph(f"{row.key}-label", row.label))
        blocks.append(Pictures(f"{row.key}-pictures", tuple(str(t["id"]) for t in row.tiles), _badges(row, question.k)))
    if not question.rows:  # a concept question: the options in words
        blocks.append(Table("options", ("Option",), tuple((text,) for _, text in question.options)))
    return blocks


def _round_block(summary: ChoiceSummary) -> Details:
    key = f"round-{summary.round}"
    title = f"Round {summary.round}: {answers(summary.count)} ({summary.state})"
    if summary.options is None:
        why = (f"The shares show from {MIN_ANSWERS_SHOWN} answers on." if summary.count < MIN_ANSWERS_SHOWN
               else "Hidden until the reveal.")
        return Details(key, title, (Paragraph(f"{key}-none", why),), open=True)
    labels = [o.text for o in summary.options]
    counts = [o.count for o in summary.options]
    marked = [bool(o.right) for o in summary.options]
    body: list = []
    if summary.correct is not None:
        body.append(Paragraph(f"{key}-right", f"{summary.correct} of {summary.count} "
                                              f"({summary.correct / summary.count:.0%})", lead="Right:"))
    body.append(Chart(f"{key}-shares", bars_spec(labels, counts, marked=marked, total=summary.count),
                      describe_bars(labels, counts, summary.count, marked=marked)))
    if summary.mistakes:
        body.append(Table(f"{key}-mistakes", ("Named mistake", "Answers"),
                          tuple((m.title, str(m.count)) for m in summary.mistakes)))
    return Details(key, title, tuple(body), open=True)


def projector_blocks(report: ActivityReport) -> list[dict[str, Any]]:
    """The live region's blocks for a which-is-it activity (JSON)."""
    question: ChoiceQuestion = report.question
    asked = _question_blocks(question)
    shown: tuple[ChoiceSummary, ...] = report.summaries
    rounds = Columns("rounds", tuple(_round_block(s) for s in shown))  # every round, counted, also below three
    solution: ChoiceSolution | None = report.solution
    if solution is None:
        blocks = [*asked, rounds] if shown else asked
    else:  # the right answer and why, then the class's answers, on the first screen; the question folded below
        blocks = [asked[0], Heading("answer", f"The right answer: {solution.text}"),
                  Paragraph("why", solution.why, lead="Why:"), rounds,
                  Details("question-options", "The question", tuple(asked[1:]))]
    return [block_json(block) for block in blocks]


# --- the student -----------------------------------------------------------------------------------------------------

def student_question(question: ChoiceQuestion) -> None:
    """The question and, for a state, its pictures with ranks, relevance and whether returned."""
    st.markdown(f"**{escape_markdown(question.prompt)}**")
    for row in question.rows:
        if len(question.rows) > 1:
            st.caption(escape_markdown(row.label))
        picture_strip([SCENARIO.item(str(t["id"])) for t in row.tiles], badges=_badges(row, question.k))


def answer_form(activity: StudentActivity) -> dict[str, Any]:
    """The options as large buttons (one, or several where the question says so), and Send."""
    question: ChoiceQuestion = activity.question
    hint = question.hint or ("Choose every one that fits." if question.several else "Choose one.")
    return {"kind": "options", "label": hint, "several": question.several, "send": "Send",
            "options": [{"id": option, "text": question.label(option)} for option, _ in question.options]}


def student_result(activity: StudentActivity) -> None:
    """After the reveal: right or not, the right answer, and why."""
    feedback: ChoiceFeedback | None = activity.feedback
    solution: ChoiceSolution | None = activity.solution
    if feedback is None:
        st.info("You did not answer this round.", icon=":material/info:")
        if solution is not None:
            st.markdown(f"The right answer: **{escape_markdown(solution.text)}**. {escape_markdown(solution.why)}")
    elif feedback.correct:
        st.success(escape_markdown(feedback.message), icon=":material/check_circle:")
    else:
        st.error(escape_markdown(feedback.message), icon=":material/cancel:")
