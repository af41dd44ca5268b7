"""Picture tiles that a learner drags (or moves with the keyboard) into a ranking.

One Streamlit custom component (components v2, no build step; ``tiles.js`` and ``tiles.css`` here) registered
once at import as ``irlab.tiles``. :func:`ranking_tiles` mounts one instance; several
instances (different ``key``) can live on one page.

State protocol (the page code reads it): after every user change the browser sets the
state value ``change`` to::

    {"order": [ids in the new rank order],
     "grades": {id: int, ...} or None,      # None in binary mode
     "seq": int,                            # unique for the page load, increasing
     "action": "drag" | "keyboard" | "button" | "reset" | "ideal" | "shuffle" | "grade",
     "item": id moved or edited (None for reset / ideal / shuffle)}

so ``st.session_state[key]`` is ``{"change": {...}}`` once the learner has changed something.
The page adopts a ``change`` it has not seen before and passes the tiles back in the new
order; the browser has already shown the change (it renders optimistically) and does not
rebuild anything when the adopted order comes back.

Stale data: a rerun started by change N can reach the browser after the learner already
made change N+1. ``ranking_tiles`` therefore sends ``ack_seq`` (the ``seq`` of the change
the server has seen, read from ``st.session_state[key]``); the browser ignores the order and
grades of data whose ``ack_seq`` is older than its own latest change, so a quick second move
never flickers back. Everything else in the data (K, mode, labels, pictures) always applies.

Dragging (``drag.js``): pointer events, so a mouse, a pen and a finger drag alike (HTML5 drag and drop
never fires on touch screens). A mouse press becomes a drag after a few pixels; a finger or pen holds a
tile for 250 ms before it lifts, so that a swipe over the tiles still scrolls the page (or, on a phone,
the row). Escape, or the browser taking the gesture back, puts the tile back. A drop reports
``action: "drag"``, like a mouse drag always did. On touch screens (``pointer: coarse``) the move buttons
are 44 x 44 px, and a narrow row (a phone) is one row of tiles that scrolls sideways.

Keyboard (a tile has focus): Shift+ArrowLeft/ArrowUp one rank up, Shift+ArrowRight/ArrowDown
one rank down, Shift+Home / Shift+End to the first / last rank; plain ArrowLeft/Up and
ArrowRight/Down move focus to the previous / next tile, plain Home / End focus the first /
last tile. Graded mode with editable grades: digits 0..max_grade set the grade, + (or =) and
- step it (clamped). Focus stays on the moved tile, also across the rerun.

DOM hooks (inside the shadow root of ``[data-testid="stBidiComponentIsolated"]``; Playwright
CSS locators pierce it): ``.irl-root`` (``data-testid="irl-root"``, ``data-order`` = ids in
shown order joined by ",", ``data-k``, ``data-mode``); the list ``[data-testid="irl-list"]``
(role=list, aria-label=label); tiles ``.irl-tile[data-testid="irl-tile"]`` with
``data-item-id``, ``data-rank``, ``data-grade``, ``data-returned`` ("true"/"false", absent
when k is None); in a tile: ``irl-move-up`` / ``irl-move-down`` buttons (aria-disabled at
the ends), ``irl-rank``, ``irl-picture``, ``irl-title``, ``irl-relevance`` (binary,
``data-relevance``), ``irl-grade`` (graded, ``data-grade``; a button when editable),
``irl-class`` (``data-class``), ``irl-status``, ``irl-edited`` (hidden unless the grade differs
from ``rubric``; the tile then has ``data-edited="true"``) with its button ``irl-grade-reset``;
toolbar buttons ``irl-reset``, ``irl-ideal``, ``irl-shuffle``; the cut ``irl-cut``; the legend
``irl-legend``; the polite live region ``irl-live`` (all as ``data-testid``). While a tile is dragged it has the class
``irl-lifted`` (and its ``style.translate``), and the tile it would land next to the class
``irl-drop-before`` or ``irl-drop-after``.

The browser code: ``tiles.js`` (the row: data in, drawing, changes out, and ``createTiles`` for a
component that draws a row inside its own element), ``order.js`` (the order as pure functions),
``keys.js`` (which key does what), ``geometry.js`` (where a drop lands, autoscroll speed), ``drag.js``
(pointer dragging), ``dom.js`` (element helpers); ``*.test.js`` beside them run with ``node --test``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from numbers import Integral, Real
from typing import Any

import streamlit as st

from irlab.ui.components import declare

MODES = ("binary", "graded")
CLASSES = ("TP", "FP", "FN", "TN")

_mount = declare("tiles", js="tiles/tiles.js", css="tiles/tiles.css")
SEEN = "irlab.tiles.seen_changes"


def latest_change(key: str) -> Mapping | None:
    """The learner's latest change in tile row ``key`` (None before the first), whether or not the page took it.

    The one place that reads the component's value (``{"change": {...}}``, see the module docstring).
    """
    value = st.session_state.get(key)
    change = value.get("change") if isinstance(value, Mapping) else None
    return change if isinstance(change, Mapping) else None


def unseen_change(key: str) -> Mapping | None:
    """The learner's latest change in tile row ``key`` if the page has not taken it yet (then it is taken)."""
    change = latest_change(key)
    if change is None:
        return None
    seen = st.session_state.setdefault(SEEN, {})
    if seen.get(key) == change:
        return None
    seen[key] = dict(change)
    return change


def _noop() -> None:
    """State callback: the state name ``change`` is only accepted with a callback."""


def _text(value: Any, *, field: str, index: int, default: str | None = None) -> str:
    if value is None:
        if default is not None:
            return default
        raise ValueError(f"tile {index}: {field!r} is missing")
    if not isinstance(value, str):
        raise ValueError(f"tile {index}: {field!r} must be text, got {type(value).__name__}")
    return value


def _ack_seq(key: str) -> int | float | None:
    """The ``seq`` of the last change the server holds for this instance, if any."""
    try:
        state = st.session_state.get(key)
    except Exception:  # noqa: BLE001 - no session (bare mode) or a presenter error
        return None
    if isinstance(state, Mapping):
        change = state.get("change")
        if isinstance(change, Mapping):
            seq = change.get("seq")
            if isinstance(seq, Real) and not isinstance(seq, bool):
                return seq
    return None


def _tile(raw: Mapping, index: int, *, mode: str, max_grade: int) -> dict[str, Any]:
    if not isinstance(raw, Mapping):
        raise ValueError(f"tile {index}: expected a mapping, got {type(raw).__name__}")
    item_id = _text(raw.get("id"), field="id", index=index)
    if not item_id:
        raise ValueError(f"tile {index}: 'id' is empty")
    title = _text(raw.get("title"), field="title", index=index, default=item_id)
    relevance = raw.get("relevance", 0)
    if isinstance(relevance, bool):
        relevance = int(relevance)
    if not isinstance(relevance, Integral):
        raise ValueError(f"tile {item_id!r}: 'relevance' must be a whole number, got {relevance!r}")
    relevance = int(relevance)
    top = 1 if mode == "binary" else max_grade
    if not 0 <= relevance <= top:
        raise ValueError(f"tile {item_id!r}: relevance {relevance} is outside 0..{top} ({mode} mode)")
    if mode == "binary":
        default_label = "relevant" if relevance else "not relevant"
    else:
        default_label = f"grade {relevance} of {max_grade}"
    rubric = raw.get("rubric")
    if rubric is not None and (isinstance(rubric, bool) or not isinstance(rubric, Integral) or
                               not 0 <= int(rubric) <= top):
        raise ValueError(f"tile {item_id!r}: 'rubric' must be None or a grade in 0..{top}, got {rubric!r}")
    cls = raw.get("class")
    if cls is not None and cls not in CLASSES:
        raise ValueError(f"tile {item_id!r}: 'class' must be one of {CLASSES} or None, got {cls!r}")
    return {
        "id": item_id,
        "title": title,
        "alt": _text(raw.get("alt"), field="alt", index=index, default=title),
        "picture": _text(raw.get("picture"), field="picture", index=index, default=""),
        "relevance": relevance,
        "relevance_label": _text(raw.get("relevance_label"), field="relevance_label", index=index,
                                 default=default_label),
        "class": cls,
        "class_label": _text(raw.get("class_label"), field="class_label", index=index, default=cls or ""),
        "rubric": None if rubric is None else int(rubric),
        # graded mode, chapters 1-2: whether the grade counts as relevant at the chosen level, in words
        "counts": None if raw.get("counts") is None else bool(raw.get("counts")),
        "counts_label": _text(raw.get("counts_label"), field="counts_label", index=index, default=""),
    }


def _order(ids: Sequence[str] | None, known: list[str], *, field: str) -> list[str] | None:
    """``ids`` restricted to the tile ids (first occurrence wins), then any missing tile in current order."""
    if ids is None:
        return None
    if isinstance(ids, (str, bytes)):
        raise ValueError(f"{field} must be a list of item ids, got the text {ids!r}")
    known_set = set(known)
    out: list[str] = []
    for item in ids:
        item = str(item)
        if item in known_set and item not in out:
            out.append(item)
    out.extend(i for i in known if i not in out)
    return out


def build_data(*, tiles: Sequence[Mapping], k: int | None, mode: str, editable_grades: bool = False,
               max_grade: int = 4, default_order: Sequence[str], ideal_order: Sequence[str] | None,
               show_classes: bool = False, large: bool = False, label: str, show_buttons: bool = True,
               ack_seq: int | float | None = None) -> dict[str, Any]:
    """The JSON-serialisable ``data`` dict the browser receives (checked; raises ValueError)."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    if isinstance(max_grade, bool) or not isinstance(max_grade, Integral) or not 1 <= int(max_grade) <= 9:
        raise ValueError(f"max_grade must be a whole number in 1..9, got {max_grade!r}")
    max_grade = int(max_grade)
    if k is not None and (isinstance(k, bool) or not isinstance(k, Integral) or int(k) < 0):
        raise ValueError(f"k must be None or a whole number >= 0, got {k!r}")
    items = [_tile(t, i, mode=mode, max_grade=max_grade) for i, t in enumerate(tiles)]
    ids = [t["id"] for t in items]
    if len(set(ids)) != len(ids):
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        raise ValueError(f"tile ids must be distinct, repeated: {dupes}")
    return {
        "v": 1,
        "label": str(label),
        "mode": mode,
        "k": None if k is None else int(k),
        "editable_grades": bool(editable_grades) and mode == "graded",
        "max_grade": max_grade if mode == "graded" else 1,
        "default_order": _order(default_order, ids, field="default_order"),
        "ideal_order": _order(ideal_order, ids, field="ideal_order"),
        "show_classes": bool(show_classes),
        "large": bool(large),
        "show_buttons": bool(show_buttons),
        "ack_seq": ack_seq,
        "tiles": items,
    }


def ranking_tiles(*, key: str, tiles: Sequence[Mapping], k: int | None, mode: str, editable_grades: bool = False,
                  max_grade: int = 4, default_order: Sequence[str], ideal_order: Sequence[str] | None,
                  show_classes: bool = False, large: bool = False, label: str,
                  show_buttons: bool = True) -> Mapping | None:
    """Mount one row of ranking tiles; returns the learner's change the page has not taken yet (or None).

    ``tiles`` are in the CURRENT rank order; each is a mapping with ``id``, ``title``, ``alt``,
    ``picture`` (an image URL: :func:`irlab.ui.components.pictures.picture_url`), ``relevance``
    (0/1 in binary mode, 0..max_grade in graded mode), ``relevance_label``, ``class``
    ("TP"/"FP"/"FN"/"TN" or None, shown only when ``show_classes``), ``class_label`` and ``rubric`` (the
    judged grade when grades are editable: a tile whose grade differs is marked edited, with a button
    that puts the judged grade back).
    ``k`` is the cut-off (None: no cut). The learner's changes arrive in
    ``st.session_state[key]["change"]`` (see the module docstring).
    """
    data = build_data(tiles=tiles, k=k, mode=mode, editable_grades=editable_grades, max_grade=max_grade,
                      default_order=default_order, ideal_order=ideal_order, show_classes=show_classes,
                      large=large, label=label, show_buttons=show_buttons, ack_seq=_ack_seq(key))
    _mount(key=key, data=data, default=None, width="stretch", height="content", on_change_change=_noop)
    return unseen_change(key)
