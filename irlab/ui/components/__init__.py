"""The browser components: one folder each, with its Python API (``__init__.py``), its ``.js`` and ``.css``.

Every component is a Streamlit components v2 component declared in ``pyproject.toml``
(``[tool.streamlit.component]``) with this folder as its asset directory. Streamlit serves the folder's
files under ``/_stcore/bidi-components/irlab.<name>/<folder>/<file>`` with ``Cache-Control: public``, so
a browser loads a component's code, its styles and the pictures once per tab, and each run sends only
data. That is the one way anything of ours reaches the browser: no code or styles in Python strings,
no ``data:`` URIs.

Folders: ``tiles`` (the draggable ranking), ``chart`` (Plotly charts drawn in place), ``share`` (copy
the link), ``shortcuts`` (which key press is Undo or Redo, for the region), ``pictures`` (the walkthrough's SVG
pictures as files), ``classfeed`` (a live class page's event stream, timer and counts) and ``classanswer``
(a student's answer form, kept on the phone until acknowledged). The JavaScript is
typed with JSDoc and checked by ``tsc --checkJs`` (``package.json`` here); pure logic is unit-tested
with ``node --test``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

import streamlit as st

from irlab.ui.components.preload import preload_links

ROOT = Path(__file__).parent
"""The asset directory every component serves (see ``pyproject.toml``)."""


def component_name(name: str) -> str:
    """The registered name of our component ``name`` (the project's name, a dot, the manifest's entry).

    >>> component_name("tiles")
    'irlab.tiles'
    """
    return f"irlab.{name}"


def asset_url(component: str, relative: str) -> str:
    """Where the browser loads ``relative`` (a path under this folder) from, through ``component``'s route.

    >>> asset_url("pictures", "pictures/white-cat.svg")
    '/_stcore/bidi-components/irlab.pictures/pictures/white-cat.svg'
    """
    if not _is_asset(relative):
        raise FileNotFoundError(f"no component asset {relative!r}")
    base = (st.get_option("server.baseUrlPath") or "").strip("/")
    return f"{'/' + base if base else ''}/_stcore/bidi-components/{component_name(component)}/{relative}"


@lru_cache(maxsize=256)
def _is_asset(relative: str) -> bool:
    # cached: the assets ship with the package, and a chapter's screens name every picture at each of eight K
    return (ROOT / relative).is_file()


def declare(name: str, *, js: str, css: str | None = None, isolate_styles: bool = True) -> Callable[..., Any]:
    """Our component ``name`` with its code and styles (paths under this folder); returns its mount function.

    Streamlit is told about the component at its first mount, not at import: only a running app (or
    AppTest) has read the manifest in ``pyproject.toml`` that says where the files are, so a module that
    merely imports a component (a unit test, a benchmark) works without a server. Its ``html`` preloads what
    its code and styles import (:mod:`irlab.ui.components.preload`).
    """
    mount: Callable[..., Any] | None = None

    def mount_component(**kwargs: Any) -> Any:
        nonlocal mount
        if mount is None:
            preload = preload_links(ROOT, js, css, lambda path: asset_url(name, path))
            mount = st.components.v2.component(component_name(name), html=preload, js=js, css=css,
                                               isolate_styles=isolate_styles)
        return mount(**kwargs)

    return mount_component
