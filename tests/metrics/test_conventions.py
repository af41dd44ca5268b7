"""The conventions each metric's docstring promises: empty input, K past N, no relevant item, variants."""

from __future__ import annotations

import pytest

import irlab
from irlab.errors import ValidationError
from irlab.metrics.conventions import CONVENTIONS, TOPIC_LABELS, check_variant, default_variant

CATS = list("12345678")
GRADES = dict(zip(CATS, [0, 4, 1, 3, 4, 1, 3, 2]))


def test_empty_rankings_score_zero_everywhere():
    for metric in (irlab.precision_at_k, irlab.recall_at_k, irlab.success_at_k, irlab.average_precision,
                   irlab.ndcg_at_k, irlab.dcg_at_k, irlab.cg_at_k):
        assert metric([], GRADES, 3) == 0
    assert irlab.reciprocal_rank([], GRADES) == 0 and irlab.r_precision([], GRADES) == 0
    assert irlab.confusion_at_k([], {"a": 1, "b": 0}, 1) == (0, 0, 1, 1)


def test_k_past_the_end_of_the_ranking():
    assert irlab.precision_at_k(["a", "b"], {"a": 1}, 4) == 0.25  # trec_eval still divides by K
    assert irlab.precision_at_k(["a", "b"], {"a": 1}, 4, denominator="retrieved") == 0.5
    assert irlab.dcg_at_k(CATS, GRADES, 20) == irlab.dcg_at_k(CATS, GRADES, 8)
    assert irlab.explain_precision_at_k(["a"], {}, 3).notes[0].startswith("Only 1 items were ranked")


def test_no_relevant_item_scores_zero_with_a_note():
    for explain in (irlab.explain_recall_at_k, irlab.explain_average_precision, irlab.explain_ndcg_at_k):
        breakdown = explain(CATS, {"1": 0}, 3)
        assert breakdown.value == 0 and any("defined as 0" in note for note in breakdown.notes)
    assert irlab.explain_r_precision(CATS, {}).value == 0
    assert irlab.explain_reciprocal_rank(CATS, {}, 3).notes == (
        "No relevant item is ranked in the top 3: the reciprocal rank is defined as 0 (trec_eval).",)


def test_relevance_level_makes_graded_judgments_binary():
    assert irlab.precision_at_k(CATS, GRADES, 8) == 7 / 8
    assert irlab.precision_at_k(CATS, GRADES, 8, relevance_level=3) == 4 / 8
    assert irlab.reciprocal_rank(CATS, GRADES, relevance_level=4) == 0.5


def test_variants_change_what_they_promise():
    assert irlab.recall_at_k(CATS, GRADES, 2, denominator="min-k-r") == 0.5  # 1 of min(2, 7)
    assert irlab.average_precision(CATS, {"2": 1, "9": 1}, 2, denominator="found") == 0.5
    assert irlab.average_precision(CATS, {"2": 1, "9": 1}, 2) == 0.25
    retrieved = irlab.ndcg_at_k(["1", "2"], {"2": 1, "9": 4}, 2, ideal="retrieved")
    judged = irlab.ndcg_at_k(["1", "2"], {"2": 1, "9": 4}, 2)
    assert retrieved > judged  # missing the grade-4 item is only penalised with the judged basis
    custom = irlab.dcg_at_k(["a"], {"a": 2}, 1, gain={2: 9})
    assert custom == 9


def test_bad_variant_names_list_the_choices():
    with pytest.raises(ValidationError, match="choose one of: 'linear', 'exponential'"):
        irlab.dcg_at_k(CATS, GRADES, 2, gain="quadratic")
    with pytest.raises(ValidationError, match="AP@K denominator"):
        irlab.average_precision(CATS, GRADES, 2, denominator="k")
    with pytest.raises(ValidationError, match="must be a number from 0 to"):
        irlab.dcg_at_k(CATS, GRADES, 2, gain={1: -3})


def test_every_topic_has_one_default_and_documented_users():
    for topic, variants in CONVENTIONS.items():
        assert topic in TOPIC_LABELS
        assert sum(v.default for v in variants) == 1 and variants[0].default
        assert default_variant(topic) == variants[0].name
        assert all(v.formula and v.description and v.used_by for v in variants)
        assert all(check_variant(topic, v.name) == v.name for v in variants)


def test_curves_cover_one_to_n_by_default():
    c = irlab.curve(irlab.explain_ndcg_at_k, CATS, GRADES, gain="exponential")
    assert c.ks == tuple(range(1, 9)) and c.at(2).measure == "NDCG@2"
    with pytest.raises(ValidationError):
        irlab.curve(irlab.explain_ndcg_at_k, CATS, GRADES, ks=[0])
