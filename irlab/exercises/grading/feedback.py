"""Feedback a lecturer can hand back: one Markdown file per graded submission.

Each file says, for every question, what it asked, the points, the value the student's function
gave (or what went wrong: ``ndcg is not defined (see cell 13)``), and, when the wrong value
matches a known mistake, its name and what it means (:mod:`irlab.exercises.questions.mistakes`); above the
questions, the notebook's own errors (``SyntaxError in cell 13, line 3: ...``) and what does
not match the roster. The expected values are not shown (the student may try again).

Everything that came from a submission (file name, student id, error messages) is escaped
(:func:`~irlab.exercises.exports.text.markdown_text`, :func:`~irlab.exercises.exports.text.code_span`), so it
renders as the same text, never as a link, an image or HTML.

>>> from irlab.exercises.format.examples import builtin_exercise
>>> from irlab.exercises.grading.grader import answers_file, grade_answers_file
>>> ex = builtin_exercise("ndcg-exercise")
>>> row = grade_answers_file(ex, answers_file(ex, {"ndcg5-q1": "0.7463"}), "<b>ann</b>.json")
>>> text = feedback_markdown(ex, row)
>>> "&lt;b&gt;ann&lt;/b&gt;.json" in text, "discount-log2-k-plus-1" in text
(True, True)
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

from irlab.exercises.exports.notebook import POINTS_PER_QUESTION
from irlab.exercises.exports.text import code_span, markdown_text
from irlab.exercises.exports.variants import make_variant
from irlab.exercises.grading.grades import Submission
from irlab.exercises.grading.roster import file_stem
from irlab.exercises.model import Exercise
from irlab.exercises.questions.explain import describe_question
from irlab.exercises.questions.mistakes import MISTAKES
from irlab.explain.formula import format_number

_MISTAKES = {mistake.name: mistake for mistake in MISTAKES}


def feedback_markdown(exercise: Exercise, row: Submission) -> str:
    """The feedback on one submission, as Markdown."""
    variant = make_variant(exercise, row.seed) if row.seed is not None else exercise
    out = f"{len(exercise.questions) * POINTS_PER_QUESTION}"
    lines = [f"# Feedback: {markdown_text(exercise.title)}", "",
             f"- Submission: {markdown_text(row.file)}"]
    if row.student:
        lines.append(f"- Student: {markdown_text(row.student)}")
    if row.seed is not None:
        lines.append(f"- Variant: {row.seed}")
    if row.status != "graded":
        lines += [f"- Not graded: {markdown_text(row.status)}", ""]
        return "\n".join(lines) + "\n"
    lines += [f"- Points: **{row.total} of {out}**", ""]
    if row.errors:
        lines += ["## What went wrong in the notebook", ""] + [f"- {markdown_text(error)}" for error in row.errors]
        lines.append("")
    if row.flags:
        lines += ["## Checked against the class roster", ""] + [f"- {markdown_text(flag)}" for flag in row.flags]
        lines.append("")
    by_id = {grade.question: grade for grade in row.grades}
    for number, question in enumerate(variant.questions, start=1):
        grade = by_id.get(question.id)
        lines += [f"## Question {number}: {code_span(question.id)}", "",
                  markdown_text(describe_question(variant, question)), ""]
        if grade is None:
            lines += ["Not graded.", ""]
            continue
        lines.append(f"- Points: {grade.points} of {POINTS_PER_QUESTION}")
        if grade.value is not None:
            lines.append(f"- Your value: {format_number(grade.value)}" + (" (correct)" if grade.points else ""))
        mistake = _MISTAKES.get(grade.mistake)
        if mistake is not None:
            lines.append(f"- Known mistake {code_span(mistake.name)}: {markdown_text(mistake.title)}. "
                         f"{markdown_text(mistake.explanation)}")
        elif grade.problem:
            lines.append(f"- What went wrong: {markdown_text(grade.problem)}")
        elif not grade.points:
            lines.append("- Not within the tolerance, and no known mistake explains the value.")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def write_feedback(folder: Path, exercise: Exercise, rows: Sequence[Submission]) -> list[Path]:
    """One ``.md`` file per submission in ``folder`` (created), named after the submission; the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    written, used = [], set()
    for row in rows:
        stem = file_stem(Path(row.file).stem)
        name, number = f"{stem}.md", 2
        while name in used:
            name, number = f"{stem}-{number}.md", number + 1
        used.add(name)
        path = folder / name
        write_atomically(path, feedback_markdown(exercise, row))
        written.append(path)
    return written


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to a new file next to ``path`` and rename it over ``path``.

    A symbolic link a submission left at ``path`` is replaced, not followed, and a reader never
    sees half a file.
    """
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
