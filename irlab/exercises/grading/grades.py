"""What grading gives: a question's grade, and a submission's row of the gradebook.

:mod:`irlab.exercises.grading.grader` makes these rows; :mod:`irlab.exercises.grading.gradebook` writes them as CSV,
:mod:`irlab.exercises.grading.feedback` as a file per student, and a live class's exercise activity
(:mod:`irlab.classroom.activities.exercise`) makes them from answers typed in class. They sit in a module of their
own so that none of those readers imports the grader.

>>> row = Submission("ann.json", "answers", 7, "graded", (QuestionGrade("q1", 1, 0.5), QuestionGrade("q2", 0, None)))
>>> row.total
1
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class QuestionGrade:
    """One question's grade: its points, the value the student's function gave or the answer typed (None when
    there is none), the known mistake that value matches, or the problem that kept it from being graded."""

    question: str
    points: int
    value: float | None
    mistake: str = ""
    problem: str = ""


@dataclass(frozen=True)
class Submission:
    """One row of the gradebook.

    The file, the student id (from the submission), the seed it is graded with, the status
    (``graded`` or why not), each question's points; ``errors``: what went wrong in the
    notebook itself (a cell's SyntaxError, a cell that ran out of time); ``flags``: what does not
    match the roster, and duplicates.
    """

    file: str
    kind: str
    seed: int | None
    status: str
    grades: tuple[QuestionGrade, ...] = field(default_factory=tuple)
    student: str = ""
    errors: tuple[str, ...] = field(default_factory=tuple)
    flags: tuple[str, ...] = field(default_factory=tuple)

    @property
    def total(self) -> int:
        """The points of every question together."""
        return sum(g.points for g in self.grades)
