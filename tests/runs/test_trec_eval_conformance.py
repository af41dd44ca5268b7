"""irlab.evaluate against trec_eval's own test data and expected outputs (trec_eval 10.0).

The files come from the ``trec_eval_test`` fixture (skipped with the reason when they are
missing). Every value of a measure we implement must print exactly as trec_eval prints it (``%.4f``).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from irlab.runs.evaluate import evaluate
from irlab.runs.trec import read_qrels, read_run

# expected output, qrels, run, evaluate() options: the commands of trec_eval's Makefile
CASES = {
    "out.test": ("qrels.test", "results.test", {"missing_queries": "ignore"}),
    "out.test.a": ("qrels.test", "results.test", {"missing_queries": "ignore"}),
    "out.test.aq": ("qrels.test", "results.test", {"missing_queries": "ignore"}),
    "out.test.aqc": ("qrels.test", "results.trunc", {"missing_queries": "zero"}),
    "out.test.aqcM": ("qrels.test", "results.trunc", {"missing_queries": "zero", "depth": 100}),
    "out.test.aql": ("qrels.rel_level", "results.test", {"missing_queries": "ignore", "relevance_level": 2}),
    "out.test.meas_params": ("qrels.test", "results.test", {"missing_queries": "ignore"}),
    "out.comment.test": ("qrels.comment.test", "results.comment.test", {"missing_queries": "ignore"}),
}

_CUTOFF = {"P": "P", "recall": "R", "map_cut": "AP", "ndcg_cut": "nDCG", "success": "Success"}
_PLAIN = {"map": "AP", "recip_rank": "RR", "ndcg": "nDCG", "Rprec": "Rprec"}


def our_measure(trec_name: str) -> str | None:
    """Our spelling of a trec_eval measure, or None for measures we do not implement."""
    if trec_name in _PLAIN:
        return _PLAIN[trec_name]
    if match := re.fullmatch(r"(P|recall|map_cut|ndcg_cut|success)_(\d+)", trec_name):
        return f"{_CUTOFF[match.group(1)]}@{match.group(2)}"
    if match := re.fullmatch(r"ndcg_((?:\d+=[\d.]+,?)+)", trec_name):
        gains = {int(level): float(gain) for level, gain in (pair.split("=") for pair in match.group(1).split(","))}
        return f"nDCG(gains={gains!r})"
    return None


def expected_values(folder: Path, name: str) -> dict[tuple[str, str], str]:
    """(our measure, query id or 'all') -> the value as trec_eval printed it."""
    values = {}
    for line in (folder / name).read_text().splitlines():
        trec_name, query, value = line.split()
        if (ours := our_measure(trec_name)) is not None:
            values[(ours, query)] = value
    return values


@pytest.mark.parametrize("name", sorted(CASES))
def test_evaluate_prints_what_trec_eval_prints(name, trec_eval_test):
    qrels_file, run_file, options = CASES[name]
    expected = expected_values(trec_eval_test, name)
    assert expected, f"{name} holds none of our measures"
    measures = sorted({measure for measure, _ in expected})
    qrels, run = read_qrels(trec_eval_test / qrels_file), read_run(trec_eval_test / run_file)
    per_query = evaluate(qrels, run, measures, per_query=True, **options)
    means = evaluate(qrels, run, measures, **options)
    mismatches = []
    for (measure, query), value in expected.items():
        ours = means[measure] if query == "all" else per_query[measure][query]
        if f"{ours:.4f}" != value:
            mismatches.append(f"{measure} {query}: ours {ours:.6f}, trec_eval {value}")
    assert not mismatches, "\n".join(mismatches)
    if "out.test.aq" in name:  # per-query files list every evaluated query, and nothing else
        assert {q for _, q in expected if q != "all"} == set(next(iter(per_query.values())))


def test_the_mapping_covers_the_measures_of_the_issue():
    names = {our_measure(n) for n in ["P_5", "recall_5", "recip_rank", "map", "map_cut_10", "ndcg", "ndcg_cut_10",
                                      "Rprec", "success_5", "ndcg_1=3,2=9,4=4.5"]}
    assert names == {"P@5", "R@5", "RR", "AP", "AP@10", "nDCG", "nDCG@10", "Rprec", "Success@5",
                     "nDCG(gains={1: 3.0, 2: 9.0, 4: 4.5})"}
    assert our_measure("bpref") is None


# trec_eval's other judgment formats, through the Python API (tests/cli checks the same files byte for byte)
FORMAT_CASES = {
    "out.test.prefs": ("prefs.test", "prefs", "prefs.results.test", "all_prefs"),
    "out.test.qrels_prefs": ("qrels.test", "qrels_prefs", "results.test", "all_prefs"),
    "out.test.qrels_jg": ("qrels.123", "qrels_jg", "results.test", "qrels_jg"),
}


@pytest.mark.parametrize("name", sorted(FORMAT_CASES))
def test_the_evaluator_gives_trec_evals_values_for_other_judgment_formats(name, trec_eval_test):
    import irlab

    judgments, rel_format, run, measures = FORMAT_CASES[name]
    evaluator = irlab.Evaluator(irlab.read_judgments(trec_eval_test / judgments, rel_format), [measures])
    per_query, summary = evaluator.evaluate(trec_eval_test / run), evaluator.summary(trec_eval_test / run)
    mismatches = []
    for line in (trec_eval_test / name).read_text().splitlines():
        measure, query, value = line.split()
        ours = summary[measure] if query == "all" else per_query[query][measure]
        shown = ours if isinstance(ours, str) else f"{ours:.4f}" if isinstance(ours, float) else str(ours)
        if shown != value:
            mismatches.append(f"{measure} {query}: ours {shown}, trec_eval {value}")
    assert not mismatches, "\n".join(mismatches)
