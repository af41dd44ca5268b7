"""Chapter 5: CG, DCG, IDCG and NDCG@K with graded relevance, the ideal order, and the curves."""

import streamlit as st

from irlab.ui.components.chart import chart
from irlab.ui.kit.formulas import breakdown, formula_block, plain_text
from irlab.ui.kit.gallery import picture_strip
from irlab.ui.shell.navigation import ensure_navigation
from irlab.ui.walkthrough.chapter import tiles_above_headline
from irlab.ui.walkthrough.page import close_chapter, live_region, open_chapter
from irlab.walkthrough import charts
from irlab.walkthrough.chapters import chapter
from irlab.walkthrough.state import SCENARIO
from irlab.walkthrough.views import ndcg_view

ensure_navigation()  # first: see irlab/ui/shell/navigation.py

CHAPTER = chapter("ndcg")
state = open_chapter(CHAPTER)


@live_region(CHAPTER)
def draw(state):
    view = ndcg_view(state, CHAPTER)
    tiles_above_headline(view.row, view.headline, state)
    st.markdown("#### The ideal order (what IDCG scores)")
    picture_strip([SCENARIO.item(i) for i in view.ideal_order], badges=view.ideal_badges)
    left, right = st.columns(2)
    with left:
        formula_block(view.cg, view.ndcg)
    with right:
        formula_block(view.ndcg.parts["DCG"], view.ndcg.parts["IDCG"])
    left, right = st.columns(2)
    with left:
        chart(charts.dcg_spec(view.curves, view.k, large=state.present),
                      charts.describe_curves({n: view.curves[n] for n in ("DCG", "IDCG")}, view.k), key="dcg-curves")
    with right:
        chart(charts.curves_spec({"NDCG": view.curves["NDCG"]}, view.k, title="NDCG@K", large=state.present),
                      charts.describe_curves({"NDCG": view.curves["NDCG"]}, view.k), key="ndcg-curve")
    breakdown(view.ndcg.parts["DCG"], SCENARIO.labels(), heading=f"DCG@{view.k}, rank by rank")
    breakdown(view.ndcg, SCENARIO.labels(), heading="NDCG@k beside the ideal order", table=True)
    plain_text([view.cg, view.ndcg.parts["DCG"], view.ndcg.parts["IDCG"], view.ndcg], SCENARIO.labels(), present=state.present)


close_chapter(state, CHAPTER)
