"""Exported notebooks run in Jupyter: the solution passes every check, the student version fails them.

The kernel is the ``python3`` kernel of this Python (jupyter_client runs ``python`` as the
current interpreter), which has pytest and ipytest; it is installed for this environment if
missing. Each notebook runs in a temporary folder, and the kernel loads no third-party pytest
plugins (as in a student's plain Jupyter with only pytest and ipytest; it also saves seconds).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import nbformat
import pytest

from irlab.exercises import BUILTIN_NAMES, builtin_exercise, exercise_notebook, make_variant, notebook_text

nbclient = pytest.importorskip("nbclient")
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.fixture(scope="session")
def kernel_name() -> str:
    from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel
    try:
        KernelSpecManager().get_kernel_spec("python3")
    except NoSuchKernel:
        subprocess.run([sys.executable, "-m", "ipykernel", "install", "--sys-prefix"], check=True,
                       capture_output=True)
    return "python3"


def execute(notebook, kernel_name: str, folder) -> list[tuple[str, str, list]]:
    """Run the notebook; return (source, text output, error outputs) of each test cell."""
    client = nbclient.NotebookClient(notebook, kernel_name=kernel_name, timeout=120, allow_errors=True,
                                     resources={"metadata": {"path": str(folder)}})
    client.execute(env={**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"})
    results = []
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        errors = [output for output in cell.outputs if output.output_type == "error"]
        text = _ANSI.sub("", "".join(output.get("text", "") for output in cell.outputs))
        results.append((cell.source, text, errors))
    return results


def _test_cells(results):
    return [(source, text, errors) for source, text, errors in results if source.startswith("%%ipytest")]


@pytest.mark.parametrize("name", BUILTIN_NAMES)
def test_the_solution_notebook_runs_and_every_check_passes(name, kernel_name, tmp_path):
    exercise = builtin_exercise(name)
    notebook = nbformat.reads(notebook_text(exercise_notebook(exercise, solutions=True)), as_version=4)
    results = execute(notebook, kernel_name, tmp_path)
    assert not [errors for _, _, errors in results if errors], "no cell raised"
    tests = _test_cells(results)
    assert tests
    passed = 0
    for _, text, _ in tests:
        assert re.search(r"\b\d+ passed\b", text), text
        assert "failed" not in text and "error" not in text.lower(), text
        passed += int(re.search(r"\b(\d+) passed\b", text).group(1))
    assert passed == len(exercise.questions), "one check per question"


@pytest.mark.parametrize("name", BUILTIN_NAMES)
def test_the_student_notebook_reports_failing_checks(name, kernel_name, tmp_path):
    exercise = builtin_exercise(name)
    notebook = exercise_notebook(exercise, solutions=False)
    results = execute(notebook, kernel_name, tmp_path)
    tests = _test_cells(results)
    failed = 0
    for _, text, errors in tests:
        assert re.search(r"\b\d+ failed\b", text) and "passed" not in text, text
        assert "NotImplementedError" in text
        assert len(errors) == 1  # the cell raises, so a headless grader sees the failure in this cell
        failed += int(re.search(r"\b(\d+) failed\b", text).group(1))
    assert failed == len(exercise.questions) == len(tests)  # one check cell per question
    assert not [errors for source, _, errors in results if errors and not source.startswith("%%ipytest")]


@pytest.mark.parametrize("solutions", [False, True])
def test_cells_carry_nbgrader_metadata(solutions):
    exercise = builtin_exercise("ndcg-exercise")
    notebook = exercise_notebook(exercise, solutions=solutions)
    meta = [cell.metadata["nbgrader"] for cell in notebook.cells]
    assert len({m["grade_id"] for m in meta}) == len(meta)  # unique, stable ids
    graded = [m for m in meta if m["grade"]]
    assert len(graded) == len(exercise.questions) and all(m["points"] == 1 and m["locked"] for m in graded)
    solution_cells = [cell for cell in notebook.cells if cell.metadata["nbgrader"]["solution"]]
    assert solution_cells and all(not cell.metadata["nbgrader"]["locked"] for cell in solution_cells)
    assert all(("### BEGIN SOLUTION" in cell.source) == solutions for cell in solution_cells)
    assert notebook.metadata["irlab"]["exercise"] and notebook.metadata["irlab"]["seed"] is None


def test_a_variant_notebook_with_evil_labels_and_several_systems_passes(evil, kernel_name, tmp_path):
    """Labels with script tags stay strings; a second system and a seed change nothing in Jupyter."""
    from dataclasses import replace
    two = replace(evil, systems=(evil.systems[0], replace(evil.systems[0], id="other")))
    notebook = exercise_notebook(make_variant(two, 4), solutions=True)
    assert "'<script>alert(1)</script>'" in notebook_text(notebook)
    results = execute(notebook, kernel_name, tmp_path)
    assert not [errors for _, _, errors in results if errors]
    assert all(re.search(r"\b\d+ passed\b", text) for _, text, _ in _test_cells(results))


def test_exports_are_byte_identical_between_runs():
    from irlab.exercises import builtin_exercise, exercise_notebook, notebook_text

    exercise = builtin_exercise("ndcg-exercise")
    assert notebook_text(exercise_notebook(exercise)) == notebook_text(exercise_notebook(exercise))
