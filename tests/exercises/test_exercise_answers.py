"""Answer keys (golden values of both shipped examples) and answer checking."""

from __future__ import annotations

import pytest

from irlab.errors import ValidationError
from irlab.exercises import answer_key, check_answer, explain_question, parse_answer
from irlab.metrics.measure_names import parse_measure

NDCG_GOLDEN = {"ndcg5-q1": 0.7992, "ndcg10-q1": 0.7992, "ndcg5-q2": 0.5493, "ndcg10-q2": 0.7055,
               "ndcg5-q3": 0.908, "ndcg10-q3": 0.9486}
CATS_GOLDEN = {"recall-2": 0.25, "precision-2": 0.5, "rr-cat-in-a-box": 0.5, "rr-white-cat": 1.0, "rr-dark-cat": 0.2,
               "mrr": 0.5667, "ap8-cat-in-a-box": 0.5429, "ap8-white-cat": 0.6679, "ap8-dark-cat": 0.225,
               "map8": 0.4786, "dcg-2": 2.5237, "ndcg-2": 0.3869, "ndcg-8": 0.7283}


def test_ndcg_exercise_golden_answers(ndcg, golden):
    key = {question.id: round(breakdown.value, 4) for question, breakdown in answer_key(ndcg)}
    assert key == NDCG_GOLDEN
    # the reference file agrees (its Järvelin–Kekäläinen column)
    reference = golden["ndcg_exercise"]["NDCG"]
    for question in ndcg.questions:
        k = question.parsed.cutoff
        assert key[question.id] == reference[question.query][f"@{k}"]["original_jarvelin_kekalainen"]


def test_cats_exercise_golden_answers(cats, golden):
    key = {question.id: round(breakdown.value, 4) for question, breakdown in answer_key(cats)}
    assert key == CATS_GOLDEN
    three = golden["binary_three_queries"]
    assert key["mrr"] == three["MRR"] and key["map8"] == three["MAP_at_8"]
    graded = golden["graded_single_query"]["linear_gain_log2_discount"]
    assert key["ndcg-2"] == graded["NDCG_at_k"]["2"] and key["ndcg-8"] == graded["NDCG_at_k"]["8"]
    assert key["dcg-2"] == graded["DCG_at_k"]["2"]


def test_answer_key_breakdowns_carry_formula_plugged_in_formula_rows_and_value(cats):
    entry = next(entry for entry in answer_key(cats) if entry.question.id == "ndcg-2")
    question, breakdown = entry
    assert breakdown.symbolic and breakdown.plugged_latex and len(breakdown.rows) == 2
    assert breakdown.plugged_text == "NDCG@2 ≈ 2.5237 / 6.5237 ≈ 0.3869"
    assert entry.value == breakdown.value


def test_a_mean_question_is_the_mean_of_its_queries_breakdowns(cats):
    breakdown = explain_question(cats, cats.question("map8"))
    assert list(breakdown.parts) == ["cat-in-a-box", "white-cat", "dark-cat"]
    assert breakdown.value == pytest.approx(sum(p.value for p in breakdown.parts.values()) / 3, abs=1e-15)


def test_the_answer_key_is_the_measure_itself(ndcg):
    """No second implementation: the key is irlab's Measure on the question's ranking."""
    for question, breakdown in answer_key(ndcg):
        ranking = ndcg.ranking(question.system, question.query)
        assert breakdown.value == parse_measure(question.measure).compute(ranking, ndcg.query(question.query).judgments)


def test_generic_mean_of_a_measure_without_its_own_mean_function(small_dict):
    from irlab.exercises import exercise_from_dict
    small_dict["questions"].append({"id": "mean-p1", "measure": "P@1", "query": "mean", "system": "s"})
    exercise = exercise_from_dict(small_dict)
    breakdown = explain_question(exercise, exercise.question("mean-p1"))
    # q1 ranks b (grade 1) first, q2 ranks a (not judged) first: (1 + 0) / 2
    assert breakdown.measure == "mean Precision@1" and breakdown.value == 0.5
    assert list(breakdown.parts) == ["q1", "q2"]


@pytest.mark.parametrize("answer, value", [
    (0.5, 0.5), (1, 1.0), ("0.5", 0.5), (" .5 ", 0.5), ("0,5", 0.5), ("1/2", 0.5), ("50%", 0.5), ("5e-1", 0.5),
    ("+0.5", 0.5), ("3 / 4", 0.75),
])
def test_answers_are_read_in_the_forms_students_write(answer, value):
    assert parse_answer(answer) == pytest.approx(value)


@pytest.mark.parametrize("answer, message", [
    ("abc", "'abc' is not a number: type a decimal such as 0.75"),
    ("", "The answer is empty"),
    ("   ", "The answer is empty"),
    ("1/0", "1/0 divides by zero"),
    ("0.5.5", "is not a number"),
    ("1,000.5", "is not a number"),
    ("nan", "'nan' is not a number"),
    ("inf", "'inf' is not a number"),
    ("1e999", "is too large"),
    (float("nan"), "not a finite number"),
    (True, "is not a number"),
    ("x" * 500, "too long"),
])
def test_bad_answer_text_gives_a_clear_message_not_an_exception(ndcg, answer, message):
    with pytest.raises(ValidationError, match=None) as error:
        parse_answer(answer)
    assert message in str(error.value)
    feedback = check_answer(ndcg, "ndcg5-q1", answer)
    assert not feedback.correct and feedback.answer is None and message in feedback.problem
    assert feedback.message == feedback.problem
    assert feedback.expected.value == pytest.approx(0.7992, abs=1e-4)


def test_correct_answers_within_the_tolerance(ndcg):
    assert check_answer(ndcg, "ndcg5-q1", 0.7992).correct
    assert check_answer(ndcg, "ndcg5-q1", "0.80").correct
    assert check_answer(ndcg, "ndcg5-q1", "0,7942").correct  # 0.005 below, on the boundary
    assert not check_answer(ndcg, "ndcg5-q1", "0.79").correct
    assert check_answer(ndcg, "ndcg5-q1", "0.79", tolerance=0.01).correct
    assert not check_answer(ndcg, "ndcg5-q1", "0.7995", tolerance=0.0001).correct
    feedback = check_answer(ndcg, "ndcg5-q1", "79.92%")
    assert feedback.correct and feedback.answer == pytest.approx(0.7992) and feedback.mistake is None
    assert feedback.message.startswith("Correct: 0.7992")


def test_a_wrong_answer_without_a_known_mistake(ndcg):
    feedback = check_answer(ndcg, "ndcg5-q1", 0.1)
    assert not feedback.correct and feedback.mistake is None and feedback.problem is None
    assert feedback.message == "Not quite: 0.1 is off by more than 0.005."


def test_unknown_question_or_bad_tolerance_is_a_validation_error(ndcg):
    with pytest.raises(ValidationError, match="unknown question 'nope'; the question ids are: 'ndcg5-q1'"):
        check_answer(ndcg, "nope", 0.5)
    with pytest.raises(ValidationError, match="tolerance"):
        check_answer(ndcg, "ndcg5-q1", 0.5, tolerance=-1)
