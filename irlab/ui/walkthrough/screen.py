"""What a learner's live region receives: the chapter's screen, its other K as patches, a tile's moves ahead.

Three parts, so that a class of 200 costs what one student did:

* **Shared, once per state.** :func:`shown_screen` is a state's screen as JSON with nothing of a
  session in it (numbers without their change, "Try this" ticked where the state reaches a step, tiles
  without the move's number). It lives in a bounded cache shared by every session of the process
  (:class:`SharedCache`, keyed by the state): 200 students open a chapter on the same state, and most
  follow the same moves. So do :func:`k_form` (the screen at every other K, as patches of this one, and
  each number's change from any K to any other) and :func:`moves_ahead` (the screen after each move of
  one tile, as patches). A patch (:mod:`irlab.ui.components.region.patch`) holds only what differs: a
  K step changes some numbers, a few terms of a formula, the K marks of a chart, a table's rows.
* **The session's, on top.** :func:`session_blocks` adds each number's change since the screen the
  learner saw before (kept in the session), the "Try this" steps the learner already did (kept ticked),
  and the number of the tiles' last change the server took (so the tiles never show an older order).
* **What the browser gets.** The page (:mod:`irlab.ui.walkthrough.page`) sends a new screen as a patch
  of the one the browser holds, when it knows which (each of the region's messages names it), else whole.

Every number comes from the chapter's view; the browser only chooses, patches and draws.
"""

from __future__ import annotations

import os
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any
from urllib.parse import urlencode

import streamlit as st

from irlab.ui.components.region import block_digest, screen_digest, with_digests
from irlab.ui.components.region.patch import patch_of
from irlab.ui.kit.screen import blocks_json, number_json
from irlab.walkthrough import guide
from irlab.walkthrough.chapter import Chapter
from irlab.walkthrough.guide import Progress, Step
from irlab.walkthrough.screens import Numbers, chapter_screen
from irlab.walkthrough.state import SCENARIO, WalkthroughState
from irlab.walkthrough.urlstate import params_from_state
from irlab.walkthrough.views import Headline, with_changes

TRY_KEY = "try-this"
"""The key of the "Try this" block: right after the chapter's first row of tiles (or its numbers), beside what the
learner moves (:func:`try_anchor`)."""


class SharedCache:
    """A bounded map shared by every session of the process: the least recently used entry goes first.

    Two sessions asking for the same missing entry at once may both compute it (the entries are pure, so both
    get the same); the lock only guards the map.

    >>> cache = SharedCache(2)
    >>> [cache.get(key, lambda: key * 10) for key in (1, 2, 1, 3)]
    [10, 20, 10, 30]
    >>> sorted(cache._entries)  # 2 was the least recently used
    [1, 3]
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: OrderedDict[Hashable, Any] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    def get(self, key: Hashable, make: Callable[[], Any]) -> Any:
        with self._lock:
            if key in self._entries:
                self._entries.move_to_end(key)
                self.hits += 1
                return self._entries[key]
            self.misses += 1
        value = make()
        with self._lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)
        return value

    def peek(self, key: Hashable) -> Any:
        """The entry for ``key`` if some session made it already, else None (nothing is made)."""
        with self._lock:
            return self._entries.get(key)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


SCREENS = SharedCache(512)
"""State -> :class:`Shown` (about 30 KB each)."""
K_FORMS = SharedCache(256)
"""State -> :func:`k_form`'s shared part."""
MOVES = SharedCache(512)
"""State, row and tile -> :func:`moves_ahead`'s shared part."""

class BusyGate:
    """Whether a process has CPU to spare for work that only makes it faster for one learner: the share of one core
    its threads used together over about the last ``window`` seconds (runs, requests, the event loop: ``cpu``, the
    process's CPU time, over ``clock``) is below ``limit``. A limit of 0 never allows; of 1 or more, always.

    It samples the process's CPU time when asked, so it costs nothing between asks, and after a pause (no asks) it
    measures over the pause.

    >>> now, used = [0.0], [0.0]
    >>> gate = BusyGate(0.5, clock=lambda: now[0], cpu=lambda: used[0])
    >>> gate.allows()  # nothing to measure yet: allowed
    True
    >>> now[0], used[0] = 1.0, 0.8  # 0.8 s of CPU in the last second: busy
    >>> gate.allows()
    False
    >>> now[0], used[0] = 4.0, 1.0  # then 0.2 s in 3 s
    >>> gate.allows()
    True
    """

    def __init__(self, limit: float, window: float = 2.0, clock: Callable[[], float] = time.monotonic,
                 cpu: Callable[[], float] = time.process_time) -> None:
        self.limit, self.window, self._clock, self._cpu = limit, window, clock, cpu
        self._samples: deque[tuple[float, float]] = deque()
        self._lock = threading.Lock()

    def busy(self) -> float | None:
        """The share of one core the process used since the oldest sample of the window (None: no sample yet)."""
        now, used = self._clock(), self._cpu()
        with self._lock:
            # the baseline is the newest sample at least a window old (or the oldest there is)
            while len(self._samples) > 1 and now - self._samples[1][0] >= self.window:
                self._samples.popleft()
            self._samples.append((now, used))
            then, used_then = self._samples[0]
        return None if now <= then else (used - used_then) / (now - then)

    def allows(self) -> bool:
        if self.limit <= 0 or self.limit >= 1:
            return self.limit > 0
        busy = self.busy()
        return busy is None or busy < self.limit


AHEAD_BUSY = float(os.environ.get("IRLAB_AHEAD_BUSY") or 0.5)
"""A process draws screens ahead (:func:`drawn_ahead`) only while it used less than this share of one core over the
last two seconds; 0: never, 1: always. A learner alone keeps a process far below it (a K form or a tile's moves
costs 10-60 ms of CPU); a class of 200 each moving their own way keeps it above, and then their moves cost what they
did before screens were drawn ahead (a run each) rather than seconds of waiting behind screens drawn ahead."""
AHEAD = BusyGate(AHEAD_BUSY)
AHEAD_QUIET = 5.0
"""Seconds a browser asks for nothing ahead after an answer said the process was busy (``busy``): while a class keeps
it busy, an ask would cost a run for nothing."""


def drawn_ahead(cache: SharedCache, key: Hashable, make: Callable[[], Any]) -> Any | None:
    """``cache``'s entry for ``key`` (made now when no session made it yet), or None when this process is busy
    (:data:`AHEAD`: it has no CPU to spare).

    Drawing ahead (a K form, a tile's moves) is what a move costs the server beyond its run: 10-60 ms of CPU each
    (bench/ahead_cost.py), several times the run. For one learner they come a few a minute; in a class of 200 with
    states of their own they would pile up on one interpreter (the GIL), and every run and request of the process
    would wait behind them (bench/load.py, each tab moving its own way: p95 of seconds). An ask while the process is
    busy gets none: the browser then does without, as before screens were drawn ahead (its K or drop waits for the
    server's run, a fraction of the CPU). What some session made already is served regardless: a lecture's shared
    moves stay instant.
    """
    made = cache.peek(key)
    if made is not None:
        return made
    if not AHEAD.allows():
        return None
    return cache.get(key, make)


def _frozen(value: Any) -> Hashable:
    if isinstance(value, Mapping):
        return tuple(sorted((key, _frozen(item)) for key, item in value.items()))
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(item) for item in value)
    return value


def state_key(state: WalkthroughState, chapter: Chapter) -> Hashable:
    """The chapter and every field of the state, hashable (grades and the queries' orders are mappings)."""
    return (chapter.slug, *(_frozen(getattr(state, item.name)) for item in fields(state)))


@dataclass(frozen=True)
class Shown:
    """A state's screen with nothing of a session in it: the region's blocks (with digests, "Try this" last), the
    headline numbers (the values the next move's changes are counted from) and the "Try this" steps."""

    blocks: tuple[dict[str, Any], ...]
    headline: tuple[Headline, ...]
    steps: tuple[Step, ...]

    @property
    def screen(self) -> str:
        return screen_digest(self.blocks)

    @property
    def anchor(self) -> str | None:
        """The key of the block "Try this" follows (:func:`try_anchor`)."""
        return try_anchor([block for block in self.blocks if block["key"] != TRY_KEY])


def try_block(steps: Sequence[Step], progress: Progress | None = None, changed: Sequence[str] | None = None
              ) -> dict[str, Any]:
    """The chapter's experiments, each ticked when the learner did it in the chapter (``progress``, by a move that
    changed ``changed`` of the state; without a progress, when the state reaches it); with the title for each number of
    steps done (``titles``): a step the learner reached at a K drawn in the browser stays ticked there too, and the
    browser takes that title."""
    ticked = [step.reached for step in steps] if progress is None else progress.ticks(steps, changed)
    titles = [f"Try this. {count} of {len(steps)} done" for count in range(len(steps) + 1)]
    return {"kind": "try", "key": TRY_KEY, "title": titles[sum(ticked)], "titles": titles,
            "items": [{"text": step.text, "done": tick} for step, tick in zip(steps, ticked)]}


def _headline(blocks: Sequence[Any]) -> tuple[Headline, ...]:
    return tuple(item for block in blocks if isinstance(block, Numbers) for item in block.items)


def try_anchor(blocks: Sequence[Mapping[str, Any]]) -> str | None:
    """The key of the block "Try this" follows: the first row of tiles at the top level, else the numbers (None: "Try
    this" comes first). Its steps say what to do with the tiles and the controls above them, so they sit right there,
    not below every formula, table and chart (on a phone those were 2,200-3,400 px further down)."""
    for kind in ("tiles", "numbers"):
        key = next((block["key"] for block in blocks if block["kind"] == kind), None)
        if key is not None:
            return key
    return None


def with_try_at(blocks: Sequence[Any], tried: Any, anchor: str | None, key: Callable[[Any], str]) -> list[Any]:
    """``blocks`` with ``tried`` ("Try this", or its key) right after the block keyed ``anchor`` (first if None)."""
    keys = [key(block) for block in blocks]
    at = keys.index(anchor) + 1 if anchor in keys else 0
    return [*blocks[:at], tried, *blocks[at:]]


def shown_screen(state: WalkthroughState, chapter: Chapter) -> Shown:
    """``state``'s screen in ``chapter``, made once per state for every session (:data:`SCREENS`)."""
    def make() -> Shown:
        screen = chapter_screen(state, chapter)
        steps = tuple(guide.steps(state, chapter))
        blocks = blocks_json(screen, large=state.present)
        blocks = with_digests(with_try_at(blocks, try_block(steps), try_anchor(blocks), lambda block: block["key"]))
        return Shown(tuple(blocks), _headline(screen), steps)

    return SCREENS.get(state_key(state, chapter), make)


# --- the session's part -------------------------------------------------------------------------------------------

def _map_blocks(blocks: Sequence[dict[str, Any]], change: Callable[[dict[str, Any]], dict[str, Any] | None]
                ) -> list[dict[str, Any]]:
    """``blocks`` with ``change`` applied to each (at any depth); a changed block and every block around it get a new
    digest, the others stay the same objects."""
    out = []
    for block in blocks:
        new = change(block)
        children = block.get("children")
        if children is not None:
            inner = _map_blocks(children, change)
            if any(a is not b for a, b in zip(inner, children)):
                new = {**(new or block), "children": inner}
        if new is None:
            out.append(block)
            continue
        new = {name: value for name, value in new.items() if name != "digest"}
        new["digest"] = block_digest(new)
        out.append(new)
    return out


def session_blocks(shown: Shown, *, numbers: Sequence[Headline], progress: Progress,
                   acks: Mapping[str, int | float]) -> list[dict[str, Any]]:
    """``shown`` for one learner: the headline ``numbers`` with their changes (:func:`numbers_shown`), the steps they
    did in the chapter ticked (``progress``), and each tile row's last change the server took (``acks``: row key ->
    seq)."""
    items = iter(numbers)

    def change(block: dict[str, Any]) -> dict[str, Any] | None:
        kind = block["kind"]
        if kind == "numbers":
            new = [number_json(next(items)) for _ in block["items"]]
            return None if new == block["items"] else {**block, "items": new}
        # the state shown was seen already (numbers_shown): its moves' steps are in progress.done
        if kind == "try" and progress.ticks(shown.steps, ()) != [step.reached for step in shown.steps]:
            return try_block(shown.steps, progress, ())
        if kind == "tiles" and block["key"] in acks:
            return {**block, "data": {**block["data"], "ack_seq": acks[block["key"]]}}
        return None

    return _map_blocks(list(shown.blocks), change)


# --- every other K ------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class KForm:
    """The screen at every K for one state, drawn from the screen at the state's own K (the base).

    ``at``: K -> the patch of the blocks (without "Try this", which is the learner's) at the K next to it on the way
    from the base (K + 1 for a smaller K, K - 1 for a larger): one more term in a formula, one more table row, so
    that seven screens weigh about what one step does. ``changes``: each headline number's change (text) and trend
    between any two K (``values``, each once, and ``pairs``: ``"a>b"`` -> their indexes), for the browser to show
    after a K change from a to b. ``steps`` and ``headline``: K -> the "Try this" steps and the numbers there.
    ``links``: K -> the link's query string at that K (as Streamlit writes it), which the browser puts in its
    history when the learner settles on that K (irlab/ui/walkthrough/settle.py).
    """

    base: int
    at: Mapping[int, dict[str, Any]]
    changes: Mapping[str, Any]
    steps: Mapping[int, tuple[Step, ...]]
    headline: Mapping[int, tuple[Headline, ...]]
    links: Mapping[int, str]


def toward_base(k: int, base: int) -> int:
    """The K next to ``k`` on the way to ``base``: each K's patch is made from that K's screen.

    >>> [toward_base(k, 3) for k in (1, 2, 4, 8)]
    [2, 3, 3, 7]
    """
    return k + 1 if k < base else k - 1


def k_choices() -> range:
    """The K the slider offers: 1 to the number of pictures."""
    return range(1, len(SCENARIO.items) + 1)


def _without(blocks: Sequence[dict[str, Any]], key: str) -> list[dict[str, Any]]:
    return [block for block in blocks if block["key"] != key]


def blocks_patch(base: Sequence[dict[str, Any]], new: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """``new`` blocks as a patch of ``base``'s (by key), also when nothing changed: ``{"b": keys, "p": patches}``."""
    patch = patch_of(list(base), list(new))
    return patch if patch is not None else {"b": [block["key"] for block in new], "p": {}}


def with_try(patch: Mapping[str, Any], tried: dict[str, Any] | None, anchor: str | None) -> dict[str, Any]:
    """A patch of the blocks without "Try this", with "Try this" after ``anchor`` again (patched by ``tried``, or as it
    was)."""
    return {"b": with_try_at(patch["b"], TRY_KEY, anchor, lambda key: key),
            "p": {**patch["p"], **({TRY_KEY: tried} if tried is not None else {})}}


def k_form_made(state: WalkthroughState, chapter: Chapter) -> KForm | None:
    """``state``'s K form if a session made it already (it then comes along with the screen for free), else None."""
    return K_FORMS.peek(state_key(state, chapter))


def k_form(state: WalkthroughState, chapter: Chapter, *, spare: bool = False) -> KForm | None:
    """``state``'s screen at every K but its own (:class:`KForm`), made once per state for every session; with ``spare``
    None when the process is busy (:func:`drawn_ahead`)."""
    def make() -> KForm:
        base_k = state.effective_k(chapter)
        at_k = {k: shown_screen(replace(state, k=k) if k != base_k else state, chapter) for k in k_choices()}
        patches = {k: blocks_patch(_without(at_k[toward_base(k, base_k)].blocks, TRY_KEY),
                                   _without(other.blocks, TRY_KEY))
                   for k, other in at_k.items() if k != base_k}
        values: dict[tuple[str | None, str | None], int] = {}
        pairs = {}
        for a in at_k:
            for b in at_k:
                if a != b:
                    shown = [number_json(item) for item in with_changes(at_k[b].headline, at_k[a].headline)]
                    pairs[f"{a}>{b}"] = [values.setdefault((item["delta"], item["trend"]), len(values))
                                         for item in shown]
        changes = {"values": [list(value) for value in values], "pairs": pairs}
        links = {k: urlencode(params_from_state(replace(state, k=k) if k != base_k else state, chapter), doseq=True)
                 for k in at_k}
        return KForm(base_k, patches, changes, {k: other.steps for k, other in at_k.items()},
                     {k: other.headline for k, other in at_k.items()}, links)

    if spare:
        return drawn_ahead(K_FORMS, state_key(state, chapter), make)
    return K_FORMS.get(state_key(state, chapter), make)


def k_form_json(form: KForm, base_try: Mapping[str, Any], progress: Progress, screen: str, anchor: str | None
                ) -> dict[str, Any]:
    """The K form for one learner: the shared patches with "Try this" at each K as they would see it (``progress``:
    the steps they did in the chapter, and those a K reaches that the screen shown does not), each a patch of the one
    next to it, the first of the try block they are shown (``base_try``), "Try this" after ``anchor``."""
    tries = {k: with_digests([try_block(steps, progress, ("k",))])[0] for k, steps in form.steps.items()
             if k != form.base}
    tries[form.base] = dict(base_try)
    at = {str(k): with_try(patch, patch_of(tries[toward_base(k, form.base)], tries[k]), anchor)
          for k, patch in form.at.items()}
    return {"screen": screen, "base": form.base, "at": at, "changes": form.changes,
            "links": {str(k): link for k, link in form.links.items()}}


# --- a tile's moves -----------------------------------------------------------------------------------------------

def moves_ahead(base_state: WalkthroughState, state: WalkthroughState, chapter: Chapter, row: str, item: str,
                state_after: Callable[[Mapping[str, Any]], WalkthroughState], *, spare: bool = False
                ) -> dict[str, tuple[dict[str, Any], tuple[Step, ...]]] | None:
    """The screen after each move of tile ``item`` in tile row ``row`` of ``state``'s screen to another rank (the
    order, its ids joined by a line break -> the patch of ``base_state``'s screen, the one the browser holds, without
    "Try this"; and the steps there); {} when the screen has no such row or tile. The row's tiles stay as shown (they
    show the move themselves); each number's change is the move's. ``state_after`` turns the tiles' change into the
    state, as the run that takes the move will. ``base_state`` is ``state`` but for K when the learner changed K in
    the browser since the screen it holds. With ``spare``: None when the process is busy
    (:func:`drawn_ahead`)."""
    def make() -> dict[str, tuple[dict[str, Any], tuple[Step, ...]]]:
        base, now = shown_screen(base_state, chapter), shown_screen(state, chapter)
        tiles = _find(now.blocks, row)
        order = [str(tile["id"]) for tile in tiles["data"]["tiles"]] if tiles and tiles["kind"] == "tiles" else []
        if item not in order:
            return {}
        rest = [other for other in order if other != item]
        screens = {}
        for rank in range(len(order)):
            moved = [*rest[:rank], item, *rest[rank:]]
            if moved == order:
                continue
            after = shown_screen(state_after({"row": row, "order": moved, "grades": None}), chapter)
            numbers = iter(with_changes(after.headline, now.headline))

            def change(block: dict[str, Any], numbers=numbers) -> dict[str, Any] | None:
                if block["kind"] == "numbers":
                    return {**block, "items": [number_json(next(numbers)) for _ in block["items"]]}
                return tiles if block["key"] == row else None

            blocks = _map_blocks(_without(after.blocks, TRY_KEY), change)
            screens["\n".join(moved)] = (blocks_patch(_without(base.blocks, TRY_KEY), blocks), after.steps)
        return screens

    key = (state_key(base_state, chapter), state_key(state, chapter), row, item)
    return drawn_ahead(MOVES, key, make) if spare else MOVES.get(key, make)


def _find(blocks: Sequence[dict[str, Any]], key: str) -> dict[str, Any] | None:
    for block in blocks:
        if block["key"] == key:
            return block
        inside = _find(block.get("children", ()), key)
        if inside is not None:
            return inside
    return None


def moves_json(moves: Mapping[str, tuple[dict[str, Any], tuple[Step, ...]]], base_try: Mapping[str, Any],
               progress: Progress, anchor: str | None) -> dict[str, Any]:
    """A tile's moves for one learner: the shared patches, with "Try this" after each move as they would see it."""
    moved = ("order", "query_orders")  # a tile's move reorders a ranking
    return {order: with_try(patch, patch_of(base_try, with_digests([try_block(steps, progress, moved)])[0]), anchor)
            for order, (patch, steps) in moves.items()}


# --- what the session keeps -----------------------------------------------------------------------------------------

def _session(chapter: Chapter) -> dict[str, Any]:
    return st.session_state.setdefault(f"irlab.region.{chapter.slug}", {})


VISIT = "irlab.region.visit"
"""(the chapter the learner is in, how many times they came to a chapter): the page counts a visit when the learner
comes to a chapter from another one (:func:`irlab.ui.walkthrough.page.open_chapter`)."""


def progress(chapter: Chapter) -> Progress:
    """The "Try this" steps the learner did in ``chapter`` (:class:`~irlab.walkthrough.guide.Progress`): done in an
    earlier visit stays done; open only since they came to it."""
    session = _session(chapter)
    visit = st.session_state.get(VISIT, (chapter.slug, 0))[1]
    if session.get("visit") != visit:
        session["visit"], session["progress"] = visit, session.get("progress", Progress()).entered()
    return session["progress"]


def numbers_shown(chapter: Chapter, state: WalkthroughState, headline: Sequence[Headline],
                  steps: Sequence[Step] = ()) -> tuple[Headline, ...]:
    """The headline numbers of ``state`` as the learner sees them, each with its change since the numbers they saw
    before (none before the first move, nor across a switch of mode, query or level); they become the numbers the
    next move's changes are counted from, and ``steps`` reached where they were open are done. A run that shows the
    same state again (the learner asked for a tile's moves) shows the same changes again."""
    session = _session(chapter)
    kept = session.get("numbers")
    if kept is not None and kept[0] == state:
        items = kept[1]
    else:
        items = with_changes(headline, kept[1]) if kept is not None else tuple(headline)
    changed = None if kept is None else [item.name for item in fields(state)
                                         if getattr(state, item.name) != getattr(kept[0], item.name)]
    session["numbers"] = (state, tuple(items))
    session["progress"] = progress(chapter).seen(steps, changed)
    return tuple(items)
