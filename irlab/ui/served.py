"""Files the browser loads by URL, once per tab, instead of with every run.

Streamlit serves a directory that a components v1 declaration names as its ``path`` under
``/component/<module>.<name>/<file>`` (gzip-compressed, ``Cache-Control: public``). Two directories
are served this way: our :data:`ASSETS` (component code and styles, the walkthrough's pictures) and the installed
``plotly`` package's ``package_data`` (plotly.js). A run then sends a short URL where it used to
send the file: the eight pictures were 30 KB of ``data:`` URIs in every tile message.

The pictures in ``assets/pictures`` are written from :mod:`irlab.scenarios.art` by
:func:`write_pictures`; a test checks that they are current.
"""

from __future__ import annotations

from pathlib import Path

import plotly
import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from irlab.scenarios.art import PICTURES, picture_svg

ASSETS = Path(__file__).with_name("assets")
PICTURE_DIR = ASSETS / "pictures"
PLOTLY_DIR = Path(plotly.__file__).with_name("package_data")
_SERVED = {"assets": ASSETS, "plotly_js": PLOTLY_DIR}


def _url(name: str, relative: str) -> str:
    if get_script_run_ctx(suppress_warning=True) is not None:  # outside a run (unit tests) there is no server
        st.components.v1.declare_component(name, path=_SERVED[name])
    base = (st.get_option("server.baseUrlPath") or "").strip("/")
    return f"{'/' + base if base else ''}/component/{__name__}.{name}/{relative}"


def asset_url(relative: str) -> str:
    """Where the browser loads one of our :data:`ASSETS` from (component code and styles, pictures)."""
    if not (ASSETS / relative).is_file():
        raise FileNotFoundError(f"no asset {relative!r}")
    return _url("assets", relative)


def plotly_js_url() -> str:
    """Where the browser loads plotly.js from."""
    return _url("plotly_js", "plotly.min.js")


def picture_url(key: str) -> str:
    """Where the browser loads the walkthrough picture ``key`` from ("" for no picture).

    >>> picture_url("white-cat").endswith("/component/irlab.ui.served.assets/pictures/white-cat.svg")
    True
    """
    if not key:
        return ""
    if key not in PICTURES:
        raise KeyError(f"no picture {key!r}")
    return asset_url(f"pictures/{key}.svg")


def write_pictures(folder: Path = PICTURE_DIR) -> None:
    """Write every picture of :mod:`irlab.scenarios.art` as an SVG file (run after changing the art)."""
    folder.mkdir(parents=True, exist_ok=True)
    for key in PICTURES:
        (folder / f"{key}.svg").write_text(picture_svg(key), encoding="utf-8")


if __name__ == "__main__":
    write_pictures()
