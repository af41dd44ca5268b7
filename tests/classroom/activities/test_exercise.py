"""The kind "an exercise in class": sources, variants bound to the student, Practise's check, rates, the gradebook."""

from __future__ import annotations

import csv
import io

import pytest

from irlab.classroom.activities import kind
from irlab.classroom.activities.base import OPEN, Respondent, RoundAnswers, StoredAnswer
from irlab.classroom.activities.exercise import EXERCISE, gradebook, variant_seed
from irlab.errors import ValidationError
from irlab.exercises import answer_key, builtin_exercise, make_variant
from irlab.exercises.builder.sharing import practice_path
from irlab.exercises.format.examples import builtin_text
from irlab.exercises.questions.mistakes import likely_mistakes

NDCG = EXERCISE.settings({"builtin": "ndcg-exercise"})
ANN, BOB = Respondent(number=1, seed=41), Respondent(number=2, seed=2**59 + 7)


def right_answers(respondent: Respondent) -> dict[str, str]:
    variant = make_variant(builtin_exercise("ndcg-exercise"), variant_seed(respondent))
    return {entry.question.id: f"{entry.value:.4f}" for entry in answer_key(variant)}


def stored(respondent: Respondent, answers: dict[str, str]) -> StoredAnswer:
    parsed = EXERCISE.parse(NDCG, answers, respondent)
    verdict = EXERCISE.check(NDCG, parsed.value, respondent)
    return StoredAnswer(respondent, parsed.text, parsed.value, verdict.correct, verdict.mistake, 30.0,
                        detail=verdict.detail)


def test_the_kind_is_registered_and_takes_a_builtin_a_share_link_or_a_file():
    assert kind("exercise") is EXERCISE and NDCG == {"builtin": "ndcg-exercise"}
    exercise = builtin_exercise("cats-in-boxes")
    linked = EXERCISE.settings({"link": "https://lab.example.org/" + practice_path(exercise, seed=3)})
    uploaded = EXERCISE.settings({"file": builtin_text("cats-in-boxes")})
    assert linked == uploaded and linked["link"].startswith("ex1.")
    assert EXERCISE.question(linked).exercise == exercise  # the link's seed is the sharer's, not the class's


@pytest.mark.parametrize("raw, problem", [
    ({"builtin": "nope"}, "no built-in exercise"),
    ({"link": "hello"}, "not an exercise link"),
    ({"file": "{not json"}, "not valid JSON"),
    ({"file": 3}, "must be text"),
    ({"builtin": "ndcg-exercise", "link": "x"}, "give the exercise as one of"),
    ({}, "give the exercise as one of"),
])
def test_bad_sources_are_refused(raw, problem):
    with pytest.raises(ValidationError, match=problem):
        EXERCISE.settings(raw)


def test_each_student_gets_their_own_variant_bound_to_their_seed():
    ann, bob = EXERCISE.question(NDCG, ANN), EXERCISE.question(NDCG, BOB)
    assert ann.seed == 42 and bob.seed == variant_seed(BOB) != 42
    assert ann.exercise == make_variant(builtin_exercise("ndcg-exercise"), 42) != bob.exercise
    assert EXERCISE.question(NDCG, ANN) == ann  # the same student, the same variant
    assert EXERCISE.question(NDCG, None).exercise == builtin_exercise("ndcg-exercise")  # the projector's copy
    # Ann's right answers are not Bob's: a variant cannot be copied
    assert EXERCISE.check(NDCG, right_answers(ANN), ANN).correct
    assert not EXERCISE.check(NDCG, right_answers(ANN), BOB).correct


@pytest.mark.parametrize("raw, problem", [
    ({"nope": "0.5"}, "has no question 'nope'"),
    ({"ndcg5-q1": 0.5}, "not a short text"),
    ({"ndcg5-q1": "9" * 101}, "not a short text"),
    ({"ndcg5-q1": "  "}, "at least one answer"),
    (["0.5"], "Type your answers"),
    ("0.5", "Type your answers"),
    ({f"q{i}": "1" for i in range(50)}, "Type your answers"),
])
def test_hostile_answers_are_refused_with_a_message(raw, problem):
    with pytest.raises(ValidationError, match=problem):
        EXERCISE.parse(NDCG, raw, ANN)


def test_answers_are_checked_as_on_practise_with_named_mistakes():
    variant = EXERCISE.question(NDCG, ANN).exercise
    question = variant.question("ndcg5-q1")
    mistake = likely_mistakes(variant, question)[0]
    answers = {"ndcg5-q1": f"{mistake.breakdown.value:.4f}", "ndcg10-q1": right_answers(ANN)["ndcg10-q1"],
               "ndcg5-q2": "abc"}
    verdict = EXERCISE.check(NDCG, EXERCISE.parse(NDCG, answers, ANN).value, ANN)
    assert not verdict.correct and verdict.mistake == mistake.mistake.name
    assert verdict.detail["questions"]["ndcg10-q1"] == {"right": True, "mistake": None, "unreadable": False}
    assert verdict.detail["questions"]["ndcg5-q2"]["unreadable"] and verdict.detail["right"] == 1
    feedback = EXERCISE.feedback(NDCG, stored(ANN, answers))
    assert (feedback.right, feedback.questions) == (1, 6)
    assert dict(feedback.feedback)["ndcg5-q1"].message.startswith("Not quite")


def test_success_rates_and_mistakes_by_hand_and_the_gradebook_has_grades_columns():
    students = [Respondent(n, 1000 + n) for n in range(1, 5)]
    q1 = "ndcg5-q1"
    sent = []
    for number, who in enumerate(students, start=1):
        answers = right_answers(who)
        if number == 4:
            answers = {q1: "abc"}  # one answer only, unreadable
        elif number == 3:
            variant = EXERCISE.question(NDCG, who).exercise
            answers[q1] = f"{likely_mistakes(variant, variant.question(q1))[0].breakdown.value:.4f}"
        sent.append(stored(who, answers))
    few, (summary,) = EXERCISE.summarise(NDCG, [RoundAnswers(1, OPEN, tuple(sent[:2]), shown=True)]), \
        EXERCISE.summarise(NDCG, [RoundAnswers(1, OPEN, tuple(sent), shown=True)])
    (hidden,) = EXERCISE.summarise(NDCG, [RoundAnswers(1, OPEN, tuple(sent))])
    assert hidden.rates is None and hidden.count == 4 and len(hidden.grades) == 4  # until the reveal: counts only
    assert few[0].rates is None and len(few[0].grades) == 2  # below 3 answers: the count only (and the gradebook)
    rates = {r.id: (r.right, r.answered) for r in summary.rates}
    assert rates[q1] == (2, 4) and rates["ndcg10-q1"] == (3, 3)  # by hand: students 1, 2 right; 3 a mistake; 4 "abc"
    assert [m.count for m in summary.mistakes] == [1]
    rows = list(csv.reader(io.StringIO(gradebook(builtin_exercise("ndcg-exercise"), summary))))
    questions = [q.id for q in builtin_exercise("ndcg-exercise").questions]
    assert rows[0] == ["file", "student", "kind", "seed", "status",
                      *[cell for q in questions for cell in (f"{q} points", f"{q} mistake")],
                      "total", "out of", "notebook errors", "roster"]
    by_student = {row[1]: dict(zip(rows[0], row)) for row in rows[1:]}
    assert by_student["student 1"]["total"] == "6" and by_student["student 1"]["seed"] == str(variant_seed(students[0]))
    assert by_student["student 3"][f"{q1} points"] == "0" and by_student["student 3"][f"{q1} mistake"]
    assert by_student["student 4"]["total"] == "0" and by_student["student 4"]["ndcg10-q1 mistake"] == "no answer"
    assert by_student["student 4"][f"{q1} mistake"] == "not a number"
