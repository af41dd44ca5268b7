"""Calls a student's functions on IR Lab's data, in a clean interpreter, one question per process.

    python -I -S -c SOURCE < REQUEST_JSON

Started by :mod:`irlab.exercises.grading.grader` inside a box (:mod:`irlab.exercises.grading.sandbox`), after
every process of the notebook run has ended, with this file's text as the grader holds it
(:mod:`irlab.exercises.grading.box_code`: a copy changed on disk is never run). It imports only the standard
library, and without ``site`` (``-S``): the package folders the grader names (``path``) are put on
``sys.path`` as they are, so no ``.pth`` file in them runs code before this one. The request holds:

* ``preamble``: IR Lab's own setup code and data (``import math``, ``TOLERANCE``, ``items``,
  ``system_rankings``, ``ground_truth``), never the student's copy of them;
* ``cells``: the student's cells (their number in the notebook and their source) that did not
  time out in the notebook run;
* ``questions``: for each question its id, the function's name and the arguments of each call,
  as a Python literal (document ids may be ints, which JSON keys cannot be);
* ``seconds``: the time one question may take; ``path``: the package folders.

This process (the *driver*) never runs the student's code. It makes itself non-dumpable (no
process of the same user can read its memory or open its file descriptors through ``/proc``) and a
child subreaper, then forks one child per question. A child points its standard output at
``/dev/null``, runs the preamble and the *definitions* of each cell (imports, functions, classes
and assignments, each top-level statement on its own: a call such as ``print(...)`` or a loop at
the top level is left out, and an error stops only its statement), calls the function on each of
the question's calls with fresh copies of the data, and writes one result to a pipe only it and
the driver hold. The driver waits at most ``seconds`` (then kills it: also a loop in C code that
ignores signals), kills whatever the child left running, and prints one JSON line:

* first ``{"cells": [{"number", "error", "line", "name"}...], "problem": CODE}``: the first error of each cell
  (a SyntaxError, or what a definition raised);
* then per question ``{"question": ID, "value": X}``, or what went wrong: ``"error"`` (an exception:
  ``{"type", "builtin", "cell", "line", "name"}``), ``"returned"`` (the type of a value that is not a
  number, or ``nan``/``inf``), ``"timeout"``, ``"crashed"`` or ``"missing"``.

Nothing here is text of the student's choosing: an exception is said by its type, where it was
raised and, for a name, module or attribute that was not found, that name; never its message (which
the student's code chooses, and could fill with a file it read). The grader checks each field again
and says what went wrong in its own words (:mod:`irlab.exercises.grading.error_words`).

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


def _where(error: BaseException) -> tuple[int | None, int | None]:
    """The cell and line of the innermost frame of the student's code, or ``(None, None)``."""
    frames = [frame for frame in traceback.extract_tb(error.__traceback__) if frame.filename.startswith("<cell ")]
    if not frames:
        return None, None
    try:
        return int(frames[-1].filename[6:-1]), frames[-1].lineno
    except ValueError:
        return None, None


def describe_error(error: BaseException) -> dict:
    """An exception as fields, never its message: its type's name, whether it is Python's own, where, and the
    name Python could not find (NameError, ImportError, AttributeError).

    >>> describe_error(NameError("name 'x' is not defined", name="x"))
    {'type': 'NameError', 'builtin': True, 'cell': None, 'line': None, 'name': 'x'}
    """
    kind = type(error)
    builtin = getattr(builtins, kind.__name__, None) is kind
    name = getattr(error, "name", None)
    cell, line = _where(error)
    return {"type": kind.__name__[:100] if builtin else "", "builtin": builtin, "cell": cell, "line": line,
            "name": name[:100] if isinstance(name, str) else None}


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
            errors.append({"number": cell["number"], "error": type(error).__name__, "builtin": True,
                           "line": line if isinstance(line, int) else None, "name": None})
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
                    described = describe_error(error)
                    first = {"number": cell["number"], "error": described["type"], "builtin": described["builtin"],
                             "line": lines[-1] if lines else statement.lineno, "name": described["name"]}
        if first is not None:
            errors.append(first)
    return namespace, errors


def _child(request: dict, question: dict | None, write_fd: int) -> None:
    """In the forked child: define, then call (or, without a question, report the definitions)."""
    write, dumps, number, total, length = os.write, json.dumps, float, sum, len  # before any student code runs
    isfinite, deepcopy, describe, kind = math.isfinite, copy.deepcopy, describe_error, type
    builtin_names = {name for name, value in vars(builtins).items() if isinstance(value, type)}
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
                except BaseException as error:  # noqa: BLE001 - the student's code: anything may happen
                    result = {"error": describe(error)}
                else:
                    try:
                        value = number(total(values) / length(values))
                    except BaseException:  # noqa: BLE001 - not numbers (None, a string, an object of its own)
                        name = kind(values[0]).__name__ if values else ""
                        result = {"returned": name if name in builtin_names else "object"}
                    else:
                        result = {"value": value} if isfinite(value) else {"returned": str(value)}
        payload = dumps(result).encode()
    except BaseException:  # noqa: BLE001 - e.g. a definition that replaced str: no value
        payload = b'{"crashed": true}'
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
        return {"timeout": True}
    try:
        result = json.loads(data[:MAX_RESULT].decode("utf-8", errors="replace"))
    except ValueError:
        result = None
    if not isinstance(result, dict):
        return {"crashed": True}  # os._exit, a crash, or out of memory
    return result


_FIELDS = ("value", "error", "returned", "timeout", "crashed", "missing")


def main() -> int:
    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    libc.prctl(_PR_SET_DUMPABLE, ctypes.c_ulong(0), 0, 0, 0)
    libc.prctl(_PR_SET_CHILD_SUBREAPER, ctypes.c_ulong(1), 0, 0, 0)
    request = json.loads(sys.stdin.buffer.read())
    sys.stdin.close()
    sys.path.extend(path for path in request.get("path", []) if isinstance(path, str))  # no site: no .pth runs
    out = sys.stdout
    seconds = float(request["seconds"])
    definitions = run_one(request, None, seconds)
    cells = definitions.get("cells") if isinstance(definitions.get("cells"), list) else []
    problem = next((field for field in ("timeout", "crashed") if definitions.get(field)), "")
    out.write(json.dumps({"cells": cells, "problem": problem}) + "\n")
    out.flush()
    for question in request["questions"]:
        result = run_one(request, question, seconds)
        line = {"question": question["id"]}
        field = next((name for name in _FIELDS if name in result), "crashed")
        line[field] = result.get(field, True)
        out.write(json.dumps(line) + "\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
