"""The gradebook a grading run writes (CSV), and the class summary it prints.

Every text cell is safe to open in a spreadsheet: a cell that starts with ``=``, ``+``, ``-``,
``@``, a tab or a carriage return would be read as a formula (or a formula's start) by Excel,
LibreOffice or Google Sheets, so it gets a leading ``'`` (OWASP's advice on CSV injection);
names and messages were made printable when the rows were made (:mod:`irlab.exercises.grading.printable`).

>>> spreadsheet_safe("=HYPERLINK(\\"http://x\\")"), spreadsheet_safe("ann.ipynb"), spreadsheet_safe(3)
('\\'=HYPERLINK("http://x")', 'ann.ipynb', 3)
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Sequence

from irlab.exercises.exports.notebook import POINTS_PER_QUESTION
from irlab.exercises.grading.grades import Submission
from irlab.exercises.model import Exercise

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(cell: object) -> object:
    """A text cell that a spreadsheet would read as a formula, with ``'`` in front; anything else unchanged."""
    if isinstance(cell, str) and cell.startswith(_FORMULA_START):
        return "'" + cell
    return cell


def gradebook_csv(exercise: Exercise, rows: Sequence[Submission]) -> str:
    """One row per submission.

    Columns: file, student, kind, seed, status, each question's points and named mistake (or the
    problem, e.g. ``ndcg is not defined (see cell 13)``), total, out of, the notebook's own errors
    (``SyntaxError in cell 13, line 3: ...``), and what does not match the roster.
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    header = ["file", "student", "kind", "seed", "status"]
    for question in exercise.questions:
        header += [f"{question.id} points", f"{question.id} mistake"]
    writer.writerow([spreadsheet_safe(cell) for cell in header + ["total", "out of", "notebook errors", "roster"]])
    for row in rows:
        by_id = {g.question: g for g in row.grades}
        cells: list[object] = [row.file, row.student, row.kind, "" if row.seed is None else row.seed, row.status]
        for question in exercise.questions:
            grade = by_id.get(question.id)
            cells += ["" if grade is None else grade.points,
                      "" if grade is None else (grade.mistake or grade.problem)]
        cells += [row.total if row.status == "graded" else "", len(exercise.questions) * POINTS_PER_QUESTION,
                  "; ".join(row.errors), "; ".join(row.flags)]
        writer.writerow([spreadsheet_safe(cell) for cell in cells])
    return out.getvalue()


def class_summary(exercise: Exercise, rows: Sequence[Submission]) -> str:
    """What a lecturer discusses next time: each question's success rate, and the most common named mistakes."""
    graded = [row for row in rows if row.status == "graded"]
    lines = [f"{len(rows)} submissions: {len(graded)} graded, {len(rows) - len(graded)} not graded."]
    for row in rows:
        if row.status != "graded":
            lines.append(f"  not graded: {row.file}: {row.status}")
    flagged = [row for row in rows if row.flags]
    if flagged:
        lines.append(f"{len(flagged)} submission{'s' if len(flagged) != 1 else ''} flagged (the gradebook's "
                     "roster column):")
        lines += [f"  {row.file}: {'; '.join(row.flags)}" for row in flagged]
    if graded:
        lines.append("Per question (right / graded):")
        for question in exercise.questions:
            right = sum(1 for row in graded for g in row.grades if g.question == question.id and g.points)
            lines.append(f"  {question.id:<24} {right:>3} / {len(graded):<3} {100 * right / len(graded):5.1f}%")
        answers = Counter(g.mistake for row in graded for g in row.grades if g.mistake)
        students = Counter(m for row in graded for m in {g.mistake for g in row.grades if g.mistake})
        if answers:
            lines.append("Most common named mistakes (docs/exercise-format.md explains each):")
            for mistake, count in answers.most_common(5):
                lines.append(f"  {mistake}: {count} answer{'s' if count != 1 else ''} in {students[mistake]} "
                             f"submission{'s' if students[mistake] != 1 else ''}")
        mean = sum(row.total for row in graded) / len(graded)
        lines.append(f"Mean total: {mean:.2f} of {len(exercise.questions) * POINTS_PER_QUESTION}.")
    return "\n".join(lines) + "\n"
