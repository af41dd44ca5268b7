"""Measure names and the batch API: spellings, errors, trec_eval's query rules."""

from __future__ import annotations

import pytest

import irlab
from irlab.errors import ValidationError
from irlab.metrics.measure_names import parse_measure
from irlab.runs.trec import read_qrels_text, read_run_text


@pytest.mark.parametrize("name, canonical", [
    ("P@5", "P@5"), ("P_5", "P@5"), ("R@10", "R@10"), ("recall_10", "R@10"), ("RR", "RR"), ("RR@10", "RR@10"),
    ("recip_rank", "RR"), ("AP", "AP"), ("map", "AP"), ("AP@8", "AP@8"), ("map_cut_8", "AP@8"), ("nDCG", "nDCG"),
    ("ndcg", "nDCG"), ("nDCG@10", "nDCG@10"), ("ndcg_cut_10", "nDCG@10"), ("Rprec", "Rprec"),
    ("Success@5", "Success@5"), ("success_5", "Success@5"),
    ("nDCG(dcg='exp-log2')@10", "nDCG(gain='exponential')@10"),
    ("nDCG(discount='jk', ideal='retrieved')@3", "nDCG(discount='jarvelin-kekalainen', ideal='retrieved')@3"),
    ("AP(denominator='min-k-r')@5", "AP(denominator='min-k-r')@5"), ("P(rel=2)@5", "P(rel=2)@5"),
    ("nDCG(gains={1: 3, 2: 9})", "nDCG(gain={1: 3, 2: 9})"), ("DCG@3", "DCG@3"), ("CG@3", "CG@3"),
])
def test_measure_spellings(name, canonical):
    assert str(parse_measure(name)) == canonical
    assert str(parse_measure(str(parse_measure(name)))) == canonical  # the canonical form parses to itself


@pytest.mark.parametrize("name, message", [
    ("NDKG@5", "unknown measure 'NDKG@5'; valid measures: P@k, R@k, RR, RR@k, AP, AP@k, nDCG"),
    ("P", "P needs a cutoff"), ("Rprec@5", "Rprec takes no cutoff"), ("P@0", "K must be"),
    ("AP(gain='linear')", "AP does not take the parameter 'gain'"), ("nDCG(gain=)", "cannot read the parameters"),
    ("nDCG(1)", "cannot read the parameters"), ("nDCG(dcg='exp')", "dcg must be 'log2' or 'exp-log2'"),
    ("nDCG(dcg='log2', gain='linear')", "sets the gain twice"), ("P(rel=0)@5", "relevance level"),
    ("nDCG(__import__('os'))", "cannot read the parameters"), (5, "a measure must be a name"),
])
def test_bad_measure_names_say_what_is_wrong(name, message):
    with pytest.raises(ValidationError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_measure(name)


QRELS = {"q1": {"a": 1, "b": 0, "c": 2}, "q2": {"d": 0}, "q3": {"e": 1}}


def test_query_rules_follow_trec_eval():
    run = {"q1": {"a": 1.0, "c": 1.0, "b": 3.0}, "q2": ["d"], "q9": ["a"]}
    per_query = irlab.evaluate(QRELS, run, ["RR", "P@1"], per_query=True)
    assert per_query["RR"] == {"q1": 0.5, "q2": 0.0, "q3": 0.0}  # ties: c before a; q3 missing scores 0; q9 ignored
    assert irlab.evaluate(QRELS, run, "RR") == {"RR": 0.5 / 3}
    assert irlab.evaluate(QRELS, run, "RR", missing_queries="ignore") == {"RR": 0.25}
    assert irlab.evaluate(QRELS, {"q1": ["b", "a", "c"]}, "P@2", depth=1, per_query=True)["P@2"]["q1"] == 0.0


def test_queries_whose_judgments_are_all_unjudged_score_zero():
    """trec_eval's -1 means "in the pool, not judged": never relevant, gain 0 (trec_eval itself hangs here)."""
    result = irlab.evaluate({"q": {"a": -1, "b": -1}}, {"q": ["a", "b"]}, ["nDCG", "AP", "RR", "P@1"])
    assert result == {"nDCG": 0.0, "AP": 0.0, "RR": 0.0, "P@1": 0.0}


def test_relevance_level_applies_to_binary_measures_but_not_ndcg():
    run = {"q1": ["a", "c"]}
    assert irlab.evaluate(QRELS, run, "P@1", relevance_level=2, missing_queries="ignore") == {"P@1": 0.0}
    ndcg_1 = irlab.evaluate(QRELS, run, "nDCG", missing_queries="ignore")
    assert irlab.evaluate(QRELS, run, "nDCG", relevance_level=2, missing_queries="ignore") == ndcg_1
    assert irlab.evaluate(QRELS, run, "P(rel=2)@2", missing_queries="ignore") == {"P(rel=2)@2": 0.5}


@pytest.mark.parametrize("qrels, run, measures, message", [
    (QRELS, {"q1": ["a", "a"]}, "RR", r"run\['q1'\]: item 'a' appears twice"),
    (QRELS, {"q1": {"a": "high"}}, "RR", "must be a number"),
    ({"q1": {"a": 1.5}}, {"q1": ["a"]}, "RR", "whole number"),
    ([("q1", "a", 1)], {"q1": ["a"]}, "RR", "qrels must map"),
    ({"q1": ["a"]}, {"q1": ["a"]}, "RR", "must map doc ids to grades"),
    ({}, {"q1": ["a"]}, "RR", "no query has both judgments and a ranking"),
    (QRELS, {"q1": ["a"]}, ["RR", "MAP@x"], "unknown measure 'MAP@x'"),
])
def test_bad_batch_input_says_what_is_wrong(qrels, run, measures, message):
    with pytest.raises(ValidationError, match=message):
        irlab.evaluate(qrels, run, measures)
    with pytest.raises(ValidationError):
        irlab.evaluate(QRELS, {"q1": ["a"]}, "RR", missing_queries="skip")


def test_measure_objects_work_as_names():
    measure = parse_measure("nDCG@2")
    assert irlab.evaluate(QRELS, {"q1": ["c", "a"]}, [measure], missing_queries="ignore") == {"nDCG@2": 1.0}


def test_trec_text_formats():
    assert read_qrels_text("q 0 a 2\n\n   # note\nq 0 b -1\n") == {"q": {"a": 2, "b": -1}}
    assert read_run_text("q Q0 a 1 3.5 run extra words\n") == {"q": {"a": 3.5}}
    for text, message in [("q 0 a\n", "line 1: a qrels line has 4 fields"), ("q 0 a 1 x\n", "has 4 fields"),
                          ("q 0 a 1\nq 0 a 0\n", "line 2: document 'a' is judged twice")]:
        with pytest.raises(ValidationError, match=message):
            read_qrels_text(text)
    for text, message in [("q Q0 a 1 1.0\n", "a run line has 6 fields"), ("q Q0 a 1 nan r\n", "must be a number"),
                          ("q Q0 a 1 1 r\nq Q0 a 2 0 r\n", "appears twice")]:
        with pytest.raises(ValidationError, match=message):
            read_run_text(text)


def test_no_measure_gives_no_value_as_pytrec_eval():
    """Issue 37: measures=[] raised; pytrec_eval answers with no values (irlab.Evaluator: each query, empty)."""
    assert irlab.evaluate(QRELS, {"q1": ["a"]}, []) == {} == irlab.evaluate(QRELS, {"q1": ["a"]}, [], per_query=True)
