"""A class's shared task at scale: every student's runs submitted and scored, beside trec_eval 10.0 on the same runs.

    python bench/task_scoring.py --trec-eval /work/build/trec_eval/trec_eval [--students 200] [--runs 3]
        [--lines 1000000] [--topics 1000] [--folder DIR]

The qrels and the runs are simulated (:func:`irlab.runs.simulate.simulate`: 1,000 topics with 150 judged
documents each; each run ranks 1,000 documents per topic, re-scored with its own noise, so every run
differs). Each run is then

* scored by trec_eval 10.0 as ``trec_eval -c -m map -m ndcg_cut.10 -m P.10 -m recip_rank`` (one process per
  run, as a lecturer would script it): wall time, CPU time and peak memory (``ru_maxrss`` of the children);
* submitted to the task by its student through the store (:meth:`irlab.sharedtask.store.TaskSeat.submit`:
  read, unpacked, the run doctor on the public topics, scored, the top documents kept, stored in SQLite),
  in one process that submits every run one after the other, as the app's server would: wall time, CPU
  time (``time.process_time``: the doctor and the scoring run in two threads) and the process's peak memory.

Every mean IR Lab stores is compared with trec_eval's printed value (4 decimals): the table says how many
agree. Then the leaderboard of the whole class (each student's best run, intervals, Holm-corrected tests
against the baseline) is timed once. A table is printed; nothing is asserted (bench/, not tests/).
Full scale (200 students x 3 runs x 1M lines) needs about 17 GB of disk for the runs and an hour or more on
two busy cores; ``--students`` scales it down (the cost per run does not depend on the class's size).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

MEASURES = {"AP": "map", "nDCG@10": "ndcg_cut_10", "P@10": "P_10", "RR": "recip_rank"}
TREC_FLAGS = ["-c", "-m", "map", "-m", "ndcg_cut.10", "-m", "P.10", "-m", "recip_rank"]


def generate(folder: Path, students: int, runs: int, lines: int, topics: int) -> list[Path]:
    """The qrels and ``students * runs`` run files in ``folder`` (kept: a second call reuses them)."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.csv as pacsv

    from irlab.runs.simulate import simulate

    depth = max(1, lines // topics)
    paths = [folder / f"s{s:03d}-r{r}.run" for s in range(students) for r in range(runs)]
    if (folder / "hidden.qrels").exists() and all(p.exists() for p in paths):
        return paths
    collection = simulate(topics=topics, systems={"base": 0.8}, depth=depth, judged=150, seed=1)
    (folder / "hidden.qrels").write_text("\n".join(collection.qrels_lines()) + "\n")
    ids = collection.topics
    query = np.concatenate([np.full(len(collection.runs["base"][t][0]), t, dtype=object) for t in ids])
    docs = np.concatenate([collection.runs["base"][t][0] for t in ids])
    scores = np.concatenate([collection.runs["base"][t][1] for t in ids])
    rank = np.concatenate([np.arange(1, len(collection.runs["base"][t][0]) + 1) for t in ids])
    rng = np.random.default_rng(7)
    options = pacsv.WriteOptions(include_header=False, delimiter=" ", quoting_style="none")
    for path in paths:
        if path.exists():
            continue
        noisy = np.round(scores + rng.normal(0.0, 1.0, len(scores)), 2)
        table = pa.table({"q": pa.array(query, pa.string()), "q0": pa.array(["Q0"] * len(docs)),
                          "doc": pa.array(docs, pa.string()), "rank": rank, "score": noisy,
                          "tag": pa.array([path.stem] * len(docs))})
        pacsv.write_csv(table, path, options)
    return paths


def trec_eval(binary: str, qrels: Path, runs: list[Path]) -> dict:
    """trec_eval on each run: total wall and CPU time, the peak memory of any run, and each run's values."""
    values, walls, cpus = {}, [], []
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    for run in runs:
        start, used = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
        out = subprocess.run([binary, *TREC_FLAGS, str(qrels), str(run)], capture_output=True, text=True, check=True)
        walls.append(time.perf_counter() - start)
        now = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(now.ru_utime + now.ru_stime - used.ru_utime - used.ru_stime)
        values[run.name] = {fields[0]: fields[2] for fields in (line.split() for line in out.stdout.splitlines())}
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return {"wall": sum(walls), "median": statistics.median(walls), "cpu": cpu, "cpu_median": statistics.median(cpus),
            "peak_mb": after.ru_maxrss / 1024, "values": values}


def score_all(folder: Path, students: int, runs: int) -> dict:
    """(In its own process.) Create the task and submit every run through the store; times, memory, values."""
    from irlab.sharedtask.store import TaskStore

    store = TaskStore(f"sqlite:///{folder / 'tasks.sqlite'}")
    qrels = (folder / "hidden.qrels").read_bytes()
    roster = [f"student-{s:03d}" for s in range(students)]
    new = store.create({"title": "bench", "measures": list(MEASURES), "deadline": time.time() + 86_400,
                        "roster": roster, "max_submissions": runs, "max_run_mb": 200}, qrels, "hidden.qrels")
    walls, cpus = [], []
    cpu_start = time.process_time()
    for s, name in enumerate(roster):
        seat = store.seat(new.code, new.tokens[name])
        for r in range(runs):
            path = folder / f"s{s:03d}-r{r}.run"
            start, used = time.perf_counter(), time.process_time()
            seat.submit(path.read_bytes(), path.name)
            walls.append(time.perf_counter() - start)
            cpus.append(time.process_time() - used)
    cpu = time.process_time() - cpu_start
    desk = store.desk(new.code, new.key)
    start = time.perf_counter()
    view = desk.view()
    board_seconds = time.perf_counter() - start
    values = {s.name: {m: f"{v:.4f}" for m, v in s.means.items()} for s in view.submissions}  # the lecturer's: all
    return {"wall": sum(walls), "median": statistics.median(walls), "cpu": cpu, "cpu_median": statistics.median(cpus),
            "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, "board_seconds": board_seconds,
            "board_rows": len(view.board), "values": values}


def board_timing(students: int, topics: int, test: str = "t") -> dict:
    """The leaderboard of a whole class (synthetic per-topic values): every interval and test computed (cold),
    then again after one student's new submission, with the rest remembered as the task store does (warm)."""
    import numpy as np

    from irlab.runs.significance import bootstrap_interval, paired_p
    from irlab.sharedtask.leaderboard import leaderboard

    rng = np.random.default_rng(1)
    values = {f"#{s}": {m: rng.random(topics) for m in MEASURES} for s in range(students + 1)}
    memo: dict = {}

    def interval(entry, m):
        key = ("i", entry, m, id(values[entry][m]))
        if key not in memo:
            memo[key] = bootstrap_interval(values[entry][m])
        return memo[key]

    def p_value(entry, m):
        key = ("p", entry, m, id(values[entry][m]))
        if key not in memo:
            memo[key] = paired_p(values[entry][m] - values["#0"][m], test)
        return memo[key]

    start = time.perf_counter()
    leaderboard(values, [str(t) for t in range(topics)], list(MEASURES), baseline="#0", test=test,
                interval=interval, p_value=p_value)
    cold = time.perf_counter() - start
    values["#1"] = {m: rng.random(topics) for m in MEASURES}  # one student's new best run
    start = time.perf_counter()
    leaderboard(values, [str(t) for t in range(topics)], list(MEASURES), baseline="#0", test=test,
                interval=interval, p_value=p_value)
    return {"cold": cold, "warm": time.perf_counter() - start}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trec-eval", default=os.environ.get("TREC_EVAL", "trec_eval"))
    parser.add_argument("--students", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--topics", type=int, default=1_000)
    parser.add_argument("--folder", type=Path, help="keep the generated files here (reused by the next call)")
    parser.add_argument("--score-only", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--board-only", action="store_true", help="time the class's leaderboard only")
    args = parser.parse_args()
    if args.board_only:
        for test in ("t", "randomisation"):
            found = board_timing(args.students, args.topics, test)
            print(f"leaderboard of {args.students} students + baseline, {args.topics} topics, {len(MEASURES)} "
                  f"measures, {test}-test: every value computed {found['cold']:.1f} s; after one new submission "
                  f"{found['warm']:.2f} s")
        return
    if args.score_only:
        print(json.dumps(score_all(args.score_only, args.students, args.runs)))
        return
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.folder or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        start = time.perf_counter()
        runs = generate(folder, args.students, args.runs, args.lines, args.topics)
        print(f"generated {len(runs)} runs of {args.lines:,} lines in {time.perf_counter() - start:.0f} s",
              file=sys.stderr)
        (folder / "tasks.sqlite").unlink(missing_ok=True)
        theirs = trec_eval(args.trec_eval, folder / "hidden.qrels", runs)
        out = subprocess.run([sys.executable, __file__, "--score-only", str(folder), "--students", str(args.students),
                              "--runs", str(args.runs)], capture_output=True, text=True, check=True, cwd=ROOT)
        ours = json.loads(out.stdout.splitlines()[-1])
    agree = sum(ours["values"][name][m] == theirs["values"][name][trec] for name in ours["values"]
                for m, trec in MEASURES.items())
    total = len(ours["values"]) * len(MEASURES)
    print(f"\n{args.students} students x {args.runs} runs x {args.lines:,} lines ({len(runs)} runs), "
          f"{args.topics} topics, measures {', '.join(MEASURES)}\n")
    print(f"| {'':<34} | {'trec_eval 10.0':>15} | {'IR Lab task':>15} | {'ratio':>6} |")
    print(f"|{'-' * 36}|{'-' * 17}|{'-' * 17}|{'-' * 8}|")
    for label, key, unit in (("wall time, every run (s)", "wall", "{:.1f}"), ("median wall time per run (s)",
                                                                                "median", "{:.2f}"),
                             ("CPU time, every run (s)", "cpu", "{:.1f}"),
                             ("median CPU time per run (s)", "cpu_median", "{:.2f}"),
                             ("peak memory (MB)", "peak_mb", "{:.0f}")):
        print(f"| {label:<34} | {unit.format(theirs[key]):>15} | {unit.format(ours[key]):>15} | "
              f"{ours[key] / theirs[key]:>5.2f}x |")
    print(f"\nmeans equal to trec_eval's printed value: {agree} of {total}")
    print(f"leaderboard of {ours['board_rows']} students (intervals, Holm-corrected t-tests, 4 measures): "
          f"{ours['board_seconds']:.2f} s")
    print("IR Lab's column includes, per run: reading the file, the run doctor (public checks), scoring, keeping the "
          "top 100 documents per topic, and storing; trec_eval's only scoring.")


if __name__ == "__main__":
    main()
