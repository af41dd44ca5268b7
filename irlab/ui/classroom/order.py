"""Order the pictures, as the pages show it: the lecturer's form, the projector's blocks and links, the student's tiles.

The kind itself (goals, checking an order, the heatmap, the best and the most common order) is
:mod:`irlab.classroom.activities.order`; this module only draws what it returns:

* **lecturer**: :func:`settings_form` asks for a walkthrough state (this session's, or a pasted link) and a goal;
* **projector**: :func:`projector_blocks`: the goal and the starting order; once revealed, each round's share
  that met the goal, its rank-position heatmap (picture x rank), the distribution of the goal's measure and the
  shortfalls, then an order that meets the goal and why; :func:`projector_links`: the class's best and most
  common order as walkthrough links (one click opens the order in its chapter);
* **student**: the goal, the starting order as tiles to drag (pointer events: mouse, pen and finger; the move
  buttons and the keyboard too), Send; after the reveal, whether the order met the goal and why.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from irlab.classroom.activities.base import MIN_ANSWERS_SHOWN
from irlab.classroom.activities.order import GOALS, OrderFeedback, OrderQuestion, OrderSolution, OrderSummary
from irlab.classroom.activities.predict import NumberSummary
from irlab.classroom.activities.states import walkthrough_path
from irlab.classroom.records import ActivityReport, StudentActivity
from irlab.explain.formula import format_number
from irlab.ui.classroom.charts import answers, describe_heatmap, heatmap_spec, histogram_spec
from irlab.ui.classroom.links import pick_state
from irlab.ui.components.pictures import picture_url
from irlab.ui.components.tiles import latest_change, ranking_tiles
from irlab.ui.kit.gallery import picture_strip
from irlab.ui.kit.markdown import escape_markdown
from irlab.ui.kit.screen import block_json
from irlab.walkthrough.screens import Chart, Columns, Details, Heading, Paragraph, Pictures, Table
from irlab.walkthrough.state import SCENARIO
from irlab.walkthrough.urlstate import params_from_state

KIND = "order"


# --- the lecturer's form ---------------------------------------------------------------------------------------------

def settings_form(prefix: str) -> dict[str, Any] | None:
    """The activity's raw settings (for the kind to check), or None while the form is incomplete."""
    picked = pick_state(prefix, "The starting order and K", chapter_slug="ndcg", placeholder="http://.../ndcg?order=2,1,...&k=3")
    if picked is None:
        return None
    chapter, state, link = picked
    described = ", ".join(f"{name} {value}" for name, value in params_from_state(state, chapter).items())
    st.caption(escape_markdown(f"{chapter.title}: {described}"))
    k = state.effective_k(chapter)
    goal = st.selectbox("Goal", list(GOALS), format_func=lambda name: GOALS[name].title.format(k=k),
                        key=f"{prefix}goal")
    if link is not None:
        return {"link": link, "goal": goal}
    return {"chapter": chapter.slug, "params": params_from_state(state, chapter), "goal": goal}


# --- the projector ---------------------------------------------------------------------------------------------------

def _labels(items: tuple[str, ...]) -> list[str]:
    return [f"{item} {SCENARIO.item(item).title}" for item in items]


def _badges(order: tuple[str, ...], question: OrderQuestion) -> tuple[str, ...]:
    grades = {str(t["id"]): str(t["relevance_label"]) for t in question.row.tiles}
    return tuple(f"{rank} \u00b7 {grades[item]}" for rank, item in enumerate(order, 1))


def _round_block(summary: OrderSummary, question: OrderQuestion, y_max: int) -> Details:
    key = f"round-{summary.round}"
    title = f"Round {summary.round}: {answers(summary.count)} ({summary.state})"
    if not summary.shown:
        why = (f"The class's orders show from {MIN_ANSWERS_SHOWN} answers on." if summary.count < MIN_ANSWERS_SHOWN
               else "Hidden until the reveal.")
        return Details(key, title, (Paragraph(f"{key}-none", why),), open=True)
    labels = _labels(summary.items)
    if summary.met is None:  # shown live: where the class puts each picture, nothing about the goal
        return Details(key, title, (Chart(f"{key}-heat", heatmap_spec(labels, summary.heatmap),
                                          describe_heatmap(labels, summary.heatmap, summary.count)),), open=True)
    body: list = [Paragraph(f"{key}-met", f"{summary.met} of {summary.count} ({summary.share_met or 0:.0%})",
                            lead="Goal met:"),
                  Chart(f"{key}-heat", heatmap_spec(labels, summary.heatmap),
                        describe_heatmap(labels, summary.heatmap, summary.count))]
    if summary.histogram is not None:
        right = format_number(summary.right_value, 4)
        as_numbers = NumberSummary(summary.round, summary.state, summary.count, summary.right_value,
                                   summary.histogram, summary.met)
        top = max(summary.histogram.bins, key=lambda b: b.count)
        body.append(Chart(f"{key}-values", histogram_spec(as_numbers, y_max=y_max, right_text=right),
                          f"{question.measure} of the {summary.count} orders; the best any order reaches is {right}; "
                          f"the most common range is {top.label} ({answers(top.count)})."))
    if summary.shortfalls:
        body.append(Table(f"{key}-short", ("Why the goal was missed", "Orders"),
                          tuple((m.title, str(m.count)) for m in summary.shortfalls)))
    for name, found in (("Best order", summary.best), ("Most common order", summary.common)):
        if found is not None:
            body.append(Paragraph(f"{key}-{name[:4].lower()}", f"{found.text} ({found.count} \u00d7)", lead=f"{name}:"))
    return Details(key, title, tuple(body), open=True)


def projector_blocks(report: ActivityReport) -> list[dict[str, Any]]:
    """The live region's blocks for an order activity (JSON): the goal and starting order, then the reveal."""
    question: OrderQuestion = report.question
    start = tuple(str(t["id"]) for t in question.row.tiles)
    starting = Pictures("start-pictures", start, _badges(start, question))
    blocks: list = [Heading("prompt", question.prompt)]
    solution: OrderSolution | None = report.solution
    if solution is None:
        blocks.append(starting)
        if any(s.shown for s in report.summaries):  # the lecturer shows the orders live
            blocks.append(Columns("rounds", tuple(_round_block(s, question, 1) for s in report.summaries)))
    else:  # the class's orders on the first screen; the starting order one click away
        shown: tuple[OrderSummary, ...] = report.summaries
        y_max = max((b.count for s in shown if s.histogram for b in s.histogram.bins), default=1)
        blocks.append(Heading("answer", f"An order that meets the goal: {', '.join(solution.order)}"))
        blocks.append(Paragraph("why", solution.why, lead="Why:"))
        blocks.append(Columns("rounds", tuple(_round_block(s, question, y_max) for s in shown)))
        blocks.append(Pictures("answer-pictures", solution.order, _badges(solution.order, question)))
        blocks.append(Details("question-ranking", "The starting order", (starting,)))
    return [block_json(block) for block in blocks]


def projector_links(report: ActivityReport) -> list[tuple[str, str]]:
    """(label, path relative to the app) of the walkthrough links: each revealed round's best and most common order."""
    question: OrderQuestion = report.question
    links: list[tuple[str, str]] = []
    for summary in report.summaries:
        if summary.best is None or summary.common is None:
            continue
        pairs = [("best and most common", summary.best)] if summary.best.order == summary.common.order else \
            [("best", summary.best), ("most common", summary.common)]
        links += [(f"Round {summary.round}: open the {name} order in the walkthrough",
                   walkthrough_path(question.chapter, found.params)) for name, found in pairs]
    return links


# --- the student -----------------------------------------------------------------------------------------------------

def student_question(question: OrderQuestion) -> None:
    """The goal in words (the tiles come with the answer box)."""
    st.markdown(f"**{escape_markdown(question.prompt)}**")


def _tiles(question: OrderQuestion, order: list[str]) -> list[dict[str, Any]]:
    by_id = {str(t["id"]): t for t in question.row.tiles}
    return [{**by_id[item], "picture": picture_url(str(by_id[item]["picture"]))} for item in order]


def current_order(key: str, start: list[str], answered: str | None) -> list[str]:
    """The order the student is working on: their latest drag, else the order they sent, else the starting order."""
    change = latest_change(key)
    for candidate in (change.get("order") if change else None, (answered or "").split(",")):
        if isinstance(candidate, list) and sorted(map(str, candidate)) == sorted(start):
            return [str(item) for item in candidate]
    return list(start)


def answer_form(activity: StudentActivity) -> dict[str, Any]:
    """The tiles to drag (or move with their buttons or the keyboard), drawn here; the form sends their order."""
    question: OrderQuestion = activity.question
    start = [str(t["id"]) for t in question.row.tiles]
    key = f"irl-order-{activity.activity_id}"
    order = current_order(key, start, activity.answer)
    ranking_tiles(key=key, tiles=_tiles(question, order), k=question.row.k, mode=question.row.mode,
                  default_order=start, ideal_order=None, label="Your order", show_buttons=True)
    return {"kind": "order", "label": "Your order", "tiles": key, "send": "Send this order"}


def student_result(activity: StudentActivity) -> None:
    """After the reveal: whether the order met the goal and why, and an order that does."""
    feedback: OrderFeedback | None = activity.feedback
    solution: OrderSolution | None = activity.solution
    if feedback is None:
        st.info("You did not send an order in this round.", icon=":material/info:")
    elif feedback.correct:
        st.success(escape_markdown(feedback.message), icon=":material/check_circle:")
    else:
        st.error(escape_markdown(feedback.message), icon=":material/cancel:")
    if solution is None:
        return
    st.markdown(f"An order that meets the goal: **{escape_markdown(', '.join(solution.order))}**")
    picture_strip([SCENARIO.item(item) for item in solution.order],
                  badges=_badges(solution.order, activity.question))
    st.caption(escape_markdown(solution.why))
