"""The Python API with trec_eval's flags: irlab.Evaluator reused across runs, -J and -N, and measures=[].

pytrec_eval's RelevanceEvaluator is the model (and the oracle, with its trec_eval 9 rule for missing
queries, missing_queries="ignore"); the command line is the other (every -R format).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import irlab
from irlab.cli import main as cli
from irlab.errors import ValidationError

pytrec_eval = pytest.importorskip("pytrec_eval")

DOCS = [f"d{i}" for i in range(20)] + ["D7", "a", "z9"]
SHARED = ["map", "P.1,5,10", "ndcg_cut.3,10", "recip_rank", "bpref", "Rprec", "num_rel_ret", "recall.5"]


def collection(seed: int) -> tuple[dict, list[dict]]:
    """Qrels and three runs (float32 scores, many ties: pytrec_eval keeps single precision)."""
    rng = random.Random(seed)
    qrels = {f"q{q}": {d: rng.choice([-1, 0, 0, 1, 2]) for d in rng.sample(DOCS, rng.randint(2, 12))}
             for q in range(rng.randint(1, 5))}
    for judged in qrels.values():
        judged[next(iter(judged))] = 1
    runs = [{q: {d: rng.choice([0.5, 1.0, 2.0, 3.25]) for d in rng.sample(DOCS, rng.randint(1, 15))}
             for q in qrels if q == "q0" or rng.random() < 0.8} | {"extra": {"d1": 1.0}} for _ in range(3)]
    return qrels, runs


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("judged_only", [False, True])
def test_an_evaluator_reused_across_runs_gives_pytrec_evals_values(seed, judged_only):
    qrels, runs = collection(seed)
    ours = irlab.Evaluator(qrels, SHARED, judged_only=judged_only, missing_queries="ignore")
    theirs = pytrec_eval.RelevanceEvaluator(qrels, set(SHARED), judged_docs_only_flag=judged_only)
    for run in runs:  # one evaluator, many runs: the same values, bit for bit (counts as numbers)
        assert ours.evaluate(run) == theirs.evaluate(run)


def test_evaluator_equals_irlab_evaluate_and_the_command_line(tmp_path, capsys):
    qrels, runs = collection(3)
    evaluator = irlab.Evaluator(qrels, ["map", "nDCG@5", "P.5"])
    for run in runs:
        per_query = evaluator.evaluate(run)
        expected = irlab.evaluate(qrels, run, ["map", "nDCG@5", "P@5"], per_query=True)
        assert {q: v["map"] for q, v in per_query.items()} == expected["map"]
        assert {q: v["P_5"] for q, v in per_query.items()} == expected["P@5"]
        assert evaluator.summary(run)["nDCG@5"] == irlab.evaluate(qrels, run, "nDCG@5")["nDCG@5"]
    # judgments of another format, and a run from its file, as `irlab evaluate -R qrels_prefs`
    (tmp_path / "qrels.txt").write_text("".join(f"{q} 0 {d} {g}\n" for q, j in qrels.items() for d, g in j.items()
                                                if g >= 0))
    (tmp_path / "run.txt").write_text("".join(f"{q} Q0 {d} 1 {s} r\n" for q, r in runs[0].items()
                                              for d, s in r.items()))
    prefs = irlab.Evaluator(irlab.read_judgments(tmp_path / "qrels.txt", "qrels_prefs"), ["prefs_simp", "prefs_pair"])
    summary = prefs.summary(tmp_path / "run.txt")
    cli(["evaluate", "-c", "-R", "qrels_prefs", "-m", "prefs_simp", "-m", "prefs_pair", str(tmp_path / "qrels.txt"),
         str(tmp_path / "run.txt")])
    printed = dict(line.split()[::2] for line in capsys.readouterr().out.splitlines())
    assert printed == {name: f"{value:.4f}" for name, value in summary.items()}


def test_no_measure_answers_as_pytrec_eval_does():
    qrels, runs = collection(1)
    ours = irlab.Evaluator(qrels, [], missing_queries="ignore").evaluate(runs[0])
    assert ours == pytrec_eval.RelevanceEvaluator(qrels, set()).evaluate(runs[0])
    assert ours and all(values == {} for values in ours.values())
    assert irlab.Evaluator(qrels, []).summary(runs[0]) == {} and irlab.evaluate(qrels, runs[0], []) == {}


def test_collection_size_and_judged_only_are_trec_evals_N_and_J(tmp_path, capsys):
    qrels = {"q": {"a": 1, "b": 0, "c": 1}}
    run = {"q": {"a": 3.0, "x": 2.0, "b": 1.0}}
    (tmp_path / "q.txt").write_text("q 0 a 1\nq 0 b 0\nq 0 c 1\n")
    (tmp_path / "r.txt").write_text("q Q0 a 1 3 r\nq Q0 x 2 2 r\nq Q0 b 3 1 r\n")
    for flags, kwargs in ((["-N", "1000", "-m", "utility"], {"collection_size": 1000}),
                          (["-J", "-m", "P.2"], {"judged_only": True})):
        cli(["evaluate", *flags, str(tmp_path / "q.txt"), str(tmp_path / "r.txt")])
        name, _, value = capsys.readouterr().out.split()
        measure = "utility" if "utility" in flags else "P.2"
        assert f"{irlab.Evaluator(qrels, [measure], **kwargs).summary(run)[name]:.4f}" == value
    assert irlab.evaluate(qrels, run, "P@2", judged_only=True) == {"P@2": 0.5}
    assert irlab.evaluate(qrels, run, "P@2") == {"P@2": 0.5} and irlab.evaluate(qrels, run, "P@1") == {"P@1": 1.0}
    with pytest.raises(ValidationError, match="collection size"):
        irlab.Evaluator(qrels, ["utility"], collection_size=-1)
    with pytest.raises(ValidationError, match="judgment formats are qrels, qrels_jg, prefs"):
        irlab.read_judgments(Path("x"), "trec")
