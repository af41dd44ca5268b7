"""A live class under load: 200 students join one class through ``deploy/run-local --replicas 2`` and answer a
predict question within 30 s while the projector polls; with SQLite and with PostgreSQL.

    python bench/class_load.py [--students 200] [--databases sqlite,postgresql] [--replicas 2]
                               [--idle 20] [--window 30] [--loadtest PATH]

Students are simulated at the protocol level: each is one websocket session speaking Streamlit's own
protocol, as the browser does (the protobufs, the page load and the handshake come from the shared
generator ``loadtest.py``, found with ``--loadtest``, ``$IRLAB_LOADTEST`` or at
``../shared/tools/loadtest.py``; it is imported, not copied). What a student does:

1. opens ``/join?code=CODE`` and presses Join (the code is in the link, as from the QR code);
2. waits: the page's poll fragment reruns every 2 s, as the browser's timer asks it to (``auto_rerun``);
3. when the lecturer shows the question, its poll reruns the page, which draws the answer form; the student
   types a number and presses Send at a random moment within ``--window`` seconds.

The lecturer's class and question are made through the store (the desk's own calls); the projector is a
real session on ``/class?code=...&key=...`` whose fragment polls like the browser's, and whose count of
answers ("Answers, round 1" in the live region) is read at every poll.

Phases and what is measured (every app process's CPU from /proc, 100 % = one core):

* **baseline**: the replicas with no session, a few seconds;
* **join**: every student joins (spread over ``--ramp`` s); ack = Join pressed -> the run that took it ended;
* **idle**: ``--idle`` seconds of every student and the projector polling: CPU per process, CPU per idle
  student, and CPU ms per poll (CPU used / polls answered);
* **answer**: the question is shown (seen = until a student's page shows it: their poll, then a rerun of the
  page); ack = Send pressed -> the run that stored it ended (its "Answer received"), also for the answers sent
  after the first :data:`HERD` seconds, in which every page reruns at once;
  visible = Send pressed -> the projector's count first includes it (answers sorted by their ack: the j-th
  acknowledged answer is visible once the count reaches j);
* **lost answers**: answers acknowledged minus answers in the database (must be 0); errors: any refused
  answer, exception element, disconnect or run that did not finish.

Not a test: timings depend on the machine and on what else runs on it (say so next to the numbers).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib.util
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sqlalchemy import create_engine, text  # noqa: E402

from irlab.classroom import ClassStore  # noqa: E402
from irlab.classroom.activities.predict import predict_settings  # noqa: E402
from irlab.walkthrough.chapters import chapter  # noqa: E402
from irlab.walkthrough.state import DEFAULT_STATE  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")
FINISHED, EARLY, FRAGMENT_DONE = 0, 2, 3
"""``script_finished`` statuses: a whole run, a run stopped for a rerun, a fragment's run."""
PG_USER = "irlab"
ANSWERS = "Answers, round 1"
HERD = 5.0
"""Seconds after the question opens in which every student's page reruns to show it (their polls are 2 s apart);
answers sent later are also reported on their own."""


# --- the shared load generator's protocol pieces ---------------------------------------------------------------------

def load_generator(given: str | None):
    """The module ``loadtest.py`` (its protobuf classes, page load and websocket options), imported from its path."""
    for candidate in (given, os.environ.get("IRLAB_LOADTEST"), ROOT.parent / "shared" / "tools" / "loadtest.py"):
        if candidate and Path(candidate).is_file():
            spec = importlib.util.spec_from_file_location("loadtest", candidate)
            module = importlib.util.module_from_spec(spec)
            sys.modules["loadtest"] = module  # its dataclasses look their module up
            spec.loader.exec_module(module)
            return module
    sys.exit("bench/class_load.py: loadtest.py not found; pass --loadtest PATH or set IRLAB_LOADTEST")


LT = None
"""The loaded generator (set in main)."""


def pct(values: list[float], p: float) -> float | None:
    return LT.pct(values, p)


# --- one session ------------------------------------------------------------------------------------------------------

@dataclass
class Stats:
    join_ack: list[float] = field(default_factory=list)
    answer_ack: list[float] = field(default_factory=list)
    answers: list[tuple[float, float]] = field(default_factory=list)  # (sent, acknowledged), perf_counter
    shown_at: float = 0.0  # when the lecturer showed the question
    question_seen: list[float] = field(default_factory=list)  # seconds until a student's page showed it
    polls: int = 0
    full_reruns: int = 0
    errors: Counter = field(default_factory=Counter)
    examples: list[str] = field(default_factory=list)
    replicas: Counter = field(default_factory=Counter)

    def error(self, kind: str, detail: str = "") -> None:
        self.errors[kind] += 1
        if len(self.examples) < 8:
            self.examples.append(f"{kind}: {detail}"[:300])


class Session:
    """One browser tab on the app: its websocket, its page's widgets, its poll fragments, the runs it waits for."""

    def __init__(self, base: str, path: str, stats: Stats, name: str) -> None:
        self.base, self.stats, self.name = base, stats, name
        parts = urllib.parse.urlsplit(path)
        self.page, self.query = parts.path.strip("/"), parts.query
        self.page_hash = ""
        self.ws = None
        self.reader: asyncio.Task | None = None
        self.pollers: dict[str, asyncio.Task] = {}
        self.waiting: asyncio.Future | None = None
        self.run_texts: list[str] = []
        self.widgets: dict[str, str] = {}  # label -> widget id (text inputs, buttons)
        self.fragments: dict[str, str] = {}  # widget id -> the fragment it was drawn in ("" for the page)
        self.blocks: list[dict] = []  # the live region's blocks of the last run
        self.on_region = None  # callback(blocks) for the projector
        self.closing = False
        self.busy = asyncio.Lock()  # one run at a time, as the browser's queue does

    async def open(self) -> float:
        """Page load, pings, websocket, first run; the seconds it took."""
        loop = asyncio.get_running_loop()
        start = time.perf_counter()
        url = f"{self.base}/{self.page}" + (f"?{self.query}" if self.query else "")
        await loop.run_in_executor(None, LT._http_get, url)
        _, cookies = await loop.run_in_executor(None, LT._http_get, f"{self.base}/_stcore/health")
        xsrf = LT._cookie_value(cookies, "_streamlit_xsrf")
        cookie = f"_streamlit_xsrf={xsrf}" if xsrf else None
        ws_url = self.base.replace("http", "ws", 1) + "/_stcore/stream"
        self.ws = await LT.ws_connect(ws_url, subprotocols=["streamlit", xsrf or "PLACEHOLDER_AUTH_TOKEN"],
                                      origin=self.base, max_size=None, ping_interval=None, open_timeout=60,
                                      **{LT._WS_HEADERS_ARG: {"Cookie": cookie} if cookie else {}})
        with contextlib.suppress(Exception):
            self.stats.replicas[self.ws.response.headers.get("X-IRLab-Replica", "?").split(",")[-1].strip()] += 1
        self.reader = asyncio.create_task(self._read())
        await self.run(first=True)
        return time.perf_counter() - start

    async def close(self) -> None:
        self.closing = True
        for task in self.pollers.values():
            task.cancel()
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), 5)
        if self.reader is not None:
            self.reader.cancel()

    def _message(self, *, first: bool = False, fragment: str = "", widgets=(), auto: bool = True) -> bytes:
        msg = LT.BackMsg()
        state = msg.rerun_script
        state.query_string = self.query
        state.page_script_hash = "" if first else self.page_hash
        state.page_name = self.page if first else ""
        state.fragment_id = fragment
        state.is_auto_rerun = bool(fragment) and auto
        state.widget_states.SetInParent()
        for widget_id, kind, value in widgets:
            widget = state.widget_states.widgets.add()
            widget.id = widget_id
            setattr(widget, kind, value)
        info = state.context_info
        info.timezone, info.locale, info.color_scheme = "Europe/Amsterdam", "en-US", "light"
        info.url = f"{self.base}/{self.page}" + (f"?{self.query}" if self.query else "")
        return msg.SerializeToString()

    async def press(self, widgets, timeout: float = 120) -> list[str]:
        """Set ``widgets`` (id, kind, value) and rerun what the browser reruns: the fragment they are drawn in, or
        the page; the texts it showed."""
        fragment = self.fragments.get(widgets[-1][0], "")
        return await self.run(fragment=fragment, widgets=widgets, timeout=timeout, auto=False)

    async def run(self, *, first: bool = False, fragment: str = "", widgets=(), timeout: float = 120,
                  auto: bool = True) -> list[str]:
        """Send one rerun and wait until it (and any rerun it asked for) finished; the texts it showed."""
        async with self.busy:
            loop = asyncio.get_running_loop()
            self.waiting = loop.create_future()
            self.run_texts = []
            await self.ws.send(self._message(first=first, fragment=fragment, widgets=widgets, auto=auto))
            await asyncio.wait_for(self.waiting, timeout)
            return self.run_texts

    async def _read(self) -> None:
        try:
            async for data in self.ws:
                self._on(LT.ForwardMsg.FromString(data))
        except asyncio.CancelledError:
            raise
        except Exception as error:  # noqa: BLE001 - every failure counts
            if not self.closing:
                self.stats.error("disconnect", f"{self.name}: {type(error).__name__}: {error}")
        if not self.closing:
            self.stats.error("disconnect", f"{self.name}: closed by the server")
            if self.waiting is not None and not self.waiting.done():
                self.waiting.set_exception(ConnectionError("closed"))

    def _on(self, msg) -> None:
        kind = msg.WhichOneof("type")
        if kind == "navigation" and msg.navigation.page_script_hash:
            self.page_hash = msg.navigation.page_script_hash
        elif kind == "page_info_changed":
            self.query = msg.page_info_changed.query_string
        elif kind == "auto_rerun" and msg.auto_rerun.fragment_id not in self.pollers:
            self.pollers[msg.auto_rerun.fragment_id] = asyncio.create_task(
                self._poll(msg.auto_rerun.fragment_id, msg.auto_rerun.interval))
        elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
            self._element(msg.delta.new_element, msg.delta.fragment_id)
        elif kind == "script_finished":
            status = msg.script_finished
            if status == EARLY:  # st.rerun(): the server goes on with the next run by itself
                self.stats.full_reruns += 1
                return
            if self.waiting is not None and not self.waiting.done():
                self.waiting.set_result(status)

    def _element(self, element, fragment: str) -> None:
        kind = element.WhichOneof("type")
        if kind in ("text_input", "button"):
            widget = getattr(element, kind)
            self.widgets[widget.label] = widget.id
            self.fragments[widget.id] = fragment
        elif kind == "alert":
            self.run_texts.append(element.alert.body)
        elif kind == "exception":
            self.stats.error("exception", f"{self.name}: {element.exception.message[:200]}")
        elif kind == "bidi_component" and element.bidi_component.component_name == "irlab.region":
            self.blocks = json.loads(element.bidi_component.json)["blocks"]
            if self.on_region is not None:
                self.on_region(self.blocks)

    async def _poll(self, fragment: str, interval: float) -> None:
        """The browser's timer for a ``run_every`` fragment: rerun it every ``interval`` seconds."""
        await asyncio.sleep(random.uniform(0, interval))
        while not self.closing:
            started = time.perf_counter()
            try:
                await self.run(fragment=fragment)
                self.stats.polls += 1
            except Exception as error:  # noqa: BLE001
                if not self.closing:
                    self.stats.error("poll", f"{self.name}: {type(error).__name__}")
                return
            await asyncio.sleep(max(0.0, interval - (time.perf_counter() - started)))

    def widget(self, label_start: str) -> str:
        """The id of the widget labelled ``label_start`` (exactly, else the first label that starts so)."""
        if label_start in self.widgets:
            return self.widgets[label_start]
        return next(wid for label, wid in self.widgets.items() if label.startswith(label_start))


# --- a student and the projector --------------------------------------------------------------------------------------

async def student(base: str, code: str, index: int, stats: Stats, question_shown: asyncio.Event,
                  window: float, ramp: float, sessions: list[Session]) -> None:
    session = Session(base, f"/join?code={code}", stats, f"student {index}")
    sessions.append(session)
    await asyncio.sleep(ramp * random.random())
    try:
        await session.open()
        sent = time.perf_counter()
        texts = await session.press([(session.widget("Join code"), "string_value", code),
                                     (session.widget("Join"), "trigger_value", True)])
        if "student=" not in session.query:
            stats.error("join", f"student {index}: {texts[:1]}")
            return
        stats.join_ack.append(time.perf_counter() - sent)
        await question_shown.wait()
        deadline = time.perf_counter() + 30
        while not any(label.startswith("Your answer") for label in session.widgets):  # the poll redraws the page
            if time.perf_counter() > deadline:
                stats.error("question", f"student {index}: the question never appeared")
                return
            await asyncio.sleep(0.05)
        stats.question_seen.append(time.perf_counter() - stats.shown_at)
        await asyncio.sleep(random.uniform(0, window))
        value = f"{random.choice((0.39, 0.3869, 0.47, 0.5, 0.25)):.4f}"
        sent = time.perf_counter()
        texts = await session.press([(session.widget("Your answer"), "string_value", value),
                                     (session.widget("Send"), "trigger_value", True)])
        acknowledged = time.perf_counter()
        if not any(plain(t).startswith(("Answer received", "Answer changed")) for t in texts):
            stats.error("answer", f"student {index}: {texts[:1]}")
            return
        stats.answer_ack.append(acknowledged - sent)
        stats.answers.append((sent, acknowledged))
    except Exception as error:  # noqa: BLE001 - every failure counts
        stats.error("student", f"student {index}: {type(error).__name__}: {error}")


def plain(markdown: str) -> str:
    """Escaped Markdown (the pages' notices) as text."""
    out, escape = [], False
    for char in markdown:
        if escape or char != "\\":
            out.append(char)
            escape = False
        else:
            escape = True
    return "".join(out)


class Projector:
    """The lecturer's /class, polling; records (time, answers counted) at every run of its live region."""

    def __init__(self, base: str, code: str, key: str, stats: Stats) -> None:
        self.session = Session(base, f"/class?code={code}&key={key}", stats, "projector")
        self.seen: list[tuple[float, int]] = []
        self.session.on_region = self._count

    def _count(self, blocks: list[dict]) -> None:
        for block in blocks:
            if block.get("kind") == "numbers":
                for item in block["items"]:
                    if item["label"] == ANSWERS:
                        self.seen.append((time.perf_counter(), int(item["value"])))

    def visible_after(self, answers: list[tuple[float, float]]) -> list[float]:
        """Per answer: seconds from Send until the projector's count included it."""
        delays = []
        for rank, (sent, _) in enumerate(sorted(answers, key=lambda a: a[1]), 1):
            seen = next((t for t, count in self.seen if count >= rank and t >= sent), None)
            if seen is not None:
                delays.append(seen - sent)
        return delays


# --- the app processes ------------------------------------------------------------------------------------------------

def children(parent: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == parent:
                    found.append(int(entry.name))
    return found


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def replica_pids(run_local: subprocess.Popen) -> list[int]:
    return sorted(pid for pid in children(run_local.pid)
                  if b"streamlit" in Path(f"/proc/{pid}/cmdline").read_bytes())


class Meter:
    """CPU seconds of the app processes (and of this client) between two moments."""

    def __init__(self, pids: list[int]) -> None:
        self.pids = pids
        self.start = (time.perf_counter(), {pid: cpu_seconds(pid) for pid in pids}, os.times())

    def percent(self) -> tuple[float, dict[int, float], float]:
        """(seconds, CPU % per process, the client's CPU %) since the meter started."""
        began, before, client = self.start
        seconds = time.perf_counter() - began
        now = os.times()
        used = {pid: 100 * (cpu_seconds(pid) - before[pid]) / seconds for pid in self.pids}
        mine = 100 * ((now.user - client.user) + (now.system - client.system)) / seconds
        return seconds, used, mine


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def cluster(replicas: int, database: str):
    """``deploy/run-local`` on a free port with ``--class-db database``; yields (url, process)."""
    port = free_port()
    process = subprocess.Popen([sys.executable, str(ROOT / "deploy" / "run-local"), "--replicas", str(replicas),
                                "--port", str(port), "--class-db", database], cwd=ROOT, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 180
        while True:
            with contextlib.suppress(OSError):
                LT._http_get(f"{url}/_stcore/health", timeout=2)
                if len(replica_pids(process)) == replicas:
                    break
            if process.poll() is not None or time.monotonic() > deadline:
                sys.exit("bench/class_load.py: run-local did not start (is nginx installed?)")
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
                    f"-p {port} -k {data} -c listen_addresses=127.0.0.1 -c max_connections=200", "start"],
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


# --- one database ----------------------------------------------------------------------------------------------------

async def class_under_load(url: str, database: str, args: argparse.Namespace, pids: list[int]) -> dict:
    stats = Stats()
    store = ClassStore(database)
    new = store.start_class()
    desk = store.lecturer(new.code, new.key)
    info = desk.add_activity("predict", predict_settings(DEFAULT_STATE, chapter("ndcg"), "nDCG@K"))
    row: dict = {"students": args.students}

    meter = Meter(pids)
    await asyncio.sleep(args.baseline)
    row["baseline"] = meter.percent()

    projector = Projector(url, new.code, new.key, stats)
    await projector.session.open()
    shown = asyncio.Event()
    sessions: list[Session] = []
    started = time.perf_counter()
    tasks = [asyncio.create_task(student(url, new.code, i, stats, shown, args.window, args.ramp, sessions))
             for i in range(args.students)]
    while len(stats.join_ack) + sum(stats.errors.values()) < args.students and time.perf_counter() - started < 300:
        await asyncio.sleep(0.5)
    row["joined"] = len(stats.join_ack)
    row["join_seconds"] = time.perf_counter() - started

    polls_before = stats.polls
    meter = Meter(pids)
    await asyncio.sleep(args.idle)
    row["idle"] = meter.percent()
    row["idle_polls"] = stats.polls - polls_before

    reruns_before = stats.full_reruns
    meter = Meter(pids)
    stats.shown_at = time.perf_counter()
    desk.show(info.id)
    shown.set()
    await asyncio.wait(tasks, timeout=args.window + 120)
    await asyncio.sleep(2 * 1.5 + 1)  # the projector's next polls
    row["answer"] = meter.percent()
    row["full_reruns"] = stats.full_reruns - reruns_before
    for session in [projector.session, *sessions]:
        await session.close()

    stored = desk.projector().current.rounds[0].answers
    row.update(sent=len(stats.answers), stored=stored, lost=len(stats.answers) - stored,
               errors=sum(stats.errors.values()), error_kinds=dict(stats.errors), examples=stats.examples,
               join_p50=pct(stats.join_ack, 50), join_p95=pct(stats.join_ack, 95),
               ack_p50=pct(stats.answer_ack, 50), ack_p95=pct(stats.answer_ack, 95),
               ack_p95_later=pct([acked - sent for sent, acked in stats.answers if sent - stats.shown_at >= HERD], 95),
               seen_p50=pct(stats.question_seen, 50), seen_p95=pct(stats.question_seen, 95),
               replicas=dict(stats.replicas))
    visible = projector.visible_after(stats.answers)
    row.update(visible_n=len(visible), visible_p50=pct(visible, 50), visible_p95=pct(visible, 95))
    desk.delete_class()
    return row


def ms(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds * 1000:.0f}"


def report(name: str, row: dict) -> list[str]:
    idle_seconds, idle_cpu, idle_client = row["idle"]
    _, base_cpu, _ = row["baseline"]
    _, answer_cpu, answer_client = row["answer"]
    idle_total = sum(idle_cpu.values()) - sum(base_cpu.values())
    per_student = idle_total / 100 * 1000 / max(1, row["joined"])  # CPU ms per second per idle student
    per_poll = idle_total / 100 * idle_seconds * 1000 / max(1, row["idle_polls"])
    cells = (name, f"{row['joined']}/{row['students']}", row["sent"], row["stored"], row["lost"], row["errors"],
             ms(row["join_p95"]), f"{ms(row['seen_p50'])} / {ms(row['seen_p95'])}",
             f"{ms(row['ack_p50'])} / {ms(row['ack_p95'])}", ms(row["ack_p95_later"]),
             f"{ms(row['visible_p50'])} / {ms(row['visible_p95'])}", percents(idle_cpu), percents(answer_cpu),
             f"{per_student:.2f} ms/s", f"{per_poll:.1f} ms", f"{idle_client:.0f}% / {answer_client:.0f}%")
    return ["| " + " | ".join(str(cell) for cell in cells) + " |"]


def percents(by_process: dict[int, float]) -> str:
    return " / ".join(f"{value:.0f}%" for value in by_process.values())


COLUMNS = ("store", "joined", "answers sent", "in the database", "lost", "errors", "join ack p95 ms",
           "question on the students' pages p50 / p95 ms", "answer ack p50 / p95 ms",
           "answer ack p95 ms, sent 5 s or more after the question opened", "visible on projector p50 / p95 ms",
           "CPU per replica, idle", "CPU per replica, answering", "CPU per idle student", "CPU per poll",
           "client CPU idle / answering")
HEADER = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]


def main() -> int:
    global LT
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=200)
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--replicas", type=int, default=2)
    parser.add_argument("--ramp", type=float, default=20.0, help="seconds over which the students join")
    parser.add_argument("--idle", type=float, default=20.0, help="seconds of every student waiting and polling")
    parser.add_argument("--window", type=float, default=30.0, help="seconds within which every student answers")
    parser.add_argument("--baseline", type=float, default=5.0)
    parser.add_argument("--loadtest", default=None)
    parser.add_argument("--json-out", default=None)
    args = parser.parse_args()
    LT = load_generator(args.loadtest)
    rows = {}
    for name in args.databases.split(","):
        with contextlib.ExitStack() as stack:
            if name == "postgresql":
                database = stack.enter_context(postgres())
            else:
                database = f"sqlite:///{stack.enter_context(tempfile.TemporaryDirectory())}/classes.sqlite"
            url, process = stack.enter_context(cluster(args.replicas, database))
            print(f"--- {name}: {args.students} students, run-local --replicas {args.replicas} at {url}", flush=True)
            rows[name] = asyncio.run(class_under_load(url, database, args, replica_pids(process)))
            print(json.dumps(rows[name], default=str)[:2000], flush=True)
    print("\n" + "\n".join(HEADER + [line for name, row in rows.items() for line in report(name, row)]))
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(rows, indent=1, default=str))
    return 1 if any(row["lost"] or row["errors"] for row in rows.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
