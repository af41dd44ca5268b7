"""Chapter 2: Recall@K and Precision@K, order-unaware, and their curves over K."""

import streamlit as st

from irlab.ui.components.chart import chart
from irlab.ui.kit.formulas import breakdown, formula_block, plain_text
from irlab.ui.shell.navigation import ensure_navigation
from irlab.ui.walkthrough.chapter import tiles_above_headline
from irlab.ui.walkthrough.controls import relevance_level_control
from irlab.ui.walkthrough.page import close_chapter, live_region, open_chapter
from irlab.walkthrough import charts
from irlab.walkthrough.chapters import chapter
from irlab.walkthrough.state import SCENARIO
from irlab.walkthrough.views import recall_precision_view

ensure_navigation()  # first: see irlab/ui/shell/navigation.py

CHAPTER = chapter("recall-precision")
state = open_chapter(CHAPTER)


@live_region(CHAPTER)
def draw(state):
    view = recall_precision_view(state, CHAPTER)
    tiles_above_headline(view.row, view.headline, state)
    relevance_level_control(state, CHAPTER)
    left, right = st.columns(2)
    with left:
        formula_block(view.recall)
    with right:
        formula_block(view.precision)
    chart(charts.curves_spec(view.curves, view.k, title="Recall@K and Precision@K over K", large=state.present),
                  charts.describe_curves(view.curves, view.k), key="recall-precision-curves")
    breakdown(view.recall, SCENARIO.labels(), heading=f"Which pictures count at K = {view.k}")
    plain_text([view.recall, view.precision], SCENARIO.labels(), present=state.present)


close_chapter(state, CHAPTER)
