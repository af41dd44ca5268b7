"""Chapter 1: actual vs predicted conditions, TP/FP/FN/TN at K."""

import streamlit as st

from irlab.ui.kit.formulas import breakdown, formula_block, plain_text
from irlab.ui.shell.navigation import ensure_navigation
from irlab.ui.walkthrough.chapter import tiles_above_headline
from irlab.ui.walkthrough.controls import relevance_level_control
from irlab.ui.walkthrough.page import close_chapter, live_region, open_chapter
from irlab.walkthrough.chapters import chapter
from irlab.walkthrough.state import SCENARIO
from irlab.walkthrough.views import confusion_matrix, confusion_view

ensure_navigation()  # first: see irlab/ui/shell/navigation.py

CHAPTER = chapter("actual-vs-predicted")
state = open_chapter(CHAPTER)


@live_region(CHAPTER)
def draw(state):
    view = confusion_view(state, CHAPTER)
    tiles_above_headline(view.row, view.headline, state)
    relevance_level_control(state, CHAPTER)
    left, right = st.columns([2, 3])
    with left:
        formula_block(heading="Confusion matrix", table=confusion_matrix(view.confusion))
    with right:
        breakdown(view.confusion, SCENARIO.labels(), heading=f"Each picture at K = {view.k}")
    plain_text([view.confusion], SCENARIO.labels(), present=state.present)


close_chapter(state, CHAPTER)
