"""Plotly charts that update in place, and plotly.js served once as a cached asset.

``st.plotly_chart`` derives an element's identity from its figure, so every changed chart is
unmounted and drawn anew (a full ``Plotly.newPlot``): the largest part of the browser's work on a
drag. :func:`chart` mounts our own small component (components v2) that calls ``Plotly.react`` on
the figure it is given, so a move redraws only what changed. The figure is irlab's spec as JSON:
the browser draws numbers it is given and computes none.

plotly.js comes from the installed ``plotly`` package (:mod:`irlab.ui.served`); the browser loads it
once per tab. The component's own code (``assets/chart.js``) is a few lines.
"""

from __future__ import annotations

import plotly.io
import streamlit as st

from irlab.ui.served import ASSETS, plotly_js_url
from irlab.walkthrough.charts import Spec

CONFIG = {"displayModeBar": False, "responsive": True}
# Not isolated: plotly.js styles its charts through rules it adds to the document's head.
_CSS = """
.irl-chart-caption { margin: .35rem 0 0; font-size: .875rem; line-height: 1.45; color: #5c5b59; }
"""
_mount = st.components.v2.component("irlab_chart", js=(ASSETS / "chart.js").read_text(encoding="utf-8"), css=_CSS,
                                     isolate_styles=False)


def chart(spec: Spec, alt: str, *, key: str) -> None:
    """Mount (or update in place) one chart; ``alt`` is its text alternative, also shown below it as a caption."""
    _mount(key=key, data={"figure": plotly.io.to_json(spec, validate=False), "alt": alt, "plotly": plotly_js_url(),
                          "config": CONFIG}, width="stretch", height="content")
