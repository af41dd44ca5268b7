"""The runs engine beside trec_eval 10.0 (and pytrec_eval): wall time, CPU time and peak memory, whole processes.

    python bench/runs.py [--sizes 10,100,1000,10000] [--many 20] [--repeat 3]
                         [--trec-eval PATH | --trec-eval-src DIR] [--data /tmp/irlab-bench/runs]

A seeded simulated collection (:mod:`irlab.runs.simulate`: 1,000 retrieved documents per query with
tied scores, about 100 judged documents per query graded 0-3, some queries without relevant
documents, some judged documents never retrieved) is written at 10, 100, 1,000 and 10,000 queries
(10k, 100k, 1M and 10M run lines) into ``--data`` (under /tmp: generated data never goes into the
repository). Each tool evaluates trec_eval's default measures as a separate process, ``--repeat``
times; the table gives the minimum and median wall time, the median CPU time (user + system, all
threads and child processes), the peak memory (maximum resident set size of the largest process)
and the ratios to trec_eval's median wall time and peak memory.

``--many`` runs (default 20, 1M lines each, one simulated system each) are then evaluated by one
``irlab evaluate qrels run1 ... run20``, which uses every core, beside trec_eval run once per file.

Every value is checked: IR Lab's output must equal trec_eval's byte for byte (each of the many runs
too), and pytrec_eval's per-query values must print the same (``iprec_at_recall`` and ``gm_map``
aside: pytrec_eval bundles trec_eval 9, which rounded recall levels differently). Not a test:
timings depend on the machine and its load (the CPU column is steadier than the wall on a busy one).

trec_eval is found with ``--trec-eval``, ``$TREC_EVAL``, or ``trec_eval`` on the PATH; or built
from a source folder with ``--trec-eval-src`` (``git clone https://github.com/usnistgov/trec_eval``,
then ``make`` runs in it). Without it the trec_eval column is left out, with the reason.

Targets (issue 25): at 10M lines <= 0.8x trec_eval's wall time and <= its peak memory; at 1M lines
<= 1.0x and <= 250 MB; the many runs <= 0.6x trec_eval run once per file.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DATA = Path(tempfile.gettempdir()) / "irlab-bench" / "runs"
"""Where the simulated collections are written (once; delete the folder to regenerate)."""

PYTREC = """
import json, sys, pytrec_eval
with open(sys.argv[1]) as f:
    qrels = pytrec_eval.parse_qrel(f)
with open(sys.argv[2]) as f:
    run = pytrec_eval.parse_run(f)
measures = {"num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank", "iprec_at_recall",
            "P"}
json.dump(pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(run), sys.stdout)
"""

GENERATE = """
import sys
from pathlib import Path
from irlab.runs.simulate import simulate
queries, systems, folder = int(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3])
names = {"bench": 1.0} if systems == 1 else {f"system{i:02d}": 0.3 + 0.05 * i for i in range(systems)}
data = simulate(topics=queries, systems=names, depth=1000, judged=100, seed=queries)
with open(folder / "qrels.txt", "w") as out:
    for topic in data.topics:
        out.write("".join(f"{topic} 0 {d} {g}\\n" for d, g in zip(*data.judged[topic])))
for name in names:
    with open(folder / f"{name}.txt", "w") as out:
        for topic in data.topics:
            docs, scores = data.runs[name][topic]
            out.write("".join(f"{topic} Q0 {d} {r} {s:.1f} {name}\\n" for r, (d, s) in enumerate(zip(docs, scores), 1)))
"""


def collection(queries: int, systems: int = 1, data: Path = DATA) -> tuple[Path, Path | list[Path]]:
    """The qrels and run file(s) of the simulated collection with ``queries`` queries (written once).

    One system gives ``(qrels, run)``; several give ``(qrels, [runs])``. Generated in a child
    process: this one stays small, because a child's peak memory starts at its parent's size when
    it is forked.
    """
    folder = data / (f"{queries}q" if systems == 1 else f"{queries}q-{systems}runs")
    names = ["bench"] if systems == 1 else [f"system{i:02d}" for i in range(systems)]
    runs = [folder / f"{name}.txt" for name in names]
    if not all(run.exists() for run in runs):
        folder.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, "-c", GENERATE, str(queries), str(systems), str(folder)], cwd=ROOT,
                       check=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    return folder / "qrels.txt", runs[0] if systems == 1 else runs


def find_trec_eval(binary: str | None, source: str | None) -> tuple[str | None, str]:
    """The trec_eval binary to compare with, or None and why."""
    candidates = [binary, os.environ.get("TREC_EVAL"), shutil.which("trec_eval")]
    for candidate in candidates:
        if candidate and Path(candidate).is_file():
            return candidate, ""
    if source:
        folder = Path(source)
        if not (folder / "Makefile").exists():
            return None, f"{folder} holds no trec_eval source (no Makefile)"
        build = subprocess.run(["make", "-C", str(folder)], capture_output=True, text=True)
        if build.returncode or not (folder / "trec_eval").exists():
            return None, f"building trec_eval in {folder} failed: {build.stderr[-300:]}"
        return str(folder / "trec_eval"), ""
    return None, ("trec_eval not found: pass --trec-eval PATH, set TREC_EVAL, or give --trec-eval-src DIR with "
                  "a clone of https://github.com/usnistgov/trec_eval (make runs there)")


GNU_TIME = "/usr/bin/time"
"""GNU time measures a child's peak memory from its own small process. Without it, Linux counts
the size of this Python process at the fork in the child's peak (some 30 MB)."""


def timed(commands: list[list[str]], repeat: int) -> tuple[list[float], list[float], float, list[bytes]]:
    """Wall times and CPU times of ``repeat`` runs of ``commands`` one after the other, the largest peak
    memory of any of them (MB), and the outputs of the last run."""
    walls, cpus, peak, outs = [], [], 0.0, []
    gnu_time = Path(GNU_TIME).exists()
    for _ in range(repeat):
        wall = cpu = 0.0
        outs = []
        for command in commands:
            with tempfile.TemporaryFile() as sink, tempfile.NamedTemporaryFile("r") as memory:
                wrapped = [GNU_TIME, "-f", "%M %U %S", "-o", memory.name, *command] if gnu_time else command
                start = time.perf_counter()
                process = subprocess.Popen(wrapped, stdout=sink, stderr=subprocess.PIPE,
                                           env={**os.environ, "PYTHONPATH": str(ROOT)})
                _, status, usage = os.wait4(process.pid, 0)
                wall += time.perf_counter() - start
                if os.waitstatus_to_exitcode(status):
                    raise RuntimeError(f"{command[0]} failed: {process.stderr.read().decode()[-500:]}")
                if gnu_time:
                    kilobytes, user, system = memory.read().split()[-3:]
                    peak = max(peak, int(kilobytes) / 1024)
                    cpu += float(user) + float(system)
                else:
                    peak = max(peak, usage.ru_maxrss / 1024)
                    cpu += usage.ru_utime + usage.ru_stime
                sink.seek(0)
                outs.append(sink.read())
        walls.append(wall)
        cpus.append(cpu)
    return walls, cpus, peak, outs


def agree_with_pytrec(ours: str, pytrec: dict) -> int:
    """How many per-query values pytrec_eval prints differently from IR Lab (iprec and gm_map aside)."""
    printed = {}
    for line in ours.splitlines():
        name, query, value = (field.strip() for field in line.split("\t"))
        printed[(name, query)] = value
    wrong = 0
    for query, values in pytrec.items():
        for name, value in values.items():
            if name.startswith(("iprec_at_recall", "gm_map")):
                continue
            shown = str(int(value)) if name.startswith("num_") else f"{value:6.4f}"
            wrong += printed.get((name, query)) != shown
    return wrong


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10,100,1000,10000", help="queries per collection (1,000 run lines each)")
    parser.add_argument("--many", type=int, default=20, help="runs of 1M lines evaluated at once (0: none)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--trec-eval", help="the trec_eval binary")
    parser.add_argument("--trec-eval-src", help="a trec_eval source folder to build")
    parser.add_argument("--data", type=Path, default=DATA, help=f"where the collections are written (default {DATA})")
    parser.add_argument("--no-pytrec", action="store_true", help="leave pytrec_eval out")
    args = parser.parse_args()
    trec_eval, why = find_trec_eval(args.trec_eval, args.trec_eval_src)
    has_pytrec = False
    if not args.no_pytrec:
        try:
            import pytrec_eval  # noqa: F401
            has_pytrec = True
        except ImportError:
            pass
    if not trec_eval:
        print(f"note: {why}")
    irlab = [sys.executable, "-m", "irlab", "evaluate"]
    rows = []
    for size in (int(s) for s in args.sizes.split(",")):
        qrels, run = collection(size, data=args.data)
        lines = sum(1 for _ in run.open())
        tools = {"IR Lab": [[*irlab, str(qrels), str(run)]]}
        if trec_eval:
            tools["trec_eval 10.0"] = [[trec_eval, str(qrels), str(run)]]
        if has_pytrec and size <= 1000:  # pytrec_eval holds every run line as a Python object
            tools["pytrec_eval"] = [[sys.executable, "-c", PYTREC, str(qrels), str(run)]]
        results = {name: timed(commands, args.repeat) for name, commands in tools.items()}
        checks = []
        if trec_eval:
            same = results["IR Lab"][3] == results["trec_eval 10.0"][3]
            checks.append("= trec_eval" if same else "DIFFERS from trec_eval")
        if "pytrec_eval" in results:
            _, _, _, ours_q = timed([[*irlab, "-q", str(qrels), str(run)]], 1)
            wrong = agree_with_pytrec(ours_q[0].decode(), json.loads(results["pytrec_eval"][3][0]))
            checks.append("= pytrec_eval" if not wrong else f"{wrong} values differ from pytrec_eval")
        rows += _rows(f"{lines:,} lines", results, trec_eval is not None, checks)
    if args.many:
        qrels, runs = collection(1000, args.many, data=args.data)
        tools = {f"IR Lab, {args.many} runs at once": [[*irlab, str(qrels), *map(str, runs)]]}
        if trec_eval:
            tools["trec_eval 10.0, once per file"] = [[trec_eval, str(qrels), str(run)] for run in runs]
        results = {name: timed(commands, args.repeat) for name, commands in tools.items()}
        checks = []
        if trec_eval:
            ours = results[next(iter(results))][3][0].decode().split("\n\n")
            theirs = [out.decode().rstrip("\n") for out in results["trec_eval 10.0, once per file"][3]]
            same = [o.rstrip("\n") for o in ours] == theirs
            checks.append(f"= trec_eval on all {len(runs)}" if same else "DIFFERS from trec_eval")
        rows += _rows(f"{args.many} x 1M lines", results, trec_eval is not None, checks)
    header = ("case", "tool", "min s", "median s", "CPU s", "peak MB", "time vs trec_eval", "memory vs trec_eval",
              "agreement")
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the end")
    for row in [header, tuple("-" * w for w in widths), *rows]:
        print("  ".join(str(cell).ljust(width) for cell, width in zip(row, widths)).rstrip())


def _rows(case: str, results: dict, with_trec_eval: bool, checks: list[str]) -> list[tuple]:
    base = next((r for name, r in results.items() if name.startswith("trec_eval")), None) if with_trec_eval else None
    rows = []
    for name, (walls, cpus, peak, _) in results.items():
        ratio = f"{statistics.median(walls) / statistics.median(base[0]):.2f}x" if base else "-"
        memory = f"{peak / base[2]:.2f}x" if base else "-"
        rows.append((case, name, f"{min(walls):.2f}", f"{statistics.median(walls):.2f}",
                     f"{statistics.median(cpus):.2f}", f"{peak:.0f}", ratio, memory,
                     "; ".join(checks) if name.startswith("IR Lab") else ""))
    return rows


if __name__ == "__main__":
    main()
