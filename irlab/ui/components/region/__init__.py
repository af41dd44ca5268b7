"""A live region drawn by one component (``region.js``): its controls, tiles, numbers, formulas, tables, charts.

Streamlit renders every element of a run anew; a chapter's move changed a dozen elements, and every change
of K was a run. This component receives the region as blocks of numbers and text made on the server, and
redraws only what changed. Formulas arrive as MathML made on the server (:mod:`irlab.explain.mathml`).

What the server sends (``data``, its shape declared once in ``region.schema.json`` beside this file):

* the screen, whole (``blocks``) or as a patch (``patch``, :mod:`.patch`) of the screen ``from`` the browser
  holds, named by its digest (``screen``); or ``same``: nothing new to draw (the run only took a K);
* ``controls``: K (a slider), the chapter's settings, Undo, Redo, "Reset grades", which the region draws;
* ``kForm``: the screen at every other K as patches of this one, and each number's change between any two
  K (with the screen when a session made it already, else when the learner comes to the K slider): a
  change of K is drawn by the browser, and the server learns the K the learner settled on once they
  pause (no run per step);
* ``moveScreens``: the screen after each move of one tile, asked for when the learner comes to the tile;
* ``busy``: the process had no CPU to spare for what was asked ahead: ask for nothing ahead for that many seconds.

What the browser sends back (the component's state, one name per kind of message, each with an increasing
``seq`` and the ``screen`` it shows): ``change`` (a tile row's change, see :mod:`irlab.ui.components.tiles`,
plus its ``row``), ``k`` (the settled K), ``control`` (``undo``, ``redo``, ``reset-grades``, ``setting``),
``moves`` (a tile whose moves to draw ahead), ``kform`` (the K form: the learner came to the K slider),
``full`` (the screen whole: a patch it could not apply); each also says whether it holds the K form of
its screen (``form``).
:func:`unseen_message` reads each once. Anything in them is untrusted: the page checks every value.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

import streamlit as st

from irlab.ui.components import asset_url, declare
from irlab.ui.components.chart import CONFIG

_mount = declare("region", js="region/region.js", css="region/region.css", isolate_styles=False)

MESSAGES = ("change", "k", "control", "moves", "kform", "full")
"""The names of the browser's messages."""
SEEN = "irlab.region.seen"
"""Component key -> message name -> the last message of that name the page took."""


def digest(text: str) -> str:
    """A short digest of ``text`` (16 hex digits)."""
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def block_digest(block: Mapping[str, Any]) -> str:
    """The digest of a block's content (its own left out); a nested block counts by its digest, which says its content
    (its content is not encoded a second time: most of a screen's formulas, tables and charts sit in columns and tabs).
    """
    content = {name: value for name, value in block.items() if name != "digest"}
    if "children" in content:
        content["children"] = [child["digest"] for child in content["children"]]
    return digest(json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False))


def with_digests(blocks: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Each block (and each nested block) with a short digest of its content; a block that has one keeps it.

    >>> [block["digest"] for block in with_digests([{"kind": "heading", "key": "h", "text": "Hi"}])]
    ['f0796e1fdd9f256a']
    """
    out = []
    for block in blocks:
        if "digest" in block:
            out.append(block if isinstance(block, dict) else dict(block))
            continue
        block = dict(block)
        if "children" in block:
            block["children"] = with_digests(block["children"])
        block["digest"] = block_digest(block)
        out.append(block)
    return out


def screen_digest(blocks: Sequence[Mapping[str, Any]]) -> str:
    """One digest for a whole screen (blocks with digests)."""
    return digest("".join(block["digest"] for block in blocks))


def _noop() -> None:
    """State callback: a state name is only accepted with a callback."""


def unseen_message(key: str, name: str) -> Mapping[str, Any] | None:
    """The region ``key``'s latest message ``name`` if the page has not taken it yet (then it is taken); None for
    none, or for anything that is not a mapping."""
    value = st.session_state.get(key)
    message = value.get(name) if isinstance(value, Mapping) else None
    if not isinstance(message, Mapping):
        return None
    seen = st.session_state.setdefault(SEEN, {}).setdefault(key, {})
    if seen.get(name) == message:
        return None
    seen[name] = dict(message)
    return message


def held_screen(message: Mapping[str, Any] | None) -> str | None:
    """The screen (digest) a message says the browser holds, or None."""
    screen = message.get("screen") if isinstance(message, Mapping) else None
    return screen if isinstance(screen, str) and len(screen) <= 32 else None


def tile_of(message: Mapping[str, Any] | None) -> tuple[str, str] | None:
    """The tile (row key, item id) a message names, or None for none or nonsense."""
    if not isinstance(message, Mapping):
        return None
    row, item = message.get("row"), message.get("item")
    if not (isinstance(row, str) and isinstance(item, str) and 0 < len(row) <= 100 and 0 < len(item) <= 100):
        return None
    return row, item


def whole_number(value: Any, low: int, high: int) -> int | None:
    """``value`` when it is a whole number in ``low..high`` (a bool is not), else None.

    >>> whole_number(3, 1, 8), whole_number(3.0, 1, 8), whole_number(9, 1, 8), whole_number(True, 1, 8)
    (3, 3, None, None)
    >>> whole_number(float("nan"), 1, 8), whole_number(float("inf"), 1, 8)  # JSON from a browser may say NaN
    (None, None)
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    if value != int(value):
        return None
    return int(value) if low <= value <= high else None


def mount(data: Mapping[str, Any], *, key: str) -> None:
    """Mount (or update) the region ``key`` with ``data`` (see the module docstring)."""
    _mount(key=key, data={"name": key, "config": CONFIG, "plotly": asset_url("chart", "chart/vendor/plotly.min.js"),
                          **data},
           default=None, width="stretch", height="content", **{f"on_{name}_change": _noop for name in MESSAGES})


def live_region(blocks: list[dict[str, Any]], *, key: str, present: bool) -> None:
    """A region that only shows ``blocks`` (a class's projector): whole on every run, no controls."""
    shown = with_digests(blocks)
    mount({"blocks": shown, "screen": screen_digest(shown), "present": present}, key=key)
