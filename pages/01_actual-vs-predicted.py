"""Chapter 1: actual vs predicted conditions, TP/FP/FN/TN at K."""

import streamlit as st

from irlab.ui import render
from irlab.ui.controls import relevance_level_control
from irlab.ui.page import close_chapter, live_region, open_chapter
from irlab.ui.shell import ensure_navigation
from irlab.walkthrough.chapters import chapter
from irlab.walkthrough.state import SCENARIO
from irlab.walkthrough.views import confusion_matrix, confusion_view

ensure_navigation()  # first: see irlab/ui/shell.py

CHAPTER = chapter("actual-vs-predicted")
state = open_chapter(CHAPTER)


@live_region(CHAPTER)
def draw(state):
    view = confusion_view(state, CHAPTER)
    render.tiles_above_headline(view.row, view.headline, state)
    relevance_level_control(state, CHAPTER)
    left, right = st.columns([2, 3])
    with left:
        render.formula_block(heading="Confusion matrix", table=confusion_matrix(view.confusion))
    with right:
        render.breakdown(view.confusion, SCENARIO.labels(), heading=f"Each picture at K = {view.k}")
    render.plain_text([view.confusion], SCENARIO.labels(), state)


close_chapter(state, CHAPTER)
