"""The answer key as CSV, for learning platforms: one row per question (and per variant).

Columns: ``question_id, seed, query, system, measure, answer``. ``seed`` is empty for an
exercise that is not a variant; ``query`` is a query id or ``mean``; ``answer`` is the value
computed by irlab at full precision (``repr`` of the float), so a platform can round as it
likes. Several exercises (e.g. 30 variants) go into one file, told apart by ``seed``.

Text cells starting with ``= + - @`` (or a tab or carriage return) get a leading ``'`` so a
spreadsheet never runs an id as a formula.

>>> from irlab.exercises.format.examples import builtin_exercise
>>> print(answer_key_csv(builtin_exercise("ndcg-exercise")).splitlines()[1])
ndcg5-q1,,q1,system,nDCG(discount='jarvelin-kekalainen')@5,0.7991575453673245
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable

from irlab.exercises.model import Exercise
from irlab.exercises.questions.answers import answer_key

COLUMNS = ("question_id", "seed", "query", "system", "measure", "answer")


def answer_key_rows(exercise: Exercise) -> list[dict[str, str]]:
    """The CSV rows of one exercise, as dicts keyed by :data:`COLUMNS`."""
    seed = "" if exercise.seed is None else str(exercise.seed)
    return [{"question_id": question.id, "seed": seed, "query": question.query, "system": question.system,
             "measure": question.measure, "answer": repr(breakdown.value)}
            for question, breakdown in answer_key(exercise)]


def answer_key_csv(exercises: Exercise | Iterable[Exercise]) -> str:
    """The answer key of one exercise, or of several (variants) one after the other, as CSV text."""
    if isinstance(exercises, Exercise):
        exercises = [exercises]
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    for exercise in exercises:
        for row in answer_key_rows(exercise):
            writer.writerow({key: _safe_cell(value) for key, value in row.items()})
    return buffer.getvalue()


def _safe_cell(value: str) -> str:
    """Defuse spreadsheet formulas in text cells (OWASP's CSV injection advice)."""
    return "'" + value if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value
