"""Plotly charts that update in place: our component calls ``Plotly.react`` on the figure it is given.

``st.plotly_chart`` derives an element's identity from its figure, so every changed chart is
unmounted and drawn anew (a full ``Plotly.newPlot``): the largest part of the browser's work on a
drag. :func:`chart` mounts our component (``chart.js``), which redraws in place, and only when the
figure changed. The figure is irlab's spec as JSON: the browser draws numbers it is given and
computes none. Every chart of the app goes through here.

plotly.js is the installed ``plotly`` package's own file, copied once into ``vendor/`` (not in git)
so that the components' route serves it: that route serves only files inside this folder tree, and
resolves symbolic links before checking. The browser loads it once per tab.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import plotly
import plotly.io

from irlab.ui.components import asset_url, declare

CONFIG = {"displayModeBar": False, "responsive": True}
"""Plotly's options for every chart: no tool bar (a projector needs none), follow the column's width."""

PLOTLY_JS = Path(plotly.__file__).with_name("package_data") / "plotly.min.js"
VENDORED = Path(__file__).with_name("vendor") / "plotly.min.js"


def vendor_plotly_js(source: Path = PLOTLY_JS, target: Path = VENDORED) -> Path:
    """Copy plotly.js from the installed package next to our code, unless the copy there is the same file."""
    if target.is_file() and target.stat().st_size == source.stat().st_size:
        return target
    target.parent.mkdir(exist_ok=True)
    # Each process copies to a file of its own, then renames it: two processes starting at the
    # same moment (pytest's workers, two replicas) never share a half-written file, and the
    # rename is atomic, so nobody serves half a file.
    with tempfile.NamedTemporaryFile(dir=target.parent, prefix="plotly.", suffix=".partial",
                                     delete=False) as partial, source.open("rb") as original:
        shutil.copyfileobj(original, partial)
    shutil.copymode(source, partial.name)  # a temporary file is private to its owner; the copy is not
    Path(partial.name).replace(target)
    return target


vendor_plotly_js()
# Not isolated: plotly.js styles its charts through rules it adds to the document's head.
_mount = declare("chart", js="chart/chart.js", css="chart/chart.css", isolate_styles=False)


def chart(spec: dict, alt: str, *, key: str) -> None:
    """Mount (or update in place) one chart; ``alt`` is its text alternative, also shown below it as a caption."""
    _mount(key=key, data={"figure": plotly.io.to_json(spec, validate=False), "alt": alt,
                          "plotly": asset_url("chart", "chart/vendor/plotly.min.js"), "config": CONFIG},
           width="stretch", height="content")
