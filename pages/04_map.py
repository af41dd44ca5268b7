"""Chapter 4: the Precision@k x rel_k table per query, AP@K per query, and MAP@K."""

import streamlit as st

from irlab.ui.components.chart import chart
from irlab.ui.kit.formulas import breakdown, plain_text
from irlab.ui.kit.headline import headline
from irlab.ui.shell.navigation import ensure_navigation
from irlab.ui.walkthrough.chapter import tiles
from irlab.ui.walkthrough.page import close_chapter, live_region, open_chapter
from irlab.walkthrough import charts
from irlab.walkthrough.chapters import chapter
from irlab.walkthrough.state import SCENARIO
from irlab.walkthrough.views import binary_row_targets, map_view

ensure_navigation()  # first: see irlab/ui/shell/navigation.py

CHAPTER = chapter("map")
state = open_chapter(CHAPTER)


@live_region(CHAPTER, binary_row_targets())
def draw(state):
    view = map_view(state, CHAPTER)
    headline(view.headline)
    for row, (name, part) in zip(view.rows, view.per_query.items()):
        st.markdown(f"#### \u201c{name}\u201d: {part.measure} = {part.display_value}")
        tiles(row, state)
        # the formula stays in view; the rank-by-rank table opens on demand (the page was 4,400 px tall)
        breakdown(part, SCENARIO.labels(), table_label=f"Rank by rank: P@k \u00d7 rel_k for \u201c{name}\u201d")
    chart(charts.ap_terms_spec(view.per_query, view.k, large=state.present),
                  charts.describe_ap_terms(view.per_query), key="ap-terms")
    breakdown(view.mean, SCENARIO.labels(), heading="Mean over the three queries")
    plain_text([*view.per_query.values(), view.mean], SCENARIO.labels(), present=state.present)


close_chapter(state, CHAPTER)
