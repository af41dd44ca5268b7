"""The scripts a box runs come from the grader's memory, checked against the digests IR Lab ships; the grader never
imports them (an import would run a changed file's code in the grader itself)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from irlab.exercises.grading import box_code
from irlab.exercises.grading.box_code import SHIPPED, WORKERS, GradingCodeChanged, digest, shipped_table

FOLDER = Path(box_code.__file__).resolve().parent
ROOT = Path(__file__).resolve().parents[2]


def test_the_shipped_digests_are_the_scripts_on_disk():
    for name in WORKERS:
        assert digest((FOLDER / name).read_bytes().decode("utf-8")) == SHIPPED[name], (
            f"{name} changed: update SHIPPED in irlab/exercises/grading/box_code.py with "
            "python -m irlab.exercises.grading.box_code")
    assert all(f'"{name}": "{SHIPPED[name]}"' in shipped_table() for name in WORKERS)


def test_a_changed_script_is_refused_before_grading_starts(tmp_path, monkeypatch):
    for name in WORKERS:
        (tmp_path / name).write_text((FOLDER / name).read_text())
    (tmp_path / "call_worker.py").write_text((FOLDER / "call_worker.py").read_text() + "\nprint('forged')\n")
    monkeypatch.setattr(box_code, "_FOLDER", tmp_path)
    box_code.worker_source.cache_clear()
    box_code.worker_namespace.cache_clear()
    try:
        assert box_code.worker_source("box_init.py") == (FOLDER / "box_init.py").read_text()
        with pytest.raises(GradingCodeChanged, match=r"call_worker\.py has changed since this version was installed"):
            box_code.check_workers()
    finally:
        box_code.worker_source.cache_clear()
        box_code.worker_namespace.cache_clear()


def test_the_grader_never_imports_a_script_a_box_runs():
    code = ("import sys\nimport irlab.exercises, irlab.exercises.grading.grader, irlab.exercises.grading.sandbox, "
            "irlab.exercises.grading.error_words, irlab.exercises.grading.feedback, irlab.cli.exercise\n"
            "from irlab.exercises.grading.error_words import syntax_problem\nsyntax_problem(3, 'x = (')\n"
            "print(sorted(m for m in sys.modules if m.split('.')[-1] in ('box_init', 'call_worker', 'grade_worker')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          cwd=ROOT)
    assert done.stdout.strip() == "[]", done.stderr


def test_the_timed_out_status_is_the_same_on_both_sides():
    from irlab.exercises.grading import box_init, sandbox

    assert sandbox.TIMED_OUT == box_init.TIMED_OUT == 124
