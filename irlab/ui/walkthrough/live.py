"""One run of a chapter's live region: the browser's messages in, the learner's state, what the browser gets out.

The region (:mod:`irlab.ui.components.region`) draws its own controls. A change of K is drawn in the
browser from the K form (:func:`irlab.ui.walkthrough.screen.k_form`) and costs no run; the browser
posts the K the learner settled on once they pause (:mod:`irlab.ui.walkthrough.settle`: no run either;
the session's next run takes it), or, when that route does not know the session, tells it by a message
(``k``), and that run answers ``same``: the screen the browser holds stays, only the controls come along.
A tile move, a grade, undo, redo or a setting is one run, and the answer is the new screen as a patch
of the one the browser holds (every message names it), with its K form when some session made it
already; otherwise the browser asks for the K form (``kform``) when the learner comes to the K slider,
as it asks for a tile's moves. A screen the browser does not hold (the first run, a run from outside
the region, a browser that lost its screen and asked for it whole) goes whole.

Who sends what, and what it costs, is in docs/architecture.md ("The data flow of ...").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields, replace
from typing import Any

import streamlit as st

from irlab.ui.components.region import held_screen, mount, screen_digest, tile_of, unseen_message, whole_number
from irlab.ui.components.region.patch import patch_of
from irlab.ui.kit.notices import notices
from irlab.ui.walkthrough.controls import apply_control, live_controls
from irlab.ui.walkthrough.screen import (
    AHEAD_QUIET,
    TRY_KEY,
    k_choices,
    k_form,
    k_form_json,
    k_form_made,
    moves_ahead,
    moves_json,
    numbers_shown,
    progress,
    session_blocks,
    shown_screen,
)
from irlab.ui.walkthrough.settle import TAKEN, session_token, settle_url, took_message
from irlab.ui.walkthrough.state import (
    adopt_tile_change,
    current_state,
    history,
    redo,
    set_state,
    take_notices,
    tile_change_state,
    undo,
)
from irlab.walkthrough.chapter import Chapter
from irlab.walkthrough.state import WalkthroughState

REGION = "live-region"
"""The component key of a chapter's live region."""


def _kept(chapter: Chapter) -> dict[str, Any]:
    """What the session keeps of the region of ``chapter``: the screen the browser holds (``base``: its digest,
    blocks and state) and each tile row's last change taken (``acks``)."""
    return st.session_state.setdefault(f"irlab.live.{chapter.slug}", {"acks": {}})


def only_k_differs(a: WalkthroughState, b: WalkthroughState) -> bool:
    """Whether two states differ in K alone (or not at all)."""
    return all(getattr(a, item.name) == getattr(b, item.name) for item in fields(a) if item.name != "k")


def take_messages(chapter: Chapter, state: WalkthroughState) -> tuple[WalkthroughState, dict[str, Any]]:
    """The learner's state after the region's new messages (a K, a tile change, a control), and the messages."""
    messages = {name: unseen_message(REGION, name) for name in ("k", "change", "control", "moves", "kform", "full")}
    kept = _kept(chapter)
    # the K the browser shows comes with every message: a move made right after a K change takes that K first, and a
    # K moved before an ask went out (a finger's tap asks for the K form and moves K in one gesture; the ask carries
    # the K and replaces the settle message) is taken from the ask; a message older than a K settled through the route
    # (irlab/ui/walkthrough/settle.py) carries an older K
    taken = st.session_state.get(TAKEN, -1)
    for message in messages.values():
        k = whole_number(message.get("k"), 1, len(k_choices())) if message else None
        n = whole_number(message.get("n"), 0, 2**53) if message else None
        if k is not None and k != state.effective_k(chapter) and (n is None or n > taken):
            state = replace(state, k=k)
            set_state(state)
            history()
            break
    for message in messages.values():
        if message is not None:
            took_message(message.get("n"))
    change = messages["change"]
    if change is not None:
        seq = change.get("seq")
        if isinstance(change.get("row"), str) and isinstance(seq, (int, float)) and not isinstance(seq, bool):
            kept["acks"][change["row"]] = seq
        state = adopt_tile_change(state, change, chapter.tile_rows, state.effective_mode(chapter))
    control = messages["control"]
    if control is not None:
        action = control.get("action")
        if action == "undo":
            undo()
        elif action == "redo":
            redo()
        elif (after := apply_control(state, chapter, control)) is not None:
            set_state(after)
        state = current_state()
    return state, messages


def draw(chapter: Chapter, state: WalkthroughState, messages: Mapping[str, Any]) -> None:
    """Mount the region for ``state``: ``same``, a patch or the whole screen (the module docstring says when)."""
    kept = _kept(chapter)
    steps = history()
    notices(take_notices())
    controls = live_controls(state, chapter, steps)
    asked = [message for message in messages.values() if message is not None]
    holds = next((held_screen(message) for message in asked if held_screen(message)), None)
    base = kept.get("base")
    holds_base = base is not None and holds == base["screen"] and messages["full"] is None
    k = state.effective_k(chapter)
    data: dict[str, Any] = {"present": state.present, "k": k}
    if not (holds_base and kept.get("controls") == controls):  # the browser keeps the controls it was sent
        data["controls"] = kept["controls"] = controls
        # where the browser tells the K it settled on without a run: the route, this session's token, the chapter
        data["settle"] = {"url": settle_url(), "token": session_token(), "chapter": chapter.slug}
    # the newest message (or K settled through the route) the session took: the browser knows an answer that does not
    # know its latest message yet
    if st.session_state.get(TAKEN) is not None:
        data["taken"] = int(st.session_state[TAKEN])

    # every message says whether the browser holds the K form of its screen (it asks for it when the learner comes
    # to the K slider; a K it could not draw waits for this answer)
    has_form = any(message.get("form") is True for message in asked)
    if holds_base and only_k_differs(base["state"], state) and (has_form or k == base["state"].effective_k(chapter)):
        # the learner's K (or an undo of one): the browser draws it from the K form it holds
        at_k = shown_screen(state, chapter)  # made with the K form (or the screen's own K)
        numbers_shown(chapter, state, at_k.headline, at_k.steps)
        data["same"] = base["screen"]
        # the learner came to the K slider: the K form, made once per state (none when the process is busy: the browser
        # then tells each K by a message, and the answer draws it)
        if messages["kform"] is not None:
            if (form := k_form(base["state"], chapter, spare=True)) is not None:
                base_try = next(block for block in base["blocks"] if block["key"] == TRY_KEY)
                data["kForm"] = k_form_json(form, base_try, progress(chapter), base["screen"],
                                            shown_screen(base["state"], chapter).anchor)
            else:
                data["busy"] = AHEAD_QUIET
    else:
        shown = shown_screen(state, chapter)
        numbers = numbers_shown(chapter, state, shown.headline, shown.steps)
        blocks = session_blocks(shown, numbers=numbers, progress=progress(chapter), acks=kept["acks"])
        screen = screen_digest(blocks)
        if holds_base:
            data |= {"from": base["screen"], "patch": patch_of(list(base["blocks"]), blocks), "screen": screen}
        else:
            data |= {"blocks": blocks, "screen": screen}
        base = kept["base"] = {"screen": screen, "blocks": blocks, "state": state}
        # the K form comes along when a session made it already; else when the learner comes to the K slider (or is on
        # it: a K the browser could not draw), not with every move: a move would cost seven screens more
        on_k = messages["k"] is not None or messages["kform"] is not None
        form = k_form(state, chapter, spare=True) if on_k else k_form_made(state, chapter)
        if form is not None:
            tried = next(block for block in blocks if block["key"] == TRY_KEY)
            data["kForm"] = k_form_json(form, tried, progress(chapter), screen, shown.anchor)
        elif on_k:
            data["busy"] = AHEAD_QUIET

    # a tile's moves, when asked for (the learner came to the tile): sent only then, as patches of the base
    tile = None
    if messages["moves"] is not None and held_screen(messages["moves"]) == base["screen"]:
        tile = tile_of(messages["moves"])
    if tile is not None:
        row, item = tile
        mode = state.effective_mode(chapter)
        # none when the process is busy: the drop then waits for its run
        moves = moves_ahead(base["state"], state, chapter, row, item,
                            lambda move: tile_change_state(state, move, chapter.tile_rows, mode), spare=True)
        base_try = next(block for block in base["blocks"] if block["key"] == TRY_KEY)
        if moves is None:
            data["busy"] = AHEAD_QUIET
        elif moves:
            data["moveScreens"] = {"screen": base["screen"], "row": row, "item": item,
                                   "screens": moves_json(moves, base_try, progress(chapter),
                                                         shown_screen(base["state"], chapter).anchor)}
    mount(data, key=REGION)
