"""Calls a student's functions on IR Lab's data, in a clean interpreter, one question per process.

    python -I call_worker.py < REQUEST_JSON

Started by :mod:`irlab.exercises.grading` inside a box (:mod:`irlab.exercises.sandbox`), after
every process of the notebook run has ended; run as a script with the standard library only (it
imports nothing from irlab and nothing the submission could have changed). The request holds:

* ``preamble``: IR Lab's own setup code and data (``import math``, ``TOLERANCE``, ``items``,
  ``system_rankings``, ``ground_truth``), never the student's copy of them;
* ``cells``: the student's cells (their number in the notebook and their source) that did not
  time out in the notebook run;
* ``questions``: for each question its id, the function's name and the arguments of each call,
  as a Python literal (document ids may be ints, which JSON keys cannot be);
* ``seconds``: the time one question may take.

This process (the *driver*) never runs the student's code. It makes itself non-dumpable (no
process of the same user can read its memory or open its file descriptors through ``/proc``) and a
child subreaper, then forks one child per question. A child points its standard output at
``/dev/null``, runs the preamble and the *definitions* of each cell (imports, functions, classes
and assignments, each top-level statement on its own: a call such as ``print(...)`` or a loop at
the top level is left out, and an error stops only its statement), calls the function on each of
the question's calls with fresh copies of the data, and writes one result to a pipe only it and
the driver hold. The driver waits at most ``seconds`` (then kills it: also a loop in C code that
ignores signals), kills whatever the child left running, and prints one JSON line:

* first ``{"cells": [{"number", "error", "message", "line"}...]}``: the first error of each cell
  (a SyntaxError, or what a definition raised);
* then per question ``{"question": ID, "value": X}`` or ``{"question": ID, "error": TEXT}``.

A child can only ever say something about its own question, and what it says is its function's
value as far as grading is concerned: code that makes the child report a value of its choice is
no different from a function that returns that value.
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import copy
import ctypes
import ctypes.util
import json
import math
import os
import select
import signal
import sys
import time
import traceback

_PR_SET_DUMPABLE = 4
_PR_SET_CHILD_SUBREAPER = 36
_KEPT = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Assign, ast.AnnAssign,
         ast.AugAssign, ast.If, ast.Try)
"""Top-level statements that define something (kept); every other statement only does something (left out)."""
MAX_RESULT = 4096


def ipython_free(source: str) -> str:
    """The cell without IPython syntax: each ``%magic`` or ``!shell`` line becomes ``pass`` (line numbers stay).

    >>> print(ipython_free("%matplotlib inline\\nx = 1\\n  !ls"))
    pass
    x = 1
      pass
    """
    lines = []
    for line in source.split("\n"):
        stripped = line.lstrip()
        lines.append(line[:len(line) - len(stripped)] + "pass" if stripped.startswith(("%", "!")) else line)
    return "\n".join(lines)


def _where(error: BaseException) -> str:
    """`` (cell N, line L)`` for the innermost frame of the student's code, or ``""``."""
    frames = [frame for frame in traceback.extract_tb(error.__traceback__) if frame.filename.startswith("<cell ")]
    if not frames:
        return ""
    return f" ({frames[-1].filename[1:-1]}, line {frames[-1].lineno})"


def define(preamble: str, cells: list[dict]) -> tuple[dict, list[dict]]:
    """Run the preamble and the definitions of each cell; the namespace and each cell's first error."""
    namespace: dict = {"__name__": "__main__", "__builtins__": builtins}
    exec(compile(preamble, "<irlab>", "exec"), namespace)  # IR Lab's own code
    errors = []
    for cell in cells:
        label = f"<cell {cell['number']}>"
        if cell["source"].lstrip().startswith("%%"):
            continue  # a cell magic (%%timeit, %%ipytest...): not Python
        try:
            tree = compile(ipython_free(cell["source"]), label, "exec", ast.PyCF_ONLY_AST)
        except (SyntaxError, ValueError, RecursionError, MemoryError) as error:  # not Python, or too deep
            line = getattr(error, "lineno", None)
            errors.append({"number": cell["number"], "error": type(error).__name__,
                           "message": str(getattr(error, "msg", error))[:300], "line": line})
            continue
        first = None
        for statement in tree.body:
            if not isinstance(statement, _KEPT):
                continue
            try:
                exec(compile(ast.Module(body=[statement], type_ignores=[]), label, "exec"), namespace)
            except BaseException as error:  # noqa: BLE001 - the student's code: anything may happen
                if first is None:
                    lines = [f.lineno for f in traceback.extract_tb(error.__traceback__) if f.filename == label]
                    first = {"number": cell["number"], "error": type(error).__name__,
                             "message": str(error)[:300], "line": lines[-1] if lines else statement.lineno}
        if first is not None:
            errors.append(first)
    return namespace, errors


def _child(request: dict, question: dict | None, write_fd: int) -> None:
    """In the forked child: define, then call (or, without a question, report the definitions)."""
    write, dumps, number, total, length = os.write, json.dumps, float, sum, len  # before any student code runs
    isfinite, deepcopy = math.isfinite, copy.deepcopy
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    try:
        namespace, errors = define(request["preamble"], request["cells"])
        if question is None:
            result = {"cells": errors}
        else:
            function = namespace.get(question["function"])
            if not callable(function):
                result = {"missing": True}
            else:
                try:
                    calls = ast.literal_eval(question["calls"])
                    values = [function(*deepcopy(arguments)) for arguments in calls]
                    value = number(total(values) / length(values))
                    result = {"value": value} if isfinite(value) else {"error": f"the function returned {value}"}
                except BaseException as error:  # noqa: BLE001 - the student's code: anything may happen
                    result = {"error": (type(error).__name__ + ": " + str(error))[:300] + _where(error)}
        payload = dumps(result).encode()
    except BaseException as error:  # noqa: BLE001 - e.g. a definition that replaced str: one line, no value
        payload = ('{"error": "' + type(error).__name__ + ' while reporting"}').encode()
    write(write_fd, payload[:MAX_RESULT])
    os._exit(0)


def _children() -> list[int]:
    me, found = os.getpid(), []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat", "rb") as handle:
                    stat = handle.read()
            except OSError:
                continue
            fields = stat[stat.rfind(b")") + 2:].split()
            if len(fields) > 1 and int(fields[1]) == me:
                found.append(int(name))
    return found


def _end_children() -> None:
    """Kill and reap every child (as a subreaper, that is every process a question's child left)."""
    for _ in range(1000):
        children = _children()
        if not children:
            return
        for pid in children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        for pid in children:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)


def _complete(data: bytes) -> bool:
    """Whether ``data`` is a whole result (the child writes it in one piece, then exits)."""
    try:
        return isinstance(json.loads(data), dict)
    except ValueError:
        return False


def run_one(request: dict, question: dict | None, seconds: float) -> dict:
    """Fork a child for one question (or the definitions), wait at most ``seconds``, end it and all it started.

    The result is what the child wrote before it exited (a process it started may hold the pipe
    open: it is not waited for).
    """
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_fd)
        _child(request, question, write_fd)
    os.close(write_fd)
    os.set_blocking(read_fd, False)
    data, deadline, exited = b"", time.monotonic() + seconds, False
    while len(data) <= MAX_RESULT and not exited and time.monotonic() < deadline:
        ready, _, _ = select.select([read_fd], [], [], min(0.05, max(0.0, deadline - time.monotonic())))
        exited = os.waitpid(pid, os.WNOHANG)[0] == pid
        if ready or exited:
            try:
                chunk = os.read(read_fd, 65536)
            except BlockingIOError:
                chunk = None
            if chunk == b"" or (chunk and _complete(data + chunk)):
                data += chunk or b""
                break
            data += chunk or b""
    os.close(read_fd)
    timed_out = not exited and time.monotonic() >= deadline
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    _end_children()
    if timed_out and not data:
        return {"error": f"TimeoutError: took longer than {seconds:g} s"}
    try:
        result = json.loads(data[:MAX_RESULT].decode("utf-8", errors="replace"))
    except ValueError:
        result = None
    if not isinstance(result, dict):
        return {"error": "its process ended without a result (os._exit, a crash, or out of memory)"}
    return result


def main() -> int:
    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    libc.prctl(_PR_SET_DUMPABLE, ctypes.c_ulong(0), 0, 0, 0)
    libc.prctl(_PR_SET_CHILD_SUBREAPER, ctypes.c_ulong(1), 0, 0, 0)
    request = json.loads(sys.stdin.buffer.read())
    sys.stdin.close()
    out = sys.stdout
    seconds = float(request["seconds"])
    definitions = run_one(request, None, seconds)
    cells = definitions.get("cells") if isinstance(definitions.get("cells"), list) else []
    out.write(json.dumps({"cells": cells, "problem": definitions.get("error", "")}) + "\n")
    out.flush()
    for question in request["questions"]:
        result = run_one(request, question, seconds)
        line = {"question": question["id"]}
        value = result.get("value")
        if result.get("missing"):
            line["missing"] = True
        elif isinstance(value, float) and math.isfinite(value):
            line["value"] = value
        else:
            line["error"] = str(result.get("error", "no value"))[:400]
        out.write(json.dumps(line) + "\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
