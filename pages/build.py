"""Build an exercise: items, queries, grades, rankings and questions in tables; a preview with the answer
key; the JSON file, a link to the practice page, notebooks, worksheets, answer keys and seeded variants."""

import streamlit as st

from irlab.ui.exercises import editor, exports, view
from irlab.ui.exercises.picker import questions_tab
from irlab.ui.exercises.state import adopt_edits, builder
from irlab.ui.kit.markdown import escape_markdown
from irlab.ui.shell.navigation import ensure_navigation
from irlab.ui.shell.style import apply_style

ensure_navigation()  # first: see irlab/ui/shell/navigation.py
TABS = {"About": editor.about, "Items": editor.items, "Queries and judgments": editor.queries,
        "Systems and rankings": editor.systems, "Questions": questions_tab, "Preview and answer key": view.preview_tab,
        "Share and export": exports.share_tab}

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

for tab, draw in zip(st.tabs(list(TABS), key="irlab.builder.tab", on_change="rerun"), TABS.values()):
    if tab.open:  # only the open tab is drawn: tables and exports are the costly parts
        with tab:
            draw(state)
st.caption(f"Editing \u201c{escape_markdown(state.draft.get('title') or 'untitled')}\u201d.")
editor.format_reference()
