"""A screen's blocks (:mod:`irlab.walkthrough.screens`) as the JSON the live-region component draws.

Shared by every product that shows blocks: the walkthrough's live region (which adds what only a
learner's session knows, :mod:`irlab.ui.walkthrough.screen`), and a class's projector. Pure: the same
block gives the same JSON, so a screen made once can be sent to every student in the same state.
Every number still comes from the chapter's view; this module turns it into JSON (the region adds each
block's digest, :func:`irlab.ui.components.region.with_digests`). The JSON's shape is declared once in
``irlab/ui/components/region/region.schema.json``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import plotly.io

from irlab.explain.mathml import mathml
from irlab.ui.components.pictures import picture_url
from irlab.ui.components.tiles import build_data
from irlab.walkthrough.screens import (
    Block,
    Chart,
    Columns,
    Details,
    Formulas,
    Heading,
    Numbers,
    Paragraph,
    Pictures,
    Table,
    Tabs,
    Tiles,
)
from irlab.walkthrough.state import SCENARIO
from irlab.walkthrough.views import Headline


def number_json(item: Headline) -> dict[str, Any]:
    """One headline number: its label, value, change since the learner's last move (as text) and its trend."""
    trend = None if item.change is None else "same" if item.change == 0 else "up" if item.change > 0 else "down"
    return {"label": item.label, "value": item.display, "delta": item.change_display, "trend": trend,
            "help": item.help}


def _table(block: Table | None) -> dict[str, Any] | None:
    if block is None:
        return None
    return {"kind": "table", "key": block.key, "headers": list(block.headers), "cells": [list(r) for r in block.cells]}


def _tiles(block: Tiles, large: bool) -> dict[str, Any]:
    row = block.row
    data = build_data(tiles=[{**tile, "picture": picture_url(str(tile["picture"]))} for tile in row.tiles], k=row.k,
                      mode=row.mode, editable_grades=row.editable_grades, max_grade=row.query.judgments.max_grade,
                      default_order=row.default_order, ideal_order=row.ideal_order, show_classes=row.show_classes,
                      large=large, label=row.label, ack_seq=None)
    return {"kind": "tiles", "key": block.key, "data": data}


def figure_json(spec: dict[str, Any]) -> dict[str, Any]:
    """A chart's figure as plain JSON values (a copy): through the standard library's encoder when the spec holds only
    what JSON holds, as the walkthrough's charts do; else through Plotly's (numpy values, dates, NaN as null), about
    ten times slower, and a chapter's screens at eight K hold sixteen charts.

    >>> figure_json({"data": [{"x": [1, 2], "y": [0.5, 0.25]}]}) == {"data": [{"x": [1, 2], "y": [0.5, 0.25]}]}
    True
    >>> figure_json({"data": [{"y": [float("nan")]}]})  # Plotly's rule: NaN is null
    {'data': [{'y': [None]}]}
    """
    try:
        return json.loads(json.dumps(spec, allow_nan=False))
    except (TypeError, ValueError):
        return json.loads(plotly.io.to_json(spec, validate=False))


def block_json(block: Block, *, large: bool = False) -> dict[str, Any]:
    """One block as the component's JSON (nested blocks too); ``large``: tiles for a projector."""
    match block:
        case Tiles():
            return _tiles(block, large)
        case Numbers():
            return {"kind": "numbers", "key": block.key, "items": [number_json(item) for item in block.items]}
        case Heading():
            return {"kind": "heading", "key": block.key, "text": block.text}
        case Paragraph():
            return {"kind": "paragraph", "key": block.key, "text": block.text, "lead": block.lead}
        case Table():
            return _table(block)  # type: ignore[return-value]
        case Formulas():
            return {"kind": "formulas", "key": block.key, "heading": block.heading, "notes": list(block.notes),
                    "lines": [{"latex": line, "mathml": mathml(line)} for line in block.lines],
                    "table": _table(block.table)}
        case Chart():
            # an object, not JSON text: a figure at another K differs in a few layout values, and a patch says which
            figure = figure_json(block.spec)
            return {"kind": "chart", "key": block.key, "figure": figure, "alt": block.alt}
        case Pictures():
            return {"kind": "pictures", "key": block.key, "items": [
                {"src": picture_url(SCENARIO.item(item).picture), "alt": SCENARIO.item(item).alt,
                 "title": SCENARIO.item(item).title, "badge": badge} for item, badge in zip(block.items, block.badges)]}
        case Columns():
            return {"kind": "columns", "key": block.key, "children": blocks_json(block.children, large=large)}
        case Details():
            return {"kind": "details", "key": block.key, "summary": block.summary, "open": block.open,
                    "children": blocks_json(block.children, large=large)}
        case Tabs():
            return {"kind": "tabs", "key": block.key, "labels": list(block.labels),
                    "children": blocks_json(block.children, large=large)}
    raise TypeError(f"no JSON for {type(block).__name__}")


def blocks_json(blocks: Sequence[Block], *, large: bool = False) -> list[dict[str, Any]]:
    """Several blocks as JSON (:func:`block_json`)."""
    return [block_json(block, large=large) for block in blocks]
