"""Differential check against a real trec_eval 10.0 binary: random collections, random flags, byte for byte.

    python bench/trec_eval_diff.py --trec-eval PATH [--cases 200] [--seed 0] [--kind KIND ...]

Each case is a seeded random collection and random trec_eval flags; IR Lab's command line must
print exactly what trec_eval prints, and exit with its status. The kinds:

* ``qrels``: graded and negative grades, tied scores, unjudged documents, judged queries the run
  misses, run queries without judgments, shuffled lines; -q, -c, -M (0 too), -J, -l, official or
  all_trec, and trec_eval 10.0's dcg, ideal_dcg (with gains) and yaap;
* ``zscores``: the same with ``-Z`` and a z-score file (missing queries and measures, standard
  deviations of 0, a mean equal to the value); its last query sorts after every other and each
  query's last measure after every name (trec_eval's binary searches read one entry past the end:
  the next query's first line, or memory that crashes it; docs/measures.md);
* ``qrels_jg``: ``-R qrels_jg``, one to three judgment groups per query, ``-m qrels_jg`` with -c,
  -M, -J, -l;
* ``prefs``: ``-R prefs``, judgment groups of one sub-group (equivalence classes) and of several
  (transitive preferences), levels 0 and above, ``-m all_prefs`` with -c and -M;
* ``qrels_prefs``: ``-R qrels_prefs``, qrels read as preferences, ``-m all_prefs``.

Cases without ``-c`` rank every judged query (trec_eval 10.0 stops otherwise), every query keeps a
grade >= 0 (trec_eval hangs otherwise; see docs/measures.md), a judgment group's preferences never
contradict each other (trec_eval aborts), and ``-m rbp`` is not asked beside ndcg, dcg or
ideal_dcg (trec_eval's rbp then reads uninitialised memory; docs/measures.md). Not a test: it
needs the trec_eval binary, which the repository never holds. IR Lab runs in this process
(``irlab.cli.main``), trec_eval as a program.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import itertools
import random
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DOCS = [f"D{i}" for i in range(30)] + ["a", "Z9", "z10", "doc-1", "doc_2", "ü1"]
KINDS = ("qrels", "zscores", "qrels_jg", "prefs", "qrels_prefs")


def _queries(rng: random.Random) -> list[str]:
    return list(dict.fromkeys(str(rng.choice([q, 100 + q, 9 - q + 20])) for q in range(rng.randint(1, 5))))


def _run(rng: random.Random, queries: list[str], judged: dict[str, list[str]], complete: bool, seed: int) -> str:
    lines = []
    for q, query in enumerate(queries):
        if not complete or rng.random() < 0.8 or q == 0:
            tied = rng.random() < 0.6
            pool = list(dict.fromkeys(judged[query] + rng.sample(DOCS, 10)))
            for rank, doc in enumerate(rng.sample(pool, rng.randint(1, min(30, len(pool))))):
                score = rng.choice([1, 2, 3, 0.5, -1]) if tied else round(rng.uniform(-5, 5), 4)
                lines.append(f"{query} Q0 {doc} {rank} {score} run{seed}")
    lines += [f"777 Q0 {doc} {rank} {rank} run{seed}" for rank, doc in enumerate(DOCS[:3])]
    rng.shuffle(lines)
    return "\n".join(lines) + "\n"


def _depth_flags(rng: random.Random, complete: bool, judged_only: bool = True, level: bool = True) -> list[str]:
    flags = ["-q"] + (["-c"] if complete else [])
    flags += [f"-M{rng.randint(0, 10)}"] if rng.random() < 0.3 else []
    flags += ["-J"] if judged_only and rng.random() < 0.3 else []
    flags += [f"-l{rng.randint(1, 3)}"] if level and rng.random() < 0.3 else []
    return flags


def qrels_case(seed: int) -> tuple[str, str, list[str], str | None]:
    """(qrels text, run text, flags, z-score text or None) of one random case with qrels."""
    rng = random.Random(seed)
    complete = rng.random() < 0.6
    queries = _queries(rng)
    qrels, judged = [], {}
    for query in queries:
        docs = rng.sample(DOCS, rng.randint(1, 20))
        grades = {doc: rng.choice([-1, 0, 0, 1, 1, 2, 3]) for doc in docs}
        grades[docs[0]] = max(0, grades[docs[0]])
        qrels += [f"{query} 0 {doc} {grade}" for doc, grade in grades.items()]
        judged[query] = docs
    flags = _depth_flags(rng, complete)
    measures = rng.choice([[], ["-m", "all_trec"], ["-m", "dcg", "-m", "ideal_dcg", "-m", "yaap", "-m", "ndcg"],
                           ["-m", "dcg.1=3,2=9", "-m", "yaap", "-m", "P.5"], ["-m", "ideal_dcg.1=2,3=5"]])
    return "\n".join(qrels) + "\n", _run(rng, queries, judged, complete, seed), flags + measures, None


def zscores_case(seed: int) -> tuple[str, str, list[str], str | None]:
    """A qrels case with -Z and a z-score file for some of its queries and measures."""
    qrels, run, flags, _ = qrels_case(seed)
    rng = random.Random(seed + 1_000_000)
    queries = sorted({line.split()[0] for line in qrels.splitlines()})
    names = ["num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank", "P_5", "P_10",
             "iprec_at_recall_0.00", "ndcg", "dcg", "yaap", "ideal_dcg", "recall_5", "utility", "bpref", "num_q"]
    lines = []
    for query in queries + ["999"]:  # "999" and "zzz" end each list: trec_eval's searches read past the end
        for name in [*dict.fromkeys(rng.sample(names, rng.randint(0, len(names)))), "zzz"]:
            mean = rng.choice([0.0, 0.5, 1.0, round(rng.uniform(0, 20), 3)])
            sd = rng.choice([0.0, 0.1, round(rng.uniform(0.01, 5), 3)])
            lines.append(f"{query} {name} {mean} {sd}")
    rng.shuffle(lines)
    return qrels, run, ["-Z", "ZSCORES", *flags], "\n".join(lines or ["1 map 0.1 0.1"]) + "\n"


def qrels_jg_case(seed: int) -> tuple[str, str, list[str], str | None]:
    """Qrels by judgment group: one to three groups per query, each with a grade >= 0."""
    rng = random.Random(seed)
    complete = rng.random() < 0.6
    queries = _queries(rng)
    qrels, judged = [], {}
    for query in queries:
        judged[query] = []
        for group in rng.sample(["0", "1", "2", "u7"], rng.randint(1, 3)):
            docs = rng.sample(DOCS, rng.randint(1, 15))
            grades = {doc: rng.choice([-1, 0, 0, 1, 1, 2]) for doc in docs}
            grades[docs[0]] = max(0, grades[docs[0]])
            qrels += [f"{query} {group} {doc} {grade}" for doc, grade in grades.items()]
            judged[query] += docs
    rng.shuffle(qrels)
    flags = ["-R", "qrels_jg", *_depth_flags(rng, complete), "-m", rng.choice(["qrels_jg", "P_avgjg.1,3,10",
                                                                                 "Rprec_mult_avgjg.0.5,1,2"])]
    return "\n".join(qrels) + "\n", _run(rng, queries, judged, complete, seed), flags, None


def prefs_case(seed: int, *, qrels_format: bool = False) -> tuple[str, str, list[str], str | None]:
    """Preferences: judgment groups of one sub-group or several, each group consistent (one latent level per doc)."""
    rng = random.Random(seed)
    complete = rng.random() < 0.6
    queries = _queries(rng)
    lines, judged = [], {}
    for query in queries:
        judged[query] = []
        for group in rng.sample(["g1", "g2", "u", "0"], rng.randint(1, 3)):
            docs = rng.sample(DOCS, rng.randint(2, 12))
            latent = {doc: rng.choice([0, 0, 1, 2, 3, 0.5, 7]) for doc in docs}
            subgroups = 1 if qrels_format or rng.random() < 0.5 else rng.randint(2, 3)
            for sub in range(subgroups):
                shown = docs if subgroups == 1 else rng.sample(docs, rng.randint(1, len(docs)))
                for doc in shown:
                    if qrels_format:
                        lines.append(f"{query} {group} {doc} {latent[doc]}")
                    else:
                        lines.append(f"{query} {group} s{sub} {doc} {latent[doc]}")
            judged[query] += docs
    rng.shuffle(lines)
    flags = ["-R", "qrels_prefs" if qrels_format else "prefs", *_depth_flags(rng, complete, False, False), "-m",
             rng.choice(["all_prefs", "prefs", "prefs_avgjg_Rnonrel", "prefs_pair_imp"])]
    return "\n".join(lines) + "\n", _run(rng, queries, judged, complete, seed), flags, None


CASES = {"qrels": qrels_case, "zscores": zscores_case, "qrels_jg": qrels_jg_case, "prefs": prefs_case,
         "qrels_prefs": lambda seed: prefs_case(seed, qrels_format=True)}


def ours(args: list[str]) -> tuple[int, str]:
    """IR Lab's exit status and standard output for ``irlab evaluate args``, in this process."""
    from irlab.cli import main as irlab

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        try:
            status = irlab(["evaluate", *args])
        except SystemExit as stop:
            status = stop.code
    return status, out.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trec-eval", required=True, help="the trec_eval 10.0 binary")
    parser.add_argument("--cases", type=int, default=200, help="cases per kind")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--kind", nargs="*", choices=KINDS, default=list(KINDS))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        qrels_file, run_file, z_file = (Path(folder) / name for name in ("qrels.txt", "run.txt", "z.txt"))
        for kind in args.kind:
            same = 0
            for seed in range(args.seed, args.seed + args.cases):
                qrels, run, flags, zscores = CASES[kind](seed)
                qrels_file.write_text(qrels)
                run_file.write_text(run)
                if zscores is not None:
                    z_file.write_text(zscores)
                flags = [str(z_file) if flag == "ZSCORES" else flag for flag in flags]
                theirs = subprocess.run([args.trec_eval, *flags, str(qrels_file), str(run_file)], capture_output=True,
                                        text=True, timeout=60)
                status, out = ours([*flags, str(qrels_file), str(run_file)])
                if out == theirs.stdout and (status == theirs.returncode or theirs.returncode == 4 == status):
                    same += 1
                    continue
                lines = itertools.zip_longest(theirs.stdout.splitlines(), out.splitlines())
                first = next((pair for pair in lines if pair[0] != pair[1]), ("", ""))
                print(f"{kind} case {seed} {' '.join(flags)}: trec_eval {first[0]!r} (exit {theirs.returncode}), "
                      f"IR Lab {first[1]!r} (exit {status})")
            print(f"{kind}: {same} of {args.cases} cases print exactly what trec_eval prints")


if __name__ == "__main__":
    main()
