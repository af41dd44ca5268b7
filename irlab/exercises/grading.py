"""Grading a class's submissions: completed notebooks and answers files, each against the student's own variant.

A submission is either

* a notebook exported by IR Lab and completed by the student: its metadata names the exercise
  (fingerprint) and the variant seed. It runs in a process of its own (:mod:`grade_worker`) with a
  time limit, a memory limit, a temporary working folder and a clean environment; a grading cell
  calls the student's functions on every question and the values are checked like answers typed on
  the Practise page (same tolerance, same named mistakes);
* an answers file downloaded from the Practise page (:func:`answers_file`): the typed answers, with
  the exercise's fingerprint and seed.

Every submission gets a row, also one that cannot be graded (not JSON, empty, from another exercise,
timed out, out of memory), with the reason; nothing one submission does stops the others.

What the sandbox protects against: endless loops and slow code (per-cell and per-call time limits,
a wall-clock limit for the whole notebook), memory exhaustion (an address-space limit), files
written outside a temporary folder by accident (the working folder is temporary, ``HOME`` points
into it), secrets in environment variables (the environment is emptied). What it does not: the
student's code runs with your user's rights, so it can read files you can read, open network
connections and, on purpose, write anywhere you can. For submissions you do not trust, run the
command in a container or a throwaway virtual machine (docs/grading.md).

>>> from irlab.exercises.examples import builtin_exercise
>>> ex = builtin_exercise("ndcg-exercise")
>>> row = grade_answers_file(ex, answers_file(ex, {"ndcg5-q1": "0.7992", "ndcg10-q1": "0.7463"}), "ann.json")
>>> row.status, row.total, [g.mistake for g in row.grades][:2]
('graded', 1, ['', 'discount-log2-k-plus-1'])
"""

from __future__ import annotations

import csv
import io
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from irlab.errors import ValidationError
from irlab.exercises import grade_worker
from irlab.exercises.answers import check_answer
from irlab.exercises.format import fingerprint
from irlab.exercises.model import Exercise
from irlab.exercises.notebook import GRADE_MARK, POINTS_PER_QUESTION, grading_code
from irlab.exercises.variants import make_variant

ANSWERS_FORMAT = "irlab-answers"
ANSWERS_VERSION = 1
MAX_SUBMISSION_BYTES = 20 * 2**20
"""Notebooks with big outputs are a few MB; more is not a submission."""


@dataclass(frozen=True)
class Limits:
    """What one notebook may use: seconds per cell and per function call, seconds in all, memory."""

    cell_seconds: int = 30
    call_seconds: int = 10
    total_seconds: int = 180
    memory_mb: int = 2048


@dataclass(frozen=True)
class QuestionGrade:
    question: str
    points: int
    value: float | None
    mistake: str = ""
    problem: str = ""


@dataclass(frozen=True)
class Submission:
    """One row of the gradebook: the file, the seed, each question's points, the total, or why not graded."""

    file: str
    kind: str
    seed: int | None
    status: str
    grades: tuple[QuestionGrade, ...] = field(default_factory=tuple)

    @property
    def total(self) -> int:
        return sum(g.points for g in self.grades)


def answers_file(exercise: Exercise, answers: Mapping[str, str]) -> str:
    """The answers a student typed on the Practise page, as a file the grade command reads."""
    return json.dumps({"format": ANSWERS_FORMAT, "version": ANSWERS_VERSION, "exercise": fingerprint(exercise),
                       "seed": exercise.seed, "title": exercise.title,
                       "answers": {q.id: str(answers[q.id]) for q in exercise.questions if q.id in answers}},
                      indent=2, ensure_ascii=False) + "\n"


def _variant(exercise: Exercise, seed: object, stamp: object) -> tuple[Exercise | None, int | None, str]:
    """The student's variant, or the reason it cannot be found."""
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        return None, None, f"the seed {seed!r} is not a whole number >= 0"
    variant = make_variant(exercise, seed) if seed is not None else exercise
    if stamp != fingerprint(variant):
        return None, seed, ("made from another exercise or an edited one (its fingerprint does not match "
                            f"{'variant ' + str(seed) if seed is not None else 'the exercise'} of this one)")
    return variant, seed, ""


def _score(variant: Exercise, question_id: str, answer: object, problem: str = "") -> QuestionGrade:
    if problem or answer is None:
        return QuestionGrade(question_id, 0, None, problem=problem or "no answer")
    feedback = check_answer(variant, question_id, answer)
    mistake = feedback.mistake.mistake.name if feedback.mistake is not None else ""
    return QuestionGrade(question_id, POINTS_PER_QUESTION if feedback.correct else 0, feedback.answer, mistake,
                         feedback.problem or "")


def grade_answers_file(exercise: Exercise, text: str, name: str) -> Submission:
    """Grade an answers file (see :func:`answers_file`)."""
    try:
        data = json.loads(text)
    except ValueError:
        return Submission(name, "answers", None, "not JSON")
    if not isinstance(data, dict) or data.get("format") != ANSWERS_FORMAT:
        return Submission(name, "answers", None, "not an IR Lab answers file")
    variant, seed, problem = _variant(exercise, data.get("seed"), data.get("exercise"))
    if variant is None:
        return Submission(name, "answers", seed, problem)
    answers = data.get("answers") if isinstance(data.get("answers"), dict) else {}
    grades = tuple(_score(variant, q.id, answers.get(q.id)) for q in variant.questions)
    return Submission(name, "answers", seed, "graded", grades)


def grade_notebook(exercise: Exercise, path: Path, limits: Limits = Limits()) -> Submission:
    """Run a completed notebook in a sandboxed process and grade what its functions return."""
    name = path.name
    try:
        text = path.read_text(encoding="utf-8")
        notebook = json.loads(text)
    except (OSError, UnicodeDecodeError, ValueError):
        return Submission(name, "notebook", None, "not a notebook (not JSON text)")
    if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list):
        return Submission(name, "notebook", None, "not a notebook (no cells)")
    stamp = (notebook.get("metadata") or {}).get("irlab")
    if not isinstance(stamp, dict):
        return Submission(name, "notebook", None, "not an IR Lab exercise notebook (no irlab metadata)")
    variant, seed, problem = _variant(exercise, stamp.get("seed"), stamp.get("exercise"))
    if variant is None:
        return Submission(name, "notebook", seed, problem)
    outcome = _run(path, grading_code(variant, call_seconds=limits.call_seconds), limits)
    if isinstance(outcome, str):
        return Submission(name, "notebook", seed, outcome)
    values = {}
    for line in outcome.get("grading_output", "").splitlines():
        if line.startswith(GRADE_MARK):
            with_value = json.loads(line[len(GRADE_MARK):])
            values[with_value.get("question")] = with_value
    grades = []
    for question in variant.questions:
        found = values.get(question.id)
        if found is None:
            grades.append(QuestionGrade(question.id, 0, None, problem="not graded (the notebook stopped before)"))
        elif "error" in found:
            grades.append(QuestionGrade(question.id, 0, None, problem=str(found["error"])))
        else:
            grades.append(_score(variant, question.id, found["value"]))
    return Submission(name, "notebook", seed, "graded", tuple(grades))


def _limit(limits: Limits) -> Callable[[], None]:
    def apply() -> None:  # in the child, before it runs: the kernel it starts inherits these
        memory = limits.memory_mb * 2**20
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        resource.setrlimit(resource.RLIMIT_CPU, (limits.total_seconds, limits.total_seconds + 5))
        resource.setrlimit(resource.RLIMIT_FSIZE, (64 * 2**20, 64 * 2**20))
    return apply


def _run(path: Path, grading: str, limits: Limits) -> dict | str:
    """Run the worker on a copy of the notebook in a temporary folder; its result, or why there is none."""
    folder = Path(tempfile.mkdtemp(prefix="irlab-grade-"))
    try:
        notebook = folder / "submission.ipynb"
        shutil.copyfile(path, notebook)
        (folder / "grading.py").write_text(grading, encoding="utf-8")
        result = folder / "result.json"
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(folder), "LANG": "C.UTF-8",
               "PYTHONDONTWRITEBYTECODE": "1", "JUPYTER_PLATFORM_DIRS": "1"}
        grading_seconds = limits.call_seconds * 200 + 30
        process = subprocess.Popen(
            [sys.executable, grade_worker.__file__, str(notebook), str(folder / "grading.py"), str(result),
             str(limits.cell_seconds), str(grading_seconds)],
            cwd=folder, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
            preexec_fn=_limit(limits))
        try:
            _, stderr = process.communicate(timeout=limits.total_seconds)
        except subprocess.TimeoutExpired:
            _kill(process)
            return f"timed out (more than {limits.total_seconds} s in all)"
        if result.exists():
            return json.loads(result.read_text(encoding="utf-8"))
        tail = stderr.decode(errors="replace").strip().splitlines()[-1:] or ["no message"]
        if "MemoryError" in tail[0] or process.returncode in (-signal.SIGKILL, -signal.SIGXCPU):
            return f"stopped: over the memory or time limit ({limits.memory_mb} MB, {limits.total_seconds} s)"
        return f"the notebook could not be run ({tail[0][:200]})"
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _kill(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait()


def grade_file(exercise: Exercise, path: Path, limits: Limits = Limits()) -> Submission:
    """Grade one submission file, whatever it holds (never raises for a bad file)."""
    try:
        size = path.stat().st_size
    except OSError as error:
        return Submission(path.name, "?", None, f"cannot be read ({error.strerror})")
    if size == 0:
        return Submission(path.name, "?", None, "empty file")
    if size > MAX_SUBMISSION_BYTES:
        return Submission(path.name, "?", None, f"too large ({size / 2**20:.0f} MB)")
    head = path.read_bytes()[:4096]
    if path.suffix == ".ipynb" or b'"cells"' in head:
        return grade_notebook(exercise, path, limits)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return Submission(path.name, "?", None, "not text")
    return grade_answers_file(exercise, text, path.name)


def grade_all(exercise: Exercise, paths: Sequence[Path], limits: Limits = Limits(),
              progress: Callable[[int, int, str], None] | None = None) -> list[Submission]:
    """Grade every submission, in order; ``progress(done, total, name)`` after each."""
    rows = []
    for index, path in enumerate(paths, start=1):
        rows.append(grade_file(exercise, path, limits))
        if progress:
            progress(index, len(paths), path.name)
    return rows


def submission_files(arguments: Iterable[str]) -> list[Path]:
    """Files and folders (their .ipynb and .json files, sorted) as a list of submission files."""
    files: list[Path] = []
    for argument in arguments:
        path = Path(argument)
        if path.is_dir():
            files.extend(sorted(p for p in path.iterdir() if p.is_file() and p.suffix in (".ipynb", ".json")))
        elif path.exists():
            files.append(path)
        else:
            raise ValidationError(f"no such file or folder: {argument}")
    return files


def gradebook_csv(exercise: Exercise, rows: Sequence[Submission]) -> str:
    """One row per submission: file, kind, seed, status, each question's points and named mistake, total."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    header = ["file", "kind", "seed", "status"]
    for question in exercise.questions:
        header += [f"{question.id} points", f"{question.id} mistake"]
    writer.writerow(header + ["total", "out of"])
    for row in rows:
        by_id = {g.question: g for g in row.grades}
        cells = [row.file, row.kind, "" if row.seed is None else row.seed, row.status]
        for question in exercise.questions:
            grade = by_id.get(question.id)
            cells += ["" if grade is None else grade.points,
                      "" if grade is None else (grade.mistake or grade.problem)]
        writer.writerow(cells + [row.total if row.status == "graded" else "",
                                 len(exercise.questions) * POINTS_PER_QUESTION])
    return out.getvalue()


def class_summary(exercise: Exercise, rows: Sequence[Submission]) -> str:
    """What a lecturer discusses next time: each question's success rate, and the most common named mistakes."""
    graded = [row for row in rows if row.status == "graded"]
    lines = [f"{len(rows)} submissions: {len(graded)} graded, {len(rows) - len(graded)} not graded."]
    for row in rows:
        if row.status != "graded":
            lines.append(f"  not graded: {row.file}: {row.status}")
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
