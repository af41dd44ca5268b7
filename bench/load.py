"""A class on one machine: N concurrent sessions each moving K every 3 s, against one app process or run-local.

    python bench/load.py [--topology single,run-local:2] [--sessions 1,100,200,300] [--page ndcg]
                         [--duration 30] [--loadtest PATH]

The load comes from the protocol-level generator ``loadtest.py`` (it speaks Streamlit's websocket
protocol, moves the page's K slider, times each rerun and checks every session's numbers for
cross-session leaks). It is not part of this repository: it is found with ``--loadtest``,
``$IRLAB_LOADTEST``, or at ``../shared/tools/loadtest.py`` next to the repository.

Topologies, each started here and stopped afterwards:

* ``single``: one ``streamlit run app.py`` (one process: all sessions share one interpreter);
* ``run-local:N``: ``deploy/run-local --replicas N`` (N processes behind nginx, sticky sessions).

While a level runs, every app process's CPU (100 % = one core) and resident memory are sampled
from /proc once a second, and its established connections are counted (one per websocket), which
shows how the sessions spread over the replicas. The table: per topology and level, sessions,
errors, leaks, rerun latency p50/p95/p99, reruns per second, and per replica CPU, memory and
connections. Not a test: timings depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.browser import free_port, healthy  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


def find_loadtest(given: str | None) -> Path:
    for candidate in (given, os.environ.get("IRLAB_LOADTEST"), ROOT.parent / "shared" / "tools" / "loadtest.py"):
        if candidate and Path(candidate).is_file():
            return Path(candidate)
    sys.exit("bench/load.py: loadtest.py not found; pass --loadtest PATH or set IRLAB_LOADTEST")


@contextlib.contextmanager
def topology(name: str):
    """Start ``single`` or ``run-local:N``; yields (url, a function giving the app processes' pids)."""
    port = free_port()
    if name == "single":
        argv = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true", "--server.port",
                str(port), "--server.address", "127.0.0.1", "--server.fileWatcherType", "none"]
    elif name.startswith("run-local:"):
        argv = [sys.executable, str(ROOT / "deploy" / "run-local"), "--replicas", name.split(":")[1],
                "--port", str(port)]
    else:
        sys.exit(f"bench/load.py: unknown topology {name!r} (single or run-local:N)")
    process = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    url = f"http://127.0.0.1:{port}"

    def app_pids() -> list[int]:
        if name == "single":
            return [process.pid]
        return sorted(pid for pid in children(process.pid) if b"streamlit" in _cmdline(pid))

    try:
        deadline = time.monotonic() + 120
        while not healthy(url):
            if process.poll() is not None or time.monotonic() > deadline:
                sys.exit(f"bench/load.py: {name} did not start")
            time.sleep(0.3)
        yield url, app_pids
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=20)


def _cmdline(pid: int) -> bytes:
    with contextlib.suppress(OSError):
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    return b""


def children(parent: int) -> list[int]:
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                if int(fields[1]) == parent:
                    pids.append(int(entry.name))
    return pids


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def listening_ports(pid: int) -> set[int]:
    """The TCP ports ``pid`` listens on (its replica port)."""
    inodes = set()
    with contextlib.suppress(OSError):
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            with contextlib.suppress(OSError):
                target = os.readlink(fd)
                if target.startswith("socket:["):
                    inodes.add(target[8:-1])
    ports = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        parts = line.split()
        if parts[3] == "0A" and parts[9] in inodes:
            ports.add(int(parts[1].split(":")[1], 16))
    return ports


def established(port: int) -> int:
    """Established connections whose local port is ``port`` (websockets into that replica)."""
    count = 0
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        parts = line.split()
        if parts[3] == "01" and int(parts[1].split(":")[1], 16) == port:
            count += 1
    return count


class Sampler(threading.Thread):
    """CPU %, RSS and peak connections of each app process, once a second."""

    def __init__(self, pids: list[int]) -> None:
        super().__init__(daemon=True)
        self.pids = pids
        self.ports = {pid: min(listening_ports(pid), default=0) for pid in pids}
        self.stop = threading.Event()
        self.cpu = {pid: [] for pid in pids}
        self.rss = dict.fromkeys(pids, 0.0)
        self.connections = dict.fromkeys(pids, 0)

    def run(self) -> None:
        last = {pid: cpu_seconds(pid) for pid in self.pids}
        before = time.monotonic()
        while not self.stop.wait(1.0):
            now = time.monotonic()
            for pid in self.pids:
                with contextlib.suppress(OSError):
                    used = cpu_seconds(pid)
                    self.cpu[pid].append(100 * (used - last[pid]) / (now - before))
                    last[pid] = used
                    self.rss[pid] = max(self.rss[pid], rss_mb(pid))
                    self.connections[pid] = max(self.connections[pid], established(self.ports[pid]))
            before = now

    def busy_mean(self, pid: int) -> float:
        """Mean CPU % over the seconds the process was doing something (the steady part of the level)."""
        busy = [c for c in self.cpu[pid] if c > 1]
        return sum(busy) / len(busy) if busy else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--topology", default="single,run-local:2")
    parser.add_argument("--sessions", default="1,100,200,300")
    parser.add_argument("--page", default="ndcg")
    parser.add_argument("--duration", type=float, default=30.0)
    parser.add_argument("--interval", type=float, default=3.0)
    parser.add_argument("--loadtest", default=None)
    args = parser.parse_args()
    loadtest = find_loadtest(args.loadtest)

    rows = []
    for name in args.topology.split(","):
        for level in [int(n) for n in args.sessions.split(",")]:
            with topology(name) as (url, app_pids):
                pids = app_pids()
                sampler = Sampler(pids)
                sampler.start()
                with tempfile.NamedTemporaryFile(suffix=".json") as out:
                    # one process: loadtest also samples its memory before, with every session open, and after
                    sample = ["--server-pid", str(pids[0])] if len(pids) == 1 else []
                    subprocess.run([sys.executable, str(loadtest), "--url", url, "--page", args.page, "--sessions",
                                    str(level), "--duration", str(args.duration), "--interval", str(args.interval),
                                    "--json-out", out.name, *sample], cwd=ROOT, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL, check=False)
                    sampler.stop.set()
                    sampler.join()
                    result = json.loads(Path(out.name).read_text() or "[{}]")[0]
            rows.append((name, level, result, [(sampler.busy_mean(p), sampler.rss[p], sampler.connections[p])
                                               for p in pids]))
            r = result
            print(f"{name} N={level}: errors {r.get('errors')}, leaks {r.get('leaks')}, p95 {_ms(r.get('p95_ms'))} ms",
                  flush=True)

    print(f"\nLoad: {args.page}, each session moves K every {args.interval:g} s (±30%), "
          f"{args.duration:g} s per level\n")
    print("| topology | sessions | errors | leaks | reruns/s | p50 ms | p95 ms | p99 ms | CPU % per replica | "
          "MB per replica | websockets per replica |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name, level, r, replicas in rows:
        print(f"| {name} | {level} | {r.get('errors')} | {r.get('leaks')} | {_num(r.get('reruns_per_s'))} | "
              f"{_ms(r.get('p50_ms'))} | {_ms(r.get('p95_ms'))} | {_ms(r.get('p99_ms'))} | "
              f"{' / '.join(f'{c:.0f}' for c, _, _ in replicas)} | {' / '.join(f'{m:.0f}' for _, m, _ in replicas)} | "
              f"{' / '.join(str(n) for _, _, n in replicas)} |")
    memory = [(name, level, r) for name, level, r, _ in rows if r.get("rss_before")]
    if memory:
        print("\n| topology | sessions | server MB before | all sessions open | after they closed | MB per session |")
        print("|---|---|---|---|---|---|")
        for name, level, r in memory:
            before, ready, closed = (r.get(k, 0) / 2**20 for k in ("rss_before", "rss_ready", "rss_closed"))
            print(f"| {name} | {level} | {before:.0f} | {ready:.0f} | {closed:.0f} | {(ready - before) / level:.2f} |")


def _ms(value) -> str:
    return "-" if value is None else f"{value:.0f}"


def _num(value) -> str:
    return "-" if value is None else f"{value:.1f}"


if __name__ == "__main__":
    main()
