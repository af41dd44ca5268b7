"""Chapter 3: reciprocal rank per query and MRR over the three queries."""

import streamlit as st

from irlab.ui.kit.formulas import breakdown, formula_block, plain_text
from irlab.ui.kit.headline import headline
from irlab.ui.shell.navigation import ensure_navigation
from irlab.ui.walkthrough.chapter import tiles
from irlab.ui.walkthrough.page import close_chapter, live_region, open_chapter
from irlab.walkthrough.chapters import chapter
from irlab.walkthrough.state import SCENARIO
from irlab.walkthrough.views import binary_row_targets, mrr_view

ensure_navigation()  # first: see irlab/ui/shell/navigation.py

CHAPTER = chapter("mrr")
state = open_chapter(CHAPTER)


@live_region(CHAPTER, binary_row_targets())
def draw(state):
    view = mrr_view(state, CHAPTER)
    headline(view.headline)
    for row, (name, part) in zip(view.rows, view.per_query.items()):
        st.markdown(f"#### \u201c{name}\u201d: RR = {part.display_value}")
        tiles(row, state)
        formula_block(part)
    breakdown(view.mean, SCENARIO.labels(), heading="Mean over the three queries")
    st.caption(f"Cut at K = {view.k} (as MS MARCO's MRR@10 does), only first hits in the top {view.k} count: "
               f"{view.mean_at_k.plugged_text}.")
    plain_text([*view.per_query.values(), view.mean, view.mean_at_k], SCENARIO.labels(), present=state.present)


close_chapter(state, CHAPTER)
