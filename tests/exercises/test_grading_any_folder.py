"""An exported notebook runs the same in any folder: its checks use the notebook's own pytest options, not those of
the folder it is opened in (a course repository's pyproject.toml, or this one's: ``-n auto --dist loadfile``).

Before, ipytest's pytest read the folder's configuration: without pytest-xdist every check cell failed with
"ipytest failed with exit_code 4" (unrecognized arguments: -n), with it with exit code 5 (nothing collected).
"""

from __future__ import annotations

import os
import re

import nbformat
import pytest

from irlab.exercises import builtin_exercise, exercise_notebook

nbclient = pytest.importorskip("nbclient")
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
FOLDER_CONFIG = '[tool.pytest.ini_options]\naddopts = "-n auto --dist loadfile"\nfilterwarnings = ["error"]\n'


def _checks(folder, solutions: bool, plugins: bool) -> list[tuple[str, str]]:
    """Run the exported notebook in ``folder``; each check cell's error name ('' when it passed) and text output."""
    notebook = exercise_notebook(builtin_exercise("ndcg-exercise"), solutions=solutions)
    client = nbclient.NotebookClient(notebook, kernel_name="python3", timeout=120, allow_errors=True,
                                     resources={"metadata": {"path": str(folder)}})
    env = {**os.environ}
    env.pop("PYTEST_ADDOPTS", None)
    if not plugins:  # a student's Jupyter with only pytest and ipytest: no xdist to read -n
        env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    client.execute(env=env)
    found = []
    for cell in notebook.cells:
        if cell.cell_type == "code" and cell.source.startswith("%%ipytest"):
            errors = [output.get("ename", "") + ": " + output.get("evalue", "")
                      for output in cell.outputs if output.output_type == "error"]
            text = _ANSI.sub("", "".join(output.get("text", "") for output in cell.outputs))
            found.append((errors[0] if errors else "", text))
    return found


@pytest.fixture
def course_folder(tmp_path):
    """A course repository's folder: pytest options the kernel cannot honour, and a conftest.py that fails."""
    (tmp_path / "pyproject.toml").write_text(FOLDER_CONFIG)
    (tmp_path / "conftest.py").write_text("raise RuntimeError('the course folder conftest.py was imported')\n")
    return tmp_path


@pytest.mark.parametrize("plugins", [False, True], ids=["without-xdist", "with-xdist"])
def test_the_checks_ignore_the_folders_pytest_configuration(course_folder, plugins):
    solved = _checks(course_folder, solutions=True, plugins=plugins)
    assert len(solved) == 6 and all(error == "" for error, _ in solved), solved
    assert all("1 passed" in text for _, text in solved), solved
    assert not (course_folder / ".pytest_cache").exists()  # no cache folder left in the student's folder


def test_a_failing_check_still_says_which_check_and_why_in_a_course_folder(course_folder):
    student = _checks(course_folder, solutions=False, plugins=False)
    assert len(student) == 6
    for error, text in student:
        assert error.startswith("Error: ipytest failed with exit_code 1"), error  # 1: a test failed, not 4 or 5
        assert "NotImplementedError" in text and "1 failed" in text


def test_the_setup_cell_is_still_irlabs_own_for_the_grader():
    from irlab.exercises.exports.notebook import data_cell_sources

    notebook = exercise_notebook(builtin_exercise("ndcg-exercise"))
    setup = next(cell for cell in notebook.cells if cell.metadata["nbgrader"]["grade_id"] == "setup")
    assert setup.source in data_cell_sources(builtin_exercise("ndcg-exercise"))
    assert nbformat.validate(notebook) is None
