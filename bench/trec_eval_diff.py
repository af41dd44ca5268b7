"""Differential check against a real trec_eval 10.0 binary: random collections, random flags, byte for byte.

    python bench/trec_eval_diff.py --trec-eval PATH [--cases 200] [--seed 0]

Each case is a seeded random collection (graded and negative grades, tied scores, unjudged
documents, judged queries the run misses, run queries without judgments, shuffled lines) and
random trec_eval flags (-q, -c, -M, -J, -l, official or all_trec). IR Lab's command line must
print exactly what trec_eval prints. Cases without ``-c`` rank every judged query (trec_eval
10.0 stops otherwise), and every query keeps a grade >= 0 (trec_eval hangs otherwise; see
docs/measures.md). Not a test: it needs the trec_eval binary, which the repository never holds.
"""

from __future__ import annotations

import argparse
import itertools
import random
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = [f"D{i}" for i in range(30)] + ["a", "Z9", "z10", "doc-1", "doc_2", "ü1"]


def case(seed: int) -> tuple[str, str, list[str]]:
    """(qrels text, run text, flags) of one random case."""
    rng = random.Random(seed)
    complete = rng.random() < 0.6
    qrels, run = [], []
    for q in range(rng.randint(1, 5)):
        query = str(rng.choice([q, 100 + q, 9 - q + 20]))
        judged = rng.sample(DOCS, rng.randint(1, 20))
        grades = {doc: rng.choice([-1, 0, 0, 1, 1, 2, 3]) for doc in judged}
        grades[judged[0]] = max(0, grades[judged[0]])
        qrels += [f"{query} 0 {doc} {grade}" for doc, grade in grades.items()]
        if not complete or rng.random() < 0.8 or q == 0:
            tied = rng.random() < 0.6
            for rank, doc in enumerate(rng.sample(DOCS, rng.randint(1, 30))):
                score = rng.choice([1, 2, 3, 0.5, -1]) if tied else round(rng.uniform(-5, 5), 4)
                run.append(f"{query} Q0 {doc} {rank} {score} run{seed}")
    run += [f"777 Q0 {doc} {rank} {rank} run{seed}" for rank, doc in enumerate(DOCS[:3])]
    rng.shuffle(run)
    flags = ["-q"] + (["-c"] if complete else [])
    flags += [f"-M{rng.randint(1, 10)}"] if rng.random() < 0.3 else []
    flags += ["-J"] if rng.random() < 0.3 else []
    flags += [f"-l{rng.randint(1, 3)}"] if rng.random() < 0.3 else []
    flags += ["-m", "all_trec"] if rng.random() < 0.5 else []
    return "\n".join(qrels) + "\n", "\n".join(run) + "\n", flags


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trec-eval", required=True, help="the trec_eval 10.0 binary")
    parser.add_argument("--cases", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    differ = 0
    with tempfile.TemporaryDirectory() as folder:
        qrels_file, run_file = Path(folder) / "qrels.txt", Path(folder) / "run.txt"
        for seed in range(args.seed, args.seed + args.cases):
            qrels, run, flags = case(seed)
            qrels_file.write_text(qrels)
            run_file.write_text(run)
            theirs = subprocess.run([args.trec_eval, *flags, str(qrels_file), str(run_file)], capture_output=True,
                                    text=True, timeout=60)
            ours = subprocess.run([sys.executable, "-m", "irlab", "evaluate", *flags, str(qrels_file), str(run_file)],
                                  capture_output=True, text=True, cwd=ROOT, timeout=60)
            if ours.stdout != theirs.stdout:
                differ += 1
                lines = itertools.zip_longest(theirs.stdout.splitlines(), ours.stdout.splitlines())
                first = next(pair for pair in lines if pair[0] != pair[1])
                print(f"case {seed} {' '.join(flags)}: trec_eval {first[0]!r}, IR Lab {first[1]!r}")
    print(f"{args.cases - differ} of {args.cases} cases print exactly what trec_eval prints")


if __name__ == "__main__":
    main()
