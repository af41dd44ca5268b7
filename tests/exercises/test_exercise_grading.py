"""Grading a class: notebooks run sandboxed against each student's variant; answers files; exact gradebook."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from irlab.exercises import answer_key, builtin_exercise, exercise_notebook, make_variant, notebook_text
from irlab.exercises.grading.gradebook import class_summary, gradebook_csv
from irlab.exercises.grading.grader import Limits, answers_file, grade_all, grade_answers_file, submission_files

pytest.importorskip("nbclient")
ROOT = Path(__file__).resolve().parents[2]
EXERCISE = builtin_exercise("ndcg-exercise")
LIMITS = Limits(cell_seconds=4, call_seconds=3, total_seconds=90, memory_mb=2048)


def _with_cell(notebook, source: str, at: int = 4):
    notebook.cells.insert(at, nbformat.v4.new_code_cell(source))
    return notebook


@pytest.fixture(scope="module")
def class_folder(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("class")

    def write(name: str, notebook) -> None:
        (folder / name).write_text(notebook_text(notebook))

    write("a-solution-seed3.ipynb", exercise_notebook(make_variant(EXERCISE, 3), solutions=True))
    write("b-untouched.ipynb", exercise_notebook(EXERCISE))
    mistaken = exercise_notebook(make_variant(EXERCISE, 5), solutions=True)
    for cell in mistaken.cells:  # log2(rank + 1) instead of the exercise's Järvelin-Kekäläinen discount
        cell.source = cell.source.replace("return 1.0 if rank == 1 else math.log2(rank)", "return math.log2(rank + 1)")
    write("c-log2-mistake-seed5.ipynb", mistaken)
    half = exercise_notebook(EXERCISE, solutions=True)
    for cell in half.cells:  # right on K = 5, an endless loop when K > 5
        if "def ndcg" in cell.source:
            cell.source = cell.source.replace("    ### BEGIN SOLUTION\n", "    ### BEGIN SOLUTION\n"
                                              "    while k is not None and k > 5:\n        pass\n")
    write("d-half-loops.ipynb", half)
    write("e-loops-forever.ipynb", _with_cell(exercise_notebook(EXERCISE, solutions=True), "while True:\n    pass"))
    write("f-10gb.ipynb", _with_cell(exercise_notebook(EXERCISE, solutions=True), "hog = bytearray(10 * 1024**3)"))
    (folder / "g-not-json.ipynb").write_text("{ this is not json")
    write("h-other-exercise.ipynb", exercise_notebook(builtin_exercise("cats-in-boxes"), solutions=True))
    seven = make_variant(EXERCISE, 7)
    (folder / "i-answers-seed7.json").write_text(answers_file(seven, {e.question.id: f"{e.value:.4f}"
                                                                      for e in answer_key(seven)}))
    (folder / "j-answers-mistake.json").write_text(answers_file(EXERCISE, {"ndcg5-q1": "0.7463", "ndcg10-q1": "x"}))
    (folder / "k-empty.json").write_text("")
    return folder


@pytest.fixture(scope="module")
def graded(class_folder):
    rows = grade_all(EXERCISE, submission_files([str(class_folder)]), LIMITS, jobs=3)
    return {row.file: row for row in rows}, rows


def test_every_submission_gets_a_row_with_exact_points(graded):
    rows, _ = graded
    assert len(rows) == 11
    expected_totals = {"a-solution-seed3.ipynb": 6, "b-untouched.ipynb": 0, "c-log2-mistake-seed5.ipynb": 0,
                       "d-half-loops.ipynb": 3, "e-loops-forever.ipynb": 6, "f-10gb.ipynb": 6,
                       "i-answers-seed7.json": 6, "j-answers-mistake.json": 0}
    for name, total in expected_totals.items():
        assert rows[name].status == "graded" and rows[name].total == total, (name, rows[name])
    assert rows["a-solution-seed3.ipynb"].seed == 3 and rows["i-answers-seed7.json"].seed == 7
    # what went wrong in a notebook is said once, in its own words, and costs only what depends on it
    assert rows["e-loops-forever.ipynb"].errors == ("cell 5 took longer than 4 s and was interrupted",)
    assert rows["f-10gb.ipynb"].errors == ("MemoryError in cell 5, line 1: out of memory",)
    assert rows["a-solution-seed3.ipynb"].errors == () and rows["b-untouched.ipynb"].errors == ()


def test_named_mistakes_and_reasons(graded):
    rows, _ = graded
    assert {g.mistake for g in rows["c-log2-mistake-seed5.ipynb"].grades} == {"discount-log2-k-plus-1"}
    assert rows["j-answers-mistake.json"].grades[0].mistake == "discount-log2-k-plus-1"
    assert "not a number" in rows["j-answers-mistake.json"].grades[1].problem
    assert all("NotImplementedError" in g.problem for g in rows["b-untouched.ipynb"].grades)
    loops = [g for g in rows["d-half-loops.ipynb"].grades if not g.points]
    assert loops and all("TimeoutError" in g.problem for g in loops)
    assert rows["g-not-json.ipynb"].status.startswith("not a notebook")
    assert rows["h-other-exercise.ipynb"].status.startswith("made from another exercise")
    assert rows["k-empty.json"].status == "empty file"


def test_the_gradebook_csv_and_the_class_summary(graded):
    _, rows = graded
    book = list(csv.DictReader(io.StringIO(gradebook_csv(EXERCISE, rows))))
    assert len(book) == 11 and book[0]["file"] == "a-solution-seed3.ipynb" and book[0]["total"] == "6"
    assert book[2]["ndcg5-q1 mistake"] == "discount-log2-k-plus-1" and book[2]["ndcg5-q1 points"] == "0"
    assert book[6]["status"].startswith("not a notebook") and book[6]["total"] == ""
    summary = class_summary(EXERCISE, rows)
    assert "11 submissions: 8 graded, 3 not graded." in summary
    assert "discount-log2-k-plus-1: 7 answers in 2 submissions" in summary


def test_a_tampered_seed_or_foreign_answers_file_is_refused():
    text = answers_file(EXERCISE, {"ndcg5-q1": "0.7992"})
    data = json.loads(text)
    data["seed"] = 9  # the fingerprint is of the exercise as written, not of variant 9
    assert grade_answers_file(EXERCISE, json.dumps(data), "x.json").status.startswith("made from another")
    assert grade_answers_file(EXERCISE, "[1, 2]", "y.json").status == "not an IR Lab answers file"


def test_the_grade_command(class_folder, tmp_path):
    subset = [str(class_folder / name) for name in ("a-solution-seed3.ipynb", "i-answers-seed7.json", "k-empty.json")]
    out = tmp_path / "gradebook.csv"
    done = subprocess.run([sys.executable, "-m", "irlab", "exercise", "grade", "builtin:ndcg-exercise", *subset,
                           "-o", str(out)], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "3 submissions: 2 graded, 1 not graded." in done.stdout and "[3/3] k-empty.json" in done.stderr
    assert [row["total"] for row in csv.DictReader(out.open())] == ["6", "6", ""]
    missing = subprocess.run([sys.executable, "-m", "irlab", "exercise", "grade", "builtin:ndcg-exercise",
                              str(tmp_path / "nope")], capture_output=True, text=True, cwd=ROOT)
    assert missing.returncode == 2 and "no such file or folder" in missing.stderr


def _grade_command(*arguments: str, python: str = "") -> subprocess.CompletedProcess:
    """``irlab exercise grade ...``, after ``python`` (code run first, e.g. to hide a module)."""
    code = f"{python}\nimport sys\nfrom irlab.cli import main\nsys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, "exercise", "grade", "builtin:ndcg-exercise", *arguments],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)


def test_without_the_grading_packages_the_command_says_so_in_one_line(class_folder):
    done = _grade_command(str(class_folder / "a-solution-seed3.ipynb"),
                          python="import sys\nsys.modules['nbclient'] = None  # as if not installed")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == ("error: grading notebooks needs the Python package 'nbclient', which is not installed "
                           "(pip install irlab installs it; see README)\n")


def test_when_nothing_could_be_graded_the_command_fails(class_folder, tmp_path):
    out = tmp_path / "book.csv"
    done = _grade_command(str(class_folder / "g-not-json.ipynb"), str(class_folder / "k-empty.json"), "-o", str(out))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.splitlines()[-1] == ("error: none of the 2 submissions could be graded (the gradebook's status "
                                            "column says why)")
    assert [row["status"] for row in csv.DictReader(out.open())] == ["not a notebook (not JSON text)", "empty file"]
