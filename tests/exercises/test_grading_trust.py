"""A hostile notebook cannot touch the grader or a classmate (issue 35): graded by the command a lecturer runs.

Each class here is graded by ``python -m irlab exercise grade`` run from **a copy of the irlab package** (so a
notebook that rewrites the grader rewrites the copy, never this checkout), once with every layer this machine
allows and, where the claim is for any machine, once with ``--sandbox basic``:

* the tamper cell: a notebook that rewrites the installed ``call_worker.py`` so that it prints the expected
  values; before, it and every later submission (untouched ones included) scored 6/6;
* a classmate's notebook, the lecturer's secret file and the roster's answer key read and returned in the
  feedback, a classmate's notebook overwritten, the feedback folder written to, kernel settings written;
* what a submission's own code says (exception messages, class names, printed output) never reaches the feedback
  beyond IR Lab's own words;
* a relabelled or copied notebook of a signed class, without a roster.
"""

from __future__ import annotations

import csv
import hashlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from irlab.exercises import answer_key, builtin_exercise, exercise_notebook, make_variant, notebook_text
from irlab.exercises.format.exercise_file import fingerprint
from irlab.exercises.grading.roster import student_seed
from irlab.exercises.grading.sandbox import detect_isolation

pytest.importorskip("nbclient")
ROOT = Path(__file__).resolve().parents[2]
EXERCISE = builtin_exercise("ndcg-exercise")
EXPECTED = {entry.question.id: round(entry.value, 4) for entry in answer_key(EXERCISE)}
SECRET = "the lecturer's class secret, 32 bytes: 9c1e77aa"
CLASSMATE_MARK = "BOB-PRIVATE-SOLUTION-3f1d"
KEY_MARK = "ANSWER-KEY-ROW-77c2"
LEAK_MARK = "STUDENT-CHOSEN-TEXT-0b9e"
HERE = detect_isolation()
needs_files = pytest.mark.skipif(not HERE.files, reason="no file system of its own for a box here (mount namespaces)")


def _untouched_with(source: str, at: int = 4):
    notebook = exercise_notebook(EXERCISE)
    notebook.cells.insert(at, nbformat.v4.new_code_cell(source))
    return notebook


def _solved_with(source: str, at: int = 4):
    notebook = exercise_notebook(EXERCISE, solutions=True)
    notebook.cells.insert(at, nbformat.v4.new_code_cell(source))
    return notebook


def _function_body(notebook, body: str):
    """The notebook with ndcg's solution body replaced by ``body`` (indented lines)."""
    for cell in notebook.cells:
        if cell.cell_type == "code" and "def ndcg(" in cell.source:
            head, _, _ = cell.source.partition("    ### BEGIN SOLUTION\n")
            cell.source = head + "    ### BEGIN SOLUTION\n" + body + "    ### END SOLUTION\n"
    return notebook


@pytest.fixture(scope="module")
def package(tmp_path_factory) -> Path:
    """A copy of the irlab package to grade with (the tamper cell rewrites its files)."""
    root = tmp_path_factory.mktemp("installed")
    shutil.copytree(ROOT / "irlab", root / "irlab", ignore=shutil.ignore_patterns("__pycache__", "node_modules"))
    return root


def _grade(package: Path, folder: Path, out: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "irlab", "exercise", "grade", "builtin:ndcg-exercise", str(folder), "-o",
         str(out / "gradebook.csv"), "--feedback", str(out / "feedback"), "--cell-timeout", "10",
         "--call-timeout", "5", "--timeout", "90", *extra],
        capture_output=True, text=True, cwd=package, timeout=900, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})


def _rows(out: Path) -> dict[str, dict[str, str]]:
    with (out / "gradebook.csv").open(newline="") as handle:
        return {row["file"]: row for row in csv.DictReader(handle)}


def _problems(row: dict[str, str]) -> list[str]:
    return [row[f"{q.id} mistake"] for q in EXERCISE.questions]


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# ---------------------------------------------------------------------------------------------
# The tamper cell
# ---------------------------------------------------------------------------------------------

FORGED_WORKER = f"""import json, sys
request = json.loads(sys.stdin.buffer.read())
print(json.dumps({{"cells": [], "problem": ""}}))
for question in request["questions"]:
    print(json.dumps({{"question": question["id"], "value": {EXPECTED!r}[question["id"]]}}))
"""


WORKER = Path("irlab", "exercises", "grading", "call_worker.py")
"""The script the tamper cell rewrites, in the installed package's folder."""


def _tamper_cell(package: Path) -> str:
    target = package / WORKER
    return f"""_tampered = []
for _path in ({str(target)!r},):
    try:
        with open(_path, "w") as _out:
            _out.write({FORGED_WORKER!r})
        _tampered.append(_path)
    except OSError as _error:
        _tampered.append(repr(_error))
"""


@pytest.fixture(scope="module", params=["auto", "basic"])
def tampered(request, package, tmp_path_factory):
    """A tamper notebook graded first, then an untouched one (one at a time, in file order)."""
    folder, out = tmp_path_factory.mktemp("tamper"), tmp_path_factory.mktemp("tamper-out")
    original = _digest(package / WORKER)
    (folder / "a-tamper.ipynb").write_text(notebook_text(_untouched_with(_tamper_cell(package))))
    (folder / "b-untouched.ipynb").write_text(notebook_text(exercise_notebook(EXERCISE)))
    extra = ("--sandbox", "basic") if request.param == "basic" else ()
    done = _grade(package, folder, out, "--jobs", "1", *extra)
    after = _digest(package / WORKER)
    again = _grade(package, folder, tmp_path_factory.mktemp("tamper-again"), "--jobs", "1", *extra)
    shutil.copy2(ROOT / WORKER, package / WORKER)
    return request.param, done, out, original, after, again


def test_a_notebook_that_rewrites_the_worker_forges_no_grade(tampered):
    mode, done, out, original, after, again = tampered
    assert done.returncode == 0, done.stderr[-3000:]
    rows = _rows(out)
    for name in ("a-tamper.ipynb", "b-untouched.ipynb"):  # before: 6 and 6, every later submission forged
        assert rows[name]["total"] == "0", (name, rows[name])
        assert all(p.startswith("NotImplementedError") for p in _problems(rows[name])), rows[name]
    if mode == "auto" and HERE.files:
        assert after == original  # the box could not write the grader's files at all
    if after != original:
        # the box could write it (the basic layers: your user's files are the box's): the next grading refuses
        # to trust the changed worker instead of running it
        assert again.returncode == 2 and "call_worker.py" in again.stderr and "changed" in again.stderr, again.stderr
    else:
        assert again.returncode == 0


# ---------------------------------------------------------------------------------------------
# Classmates, the lecturer's files, the feedback folder, the machine
# ---------------------------------------------------------------------------------------------

def _reader(paths: dict[str, Path]) -> str:
    """A function body that reads each file and raises with what it read (before: copied into the feedback)."""
    reads = "".join(f"    _seen.append(open({str(path)!r}, errors='replace').read()[:2000])\n"
                    for path in paths.values())
    return "    _seen = []\n" + reads + "    raise RuntimeError(' | '.join(_seen))\n"


@pytest.fixture(scope="module")
def classmates(package, tmp_path_factory):
    folder, out = tmp_path_factory.mktemp("class"), tmp_path_factory.mktemp("class-out")
    lecturer = tmp_path_factory.mktemp("lecturer")
    (lecturer / "secret.txt").write_text(SECRET + "\n")
    (lecturer / "ndcg-exercise-answer-key.csv").write_text(f"student,question,answer\nbob,ndcg5-q1,{KEY_MARK}\n")
    bob = exercise_notebook(make_variant(EXERCISE, 3), solutions=True, student="bob")
    bob.cells.insert(4, nbformat.v4.new_markdown_cell(CLASSMATE_MARK))
    (folder / "bob.ipynb").write_text(notebook_text(bob))
    reads = {"classmate": folder / "bob.ipynb", "secret": lecturer / "secret.txt",
             "key": lecturer / "ndcg-exercise-answer-key.csv"}
    (folder / "reader.ipynb").write_text(notebook_text(_function_body(exercise_notebook(EXERCISE, solutions=True),
                                                                      _reader(reads))))
    overwrite = (f"with open({str(folder / 'bob.ipynb')!r}, 'w') as _out:\n    _out.write('{{}}')\n"
                 f"import os\nos.makedirs({str(out / 'feedback')!r}, exist_ok=True)\n"
                 f"with open({str(out / 'feedback' / 'bob.md')!r}, 'w') as _out:\n    _out.write('Points: 6 of 6')\n"
                 f"with open({str(out / 'feedback' / 'from-a-student.md')!r}, 'w') as _out:\n    _out.write('x')\n")
    (folder / "overwriter.ipynb").write_text(notebook_text(_solved_with(overwrite)))
    kernel_settings = ("    for _name in ('/proc/sys/vm/swappiness', '/proc/sys/kernel/printk_ratelimit'):\n"
                       "        with open(_name) as _setting:\n            _value = _setting.read()\n"
                       "        with open(_name, 'w') as _setting:\n            _setting.write(_value)\n")
    (folder / "kernel-settings.ipynb").write_text(notebook_text(_function_body(
        exercise_notebook(EXERCISE, solutions=True), kernel_settings + "    return 0.5\n")))
    # output without end, and a user namespace of its own trying to make the read-only system writable
    flood = ("import ctypes\n_libc = ctypes.CDLL(None, use_errno=True)\n"
             "_unshared = _libc.unshare(0x10000000 | 0x00020000)\n"
             "_remounted = _libc.mount(None, b'/usr', None, 32 | 4096, None)\n"
             "while True:\n    print('x' * 100_000)\n")
    (folder / "flood.ipynb").write_text(notebook_text(_solved_with(flood)))
    before = _digest(folder / "bob.ipynb")
    # 240 s in all, not 90: the flood notebook's run includes an interrupt and maybe a kernel restart, which on a busy
    # 2-core machine takes tens of seconds (CI once saw its total 0); what is tested is the cell, not the total budget
    done = _grade(package, folder, out, "--jobs", "2", "--timeout", "240")
    return done, out, folder, before


@needs_files
def test_a_classmates_notebook_the_secret_and_the_answer_key_are_out_of_sight(classmates):
    done, out, _, _ = classmates
    assert done.returncode == 0, done.stderr[-3000:]
    row = _rows(out)["reader.ipynb"]
    assert row["total"] == "0" and all(p.startswith("FileNotFoundError") for p in _problems(row)), row
    texts = [done.stdout, done.stderr, (out / "gradebook.csv").read_text()]
    texts += [path.read_text() for path in (out / "feedback").iterdir()]
    for mark in (CLASSMATE_MARK, SECRET, KEY_MARK):  # before: all three in reader.md and the gradebook
        assert not any(mark in text for text in texts), mark


@needs_files
def test_a_classmates_notebook_and_the_feedback_folder_cannot_be_written(classmates):
    done, out, folder, before = classmates
    assert _digest(folder / "bob.ipynb") == before  # before: overwritten with "{}" (0 of 6 at the next grading)
    rows = _rows(out)
    assert rows["bob.ipynb"]["total"] == "6" and rows["overwriter.ipynb"]["total"] == "6"
    assert sorted(path.name for path in (out / "feedback").iterdir()) == [
        "bob.md", "flood.md", "kernel-settings.md", "overwriter.md", "reader.md"]
    assert "Points: **6 of 6**" in (out / "feedback" / "bob.md").read_text()


def test_endless_output_costs_only_its_cell(classmates):
    row = _rows(classmates[1])["flood.ipynb"]
    # the cell ran out of time; the functions were graded as usual
    assert row["total"] == "6", (row["notebook errors"], row)
    # interrupted, or (a kernel busy printing may not answer the interrupt in time) restarted; or, when the
    # kernel's unsent output reaches the box's memory limit first, the cell ends by itself with a MemoryError (a
    # cell's own error is no notebook error), or the output the kernel still holds ends it by the memory limit a few
    # cells later (it is restarted and the run goes on: CI saw cell 14): which comes first depends on the machine's
    # speed, and either way the notebook's run went on (no "stopped after", no "ended before cell")
    errors = row["notebook errors"]
    restarted = re.fullmatch(r"cell \d+ ended its kernel \(out of memory, or it exited\): the kernel was restarted "
                             r"and the next cells ran", errors)
    assert errors == "" or errors.startswith("cell 5 took longer than 10 s and ") or restarted, row


@needs_files
def test_kernel_settings_cannot_be_written_from_a_box(classmates):
    row = _rows(classmates[1])["kernel-settings.ipynb"]
    # before: written (the box ran as root without capabilities, and /proc/sys checks only the file's mode)
    assert row["total"] == "0" and all(p.startswith(("PermissionError", "OSError")) for p in _problems(row)), row


# ---------------------------------------------------------------------------------------------
# Feedback in IR Lab's words
# ---------------------------------------------------------------------------------------------

def test_feedback_holds_no_text_of_the_submissions_choosing(tmp_path, package):
    folder, out = tmp_path / "in", tmp_path / "out"
    folder.mkdir()
    out.mkdir()
    leak = _function_body(exercise_notebook(EXERCISE, solutions=True),
                          f"    raise ValueError({LEAK_MARK!r} * 40 + '**bold** <b>x</b> \\x1b[2J')\n")
    (folder / "message.ipynb").write_text(notebook_text(leak))
    named = _function_body(exercise_notebook(EXERCISE, solutions=True),
                           f"    raise type({LEAK_MARK.replace('-', '_')!r}, (Exception,), {{}})('x')\n")
    (folder / "class-name.ipynb").write_text(notebook_text(named))
    printer = _solved_with(f"print({LEAK_MARK!r} * 200_000)\nimport sys\nsys.stderr.write({LEAK_MARK!r} * 1000)\n")
    (folder / "printer.ipynb").write_text(notebook_text(printer))
    done = _grade(package, folder, out, "--jobs", "2")
    assert done.returncode == 0, done.stderr[-3000:]
    texts = [done.stdout, done.stderr, (out / "gradebook.csv").read_text()]
    texts += [path.read_text() for path in (out / "feedback").iterdir()]
    assert not any(LEAK_MARK in text or LEAK_MARK.replace("-", "_") in text for text in texts)
    rows = _rows(out)
    assert rows["printer.ipynb"]["total"] == "6"
    message = _problems(rows["message.ipynb"])
    assert all(p.startswith("ValueError: a value the operation cannot take (cell 13, line ") for p in message), message
    named_problems = _problems(rows["class-name.ipynb"])
    assert all(p.startswith("an exception of the submission's own class (cell 13, line ") for p in named_problems)
    feedback = (out / "feedback" / "message.md").read_text()
    assert "ValueError" in feedback and "cell 13" in feedback and "\x1b" not in feedback


# ---------------------------------------------------------------------------------------------
# Variants bound to students without a roster: signed notebooks
# ---------------------------------------------------------------------------------------------

def _signed(student: str):
    """The notebook ``irlab exercise roster`` writes for ``student`` with the class secret (signed)."""
    from irlab.exercises.grading.signature import signed_notebook

    return signed_notebook(EXERCISE, student, SECRET.encode(), solutions=True)


def test_a_relabelled_or_copied_notebook_is_flagged_without_a_roster(tmp_path, package):
    folder, out = tmp_path / "in", tmp_path / "out"
    folder.mkdir()
    out.mkdir()
    (tmp_path / "secret.txt").write_text(SECRET + "\n")
    ann, bob = student_seed(SECRET.encode(), "ann"), student_seed(SECRET.encode(), "bob")
    relabelled = _signed("ann")  # ann's variant, relabelled as bob's (seed and fingerprint)
    relabelled.metadata["irlab"]["seed"] = bob
    relabelled.metadata["irlab"]["exercise"] = fingerprint(make_variant(EXERCISE, bob))
    (folder / "ann.ipynb").write_text(notebook_text(relabelled))
    copied = _signed("bob")  # bob's notebook handed in by carol under her name
    copied.metadata["irlab"]["student"] = "carol"
    (folder / "carol.ipynb").write_text(notebook_text(copied))
    (folder / "bob.ipynb").write_text(notebook_text(_signed("bob")))
    (folder / "dave.ipynb").write_text(notebook_text(exercise_notebook(make_variant(EXERCISE, 5), solutions=True,
                                                                      student="dave")))  # not signed
    done = _grade(package, folder, out, "--jobs", "2", "--secret-file", str(tmp_path / "secret.txt"))
    assert done.returncode == 0, done.stderr[-3000:]
    rows = _rows(out)
    assert (rows["bob.ipynb"]["total"], rows["bob.ipynb"]["roster"]) == ("6", "")
    assert rows["ann.ipynb"]["seed"] == str(ann) and rows["ann.ipynb"]["total"] == "6"
    assert rows["ann.ipynb"]["roster"].startswith("the signature does not match"), rows["ann.ipynb"]
    carol = rows["carol.ipynb"]
    # graded on carol's own variant (bob's working code computes it right: copying code is for people to judge)
    assert carol["seed"] == str(student_seed(SECRET.encode(), "carol"))
    assert carol["roster"].startswith("the signature does not match"), carol
    assert rows["dave.ipynb"]["roster"].startswith("not signed"), rows["dave.ipynb"]
    assert SECRET not in done.stdout + done.stderr + (out / "gradebook.csv").read_text()
    # the secret file as written here is readable by every user (a box sees world-readable files of its folders)
    assert f"the secret file {tmp_path / 'secret.txt'} is readable by every user of this machine" in done.stderr
