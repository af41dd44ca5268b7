"""trec_eval as an oracle: random qrels and runs through pytrec_eval (trec_eval's C code) and irlab.

The random cases have graded and negative (unjudged) grades, many tied scores, queries without
relevant documents, runs shorter than the cutoffs, unjudged documents in the runs, and doc ids
whose string order differs from their numeric order, so tie-breaking is exercised.

Every query keeps at least one judgment >= 0: trec_eval hangs on a query whose judgments are all
-1 once it has evaluated another query (form_res_rels reuses a stale ``num_rel_levels``), so that
case is checked against the definition instead (test_evaluate.py). pytrec_eval also keeps scores
in single precision (trec_eval itself reads doubles), so scores here are exact float32 values;
full-precision tie-breaking is checked on trec_eval's own files (test_trec_eval_conformance.py).

Every measure pytrec_eval shares with IR Lab is compared, and the values must be equal bit for
bit (IR Lab adds in trec_eval's order), except ``iprec_at_recall`` and ``11pt_avg``:
pytrec_eval bundles trec_eval 9, which turned a recall level into a document count by
truncation; trec_eval 10 rounds ("breaking fix" in its change log), as IR Lab does, and its own
expected outputs check those two (test_trec_eval_conformance.py). ``gm_map`` and ``gm_bpref``
are compared as the logarithms trec_eval keeps per query.
"""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import irlab
from irlab.metrics.measure_names import parse_measure
from irlab.runs.evaluate import evaluate_tables, qrels_from_mapping, run_from_mapping

pytrec_eval = pytest.importorskip("pytrec_eval")

CUTOFFS = (1, 2, 3, 5, 10, 20)
TREC_MEASURES = {"P", "recall", "recip_rank", "map", "map_cut", "ndcg", "ndcg_cut", "Rprec", "success"}
SHARED_MEASURES = {"P", "recall", "map", "map_cut", "ndcg", "ndcg_cut", "Rprec", "recip_rank", "success", "bpref",
                   "num_ret", "num_rel", "num_rel_ret", "num_nonrel_judged_ret", "infAP", "set_P", "set_recall",
                   "set_F", "set_map", "set_relative_P", "relative_P", "Rprec_mult", "utility", "binG", "G",
                   "ndcg_rel", "Rndcg", "gm_map", "gm_bpref"}
"""Every trec_eval measure pytrec_eval computes and IR Lab does too (but the two explained above)."""
DOCS = [f"d{i}" for i in range(25)] + ["D7", "a", "z10", "z9"]


def our_name(trec_name: str) -> str:
    """Our measure name for a pytrec_eval result key."""
    plain = {"recip_rank": "RR", "map": "AP", "ndcg": "nDCG", "Rprec": "Rprec"}
    if trec_name in plain:
        return plain[trec_name]
    family, cutoff = trec_name.rsplit("_", 1)
    return {"P": "P", "recall": "R", "map_cut": "AP", "ndcg_cut": "nDCG", "success": "Success"}[family] + "@" + cutoff


def trec_measures() -> set[str]:
    cutoffs = ",".join(map(str, CUTOFFS))
    return {f"{m}.{cutoffs}" if m in ("P", "recall", "map_cut", "ndcg_cut", "success") else m for m in TREC_MEASURES}


def random_case(rng: random.Random) -> tuple[dict, dict]:
    """One random qrels/run pair over a few queries."""
    qrels, run = {}, {}
    for q in range(rng.randint(1, 4)):
        query = f"q{q}"
        judged = rng.sample(DOCS, rng.randint(1, 15))
        no_relevant = rng.random() < 0.15
        qrels[query] = {doc: (0 if no_relevant else rng.choice([-1, 0, 0, 0, 1, 1, 2, 3, 4])) for doc in judged}
        qrels[query][judged[0]] = max(qrels[query][judged[0]], 0)
        if rng.random() < 0.9:
            ranked = rng.sample(DOCS, rng.randint(1, 22))
            ties = rng.random() < 0.6
            run[query] = {doc: (rng.choice([0.0, 0.5, 1.0, 2.0, -1.0]) if ties else round(rng.uniform(-5, 5), 3))
                          for doc in ranked}
    if not run:
        run["q0"] = {"d0": 1.0}
    return qrels, run


def assert_agrees_with_trec_eval(qrels: dict, run: dict) -> None:
    expected = pytrec_eval.RelevanceEvaluator(qrels, trec_measures()).evaluate(run)
    assert expected, "pytrec_eval evaluated no query"
    names = sorted({our_name(name) for values in expected.values() for name in values})
    ours = irlab.evaluate(qrels, run, names, per_query=True, missing_queries="ignore")
    assert set(ours[names[0]]) == set(expected)  # the same queries are evaluated
    for query, values in expected.items():
        for trec_name, value in values.items():
            assert ours[our_name(trec_name)][query] == pytest.approx(value, abs=1e-9, rel=0), \
                (trec_name, query, qrels[query], run[query])


@pytest.mark.parametrize("seed", range(400))
def test_random_cases_agree_with_trec_eval(seed):
    assert_agrees_with_trec_eval(*random_case(random.Random(seed)))


grades = st.integers(min_value=-1, max_value=4)
scores = st.sampled_from([0.0, 0.5, 1.0, 2.0]) | st.floats(min_value=-10, max_value=10, width=32)


@st.composite
def qrels_and_runs(draw):
    docs = draw(st.lists(st.sampled_from(DOCS), min_size=1, max_size=20, unique=True))
    judged = draw(st.dictionaries(st.sampled_from(docs), grades, min_size=1))
    first = next(iter(judged))
    judged[first] = max(judged[first], 0)
    qrels = {"q": judged}
    run = {"q": draw(st.dictionaries(st.sampled_from(docs), scores, min_size=1))}
    return qrels, run


@settings(max_examples=150, deadline=None)
@given(qrels_and_runs())
def test_hypothesis_cases_agree_with_trec_eval(case):
    assert_agrees_with_trec_eval(*case)


def assert_every_shared_measure_agrees(qrels: dict, run: dict, level: int, judged_only: bool) -> None:
    expected = pytrec_eval.RelevanceEvaluator(qrels, SHARED_MEASURES, relevance_level=level,
                                              judged_docs_only_flag=judged_only).evaluate(run)
    names = sorted({name for values in expected.values() for name in values})
    ours = evaluate_tables(qrels_from_mapping(qrels), run_from_mapping(run),
                           {name: parse_measure(name) for name in names}, relevance_level=level,
                           complete=False, judged_only=judged_only)
    for q, query in enumerate(ours.queries):
        for name in names:
            value = float(ours.per_query[name][q])
            if name.startswith("gm_"):
                value = math.log(max(value, 1e-5))
            assert value == expected[query][name] or math.isnan(value) and math.isnan(expected[query][name]), \
                (name, query, level, judged_only, qrels[query], run[query], value, expected[query][name])


@pytest.mark.parametrize("seed", range(150))
def test_every_shared_measure_agrees_bit_for_bit(seed):
    rng = random.Random(seed)
    qrels, run = random_case(rng)
    assert_every_shared_measure_agrees(qrels, run, rng.choice([1, 1, 2, 3]), rng.random() < 0.25)


def test_the_random_cases_exercise_the_edge_cases():
    """Guard against a generator that drifts away from the cases it must cover."""
    cases = [random_case(random.Random(seed)) for seed in range(400)]
    queries = [(qrels[q], run.get(q)) for qrels, run in cases for q in qrels]
    assert sum(all(g < 1 for g in judged.values()) for judged, _ in queries) >= 40  # no relevant document
    assert sum(ranked is not None and len(ranked) < 5 for _, ranked in queries) >= 40  # shorter than K
    assert sum(ranked is not None and len(set(ranked.values())) < len(ranked) for _, ranked in queries) >= 200  # ties
    assert sum(any(g >= 2 for g in judged.values()) for judged, _ in queries) >= 200  # graded
    assert sum(any(g < 0 for g in judged.values()) for judged, _ in queries) >= 100  # unjudged (-1)
