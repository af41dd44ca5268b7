"""A class on one machine: the walkthrough driven the way each generation's browser drives it, side by side.

    python bench/load.py [--trees 0b47de8,4820b77,.] [--sessions 1,100,200,300] [--duration 30] [--interval 3]
                         [--replicas 2] [--page ndcg] [--moves 20] [--processes 1] [--skip-single] [--follow]

Each tree is served by its own ``deploy/run-local --replicas N`` (N app processes behind nginx, sticky
sessions). ``.`` is this checkout; a commit is checked out with ``git archive <commit> | tar -x -C
/tmp/irlab-<commit>`` (no worktree) and served from there with this interpreter. The tabs speak
Streamlit's websocket protocol as the browser does (:mod:`bench.streamlit_session`): 0b47de8 moves
Streamlit's K slider and drops tiles; 4820b77 also asks for a tile's moves before a drop; this tree's
region posts the K the learner settled on to ``/_irlab/region/settle`` (no run: the "K change" row is that
request, with the sticky cookie, through nginx) and asks for a tile's moves, named from the screen it holds.

Two parts per tree, all in one run:

* **Per interaction, one tab**: ``--moves`` K changes (this tree's region first asks for the K form when the
  learner comes to the slider and it holds none for its screen), then as many tile approaches and drops
  (each tile to a random rank: nearly every state is new), one after the other. For each kind: KB received
  (median), time from send to the run's end (median), and the server's CPU (user + system time of the
  app processes from /proc, before and after each run, summed over the kind and divided).
* **A class**: for each level, that many tabs open (spread over 10 s), then for ``--duration`` seconds each
  tab acts every ``--interval`` s (±30%): a K change (60%) or a tile approach then its drop (40%).
  Per kind: p50/p95 ms, KB; errors (an exception on the page, a run that did not end, a lost
  connection); each replica's mean CPU % while busy.

Not a test: timings depend on the machine and on what else it runs.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import contextlib
import multiprocessing
import os
import random
import signal
import statistics
import subprocess
import sys
import threading
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.streamlit_session import Run, Tab  # noqa: E402
from tests.browser import free_port, healthy  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


def tree(name: str) -> Path:
    """The checkout to serve: this one for ``.``, else the commit's files in /tmp/irlab-<commit>."""
    if name == ".":
        return ROOT
    folder = Path(f"/tmp/irlab-{name}")
    if not (folder / "app.py").is_file():
        folder.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "archive", name], cwd=ROOT, capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    return folder


def _children(parent: int) -> list[int]:
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                if int(fields[1]) == parent:
                    pids.append(int(entry.name))
    return pids


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds of the processes ``pids`` so far."""
    total = 0.0
    for pid in pids:
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / TICKS
    return total


@contextlib.contextmanager
def serving(folder: Path, replicas: int):
    """``deploy/run-local`` of ``folder`` on a free port; yields (url, the app processes' pids)."""
    port = free_port()
    process = subprocess.Popen([sys.executable, str(folder / "deploy" / "run-local"), "--replicas", str(replicas),
                                "--port", str(port)], cwd=folder, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, start_new_session=True,
                               env={**os.environ, "IRLAB_CLASS_DB": f"sqlite:////tmp/irlab-load-{port}.sqlite"})
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 180
        while not healthy(url):
            if process.poll() is not None or time.monotonic() > deadline:
                sys.exit(f"bench/load.py: run-local of {folder} did not start")
            time.sleep(0.5)
        time.sleep(2)
        pids = [pid for pid in _children(process.pid)
                if b"streamlit" in Path(f"/proc/{pid}/cmdline").read_bytes()]
        yield url, pids
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=30)


async def per_interaction(url: str, pids: list[int], page: str, count: int) -> dict[str, list[tuple[Run, float]]]:
    """One tab: ``count`` K changes, then ``count`` tile approaches and drops; each run with the CPU it cost."""
    tab = Tab(url, page, seed=1)
    out: dict[str, list[tuple[Run, float]]] = defaultdict(list)

    async def timed(action) -> None:
        before = cpu_seconds(pids)
        run = await action
        if run is not None:
            await asyncio.sleep(0.05)  # what the server does after the run's last message
            out[run.kind].append((run, cpu_seconds(pids) - before))

    await timed(tab.open())
    for _ in range(count):
        await asyncio.sleep(0.3)
        await timed(tab.approach_k())
        await asyncio.sleep(0.2)
        await timed(tab.change_k())
    for _ in range(count):
        item, order = tab.pick_move()
        await asyncio.sleep(0.3)
        await timed(tab.ask_moves(item))
        await asyncio.sleep(0.2)
        await timed(tab.move(item, order))
    await tab.close()
    return out


class Sampler(threading.Thread):
    """Each app process's CPU % once a second."""

    def __init__(self, pids: list[int]) -> None:
        super().__init__(daemon=True)
        self.pids, self.stop, self.cpu = pids, threading.Event(), {pid: [] for pid in pids}

    def run(self) -> None:
        last = {pid: cpu_seconds([pid]) for pid in self.pids}
        before = time.monotonic()
        while not self.stop.wait(1.0):
            now = time.monotonic()
            for pid in self.pids:
                used = cpu_seconds([pid])
                self.cpu[pid].append(100 * (used - last[pid]) / (now - before))
                last[pid] = used
            before = now

    def busy(self, pid: int) -> float:
        values = [c for c in self.cpu[pid] if c > 1]
        return sum(values) / len(values) if values else 0.0


async def a_class(url: str, page: str, sessions: int, duration: float, interval: float, part: int = 0,
                  parts: int = 1, follow: bool = False) -> tuple[dict[str, list[Run]], int]:
    """``sessions`` tabs acting every ``interval`` s for ``duration`` s: their runs by kind, and tabs never opened.
    ``part`` of ``parts``: this process drives every ``parts``-th tab from the ``part``-th (bench/load.py's
    ``--processes``: one event loop parsing 200 tabs' protobuf is a load of its own). ``follow``: every tab makes
    the same moves in the same order (a lecture: "now drag picture 3 to rank 1"), each at its own moments, so the
    states repeat from tab to tab; else each tab's moves are its own (nearly every state new: the worst case)."""
    runs: dict[str, list[Run]] = defaultdict(list)
    failed = 0

    async def student(index: int) -> None:
        nonlocal failed
        await asyncio.sleep(10 * index / max(1, sessions))
        tab = Tab(url, page, seed=0 if follow else index)
        moments = random.Random(index)
        try:
            opened = await tab.open()
        except Exception as error:  # noqa: BLE001 - every failure counts
            runs["open"].append(Run("open", error=f"{type(error).__name__}: {error}"[:200]))
            failed += 1
            return
        runs["open"].append(opened)
        end = time.monotonic() + duration
        while time.monotonic() < end:
            await asyncio.sleep(interval * moments.uniform(0.7, 1.3))
            if tab.rng.random() < 0.6:
                asked = await tab.approach_k()
                if asked is not None:
                    runs[asked.kind].append(asked)
                    await asyncio.sleep(0.3)
                runs["K change"].append(await tab.change_k())
            else:
                item, order = tab.pick_move()
                asked = await tab.ask_moves(item)
                if asked is not None:
                    runs[asked.kind].append(asked)
                    await asyncio.sleep(0.3)
                runs["tile move"].append(await tab.move(item, order))
        await tab.close()

    await asyncio.gather(*(student(i) for i in range(part, sessions, parts)))
    return runs, failed


def class_part(url: str, page: str, sessions: int, duration: float, interval: float, part: int, parts: int,
               follow: bool = False) -> tuple[dict[str, list[Run]], int, float]:
    """One generator process's share of a class (:func:`a_class`), and the CPU seconds the process spent on it."""
    before = time.process_time()
    runs, failed = asyncio.run(a_class(url, page, sessions, duration, interval, part, parts, follow))
    return dict(runs), failed, time.process_time() - before


def a_class_in(processes: int, url: str, page: str, sessions: int, duration: float, interval: float,
               follow: bool = False) -> tuple[dict[str, list[Run]], float, float]:
    """A class driven by ``processes`` generator processes: the runs by kind, the generators' CPU seconds and the
    wall seconds it took."""
    start = time.monotonic()
    if processes <= 1:
        runs, _, cpu = class_part(url, page, sessions, duration, interval, 0, 1, follow)
        return runs, cpu, time.monotonic() - start
    merged: dict[str, list[Run]] = defaultdict(list)
    cpu = 0.0
    with concurrent.futures.ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("spawn")) as pool:
        parts = [pool.submit(class_part, url, page, sessions, duration, interval, part, processes, follow)
                 for part in range(processes)]
        for done in parts:
            runs, _, used = done.result()
            cpu += used
            for kind, measured in runs.items():
                merged[kind].extend(measured)
    return merged, cpu, time.monotonic() - start


def _ms(values: list[float], share: float) -> str:
    if not values:
        return "-"
    ordered = sorted(values)
    return f"{1000 * ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]:.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trees", default="0b47de8,4820b77,.")
    parser.add_argument("--sessions", default="1,100,200,300")
    parser.add_argument("--duration", type=float, default=30.0)
    parser.add_argument("--interval", type=float, default=3.0)
    parser.add_argument("--replicas", type=int, default=2)
    parser.add_argument("--page", default="ndcg")
    parser.add_argument("--moves", type=int, default=20, help="interactions of each kind in the one-tab part")
    parser.add_argument("--processes", type=int, default=1, help="generator processes a class is split over")
    parser.add_argument("--skip-single", action="store_true", help="only the class part")
    parser.add_argument("--follow", action="store_true",
                        help="a lecture: every tab makes the same moves (states repeat), each at its own moments")
    args = parser.parse_args()
    single: dict[str, dict[str, list[tuple[Run, float]]]] = {}
    levels: list[tuple[str, int, dict[str, list[Run]], list[float], float]] = []
    for name in args.trees.split(","):
        label = "this tree" if name == "." else name
        with serving(tree(name), args.replicas) as (url, pids):
            if not args.skip_single:
                single[label] = asyncio.run(per_interaction(url, pids, args.page, args.moves))
                print(f"{label}: one tab measured", file=sys.stderr, flush=True)
            for level in [int(n) for n in args.sessions.split(",") if n]:
                sampler = Sampler(pids)
                sampler.start()
                runs, generator_cpu, wall = a_class_in(args.processes, url, args.page, level, args.duration,
                                                       args.interval, args.follow)
                sampler.stop.set()
                sampler.join()
                levels.append((label, level, runs, [sampler.busy(pid) for pid in pids], 100 * generator_cpu / wall))
                errors = sum(run.error is not None for kind in runs.values() for run in kind)
                print(f"{label}: {level} tabs, {errors} errors", file=sys.stderr, flush=True)

    print(f"\nPer interaction, one tab on {args.page} through run-local --replicas {args.replicas} "
          f"({args.moves} of each; medians; server CPU = the app processes' CPU time per run)\n")
    print("| tree | interaction | KB received | ms to the run's end | server CPU ms | errors |")
    print("|---|---|---|---|---|---|")
    for label, kinds in single.items():
        for kind, measured in kinds.items():
            if kind == "open":
                continue
            runs = [run for run, _ in measured]
            print(f"| {label} | {kind} | {statistics.median(r.bytes for r in runs) / 1024:.1f} | "
                  f"{_ms([r.seconds for r in runs], 0.5)} | {1000 * statistics.mean(c for _, c in measured):.1f} | "
                  f"{sum(r.error is not None for r in runs)} |")
    print(f"\nA class: each tab acts every {args.interval:g} s (±30%) for {args.duration:g} s: a K change (60%) or a "
          f"tile approach and drop (40%); "
          f"{'every tab the same moves (a lecture)' if args.follow else 'each tab moves of its own'}\n")
    print(f"Generator: {args.processes} process(es); its CPU is the generator processes' CPU time over the class's "
          f"wall time (100% = one of the machine's {os.cpu_count()} cores).\n")
    print("| tree | tabs | interaction | runs | p50 ms | p95 ms | KB (median) | errors | CPU % per replica (busy) "
          "| generator CPU % |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for label, level, runs, cpu, generator in levels:
        for kind, measured in runs.items():
            times = [r.seconds for r in measured if r.error is None]
            errors = [r.error for r in measured if r.error is not None]
            kb = statistics.median(r.bytes for r in measured) / 1024 if measured else 0
            print(f"| {label} | {level} | {kind} | {len(measured)} | {_ms(times, 0.5)} | {_ms(times, 0.95)} | "
                  f"{kb:.1f} | {len(errors)}{' (' + errors[0] + ')' if errors else ''} | "
                  f"{' / '.join(f'{c:.0f}' for c in cpu)} | {generator:.0f} |")


if __name__ == "__main__":
    main()
