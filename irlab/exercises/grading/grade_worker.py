"""Runs a submitted notebook's cells in a Jupyter kernel, inside a box, and says how each cell ended.

    python -I -c SOURCE CONFIG_JSON < NOTEBOOK_JSON

Started by :mod:`irlab.exercises.grading.grader` inside a box (:mod:`irlab.exercises.grading.sandbox`), with this
file's text as the grader holds it (:mod:`irlab.exercises.grading.box_code`); it needs only nbformat and
nbclient, not irlab. The notebook on stdin holds only the
cells to run (the grader leaves IR Lab's check cells out), each with its number in the submitted
notebook in ``metadata.irlab_cell``. Each cell gets ``cell_seconds``; a cell still running then
is interrupted, and when the kernel does not answer within ``grace_seconds`` after that (a loop in
C code, such as ``sum(range(10**12))``, ignores the interrupt) the kernel is restarted, the cells
that had run are run again in the new kernel, and the next cells run: a slow cell costs only what
depends on it.

It prints one JSON line per cell, as it ends: ``{"cell": N, "status": "ok" | "error" | "timeout"
| "restarted" | "died", "error": "Name: message"}`` ("died": the cell ended its kernel, which was
restarted), and ``{"kernel": "failed", "reason": ...}`` when no kernel starts. Nothing the cells
print is kept (an endless ``print`` would otherwise fill this process's memory). Nothing here is
trusted by the grader: the lines only decide which of the student's own cells the evaluation leaves
out (those that ran out of time), and the values are computed elsewhere
(:mod:`irlab.exercises.grading.call_worker`).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

TIMEOUT_MARK = "IRLabCellTimeout"


def _emit(line: dict) -> None:
    sys.stdout.write(json.dumps(line) + "\n")
    sys.stdout.flush()


def main(config_json: str) -> int:
    import nbclient
    import nbformat
    from nbclient.exceptions import DeadKernelError

    config = json.loads(config_json)
    cell_seconds, grace = config["cell_seconds"], config["grace_seconds"]
    notebook = nbformat.reads(sys.stdin.read(), as_version=4)
    replies: dict[int, dict] = {}

    def keep_reply(cell, cell_index, execute_reply) -> None:
        replies[cell_index] = execute_reply or {}

    client = nbclient.NotebookClient(
        notebook, kernel_name="python3", timeout=cell_seconds, startup_timeout=config["startup_seconds"],
        interrupt_on_timeout=True, allow_errors=True, record_timing=False, iopub_timeout=0, shutdown_kernel="immediate",
        error_on_timeout={"ename": TIMEOUT_MARK, "evalue": f"more than {cell_seconds} s", "traceback": []},
        resources={"metadata": {"path": os.getcwd()}}, on_cell_executed=keep_reply)
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    client.output = lambda outs, msg, display_id, cell_index: None  # keep no output: only how each cell ended counts

    def start() -> None:
        client.km = client.create_kernel_manager()
        client.start_new_kernel(**quiet)
        client.start_new_kernel_client()

    def run(index: int, seconds: float) -> dict:
        client.timeout = seconds
        replies.pop(index, None)
        try:
            client.execute_cell(notebook.cells[index], index)
        except DeadKernelError:
            return {"status": "error", "ename": "DeadKernelError", "evalue": "the kernel died"}
        return dict(replies.get(index, {}).get("content") or {})

    def answers() -> bool:
        probe = nbformat.v4.new_code_cell("pass")
        notebook.cells.append(probe)
        try:
            return run(len(notebook.cells) - 1, grace).get("ename") != TIMEOUT_MARK
        finally:
            notebook.cells.pop()

    try:
        start()
    except Exception as error:  # noqa: BLE001 - any failure to start is reported, not raised
        _emit({"kernel": "failed", "reason": f"{type(error).__name__}: {error}"[:300]})
        return 1
    done: list[int] = []
    try:
        for index, cell in enumerate(notebook.cells):
            number = cell.metadata.get("irlab_cell", index)
            reply = run(index, cell_seconds)
            line = {"cell": number, "status": "ok"}
            if reply.get("ename") == TIMEOUT_MARK or reply.get("ename") == "DeadKernelError":
                line["status"] = "timeout" if reply.get("ename") == TIMEOUT_MARK else "died"
                line["error"] = f"{reply.get('ename')}: {reply.get('evalue')}"
                if reply.get("ename") == "DeadKernelError" or not answers():
                    line["status"] = "restarted" if line["status"] == "timeout" else "died"
                    client._cleanup_kernel()
                    start()
                    for earlier in done:  # the new kernel knows nothing yet: what had run runs again
                        run(earlier, cell_seconds)
            elif reply.get("status") == "error":
                line = {**line, "status": "error", "error": f"{reply.get('ename')}: {reply.get('evalue')}"[:300]}
            else:
                done.append(index)
            _emit(line)
    finally:
        client._cleanup_kernel()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
