"""The live class's own routes beside Streamlit's: the event stream a page follows its class by, and answers by HTTP.

Streamlit cannot push to a browser session (streamlit#2838), so the app adds two routes
(``app.py`` passes :func:`class_routes` to ``st.App``), answered by the same process as the pages:

``GET /_irlab/class/events?code=CODE&student=TOKEN`` (or ``&key=KEY`` for the lecturer's page)
    A ``text/event-stream`` that follows the class through this process's one watcher
    (:class:`irlab.classroom.watch.ClassWatcher`): ``pulse`` when what the page shows changed (a
    student's page gets its version and the round's timer, never classmates' answers; the projector
    also the counts), ``beat`` every :data:`BEAT_SECONDS` (the page knows it still follows),
    ``trouble`` when the store is not answering, ``gone`` when the link opens nothing (the class
    ended, or the link is not this class's: one message for both) and the stream ends. A student's
    stream also sets the cookie ``irlab_seat_CODE`` (the student's token, HttpOnly), so another tab
    of the same browser is the same student (:mod:`irlab.ui.classroom.student`). nginx passes it on
    unbuffered (deploy/nginx_conf.py).
``POST /_irlab/class/answer``
    A student's answer as JSON ``{"code", "student", "round", "answer", "send"}``, from the phone's
    outbox (``classanswer.js``: kept in the phone and sent again until acknowledged; ``send`` numbers
    the sends so a repeat is counted once). The answer: ``{"ok": true, "message", "text"}`` (200), or
    ``{"ok": false, "message", "final"}``: 409 the round is not open (or time is up), 422 the answer
    cannot be read, 404 the link opens no seat, 503 the store did not answer (``final`` false: the
    phone keeps the answer and sends it again), 400/413 a malformed or oversized request.

An answer costs the server one store read and one write and no script run; a waiting page costs a
beat every ten seconds. Links carry the store's id (``s``): a replica on another store than the one
the class was started in says so (:data:`OTHER_STORE`), not "no such class". Requests whose link
opens nothing are counted per client address (:mod:`irlab.ui.shell.client`); past
:data:`FAILURES_PER_MINUTE` in a minute the address gets 429 at once, without asking the store.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from typing import Any

from sqlalchemy.exc import SQLAlchemyError
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route

from irlab.classroom import ClassStore
from irlab.classroom.logbook import log_to_stderr, store_error, store_started
from irlab.classroom.refusals import AccessDenied, ClassNotFound, NotAccepting
from irlab.classroom.watch import ClassWatcher, Update
from irlab.errors import ValidationError
from irlab.ui.shell.client import request_address

EVENTS_PATH = "/_irlab/class/events"
ANSWER_PATH = "/_irlab/class/answer"
SEAT_COOKIE = "irlab_seat_"
"""The seat cookie's name is this and the class's code: the student's token for that class."""
BEAT_SECONDS = 10.0
"""How often a stream says it is alive when nothing happens (a page that hears nothing for 2.5 beats reconnects)."""
RETRY_MS = 2000
"""How soon a browser reconnects a dropped stream (EventSource's ``retry``)."""
MAX_BODY = 16_000
"""Bytes of an answer request (an exercise's answers are a few hundred)."""
FAILURES_PER_MINUTE = 60
"""Requests whose link opens nothing, per client address and minute, before the address gets 429 at once."""
UNREACHABLE = "The class did not answer; your answer is kept on this phone and sent again by itself."
STORE_TROUBLE = "The class store is not answering; this page keeps trying."
OTHER_STORE = ("This server's replicas do not share one class store: the class was started in store {theirs}, this "
               "replica uses store {mine}. Tell your lecturer: every replica needs the same IRLAB_CLASS_DB.")


# --- this process's store and watcher ------------------------------------------------------------------------------

class Hub:
    """The class store of this process (``IRLAB_CLASS_DB``) and its watcher, each made on first use (a store that
    could not be opened at start is tried again on the next request)."""

    def __init__(self) -> None:
        self._store: ClassStore | None = None
        self._watcher: ClassWatcher | None = None
        self._lock = threading.Lock()

    def store(self) -> ClassStore:
        with self._lock:
            if self._store is None:
                self._store = ClassStore()
            return self._store

    def watcher(self) -> ClassWatcher:
        store = self.store()
        with self._lock:
            if self._watcher is None:
                self._watcher = ClassWatcher(store).start()
            return self._watcher

    def log_start(self) -> None:
        """Say which store this replica opened (its URL without the password, id and backend), or why it could not."""
        try:
            store = self.store()
        except (ValidationError, SQLAlchemyError, OSError) as error:
            store_started(None, error)
            return
        store_started(f"{store.url} (store {store.store_id}, {store.backend})")

    def stop(self) -> None:
        with self._lock:
            watcher, self._watcher = self._watcher, None
        if watcher is not None:
            watcher.stop()


HUB = Hub()


@contextlib.asynccontextmanager
async def class_lifespan(_app: object) -> AsyncIterator[None]:
    """The app's start and stop: log the class store once, and stop the watcher at the end."""
    log_to_stderr()
    await run_in_threadpool(HUB.log_start)
    yield
    await run_in_threadpool(HUB.stop)


# --- limits --------------------------------------------------------------------------------------------------------

class Failures:
    """Per subject (a client address, a seat), the times of recent events (in this process); ``blocked`` once
    ``limit`` of them fall within ``window`` seconds.

    >>> sends = Failures(limit=2, window=10.0)
    >>> sends.count("seat"); sends.count("seat"); sends.blocked("seat"), sends.blocked("another seat")
    (True, False)
    """

    def __init__(self, limit: int = FAILURES_PER_MINUTE, window: float = 60.0, most: int = 10_000) -> None:
        self.limit, self.window, self.most = limit, window, most
        self._seen: dict[str | None, deque[float]] = {}
        self._lock = threading.Lock()

    def _recent(self, address: str | None, now: float) -> deque[float]:
        times = self._seen.setdefault(address, deque())
        while times and now - times[0] > self.window:
            times.popleft()
        return times

    def blocked(self, address: str | None) -> bool:
        with self._lock:
            return len(self._recent(address, time.monotonic())) >= self.limit

    def count(self, address: str | None) -> None:
        now = time.monotonic()
        with self._lock:
            if len(self._seen) >= self.most:  # a flood of addresses: forget them rather than grow
                self._seen.clear()
            self._recent(address, now).append(now)


FAILURES = Failures()
TOO_MANY = "Too many requests for classes that do not exist from your address; try again in a minute."
SENDS_PER_SEAT = 20
"""Answers one seat may send in :data:`SENDS_WINDOW` seconds to one replica (a phone sends one at a time)."""
SENDS_WINDOW = 10.0
SENDS = Failures(SENDS_PER_SEAT, SENDS_WINDOW)
TOO_FAST = "You are sending answers very fast; wait a few seconds, then send your answer again."
STREAMS_PER_PAGE = 8
"""Event streams one seat (or one lecturer link) may hold open at one replica (a few tabs; not a script's thousands)."""
_OPEN_STREAMS: dict[tuple[str, str], int] = {}
_OPEN_LOCK = threading.Lock()
TOO_MANY_STREAMS = "This class is open in too many tabs of this device; close some."


def _take_stream(code: str, secret: str) -> bool:
    """Count a stream of this link open; False (not counted) when it has :data:`STREAMS_PER_PAGE` already."""
    key = (code, secret)
    with _OPEN_LOCK:
        if _OPEN_STREAMS.get(key, 0) >= STREAMS_PER_PAGE:
            return False
        _OPEN_STREAMS[key] = _OPEN_STREAMS.get(key, 0) + 1
        return True


def _drop_stream(code: str, secret: str) -> None:
    with _OPEN_LOCK:
        left = _OPEN_STREAMS.get((code, secret), 1) - 1
        if left > 0:
            _OPEN_STREAMS[(code, secret)] = left
        else:
            _OPEN_STREAMS.pop((code, secret), None)


def _client(request: Request) -> str | None:
    return request_address(request.client.host if request.client else None, request.headers.items())


def _store_note(drawn: str, message: str) -> str:
    """``message``, or the other-store message when the page was drawn from another store than this replica's."""
    try:
        mine = HUB.store().store_id
    except (ValidationError, SQLAlchemyError, OSError):
        return message
    return OTHER_STORE.format(theirs=drawn, mine=mine) if _other(drawn, mine) else message


# --- the event stream ----------------------------------------------------------------------------------------------

def _event(name: str, data: dict[str, Any]) -> str:
    """One server-sent event (JSON data on one line).

    >>> _event("beat", {"now": 1.5})
    'event: beat\\ndata: {"now":1.5}\\n\\n'
    """
    return f"event: {name}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


def _one_event(name: str, data: dict[str, Any]) -> StreamingResponse:
    """A stream that says one thing and ends (the page closes its stream on ``gone``, retries on ``trouble``)."""
    async def say() -> AsyncIterator[str]:
        yield f"retry: {RETRY_MS}\n\n" + _event(name, data)

    return StreamingResponse(say(), media_type="text/event-stream", headers=_STREAM_HEADERS)


_STREAM_HEADERS = {"Cache-Control": "no-cache, no-store", "X-Accel-Buffering": "no"}


def _open(code: str, token: str, key: str) -> tuple[ClassWatcher, int | None, Callable[[Update], dict | None]]:
    """Check the link (a store read) and say what its page is sent: (the watcher, the student's number or None for
    the lecturer, the pulse -> message function). ClassNotFound or AccessDenied when the link opens nothing."""
    store = HUB.store()
    if key:
        store.lecturer(code, key)
        return HUB.watcher(), None, lambda update: update.pulse.projector_message()
    number = store.student(code, token).student_number()
    return HUB.watcher(), number, lambda update: update.pulse.student_message()


async def events(request: Request) -> Response:
    """The event stream of one page (see the module's text)."""
    address = _client(request)
    if FAILURES.blocked(address):
        return PlainTextResponse(TOO_MANY, status_code=429)
    query = request.query_params
    code, token, key, drawn = (query.get(name, "")[:200] for name in ("code", "student", "key", "s"))
    try:
        watcher, seat, message_of = await run_in_threadpool(_open, code, token, key)
    except (ClassNotFound, AccessDenied) as error:
        FAILURES.count(address)
        return _one_event("gone", {"message": _store_note(drawn, str(error))})
    except (ValidationError, SQLAlchemyError, OSError) as error:
        store_error(error, "a page's event stream")
        return _one_event("trouble", {"message": STORE_TROUBLE})

    secret = key or token
    loop = asyncio.get_running_loop()
    latest: asyncio.Queue[Update] = asyncio.Queue(maxsize=1)

    def put(update: Update) -> None:
        if latest.full():
            latest.get_nowait()  # only the newest matters
        latest.put_nowait(update)

    def listener(update: Update) -> None:  # on the watcher's thread
        loop.call_soon_threadsafe(put, update)

    async def stream() -> AsyncIterator[str]:
        # followed from the stream's first step on: a response that never starts (the client left) holds nothing
        if not _take_stream(code, secret):
            yield f"retry: {RETRY_MS}\n\n" + _event("trouble", {"message": TOO_MANY_STREAMS})
            return
        unfollow = watcher.follow(code, listener, seat=seat)
        sent: dict | None = None
        try:
            yield f"retry: {RETRY_MS}\n\n"
            while True:
                try:
                    update = await asyncio.wait_for(latest.get(), BEAT_SECONDS)
                except TimeoutError:
                    yield _event("beat", {"now": time.time()})
                    continue
                if update.trouble is not None:
                    sent = None
                    yield _event("trouble", {"message": STORE_TROUBLE, "now": time.time()})
                elif update.pulse is None:
                    yield _event("gone", {"message": _store_note(drawn, GONE)})
                    return
                elif (message := message_of(update)) != sent:
                    sent = message
                    yield _event("pulse", {**message, "now": time.time()})
        finally:
            unfollow()
            _drop_stream(code, secret)

    response = StreamingResponse(stream(), media_type="text/event-stream", headers=_STREAM_HEADERS)
    if seat is not None:
        response.set_cookie(f"{SEAT_COOKIE}{code}", token, max_age=int(HUB.store().retention_seconds),
                            path="/", httponly=True, samesite="lax")
    return response


GONE = "This class has ended: the lecturer deleted it, or it had no activity for a long time."


# --- answers -------------------------------------------------------------------------------------------------------

def answer_reply(sent: object, store: ClassStore) -> tuple[int, dict[str, Any]]:
    """The answer route's reply to ``sent`` (the request's JSON, see the module's text): its status and body."""
    try:
        code, token, round_id = sent["code"], sent["student"], sent["round"]  # type: ignore[index]
        drawn = sent.get("s") or ""  # type: ignore[union-attr]
        if not (isinstance(code, str) and isinstance(token, str) and isinstance(round_id, int)
                and not isinstance(round_id, bool) and isinstance(drawn, str)):
            raise TypeError
    except (KeyError, TypeError, AttributeError):
        return 400, _refused(400, "This is not an answer the class's page sends.")
    try:
        receipt = store.student(code, token).answer(round_id, sent.get("answer"), send_id=sent.get("send"))
    except NotAccepting as error:
        return 409, _refused(409, str(error))
    except (ClassNotFound, AccessDenied) as error:
        note = OTHER_STORE.format(theirs=drawn, mine=store.store_id) if _other(drawn, store.store_id) else str(error)
        return 404, _refused(404, note, gone=True)
    except ValidationError as error:  # the answer cannot be read
        return 422, _refused(422, str(error))
    except (SQLAlchemyError, OSError) as error:
        store_error(error, "a student's answer")
        return 503, _refused(503, UNREACHABLE)
    return 200, {"ok": True, "message": receipt.message, "text": receipt.text, "round": receipt.round_number,
                 "unchanged": receipt.unchanged}


def _refused(status: int, message: str, **more: Any) -> dict[str, Any]:
    return {"ok": False, "message": message, "final": status != 503, **more}


def _other(drawn: str, mine: str) -> bool:
    return bool(drawn and mine and drawn != mine and len(drawn) <= 16 and drawn.isalnum())


def _same_origin(request: Request) -> bool:
    """Whether the request comes from a page of this app (a browser sends Origin with a POST)."""
    origin = request.headers.get("origin")
    if origin is None:
        return True  # not a browser's cross-site request (the token is needed anyway)
    return origin.split("://", 1)[-1] == request.headers.get("host", "")


def _reply(status: int, body: dict[str, Any]) -> JSONResponse:
    return JSONResponse(body, status_code=status, headers={"Cache-Control": "no-store"})


async def answer(request: Request) -> Response:
    """A student's answer (see the module's text)."""
    address = _client(request)
    if FAILURES.blocked(address):
        return _reply(429, _refused(429, TOO_MANY))
    if not _same_origin(request):
        return _reply(403, _refused(403, "Answers are sent from the class's own page."))
    if int(request.headers.get("content-length") or 0) > MAX_BODY:
        return _reply(413, _refused(413, "This answer is far too long."))
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            return _reply(413, _refused(413, "This answer is far too long."))
    try:
        sent = json.loads(body)
    except ValueError:
        return _reply(400, _refused(400, "This is not an answer the class's page sends."))
    seat = f"{sent.get('code')}:{sent.get('student')}"[:300] if isinstance(sent, dict) else ""
    if SENDS.blocked(seat):
        return _reply(429, _refused(429, TOO_FAST))
    SENDS.count(seat)
    try:
        store = await run_in_threadpool(HUB.store)
    except (ValidationError, SQLAlchemyError, OSError) as error:
        store_error(error, "a student's answer")
        return _reply(503, _refused(503, UNREACHABLE))
    status, reply = await run_in_threadpool(answer_reply, sent, store)
    if reply.get("gone"):
        FAILURES.count(address)
    return _reply(status, reply)


def class_routes() -> list[Route]:
    """The routes ``app.py`` adds to the app."""
    return [Route(EVENTS_PATH, events, methods=["GET"]), Route(ANSWER_PATH, answer, methods=["POST"])]
