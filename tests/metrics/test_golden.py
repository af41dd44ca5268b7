"""Every number of the cats-in-boxes walkthrough and of the NDCG exercise, to 4 decimals.

The expected values come from tests/golden/cats_in_boxes.json (a copy of the project's reference
file); the rankings and judgments come from the scenario module, so these tests also prove the
scenario reproduces the sources' relevance positions.
"""

from __future__ import annotations

import pytest

import irlab
from irlab.scenarios.cats_in_boxes import (
    BINARY_QUERIES,
    CAT_IN_A_BOX,
    CATS_IN_BOXES,
    DARK_CAT,
    WHITE_CAT,
    WHITE_CAT_IN_A_BOX,
)

QUERY_NAMES = {"cat in a box": CAT_IN_A_BOX, "white cat": WHITE_CAT, "dark cat": DARK_CAT}
VARIANTS = {
    "linear_gain_log2_discount": {"gain": "linear", "discount": "log2"},
    "exponential_gain_log2_discount": {"gain": "exponential", "discount": "log2"},
    "original_jarvelin_kekalainen": {"gain": "linear", "discount": "jarvelin-kekalainen"},
}


def query(query_id):
    q = CATS_IN_BOXES.query(query_id)
    return list(q.default_ranking), q.judgments


def relevant_positions(query_id):
    ranking, judgments = query(query_id)
    return [rank for rank, item in enumerate(ranking, start=1) if judgments[item] >= 1]


def test_scenario_reproduces_every_relevance_position(golden):
    assert relevant_positions(CAT_IN_A_BOX) == golden["binary_single_query"]["relevant_positions"]
    for name, expected in golden["binary_three_queries"]["queries"].items():
        assert relevant_positions(QUERY_NAMES[name]) == expected["relevant_positions"]
    ranking, judgments = query(WHITE_CAT_IN_A_BOX)
    assert [judgments[item] for item in ranking] == golden["graded_single_query"]["relevance_by_position"]


def test_scenario_matches_the_suggested_pool(golden):
    pool = golden["suggested_item_pool"]
    assert list(CATS_IN_BOXES.item_ids) == list(pool["items"])
    for text, spec in pool["queries"].items():
        q = next(q for q in CATS_IN_BOXES.queries if q.text == text)
        ranking = spec.get("default_ranking", spec.get("example_ranking"))
        assert list(q.default_ranking) == ranking
        if "grades" in spec:
            assert dict(q.judgments) == spec["grades"]
        else:
            assert sorted(q.judgments.relevant_items()) == spec["relevant_items"]


@pytest.mark.parametrize("k", range(1, 9))
def test_confusion_at_k(golden, k):
    expected = golden["binary_single_query"]["confusion_at_k"][k - 1]
    assert expected["k"] == k
    counts = irlab.confusion_at_k(*query(CAT_IN_A_BOX), k)
    assert counts._asdict() == {name: expected[name] for name in ("TP", "FP", "FN", "TN")}


@pytest.mark.parametrize("k", range(1, 9))
def test_precision_and_recall_at_k(golden, k):
    single = golden["binary_single_query"]
    assert round(irlab.precision_at_k(*query(CAT_IN_A_BOX), k), 4) == single["precision_at_k"][str(k)]
    assert round(irlab.recall_at_k(*query(CAT_IN_A_BOX), k), 4) == single["recall_at_k"][str(k)]


def test_r_precision(golden):
    assert irlab.r_precision(*query(CAT_IN_A_BOX)) == golden["binary_single_query"]["r_precision"]


def test_reciprocal_ranks_average_precision_mrr_and_map(golden):
    three = golden["binary_three_queries"]
    for name, expected in three["queries"].items():
        ranking, judgments = query(QUERY_NAMES[name])
        assert round(irlab.reciprocal_rank(ranking, judgments), 4) == expected["reciprocal_rank"]
        assert round(irlab.average_precision(ranking, judgments, 8), 4) == expected["average_precision_at_8"]
    queries = {q: query(q) for q in BINARY_QUERIES}
    assert round(irlab.mean_reciprocal_rank(queries), 4) == three["MRR"]
    assert round(irlab.mean_average_precision(queries, 8), 4) == three["MAP_at_8"]


@pytest.mark.parametrize("k", range(1, 9))
def test_cumulative_gain(golden, k):
    assert irlab.cg_at_k(*query(WHITE_CAT_IN_A_BOX), k) == golden["graded_single_query"]["CG_at_k"][str(k)]


@pytest.mark.parametrize("variant", ["linear_gain_log2_discount", "exponential_gain_log2_discount"])
@pytest.mark.parametrize("k", range(1, 9))
def test_dcg_idcg_ndcg(golden, variant, k):
    expected = golden["graded_single_query"][variant]
    options = VARIANTS[variant]
    ranking, judgments = query(WHITE_CAT_IN_A_BOX)
    assert round(irlab.dcg_at_k(ranking, judgments, k, **options), 4) == expected["DCG_at_k"][str(k)]
    assert round(irlab.idcg_at_k(ranking, judgments, k, **options), 4) == expected["IDCG_at_k"][str(k)]
    assert round(irlab.ndcg_at_k(ranking, judgments, k, **options), 4) == expected["NDCG_at_k"][str(k)]


@pytest.mark.parametrize("k", range(1, 9))
def test_ndcg_original_jarvelin_kekalainen(golden, k):
    expected = golden["graded_single_query"]["original_jarvelin_kekalainen"]["NDCG_at_k"][str(k)]
    ranking, judgments = query(WHITE_CAT_IN_A_BOX)
    assert round(irlab.ndcg_at_k(ranking, judgments, k, discount="jarvelin-kekalainen"), 4) == expected


def test_ndcg_exercise_dcg_unit_cases(golden):
    for case in golden["ndcg_exercise"]["dcg_unit_cases"]:
        ranking = [f"d{i}" for i in range(len(case["relevances"]))]
        judgments = dict(zip(ranking, case["relevances"]))
        value = irlab.dcg_at_k(ranking, judgments, case["k"], discount="jarvelin-kekalainen")
        assert round(value, 4) == case["original_jarvelin_kekalainen"]


@pytest.mark.parametrize("qid", ["q1", "q2", "q3"])
@pytest.mark.parametrize("cutoff", ["@5", "@10"])
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_ndcg_exercise(golden, qid, cutoff, variant):
    exercise = golden["ndcg_exercise"]
    ranking = [str(doc) for doc in exercise["system_rankings"][qid]]
    judgments = exercise["ground_truth"][qid]
    value = irlab.ndcg_at_k(ranking, judgments, int(cutoff[1:]), **VARIANTS[variant])
    assert round(value, 4) == exercise["NDCG"][qid][cutoff][variant]


def test_ndcg_exercise_through_evaluate(golden):
    """The same numbers through the batch API and the measure names, as exercises will use them."""
    exercise = golden["ndcg_exercise"]
    run = {qid: [str(doc) for doc in docs] for qid, docs in exercise["system_rankings"].items()}
    result = irlab.evaluate(exercise["ground_truth"], run, ["nDCG(discount='jarvelin-kekalainen')@5", "nDCG@10"],
                            per_query=True)
    for qid in run:
        assert round(result["nDCG(discount='jarvelin-kekalainen')@5"][qid], 4) == \
            exercise["NDCG"][qid]["@5"]["original_jarvelin_kekalainen"]
        assert round(result["nDCG@10"][qid], 4) == exercise["NDCG"][qid]["@10"]["linear_gain_log2_discount"]


def test_the_sources_printed_numbers_that_differ(golden):
    """Where the sources print other numbers, we keep the correct ones (seeds/README.md)."""
    ranking, judgments = query(WHITE_CAT_IN_A_BOX)
    assert round(irlab.ndcg_at_k(ranking, judgments, 8), 2) == 0.73  # the article says 0.41
    ranking, judgments = query(WHITE_CAT)
    terms = [round(row["precision"], 2) for row in irlab.explain_average_precision(ranking, judgments, 8).rows
             if row["rel"]]
    assert terms == [1.0, 0.5, 0.6, 0.57]  # the article lists 1, 0.5, 0.4, 0.43
