"""Plotly charts that update in place, and plotly.js served once as a cached asset.

``st.plotly_chart`` derives an element's identity from its figure, so every changed chart is
unmounted and drawn anew (a full ``Plotly.newPlot``): the largest part of the browser's work on a
drag. :func:`chart` mounts our own small component (components v2) that calls ``Plotly.react`` on
the figure it is given, so a move redraws only what changed. The figure is irlab's spec as JSON:
the browser draws numbers it is given and computes none.

plotly.js comes from the installed ``plotly`` package, served by Streamlit's component file route
(a components v1 declaration with a ``path`` registers that directory); the browser loads it once
per tab. The component's own code (``assets/chart.js``) is a few lines.
"""

from __future__ import annotations

from pathlib import Path

import plotly
import plotly.io
import streamlit as st

from irlab.walkthrough.charts import Spec

CONFIG = {"displayModeBar": False, "responsive": True}
PLOTLY_DIR = Path(plotly.__file__).with_name("package_data")
_PLOTLY_FILES = "plotly_js"

_mount = st.components.v2.component("irlab_chart", js=Path(__file__).with_name("assets").joinpath(
    "chart.js").read_text(encoding="utf-8"), isolate_styles=False)


def plotly_js_url() -> str:
    """Where the browser loads plotly.js from (registered on first use in a session's run)."""
    st.components.v1.declare_component(_PLOTLY_FILES, path=PLOTLY_DIR)
    base = (st.get_option("server.baseUrlPath") or "").strip("/")
    return f"{'/' + base if base else ''}/component/{__name__}.{_PLOTLY_FILES}/plotly.min.js"


def chart(spec: Spec, alt: str, *, key: str) -> None:
    """Mount (or update in place) one chart; ``alt`` is its text alternative."""
    _mount(key=key, data={"figure": plotly.io.to_json(spec, validate=False), "alt": alt, "plotly": plotly_js_url(),
                          "config": CONFIG}, width="stretch", height="content")
