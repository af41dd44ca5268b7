"""One browser tab of IR Lab's walkthrough, spoken at the level of Streamlit's websocket protocol (no browser).

What the frontend does, read from Streamlit 1.67's server and static code: GET the page, the health
check (which sets the XSRF cookie) and host-config, open ``/_stcore/stream`` with the ``streamlit``
subprotocol and the cookie's value, send a ``rerun_script`` (ClientState) per run, keep every
cacheable ForwardMsg by its hash and name them in the next ``rerun_script`` (the server then sends
``ref_hash`` for unchanged large elements), resolve each ``ref_hash``, and a run ends with
``script_finished``. Widget values travel in ``widget_states``: a slider as ``double_array_value``, a
components-v2 component's state (all its names) as one ``json_value``; a run started from inside a
fragment names the fragment (``fragment_id``).

:class:`Tab` knows the walkthrough's three generations (bench/load.py drives all three in one run):

* ``slider``: K is Streamlit's slider (commit 0b47de8), tile moves are the region's ``change``;
* ``slider+ahead``: the same, and the region also asks for a tile's moves before a drop (4820b77);
* ``region``: the region draws K and its controls; coming to the K slider asks for the K form
  (``kform``) unless the tab holds it, a K change is the settled K (``k``), a tile move is ``change``
  named from the screen the browser holds, after asking for the tile's ``moves``;
* ``region+settle``: the same, but the settled K is no message and no run: it is posted to
  ``/_irlab/region/settle`` (irlab/ui/walkthrough/settle.py) with the sticky cookie nginx set on the websocket's
  handshake (so it reaches the replica that holds the session), and a 404 falls back to the ``k`` message.

Each run records its bytes and messages received and its time from send to ``script_finished`` (a settle
request: the response's status line, headers and body, and its round trip).
"""

from __future__ import annotations

import asyncio
import json
import random
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from typing import Any

import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from irlab.ui.components.region.patch import apply_patch

FINISHED = {0, 3}  # FINISHED_SUCCESSFULLY, FINISHED_FRAGMENT_RUN_SUCCESSFULLY
EARLY = 2  # FINISHED_EARLY_FOR_RERUN: an st.rerun(), the server goes on by itself
K_LABEL = "K: results returned"
ROW = "tiles-main"


@dataclass
class Run:
    """One run this tab asked for."""

    kind: str
    seconds: float = 0.0
    bytes: int = 0
    messages: int = 0
    error: str | None = None


@dataclass
class Tab:
    """One student's tab on one page (``ndcg``): open it, then change K, ask for a tile's moves, move a tile."""

    base: str
    page: str = "ndcg"
    seed: int = 0
    ws: Any = None
    cache: dict[str, bytes] = field(default_factory=dict)
    page_hash: str = ""
    query: str = ""
    widgets: dict[str, tuple[str, Any]] = field(default_factory=dict)
    region_id: str = ""
    region_state: dict[str, Any] = field(default_factory=dict)
    fragment: str = ""
    slider_id: str = ""
    data: dict[str, Any] = field(default_factory=dict)
    blocks: list[dict[str, Any]] | None = None
    screen: str = ""
    k: int = 2
    seq: int = 0
    form_screen: str = ""
    asked_form: str = ""
    quiet_until: float = 0.0
    generation: str = ""
    cookie: str = ""
    settle: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    # --- the connection -------------------------------------------------------------------------------------------

    async def open(self) -> Run:
        loop = asyncio.get_running_loop()

        def get(path: str, cookie: str | None = None) -> list[str]:
            request = urllib.request.Request(self.base + path, headers={"Cookie": cookie} if cookie else {})
            with urllib.request.urlopen(request, timeout=30) as response:
                response.read()
                return [v for k, v in response.getheaders() if k.lower() == "set-cookie"]

        await loop.run_in_executor(None, get, f"/{self.page}")
        cookies = await loop.run_in_executor(None, get, "/_stcore/health")
        xsrf = next((c.split(";", 1)[0].split("=", 1)[1] for c in cookies if c.startswith("_streamlit_xsrf=")), None)
        cookie = f"_streamlit_xsrf={xsrf}" if xsrf else None
        await loop.run_in_executor(None, get, "/_stcore/host-config", cookie)
        self.ws = await websockets.connect(
            self.base.replace("http", "ws", 1) + "/_stcore/stream", subprotocols=["streamlit", xsrf or "x"],
            origin=self.base, max_size=None, ping_interval=None, open_timeout=60,
            additional_headers={"Cookie": cookie} if cookie else {})
        # the replica that holds this session, as nginx names it (irlab_route): a settle request must reach it
        route = [value.split(";", 1)[0] for value in self.ws.response.headers.get_all("Set-Cookie")
                 if value.startswith("irlab_route=")]
        self.cookie = "; ".join([*([cookie] if cookie else []), *route])
        run = await self._run("open", first=True)
        if self.region_id == "":
            run.error = run.error or "no live region"
        self.generation = ("region+settle" if "settle" in self.data else "region" if "controls" in self.data else
                           "slider+ahead" if "screen" in self.data else "slider")
        if self.generation == "region+settle":
            self.settle = dict(self.data["settle"])
        return run

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()

    def _back(self, first: bool) -> bytes:
        msg = BackMsg()
        state = msg.rerun_script
        state.query_string = self.query
        state.page_script_hash = "" if first else self.page_hash
        state.page_name = self.page if first else ""
        state.widget_states.SetInParent()
        for wid, (kind, value) in self.widgets.items():
            widget = state.widget_states.widgets.add()
            widget.id = wid
            if kind == "double_array_value":
                widget.double_array_value.data.extend(value)
            else:
                setattr(widget, kind, value)
        if not first and self.fragment:
            state.fragment_id = self.fragment
        state.cached_message_hashes.extend(self.cache)
        info = state.context_info
        info.timezone, info.locale, info.url = "Europe/Amsterdam", "en-US", f"{self.base}/{self.page}?{self.query}"
        return msg.SerializeToString()

    async def _run(self, kind: str, first: bool = False, timeout: float = 60.0) -> Run:
        run = Run(kind)
        start = time.perf_counter()
        await self.ws.send(self._back(first))
        try:
            while True:
                raw = await asyncio.wait_for(self.ws.recv(), timeout)
                run.bytes += len(raw)
                run.messages += 1
                msg = ForwardMsg()
                msg.ParseFromString(raw)
                if msg.WhichOneof("type") == "ref_hash":
                    if msg.ref_hash not in self.cache:
                        run.error = "unknown ref_hash"
                        continue
                    cached = ForwardMsg()
                    cached.ParseFromString(self.cache[msg.ref_hash])
                    msg = cached
                elif msg.metadata.cacheable:
                    self.cache[msg.hash] = raw
                if self._take(msg, run):
                    break
        except (TimeoutError, websockets.ConnectionClosed) as error:
            run.error = f"{type(error).__name__}"
        run.seconds = time.perf_counter() - start
        return run

    def _take(self, msg: ForwardMsg, run: Run) -> bool:
        """Read one message; True when the run is over."""
        which = msg.WhichOneof("type")
        if which == "new_session":
            self.page_hash = msg.new_session.page_script_hash or self.page_hash
        elif which == "navigation":
            self.page_hash = msg.navigation.page_script_hash or self.page_hash
        elif which == "page_info_changed":
            self.query = msg.page_info_changed.query_string
        elif which == "page_not_found":
            run.error = "page not found"
        elif which == "delta" and msg.delta.WhichOneof("type") == "new_element":
            element = msg.delta.new_element
            kind = element.WhichOneof("type")
            if kind == "exception":
                run.error = f"exception: {element.exception.message[:200]}"
            elif kind == "slider" and element.slider.label == K_LABEL:
                self.slider_id, self.fragment = element.slider.id, msg.delta.fragment_id or self.fragment
                self.widgets.setdefault(self.slider_id, ("double_array_value", list(element.slider.value)))
            elif kind == "bidi_component" and element.bidi_component.component_name == "irlab.region":
                self.region_id, self.fragment = element.bidi_component.id, msg.delta.fragment_id or self.fragment
                self._region(json.loads(element.bidi_component.json))
        elif which == "script_finished":
            status = msg.script_finished
            if status == EARLY:
                return False
            if status not in FINISHED:
                run.error = f"script_finished {status}"
            return True
        return False

    def _region(self, data: dict[str, Any]) -> None:
        """What the region received: keep its screen (applying a patch), as region.js does."""
        self.data = data
        if "blocks" in data:
            self.blocks, self.screen = data["blocks"], data.get("screen", "")
        elif "patch" in data and self.blocks is not None:
            self.blocks, self.screen = apply_patch(self.blocks, data["patch"]), data["screen"]
        if isinstance(data.get("k"), int):
            self.k = data["k"]
        if isinstance(data.get("kForm"), dict):
            self.form_screen = data["kForm"].get("screen", "")
        if isinstance(data.get("busy"), (int, float)):  # the server had no CPU to spare: ask nothing ahead for a while
            self.quiet_until = time.monotonic() + data["busy"]

    # --- what a learner does --------------------------------------------------------------------------------------

    def _send_state(self, name: str, value: dict[str, Any]) -> None:
        self.seq += 1
        extra = {"n": self.seq, "form": self.has_form()} if self.generation.startswith("region") else {}
        self.region_state[name] = {"seq": self.seq, **value, **extra}
        self.widgets[self.region_id] = ("json_value", json.dumps(self.region_state))

    def has_form(self) -> bool:
        """Whether the tab holds the K form of its screen (this tree's region)."""
        return self.form_screen == self.screen != ""

    def order(self) -> list[str]:
        """The main tile row's order on the screen held."""
        def find(blocks: list[dict[str, Any]]) -> dict[str, Any] | None:
            for block in blocks:
                if block.get("kind") == "tiles" and block.get("key") == ROW:
                    return block
                inside = find(block.get("children", []))
                if inside:
                    return inside
            return None

        row = find(self.blocks or [])
        return [str(tile["id"]) for tile in row["data"]["tiles"]] if row else []

    async def approach_k(self) -> Run | None:
        """The learner comes to the K slider: this tree's region asks for the K form unless it holds it."""
        # as region.js: once per screen (a busy server may answer without it: the K then goes by a message)
        if (not self.generation.startswith("region") or self.has_form() or self.asked_form == self.screen
                or time.monotonic() < self.quiet_until):
            return None
        self.asked_form = self.screen
        self._send_state("kform", {"screen": self.screen, "k": self.k})
        return await self._run("K approach (K form asked)")

    async def change_k(self) -> Run:
        """The learner moves K to another value (the browser draws it; the server learns the settled K)."""
        k = self.rng.choice([value for value in range(1, 9) if value != self.k])
        if self.generation == "region+settle" and self.has_form():  # drawn in the browser: posted, no run
            self.k = k
            run = await self._settle(k)
            if run.error != "404":
                return run
            self._send_state("k", {"k": k, "screen": self.screen})  # another replica: a message, as region.js does
        elif self.generation.startswith("region"):  # a K the browser could not draw: a message, the run draws it
            self._send_state("k", {"k": k, "screen": self.screen})
        else:
            self.widgets[self.slider_id] = ("double_array_value", [float(k)])
        self.k = k
        return await self._run("K change")

    def pick_move(self) -> tuple[str, list[str]]:
        order = self.order()
        item = self.rng.choice(order)
        rest = [other for other in order if other != item]
        rank = self.rng.choice([r for r in range(len(order)) if r != order.index(item)])
        rest.insert(rank, item)
        return item, rest

    async def ask_moves(self, item: str) -> Run | None:
        """The learner comes to a tile: the browser asks for its moves (generations that draw moves ahead)."""
        if self.generation == "slider" or time.monotonic() < self.quiet_until:
            return None
        extra = {"k": self.k} if self.generation.startswith("region") else {}
        self._send_state("moves", {"screen": self.screen, "row": ROW, "item": item, **extra})
        return await self._run("tile approach (moves asked)")

    async def move(self, item: str, order: list[str]) -> Run:
        """The learner drops a tile at another rank."""
        change = {"order": order, "grades": None, "action": "drag", "item": item, "row": ROW}
        if self.generation != "slider":
            change |= {"ahead": False}
        if self.generation.startswith("region"):
            change |= {"screen": self.screen, "k": self.k}
        self._send_state("change", change)
        return await self._run("tile move")

    async def _settle(self, k: int) -> Run:
        """POST the settled K as region.js does (its number is the next message's); 204 is taken, else an error. The
        request is written on a connection of its own by this event loop (a thread pool would queue a class's posts
        behind each other and time the queue)."""
        self.seq += 1
        body = json.dumps({"token": self.settle["token"], "k": k, "n": self.seq,
                           "chapter": self.settle["chapter"]}).encode()
        parts = urllib.parse.urlsplit(self.base)
        path = "/" + self.settle["url"].lstrip("/")  # the route's path names the base path already
        head = (f"POST {path} HTTP/1.1\r\nHost: {parts.netloc}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\nConnection: close\r\n"
                + (f"Cookie: {self.cookie}\r\n" if self.cookie else "") + "\r\n").encode()
        run = Run("K change")
        start = time.perf_counter()
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(parts.hostname, parts.port or 80), 30)
            writer.write(head + body)
            answer = await asyncio.wait_for(reader.read(), 30)  # the server closes the connection after its answer
            writer.close()
        except (OSError, TimeoutError) as error:
            run.error = f"{type(error).__name__}"
            return run
        run.seconds, run.bytes = time.perf_counter() - start, len(answer)
        status = answer.split(b" ", 2)[1].decode() if answer.startswith(b"HTTP/") else "no answer"
        if status != "204":
            run.error = status
        return run
