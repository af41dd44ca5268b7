"""The exercise builder's editing widgets: where to start, the status, and one editor per part.

Each part (the exercise's own fields, items, queries and judgments, systems and rankings,
questions) shows its validation problems first, then its widgets. Tables are data editors
(:mod:`irlab.ui.exercises.state` applies their edits); every text a lecturer typed is shown
through widgets that treat it as text or through escaped Markdown.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import streamlit as st

from irlab.exercises import MEAN, answer_key
from irlab.exercises.builder.drafts import judgment_columns, problems_in, table_rows
from irlab.exercises.format.schema import MAX_GRADE, MAX_ID_LENGTH, MAX_LABEL_LENGTH, MAX_TITLE_LENGTH, schema_fields
from irlab.exercises.model import Exercise
from irlab.exercises.questions.mistakes import indistinct_mistakes
from irlab.explain.formula import format_number
from irlab.scenarios.art import ALT_TEXT, PICTURES
from irlab.ui.components.pictures import picture_url
from irlab.ui.exercises.state import (
    DRAFT,
    STARTS,
    UPLOAD_KEY,
    Builder,
    editor_key,
    history_size,
    on_upload,
    revert_to_valid,
    set_draft_field,
    start_from,
    take_notice,
    undo,
    upload_error,
)
from irlab.ui.kit import formulas
from irlab.ui.kit.markdown import escape_markdown

SECTION_TABS = {"about": "About", "items": "Items", "queries": "Queries and judgments",
                "systems": "Systems and rankings", "questions": "Questions"}
"""The tab each problem section is shown in."""

TEXT = st.column_config.TextColumn
BLANK = "\u2013"
"""What an empty cell shows (a judgment left out, no picture)."""


def start_bar(state: Builder) -> None:
    """Start from an example or blank, undo, load a file; the outcome of the last action."""
    left, middle, right = st.columns([5, 2, 2], vertical_alignment="bottom")
    choice = left.selectbox("Start from", list(STARTS), format_func=STARTS.get, key="irlab.builder.w.start",
                            help="Replaces the draft (Undo brings it back).")
    middle.button("Start from this", on_click=lambda: start_from(choice), icon=":material/restart_alt:",
                  width="stretch")
    right.button("Undo", on_click=undo, disabled=not history_size(), icon=":material/undo:", width="stretch",
                 help="Take back the last change (start, load, edit).")
    st.file_uploader("Load an exercise file (.json)", type=["json"], key=UPLOAD_KEY, on_change=on_upload,
                     max_upload_size=1,
                     help="A file downloaded from here, or written by hand (docs/exercise-format.md).")
    if (error := upload_error()) is not None:
        st.error(f"Could not load {escape_markdown(error[0])}: {escape_markdown(error[1])}. "
                 "The exercise you are editing is unchanged.", icon=":material/error:")
    if (notice := take_notice()) is not None:
        st.info(escape_markdown(notice), icon=":material/info:")


def status(state: Builder) -> None:
    """Whether the draft is valid; if not, where its problems are and what the downloads use."""
    ex = state.valid
    counts = ", ".join(f"{n} {word if n == 1 else plural}" for n, word, plural in (
        (len(ex.items), "item", "items"), (len(ex.queries), "query", "queries"),
        (len(ex.systems), "system", "systems"), (len(ex.questions), "question", "questions")))
    if state.is_valid:
        st.success(f"The exercise is valid ({counts}). The preview, the downloads and the share link use it.",
                   icon=":material/check_circle:")
        return
    where = ", ".join(dict.fromkeys(SECTION_TABS[p.section] for p in state.problems))
    many = "problem" if len(state.problems) == 1 else "problems"
    st.warning(f"The draft has {len(state.problems)} {many}, shown in the tabs: {where}. Nothing is lost. "
               f"The preview, the downloads and the share link use the last valid version, "
               f"\u201c{escape_markdown(ex.title)}\u201d ({counts}).", icon=":material/warning:")
    st.button("Back to the last valid version", on_click=revert_to_valid, icon=":material/history:",
              help="Replaces the draft by the last valid exercise; Undo brings your edits back.")


def problems(state: Builder, section: str) -> None:
    """The problems of one part, each with its place (field path) and message."""
    for problem in problems_in(state.problems, section):
        path = f" (field {escape_markdown(problem.path)})" if problem.path else ""
        st.error(f"**{escape_markdown(problem.location)}**{path}: {escape_markdown(problem.message)}",
                 icon=":material/error:")


def _seed(key: str, value: object) -> str:
    """Seed a widget from the draft (the widget's callback writes the draft back)."""
    st.session_state[key] = value
    return key


def about(state: Builder) -> None:
    """Title, instructions, tolerance and seed."""
    problems(state, "about")
    draft = state.draft
    key = _seed("irlab.builder.w.title", draft.get("title", ""))
    st.text_input("Title", key=key, on_change=set_draft_field, args=("title", key), max_chars=MAX_TITLE_LENGTH)
    key = _seed("irlab.builder.w.instructions", draft.get("instructions", ""))
    st.text_area("Instructions for students (plain text; a blank line starts a new paragraph)", key=key, height=180,
                 on_change=set_draft_field, args=("instructions", key))
    left, right = st.columns(2)
    key = _seed("irlab.builder.w.tolerance", draft.get("tolerance"))
    left.number_input("Tolerance: how far an answer may be from the value and still count as correct", key=key,
                      min_value=0.0, max_value=1.0, step=0.001, format="%.4f", on_change=set_draft_field,
                      args=("tolerance", key), help="Above 0 and at most 0.1; 0.005 accepts answers rounded to "
                                                    "two decimals.")
    key = _seed("irlab.builder.w.seed", draft.get("seed"))
    right.number_input("Variant seed (optional)", key=key, min_value=0, step=1, value=None, placeholder="none",
                       on_change=set_draft_field, args=("seed", key),
                       help="Leave blank for the exercise as written. A number marks this file as that seeded "
                            "variant; to make variants, use the Share and export tab.")


def _whole(value: object) -> int | None:
    """A whole number for an integer column; anything else (left for validation to report) shows blank."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _frame(rows: Sequence[dict], columns: Sequence[str], whole: Sequence[str] = ()) -> pd.DataFrame:
    """A table of ``rows``; the ``whole`` columns as nullable integers, taken from the rows themselves
    (a pandas column with a blank would turn every grade into a float)."""
    frame = pd.DataFrame(list(rows), columns=list(columns))
    for column in whole:
        frame[column] = pd.array([_whole(row.get(column)) for row in rows], dtype="Int64")
    return frame


def items(state: Builder) -> None:
    """The items: id, label and an optional built-in picture."""
    problems(state, "items")
    frame = _frame(table_rows(state.draft, "items"), ["id", "label", "picture"])
    frame["look"] = [picture_url(p) if p in PICTURES else None for p in frame["picture"]]
    st.data_editor(frame, key=editor_key("items"), num_rows="dynamic", hide_index=True, placeholder=BLANK,
                   disabled=["look"],
                   column_config={
                       "id": TEXT("id", help="Short and unique, e.g. 1, 2, 3 or d1.", max_chars=MAX_ID_LENGTH,
                                  width="small"),
                       "label": TEXT("Label", help="What students see: a title or description.",
                                     max_chars=MAX_LABEL_LENGTH, width="large"),
                       "picture": st.column_config.SelectboxColumn(
                           "Built-in picture", options=list(PICTURES), help="Optional: one of the eight pictures."),
                       "look": st.column_config.ImageColumn("Picture", width="small")},
                   alt="Items: id, label and built-in picture")
    st.caption("Add a row at the bottom of the table; select rows to delete them. Renaming an id renames it in the "
               "judgments and rankings too. Pictures: " + "; ".join(f"{key}: {alt.split(',')[0]}"
                                                                   for key, alt in ALT_TEXT.items()) + ".")


def queries(state: Builder) -> None:
    """The queries (id, text, scale), then the judgments: a grade per item and query."""
    problems(state, "queries")
    frame = _frame(table_rows(state.draft, "queries"), ["id", "text", "scale", "max_grade"], whole=["max_grade"])
    st.data_editor(frame, key=editor_key("queries"), num_rows="dynamic", hide_index=True, placeholder=BLANK,
                   alt="Queries: id, text, scale and top grade", column_config={
                       # medium: query ids such as "white-cat-in-a-box" are read whole
                       "id": TEXT("id", max_chars=MAX_ID_LENGTH, width="medium", help="Short and unique, e.g. q1."),
                       "text": TEXT("Query text", width="large", max_chars=MAX_LABEL_LENGTH),
                       "scale": st.column_config.SelectboxColumn(
                           "Scale", options=["binary", "graded"], required=True, default="binary",
                           help="binary: 0 or 1; graded: 0 up to the top grade."),
                       "max_grade": st.column_config.NumberColumn("Top grade (graded)", min_value=1,
                                                                  max_value=MAX_GRADE, step=1, format="%d")})
    st.markdown("**Judgments**: the grade of each item for each query (blank = not judged, counts as 0).")
    columns = judgment_columns(state.draft)
    frame = _frame(table_rows(state.draft, "judgments"), ["item", "label", *[c for c, _ in columns]],
                   whole=[c for c, _ in columns])
    config = {"item": TEXT("item", width="small"), "label": TEXT("Label")}
    for column, query_id in columns:
        config[column] = st.column_config.NumberColumn(query_id, min_value=0, max_value=MAX_GRADE, step=1, format="%d",
                                                       help=f"Grades for query {query_id}")
    st.data_editor(frame, key=editor_key("judgments"), hide_index=True, placeholder=BLANK, disabled=["item", "label"],
                   column_config=config, alt="Judgments: one row per item, one column per query")


def systems(state: Builder) -> None:
    """The systems (id, name), then their rankings: item ids per query, best first."""
    problems(state, "systems")
    frame = _frame(table_rows(state.draft, "systems"), ["id", "name"])
    st.data_editor(frame, key=editor_key("systems"), num_rows="dynamic", hide_index=True, placeholder=BLANK,
                   alt="Systems: id and name", column_config={
                       "id": TEXT("id", max_chars=MAX_ID_LENGTH, width="medium"),
                       "name": TEXT("Name (optional)", width="large", max_chars=MAX_LABEL_LENGTH)})
    st.markdown("**Rankings**: the item ids each system returned for each query, best first, separated by commas. "
                "A ranking may leave items out. You can also drag the tiles in the Preview tab.")
    frame = _frame(table_rows(state.draft, "rankings"), ["system", "query", "ranking"])
    st.data_editor(frame, key=editor_key("rankings"), hide_index=True, placeholder=BLANK, disabled=["system", "query"],
                   column_config={"system": TEXT("System", width="small"), "query": TEXT("Query", width="medium"),
                                  "ranking": TEXT("Ranking (item ids, best first)", width="large")},
                   alt="Rankings: one row per system and query")


def _options(values: Sequence[object], extra: Sequence[str] = ()) -> list[str]:
    return list(dict.fromkeys([*extra, *(str(v) for v in values if v not in (None, ""))]))


def questions(state: Builder) -> None:
    """The questions as a table (with each answer when the draft is valid)."""
    problems(state, "questions")
    draft = state.draft
    rows = table_rows(draft, "questions")
    answers = {q.id: format_number(b.value) for q, b in answer_key(state.valid)} if state.is_valid else {}
    frame = _frame(rows, ["id", "measure", "query", "system", "prompt", "mean_over"])
    frame["answer"] = [answers.get(row["id"], "") for row in rows]
    query_ids = _options([q.get("id") for q in draft["queries"]] + [r["query"] for r in rows], [MEAN])
    system_ids = _options([s.get("id") for s in draft["systems"]] + [r["system"] for r in rows])
    st.data_editor(frame, key=editor_key("questions"), num_rows="dynamic", hide_index=True, placeholder=BLANK,
                   disabled=["answer"],
                   column_config={
                       "id": TEXT("id", max_chars=MAX_ID_LENGTH, width="small"),
                       "measure": TEXT("Measure", help="irlab's measure names: P@5, R@5, RR, AP@10, nDCG@5, "
                                       "nDCG(gain='exponential')@5, DCG@3, ... (docs/exercise-format.md)"),
                       "query": st.column_config.SelectboxColumn(
                           "Query", options=query_ids, required=True, default=query_ids[1] if len(query_ids) > 1
                           else MEAN, help="A query id, or mean (over queries)."),
                       "system": st.column_config.SelectboxColumn(
                           "System", options=system_ids, required=True,
                           default=system_ids[0] if system_ids else None),
                       "prompt": TEXT("Prompt (optional)", width="medium",
                                      help="Shown instead of the generated question text."),
                       "mean_over": TEXT("Mean over (optional)", width="small",
                                         help="With query = mean: the query ids to average, separated by commas; "
                                              "blank = every query."),
                       "answer": TEXT("Answer", width="small", help="Computed by IR Lab (valid drafts only).")},
                   alt="Questions: id, measure, query, system, prompt")
    if state.is_valid:
        blind_spots(state.valid)


def blind_spots(exercise: Exercise) -> None:
    """A warning naming each question that cannot tell a known mistake from the right answer (the mistaken
    computation gives the same number), so a student who made it would be marked right."""
    found = [(question, mistakes) for question in exercise.questions
             if (mistakes := indistinct_mistakes(exercise, question))]
    if not found:
        return
    lines = "\n".join(f"- **{escape_markdown(question.id)}** ({escape_markdown(question.measure)}): "
                      + "; ".join(escape_markdown(mistake.title) for mistake in mistakes)
                      for question, mistakes in found)
    st.warning(f"{len(found)} of {len(exercise.questions)} questions cannot tell a known mistake from the right "
               "answer: a student who made it gets the same number and is marked right. Change a ranking or K "
               "where that matters.\n\n" + lines, icon=":material/visibility_off:")


def draft_text(name: str) -> str:
    """A text field of the draft (for labels)."""
    value = st.session_state.get(DRAFT, {}).get(name)
    return value if isinstance(value, str) else ""


def format_reference() -> None:
    """The exercise file format, every field, from its JSON Schema: what a lecturer editing a file by hand needs."""
    with st.expander("The exercise file format: every field", icon=":material/description:"):
        st.markdown("An exercise is a JSON file. This table is generated from its JSON Schema, which "
                    "`python -m irlab exercise schema` prints; the project's docs/exercise-format.md explains the "
                    "rules that need the whole file (ids that exist, K within each ranking, answerable questions).")
        formulas.table_of(["field", "", "holds", "meaning"], [list(row) for row in schema_fields()])
