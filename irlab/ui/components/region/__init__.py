"""A live region drawn by one component (``region.js``): tiles, numbers, formulas, tables, charts, "Try this".

Streamlit renders every element of a run anew; a chapter's move changed a dozen elements (markdown
with KaTeX, metrics, tables, charts), and the browser's work per move was five to eight times a bare
page's. This component receives the whole region as blocks of numbers and text (built on the server,
:func:`blocks_json`), and redraws only what changed (``region.js``). Formulas arrive as MathML made on
the server (:mod:`irlab.explain.mathml`), which the browser lays out natively.

A change of K is shown without waiting for the server: with the region come its screens at every other K
(when the learner has just moved K, or came to the K slider, see :func:`live_region`), and when the K
slider shows another value the browser draws that screen at once; the run that the slider starts then
draws the same screen, and nothing changes. A tile move is drawn the same way: when the learner comes to a
tile, the browser asks for the screen after each of its moves (:func:`asked_for_moves`), and draws the one
the drop makes. The browser chooses a screen; it computes none.

The learner's tile moves come back as the component's value ``{"change": {..., "row": key}}`` (the
tiles' change, see :mod:`irlab.ui.components.tiles`, plus which row), read by its ``unseen_change``.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import streamlit as st

from irlab.ui.components import asset_url, declare
from irlab.ui.components.chart import CONFIG

_mount = declare("region", js="region/region.js", css="region/region.css", isolate_styles=False)


def _noop() -> None:
    """State callback: the state name ``change`` is only accepted with a callback."""


def _digest(text: str) -> str:
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


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
        block["digest"] = _digest(json.dumps(block, sort_keys=True, separators=(",", ":"), ensure_ascii=False))
        out.append(block)
    return out


def as_references(blocks: Sequence[Mapping[str, Any]], shown: Sequence[Mapping[str, Any]], *,
                  keep: str | None = None) -> list[dict[str, Any]]:
    """``blocks`` (with digests) where every block, at any depth, that ``shown`` holds with the same digest is only
    a reference to it, ``{"key", "kind", "digest", "same": True}``: another K's screen repeats much of this one.
    The block with key ``keep`` is a reference to the shown block with that key, whatever it holds (a tile row
    that already shows the move itself).

    >>> shown = with_digests([{"kind": "heading", "key": "h", "text": "Hi"}])
    >>> other = with_digests([{"kind": "heading", "key": "h", "text": "Hi"},
    ...                       {"kind": "heading", "key": "g", "text": "Ho"}])
    >>> [block.get("same", False) for block in as_references(other, shown)]
    [True, False]
    >>> as_references(with_digests([{"kind": "heading", "key": "h", "text": "Ha"}]), shown, keep="h")[0]["digest"]
    'f0796e1fdd9f256a'
    """
    digests: dict[str, str] = {}  # digest -> key
    _collect_digests(shown, digests)
    kept = next((digest for digest, key in digests.items() if key == keep), None) if keep is not None else None

    def reference(block: Mapping[str, Any]) -> dict[str, Any]:
        digest = kept if kept is not None and block["key"] == keep else block["digest"]
        if digest in digests:
            return {"key": block["key"], "kind": block["kind"], "digest": digest, "same": True}
        if "children" in block:
            return {**block, "children": [reference(child) for child in block["children"]]}
        return dict(block)

    return [reference(block) for block in blocks]


def _collect_digests(blocks: Sequence[Mapping[str, Any]], into: dict[str, str]) -> None:
    """Each block's key by its digest, at any depth."""
    for block in blocks:
        into[block["digest"]] = block["key"]
        _collect_digests(block.get("children", ()), into)


def screen_digest(blocks: Sequence[Mapping[str, Any]]) -> str:
    """One digest for a whole screen (with digests): other K's screens are drawn against the screen it names."""
    return _digest("".join(block["digest"] for block in blocks))


def k_slider_class(widget_key: str) -> str:
    """The class Streamlit gives the element of the widget with key ``widget_key``.

    >>> k_slider_class("irlab.widget.k")
    'st-key-irlab-widget-k'
    """
    return "st-key-" + re.sub(r"[^A-Za-z0-9_-]", "-", widget_key.strip())


def asked_for_other_k(key: str) -> str | None:
    """The screen (:func:`screen_digest`) for which the region ``key`` asked for the other K's screens: the learner
    came to the K slider (pointer or focus) while the browser had none for the screen it shows."""
    value = st.session_state.get(key)
    wants = value.get("wants") if isinstance(value, Mapping) else None
    return wants if isinstance(wants, str) else None


def asked_for_moves(key: str, screen: str) -> tuple[str, str] | None:
    """The tile (row key, item id) whose moves the region ``key`` asked to have drawn ahead, for ``screen`` (the
    learner's pointer or focus came to it); None when it asked for none, for another screen, or sent nonsense."""
    value = st.session_state.get(key)
    moves = value.get("moves") if isinstance(value, Mapping) else None
    if not isinstance(moves, Mapping) or moves.get("screen") != screen:
        return None
    return _tile(moves)


def moved_ahead(change: Mapping | None) -> tuple[str, str] | None:
    """The tile (row key, item id) of a tile change the browser drew ahead: the learner may move it again, so the run
    that takes the change sends that tile's moves from the new screen (:func:`live_region`'s ``moves_of``)."""
    return _tile(change) if isinstance(change, Mapping) and change.get("ahead") is True else None


def _tile(value: Mapping) -> tuple[str, str] | None:
    row, item = value.get("row"), value.get("item")
    if not (isinstance(row, str) and isinstance(item, str) and 0 < len(row) <= 100 and 0 < len(item) <= 100):
        return None
    return row, item


def live_region(blocks: Sequence[Mapping[str, Any]], *, key: str, present: bool, k: int | None = None,
                k_slider: str | None = None,
                other_k: Callable[[], Mapping[int, Sequence[Mapping[str, Any]]]] | None = None,
                send_other_k: bool = False,
                moves: Callable[[str, str], Mapping[str, Sequence[Mapping[str, Any]]]] | None = None,
                moves_of: tuple[str, str] | None = None) -> None:
    """Mount (or update) the region with ``blocks``.

    ``k`` is the K the screen is drawn at and ``k_slider`` the key of the K slider. ``other_k`` makes the screen at
    each other K (K -> blocks); they are sent when ``send_other_k`` (the learner has just moved K, and may move it
    again) or when the browser asked for them for this screen (:func:`asked_for_other_k`). Not on every run: a
    tile move's numbers would wait for seven more screens, and so would a cold start's.

    ``moves(row, item)`` makes the screen after each move of a tile to another rank (the order -> blocks); they
    are sent for tile ``moves_of`` (the tile of a move the browser drew ahead: :func:`moved_ahead`), or else when
    the browser asked for that tile's moves for this screen (:func:`asked_for_moves`). The first spares the
    learner who moves the same tile again a run of its own: a run costs a slow device's browser more than the
    seven screens.
    """
    shown = with_digests(blocks)
    screen = screen_digest(shown)
    data = {"name": key, "blocks": shown, "screen": screen, "k": k, "present": present,
            "kSlider": k_slider_class(k_slider) if k_slider else None, "config": CONFIG,
            "plotly": asset_url("chart", "chart/vendor/plotly.min.js")}
    if other_k is not None and (send_other_k or asked_for_other_k(key) == screen):
        # each block that is the same as in the shown screen goes as a reference to it
        data["otherScreens"] = {str(at): as_references(with_digests(screen_at), shown)
                                for at, screen_at in other_k().items()}
    tile = (moves_of or asked_for_moves(key, screen)) if moves is not None else None
    screens_after = moves(*tile) if tile is not None else {}
    if screens_after:
        row, item = tile
        # the row's tiles show the move themselves: only the server's answer, with the move's number, updates them
        data["moveScreens"] = {"row": row, "item": item, "screens": {
            order: as_references(with_digests(screen_after), shown, keep=row)
            for order, screen_after in screens_after.items()}}
    _mount(key=key, data=data, default=None, width="stretch", height="content", on_change_change=_noop,
           on_wants_change=_noop, on_moves_change=_noop)
