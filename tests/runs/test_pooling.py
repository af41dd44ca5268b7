"""The pooling lab's computations: pools, pooled qrels, depth sweeps, agreement between judges, texts."""

from __future__ import annotations

import gzip
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irlab.errors import ValidationError
from irlab.runs.agreement import agreement, assign, cohen_kappa, fleiss_kappa, merge, simulated_judges
from irlab.runs.evaluate import evaluate
from irlab.runs.pooling import (
    UNJUDGED,
    depth_sweep,
    grades_of,
    leave_one_out,
    pool_qrels,
    pool_runs,
    ranking_agreement,
    simulated_class,
)
from irlab.runs.texts import MAX_TEXT, read_texts, read_topics
from irlab.runs.trec import parse_qrels, parse_run, qrels_dict


@pytest.fixture(scope="module")
def sample():
    return simulated_class(topics=12, depth=30)


def _run(lines: list[tuple[str, str, float]], name: str):
    return parse_run("\n".join(f"{q} Q0 {d} 0 {s} {name}" for q, d, s in lines).encode(), name)


runs_strategy = st.lists(
    st.dictionaries(st.sampled_from(["1", "2", "3"]),
                    st.dictionaries(st.sampled_from([f"d{i}" for i in range(12)]),
                                    st.integers(0, 4).map(float), min_size=1, max_size=8), min_size=1),
    min_size=1, max_size=4)


@settings(max_examples=60, deadline=None)
@given(runs=runs_strategy, depth=st.integers(1, 6))
def test_the_pool_is_the_union_of_every_runs_top_k_in_trec_eval_order(runs, depth):
    tables = {f"r{i}": _run([(q, d, s) for q, docs in run.items() for d, s in docs.items()], f"r{i}")
              for i, run in enumerate(runs)}
    pool = pool_runs(tables, depth)
    expected: dict[str, set] = {}
    for run in runs:
        for topic, docs in run.items():
            ranked = sorted(sorted(docs, reverse=True), key=lambda d: -docs[d])  # score desc, then id desc
            expected.setdefault(topic, set()).update(ranked[:depth])
    assert {t: set(d) for t, d in pool.docs.items()} == expected
    assert pool.size == sum(len(d) for d in expected.values())
    assert sum(pool.unique.values()) == sum(1 for who in pool.contributors.values() if len(who) == 1)


def test_pooled_qrels_keep_the_true_grade_of_pooled_documents_and_nothing_else(sample):
    pool = pool_runs(sample.runs, 5)
    qrels = pool_qrels(pool, sample.truth)
    truth = grades_of(sample.truth)
    got = qrels_dict(qrels)
    assert sum(len(v) for v in got.values()) == pool.size
    for topic, docs in got.items():
        for doc, grade in docs.items():
            assert doc in pool.docs[topic] and grade == truth[(topic, doc)]


def test_a_judged_share_leaves_the_rest_of_the_pool_unjudged_and_is_seeded(sample):
    pool = pool_runs(sample.runs, 10)
    half = pool_qrels(pool, sample.truth, judged_share=0.5)
    assert np.sum(half.grades == UNJUDGED) == pytest.approx(pool.size / 2, rel=0.05)
    again = pool_qrels(pool, sample.truth, judged_share=0.5)
    assert half.grades.tolist() == again.grades.tolist()
    with pytest.raises(ValidationError):
        pool_qrels(pool, sample.truth, judged_share=0)


def test_unjudged_documents_lower_ap_but_not_bpref():
    """A relevant document outside a shallow pool counts as not relevant for AP; bpref ignores it."""
    a = _run([("1", "x", 3), ("1", "rel2", 2), ("1", "n1", 1)], "a")
    b = _run([("1", "rel1", 3), ("1", "n2", 2)], "b")
    truth = {("1", "rel1"): 1, ("1", "rel2"): 1, ("1", "x"): 0, ("1", "n1"): 0, ("1", "n2"): 0}
    shallow = qrels_dict(pool_qrels(pool_runs({"a": a, "b": b}, 1), truth))
    deep = qrels_dict(pool_qrels(pool_runs({"a": a, "b": b}, 3), truth))
    run_a = {"1": {"x": 3.0, "rel2": 2.0, "n1": 1.0}}
    assert evaluate(shallow, run_a, "AP") == {"AP": 0.0}
    assert evaluate(deep, run_a, "AP")["AP"] == pytest.approx(0.25)
    assert evaluate(shallow, run_a, "Bpref")["Bpref"] == 0.0  # no relevant judged: nothing to prefer
    assert evaluate(deep, run_a, "Bpref")["Bpref"] == pytest.approx(0.25)  # rel2 under 1 of min(R, N) = 2 judged


def test_the_sweep_agrees_with_the_reference_at_the_reference_depth_and_pools_grow_with_depth(sample):
    sweep = depth_sweep(sample.runs, sample.truth, depths=(1, 3, 10, 30), judged_shares=(1.0, 0.5))
    assert sweep.reference_depth == 30
    assert sweep.point(30).tau["AP"] == 1.0 and sweep.point(30).swaps["AP"] == 0
    sizes = [sweep.point(d).pool_size for d in (1, 3, 10, 30)]
    assert sizes == sorted(sizes) and sizes[0] < sizes[-1]
    assert sweep.point(10, 0.5).judged < sweep.point(10).judged == sweep.point(10).pool_size
    assert all(-1 <= p.tau[m] <= 1 for p in sweep.points for m in sweep.measures)
    assert sweep.point(30).means["AP"] == sweep.reference  # the reference is AP at the reference depth


def test_depths_beyond_the_runs_are_left_out(sample):
    sweep = depth_sweep(sample.runs, sample.truth, depths=(2, 30, 100, 1000))
    assert [p.depth for p in sweep.points] == [2, 30]


def test_kendall_tau_and_swaps():
    assert ranking_agreement([3, 2, 1], [3, 2, 1]) == (1.0, 0)
    assert ranking_agreement([3, 2, 1], [1, 2, 3]) == (-1.0, 3)
    tau, swaps = ranking_agreement([0.4, 0.3, 0.2, 0.1], [0.4, 0.2, 0.3, 0.1])
    assert swaps == 1 and tau == pytest.approx(4 / 6)


def test_leaving_a_run_out_loses_the_relevant_documents_only_it_found():
    a = _run([("1", "only-a", 3), ("1", "both", 2)], "a")
    b = _run([("1", "both", 3), ("1", "other", 2)], "b")
    truth = {("1", "only-a"): 1, ("1", "both"): 1, ("1", "other"): 0}
    results = {r.run: r for r in leave_one_out({"a": a, "b": b}, truth, depth=2)}
    assert results["a"].unique == 1 and results["a"].unique_relevant == 1
    assert results["a"].with_own == pytest.approx(1.0)
    assert results["a"].without_own == pytest.approx(0.5)  # only-a unjudged: both at rank 2 of one relevant
    assert results["b"].unique_relevant == 0


# --- several judges ---------------------------------------------------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(items=st.integers(1, 60), judges=st.integers(1, 9), data=st.data())
def test_every_item_goes_to_overlap_different_judges_and_shares_are_even(items, judges, data):
    overlap = data.draw(st.integers(1, judges))
    pairs = [("1", f"d{i}") for i in range(items)]
    shares = assign(pairs, [f"j{i}" for i in range(judges)], overlap=overlap)
    who: dict = {}
    for judge, share in shares.items():
        assert len(share) == len(set(share))  # nobody judges an item twice
        for item in share:
            who.setdefault(item, []).append(judge)
    assert all(len(set(js)) == overlap for js in who.values()) and len(who) == items
    sizes = [len(s) for s in shares.values()]
    assert max(sizes) - min(sizes) <= 1


def test_assign_refuses_more_overlap_than_judges():
    with pytest.raises(ValidationError):
        assign([("1", "a")], ["ann"], overlap=2)
    with pytest.raises(ValidationError):
        assign([("1", "a")], [], overlap=1)


def test_kappas_agree_with_hand_computed_values():
    assert cohen_kappa([1, 1, 0, 0], [1, 1, 0, 0]) == 1.0
    assert cohen_kappa([1, 0, 1, 0], [0, 1, 0, 1]) == -1.0
    # p_o = 0.5, p_e = 0.5: no better than chance
    assert cohen_kappa([1, 1, 0, 0], [1, 0, 1, 0]) == 0.0
    assert math.isnan(cohen_kappa([], []))
    assert fleiss_kappa(np.array([[2, 0], [0, 2], [2, 0]])) == 1.0
    with pytest.raises(ValidationError):
        fleiss_kappa(np.array([[2, 0], [1, 2]]))


def test_agreement_of_two_judges_is_cohen_and_fleiss_over_the_shared_items():
    judgments = {"ann": {("1", "a"): 1, ("1", "b"): 0, ("1", "c"): 1, ("1", "d"): 0},
                 "bob": {("1", "a"): 1, ("1", "b"): 1, ("1", "c"): 1, ("1", "d"): 0, ("1", "e"): 2}}
    result = agreement(judgments)
    assert result.judged_items == 5 and result.shared_items == 4
    (pair,) = result.pairs
    assert pair.items == 4 and pair.same == 0.75
    assert pair.kappa == pytest.approx(cohen_kappa([1, 0, 1, 0], [1, 1, 1, 0]))
    assert result.fleiss_raters == 2 and result.fleiss_items == 4


def test_merge_takes_the_most_frequent_grade_and_a_tie_goes_down():
    assert merge({"a": {("1", "x"): 3}, "b": {("1", "x"): 1}}) == {("1", "x"): 1}
    assert merge({"a": {("1", "x"): 2}, "b": {("1", "x"): 2}, "c": {("1", "x"): 0}}) == {("1", "x"): 2}


def test_simulated_judges_err_at_about_their_rate(sample):
    pool = pool_runs(sample.runs, 10)
    truth = grades_of(sample.truth)
    perfect = simulated_judges(truth, pool.items(), ["a", "b"], overlap=2, error=0.0)
    assert agreement(perfect).fleiss == pytest.approx(1.0)
    noisy = simulated_judges(truth, pool.items(), ["a", "b", "c"], overlap=2, error=0.2)
    wrong = sum(g != truth[i] for share in noisy.values() for i, g in share.items())
    assert wrong / (2 * pool.size) == pytest.approx(0.2, abs=0.04)
    assert 0.2 < agreement(noisy).fleiss < 0.9


# --- texts ------------------------------------------------------------------------------------------------------

def test_texts_from_tsv_and_json_lines_keep_only_the_wanted_ids():
    tsv = b"d1\tA cat.\nd2\tA dog.\n# a comment\n"
    assert read_texts(tsv, "docs.tsv") == {"d1": "A cat.", "d2": "A dog."}
    jsonl = b'{"doc_id": "d1", "title": "Cats", "text": "A cat."}\n{"id": "d2", "contents": "A dog."}\n'
    assert read_texts(jsonl, "docs.jsonl", wanted={"d1"}) == {"d1": "Cats \u2014 A cat."}
    assert read_texts(gzip.compress(tsv), "docs.tsv.gz", wanted={"d2"}) == {"d2": "A dog."}


@pytest.mark.parametrize("data, message", [
    (b"\xff\xfe\x00bad", "not UTF-8"),
    (b"no tab here\n", "no tab"),
    (b"[1, 2]\n".replace(b"[", b"{").replace(b"]", b"}"), "not a JSON object"),
    (b'{"text": "no id"}\n', "no id"),
    (b"a b\tspaces in the id\n", "without spaces"),
])
def test_malformed_texts_are_refused_with_the_line(data, message):
    with pytest.raises(ValidationError, match=message):
        read_texts(data, "docs.tsv")


def test_oversized_and_script_bearing_texts():
    with pytest.raises(ValidationError, match="more than"):
        read_texts(gzip.compress(b"d\t" + b"x" * 3000), "big.gz", limit=1000)
    long = read_texts(b"d1\t" + b"word " * 5000, "docs.tsv")["d1"]
    assert len(long) <= MAX_TEXT + 2 and long.endswith("\u2026")
    hostile = read_texts(b"d1\t<script>alert(1)</script>\x07**bold**\n", "docs.tsv")["d1"]
    assert hostile == "<script>alert(1)</script> **bold**"  # kept as text: the page never renders it as markup


def test_trec_topics_and_tsv_topics():
    trec = (b"<top>\n<num> Number: 401\n<title> foreign minorities, Germany\n\n<desc> Description:\nWhat language "
            b"and cultural differences impede the integration?\n<narr> Narrative:\nA relevant document ...\n</top>\n")
    assert read_topics(trec) == {"401": "foreign minorities, Germany \u2014 What language and cultural differences "
                                        "impede the integration?"}
    assert read_topics(b"401\tcats in boxes\n") == {"401": "cats in boxes"}
    with pytest.raises(ValidationError):
        read_topics(b"<top><title>no number</title></top>")


def test_pooling_refuses_bad_depths_and_no_runs(sample):
    for depth in (0, -1, 1001, 2.5, True, "10"):
        with pytest.raises(ValidationError):
            pool_runs(sample.runs, depth)
    with pytest.raises(ValidationError):
        pool_runs({}, 10)


def test_the_simulated_truth_judges_every_document_the_runs_rank(sample):
    truth = qrels_dict(sample.truth)
    for run in sample.runs.values():
        for topic in run.query_ids:
            assert set(run.ranking(topic)) <= set(truth[topic])
    assert parse_qrels(b"1 0 a 1\n").query_ids == ("1",)
