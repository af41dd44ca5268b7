"""A live class under load through ``deploy/run-local --replicas 2``, on SQLite and on PostgreSQL: 500 students who
join and wait, answer, lose a replica mid-question, and one who tries to spoil it; today's code or another checkout.

    python bench/class_load.py [--students 500] [--databases sqlite,postgresql] [--phases idle,answer,failover,hostile]
                               [--app-root PATH] [--label after] [--ramp 120] [--idle 30] [--window 30]
                               [--json-out FILE]

``--app-root`` serves another checkout of IR Lab (its own ``deploy/run-local`` and app), e.g. the code before a
change: ``git archive <commit> | tar -x -C /tmp/irlab-before`` then ``--app-root /tmp/irlab-before --label
before``. The students speak Streamlit's protocol (one websocket session each, as the browser does: the page
runs, widgets, the fragments' timers) and, where the app has them, the live class's own routes (its event stream
and the answer route, as ``classfeed.js`` and ``classanswer.js`` do); which one the app speaks is read from the
page it draws, so the same client measures the old code (polling fragments, answers through the websocket) and
the new (push, answers by HTTP). It is self-contained: the protobufs come with Streamlit, the websocket client
with its dependencies.

Phases (CPU of every app process from /proc, 100 % = one core; the client's own CPU too):

* **idle**: every student has joined (spread over ``--ramp`` s) and waits with the projector open, ``--idle`` s:
  CPU per replica, and runs the server made.
* **answer**: the lecturer shows a question; each student answers at a random moment within ``--window`` s of
  seeing it. ack = Send -> the receipt (the answer route's reply, or the run that stored it); stored = rows in
  the store; "projector complete" = from the last acknowledged answer until the projector shows them all (its
  counts come from its event stream, or from its polling fragment).
* **failover**: a second question; a third of the way into its window run-local's first replica is killed
  (SIGKILL; run-local restarts it). A student whose websocket died comes back as the browser does (a new session
  from their link); an answer that got no receipt is sent again (the phone's outbox does it by itself; on the old
  pages the student presses Send again). lost = acknowledged answers missing from the store; back = students
  whose page works again, and when.
* **hostile**: one student (their own address, 127.0.0.2) types ten wrong codes, each from a new tab; then 20
  classmates (127.0.0.3...) join with the right code: how many are locked out; the attacker with the right code
  (is the address blocked?); one browser (one cookie jar) opening the join link three times: how many seats it got.
  Also through the compose proxy's configuration (replicas on this machine's network address, so their peer is
  the proxy as in Docker; ``IRLAB_TRUSTED_PROXIES`` naming it when the checkout's compose.yaml does).

Not a test: timings depend on the machine and what else runs on it (say so next to the numbers).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sqlalchemy import create_engine, text  # noqa: E402
from streamlit.proto.BackMsg_pb2 import BackMsg  # noqa: E402
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg  # noqa: E402
from websockets.asyncio.client import connect as ws_connect  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")
FINISHED, EARLY, FRAGMENT_DONE = 0, 2, 3
PG_USER = "irlab"
TRIGGER = "$$STREAMLIT_INTERNAL_KEY_{id}__events"
"""A components-v2 component's trigger widget (Streamlit 1.67: the base id and the aggregator's name)."""


TASKS: set[asyncio.Task] = set()
"""Every task started in the background: asyncio keeps only weak references, and a task that nobody holds is
collected while it waits (an event stream closed in the middle of a lecture)."""


def background(coroutine) -> asyncio.Task:
    task = asyncio.get_running_loop().create_task(coroutine)
    TASKS.add(task)
    task.add_done_callback(TASKS.discard)
    return task


def pct(values: list[float], p: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))]


# --- HTTP over asyncio: requests from a chosen address, and an event stream ----------------------------------------

@dataclass
class Reply:
    status: int
    headers: dict[str, list[str]]
    body: bytes


async def _open(host: str, port: int, source: str):
    sock = socket.socket()
    sock.setblocking(False)
    sock.bind((source, 0))
    await asyncio.get_running_loop().sock_connect(sock, (host, port))
    return await asyncio.open_connection(sock=sock)


async def _head(reader) -> tuple[int, dict[str, list[str]]]:
    status = int((await reader.readline()).split()[1])
    headers: dict[str, list[str]] = {}
    while (line := await reader.readline()) not in (b"\r\n", b""):
        name, _, value = line.decode("latin-1").partition(":")
        headers.setdefault(name.strip().lower(), []).append(value.strip())
    return status, headers


async def _chunks(reader, headers):
    """The body's pieces as they arrive (chunked or with a length)."""
    if headers.get("transfer-encoding", [""])[0].lower() == "chunked":
        while True:
            size = int((await reader.readline()).split(b";")[0], 16)
            if size == 0:
                return
            yield await reader.readexactly(size)
            await reader.readline()
    elif "content-length" in headers:
        yield await reader.readexactly(int(headers["content-length"][0]))
    else:
        while piece := await reader.read(65536):
            yield piece


async def request(base: str, method: str, path: str, *, source: str = "127.0.0.1", cookies: dict | None = None,
                  body: bytes | None = None, headers: dict | None = None, timeout: float = 30) -> Reply:
    parts = urlsplit(base)
    reader, writer = await asyncio.wait_for(_open(parts.hostname, parts.port, source), timeout)
    try:
        lines = [f"{method} {path} HTTP/1.1", f"Host: {parts.netloc}", "Connection: close"]
        if cookies:
            lines.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in cookies.items()))
        if body is not None:
            lines += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + (body or b""))
        status, found = await asyncio.wait_for(_head(reader), timeout)
        data = b"".join([piece async for piece in _chunks(reader, found)])
        return Reply(status, found, data)
    finally:
        writer.close()


async def stream_head(base: str, path: str, cookies: dict, *, source: str = "127.0.0.1") -> None:
    """Open an event stream, keep the cookies its answer sets, and close it (a page that follows for a moment)."""
    parts = urlsplit(base)
    reader, writer = await _open(parts.hostname, parts.port, source)
    try:
        writer.write((f"GET {path} HTTP/1.1\r\nHost: {parts.netloc}\r\nAccept: text/event-stream\r\nCookie: "
                      + "; ".join(f"{k}={v}" for k, v in cookies.items()) + "\r\n\r\n").encode())
        set_cookies((await asyncio.wait_for(_head(reader), 30))[1], cookies)
    finally:
        writer.close()


def set_cookies(reply_headers: dict[str, list[str]], jar: dict) -> None:
    for value in reply_headers.get("set-cookie", []):
        name, _, rest = value.partition("=")
        jar[name.strip()] = rest.split(";", 1)[0]


# --- one browser tab: Streamlit's protocol -------------------------------------------------------------------------

@dataclass
class Stats:
    join_ack: list[float] = field(default_factory=list)
    runs: int = 0
    errors: Counter = field(default_factory=Counter)
    examples: list[str] = field(default_factory=list)

    def error(self, kind: str, detail: str = "") -> None:
        self.errors[kind] += 1
        if len(self.examples) < 10:
            self.examples.append(f"{kind}: {detail}"[:300])


class Tab:
    """One tab of one browser (its cookie jar) speaking Streamlit's protocol from address ``source``."""

    def __init__(self, base: str, path: str, stats: Stats, name: str, *, source: str = "127.0.0.1",
                 cookies: dict | None = None) -> None:
        self.base, self.stats, self.name, self.source = base, stats, name, source
        parts = urlsplit(path)
        self.page, self.query = parts.path.strip("/"), parts.query
        self.cookies = cookies if cookies is not None else {}
        self.page_hash = ""
        self.ws = None
        self.reader: asyncio.Task | None = None
        self.pollers: dict[str, asyncio.Task] = {}
        self.waiting: asyncio.Future | None = None
        self.texts: list[str] = []
        self.widgets: dict[str, tuple[str, str]] = {}  # label -> (widget id, fragment id)
        self.components: dict[str, tuple[str, str, dict]] = {}  # name -> (element id, fragment id, data)
        self.on_components = None
        self.closing = False
        self.died = asyncio.Event()
        self.busy = asyncio.Lock()

    async def open(self) -> None:
        self.closing = False
        self.died = asyncio.Event()
        for path in (f"/{self.page}" + (f"?{self.query}" if self.query else ""), "/_stcore/health"):
            set_cookies((await request(self.base, "GET", path, source=self.source, cookies=self.cookies)).headers,
                        self.cookies)
        parts = urlsplit(self.base)
        sock = socket.socket()
        sock.setblocking(False)
        sock.bind((self.source, 0))
        await asyncio.get_running_loop().sock_connect(sock, (parts.hostname, parts.port))
        xsrf = self.cookies.get("_streamlit_xsrf", "")
        jar = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        self.ws = await ws_connect(f"ws://{parts.netloc}/_stcore/stream", sock=sock, origin=self.base,
                                   subprotocols=["streamlit", xsrf or "PLACEHOLDER_AUTH_TOKEN"],
                                   additional_headers={"Cookie": jar}, max_size=None, ping_interval=None,
                                   open_timeout=120)
        with contextlib.suppress(Exception):
            for value in self.ws.response.headers.get_all("Set-Cookie"):
                set_cookies({"set-cookie": [value]}, self.cookies)
        self.reader = background(self._read())
        await self.run(first=True)

    async def close(self) -> None:
        self.closing = True
        for task in self.pollers.values():
            task.cancel()
        self.pollers.clear()
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), 5)
        if self.reader is not None:
            self.reader.cancel()

    async def run(self, *, first: bool = False, fragment: str = "", widgets=(), auto: bool = False,
                  timeout: float = 120) -> list[str]:
        """One run (and any it asks for); the notices it showed."""
        async with self.busy:
            if self.ws is None or self.died.is_set():
                raise ConnectionError("the websocket is gone")
            message = BackMsg()
            state = message.rerun_script
            state.query_string = self.query
            state.page_script_hash = "" if first else self.page_hash
            state.page_name = self.page if first else ""
            state.fragment_id = fragment
            state.is_auto_rerun = auto
            state.widget_states.SetInParent()
            for widget_id, kind, value in widgets:
                widget = state.widget_states.widgets.add()
                widget.id = widget_id
                setattr(widget, kind, value)
            info = state.context_info
            info.timezone, info.locale, info.color_scheme = "Europe/Amsterdam", "en-US", "light"
            info.url = f"{self.base}/{self.page}" + (f"?{self.query}" if self.query else "")
            self.waiting = asyncio.get_running_loop().create_future()
            self.texts = []
            await self.ws.send(message.SerializeToString())
            await asyncio.wait_for(self.waiting, timeout)
            self.stats.runs += 1
            return self.texts

    async def press(self, values: list[tuple[str, str, object]], timeout: float = 120) -> list[str]:
        """Set widgets by label (kind, value) and rerun what the browser reruns: their fragment, or the page."""
        fragment = self.widgets[values[-1][0]][1]
        return await self.run(fragment=fragment, widgets=[(self.widgets[label][0], kind, value)
                                                           for label, kind, value in values], timeout=timeout)

    async def trigger(self, component: str, value: object) -> list[str]:
        """What a components-v2 component's ``setTriggerValue("changed", value)`` sends: a run of its fragment."""
        element_id, fragment, _ = self.components[component]
        payload = json.dumps([{"event": "changed", "value": value}])
        return await self.run(fragment=fragment, widgets=[(TRIGGER.format(id=element_id), "json_trigger_value",
                                                           payload)])

    async def _read(self) -> None:
        try:
            async for data in self.ws:
                self._on(ForwardMsg.FromString(data))
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - the replica died, or the network
            pass
        self.died.set()
        if self.waiting is not None and not self.waiting.done():
            self.waiting.set_exception(ConnectionError("closed"))
            self.waiting.exception()  # retrieved: a poll nobody waits for need not say so
        for task in self.pollers.values():
            task.cancel()
        self.pollers.clear()

    def _on(self, msg) -> None:
        kind = msg.WhichOneof("type")
        if kind == "navigation" and msg.navigation.page_script_hash:
            self.page_hash = msg.navigation.page_script_hash
        elif kind == "page_info_changed":
            self.query = msg.page_info_changed.query_string
        elif kind == "auto_rerun" and msg.auto_rerun.fragment_id not in self.pollers:
            self.pollers[msg.auto_rerun.fragment_id] = background(
                self._poll(msg.auto_rerun.fragment_id, msg.auto_rerun.interval))
        elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
            element = msg.delta.new_element
            which = element.WhichOneof("type")
            if which in ("text_input", "button"):
                widget = getattr(element, which)
                self.widgets[widget.label] = (widget.id, msg.delta.fragment_id)
            elif which == "alert":
                self.texts.append(element.alert.body.replace("\\", ""))
            elif which == "exception":
                self.stats.error("exception", f"{self.name}: {element.exception.message[:200]}")
            elif which == "bidi_component":
                name = element.bidi_component.component_name.removeprefix("irlab.")
                data = json.loads(element.bidi_component.json) if element.bidi_component.json else {}
                self.components[name] = (element.bidi_component.id, msg.delta.fragment_id, data)
                if self.on_components is not None:
                    self.on_components(name, data)
        elif kind == "script_finished":
            if msg.script_finished == EARLY:
                return
            if self.waiting is not None and not self.waiting.done():
                self.waiting.set_result(msg.script_finished)

    async def _poll(self, fragment: str, interval: float) -> None:
        """The browser's timer for a ``run_every`` fragment (the old pages' polling)."""
        await asyncio.sleep(random.uniform(0, interval))
        while not self.closing and not self.died.is_set():
            started = time.perf_counter()
            with contextlib.suppress(Exception):
                await self.run(fragment=fragment, auto=True)
            await asyncio.sleep(max(0.05, interval - (time.perf_counter() - started)))

    @property
    def token(self) -> str | None:
        return next((v for k, _, v in (p.partition("=") for p in self.query.split("&")) if k == "student"), None)


async def event_stream(base: str, path: str, cookies: dict, on_event, stop: asyncio.Event, *,
                       source: str = "127.0.0.1") -> None:
    """Follow an event stream as ``EventSource`` does: reconnect 2 s after it drops, until ``stop``."""
    parts = urlsplit(base)
    while not stop.is_set():
        try:
            reader, writer = await _open(parts.hostname, parts.port, source)
            writer.write((f"GET {path} HTTP/1.1\r\nHost: {parts.netloc}\r\nAccept: text/event-stream\r\nCookie: "
                          + "; ".join(f"{k}={v}" for k, v in cookies.items()) + "\r\n\r\n").encode())
            status, headers = await _head(reader)
            set_cookies(headers, cookies)
            buffer, name = b"", "message"
            async for piece in _chunks(reader, headers):
                buffer += piece
                while b"\n\n" in buffer:
                    block, buffer = buffer.split(b"\n\n", 1)
                    for line in block.decode().split("\n"):
                        if line.startswith("event: "):
                            name = line[7:]
                        elif line.startswith("data: "):
                            on_event(name, json.loads(line[6:]))
                    name = "message"
                if stop.is_set():
                    break
            writer.close()
        except (OSError, asyncio.IncompleteReadError, ValueError, IndexError):
            pass
        if not stop.is_set():
            await asyncio.sleep(2.0)  # EventSource's retry


# --- a student and the projector -----------------------------------------------------------------------------------

@dataclass
class Answered:
    phase: str
    sent: float
    acked: float | None = None
    value: str = ""
    tries: int = 0


class Student:
    """A student: joins, follows the class (by its event stream, or the page's poll), answers each question shown."""

    def __init__(self, base: str, code: str, number: int, stats: Stats, phases: dict, *, source: str = "127.0.0.1"):
        self.base, self.code, self.number, self.stats, self.phases = base, code, number, stats, phases
        self.tab = Tab(base, f"/join?code={code}", stats, f"student {number}", source=source)
        self.tab.on_components = self._component
        self.answers: list[Answered] = []
        self.feed: dict | None = None  # the feed's data (push pages)
        self.form: dict | None = None  # the answer form's data (push pages)
        self.latest: dict | None = None  # the latest pulse
        self.stop = asyncio.Event()
        self.changed = asyncio.Event()
        self.seen: dict[str, float] = {}  # phase -> when the question showed
        self.back: list[float] = []  # when the page worked again after its replica died (s after death)
        self.asking = False
        self.done: set = set()  # the questions answered (a round id, or the old page's answer box id)

    @property
    def pushed(self) -> bool:
        return self.feed is not None

    def _component(self, name: str, data: dict) -> None:
        if name == "classfeed":
            self.feed = data
        elif name == "classanswer":
            self.form = data

    async def join(self) -> bool:
        await self.tab.open()
        started = time.perf_counter()
        await self.tab.press([("Join code", "string_value", self.code), ("Join", "trigger_value", True)])
        if self.tab.token is None:
            self.stats.error("join", f"student {self.number}: {self.tab.texts[:1]}")
            return False
        self.stats.join_ack.append(time.perf_counter() - started)
        if self.pushed:
            background(event_stream(self.base, self.feed["events"], self.tab.cookies, self._event,
                                             self.stop, source=self.tab.source))
        return True

    def _event(self, name: str, data: dict) -> None:
        if name == "pulse":
            self.latest = data
            if self._differs():
                background(self._rerun(random.uniform(0, self.feed["spread"] / 1000)))

    def _differs(self) -> bool:
        shown, pulse = self.feed["shown"], self.latest
        round_ = pulse.get("round") or {}
        return (pulse["student"] != shown["student"] or round_.get("id") != shown["round"]
                or round_.get("state") != shown["state"])

    async def _rerun(self, delay: float) -> None:
        if self.asking:
            return
        self.asking = True
        try:
            await asyncio.sleep(delay)
            if self._differs():
                with contextlib.suppress(Exception):
                    await self.tab.trigger("classfeed", self.latest["student"])
        finally:
            self.asking = False
        if self.latest is not None and self._differs():
            background(self._rerun(1.0))

    def question(self):
        """The open question the page shows (its round id, or the old page's answer box id), or None."""
        if self.pushed:
            shown = (self.feed or {}).get("shown", {})
            if self.form is not None and shown.get("state") == "open" and self.form["round"] == shown.get("round"):
                return self.form["round"]
            return None
        return next((wid for label, (wid, _) in self.tab.widgets.items() if label.startswith("Your answer")), None)

    def showing(self) -> bool:
        """Whether the page shows an open question this student has not answered yet."""
        found = self.question()
        return found is not None and found not in self.done

    async def comeback(self, died_at: float) -> None:
        """The browser's reconnection after the replica died: a new session from the student's link."""
        self.tab.query = self.tab.query or f"code={self.code}"
        for _ in range(60):
            try:
                await self.tab.close()
                self.tab.closing = False
                self.tab.widgets.clear()
                await self.tab.open()
                self.back.append(time.perf_counter() - died_at)
                return
            except Exception:  # noqa: BLE001 - the proxy may still answer 502 for a moment
                await asyncio.sleep(1.0)
        self.stats.error("back", f"student {self.number} never came back")

    async def answer_question(self, phase: str, window: float, shown_at: float, round_number: int) -> None:
        deadline = time.perf_counter() + 60
        while not self.showing():
            if time.perf_counter() > deadline:
                self.stats.error("question", f"student {self.number}: the question never appeared ({phase})")
                return
            await asyncio.sleep(0.05)
        self.seen[phase] = time.perf_counter() - shown_at
        self.done.add(self.question())
        await asyncio.sleep(random.uniform(0, window))
        value = f"{random.choice((1, 2, 3, 4, 5))}.{round_number}{self.number % 10}"
        record = Answered(phase, time.perf_counter(), value=value)
        self.answers.append(record)
        if self.pushed:
            await self._post(record)
        else:
            await self._press(record)

    async def _post(self, record: Answered) -> None:
        """The phone's outbox: send until a reply says it was taken (or refused for good); 1, 2, 4, 8 s apart."""
        form = self.form
        send = f"bench{self.number:08d}-{len(self.answers)}"
        body = json.dumps({"code": form["code"], "student": form["student"], "s": form["store"],
                           "round": form["round"], "answer": record.value, "send": send}).encode()
        for attempt in range(12):
            record.tries += 1
            try:
                reply = await request(self.base, "POST", form["post"], body=body, cookies=self.tab.cookies,
                                      source=self.tab.source, headers={"Origin": self.base}, timeout=10)
                answer = json.loads(reply.body or b"{}")
                if reply.status == 200:
                    record.acked = time.perf_counter()
                    return
                if answer.get("final"):
                    self.stats.error("refused", f"student {self.number}: {reply.status} {answer.get('message')}")
                    return
            except (TimeoutError, OSError, ValueError, asyncio.IncompleteReadError):
                pass
            await asyncio.sleep(min(8.0, 2 ** attempt))
        self.stats.error("answer", f"student {self.number}: never acknowledged")

    async def _press(self, record: Answered) -> None:
        """The old pages: type and press Send; a Send lost with its websocket is pressed again once the page is back."""
        for _ in range(12):
            record.tries += 1
            try:
                texts = await self.tab.press([(next(label for label in self.tab.widgets if label.startswith(
                    "Your answer")), "string_value", record.value), ("Send", "trigger_value", True)], timeout=30)
                if any(t.startswith(("Answer received", "Answer changed")) for t in texts):
                    record.acked = time.perf_counter()
                    return
                self.stats.error("refused", f"student {self.number}: {texts[:1]}")
                return
            except Exception:  # noqa: BLE001 - the websocket died with its replica: wait until the page is back
                await asyncio.sleep(1.0)
                deadline = time.perf_counter() + 60
                while self.tab.died.is_set() and time.perf_counter() < deadline:
                    await asyncio.sleep(0.2)
                while not self.showing() and time.perf_counter() < deadline:
                    await asyncio.sleep(0.2)
        self.stats.error("answer", f"student {self.number}: never acknowledged")

    async def close(self) -> None:
        self.stop.set()
        await self.tab.close()


class Projector:
    """The lecturer's /class: records (time, answers counted) as the projector shows them."""

    def __init__(self, base: str, code: str, key: str, stats: Stats) -> None:
        self.base = base
        self.tab = Tab(base, f"/class?code={code}&key={key}", stats, "projector")
        self.tab.on_components = self._component
        self.feed: dict | None = None
        self.counted: list[tuple[float, int]] = []
        self.stop = asyncio.Event()
        self.last_run = 0.0
        self.running = False

    def _component(self, name: str, data: dict) -> None:
        if name == "classfeed":
            self.feed = data
        elif name == "region":  # the old projector's counts, in its live region
            for block in data.get("blocks", []):
                if block.get("kind") == "numbers":
                    for item in block["items"]:
                        if item["label"].startswith("Answers, round"):
                            self.counted.append((time.perf_counter(), int(item["value"])))

    async def open(self) -> None:
        await self.tab.open()
        if self.feed is not None:
            background(event_stream(self.base, self.feed["events"], self.tab.cookies, self._event, self.stop))

    def _event(self, name: str, data: dict) -> None:
        if name != "pulse":
            return
        current = data.get("round") or {}
        self.counted.append((time.perf_counter(), current.get("answers", 0)))
        shown = self.feed["shown"]
        lecturer = data["student"] != shown["student"] or current.get("id") != shown["round"]
        if (lecturer or data.get("projector") != shown.get("projector")) and not self.running:
            background(self._rerun(0 if lecturer else max(0.0, 1.0 - (time.perf_counter() - self.last_run))))

    async def _rerun(self, delay: float) -> None:
        """The browser's feed: a run for a lecturer's move at once, for answers at most once a second."""
        self.running = True
        try:
            await asyncio.sleep(delay)
            self.last_run = time.perf_counter()
            with contextlib.suppress(Exception):
                await self.tab.trigger("classfeed", None)
        finally:
            self.running = False

    def complete_after(self, total: int, last_ack: float) -> float | None:
        """Seconds from the last acknowledged answer until the projector first showed ``total`` answers."""
        seen = next((t for t, count in self.counted if count >= total), None)
        return None if seen is None else max(0.0, seen - last_ack)

    async def close(self) -> None:
        self.stop.set()
        await self.tab.close()


# --- processes -----------------------------------------------------------------------------------------------------

def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def children(parent: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == parent:
                    found.append(int(entry.name))
    return found


def replica_pids(process: subprocess.Popen) -> list[int]:
    return sorted(pid for pid in children(process.pid) if b"streamlit" in Path(f"/proc/{pid}/cmdline").read_bytes())


class Meter:
    """CPU % of the app processes (100 = one core) and of this client, between two moments."""

    def __init__(self, pids: list[int]) -> None:
        self.pids = pids
        self.start = (time.perf_counter(), {pid: cpu_seconds(pid) for pid in pids}, os.times())

    def read(self) -> dict:
        began, before, client = self.start
        seconds = time.perf_counter() - began
        now = os.times()
        per = []
        for pid in self.pids:
            with contextlib.suppress(OSError):
                per.append(100 * (cpu_seconds(pid) - before[pid]) / seconds)
        mine = 100 * ((now.user - client.user) + (now.system - client.system)) / seconds
        return {"seconds": seconds, "replicas": per, "client": mine}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_healthy(base: str, timeout: float = 180, process: subprocess.Popen | None = None) -> None:
    deadline = time.monotonic() + timeout
    while True:
        with contextlib.suppress(OSError), urllib.request.urlopen(f"{base}/_stcore/health", timeout=2) as response:
            if response.status == 200:
                return
        if (process is not None and process.poll() is not None) or time.monotonic() > deadline:
            sys.exit(f"bench/class_load.py: {base} did not start")
        time.sleep(0.5)


@contextlib.contextmanager
def cluster(app_root: Path, replicas: int, database: str):
    """``deploy/run-local`` of ``app_root`` on a free port with ``--class-db database``; yields (url, process)."""
    port = free_port()
    process = subprocess.Popen([sys.executable, str(app_root / "deploy" / "run-local"), "--replicas", str(replicas),
                                "--port", str(port), "--class-db", database], cwd=app_root,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
                               env={**os.environ, "PYTHONPATH": str(app_root)})
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, process=process)
        deadline = time.monotonic() + 60
        while len(replica_pids(process)) < replicas and time.monotonic() < deadline:
            time.sleep(0.5)
        yield url, process
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=30)


@contextlib.contextmanager
def postgres():
    """A throwaway PostgreSQL server (Debian's binaries, as tests/classroom/conftest.py starts one): its URL."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
    if not found:
        sys.exit("bench/class_load.py: PostgreSQL's binaries are not installed (apt-get install -y postgresql)")
    folder = found[-1].parent
    data = Path(tempfile.mkdtemp(prefix="irlab-bench-pg-"))
    as_server = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    if os.geteuid() == 0:
        shutil.chown(data, "postgres", "postgres")
    port = free_port()
    subprocess.run([*as_server, str(folder / "initdb"), "-D", str(data / "db"), "-A", "trust", "-U", PG_USER,
                    "--no-sync"], check=True, capture_output=True)
    subprocess.run([*as_server, str(folder / "pg_ctl"), "-D", str(data / "db"), "-l", str(data / "log"), "-w", "-o",
                    f"-p {port} -k {data} -c listen_addresses=127.0.0.1 -c max_connections=300", "start"],
                   check=True, capture_output=True)
    try:
        server = f"postgresql+psycopg://{PG_USER}@127.0.0.1:{port}"
        admin = create_engine(f"{server}/postgres", isolation_level="AUTOCOMMIT")
        with admin.connect() as connection:
            connection.execute(text('CREATE DATABASE "irlab_bench"'))
        admin.dispose()
        yield f"{server}/irlab_bench"
    finally:
        subprocess.run([*as_server, str(folder / "pg_ctl"), "-D", str(data / "db"), "-m", "immediate", "stop"],
                       capture_output=True)
        shutil.rmtree(data, ignore_errors=True)


# --- the lecturer's side: the app root's own store, in a process of its own ----------------------------------------

LECTURER = r'''
import json, sys
from irlab.classroom import ClassStore
from irlab.classroom.activities.predict import predict_settings
from irlab.walkthrough.chapters import chapter
from irlab.walkthrough.state import DEFAULT_STATE
store = ClassStore(sys.argv[1])
for line in sys.stdin:
    command = json.loads(line)
    try:
        if command["do"] == "start":
            new = store.start_class()
            answer = {"code": new.code, "key": new.key}
        else:
            desk = store.lecturer(command["code"], command["key"])
            if command["do"] == "show":
                info = desk.add_activity("predict", predict_settings(DEFAULT_STATE, chapter("ndcg"), "nDCG@K"))
                desk.show(info.id)
                answer = {"id": info.id}
            elif command["do"] == "stored":
                view = desk.projector()
                answer = {"answers": [r.answers for r in view.current.rounds] if view.current else [],
                          "students": view.students}
            elif command["do"] == "delete":
                desk.delete_class()
                answer = {}
    except Exception as error:
        answer = {"error": repr(error)}
    print(json.dumps(answer), flush=True)
'''


class Desk:
    """The lecturer's store calls, made by the app root's own code (its store and schema) in a child process."""

    def __init__(self, app_root: Path, database: str) -> None:
        self.process = subprocess.Popen([sys.executable, "-c", LECTURER, database], cwd=app_root, text=True,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        env={**os.environ, "PYTHONPATH": str(app_root)})
        self.lock = threading.Lock()

    def call(self, **command) -> dict:
        with self.lock:
            self.process.stdin.write(json.dumps(command) + "\n")
            self.process.stdin.flush()
            answer = json.loads(self.process.stdout.readline())
        if "error" in answer:
            raise RuntimeError(answer["error"])
        return answer

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=30)


# --- the phases ----------------------------------------------------------------------------------------------------

async def class_under_load(url: str, process: subprocess.Popen, database: str, app_root: Path,
                           args: argparse.Namespace) -> dict:
    stats = Stats()
    desk = Desk(app_root, database)
    new = desk.call(do="start")
    pids = replica_pids(process)
    row: dict = {"students": args.students}
    meter = Meter(pids)
    await asyncio.sleep(args.baseline)
    row["baseline"] = meter.read()

    projector = Projector(url, new["code"], new["key"], stats)
    await projector.open()
    students = [Student(url, new["code"], n, stats, {}) for n in range(args.students)]

    async def joined(student: Student) -> None:
        await asyncio.sleep(args.ramp * student.number / max(1, args.students))
        try:
            await student.join()
        except Exception as error:  # noqa: BLE001
            stats.error("join", f"student {student.number}: {type(error).__name__}: {error}")

    started = time.perf_counter()
    await asyncio.gather(*(joined(s) for s in students))
    row.update(joined=sum(s.tab.token is not None for s in students), join_seconds=time.perf_counter() - started,
               join_p95=pct(stats.join_ack, 95), pushed=students[0].pushed)

    if "idle" in args.phases:
        await asyncio.sleep(3)
        runs = stats.runs
        meter = Meter(pids)
        await asyncio.sleep(args.idle)
        row["idle"] = meter.read()
        row["idle_runs_per_s"] = (stats.runs - runs) / row["idle"]["seconds"]

    for phase in [p for p in ("answer", "failover") if p in args.phases]:
        number = 1 if phase == "answer" else 2
        meter, runs = Meter(pids), stats.runs
        shown_at = time.perf_counter()
        await asyncio.to_thread(desk.call, do="show", code=new["code"], key=new["key"])
        tasks = [background(s.answer_question(phase, args.window, shown_at, number)) for s in students
                 if s.tab.token is not None]
        if phase == "failover":
            await asyncio.sleep(args.window / 3)
            victim = replica_pids(process)[0]
            died_at = time.perf_counter()
            os.kill(victim, signal.SIGKILL)
            background(_bring_back(students, died_at))
        await asyncio.wait(tasks, timeout=args.window + 180)
        await asyncio.sleep(3)
        row[f"{phase}_cpu"] = meter.read()
        row[f"{phase}_runs"] = stats.runs - runs
        mine = [a for s in students for a in s.answers if a.phase == phase]
        acked = [a for a in mine if a.acked is not None]
        stored = await asyncio.to_thread(desk.call, do="stored", code=new["code"], key=new["key"])
        total = stored["answers"][-1] if stored["answers"] else 0
        last = max((a.acked for a in acked), default=None)
        row[phase] = {
            "sent": len(mine), "acked": len(acked), "stored": total, "lost": len(acked) - total,
            "ack_p50": pct([a.acked - a.sent for a in acked], 50),
            "ack_p95": pct([a.acked - a.sent for a in acked], 95),
            "resent": sum(a.tries > 1 for a in mine),
            "seen_p50": pct([s.seen[phase] for s in students if phase in s.seen], 50),
            "seen_p95": pct([s.seen[phase] for s in students if phase in s.seen], 95),
            "complete": projector.complete_after(total, last) if last is not None else None}
        if phase == "failover":
            back = [t for s in students for t in s.back]
            row[phase].update(back=len(back), back_p95=pct(back, 95))
    row.update(errors=dict(stats.errors), examples=stats.examples)
    for student in students:
        await student.close()
    await projector.close()
    with contextlib.suppress(Exception):
        desk.call(do="delete", code=new["code"], key=new["key"])
    desk.close()
    return row


async def _bring_back(students: list[Student], died_at: float) -> None:
    """Every student whose websocket died reconnects, as the browser does by itself."""
    await asyncio.sleep(0.5)
    await asyncio.gather(*(s.comeback(died_at) for s in students if s.tab.died.is_set()))


async def hostile(url: str, code: str, *, classmates: int = 20, script_seconds: float = 30.0) -> dict:
    """One student's wrong codes, then classmates on other addresses; one browser's seats."""
    stats = Stats()

    async def join_from(source: str, typed: str, cookies: dict | None = None) -> tuple[str | None, list[str]]:
        tab = Tab(url, f"/join?code={code}", stats, f"tab from {source}", source=source, cookies=cookies)
        try:
            await tab.open()
            if tab.token is not None:  # the page found this browser's seat by itself
                return tab.token, []
            texts = await tab.press([("Join code", "string_value", typed), ("Join", "trigger_value", True)])
            feed = tab.components.get("classfeed")
            if tab.token is not None and feed is not None:  # the page's feed opens its stream, as in a browser
                await stream_head(url, feed[2]["events"], tab.cookies, source=source)
            return tab.token, texts
        finally:
            await tab.close()

    wrong = "ABCDEF" if code != "ABCDEF" else "BCDEFG"
    for _ in range(10):
        await join_from("127.0.0.2", wrong)
    attacker, said = await join_from("127.0.0.2", code)
    locked = 0
    for n in range(classmates):
        token, _ = await join_from(f"127.0.0.{3 + n}", code)
        locked += token is None
    browser: dict = {}
    seats = {(await join_from("127.0.0.250", code, browser))[0] for _ in range(3)}
    scripted = 0
    deadline = time.perf_counter() + script_seconds

    async def script(worker: int) -> None:  # a script making up students, as fast as the class lets it
        nonlocal scripted
        while time.perf_counter() < deadline:
            with contextlib.suppress(Exception):
                token, _ = await join_from(f"127.0.1.{worker + 1}", code)
                scripted += token is not None
    await asyncio.gather(*(script(n) for n in range(8)))
    return {"attacker_blocked": attacker is None, "attacker_told": said[:1], "classmates": classmates,
            "locked_out": locked, "seats_per_browser": len({s for s in seats if s}),
            "scripted": scripted, "script_seconds": script_seconds}


@contextlib.contextmanager
def compose_like(app_root: Path, database: str, trusted: bool):
    """Two replicas on this machine's network address behind the compose proxy's nginx configuration (its peer the
    proxy, as in Docker); ``trusted``: the replicas are told the proxy's address (compose.yaml's
    IRLAB_TRUSTED_PROXIES). Yields the proxy's URL."""
    sys.path.insert(0, str(ROOT))
    from irlab.ui.classroom.links import network_ip

    address = network_ip()
    if address is None:
        yield None
        return
    processes, upstreams = [], []
    env = {**os.environ, "IRLAB_CLASS_DB": database, "PYTHONPATH": str(app_root)}
    env.pop("IRLAB_TRUSTED_PROXIES", None)
    if trusted:
        env["IRLAB_TRUSTED_PROXIES"] = address
    folder = Path(tempfile.mkdtemp(prefix="irlab-bench-proxy-"))
    try:
        for _ in range(2):
            port = free_port()
            processes.append(subprocess.Popen([sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless",
                                               "true", "--server.port", str(port), "--server.address", address,
                                               "--server.fileWatcherType", "none"], cwd=app_root, env=env,
                                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                              start_new_session=True))
            upstreams.append(f"{address}:{port}")
        for upstream in upstreams:
            wait_healthy(f"http://{upstream}")
        proxy_port = free_port()
        entrypoint = app_root / "deploy" / "proxy-entrypoint"
        proxy = subprocess.Popen([sys.executable, "-c", (
            "import sys, threading; sys.path.insert(0, sys.argv[1]);"
            "import importlib.machinery as m; e = m.SourceFileLoader('e', sys.argv[2]).load_module();"
            "e.supervise(lambda: sys.argv[3].split(','), __import__('pathlib').Path(sys.argv[4]), sys.argv[5],"
            " sys.argv[6], 1.0, threading.Event())"),
            str(app_root / "deploy"), str(entrypoint), ",".join(upstreams), str(folder), f"127.0.0.1:{proxy_port}",
            shutil.which("nginx") or "/usr/sbin/nginx"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True)
        processes.append(proxy)
        wait_healthy(f"http://127.0.0.1:{proxy_port}")
        yield f"http://127.0.0.1:{proxy_port}"
    finally:
        for process in processes:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
        for process in processes:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=20)
        shutil.rmtree(folder, ignore_errors=True)


def compose_trusts(app_root: Path) -> bool:
    """Whether the checkout's compose.yaml names its proxy as the app's trusted proxy."""
    compose = app_root / "deploy" / "compose.yaml"
    return compose.is_file() and "IRLAB_TRUSTED_PROXIES" in compose.read_text()


# --- the report ----------------------------------------------------------------------------------------------------

def ms(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds * 1000:.0f}"


def cpu(reading: dict | None) -> str:
    return "-" if not reading else " / ".join(f"{v:.1f}%" for v in reading["replicas"])


def tables(rows: dict[str, dict]) -> str:
    out = ["| run | joined | idle: CPU per replica | idle: runs/s | answers sent / acked / stored / lost | "
           "ack p50 / p95 ms | projector complete after the last ms | question seen p95 ms | "
           "CPU per replica, answering | client CPU idle |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    for name, row in rows.items():
        if "joined" not in row:
            continue
        a = row.get("answer", {})
        client = f"{row['idle']['client']:.0f}%" if row.get("idle") else "-"
        out.append(f"| {name} | {row['joined']}/{row['students']} | {cpu(row.get('idle'))} | "
                   f"{row.get('idle_runs_per_s', 0):.1f} | {a.get('sent', '-')} / {a.get('acked', '-')} / "
                   f"{a.get('stored', '-')} / {a.get('lost', '-')} | {ms(a.get('ack_p50'))} / {ms(a.get('ack_p95'))} | "
                   f"{ms(a.get('complete'))} | {ms(a.get('seen_p95'))} | {cpu(row.get('answer_cpu'))} | {client} |")
    out += ["", "| run | failover: sent / acked / stored / lost | ack p50 / p95 ms | answers sent again | "
                "pages back / p95 s | errors |", "|---|---|---|---|---|---|"]
    for name, row in rows.items():
        f = row.get("failover")
        if f:
            back = "-" if f["back_p95"] is None else f"{f['back_p95']:.1f}"
            out.append(f"| {name} | {f['sent']} / {f['acked']} / {f['stored']} / {f['lost']} | {ms(f['ack_p50'])} / "
                       f"{ms(f['ack_p95'])} | {f['resent']} | {f['back']} / {back} | {row.get('errors')} |")
    out += ["", "| run | attacker blocked after 10 wrong codes | classmates locked out | seats per browser (3 tabs) | "
                "students a script made up in 30 s |", "|---|---|---|---|---|"]
    for name, row in rows.items():
        for where in ("hostile", "hostile_compose"):
            h = row.get(where)
            if h:
                out.append(f"| {name} ({'run-local' if where == 'hostile' else 'compose proxy'}) | "
                           f"{'yes' if h['attacker_blocked'] else 'no'} | {h['locked_out']} of {h['classmates']} | "
                           f"{h['seats_per_browser']} | {h['scripted']} |")
    return "\n".join(out)


async def hostile_run(url: str, app_root: Path, database: str) -> dict:
    desk = Desk(app_root, database)
    new = desk.call(do="start")
    try:
        return await hostile(url, new["code"])
    finally:
        desk.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=500)
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--replicas", type=int, default=2)
    parser.add_argument("--phases", default="idle,answer,failover,hostile")
    parser.add_argument("--app-root", type=Path, default=ROOT)
    parser.add_argument("--label", default="")
    parser.add_argument("--ramp", type=float, default=120.0, help="seconds over which the students join")
    parser.add_argument("--idle", type=float, default=30.0)
    parser.add_argument("--window", type=float, default=30.0)
    parser.add_argument("--baseline", type=float, default=3.0)
    parser.add_argument("--json-out", default=None)
    args = parser.parse_args()
    args.phases = set(args.phases.split(","))
    label = args.label or ("this checkout" if args.app_root.resolve() == ROOT else str(args.app_root))
    rows: dict[str, dict] = {}
    for name in args.databases.split(","):
        key = f"{label}, {name}"
        with contextlib.ExitStack() as stack:
            database = (stack.enter_context(postgres()) if name == "postgresql"
                        else f"sqlite:///{stack.enter_context(tempfile.TemporaryDirectory())}/classes.sqlite")
            url, process = stack.enter_context(cluster(args.app_root.resolve(), args.replicas, database))
            print(f"--- {key}: {args.students} students, run-local --replicas {args.replicas} at {url}", flush=True)
            if args.phases & {"idle", "answer", "failover"}:
                rows[key] = asyncio.run(class_under_load(url, process, database, args.app_root.resolve(), args))
            else:
                rows[key] = {}
            if "hostile" in args.phases:
                rows[key]["hostile"] = asyncio.run(hostile_run(url, args.app_root.resolve(), database))
        if "hostile" in args.phases and name == "sqlite":
            database = f"sqlite:///{tempfile.mkdtemp()}/classes.sqlite"
            with compose_like(args.app_root.resolve(), database, compose_trusts(args.app_root)) as proxy_url:
                if proxy_url:
                    rows[key]["hostile_compose"] = asyncio.run(hostile_run(proxy_url, args.app_root.resolve(),
                                                                           database))
        print(json.dumps(rows[key], default=str)[:3000], flush=True)
    print("\n" + tables(rows))
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(rows, indent=1, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
