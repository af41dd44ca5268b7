"""An exercise in class, as the pages show it: the lecturer's form and gradebook, the projector's rates, the student's
variant.

The kind itself (sources, variants bound to the student, Practise's check, success rates, the gradebook's
rows) is :mod:`irlab.classroom.activities.exercise`; this module only draws what it returns:

* **lecturer**: :func:`settings_form`: a built-in exercise, a Practise share link or an uploaded exercise file;
  :func:`downloads`: the gradebook CSV of the latest round (the columns of ``irlab exercise grade``);
* **projector**: :func:`projector_blocks`: live, from 3 answers on, each question's success rate and the most
  common named mistakes as bars, without names;
* **student**: their own variant (the rankings with grades), a box per question with the phone's number
  keyboard, Send (answers can be sent again while the round is open); after the reveal Practise's feedback on
  each answered question and the answer key of their variant.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import streamlit as st

from irlab.classroom.activities.base import MIN_ANSWERS_SHOWN
from irlab.classroom.activities.exercise import (
    ExerciseFeedback,
    ExerciseQuestion,
    ExerciseSummary,
    QuestionRate,
    gradebook,
)
from irlab.classroom.records import ActivityReport, StudentActivity
from irlab.data.scenario import Item
from irlab.exercises import BUILTIN_NAMES, Exercise, answer_key, builtin_exercise
from irlab.scenarios.art import ALT_TEXT
from irlab.ui.classroom.charts import answers, bars_spec, describe_bars
from irlab.ui.kit.formulas import table_of
from irlab.ui.kit.gallery import picture_strip
from irlab.ui.kit.markdown import escape_markdown
from irlab.ui.kit.screen import block_json
from irlab.walkthrough.screens import Chart, Columns, Details, Heading, Paragraph

KIND = "exercise"
BUILT_IN, SHARE_LINK, UPLOAD = "Built in", "A share link (Practise)", "An exercise file"
MAX_UPLOAD = 200_000


# --- the lecturer ----------------------------------------------------------------------------------------------------

def settings_form(prefix: str) -> dict[str, Any] | None:
    """The activity's raw settings (for the kind to check), or None while the form is incomplete."""
    source = st.radio("Exercise", (BUILT_IN, SHARE_LINK, UPLOAD), key=f"{prefix}source", horizontal=True)
    st.caption("Each student gets their own variant (the rankings shuffled a little, seeded by the class); "
               "answers are checked as on Practise.")
    if source == BUILT_IN:
        name = st.selectbox("Built-in exercise", BUILTIN_NAMES, key=f"{prefix}builtin",
                            format_func=lambda n: f"{builtin_exercise(n).title} ({n})")
        return {"builtin": name}
    if source == SHARE_LINK:
        link = st.text_input("Share link", key=f"{prefix}link", placeholder="http://.../practise?exercise=ex1....")
        return {"link": link} if link else None
    upload = st.file_uploader("Exercise file (JSON)", type=["json"], key=f"{prefix}file")
    if upload is None:
        return None
    data = upload.getvalue()
    if len(data) > MAX_UPLOAD:
        st.warning(f"The file is larger than {MAX_UPLOAD:,} bytes.", icon=":material/warning:")
        return None
    return {"file": data.decode("utf-8", errors="replace")}


def downloads(report: ActivityReport) -> list[tuple[str, str, str]]:
    """(label, file name, CSV text): the gradebook of the latest round with answers."""
    question: ExerciseQuestion = report.question
    answered = [s for s in report.summaries if s.grades]
    if not answered:
        return []
    latest: ExerciseSummary = answered[-1]
    name = f"irlab-class-gradebook-{report.info.position}-round-{latest.round}.csv"
    return [(f"Download the gradebook, round {latest.round} (CSV)", name, gradebook(question.exercise, latest))]


# --- the projector ---------------------------------------------------------------------------------------------------

def describe_rates(rates: Sequence[QuestionRate]) -> str:
    """The rates chart in words: each answered question's right answers, then the unanswered ones named once.

    >>> describe_rates([QuestionRate("q1", "P@5", 20, 12), QuestionRate("q2", "R@5", 0, 0),
    ...                 QuestionRate("q3", "AP", 0, 0)])
    'Right answers per question: q1 12 of 20. Not answered yet: q2, q3.'
    """
    answered = [f"{r.id} {r.right} of {r.answered}" for r in rates if r.answered]
    waiting = [r.id for r in rates if not r.answered]
    words = ["Right answers per question: " + "; ".join(answered) + "." if answered else "No question answered yet."]
    if answered and waiting:
        words.append("Not answered yet: " + ", ".join(waiting) + ".")
    return " ".join(words)


def _round_block(summary: ExerciseSummary) -> Details:
    key = f"round-{summary.round}"
    title = f"Round {summary.round}: {answers(summary.count)} ({summary.state})"
    if summary.rates is None:
        why = (f"The rates show from {MIN_ANSWERS_SHOWN} answers on." if summary.count < MIN_ANSWERS_SHOWN
               else "Hidden until the reveal.")
        return Details(key, title, (Paragraph(f"{key}-none", why),), open=True)
    labels = [f"{r.id}: {r.right} of {r.answered} right" if r.answered else f"{r.id}: not answered yet"
              for r in summary.rates]
    rates = [round(100 * (r.rate or 0.0)) for r in summary.rates]
    spec = bars_spec(labels, rates)
    spec["data"][0]["text"] = [f"{v}%" if r.answered else "" for v, r in zip(rates, summary.rates)]
    spec["layout"]["xaxis"].update({"range": [0, 118], "dtick": 25, "title": {"text": "% right"}})
    body: list = [Chart(f"{key}-rates", spec, describe_rates(summary.rates))]
    if summary.mistakes:
        top = summary.mistakes[:5]
        mistake_labels, counts = [m.title for m in top], [m.count for m in top]
        body.append(Heading(f"{key}-mistakes-title", "The most common named mistakes"))
        body.append(Chart(f"{key}-mistakes", bars_spec(mistake_labels, counts),
                          describe_bars(mistake_labels, counts, sum(counts))))
    else:
        body.append(Paragraph(f"{key}-mistakes-none", "No wrong answer matches a known mistake yet."))
    return Details(key, title, tuple(body), open=True)


def projector_blocks(report: ActivityReport) -> list[dict[str, Any]]:
    """The live region's blocks for an exercise (JSON): its title, then each round's rates and mistakes, live."""
    question: ExerciseQuestion = report.question
    exercise = question.exercise
    blocks: list = [Heading("prompt", f"Exercise: {exercise.title}"),
                    Paragraph("how", f"{len(exercise.questions)} questions; every student works their own variant "
                                     "on their device, checked as on Practise.")]
    summaries: tuple[ExerciseSummary, ...] = report.summaries
    blocks.append(Columns("rounds", tuple(_round_block(s) for s in summaries)))
    return [block_json(block) for block in blocks]


# --- the student -----------------------------------------------------------------------------------------------------

def _grade(grade: int, scale: str, top: int) -> str:
    return ("relevant" if grade else "not relevant") if scale == "binary" else f"grade {grade} of {top}"


def _rankings(exercise: Exercise) -> None:
    """Each system's ranking for each query: pictures with rank and grade when every item has one, else a table;
    then the judged items not returned (they count for recall, AP and IDCG)."""
    for query in exercise.queries:
        judgments = query.judgments
        for system in exercise.systems:
            ranking = exercise.ranking(system.id, query.id)
            items = [exercise.item(i) for i in ranking]
            st.markdown(f"**Query {escape_markdown(query.display_text)}**, system "
                        f"{escape_markdown(system.name or system.id)}")
            badges = [f"{rank} \u00b7 {_grade(judgments.grade(i.id), judgments.scale, judgments.max_grade)}"
                      for rank, i in enumerate(items, start=1)]
            if items and all(i.picture for i in items) and len(items) <= 12:
                picture_strip([Item(id=i.id, title=i.label, alt=ALT_TEXT.get(i.picture, i.label), picture=i.picture)
                               for i in items], badges=badges)
            else:
                table_of(["rank", "item", "grade"], [[str(r), i.label, str(judgments.grade(i.id))]
                                                     for r, i in enumerate(items, start=1)])
            missing = [item for item, grade in judgments.items() if grade > 0 and item not in ranking]
            if missing:
                st.caption(escape_markdown(f"Judged relevant but not returned: {', '.join(missing)}"))


def student_question(question: ExerciseQuestion) -> None:
    """The student's own variant: its title, its seed, and the rankings with their grades."""
    variant = f" \u00b7 your variant {question.seed}" if question.seed is not None else ""
    st.markdown(f"**{escape_markdown(question.exercise.title)}**{variant}")  # the seed is a number: nothing to escape
    _rankings(question.exercise)


def answer_form(activity: StudentActivity) -> dict[str, Any]:
    """A box per question (a phone's number keyboard), then Send: every answer typed so far, as one answer."""
    question: ExerciseQuestion = activity.question
    return {"kind": "boxes", "label": "", "send": "Send my answers",
            "boxes": [{"id": question_id, "label": f"{number}. {text}"}
                      for number, (question_id, text) in enumerate(question.questions, start=1)]}


def student_result(activity: StudentActivity) -> None:
    """After the reveal: how many were right, and Practise's feedback on each answered question."""
    feedback: ExerciseFeedback | None = activity.feedback
    if feedback is None:
        st.info("You did not send answers in this round.", icon=":material/info:")
        return
    summary = f"{feedback.right} of {feedback.questions} right."
    (st.success if feedback.correct else st.warning)(summary)
    texts = dict(activity.question.questions)
    for question_id, found in feedback.feedback:
        st.markdown(f"**{escape_markdown(texts.get(question_id, question_id))}**")
        (st.success if found.correct else st.error)(escape_markdown(found.message))
    solution: ExerciseQuestion | None = activity.solution
    if solution is not None:  # the lecturer revealed: the right values of the student's own variant
        with st.expander("The answer key of your variant"):
            table_of(["question", "right answer"], [[f"{n}. {texts.get(entry.question.id, entry.question.id)}",
                                                    entry.breakdown.display_value]
                                                   for n, entry in enumerate(answer_key(solution.exercise), start=1)])
