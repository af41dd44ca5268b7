"""Chapter 4: the Precision@k x rel_k table per query, AP@K per query, and MAP@K."""

import streamlit as st

from irlab.ui import render
from irlab.ui.page import close_chapter, live_region, open_chapter
from irlab.ui.shell import ensure_navigation
from irlab.walkthrough import charts
from irlab.walkthrough.chapters import chapter
from irlab.walkthrough.state import SCENARIO
from irlab.walkthrough.views import binary_row_targets, map_view

ensure_navigation()  # first: see irlab/ui/shell.py

CHAPTER = chapter("map")
state = open_chapter(CHAPTER)


@live_region(CHAPTER, binary_row_targets())
def draw(state):
    view = map_view(state, CHAPTER)
    render.headline(view.headline)
    for row, (name, part) in zip(view.rows, view.per_query.items()):
        st.markdown(f"#### \u201c{name}\u201d: {part.measure} = {part.display_value}")
        render.tiles(row, state)
        # the formula stays in view; the rank-by-rank table opens on demand (the page was 4,400 px tall)
        render.breakdown(part, SCENARIO.labels(), table_label=f"Rank by rank: P@k \u00d7 rel_k for \u201c{name}\u201d")
    render.figure(charts.ap_terms_spec(view.per_query, view.k, large=state.present),
                  charts.describe_ap_terms(view.per_query), key="ap-terms")
    render.breakdown(view.mean, SCENARIO.labels(), heading="Mean over the three queries")
    render.plain_text([*view.per_query.values(), view.mean], SCENARIO.labels(), state)


close_chapter(state, CHAPTER)
