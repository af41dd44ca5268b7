"""Variants bound to students: seeds from a secret (HMAC-SHA256), the roster command, the roster checked on grading;
and the outputs every grading run writes (printable names, spreadsheet-safe cells, feedback that renders as text)."""

from __future__ import annotations

import csv
import hashlib
import hmac
import json
import subprocess
import sys
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from irlab.errors import ValidationError
from irlab.exercises import answer_key, builtin_exercise, make_variant
from irlab.exercises.grading.feedback import feedback_markdown, write_feedback
from irlab.exercises.grading.gradebook import gradebook_csv, spreadsheet_safe
from irlab.exercises.grading.grader import answers_file, grade_all, grade_answers_file
from irlab.exercises.grading.printable import printable
from irlab.exercises.grading.roster import (
    file_stem,
    make_roster,
    read_roster,
    read_secret,
    read_students,
    roster_csv,
    student_seed,
)

ROOT = Path(__file__).resolve().parents[2]
EXERCISE = builtin_exercise("ndcg-exercise")
SECRET = "a lecturer's secret, long enough: 7f3c9a"


def _right(variant, student=None) -> str:
    return answers_file(variant, {e.question.id: f"{e.value:.4f}" for e in answer_key(variant)}, student)


def test_a_seed_is_the_hmac_of_the_student_id_under_the_secret():
    digest = hmac.new(SECRET.encode(), b"s1234567", hashlib.sha256).digest()
    assert student_seed(SECRET.encode(), "s1234567") == 1 + int.from_bytes(digest[:8], "big") % (10**9 - 1)
    seeds = {student_seed(SECRET.encode(), f"s{n}") for n in range(500)}
    assert len(seeds) == 500 and all(1 <= seed < 10**9 for seed in seeds)  # spread: no two students share one


def test_the_secret_comes_from_a_file_or_a_named_variable_and_is_never_echoed(tmp_path, monkeypatch):
    (tmp_path / "secret").write_text(SECRET + "\n")
    monkeypatch.setenv("IRLAB_CLASS_SECRET", SECRET)
    assert read_secret(file=str(tmp_path / "secret")) == read_secret(variable="IRLAB_CLASS_SECRET") == SECRET.encode()
    monkeypatch.setenv("IRLAB_SHORT", "short")
    with pytest.raises(ValidationError) as error:
        read_secret(variable="IRLAB_SHORT")
    assert "short" not in str(error.value).replace("IRLAB_SHORT", "") and "16 bytes" in str(error.value)
    with pytest.raises(ValidationError, match="not set"):
        read_secret(variable="IRLAB_NOT_THERE")


@pytest.mark.parametrize("text, message", [
    ("student,seed\nann,7\nann,8\n", "listed twice"), ("student,seed\nann,-1\n", "not a whole number"),
    ("name,variant\nann,7\n", "first line is 'student,seed'"), ("student,seed\nann\x1b[2J,7\n", "control characters"),
    ("student,seed\n", "no students"),
])
def test_a_bad_roster_is_refused_with_its_line(text, message):
    with pytest.raises(ValidationError, match=message):
        read_roster(text)


def test_student_lists_and_file_names():
    assert read_students("# class A\nann\n\nbob\n") == ["ann", "bob"]
    assert read_students("student,email\nann,a@x\nbob,b@x\n") == ["ann", "bob"]
    with pytest.raises(ValidationError, match="listed twice"):
        read_students("ann\nann\n")
    assert file_stem("../../etc/passwd") == "_.._etc_passwd" and file_stem("Zoë Ng") == "Zo__Ng"
    assert read_roster(roster_csv(make_roster(SECRET.encode(), ["ann", "bob"]))) == make_roster(SECRET.encode(),
                                                                                                 ["ann", "bob"])


def test_the_roster_command_writes_a_notebook_per_student_and_never_prints_the_secret(tmp_path):
    (tmp_path / "ids.txt").write_text("ann\nbob\nAnn Smith/..\n")
    done = subprocess.run([sys.executable, "-m", "irlab", "exercise", "roster", "builtin:ndcg-exercise", "--students",
                           str(tmp_path / "ids.txt"), "--secret-env", "IRLAB_CLASS_SECRET", "-o",
                           str(tmp_path / "class")], capture_output=True, text=True, cwd=ROOT, timeout=120,
                          env={"IRLAB_CLASS_SECRET": SECRET, "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    assert SECRET not in done.stdout + done.stderr
    roster = read_roster((tmp_path / "class" / "roster.csv").read_text())
    assert roster == make_roster(SECRET.encode(), ["ann", "bob", "Ann Smith/.."])
    notebook = json.loads((tmp_path / "class" / "ndcg-exercise-ann.ipynb").read_text())
    assert notebook["metadata"]["irlab"]["student"] == "ann" and notebook["metadata"]["irlab"]["seed"] == roster["ann"]
    assert (tmp_path / "class" / "ndcg-exercise-Ann_Smith_...ipynb").exists()
    assert len(list(csv.DictReader((tmp_path / "class" / "ndcg-exercise-answer-key.csv").open()))) == 3 * 6
    without = subprocess.run([sys.executable, "-m", "irlab", "exercise", "roster", "builtin:ndcg-exercise",
                              "--students", str(tmp_path / "ids.txt"), "-o", str(tmp_path / "x")],
                             capture_output=True, text=True, cwd=ROOT)
    assert without.returncode == 2 and without.stderr.count("\n") == 1


def test_grading_with_a_roster_flags_what_does_not_match(tmp_path):
    roster = {"ann": 7, "bob": 3, "cy": 5}
    files = {
        "ann.json": _right(make_variant(EXERCISE, 7), "ann"),
        "ann-as-3.json": _right(make_variant(EXERCISE, 3), "ann"),  # another variant's answers, under ann's name
        "bob.json": _right(make_variant(EXERCISE, 3), "bob"),
        "mallory.json": _right(make_variant(EXERCISE, 5), "mallory"),
        "anonymous.json": _right(make_variant(EXERCISE, 5)),
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    rows = {row.file: row for row in grade_all(EXERCISE, [tmp_path / name for name in files], roster=roster)}
    assert rows["ann.json"].total == 6 and rows["ann.json"].flags == ("student ann also submitted ann-as-3.json",)
    relabelled = rows["ann-as-3.json"]
    assert relabelled.seed == 7 and relabelled.total < 6  # graded on ann's variant: variant 3's values do not fit
    assert relabelled.flags[0] == "seed 3 is not ann's: the roster says 7 (graded as variant 7)"
    assert rows["bob.json"].flags == ()
    assert rows["mallory.json"].flags[0] == "the student id 'mallory' is not in the roster"
    assert rows["anonymous.json"].flags[0] == "no student id in the submission"
    assert "variant 5 also in anonymous.json" in rows["mallory.json"].flags


def test_printable_names_and_spreadsheet_safe_cells():
    assert printable("\x1b[31mred\x1b[0m\u202e\u2066x\u200by\x85z\udcff") == "[31mred[0mxy z"
    for cell in ("=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx"):
        assert spreadsheet_safe(cell) == "'" + cell
    assert spreadsheet_safe("ann") == "ann" and spreadsheet_safe(-1) == -1
    row = grade_answers_file(EXERCISE, _right(EXERCISE, "=cmd|' /C calc'!A0"), "+evil\x1b[2J.json")
    book = list(csv.reader(gradebook_csv(EXERCISE, [row]).splitlines()))
    assert book[1][:2] == ["'+evil[2J.json", "'=cmd|' /C calc'!A0"]


def test_feedback_renders_user_text_as_text(tmp_path):
    row = grade_answers_file(EXERCISE, answers_file(EXERCISE, {"ndcg5-q1": "0.7463", "ndcg10-q1": "x"},
                                                    "<img src=x onerror=alert(1)>"), "[a](javascript:alert(1)).json")
    text = feedback_markdown(EXERCISE, row)
    html = MarkdownIt("commonmark").render(text)
    assert "<img" not in html and "<a " not in html and "javascript:alert(1)" in html
    assert "Known mistake <code>discount-log2-k-plus-1</code>" in html and "Points: <strong>0 of 6</strong>" in html
    assert "0.7992" not in text  # the expected value is not handed back
    paths = write_feedback(tmp_path / "fb", EXERCISE, [row, row])
    assert [p.name for p in paths] == ["_a__javascript_alert_1__.md", "_a__javascript_alert_1__-2.md"]


def test_a_seed_edited_by_hand_is_graded_on_the_students_own_variant():
    data = json.loads(_right(make_variant(EXERCISE, 7), "ann"))
    data["seed"] = 3  # the fingerprint still says variant 7
    row = grade_answers_file(EXERCISE, json.dumps(data), "ann.json", roster={"ann": 7})
    assert (row.status, row.seed, row.total) == ("graded", 7, 6)
    assert row.flags == ("seed 3 is not ann's: the roster says 7 (graded as variant 7)",)
    assert grade_answers_file(EXERCISE, json.dumps(data), "ann.json").status.startswith("made from another exercise")
