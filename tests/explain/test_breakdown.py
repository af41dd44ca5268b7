"""Breakdowns: the equation shown, the plain-text rendering, the export dict, and the mean."""

from __future__ import annotations

import json

import irlab
from irlab.explain.breakdown import explain_mean

CATS = list("12345678")
RELEVANT = {"2": 1, "4": 1, "5": 1, "7": 1}


def test_exact_results_use_equals_and_rounded_ones_approx():
    recall = irlab.explain_recall_at_k(CATS, RELEVANT, 2)
    assert recall.plugged_latex == r"\mathrm{Recall@}2 = \frac{1}{1 + 3} = 0.25"
    precision = irlab.explain_precision_at_k(CATS, RELEVANT, 3)
    assert precision.plugged_latex == r"\mathrm{Precision@}3 = \frac{1}{3} \approx 0.3333"
    ndcg = irlab.explain_ndcg_at_k(CATS, {"2": 4, "4": 3}, 2)
    assert r"\approx \frac{2.5237}{" in ndcg.plugged_latex  # rounded inputs: approx on both sides


def test_text_rendering_names_items_and_states_conventions():
    breakdown = irlab.explain_recall_at_k(CATS, {}, 2)
    text = breakdown.to_text({"1": "White cat"})
    assert text.splitlines()[0] == "Recall@2: Recall@K = relevant items in the top K / all relevant items"
    assert "Recall@2 = 0" in text and "no relevant item" in text
    assert "rank 1: White cat" in text


def test_to_dict_is_json_ready_and_complete():
    breakdown = irlab.explain_ndcg_at_k(CATS, {"2": 4, "4": 3}, 3)
    data = json.loads(json.dumps(breakdown.to_dict()))
    assert data["measure"] == "NDCG@3" and data["value"] == breakdown.value
    assert set(data["parts"]) == {"DCG", "IDCG"} and len(data["rows"]) == 3
    confusion = json.loads(json.dumps(irlab.explain_confusion_at_k(CATS, RELEVANT, 2).to_dict()))
    assert confusion["value"] == {"TP": 1, "FP": 1, "FN": 3, "TN": 3}


def test_confusion_shows_each_count_as_a_set():
    breakdown = irlab.explain_confusion_at_k(CATS, RELEVANT, 2)
    assert breakdown.plugged_text == ("TP@2 = |{2}| = 1; FP@2 = |{1}| = 1; "
                                      "FN@2 = |{4, 5, 7}| = 3; TN@2 = |{3, 6, 8}| = 3")


def test_mean_of_no_queries_is_zero_with_a_note():
    empty = explain_mean({}, measure="MRR", lhs="", symbolic="", symbolic_text="", term_label="RR")
    assert empty.value == 0 and empty.notes


def test_relabelled_keeps_the_computation():
    dcg = irlab.explain_dcg_at_k(CATS, {"2": 4}, 2)
    renamed = dcg.relabelled("X", "X", "X", "X")
    assert renamed.value == dcg.value and renamed.rows == dcg.rows and renamed.measure == "X"
