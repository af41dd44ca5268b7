"""What went wrong in a submission's code, in IR Lab's own words: never text the submission chose.

The box reports an exception as fields (:func:`irlab.exercises.grading.call_worker.describe_error`): the type's
name when it is one of Python's own, the cell and line, and the name Python could not find. Everything
a box says is untrusted, so each field is checked here again, against what the grader knows itself:

* the type is named only when it is one of Python's built-in exceptions; an exception class of the
  submission's own (whose name it can choose, e.g. to carry a file's content) is "an exception of the
  submission's own class";
* the cell must be one of the submission's cells, and the line one of that cell's lines;
* a name (``name 'numpyy' is not defined``, ``No module named 'numpyy'``) is said only when it is an
  identifier written in that cell's own source: a name made at run time (from a file it read) is not;
* the exception's message is never used: the words are IR Lab's (:data:`WORDS`), a short hint per type.

A SyntaxError is found by the grader itself (:func:`syntax_problem`: it compiles the cell, which runs
nothing) and said with the compiler's message, which is about the cell's own source text.

>>> cells = {13: "import numpyy\\nx = numpyy.log2(3)\\n"}
>>> exception_words({"type": "ModuleNotFoundError", "builtin": True, "cell": 13, "line": 1, "name": "numpyy"}, cells)
"ModuleNotFoundError: No module named 'numpyy' (cell 13, line 1)"
>>> exception_words({"type": "", "builtin": False, "cell": 13, "line": 2, "name": None}, cells)
"an exception of the submission's own class (cell 13, line 2)"
>>> exception_words({"type": "ValueError", "builtin": True, "cell": 13, "line": 99, "name": None}, cells)
'ValueError: a value the operation cannot take (cell 13)'
"""

from __future__ import annotations

import builtins
import re
from collections.abc import Mapping

from irlab.exercises.grading.box_code import worker_namespace
from irlab.exercises.grading.printable import printable

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,79}(\.[A-Za-z_][A-Za-z0-9_]{0,79}){0,5}")
WORDS = {
    "NotImplementedError": "the function is not written yet (it raises NotImplementedError)",
    "ZeroDivisionError": "a division by zero",
    "KeyError": "a key that is not in the dictionary",
    "IndexError": "an index outside the list",
    "TypeError": "a value of the wrong type, or a call with the wrong arguments",
    "ValueError": "a value the operation cannot take",
    "RecursionError": "the function called itself too deeply",
    "MemoryError": "out of memory",
    "AssertionError": "an assert failed",
    "FileNotFoundError": "a file that is not there (the grader runs your code in a folder of its own)",
    "PermissionError": "not allowed (the grader runs your code in a box of its own)",
    "OSError": "the operating system refused",
    "OverflowError": "a number too large",
    "UnboundLocalError": "a local variable used before it was given a value",
    "StopIteration": "an iterator with nothing left",
    "KeyboardInterrupt": "interrupted",
    "SystemExit": "the code called exit()",
}
"""A short hint per exception type (the type alone for the others)."""
_NAMED = {"NameError": "name '{}' is not defined", "UnboundLocalError": "name '{}' used before it was given a value",
          "ModuleNotFoundError": "No module named '{}'", "ImportError": "cannot import '{}'",
          "AttributeError": "no attribute '{}'"}


def builtin_exception(name: object) -> str | None:
    """``name`` when it names one of Python's built-in exceptions, else None.

    >>> builtin_exception("ZeroDivisionError"), builtin_exception("print"), builtin_exception("Leak_secret")
    ('ZeroDivisionError', None, None)
    """
    if not isinstance(name, str) or not name.isidentifier():
        return None
    found = getattr(builtins, name, None)
    return name if isinstance(found, type) and issubclass(found, BaseException) else None


def _place(cell: object, line: object, cells: Mapping[int, str]) -> str:
    """`` (cell N, line L)`` when both are the submission's, `` (cell N)`` when only the cell is, else ``""``."""
    if isinstance(cell, bool) or not isinstance(cell, int) or cell not in cells:
        return ""
    lines = cells[cell].count("\n") + 1
    if isinstance(line, int) and not isinstance(line, bool) and 1 <= line <= lines:
        return f" (cell {cell}, line {line})"
    return f" (cell {cell})"


def _written_in(name: object, source: str) -> str | None:
    """``name`` when it is an identifier (or a dotted module name) that the cell's source spells out."""
    if not isinstance(name, str) or not _IDENTIFIER.fullmatch(name):
        return None
    return name if re.search(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", source) else None


def exception_words(error: object, cells: Mapping[int, str]) -> str:
    """An exception the box reported (see the module text), as IR Lab says it."""
    if not isinstance(error, Mapping):
        return "an error the grader could not read"
    kind = builtin_exception(error.get("type")) if error.get("builtin") is True else None
    place = _place(error.get("cell"), error.get("line"), cells)
    if kind is None:
        return f"an exception of the submission's own class{place}"
    cell = error.get("cell")
    name = _written_in(error.get("name"), cells.get(cell, "") if isinstance(cell, int) else "")
    if kind in _NAMED and name is not None:
        return f"{kind}: {_NAMED[kind].format(name)}{place}"
    hint = WORDS.get(kind) or next((words for base, words in WORDS.items() if _subclass(kind, base)), "")
    return f"{kind}: {hint}{place}" if hint else f"{kind}{place}"


def _subclass(kind: str, base: str) -> bool:
    return issubclass(getattr(builtins, kind), getattr(builtins, base))


def returned_words(returned: object) -> str:
    """A function's value that is not a number (its type, or nan / inf), as IR Lab says it.

    >>> returned_words("NoneType"), returned_words("nan"), returned_words("Leak")
    ('the function returned None, not a number (is a return missing?)', 'the function returned nan', \
'the function returned something that is not a number')
    """
    if returned == "NoneType":
        return "the function returned None, not a number (is a return missing?)"
    if returned in ("nan", "inf", "-inf"):
        return f"the function returned {returned}"
    if isinstance(returned, str) and isinstance(getattr(builtins, returned, None), type) and returned != "object":
        return f"the function returned a {returned}, not a number"
    return "the function returned something that is not a number"


def syntax_problem(number: int, source: str) -> str | None:
    """The cell's SyntaxError as the compiler says it (``SyntaxError in cell 13, line 3: '(' was never closed``),
    or None when it compiles. Found by the grader: compiling runs nothing of the cell.

    >>> syntax_problem(13, "def f(:\\n    pass")
    'SyntaxError in cell 13, line 1: invalid syntax'
    >>> syntax_problem(13, "%matplotlib inline\\nx = 1") is None
    True
    """
    if source.lstrip().startswith("%%"):
        return None  # a cell magic: not Python, left out by the evaluation too
    try:
        ipython_free = worker_namespace("call_worker.py")["ipython_free"]  # the evaluation's own reading of a cell
        compile(ipython_free(source), f"<cell {number}>", "exec", flags=0x400, dont_inherit=True)  # PyCF_ONLY_AST
    except SyntaxError as error:
        line = f", line {error.lineno}" if isinstance(error.lineno, int) else ""
        return printable(f"{type(error).__name__} in cell {number}{line}: {error.msg}", 200)
    except (ValueError, RecursionError, MemoryError) as error:
        return f"{type(error).__name__} in cell {number}: the cell cannot be read as Python"
    return None


def definition_words(error: object, cells: Mapping[int, str]) -> str | None:
    """What a cell's definitions raised (``NameError in cell 13, line 1: name 'cache' is not defined``), or None
    when the report names no cell of the submission.

    >>> definition_words({"number": 13, "error": "NameError", "builtin": True, "line": 1, "name": "cache"},
    ...                  {13: "@cache\\ndef f(): pass"})
    "NameError in cell 13, line 1: name 'cache' is not defined"
    """
    if not isinstance(error, Mapping):
        return None
    number = error.get("number")
    if isinstance(number, bool) or not isinstance(number, int) or number not in cells:
        return None
    said = exception_words({"type": error.get("error"), "builtin": error.get("builtin"), "cell": number,
                            "line": error.get("line"), "name": error.get("name")}, cells)
    place = _place(number, error.get("line"), cells)
    kind, _, hint = said.removesuffix(place).partition(": ")
    where = place.strip()[1:-1]  # "cell 13, line 1"
    return f"{kind} in {where}: {hint}" if hint else f"{kind} in {where}"
