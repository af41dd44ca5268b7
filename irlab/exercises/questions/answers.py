"""The answer key of an exercise, and checking a student's answer against it.

``answer_key`` gives each question with its :class:`~irlab.explain.breakdown.Breakdown` (formula,
numbers plugged in, per-rank rows, value). ``check_answer`` reads the student's answer (a
number or text such as ``"0.8"``, ``"0,8"``, ``"80%"``, ``"4/5"``), compares it with the
expected value within the tolerance (absolute; the exercise's unless given), and for a wrong
answer names the known mistake it matches (:mod:`irlab.exercises.questions.mistakes`). Unreadable text
never raises: the feedback says what is wrong with it.

>>> from irlab.exercises.format.examples import builtin_exercise
>>> ex = builtin_exercise("ndcg-exercise")
>>> [(q.id, round(b.value, 4)) for q, b in answer_key(ex)][:2]
[('ndcg5-q1', 0.7992), ('ndcg10-q1', 0.7992)]
>>> check_answer(ex, "ndcg5-q1", "0.799").correct
True
>>> fb = check_answer(ex, "ndcg5-q1", 0.7463)
>>> fb.correct, fb.mistake.mistake.name
(False, 'discount-log2-k-plus-1')
>>> check_answer(ex, "ndcg5-q1", "abc").message
"'abc' is not a number: type a decimal such as 0.75, a fraction such as 3/4, or a percentage such as 75%."
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import NamedTuple

from irlab.errors import ValidationError
from irlab.exercises.model import Exercise, Question
from irlab.exercises.questions.explain import explain_question
from irlab.exercises.questions.mistakes import MistakeMatch, match_mistake
from irlab.explain.breakdown import Breakdown
from irlab.explain.formula import format_number

MAX_ANSWER_LENGTH = 100
_NUMBER = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?"
_DECIMAL = re.compile(rf"^{_NUMBER}$")
_FRACTION = re.compile(rf"^({_NUMBER})\s*/\s*({_NUMBER})$")
_HOW = "type a decimal such as 0.75, a fraction such as 3/4, or a percentage such as 75%"
_SLACK = 1e-9  # an answer exactly on the tolerance boundary is correct despite float noise


class KeyEntry(NamedTuple):
    """One line of the answer key: the question and its breakdown (unpacks as a pair)."""

    question: Question
    breakdown: Breakdown

    @property
    def value(self) -> float:
        """The expected answer."""
        return self.breakdown.value


def answer_key(exercise: Exercise) -> list[KeyEntry]:
    """Every question with its breakdown, in the exercise's order."""
    return [KeyEntry(question, explain_question(exercise, question)) for question in exercise.questions]


def parse_answer(answer: float | int | str) -> float:
    """A student's answer as a number; ValidationError says in plain words what is wrong.

    Accepts numbers, decimals with a point or a single comma, fractions ``a/b`` and
    percentages ``75%`` (read as 0.75).

    >>> parse_answer("0,25"), parse_answer(" 3/4 "), parse_answer("55%"), parse_answer(1)
    (0.25, 0.75, 0.55, 1.0)
    >>> parse_answer("1/0")
    Traceback (most recent call last):
    ...
    irlab.errors.ValidationError: 1/0 divides by zero: type the value as a number, e.g. 0.75
    """
    if isinstance(answer, bool):
        raise ValidationError(f"{answer!r} is not a number: {_HOW}.")
    if isinstance(answer, (int, float)):
        value = float(answer)
        if not math.isfinite(value):
            raise ValidationError(f"{answer!r} is not a finite number: {_HOW}.")
        return value
    if not isinstance(answer, str):
        raise ValidationError(f"an answer must be a number or text, got {type(answer).__name__}")
    text = answer.strip()
    if not text:
        raise ValidationError(f"The answer is empty: {_HOW}.")
    if len(text) > MAX_ANSWER_LENGTH:
        raise ValidationError(f"The answer is too long ({len(text)} characters): {_HOW}.")
    percent = text.endswith("%")
    body = text[:-1].strip() if percent else text
    if body.count(",") == 1 and "." not in body:
        body = body.replace(",", ".")  # a decimal comma, as many students write
    if _DECIMAL.match(body):
        value = float(body)
    elif (fraction := _FRACTION.match(body)) is not None:
        numerator, denominator = float(fraction.group(1)), float(fraction.group(2))
        if denominator == 0:
            raise ValidationError(f"{text} divides by zero: type the value as a number, e.g. 0.75")
        value = numerator / denominator
    else:
        raise ValidationError(f"{text!r} is not a number: {_HOW}.")
    if not math.isfinite(value):
        raise ValidationError(f"{text!r} is too large: {_HOW}.")
    return value / 100 if percent else value


@dataclass(frozen=True)
class Feedback:
    """The verdict on one answer.

    ``answer`` is the parsed number (None when the text could not be read; ``problem`` then
    says why). ``mistake`` is the matched known mistake of a wrong answer, with its breakdown.
    """

    question: Question
    expected: Breakdown
    answer: float | None
    correct: bool
    tolerance: float
    problem: str | None = None
    mistake: MistakeMatch | None = None

    @property
    def message(self) -> str:
        """The verdict in plain words (it does not reveal the expected value of a wrong answer)."""
        if self.problem is not None:
            return self.problem
        shown = format_number(self.answer)
        if self.correct:
            return f"Correct: {shown} is within {format_number(self.tolerance)} of {self.expected.display_value}."
        text = f"Not quite: {shown} is off by more than {format_number(self.tolerance)}."
        if self.mistake is not None:
            known = self.mistake.mistake
            text += (f" It looks like a known mistake ({known.title}). {known.explanation}"
                     f" That computation gives {self.mistake.breakdown.display_value}.")
        return text


def check_answer(exercise: Exercise, question_id: str, answer: float | int | str,
                 tolerance: float | None = None) -> Feedback:
    """Check ``answer`` to the question ``question_id`` (an unknown id raises ValidationError).

    Correct means :math:`|answer - expected| \\le tolerance`; ``tolerance`` defaults to the
    exercise's. A wrong answer is matched against the known mistakes.
    """
    question = exercise.question(question_id)
    tolerance = exercise.tolerance if tolerance is None else tolerance
    if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float)) or not 0 <= tolerance < math.inf:
        raise ValidationError(f"the tolerance must be a number >= 0, got {tolerance!r}")
    expected = explain_question(exercise, question)
    try:
        value = parse_answer(answer)
    except ValidationError as error:
        return Feedback(question, expected, None, False, tolerance, problem=str(error))
    if abs(value - expected.value) <= tolerance + _SLACK:
        return Feedback(question, expected, value, True, tolerance)
    mistake = match_mistake(exercise, question, value, tolerance, expected)
    return Feedback(question, expected, value, False, tolerance, mistake=mistake)
