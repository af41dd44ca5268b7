"""The code a grading box runs, as the grader holds it: read once, checked against the digests IR Lab ships.

A box runs three of IR Lab's scripts: :mod:`irlab.exercises.grading.box_init` (its first process),
:mod:`irlab.exercises.grading.grade_worker` (the notebook run) and :mod:`irlab.exercises.grading.call_worker` (the calls
whose values are graded). A submission's code runs as a user who may be able to write the installed
files (without a file system of its own, the box's user is the grader's user), and a changed
``call_worker.py`` would decide every later grade. So the grader never runs these files from disk:

* each script's text is read once, before any submission's code runs, and its SHA-256 compared with
  :data:`SHIPPED`, the digests of this version of IR Lab (a file changed since, by anyone, is refused
  with :class:`GradingCodeChanged`, naming the file: grading does not start);
* every box gets the checked text from the grader's memory (``python -I -S -c SOURCE``), never the path,
  so a file rewritten by one submission changes nothing for the next one;
* the grader never imports them (an import runs a file's code in the grader): what it uses of them it
  takes from the checked text (:func:`worker_namespace`).

When one of the scripts is edited on purpose, :data:`SHIPPED` is updated with
``python -m irlab.exercises.grading.box_code`` (it prints the new table; ``tests/exercises/test_grading_box_code.py``
fails until it matches).
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

from irlab.errors import ValidationError

WORKERS = ("box_init.py", "call_worker.py", "grade_worker.py")
SHIPPED = {
    "box_init.py": "f6034ad2df4b9411778c485bbf076669fa098e04160b8f47f9f426efa296d30b",
    "call_worker.py": "192d5e7edf191d01fa4107c0551efc6b1d37046da48ea0edc25253a85a30e97d",
    "grade_worker.py": "9b64ba062150558141aaedfebab83812df4ad8a7a39c5cfa620059d4ab9ac513",
}
"""The SHA-256 of each script as this version of IR Lab ships it."""
_FOLDER = Path(__file__).resolve().parent


class GradingCodeChanged(ValidationError):
    """One of the scripts a box runs is not the one this version of IR Lab ships."""


def digest(text: str) -> str:
    """The SHA-256 of a script's text (UTF-8), in hex.

    >>> digest("")[:12]
    'e3b0c44298fc'
    """
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@functools.cache
def worker_source(name: str) -> str:
    """The checked text of one of :data:`WORKERS` (read once per process, then held in memory)."""
    if name not in WORKERS:
        raise ValueError(f"not a box script: {name!r}")
    path = _FOLDER / name
    try:
        text = path.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise GradingCodeChanged(f"cannot read IR Lab's grading script {path}: {error}") from None
    if digest(text) != SHIPPED[name]:
        raise GradingCodeChanged(
            f"IR Lab's grading script {path} has changed since this version was installed (its SHA-256 is "
            f"{digest(text)[:16]}..., not {SHIPPED[name][:16]}...): a submission graded without a file system of "
            "its own may have rewritten it. Reinstall IR Lab (pip install --force-reinstall irlab) before grading.")
    return text


@functools.cache
def worker_namespace(name: str) -> dict:
    """The names one of :data:`WORKERS` defines, from its checked text (not imported: never the file on disk).

    The grader uses a few of call_worker.py's pure functions (``ipython_free``) from the same text the
    boxes run; its ``__name__`` is not ``"__main__"``, so defining runs no worker.
    """
    namespace: dict = {"__name__": f"irlab_box_{name[:-3]}"}
    exec(compile(worker_source(name), str(_FOLDER / name), "exec"), namespace)  # the checked text: IR Lab's own
    return namespace


def check_workers() -> None:
    """Read and check every box script now (GradingCodeChanged names the first that changed)."""
    for name in WORKERS:
        worker_source(name)


def shipped_table() -> str:
    """The :data:`SHIPPED` table for the scripts as they are on disk now (for a developer who changed one)."""
    lines = ["SHIPPED = {"]
    lines += [f'    "{name}": "{digest((_FOLDER / name).read_bytes().decode("utf-8"))}",' for name in WORKERS]
    return "\n".join(lines + ["}"])


if __name__ == "__main__":
    print(shipped_table())
