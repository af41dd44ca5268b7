"""The K a learner settled on reaches the server by a small HTTP request, not a script run.

A change of K is drawn in the browser from the K form (:mod:`irlab.ui.walkthrough.live`). The server still
has to learn the K the learner settled on: for the link, Back and Forward, "Try this", the numbers' changes
after the next move, and a class that reads the lecturer's state. Told through the region's component
state, that was a run of the region's fragment per pause, and the browser drew Streamlit's answer to it:
about as much of the browser's main thread as the change itself, and a run of the server's.

So the region posts the settled K to ``POST /_irlab/region/settle`` (:func:`settle_routes`, served by the
same process as the page: the sticky cookie sends it there) as JSON ``{"token", "k", "n", "chapter"}``, and
pushes the link of that K, which came with the K form, into the browser's history itself. The request
only leaves the K in this session's inbox (:data:`INBOX`, a bounded dict keyed by the session's token); the
session takes it at the start of its next run (:func:`take_settled`), as if it had come with a message:
the state at that K, the undo history, the numbers shown and "Try this" (as the settled K's run did), and
the link the browser now shows as the one the server wrote. Every message of the region carries the K the
browser shows and its number, so a K posted before a later message is never taken after it (the inbox
keeps the number; :func:`take_settled` drops what a message already overtook).

The token is the session's own (made once, kept in the session), so a request can name no other
session; one that names no token of this process (another replica, a restarted one) is answered 404 and
the region tells the server by a message instead. Anything in the request is untrusted: the K is
checked against the slider's range, the chapter against the registry, the body's size is bounded, and a
session's inbox keeps its last few Ks only.
"""

from __future__ import annotations

import json
import secrets
import threading
from collections import OrderedDict, deque
from dataclasses import dataclass, replace
from typing import Any

import streamlit as st
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from irlab.ui.components.region import whole_number
from irlab.ui.walkthrough.screen import k_choices, numbers_shown, shown_screen
from irlab.ui.walkthrough.state import URL_WRITTEN, current_state, history, set_state
from irlab.walkthrough.chapters import BY_SLUG, Chapter
from irlab.walkthrough.state import WalkthroughState
from irlab.walkthrough.urlstate import params_from_state

SETTLE_PATH = "/_irlab/region/settle"
TOKEN = "irlab.region.token"
"""Where the session keeps its token (the inbox's key)."""
TAKEN = "irlab.region.taken"
"""The number of the newest message (or settled K) the session took."""
MAX_BODY = 1_000
"""Bytes of a settle request (one is ~100)."""
KEPT_PER_SESSION = 8
"""Settled Ks a session's inbox keeps until its next run (the oldest go first)."""


@dataclass(frozen=True)
class Settled:
    """A K the learner settled on in ``chapter``, with the number of the browser's message it is."""

    k: int
    n: int
    chapter: str


class Inbox:
    """The settled Ks posted for each session of this process, until the session's next run takes them.

    Thread-safe (the route runs on the server's event loop, the runs on their script threads); bounded: at
    most ``sessions`` tokens (the least recently registered go first: a session whose token was dropped
    gets 404 and tells the server by a message) and :data:`KEPT_PER_SESSION` Ks each.
    """

    def __init__(self, sessions: int = 20_000) -> None:
        self._lock = threading.Lock()
        self._boxes: OrderedDict[str, deque[Settled]] = OrderedDict()
        self._sessions = sessions

    def register(self, token: str) -> None:
        """Accept settled Ks for ``token`` (again: a registration keeps what waits)."""
        with self._lock:
            self._boxes.setdefault(token, deque(maxlen=KEPT_PER_SESSION))
            self._boxes.move_to_end(token)
            while len(self._boxes) > self._sessions:
                self._boxes.popitem(last=False)

    def post(self, token: str, settled: Settled) -> bool:
        """Leave ``settled`` for ``token``'s session; False when no session of this process has that token."""
        with self._lock:
            box = self._boxes.get(token)
            if box is None:
                return False
            box.append(settled)
            return True

    def take(self, token: str) -> list[Settled]:
        """What waits for ``token``'s session, oldest first (then nothing waits)."""
        with self._lock:
            box = self._boxes.get(token)
            if not box:
                return []
            taken = list(box)
            box.clear()
            return taken


INBOX = Inbox()


def session_token() -> str:
    """This session's token, made and registered on first use (and registered again, should the inbox have dropped
    it or the process restarted)."""
    token = st.session_state.get(TOKEN)
    if not isinstance(token, str):
        token = st.session_state[TOKEN] = secrets.token_urlsafe(18)
    INBOX.register(token)
    return token


def settle_url() -> str:
    """The route's path as the browser asks for it (under the server's base path, if any)."""
    base = str(st.get_option("server.baseUrlPath") or "").strip("/")
    return (f"/{base}" if base else "") + SETTLE_PATH


def took_message(n: Any) -> None:
    """A message numbered ``n`` was taken: a K settled before it is older than the K it carried."""
    number = whole_number(n, 0, 2**53)
    if number is not None and number > st.session_state.get(TAKEN, -1):
        st.session_state[TAKEN] = number


def with_settled_k(state: WalkthroughState, chapter: Chapter, k: int) -> WalkthroughState:
    """``state`` at the K the learner settled on in ``chapter``, taken as the settled K's run took it: the undo history
    observes it, and its numbers are the ones shown (the next move's changes are counted from them; "Try this" steps
    it reached are done)."""
    if k == state.effective_k(chapter):
        return state
    state = replace(state, k=k)
    set_state(state)
    history()
    at_k = shown_screen(state, chapter)
    numbers_shown(chapter, state, at_k.headline, at_k.steps)
    return state


def take_settled() -> None:
    """Take the Ks the learner settled on since the session's last run, each in order (one a later message overtook is
    dropped); the link the browser shows for the last one becomes the one the server wrote. Every run of the session
    calls this first (streamlit_app.py; a chapter's region, whose runs are the fragment's own): a page that reads the
    learner's state, a chapter's or a class's, reads it with the K on screen."""
    token = st.session_state.get(TOKEN)
    waiting = INBOX.take(token) if isinstance(token, str) else []
    if not waiting:
        return
    state = current_state()
    for settled in waiting:
        chapter = BY_SLUG.get(settled.chapter)
        if chapter is None or settled.n <= st.session_state.get(TAKEN, -1):
            continue
        st.session_state[TAKEN] = settled.n
        state = with_settled_k(state, chapter, settled.k)
        st.session_state[URL_WRITTEN] = params_from_state(state, chapter)


def _no_constant(name: str) -> None:
    """JSON's NaN and Infinity are no number a browser sends here."""
    raise ValueError(name)


def _settled_of(body: bytes) -> tuple[str, Settled] | None:
    """The token and settled K a request's body names, or None when it is not one."""
    try:
        data = json.loads(body, parse_constant=_no_constant)
    except ValueError:  # also a body that is not UTF-8
        return None
    if not isinstance(data, dict):
        return None
    token, chapter = data.get("token"), data.get("chapter")
    k = whole_number(data.get("k"), k_choices().start, k_choices().stop - 1)
    n = whole_number(data.get("n"), 0, 2**53)
    if not (isinstance(token, str) and 0 < len(token) <= 64 and isinstance(chapter, str) and chapter in BY_SLUG
            and k is not None and n is not None):
        return None
    return token, Settled(k, n, chapter)


async def settle(request: Request) -> Response:
    """``POST /_irlab/region/settle``: 204 the K waits for the session's next run; 404 no session of this process
    has the token (or the path is under another base path than the server's); 400 not a settle request; 413 too long
    (read no further than that)."""
    base = request.path_params.get("base")
    if base is not None and base.strip("/") != str(st.get_option("server.baseUrlPath") or "").strip("/"):
        return Response(status_code=404)
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            return Response(status_code=413)
    found = _settled_of(body)
    if found is None:
        return Response(status_code=400)
    token, settled = found
    return Response(status_code=204 if INBOX.post(token, settled) else 404)


def settle_routes() -> list[Route]:
    """The route ``app.py`` adds to the app: at :data:`SETTLE_PATH`, and under the server's base path, where the browser
    asks for it (Streamlit does not put an app's own routes under ``server.baseUrlPath``, and ``app.py`` is imported
    before the server's options are read, so the base is checked per request)."""
    return [Route(SETTLE_PATH, settle, methods=["POST"]), Route("/{base:path}" + SETTLE_PATH, settle, methods=["POST"])]
