"""The learner's walkthrough state in ``st.session_state``, mirrored into the URL.

One immutable :class:`~irlab.walkthrough.views.WalkthroughState` lives under :data:`STATE`. On a
session's first run it is read from the link (``st.query_params``); malformed parameters
become notices. Every run writes the state back into the URL, so a reload or a shared link
restores it. Tile moves arrive as the tile component's ``change`` value and are adopted once.

Each state is a browser history entry: Streamlit pushes one whenever the URL's parameters change,
and its Back and Forward buttons rerun the page with the earlier link, which :func:`follow_url`
adopts. Undo and redo (:mod:`irlab.walkthrough.history`) step through the states of the session.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from irlab.data.judgments import Judgments
from irlab.errors import ValidationError
from irlab.ui.shell.presentation import set_presenting
from irlab.walkthrough.chapters import Chapter
from irlab.walkthrough.history import History
from irlab.walkthrough.state import MAIN_TARGET, SCENARIO, WalkthroughState
from irlab.walkthrough.urlstate import describes_state, params_from_state, state_from_params

STATE = "irlab.state"
HISTORY = "irlab.history"
URL_WRITTEN = "irlab.url_written"
NOTICES = "irlab.notices"
MAIN = MAIN_TARGET


def current_state() -> WalkthroughState:
    """The learner's state, read from the link on the session's first run."""
    if STATE not in st.session_state:
        state, notices = state_from_params(st.query_params.to_dict())
        st.session_state[STATE] = state
        st.session_state[NOTICES] = notices
        set_presenting(state.present)
    return st.session_state[STATE]


def set_state(state: WalkthroughState) -> None:
    """Replace the learner's state (callbacks and pages call this)."""
    st.session_state[STATE] = state
    set_presenting(state.present)


def follow_url() -> WalkthroughState:
    """Adopt the link the browser went back or forward to, if it is not the one this session last wrote.

    Only a run of Back or Forward counts (Streamlit names it a history navigation): the links of the Ks the
    learner settled on are put into the browser's history by the region itself (:mod:`irlab.ui.walkthrough.settle`),
    so the query string another run brings is the last one Streamlit wrote, not the one on screen. Only
    walkthrough links count (another page's parameters, or none after switching pages, are not a state); what
    the link does not say keeps the learner's value.
    """
    state = current_state()
    params = st.query_params.to_dict()
    written = st.session_state.get(URL_WRITTEN)
    ctx = get_script_run_ctx(suppress_warning=True)
    if (written is None or params == written or not describes_state(params) or ctx is None
            or not ctx.is_history_navigation):
        return state
    state, notices = state_from_params(params, base=state)
    for notice in notices:
        add_notice(notice)
    st.session_state[URL_WRITTEN] = params
    set_state(state)
    return state


def history() -> History:
    """The session's undo history, with the present state observed."""
    state = current_state()
    past = st.session_state.get(HISTORY)
    now = History(state) if past is None else past.observe(state)
    st.session_state[HISTORY] = now
    return now


def undo() -> None:
    """Callback: back to the state before the last move."""
    _step(history().undo())


def redo() -> None:
    """Callback: forward to the state the last undo left."""
    _step(history().redo())


def _step(moved: History) -> None:
    st.session_state[HISTORY] = moved
    set_state(moved.present)


def add_notice(text: str) -> None:
    """A message to show once at the top of the page."""
    st.session_state.setdefault(NOTICES, []).append(text)


def take_notices() -> list[str]:
    """The pending notices; each is shown once."""
    return st.session_state.pop(NOTICES, None) or []


def _edited_grades(raw: object) -> dict[str, int] | None:
    """Grades from the tiles, or None when they equal the rubric's (so links stay short)."""
    rubric = SCENARIO.query("white-cat-in-a-box").judgments
    if not isinstance(raw, Mapping):
        raise ValidationError("grades must map pictures to grades")
    grades = dict(Judgments({str(k): v for k, v in raw.items()}, scale="graded", max_grade=rubric.max_grade))
    if set(grades) != set(SCENARIO.item_ids):
        raise ValidationError("every picture needs a grade")
    return None if grades == dict(rubric) else grades


def tile_change_state(state: WalkthroughState, change: Mapping, targets: Mapping[str, str],
                      mode: str) -> WalkthroughState:
    """The state after tile change ``change`` (the tiles' change and the ``row`` it came from); ``targets`` maps a
    tile row's key to :data:`MAIN` or a query id. Raises :class:`ValidationError` for a change no row could send.

    The one place a change becomes a state: the run that takes the change, and the screens drawn ahead of a
    move (:func:`irlab.ui.walkthrough.screen.moves_ahead`), so that both draw the same screen.
    """
    target = targets.get(change.get("row"))  # type: ignore[arg-type]
    if target is None:
        raise ValidationError(f"no tile row {str(change.get('row'))[:40]!r} on this page")
    order = SCENARIO.check_ranking(change.get("order") or [], complete=True)
    if target != MAIN:
        return replace(state, query_orders={**state.query_orders, target: order})
    state = replace(state, order=order)
    if mode == "graded" and change.get("grades") is not None:
        state = replace(state, grades=_edited_grades(change["grades"]))
    return state


def adopt_tile_change(state: WalkthroughState, change: Mapping | None, targets: Mapping[str, str],
                      mode: str) -> WalkthroughState:
    """Apply a tile move from the live region (:func:`tile_change_state`), or say why it was ignored.

    ``change`` is the region's value (the tiles' change and the ``row`` it came from), or None.
    """
    if change is not None:
        try:
            state = tile_change_state(state, change, targets, mode)
        except ValidationError as error:
            add_notice(f"A change from the tiles was ignored: {error.message}.")
    set_state(state)
    return state


def sync_url(state: WalkthroughState, chapter: Chapter) -> None:
    """Write the state into the URL (only when it changed, to spare the browser work)."""
    params = params_from_state(state, chapter)
    if st.query_params.to_dict() != params:
        st.query_params.from_dict(params)
    st.session_state[URL_WRITTEN] = params
