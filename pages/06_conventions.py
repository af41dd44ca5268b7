"""Chapter 6: the current ranking scored under every named convention."""

import streamlit as st

from irlab.ui.components.chart import chart
from irlab.ui.kit.formulas import formulas, plain_text, table_of
from irlab.ui.shell.navigation import ensure_navigation
from irlab.ui.walkthrough.chapter import tiles
from irlab.ui.walkthrough.controls import returned_control
from irlab.ui.walkthrough.page import close_chapter, live_region, open_chapter
from irlab.walkthrough import charts
from irlab.walkthrough.chapters import chapter
from irlab.walkthrough.state import SCENARIO
from irlab.walkthrough.views import conventions_chart_rows, conventions_table, conventions_view

ensure_navigation()  # first: see irlab/ui/shell/navigation.py

CHAPTER = chapter("conventions")
state = open_chapter(CHAPTER)


@live_region(CHAPTER)
def draw(state):
    view = conventions_view(state, CHAPTER)
    tiles(view.row, state)
    returned_control(state)
    st.markdown(f"**Where the conventions disagree for this ranking:** {view.differences_text}")
    table_of(*conventions_table(view))
    rows = conventions_chart_rows(view)
    chart(charts.conventions_spec(rows, large=state.present), charts.describe_conventions(rows),
                  key="conventions-chart")
    for topic in view.differing_topics:
        with st.expander(f"Formulas: {view.topic(topic)[0].topic_label}"):  # closed: the table and chart stay in view
            for result in view.topic(topic):
                st.markdown(f"**{result.variant.label}** \u2014 {result.variant.description}")
                for part in result.shown_parts:
                    formulas(part)
    plain_text(view.shown_breakdowns, SCENARIO.labels(), present=state.present)


close_chapter(state, CHAPTER)
