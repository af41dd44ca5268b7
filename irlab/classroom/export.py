"""All answers of a class as CSV, for the lecturer: one row per student, activity and round.

=====================  ===================================================================
column                 meaning
=====================  ===================================================================
``activity``           the activity's position in the class (1, 2, ...)
``question``           the activity in one line (``NDCG@3 · CG, DCG, IDCG and NDCG@K``)
``kind``               the activity kind (``Predict a number``)
``round``              1 for the first vote, 2 for the revote, ...
``student``            the anonymous id (``student 7``: the seventh to join)
``nickname``           the nickname the student gave, or empty
``answer``             the answer as the student typed it (their last one in that round)
``right answer``       the right answer
``right``              ``yes``, ``no``, or empty when the kind cannot say
``named mistake``      the known mistake a wrong answer matches, or empty
``seconds to answer``  from the round's opening to the (last) answer, in seconds
``changes``            how often the student changed their answer in that round
=====================  ===================================================================

Every cell is text a spreadsheet shows as text: a cell that starts with ``=``, ``+``, ``-``,
``@``, a tab or a carriage return gets a leading ``'`` (:func:`neutralise`), so a nickname or an
answer such as ``=HYPERLINK(...)`` is never run as a formula (negative numbers keep their value
after the ``'``, as text).
"""

from __future__ import annotations

import csv
import io
import json

from sqlalchemy import Connection, select

from irlab.classroom import rows
from irlab.classroom.activities import kind
from irlab.classroom.schema import activities, answers, rounds, students
from irlab.exercises.questions.mistakes import MISTAKES

COLUMNS = ("activity", "question", "kind", "round", "student", "nickname", "answer", "right answer", "right",
           "named mistake", "seconds to answer", "changes")
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def neutralise(cell: object) -> str:
    """``cell`` as text that no spreadsheet runs as a formula.

    >>> neutralise("=1+1"), neutralise("-0.5"), neutralise("@SUM(A1)"), neutralise("0.5"), neutralise(3)
    ("'=1+1", "'-0.5", "'@SUM(A1)", '0.5', '3')
    """
    text = "" if cell is None else str(cell)
    return "'" + text if text.startswith(_FORMULA_STARTS) else text


def answers_csv(connection: Connection, class_id: int) -> str:
    """The class's answers as CSV text (header row first; activities, rounds and students in order)."""
    titles = {mistake.name: mistake.title for mistake in MISTAKES}
    query = (select(activities.c.position, activities.c.kind, activities.c.settings, rounds.c.number.label("round"),
                    rounds.c.opened_at, students.c.number, students.c.nickname, students.c.token_hash, answers)
             .join(rounds, rounds.c.activity_id == activities.c.id)
             .join(answers, answers.c.round_id == rounds.c.id)
             .join(students, students.c.id == answers.c.student_id)
             .where(activities.c.class_id == class_id)
             .order_by(activities.c.position, rounds.c.number, students.c.number))
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(COLUMNS)
    described: dict[int, tuple[object, dict, str]] = {}
    for row in connection.execute(query):
        if row.position not in described:
            kind_ = kind(row.kind)
            settings = json.loads(row.settings)
            described[row.position] = (kind_, settings, kind_.describe(settings))
        kind_, settings, question = described[row.position]
        answer = rows.stored_answer(row, row.opened_at)
        verdict = "" if answer.correct is None else ("yes" if answer.correct else "no")
        mistake = titles.get(answer.mistake, answer.mistake or "") if not answer.correct else ""
        writer.writerow([neutralise(cell) for cell in (
            row.position, question, kind_.title, row.round, f"student {row.number}", row.nickname or "",
            kind_.answer_cell(settings, answer), kind_.right_cell(settings, answer.respondent), verdict, mistake,
            f"{answer.seconds:.1f}", answer.revisions)])
    return out.getvalue()
