"""Build an exercise: items, queries, grades, rankings and questions in tables; a preview with the answer
key; the JSON file, a link to the practice page, notebooks, worksheets, answer keys and seeded variants."""

import streamlit as st

from irlab.ui import exercise_editor as editor
from irlab.ui import exercise_exports as exports
from irlab.ui import exercise_view as view
from irlab.ui.exercise_picker import picker
from irlab.ui.exercise_state import adopt_edits, builder, tiles_key
from irlab.ui.markdown import escape_markdown
from irlab.ui.shell import ensure_navigation
from irlab.ui.style import apply_style

ensure_navigation()  # first: see irlab/ui/shell.py
TABS = ["About", "Items", "Queries and judgments", "Systems and rankings", "Questions", "Preview and answer key",
        "Share and export"]

apply_style(False)
adopt_edits()
st.title("Build an exercise")
st.markdown("Make an exercise for your students: the items, the queries with their relevance judgments, the "
            "systems' rankings and the questions. IR Lab computes every answer, checks students' answers on the "
            "practice page and writes notebooks, worksheets and answer keys. Work through the tabs from left to "
            "right; every change is checked at once.")
state = builder()
editor.start_bar(state)
editor.status(state)

about, items, queries, systems, questions, preview, share = st.tabs(TABS, key="irlab.builder.tab", on_change="rerun")
if about.open:
    with about:
        editor.about(state)
if items.open:
    with items:
        editor.items(state)
if queries.open:
    with queries:
        editor.queries(state)
if systems.open:
    with systems:
        editor.systems(state)
if questions.open:
    with questions:
        picker(state)
        editor.questions(state)
if preview.open:
    with preview:
        exercise = state.valid
        if not state.is_valid:
            st.info("The draft has problems, so this is the last valid version.", icon=":material/info:")
        left, right = st.columns(2)
        query_index = left.selectbox("Query", range(len(exercise.queries)), key="irlab.builder.w.preview_query",
                                     format_func=lambda i: exercise.queries[i].display_text)
        system_index = right.selectbox("System", range(len(exercise.systems)), key="irlab.builder.w.preview_system",
                                       format_func=lambda i: exercise.systems[i].name or exercise.systems[i].id)
        system, query = exercise.systems[system_index], exercise.queries[query_index]
        view.tiles(exercise, system.id, query.id, key=tiles_key(system_index, query_index),
                   label=f"Ranking of {system.name or system.id} for {query.display_text}")
        st.caption("Drag a tile (or focus it and press Shift+Arrow) to reorder this system's ranking; "
                   "the answer key below follows." if state.is_valid else
                   "Fix the draft's problems to reorder rankings by dragging.")
        st.subheader("Answer key")
        st.caption("Each question's value; open one for its formula, the numbers plugged in and the table.")
        view.answer_key_view(exercise)
if share.open:
    with share:
        exercise = state.valid
        st.subheader("The exercise file")
        exports.exercise_file(exercise, valid=state.is_valid)
        st.subheader("Share a link")
        exports.share_link(exercise)
        st.subheader("Files for your course")
        exports.course_files(exercise)
        st.subheader("One variant per student")
        exports.variants(exercise)
st.caption(f"Editing \u201c{escape_markdown(state.draft.get('title') or 'untitled')}\u201d. "
           "The JSON format is described in docs/exercise-format.md.")
