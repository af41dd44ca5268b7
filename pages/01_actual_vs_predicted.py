"""Chapter 1: actual vs predicted conditions, TP/FP/FN/TN at K."""

import streamlit as st

from irlab.chapters import chapter
from irlab.ui import render
from irlab.ui.page import close_chapter, open_chapter
from irlab.walkthrough import SCENARIO, confusion_matrix, confusion_view

CHAPTER = chapter("actual-vs-predicted")
state = open_chapter(CHAPTER)
view = confusion_view(state, CHAPTER)

render.tiles(view.row, state)
render.headline(view.headline)
left, right = st.columns([2, 3])
with left:
    st.markdown("#### Confusion matrix")
    render.table_of(*confusion_matrix(view.confusion))
with right:
    render.breakdown(view.confusion, SCENARIO.labels(), heading=f"Each picture at K = {view.k}")
render.teaching(CHAPTER, state)
render.plain_text([view.confusion], SCENARIO.labels(), state)
close_chapter(state, CHAPTER)
