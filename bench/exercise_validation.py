"""What checking an exercise file's shape costs: IR Lab's checker of the schema beside the ``jsonschema`` library.

    python bench/exercise_validation.py [--repeat 7]

Both apply the same schema (irlab/exercises/format/schema.py) to the same JSON value; the table gives the best of
``--repeat`` runs per file, and the whole read (``parse_exercise``: JSON text, shape, the rules that need the
whole file and every answer computed) for scale. The files: the two shipped examples, and two valid files near
the 256 KB limit (200 items with 100 queries judging every item; 20 systems ranking all 200 items for 60
queries). Every upload, link and builder edit is checked, so this is server time per request. Not a test:
timings depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from jsonschema import Draft202012Validator  # noqa: E402

from irlab.exercises import parse_exercise  # noqa: E402
from irlab.exercises.format.examples import builtin_text  # noqa: E402
from irlab.exercises.format.schema import exercise_schema  # noqa: E402
from irlab.exercises.format.schema_check import shape_problems  # noqa: E402


def many_judgments() -> dict:
    items = [{"id": str(n), "label": "D"} for n in range(200)]
    queries = [{"id": f"q{i}", "scale": "binary", "judgments": {str(j): 1 for j in range(200)}} for i in range(100)]
    systems = [{"id": "s", "rankings": {f"q{i}": ["1"] for i in range(100)}}]
    questions = [{"id": f"x{k}", "measure": "P@1", "query": f"q{k}", "system": "s"} for k in range(100)]
    return {"schema_version": 1, "title": "t", "items": items, "queries": queries, "systems": systems,
            "questions": questions}


def many_rankings() -> dict:
    items = [{"id": str(n), "label": "D"} for n in range(200)]
    queries = [{"id": f"q{i}", "scale": "binary", "judgments": {"1": 1}} for i in range(60)]
    ranking = [str(n) for n in range(200)]
    systems = [{"id": f"s{k}", "rankings": {f"q{i}": ranking for i in range(60)}} for k in range(3)]
    questions = [{"id": f"x{k}", "measure": "P@5", "query": f"q{k}", "system": "s0"} for k in range(60)]
    return {"schema_version": 1, "title": "t", "items": items, "queries": queries, "systems": systems,
            "questions": questions}


def best(run, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    reference = Draft202012Validator(exercise_schema())
    files = {name: json.loads(builtin_text(name)) for name in ("cats-in-boxes", "ndcg-exercise")}
    files |= {"100 queries x 200 judgments": many_judgments(), "3 systems x 60 rankings x 200": many_rankings()}
    print(f"{'file':32} {'KB':>5} {'jsonschema ms':>14} {'IR Lab ms':>10} {'ratio':>6} {'whole read ms':>14}")
    for name, document in files.items():
        text = json.dumps(document, separators=(",", ":"))
        assert not list(reference.iter_errors(document)) and not shape_problems(document)
        theirs = best(lambda d=document: list(reference.iter_errors(d)), args.repeat)
        ours = best(lambda d=document: shape_problems(d), args.repeat)
        whole = best(lambda t=text: parse_exercise(t), max(1, args.repeat // 3))
        print(f"{name:32} {len(text) / 1024:5.0f} {theirs:14.1f} {ours:10.1f} {theirs / ours:6.1f} {whole:14.1f}")


if __name__ == "__main__":
    main()
