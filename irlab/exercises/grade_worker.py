"""Runs one submitted notebook for grading, in a process of its own (started by :mod:`irlab.exercises.grading`).

    python grade_worker.py NOTEBOOK GRADING_CELL RESULT_JSON CELL_SECONDS GRADING_SECONDS

Run as a script, not imported: it needs only nbformat and nbclient (not irlab), so the child
process that holds the student's code imports as little as possible. It executes every cell of
the notebook (errors allowed: one broken cell costs its own question only), interrupting a cell
after ``CELL_SECONDS``; then the grading cell, which calls the student's functions and prints one
``IRLAB-GRADE {json}`` line per question. It writes what it saw to ``RESULT_JSON``: the grading
lines, and which autograded (nbgrader) check cells raised.
"""

from __future__ import annotations

import json
import os
import sys


def main(notebook_path: str, grading_path: str, result_path: str, cell_seconds: str, grading_seconds: str) -> int:
    import nbclient
    import nbformat

    notebook = nbformat.read(notebook_path, as_version=4)
    for cell in notebook.cells:  # the student's outputs say nothing: everything is run again here
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    with open(grading_path, encoding="utf-8") as handle:
        grading = nbformat.v4.new_code_cell(handle.read())
    notebook.cells.append(grading)

    def timeout(cell) -> int:
        return int(grading_seconds) if cell is grading else int(cell_seconds)

    client = nbclient.NotebookClient(notebook, kernel_name="python3", timeout_func=timeout, allow_errors=True,
                                     interrupt_on_timeout=True, resources={"metadata": {"path": os.getcwd()}})
    client.execute(env={**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"})
    lines = "".join(output.get("text", "") for output in grading.outputs if output.output_type == "stream")
    raised = [cell.metadata.get("nbgrader", {}).get("grade_id") for cell in notebook.cells
              if cell is not grading and cell.metadata.get("nbgrader", {}).get("grade")
              and any(output.output_type == "error" for output in cell.get("outputs", []))]
    with open(result_path, "w", encoding="utf-8") as handle:
        json.dump({"grading_output": lines, "checks_raised": raised}, handle)
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:6]))
