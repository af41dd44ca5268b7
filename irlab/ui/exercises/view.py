"""Showing an exercise: its rankings as picture tiles or tables, its answer key, and breakdowns.

Shared by the builder's preview and the practice page. Labels, ids and prompts are the
exercise author's text: they reach the browser as tile data (set as text by the component),
as escaped Markdown, or inside Markdown tables of escaped cells.
"""

from __future__ import annotations

from collections.abc import Mapping

import streamlit as st

from irlab.data.judgments import Judgments
from irlab.data.rankings import ideal_ranking
from irlab.data.scenario import Item
from irlab.exercises import Exercise, Question, answer_key, describe_question
from irlab.explain.breakdown import Breakdown
from irlab.scenarios.art import ALT_TEXT
from irlab.ui.components.pictures import DOCUMENT, picture_url
from irlab.ui.components.tiles import ranking_tiles
from irlab.ui.exercises.state import Builder, tiles_key
from irlab.ui.kit import formulas
from irlab.ui.kit.gallery import picture_strip
from irlab.ui.kit.markdown import escape_markdown


def _grade_label(grade: int, judgments: Judgments) -> str:
    if judgments.scale == "binary":
        return "relevant" if grade >= 1 else "not relevant"
    return f"grade {grade} of {judgments.max_grade}"


def tiles(exercise: Exercise, system_id: str, query_id: str, *, key: str, label: str) -> None:
    """The ranking of ``system_id`` for ``query_id`` as draggable picture tiles (grades shown)."""
    query = exercise.query(query_id)
    judgments = query.judgments
    ranking = exercise.ranking(system_id, query_id)
    rows = []
    for item_id in ranking:
        item = exercise.item(item_id)
        grade = judgments.grade(item_id)
        rows.append({"id": item.id, "title": item.label, "alt": ALT_TEXT.get(item.picture, item.label),
                     "picture": picture_url(item.picture or DOCUMENT),
                     "relevance": grade,
                     "relevance_label": _grade_label(grade, judgments)})
    ranking_tiles(key=key, tiles=rows, k=None, mode=judgments.scale, max_grade=max(judgments.max_grade, 1),
                  default_order=ranking, ideal_order=ideal_ranking(judgments, ranking), label=label,
                  show_buttons=True)


def ranking_view(exercise: Exercise, system_id: str, query_id: str) -> None:
    """A ranking and its judgments for students: pictures with badges when every item has one, else a table;
    then the judged items the system did not return (they count for recall, AP and IDCG)."""
    query = exercise.query(query_id)
    judgments = query.judgments
    ranking = exercise.ranking(system_id, query_id)
    items = [exercise.item(i) for i in ranking]
    scale = ("relevant (1) or not (0)" if judgments.scale == "binary"
             else f"graded 0 to {judgments.max_grade}")
    st.markdown(f"**Query {escape_markdown(query.display_text)}** ({escape_markdown(scale)}), ranked best first by "
                f"the system \u201c{escape_markdown(exercise.system(system_id).name or system_id)}\u201d.")
    if all(item.picture for item in items) and len(items) <= 12:
        picture_strip([Item(id=i.id, title=i.label, alt=ALT_TEXT.get(i.picture, i.label), picture=i.picture)
                       for i in items],
                      badges=[f"rank {r} · {_grade_label(judgments.grade(i.id), judgments)}"
                              for r, i in enumerate(items, start=1)])
    else:
        formulas.table_of(["rank", "item", "label", "grade"],
                        [[str(r), i.id, i.label, str(judgments.grade(i.id))] for r, i in enumerate(items, start=1)])
    missing = [(item_id, grade) for item_id, grade in judgments.items() if grade >= 1 and item_id not in ranking]
    if missing:
        st.caption("Judged relevant but not returned: " + escape_markdown(", ".join(
            f"{exercise.item(i).label} ({i}, grade {g})" for i, g in missing)) + ".")


def question_data(exercise: Exercise, question: Question) -> None:
    """The rankings and judgments a question is computed from."""
    for query_id in exercise.question_queries(question):
        ranking_view(exercise, question.system, query_id)


def breakdown(item: Breakdown, labels: Mapping[str, str], *, per_query: bool = False) -> None:
    """A breakdown: formula, numbers plugged in, the per-rank table, notes; with ``per_query`` (a mean over
    queries) each query's breakdown in an expander."""
    formulas.breakdown(item, labels)
    if per_query:
        for name, part in item.parts.items():
            with st.expander(f"Query {escape_markdown(name)}: {escape_markdown(part.measure)} = "
                             f"{part.display_value}"):
                formulas.breakdown(part, labels)


def answer_key_view(exercise: Exercise) -> None:
    """Every question with its value; each opens to its full breakdown."""
    labels = exercise.labels()
    for number, (question, result) in enumerate(answer_key(exercise), start=1):
        title = f"{number}. {describe_question(exercise, question)} = {result.display_value}"
        with st.expander(escape_markdown(title)):
            st.caption(f"Question id {escape_markdown(question.id)} · measure {escape_markdown(question.measure)}")
            breakdown(result, labels, per_query=question.is_mean)


def preview_tab(state: Builder) -> None:
    """The builder's preview: one ranking as draggable tiles, and the answer key below it."""
    exercise = state.valid
    if not state.is_valid:
        st.info("The draft has problems, so this is the last valid version.", icon=":material/info:")
    left, right = st.columns(2)
    query_index = left.selectbox("Query", range(len(exercise.queries)), key="irlab.builder.w.preview_query",
                                 format_func=lambda i: exercise.queries[i].display_text)
    system_index = right.selectbox("System", range(len(exercise.systems)), key="irlab.builder.w.preview_system",
                                   format_func=lambda i: exercise.systems[i].name or exercise.systems[i].id)
    system, query = exercise.systems[system_index], exercise.queries[query_index]
    tiles(exercise, system.id, query.id, key=tiles_key(system_index, query_index),
          label=f"Ranking of {system.name or system.id} for {query.display_text}")
    st.caption("Drag a tile (or focus it and press Shift+Arrow) to reorder this system's ranking; "
               "the answer key below follows." if state.is_valid else
               "Fix the draft's problems to reorder rankings by dragging.")
    st.subheader("Answer key")
    st.caption("Each question's value; open one for its formula, the numbers plugged in and the table.")
    answer_key_view(exercise)
