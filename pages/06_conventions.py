"""Chapter 6: the current ranking scored under every named convention."""

import streamlit as st

from irlab.ui import render
from irlab.ui.controls import returned_control
from irlab.ui.page import close_chapter, live_region, open_chapter
from irlab.ui.shell import ensure_navigation
from irlab.walkthrough import charts
from irlab.walkthrough.chapters import chapter
from irlab.walkthrough.state import SCENARIO
from irlab.walkthrough.views import conventions_chart_rows, conventions_table, conventions_view

ensure_navigation()  # first: see irlab/ui/shell.py

CHAPTER = chapter("conventions")
state = open_chapter(CHAPTER)


@live_region(CHAPTER)
def draw(state):
    view = conventions_view(state, CHAPTER)
    render.tiles(view.row, state)
    returned_control(state)
    st.markdown(f"**Where the conventions disagree for this ranking:** {view.differences_text}")
    render.table_of(*conventions_table(view))
    rows = conventions_chart_rows(view)
    render.figure(charts.conventions_spec(rows, large=state.present), charts.describe_conventions(rows),
                  key="conventions-chart")
    for topic in view.differing_topics:
        with st.expander(f"Formulas: {view.topic(topic)[0].topic_label}"):  # closed: the table and chart stay in view
            for result in view.topic(topic):
                st.markdown(f"**{result.variant.label}** \u2014 {result.variant.description}")
                for part in result.shown_parts:
                    render.formulas(part)
    render.plain_text(view.shown_breakdowns, SCENARIO.labels(), state)


close_chapter(state, CHAPTER)
