"""Grading a class's submissions: completed notebooks and answers files, each against the student's own variant.

A submission is either

* a notebook exported by IR Lab and completed by the student: its metadata names the exercise
  (fingerprint), the variant seed and, with a roster, the student. It is graded in two steps,
  each in a box of its own (:mod:`irlab.exercises.grading.sandbox`):

  1. **the notebook runs** (:mod:`irlab.exercises.grading.grade_worker`: a Jupyter kernel, every code
     cell but IR Lab's check cells, a time limit per cell, the kernel restarted when a cell
     ignores the interrupt). This only finds out which cells ran out of time; nothing it reports
     is a value;
  2. **the functions are called** (:mod:`irlab.exercises.grading.call_worker`), after every process of
     step 1 has ended: a clean interpreter gets IR Lab's own setup and data and the student's
     cells (not the ones that ran out of time), defines what they define and calls each
     question's function, one question per process, on IR Lab's copy of the data. Each value is
     then checked here, in the grader, like an answer typed on the Practise page (same tolerance,
     same named mistakes): the expected values never enter a process that runs student code.

* an answers file downloaded from the Practise page (:func:`answers_file`): the typed answers, with
  the exercise's fingerprint and seed.

Every submission gets a row, also one that cannot be graded (not JSON, empty, from another exercise),
with the reason; nothing one submission does stops the others, and a row is made only once every
process of its submission is gone. docs/grading.md states what the boxes protect against and what not.

>>> from irlab.exercises.format.examples import builtin_exercise
>>> ex = builtin_exercise("ndcg-exercise")
>>> row = grade_answers_file(ex, answers_file(ex, {"ndcg5-q1": "0.7992", "ndcg10-q1": "0.7463"}), "ann.json")
>>> row.status, row.total, [g.mistake for g in row.grades][:2]
('graded', 1, ['', 'discount-log2-k-plus-1'])
"""

from __future__ import annotations

import importlib.util
import json
import math
import re
import sys
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, replace
from pathlib import Path

from irlab.errors import ValidationError
from irlab.exercises.exports.notebook import (
    CHECK_CELL_PREFIX,
    DATA_CELLS,
    POINTS_PER_QUESTION,
    data_cell_sources,
    grading_calls,
    grading_preamble,
)
from irlab.exercises.exports.variants import make_variant
from irlab.exercises.format.exercise_file import fingerprint
from irlab.exercises.grading.box_code import check_workers, worker_source
from irlab.exercises.grading.error_words import definition_words, exception_words, returned_words, syntax_problem
from irlab.exercises.grading.grades import QuestionGrade, Submission
from irlab.exercises.grading.printable import printable
from irlab.exercises.grading.roster import check_student_id, roster_check, student_seed
from irlab.exercises.grading.sandbox import (
    BoxLimits,
    BoxRun,
    Isolation,
    detect_isolation,
    package_paths,
    protect_grader,
    run_in_box,
)
from irlab.exercises.grading.signature import signature_problem
from irlab.exercises.model import Exercise
from irlab.exercises.questions.answers import check_answer

__all__ = ["Limits", "answers_file", "grade_all", "grade_answers_file", "grade_file", "grade_submission",
           "notebook_grading_problem", "submission_files"]

ANSWERS_FORMAT = "irlab-answers"
ANSWERS_VERSION = 1
MAX_SUBMISSION_BYTES = 20 * 2**20
"""Notebooks with big outputs are a few MB; more is not a submission."""


class GradingUnavailable(ValidationError):
    """Notebooks cannot be graded on this machine (a module or the Python kernel is missing)."""


@dataclass(frozen=True)
class Limits:
    """What one notebook may use.

    ``cell_seconds`` per cell of the notebook run, then ``grace_seconds`` for an interrupted cell
    to stop before its kernel is restarted; ``call_seconds`` per question (defining the functions
    and calling them); ``total_seconds`` for the notebook run; ``memory_mb`` per process and, where
    a cgroup is available, for all of a box's processes together; ``processes`` (processes and
    threads) per box.
    """

    cell_seconds: int = 30
    call_seconds: int = 10
    total_seconds: int = 180
    memory_mb: int = 2048
    processes: int = 128
    grace_seconds: float = 3.0
    startup_seconds: int = 60


def answers_file(exercise: Exercise, answers: Mapping[str, str], student: str | None = None) -> str:
    """The answers a student typed on the Practise page, as a file the grade command reads."""
    data = {"format": ANSWERS_FORMAT, "version": ANSWERS_VERSION, "exercise": fingerprint(exercise),
            "seed": exercise.seed, "title": exercise.title,
            "answers": {q.id: str(answers[q.id]) for q in exercise.questions if q.id in answers}}
    if student is not None:
        data["student"] = check_student_id(student)
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


# ---------------------------------------------------------------------------------------------
# Which variant: the submission's claim, checked against the exercise and the roster
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Claim:
    """Who a submission says it is from and which variant it says it is; what is graded, and what is flagged."""

    variant: Exercise | None
    seed: int | None
    problem: str
    student: str
    flags: tuple[str, ...]
    claimed: Exercise | None = None


def _claim(exercise: Exercise, seed: object, stamp: object, student: object,
           roster: Mapping[str, int] | None, secret: bytes | None = None, signature: object = None,
           signed: bool = False) -> _Claim:
    """The variant a submission is graded on.

    Without a roster or a secret (or for a student the roster does not list): the variant its seed
    names, if its fingerprint is that variant's. With a roster, or the class secret (which gives
    every student's seed, :func:`~irlab.exercises.grading.roster.student_seed`): the student's own variant, if
    the fingerprint is that variant's or the one its seed names (a notebook relabelled with another
    student's seed and fingerprint is graded on its student's variant, and flagged). With the secret,
    a notebook (``signed``) must also carry the signature of what it says
    (:mod:`irlab.exercises.grading.signature`): a relabelled, copied or unsigned one is flagged.
    """
    flags: list[str] = []
    name = ""
    if student is not None:
        try:
            name = check_student_id(student)
        except ValidationError:
            flags.append("the student id in the submission is not valid")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63):
        return _Claim(None, None, f"the seed {printable(repr(seed), 60)} is not a whole number >= 0", name,
                      tuple(flags))
    if secret is not None and signed:
        problem = signature_problem(secret, stamp, student, seed, signature)
        if problem:
            flags.insert(0, problem)
    claimed = make_variant(exercise, seed) if seed is not None else exercise
    graded_seed = seed
    if roster is not None or secret is not None:
        known = dict(roster or {})
        if secret is not None and name:
            derived = student_seed(secret, name)
            if name in known and known[name] != derived:
                flags.append(f"the roster says {known[name]} for {name}, the class secret {derived} "
                             f"(the roster was changed; graded as variant {derived})")
            known[name] = derived
        graded_seed, roster_flags = roster_check(known, name or None, seed)
        flags += roster_flags
    variant = claimed if graded_seed == seed else make_variant(exercise, graded_seed)
    if stamp not in (fingerprint(claimed), fingerprint(variant)):
        return _Claim(None, seed, "made from another exercise or an edited one (its fingerprint does not match "
                      f"{'variant ' + str(seed) if seed is not None else 'the exercise'} of this one)", name,
                      tuple(flags))
    return _Claim(variant, graded_seed, "", name, tuple(flags), claimed)


def _score(variant: Exercise, question_id: str, answer: object, problem: str = "") -> QuestionGrade:
    if problem or answer is None:
        return QuestionGrade(question_id, 0, None, problem=printable(problem or "no answer"))
    feedback = check_answer(variant, question_id, answer)
    mistake = feedback.mistake.mistake.name if feedback.mistake is not None else ""
    return QuestionGrade(question_id, POINTS_PER_QUESTION if feedback.correct else 0, feedback.answer, mistake,
                         printable(feedback.problem or ""))


def grade_answers_file(exercise: Exercise, text: str, name: str, roster: Mapping[str, int] | None = None,
                       secret: bytes | None = None) -> Submission:
    """Grade an answers file (see :func:`answers_file`)."""
    name = printable(name)
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return Submission(name, "answers", None, "not JSON")
    if not isinstance(data, dict) or data.get("format") != ANSWERS_FORMAT:
        return Submission(name, "answers", None, "not an IR Lab answers file")
    claim = _claim(exercise, data.get("seed"), data.get("exercise"), data.get("student"), roster, secret)
    if claim.variant is None:
        return Submission(name, "answers", claim.seed, claim.problem, student=claim.student, flags=claim.flags)
    answers = data.get("answers") if isinstance(data.get("answers"), dict) else {}
    grades = tuple(_score(claim.variant, q.id, answers.get(q.id)) for q in claim.variant.questions)
    return Submission(name, "answers", claim.seed, "graded", grades, claim.student, flags=claim.flags)


# ---------------------------------------------------------------------------------------------
# Notebooks
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Cell:
    number: int  # 1-based, counting every cell of the notebook (Markdown too), as a student counts from the top
    source: str
    role: str  # "check" (IR Lab's checks: not run), "data" (IR Lab's data: run, not evaluated), "student"


def _source(cell: dict) -> str:
    source = cell.get("source", "")
    if isinstance(source, list) and all(isinstance(part, str) for part in source):
        return "".join(source)
    return source if isinstance(source, str) else ""


def _code_cells(notebook: dict, irlab_sources: frozenset[str]) -> list[_Cell]:
    cells = []
    for number, cell in enumerate(notebook["cells"], start=1):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        source = _source(cell)
        metadata = cell.get("metadata") if isinstance(cell.get("metadata"), dict) else {}
        nbgrader = metadata.get("nbgrader") if isinstance(metadata.get("nbgrader"), dict) else {}
        grade_id = str(nbgrader.get("grade_id", ""))
        checks = nbgrader.get("grade") and grade_id.startswith(CHECK_CELL_PREFIX)
        if source.lstrip().startswith("%%ipytest") or checks:
            role = "check"
        elif grade_id in DATA_CELLS and source.rstrip() in irlab_sources:
            role = "data"
        else:
            role = "student"
        cells.append(_Cell(number, source, role))
    return cells


def _read_notebook(data: bytes) -> dict | str:
    try:
        notebook = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return "not a notebook (not JSON text)"
    if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list):
        return "not a notebook (no cells)"
    return notebook


def _run_notebook(cells: list[_Cell], preamble: str, limits: Limits, isolation: Isolation
                  ) -> tuple[dict[int, dict], list[str]]:
    """Run the student's cells in a kernel in a box, after IR Lab's own setup and data (``preamble``).

    IR Lab's check cells do not run (the grader computes the expected values itself), nor its
    setup and data cells: ``preamble`` defines the same names without importing pytest. Returns
    each cell's status, and what went wrong.
    """
    to_run = [cell for cell in cells if cell.role == "student" and cell.source.strip()]
    if not to_run:
        return {}, []
    to_run.insert(0, _Cell(0, preamble, "data"))  # IR Lab's data as the notebook has it, without ipytest's import
    notebook = {"nbformat": 4, "nbformat_minor": 5, "cells": [
        {"cell_type": "code", "id": f"c{cell.number}", "metadata": {"irlab_cell": cell.number}, "outputs": [],
         "execution_count": None, "source": cell.source} for cell in to_run],
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}}
    config = {"cell_seconds": limits.cell_seconds, "grace_seconds": limits.grace_seconds,
              "startup_seconds": limits.startup_seconds}
    run = run_in_box([sys.executable, "-I", "-c", worker_source("grade_worker.py"), json.dumps(config)],
                     json.dumps(notebook).encode(),
                     BoxLimits(wall_seconds=limits.total_seconds, memory_mb=limits.memory_mb,
                               processes=limits.processes, cpu_seconds=limits.total_seconds), isolation)
    statuses: dict[int, dict] = {}
    notes: list[str] = []
    for line in run.stdout.decode("utf-8", errors="replace").splitlines():
        try:
            report = json.loads(line)
        except ValueError:
            continue
        if not isinstance(report, dict):
            continue
        if report.get("kernel") == "failed":  # said before any of the submission's code ran in this box
            notes.append(f"the notebook's kernel did not start ({printable(report.get('reason', ''), 120)})")
        elif isinstance(report.get("cell"), int) and report.get("status") in ("ok", "error", "timeout", "restarted",
                                                                              "died"):
            statuses[report["cell"]] = report
    for number, report in sorted(statuses.items()):
        if report["status"] == "timeout":
            notes.append(f"cell {number} took longer than {limits.cell_seconds} s and was interrupted")
        elif report["status"] == "restarted":
            notes.append(f"cell {number} took longer than {limits.cell_seconds} s and ignored the interrupt: the "
                         "kernel was restarted and the next cells ran")
        elif report["status"] == "died":
            notes.append(f"cell {number} ended its kernel (out of memory, or it exited): the kernel was restarted "
                         "and the next cells ran")
    unreported = [cell.number for cell in to_run[1:] if cell.number not in statuses]
    if run.timed_out:
        notes.append(f"the notebook run was stopped after {limits.total_seconds} s in all")
    elif unreported and not any(note.startswith("the notebook's kernel did not start") for note in notes):
        notes.append(f"the notebook run ended before cell {unreported[0]} had run (its processes ended: out of "
                     "memory, or too much output)")
    if run.oom_kills:
        notes.append(f"the memory limit ({limits.memory_mb} MB for the notebook) ended "
                     f"{run.oom_kills} process{'es' if run.oom_kills != 1 else ''}")
    return statuses, notes


@dataclass(frozen=True)
class _Evaluation:
    cell_errors: dict[int, str]
    results: dict[str, dict]
    problem: str = ""


def _ended_early(run: BoxRun, limits: Limits) -> str:
    """Why an evaluation box gave no report, from what the grader saw (never the box's own text)."""
    if run.timed_out:
        return "the evaluation did not finish (it ran out of time)"
    if run.oom_kills:
        return f"the evaluation did not finish (the memory limit, {limits.memory_mb} MB, ended it)"
    return "the evaluation did not finish (its processes were ended before it reported)"


def _evaluate(variant: Exercise, cells: list[_Cell], limits: Limits, isolation: Isolation) -> _Evaluation:
    """Call each question's function in a clean interpreter in a box; each question's result, checked.

    What the box says is checked line by line: only the questions asked, only the fields the
    worker writes; what went wrong is then said in IR Lab's words (:mod:`irlab.exercises.grading.error_words`).
    """
    plan = grading_calls(variant)
    request = {"preamble": grading_preamble(variant), "seconds": limits.call_seconds, "path": package_paths(),
               "cells": [{"number": cell.number, "source": cell.source} for cell in cells],
               "questions": [{"id": question.id, "function": name, "calls": calls} for question, name, calls in plan]}
    wall = (len(plan) + 1) * (limits.call_seconds + 1) + 10
    run = run_in_box([sys.executable, "-I", "-S", "-c", worker_source("call_worker.py")], json.dumps(request).encode(),
                     BoxLimits(wall_seconds=wall, memory_mb=limits.memory_mb, processes=limits.processes,
                               cpu_seconds=limits.call_seconds + 5), isolation, max_output=2**20)
    lines = []
    for line in run.stdout.decode("utf-8", errors="replace").splitlines():
        try:
            parsed = json.loads(line)
        except (ValueError, RecursionError):
            continue
        if isinstance(parsed, dict):
            lines.append(parsed)
    if not lines or "cells" not in lines[0]:
        return _Evaluation({}, {}, _ended_early(run, limits))
    sources = {cell.number: cell.source for cell in cells}
    errors: dict[int, str] = {}
    reported = lines[0].get("cells") if isinstance(lines[0].get("cells"), list) else []
    for error in reported:
        if isinstance(error, dict) and error.get("error") != "SyntaxError":  # the grader finds those itself
            said = definition_words(error, sources)
            if said is not None and error["number"] not in errors:
                errors[error["number"]] = said
    asked = {question.id for question, _, _ in plan}
    results: dict[str, dict] = {}
    for line in lines[1:]:
        if line.get("question") in asked and line["question"] not in results:
            results[line["question"]] = _result(line, sources, limits)
    problem = lines[0].get("problem")
    return _Evaluation(errors, results, "defining the functions failed (it ran out of time)" if problem == "timeout"
                       else "defining the functions failed (its process ended without a report)"
                       if problem == "crashed" else "")


def _result(line: dict, sources: dict[int, str], limits: Limits) -> dict:
    """One question's line from the box as ``{"value": x}``, ``{"missing": True}`` or ``{"problem": words}``."""
    value = line.get("value")
    if isinstance(value, float) and math.isfinite(value):
        return {"value": value}
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) < 2**53:
        return {"value": float(value)}
    if line.get("missing") is True:
        return {"missing": True}
    if "error" in line:
        return {"problem": exception_words(line["error"], sources)}
    if "returned" in line:
        return {"problem": returned_words(line["returned"])}
    if line.get("timeout") is True:
        return {"problem": f"TimeoutError: took longer than {limits.call_seconds} s"}
    return {"problem": "its process ended without a result (os._exit, a crash, or out of memory)"}


def _defining_cell(cells: list[_Cell], function: str, troubled: Iterable[int]) -> int | None:
    """The cell meant to define ``function``: one whose source has ``def function(``, a troubled one first."""
    pattern = re.compile(rf"^\s*def\s+{re.escape(function)}\s*\(", re.MULTILINE)
    candidates = [cell.number for cell in cells if pattern.search(cell.source)]
    troubled = set(troubled)
    return next((n for n in candidates if n in troubled), candidates[0] if candidates else None)


def grade_notebook(exercise: Exercise, data: bytes, name: str, limits: Limits = Limits(),
                   isolation: Isolation | None = None, roster: Mapping[str, int] | None = None,
                   secret: bytes | None = None) -> Submission:
    """Run a completed notebook in a box, call its functions in another, and grade the values."""
    isolation = detect_isolation() if isolation is None else isolation
    name = printable(name)
    notebook = _read_notebook(data)
    if isinstance(notebook, str):
        return Submission(name, "notebook", None, notebook)
    metadata = notebook.get("metadata") if isinstance(notebook.get("metadata"), dict) else {}
    stamp = metadata.get("irlab")
    if not isinstance(stamp, dict):
        return Submission(name, "notebook", None, "not an IR Lab exercise notebook (no irlab metadata)")
    claim = _claim(exercise, stamp.get("seed"), stamp.get("exercise"), stamp.get("student"), roster, secret,
                   stamp.get("signature"), signed=True)
    if claim.variant is None:
        return Submission(name, "notebook", claim.seed, claim.problem, student=claim.student, flags=claim.flags)
    variant = claim.variant
    sources = data_cell_sources(variant) | data_cell_sources(claim.claimed or variant)
    cells = _code_cells(notebook, frozenset(source.rstrip() for source in sources))
    statuses, notes = _run_notebook(cells, grading_preamble(claim.claimed or variant), limits, isolation)
    slow = {number for number, report in statuses.items() if report["status"] in ("timeout", "restarted")}
    student_cells = [cell for cell in cells if cell.role == "student" and cell.number not in slow]
    syntax = {cell.number: problem for cell in student_cells if (problem := syntax_problem(cell.number, cell.source))}
    evaluation = _evaluate(variant, student_cells, limits, isolation)
    cell_errors = {**evaluation.cell_errors, **syntax}
    errors = [*notes, *(cell_errors[number] for number in sorted(cell_errors))]
    errors += [evaluation.problem] if evaluation.problem else []
    troubled = set(cell_errors) | slow
    grades = []
    for question, function, _ in grading_calls(variant):
        result = evaluation.results.get(question.id)
        if result is None:
            grades.append(_score(variant, question.id, None, evaluation.problem or "not graded (the evaluation "
                                 "stopped before this question)"))
        elif result.get("missing"):
            cell = _defining_cell(cells, function, troubled)
            where = f" (see cell {cell})" if cell is not None and cell in troubled else ""
            grades.append(_score(variant, question.id, None, f"{function} is not defined{where}"))
        elif "value" in result:
            grades.append(_score(variant, question.id, result["value"]))
        else:
            grades.append(_score(variant, question.id, None, result["problem"]))
    return Submission(name, "notebook", claim.seed, "graded", tuple(grades), claim.student,
                      tuple(printable(error) for error in errors), claim.flags)


# ---------------------------------------------------------------------------------------------
# A class
# ---------------------------------------------------------------------------------------------

def notebook_grading_problem() -> str:
    """Why notebooks cannot be graded here (a missing module, no Python kernel), or ``""`` when they can."""
    for module in ("nbclient", "ipykernel", "nbformat"):
        try:
            found = importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):  # ValueError: a module set to None in sys.modules (blocked)
            found = False
        if not found:
            return (f"grading notebooks needs the Python package {module!r}, which is not installed "
                    "(pip install irlab installs it; see README)")
    from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel

    try:
        KernelSpecManager().get_kernel_spec("python3")
    except NoSuchKernel:
        return "grading notebooks needs a Jupyter kernel named python3 (python -m ipykernel install --user)"
    return ""


def grade_submission(exercise: Exercise, name: str, data: bytes | str, limits: Limits = Limits(),
                     isolation: Isolation | None = None, roster: Mapping[str, int] | None = None,
                     secret: bytes | None = None) -> Submission:
    """Grade one submission's content, whatever it holds (never raises for a bad file)."""
    if isinstance(data, str):
        return Submission(printable(name), "?", None, data)  # why it could not be read
    if not data:
        return Submission(printable(name), "?", None, "empty file")
    if name.endswith(".ipynb") or b'"cells"' in data[:4096]:
        return grade_notebook(exercise, data, name, limits, isolation, roster, secret)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return Submission(printable(name), "?", None, "not text")
    return grade_answers_file(exercise, text, name, roster, secret)


def _read(path: Path) -> bytes | str:
    """The file's bytes, or why they cannot be read."""
    try:
        size = path.stat().st_size
        if size > MAX_SUBMISSION_BYTES:
            return f"too large ({size / 2**20:.0f} MB)"
        with path.open("rb") as handle:
            data = handle.read(MAX_SUBMISSION_BYTES + 1)
    except OSError as error:
        return f"cannot be read ({error.strerror})"
    return data if len(data) <= MAX_SUBMISSION_BYTES else f"too large (more than {MAX_SUBMISSION_BYTES // 2**20} MB)"


def grade_file(exercise: Exercise, path: Path, limits: Limits = Limits(), isolation: Isolation | None = None,
               roster: Mapping[str, int] | None = None, secret: bytes | None = None) -> Submission:
    """Grade one submission file (never raises for a bad file)."""
    return grade_submission(exercise, path.name, _read(path), limits, isolation, roster, secret)


def grade_all(exercise: Exercise, paths: Sequence[Path], limits: Limits = Limits(),
              progress: Callable[[int, int, str], None] | None = None, *, roster: Mapping[str, int] | None = None,
              isolation: Isolation | None = None, jobs: int = 1, secret: bytes | None = None) -> list[Submission]:
    """Grade every submission; rows in the order of ``paths``, ``progress(done, total, name)`` after each.

    Every file is read before any code runs (what a submission does to another one on disk does not
    change that one's grade; with a file system of its own a box cannot reach it at all), the scripts
    the boxes run are checked (:func:`~irlab.exercises.grading.box_code.check_workers`), and
    ``jobs`` submissions are graded at a time where a cgroup bounds each box's processes (without
    one, the process limit counts every process of our user, so one box's children would starve
    another's: one at a time then). Without a PID namespace a box could see this process, so it
    is made non-dumpable first (:func:`~irlab.exercises.grading.sandbox.protect_grader`).
    """
    isolation = detect_isolation() if isolation is None else isolation
    if not isolation.namespaces:
        protect_grader()
    if not isolation.cgroup:
        jobs = 1
    contents = [(path.name, _read(path)) for path in paths]
    if any(not isinstance(data, str) and name.endswith(".ipynb") for name, data in contents):
        check_workers()  # the scripts every box runs: read and checked before any submission's code runs
    rows: list[Submission | None] = [None] * len(contents)
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = {pool.submit(grade_submission, exercise, name, data, limits, isolation, roster, secret): index
                   for index, (name, data) in enumerate(contents)}
        for done, future in enumerate(as_completed(futures), start=1):
            index = futures[future]
            rows[index] = future.result()
            if progress:
                progress(done, len(contents), printable(contents[index][0]))
    return _flag_duplicates([row for row in rows if row is not None], roster is not None or secret is not None)


def _flag_duplicates(rows: list[Submission], by_seed: bool) -> list[Submission]:
    """Flag submissions that share a student id, or (with a roster) a variant with another student's submission."""
    by_student: dict[str, list[int]] = defaultdict(list)
    by_variant: dict[int, list[int]] = defaultdict(list)
    for index, row in enumerate(rows):
        if row.student:
            by_student[row.student].append(index)
        if by_seed and row.seed is not None and row.status == "graded":
            by_variant[row.seed].append(index)
    extra: dict[int, list[str]] = defaultdict(list)
    for student, indices in by_student.items():
        for index in indices if len(indices) > 1 else []:
            others = ", ".join(rows[i].file for i in indices if i != index)
            extra[index].append(f"student {student} also submitted {others}")
    for seed, indices in by_variant.items():
        students = {rows[i].student for i in indices}
        for index in indices if len(students) > 1 else []:
            others = ", ".join(rows[i].file for i in indices if i != index)
            extra[index].append(f"variant {seed} also in {others}")
    return [replace(row, flags=row.flags + tuple(printable(flag) for flag in extra[index])) if index in extra else row
            for index, row in enumerate(rows)]


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
            raise ValidationError(f"no such file or folder: {printable(argument)}")
    return files
