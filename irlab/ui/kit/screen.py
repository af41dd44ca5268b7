"""A chapter's screen (:mod:`irlab.walkthrough.screens`) as the blocks the live-region component draws.

Shared by every product that shows a chapter's state: the walkthrough's live region, and a class's
projector showing the state a question is about.

What the core's screen cannot know lives here: where the pictures are served from, which tile change
the server has seen (so the browser never shows an older order), each headline number's change since
the learner's previous move, and which "Try this" steps the learner has already done (both kept in the
session). Every number still comes from the chapter's view; this module turns it into JSON.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

import plotly.io
import streamlit as st

from irlab.explain.mathml import mathml
from irlab.ui.components.pictures import picture_url
from irlab.ui.components.tiles import build_data
from irlab.walkthrough import guide
from irlab.walkthrough.chapters import Chapter
from irlab.walkthrough.guide import Step
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
    chapter_screen,
)
from irlab.walkthrough.state import SCENARIO, WalkthroughState
from irlab.walkthrough.views import Headline, with_changes

ACKS = "irlab.region.acks"
"""Tile row key -> the ``seq`` of the last change from that row the server has taken."""


def take_ack(change: Mapping | None) -> None:
    """Remember that the server has seen tile change ``change`` (the browser then drops older orders)."""
    if change and isinstance(change.get("row"), str) and isinstance(change.get("seq"), (int, float)):
        st.session_state.setdefault(ACKS, {})[change["row"]] = change["seq"]


def _numbers(block: Numbers, state: WalkthroughState, chapter: Chapter, remember: bool) -> dict[str, Any]:
    key = f"irlab.headline.{chapter.slug}"
    drawn_from, shown = st.session_state.get(key, (None, None))
    # each change is the change of the move that made this state, from the numbers shown before it: a run with the
    # same state (the browser asking for the other K's screens) shows the same changes again. A change is shown
    # only for the same quantity, never across a switch of mode, query or level.
    items = shown if state == drawn_from else with_changes(block.items, shown)
    if remember:
        st.session_state[key] = (state, items)
    return {"kind": "numbers", "key": block.key, "items": [_number(item) for item in items]}


def _number(item: Headline) -> dict[str, Any]:
    trend = None if item.change is None else "same" if item.change == 0 else "up" if item.change > 0 else "down"
    return {"label": item.label, "value": item.display, "delta": item.change_display, "trend": trend,
            "help": item.help}


def _table(block: Table | None) -> dict[str, Any] | None:
    if block is None:
        return None
    return {"kind": "table", "key": block.key, "headers": list(block.headers), "cells": [list(r) for r in block.cells]}


def _tiles(block: Tiles, state: WalkthroughState) -> dict[str, Any]:
    row = block.row
    data = build_data(tiles=[{**tile, "picture": picture_url(str(tile["picture"]))} for tile in row.tiles], k=row.k,
                      mode=row.mode, editable_grades=row.editable_grades, max_grade=row.query.judgments.max_grade,
                      default_order=row.default_order, ideal_order=row.ideal_order, show_classes=row.show_classes,
                      large=state.present, label=row.label,
                      ack_seq=st.session_state.get(ACKS, {}).get(row.key))
    return {"kind": "tiles", "key": block.key, "data": data}


def block_json(block: Block, state: WalkthroughState, chapter: Chapter, remember: bool = True) -> dict[str, Any]:
    """One block as the component's JSON (nested blocks too); ``remember`` keeps its numbers as the ones shown."""
    match block:
        case Tiles():
            return _tiles(block, state)
        case Numbers():
            return _numbers(block, state, chapter, remember)
        case Heading():
            return {"kind": "heading", "key": block.key, "text": block.text}
        case Paragraph():
            return {"kind": "paragraph", "key": block.key, "text": block.text, "lead": block.lead}
        case Table():
            return _table(block)
        case Formulas():
            return {"kind": "formulas", "key": block.key, "heading": block.heading, "notes": list(block.notes),
                    "lines": [{"latex": line, "mathml": mathml(line)} for line in block.lines],
                    "table": _table(block.table)}
        case Chart():
            return {"kind": "chart", "key": block.key, "figure": plotly.io.to_json(block.spec, validate=False),
                    "alt": block.alt}
        case Pictures():
            return {"kind": "pictures", "key": block.key, "items": [
                {"src": picture_url(SCENARIO.item(item).picture), "alt": SCENARIO.item(item).alt,
                 "title": SCENARIO.item(item).title, "badge": badge} for item, badge in zip(block.items, block.badges)]}
        case Columns():
            return {"kind": "columns", "key": block.key, "children": _all(block.children, state, chapter, remember)}
        case Details():
            return {"kind": "details", "key": block.key, "summary": block.summary, "open": block.open,
                    "children": _all(block.children, state, chapter, remember)}
        case Tabs():
            return {"kind": "tabs", "key": block.key, "labels": list(block.labels),
                    "children": _all(block.children, state, chapter, remember)}
    raise TypeError(f"no JSON for {type(block).__name__}")


def _all(blocks: Sequence[Block], state: WalkthroughState, chapter: Chapter, remember: bool
         ) -> list[dict[str, Any]]:
    return [block_json(block, state, chapter, remember) for block in blocks]


def try_this(chapter: Chapter, steps: Sequence[Step], remember: bool = True) -> dict[str, Any]:
    """The chapter's experiments, each ticked off once the learner reached it (and kept ticked for the session)."""
    key = f"irlab.steps.{chapter.slug}"
    done = set(st.session_state.get(key, ())) | {step.key for step in steps if step.reached}
    if remember:
        st.session_state[key] = done
    count = sum(step.key in done for step in steps)
    return {"kind": "try", "key": "try-this", "title": f"Try this. {count} of {len(steps)} done",
            "items": [{"text": step.text, "done": step.key in done} for step in steps]}


def region_blocks(screen: Sequence[Block], state: WalkthroughState, chapter: Chapter,
                  steps: Sequence[Step], *, remember: bool = True) -> list[dict[str, Any]]:
    """The whole region: the screen's blocks, then "Try this".

    ``remember=False`` draws a screen the learner may be shown next (another K, see
    :func:`irlab.ui.walkthrough.page.live_region`) without taking its numbers and ticks as the ones shown: its
    changes are counted from the screen drawn this run, as the run that makes it the learner's will count them.
    """
    return [*_all(screen, state, chapter, remember), try_this(chapter, steps, remember)]


def other_k_blocks(state: WalkthroughState, chapter: Chapter) -> dict[int, list[dict[str, Any]]]:
    """The region at every K the slider offers but the one shown, as a K change would draw it (K -> blocks).

    Each is the screen of the state the slider's change makes (``replace(state, k=k)``), not remembered as shown
    (see :func:`region_blocks`): the browser draws it the moment the slider moves, and the run that follows
    draws the same.
    """
    shown = state.effective_k(chapter)
    screens = {}
    for k in range(1, len(SCENARIO.items) + 1):
        if k != shown:
            at_k = replace(state, k=k)
            screens[k] = region_blocks(chapter_screen(at_k, chapter), at_k, chapter, guide.steps(at_k, chapter),
                                       remember=False)
    return screens


def tile_rows(blocks: Sequence[Block]) -> Iterator[Tiles]:
    """Every row of tiles in ``blocks``, at any depth."""
    for block in blocks:
        if isinstance(block, Tiles):
            yield block
        yield from tile_rows(getattr(block, "children", ()))


def moved_blocks(screen: Sequence[Block], chapter: Chapter, row: str, item: str,
                 state_after: Callable[[Mapping[str, Any]], WalkthroughState]) -> dict[str, list[dict[str, Any]]]:
    """The region after each move of tile ``item`` in tile row ``row`` of the chapter's ``screen`` to another rank,
    as the move would draw it (the order, its ids joined by a line break -> blocks); {} when the screen has no
    such row or tile.

    ``state_after`` turns the tiles' change into the state (:func:`irlab.ui.walkthrough.state.tile_change_state`),
    as the run that takes the move will. Nothing is remembered as shown (see :func:`region_blocks`): the browser
    draws one of these the moment the learner drops the tile, and the run that follows draws the same.
    """
    tiles = next((block for block in tile_rows(screen) if block.key == row), None)
    order = [str(tile["id"]) for tile in tiles.row.tiles] if tiles else []
    if item not in order:
        return {}
    rest = [other for other in order if other != item]
    screens = {}
    for rank in range(len(order)):
        moved = [*rest[:rank], item, *rest[rank:]]
        if moved != order:
            after = state_after({"row": row, "order": moved, "grades": None})
            screens["\n".join(moved)] = region_blocks(chapter_screen(after, chapter), after, chapter,
                                                      guide.steps(after, chapter), remember=False)
    return screens
