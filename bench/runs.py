"""The runs engine beside trec_eval 10.0 and pytrec_eval: wall time and peak memory, whole processes.

    python bench/runs.py [--sizes 10,100,1000] [--repeat 3] [--trec-eval PATH | --trec-eval-src DIR]

A seeded simulated collection (:mod:`irlab.runs.simulate`: 1,000 retrieved documents per query
with tied scores, about 100 judged documents per query graded 0-3, some queries without
relevant documents, some judged documents never retrieved) is written at 10, 100 and 1,000
queries (10k, 100k and 1M run lines) into bench/results/ (git-ignored). Each tool evaluates
trec_eval's default measures as a separate process, ``--repeat`` times; the table gives the
minimum and median wall time, the peak memory (maximum resident set size) and the ratio to
trec_eval. Then the three are checked against each other: IR Lab's output must equal
trec_eval's byte for byte, and pytrec_eval's per-query values must print the same
(``iprec_at_recall`` aside: pytrec_eval bundles trec_eval 9, which rounded recall levels
differently). Not a test: timings depend on the machine and its load.

trec_eval is found with ``--trec-eval``, ``$TREC_EVAL``, or ``trec_eval`` on the PATH; or built
from a source folder with ``--trec-eval-src`` (``git clone https://github.com/usnistgov/trec_eval``,
then ``make`` runs in it). Without it the trec_eval column is left out, with the reason.
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
RESULTS = ROOT / "bench" / "results" / "runs"

PYTREC = """
import json, sys, pytrec_eval
with open(sys.argv[1]) as f:
    qrels = pytrec_eval.parse_qrel(f)
with open(sys.argv[2]) as f:
    run = pytrec_eval.parse_run(f)
measures = {"num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank", "iprec_at_recall", "P"}
json.dump(pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(run), sys.stdout)
"""


GENERATE = """
import sys
from pathlib import Path
from irlab.runs.simulate import simulate
queries, folder = int(sys.argv[1]), Path(sys.argv[2])
data = simulate(topics=queries, systems={"bench": 1.0}, depth=1000, judged=100, seed=queries)
(folder / "qrels.txt").write_text("\\n".join(data.qrels_lines()) + "\\n")
(folder / "run.txt").write_text("\\n".join(data.run_lines("bench")) + "\\n")
"""


def collection(queries: int) -> tuple[Path, Path]:
    """The qrels and run files of the simulated collection with ``queries`` queries (written once).

    Generated in a child process: this one stays small, because a child's peak memory starts at
    its parent's size when it is forked.
    """
    folder = RESULTS / f"{queries}q"
    qrels, run = folder / "qrels.txt", folder / "run.txt"
    if not run.exists():
        folder.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, "-c", GENERATE, str(queries), str(folder)], cwd=ROOT, check=True)
    return qrels, run


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


def timed(command: list[str], repeat: int) -> tuple[list[float], float, bytes]:
    """Wall times of ``repeat`` runs, the largest peak memory (MB), and the last output."""
    times, peak, out = [], 0.0, b""
    gnu_time = Path(GNU_TIME).exists()
    for _ in range(repeat):
        with tempfile.TemporaryFile() as sink, tempfile.NamedTemporaryFile("r") as memory:
            wrapped = [GNU_TIME, "-f", "%M", "-o", memory.name, *command] if gnu_time else command
            start = time.perf_counter()
            process = subprocess.Popen(wrapped, stdout=sink, stderr=subprocess.PIPE,
                                       env={**os.environ, "PYTHONPATH": str(ROOT)})
            _, status, usage = os.wait4(process.pid, 0)
            times.append(time.perf_counter() - start)
            if os.waitstatus_to_exitcode(status):
                raise RuntimeError(f"{command[0]} failed: {process.stderr.read().decode()[-500:]}")
            kilobytes = int(memory.read().split()[-1]) if gnu_time else usage.ru_maxrss
            peak = max(peak, kilobytes / 1024)
            sink.seek(0)
            out = sink.read()
    return times, peak, out


def agree_with_pytrec(ours: str, pytrec: dict) -> int:
    """How many per-query values pytrec_eval prints differently from IR Lab (iprec aside)."""
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
    parser.add_argument("--sizes", default="10,100,1000", help="queries per collection (1,000 run lines each)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--trec-eval", help="the trec_eval binary")
    parser.add_argument("--trec-eval-src", help="a trec_eval source folder to build")
    args = parser.parse_args()
    trec_eval, why = find_trec_eval(args.trec_eval, args.trec_eval_src)
    try:
        import pytrec_eval  # noqa: F401
        has_pytrec = True
    except ImportError:
        has_pytrec = False
    if not trec_eval:
        print(f"note: {why}")
    rows = []
    for size in (int(s) for s in args.sizes.split(",")):
        qrels, run = collection(size)
        lines = sum(1 for _ in run.open())
        tools = {"IR Lab": [sys.executable, "-m", "irlab", "evaluate", str(qrels), str(run)]}
        if trec_eval:
            tools["trec_eval 10.0"] = [trec_eval, str(qrels), str(run)]
        if has_pytrec:
            tools["pytrec_eval"] = [sys.executable, "-c", PYTREC, str(qrels), str(run)]
        results = {name: timed(command, args.repeat) for name, command in tools.items()}
        checks = []
        if trec_eval:
            same = results["IR Lab"][2] == results["trec_eval 10.0"][2]
            checks.append("= trec_eval" if same else "DIFFERS from trec_eval")
        if has_pytrec:
            _, _, ours_q = timed([sys.executable, "-m", "irlab", "evaluate", "-q", str(qrels), str(run)], 1)
            wrong = agree_with_pytrec(ours_q.decode(), json.loads(results["pytrec_eval"][2]))
            checks.append("= pytrec_eval" if not wrong else f"{wrong} values differ from pytrec_eval")
        base = statistics.median(results["trec_eval 10.0"][0]) if trec_eval else None
        for name, (times, peak, _) in results.items():
            ratio = f"{statistics.median(times) / base:.2f}x" if base else "-"
            rows.append((f"{lines:,}", name, f"{min(times):.3f}", f"{statistics.median(times):.3f}", f"{peak:.0f}",
                         ratio, "; ".join(checks) if name == "IR Lab" else ""))
    header = ("run lines", "tool", "min s", "median s", "peak MB", "vs trec_eval", "agreement")
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    for row in [header, tuple("-" * w for w in widths), *rows]:
        print("  ".join(str(cell).ljust(width) for cell, width in zip(row, widths)))


if __name__ == "__main__":
    main()
