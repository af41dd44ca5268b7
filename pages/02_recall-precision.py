"""Chapter 2: Recall@K and Precision@K, order-unaware, and their curves over K."""

import streamlit as st

from irlab.ui import render
from irlab.ui.controls import relevance_level_control
from irlab.ui.page import close_chapter, live_region, open_chapter
from irlab.ui.shell import ensure_navigation
from irlab.walkthrough import charts
from irlab.walkthrough.chapters import chapter
from irlab.walkthrough.state import SCENARIO
from irlab.walkthrough.views import recall_precision_view

ensure_navigation()  # first: see irlab/ui/shell.py

CHAPTER = chapter("recall-precision")
state = open_chapter(CHAPTER)


@live_region(CHAPTER)
def draw(state):
    view = recall_precision_view(state, CHAPTER)
    render.tiles_above_headline(view.row, view.headline, state)
    relevance_level_control(state, CHAPTER)
    left, right = st.columns(2)
    with left:
        render.formula_block(view.recall)
    with right:
        render.formula_block(view.precision)
    render.figure(charts.curves_spec(view.curves, view.k, title="Recall@K and Precision@K over K", large=state.present),
                  charts.describe_curves(view.curves, view.k), key="recall-precision-curves")
    render.breakdown(view.recall, SCENARIO.labels(), heading=f"Which pictures count at K = {view.k}")
    render.plain_text([view.recall, view.precision], SCENARIO.labels(), state)


close_chapter(state, CHAPTER)
