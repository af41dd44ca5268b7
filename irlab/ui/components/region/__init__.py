"""A live region drawn by one component (``region.js``): tiles, numbers, formulas, tables, charts, "Try this".

Streamlit renders every element of a run anew; a chapter's move changed a dozen elements (markdown
with KaTeX, metrics, tables, charts), and the browser's work per move was five to eight times a bare
page's. This component receives the whole region as blocks of numbers and text (built on the server,
:func:`blocks_json`), and redraws only what changed (``region.js``). Formulas arrive as MathML made on
the server (:mod:`irlab.explain.mathml`), which the browser lays out natively.

The learner's tile moves come back as the component's value ``{"change": {..., "row": key}}`` (the
tiles' change, see :mod:`irlab.ui.components.tiles`, plus which row), read by :func:`unseen_change`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from irlab.ui.components import asset_url, declare
from irlab.ui.components.chart import CONFIG
from irlab.ui.components.tiles import unseen_change

_mount = declare("region", js="region/region.js", css="region/region.css", isolate_styles=False)


def _noop() -> None:
    """State callback: the state name ``change`` is only accepted with a callback."""


def with_digests(blocks: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Each block (and each nested block) with a short digest of its content, so the browser compares
    one string instead of the block.

    >>> [block["digest"] for block in with_digests([{"kind": "heading", "key": "h", "text": "Hi"}])]
    ['f0796e1fdd9f256a']
    """
    out = []
    for block in blocks:
        block = dict(block)
        if "children" in block:
            block["children"] = with_digests(block["children"])
        text = json.dumps(block, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        block["digest"] = hashlib.blake2b(text.encode(), digest_size=8).hexdigest()
        out.append(block)
    return out


def live_region(blocks: Sequence[Mapping[str, Any]], *, key: str, present: bool) -> Mapping | None:
    """Mount (or update) the region with ``blocks``; returns a tile change the page has not taken yet."""
    _mount(key=key, data={"blocks": with_digests(blocks), "present": present, "config": CONFIG,
                          "plotly": asset_url("chart", "chart/vendor/plotly.min.js")},
           default=None, width="stretch", height="content", on_change_change=_noop)
    return unseen_change(key)
