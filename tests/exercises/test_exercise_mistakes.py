"""Known mistakes: a wrong answer that matches a mistaken convention is named, with its breakdown."""

from __future__ import annotations

import pytest

from irlab import explain_dcg_at_k, explain_ndcg_at_k
from irlab.exercises import MISTAKES, check_answer, exercise_from_dict, likely_mistakes, match_mistake

JK = "jarvelin-kekalainen"


def _mistake(exercise, question_id, answer):
    feedback = check_answer(exercise, question_id, answer)
    assert not feedback.correct
    return feedback.mistake


def test_the_log2_k_plus_1_value_names_the_discount_mistake(ndcg):
    ranking, judgments = ndcg.ranking("system", "q1"), ndcg.query("q1").judgments
    log2_value = explain_ndcg_at_k(ranking, judgments, 5).value  # the common log2(k + 1) form
    assert round(log2_value, 4) == 0.7463
    mistake = _mistake(ndcg, "ndcg5-q1", round(log2_value, 3))
    assert mistake.mistake.name == "discount-log2-k-plus-1"
    assert "log2(k + 1)" in mistake.mistake.explanation and "Järvelin–Kekäläinen" in mistake.mistake.explanation
    assert mistake.breakdown.value == log2_value
    assert mistake.breakdown.parts["DCG"].symbolic.endswith(r"\frac{rel_k}{\log_2(k + 1)}")
    message = check_answer(ndcg, "ndcg5-q1", "0.746").message
    assert message.startswith("Not quite: 0.746 is off by more than 0.005. It looks like a known mistake (log2(k + 1)")
    assert message.endswith("That computation gives 0.7463.") and "0.7992" not in message


def test_idcg_from_the_retrieved_items_is_named(ndcg):
    ranking, judgments = ndcg.ranking("system", "q2"), ndcg.query("q2").judgments
    retrieved = explain_ndcg_at_k(ranking[:5], judgments, 5, discount=JK, ideal="retrieved").value
    mistake = _mistake(ndcg, "ndcg5-q2", retrieved)
    assert mistake.mistake.name == "idcg-from-retrieved"
    assert "retrieved" in mistake.mistake.explanation
    assert mistake.breakdown.value == pytest.approx(retrieved)


def test_idcg_from_the_ranked_list_is_named_when_the_ranking_leaves_items_out(small_dict):
    small_dict["items"].append({"id": "d", "label": "Doc D"})
    small_dict["queries"][0]["judgments"]["d"] = 2
    small_dict["systems"][0]["rankings"]["q1"] = ["b", "c", "d"]  # leaves out a, the best item
    exercise = exercise_from_dict(small_dict)
    sklearn_like = explain_ndcg_at_k(("b", "c", "d"), exercise.query("q1").judgments, 2, ideal="retrieved").value
    assert round(sklearn_like, 4) == 0.3801
    assert _mistake(exercise, "n2", sklearn_like).mistake.name == "idcg-from-ranked-list"


def test_exponential_gain_and_unnormalised_dcg_are_named(cats):
    ranking, judgments = cats.ranking("walkthrough", "white-cat-in-a-box"), cats.query("white-cat-in-a-box").judgments
    exponential = explain_ndcg_at_k(ranking, judgments, 8, gain="exponential").value
    assert _mistake(cats, "ndcg-8", exponential).mistake.name == "exponential-gain"
    assert _mistake(cats, "ndcg-8", explain_dcg_at_k(ranking, judgments, 8).value).mistake.name == "dcg-not-normalised"
    assert _mistake(cats, "dcg-2", 4.0).mistake.name == "discount-jk"  # 0 + 4 / 1: rank 2 undiscounted


def test_recall_over_min_k_r_ties_with_precision_and_the_classic_mix_up_wins(cats):
    # with R >= K, dividing by min(K, R) is dividing by K: the same number as Precision@K, which is named
    mistake = _mistake(cats, "recall-2", "1/2")
    assert mistake.mistake.name == "precision-instead-of-recall"
    others = {m.mistake.name: m for m in likely_mistakes(cats, cats.question("recall-2"))}
    assert others["recall-over-min-k-r"].breakdown.plugged_text == "Recall@2 = 1 / 2 = 0.5"


def test_ap_denominators_and_ignored_cutoff_are_named(small_dict):
    small_dict["items"] += [{"id": c, "label": c} for c in "defg"]
    small_dict["queries"][1]["judgments"] = {"c": 1, "d": 1, "e": 1, "g": 1}
    small_dict["systems"][0]["rankings"]["q2"] = ["c", "a", "d", "b", "e", "f", "g"]
    small_dict["questions"] = [{"id": "ap3", "measure": "AP@3", "query": "q2", "system": "s"},
                               {"id": "rr2", "measure": "RR@1", "query": "q1", "system": "s"}]
    exercise = exercise_from_dict(small_dict)
    # AP@3: (1/1 + 2/3) / 4 = 0.4167; found: / 2 = 0.8333; min(K, R) = 3: 0.5556
    assert _mistake(exercise, "ap3", 0.8333).mistake.name == "ap-over-found"
    assert _mistake(exercise, "ap3", 0.5556).mistake.name == "ap-over-min-k-r"
    # AP over the whole ranking: (1 + 2/3 + 3/5 + 4/7) / 4 = 0.7095
    assert _mistake(exercise, "ap3", 0.7095).mistake.name == "cutoff-ignored"
    # RR@1 of q1 (ranking b, a, c; b has grade 1): 1; no mistake can differ
    assert likely_mistakes(exercise, exercise.question("rr2")) == []


def test_linear_gain_mistake_when_exponential_was_asked(small_dict):
    small_dict["questions"][0]["measure"] = "nDCG(gain='exponential')@2"
    exercise = exercise_from_dict(small_dict)
    linear = explain_ndcg_at_k(("b", "a", "c"), exercise.query("q1").judgments, 2).value
    assert _mistake(exercise, "n2", linear).mistake.name == "linear-gain"


def test_a_mistake_is_reported_only_when_it_changes_the_answer(ndcg):
    # q1: every judged item is in the top 5, so IDCG from the retrieved items is the true IDCG
    names = [m.mistake.name for m in likely_mistakes(ndcg, ndcg.question("ndcg5-q1"))]
    assert "idcg-from-retrieved" not in names and "cutoff-ignored" not in names
    # the correct value never matches a mistake, whatever the mistakes give
    assert check_answer(ndcg, "ndcg5-q1", 0.7992).mistake is None


def test_the_closest_mistake_wins_and_far_answers_match_none(ndcg):
    question = ndcg.question("ndcg5-q1")
    assert match_mistake(ndcg, question, 0.7463).mistake.name == "discount-log2-k-plus-1"
    assert match_mistake(ndcg, question, 0.72) is None
    assert match_mistake(ndcg, question, 0.7055).mistake.name == "exponential-gain"


def test_every_mistake_has_a_name_a_title_and_one_plain_sentence():
    names = [mistake.name for mistake in MISTAKES]
    assert len(names) == len(set(names))
    for mistake in MISTAKES:
        assert mistake.title and mistake.explanation.endswith(".")
        assert "\n" not in mistake.explanation


def test_precision_and_recall_mixed_up_are_named_first():
    from irlab.exercises import builtin_exercise, check_answer

    cats = builtin_exercise("cats-in-boxes")  # Recall@2 = 1/4, Precision@2 = 1/2
    recall = check_answer(cats, "recall-2", "0.5")
    precision = check_answer(cats, "precision-2", "1/4")
    assert not recall.correct and recall.mistake.mistake.name == "precision-instead-of-recall"
    assert not precision.correct and precision.mistake.mistake.name == "recall-instead-of-precision"
    assert "Precision@K" in recall.mistake.mistake.explanation


def test_the_format_document_lists_every_known_mistake():
    """docs/exercise-format.md's table of known mistakes names exactly the mistakes the measures declare."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "exercise-format.md").read_text()
    table = text[text.index("### Known mistakes"):text.index("## Seeded variants")]
    listed = re.findall(r"^\| `([a-z0-9-]+)` \|", table, flags=re.MULTILINE)
    assert sorted(listed) == sorted(mistake.name for mistake in MISTAKES)


def test_an_off_by_one_cutoff_is_named(cats):
    """Issue 36: K + 1 or K - 1 items counted is a named mistake (ranking[:k + 1], range(1, k))."""
    ranking, judgments = cats.ranking("walkthrough", "white-cat-in-a-box"), cats.query("white-cat-in-a-box").judgments
    assert _mistake(cats, "dcg-2", explain_dcg_at_k(ranking, judgments, 3).value).mistake.name == "cutoff-one-more"
    assert _mistake(cats, "dcg-2", explain_dcg_at_k(ranking, judgments, 1).value).mistake.name == "cutoff-one-less"


def test_the_builder_can_tell_which_mistakes_a_question_cannot_catch(ndcg):
    """The NDCG exercise's nDCG@5 of q2 cannot tell K from K + 1 (rank 6 and the sixth ideal item gain nothing)."""
    from irlab.exercises.questions.mistakes import indistinct_mistakes

    question = ndcg.question("ndcg5-q2")
    assert "cutoff-one-more" in [m.name for m in indistinct_mistakes(ndcg, question)]
    assert "cutoff-one-more" not in [m.mistake.name for m in likely_mistakes(ndcg, question)]
