"""The exercises shipped with IR Lab, and how the command line and the app name them.

``cats-in-boxes`` is the walkthrough as an exercise (eight pictures, four queries, the
walkthrough's numbers as questions); ``ndcg-exercise`` is the NDCG notebook of the sources
(ten documents, three queries, the original Järvelin–Kekäläinen DCG). Both live as JSON files
in ``irlab/exercises/format/examples/`` and load through the same validation as any other file.

>>> BUILTIN_NAMES
('cats-in-boxes', 'ndcg-exercise')
>>> builtin_exercise("ndcg-exercise").title
'NDCG calculation'
>>> load_exercise_source("builtin:cats-in-boxes").items[0].label
'White cat'
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

from irlab.errors import ValidationError
from irlab.exercises.format.exercise_file import parse_exercise, read_exercise
from irlab.exercises.model import Exercise

BUILTIN_NAMES = ("cats-in-boxes", "ndcg-exercise")
"""The names of the shipped example exercises."""

BUILTIN_PREFIX = "builtin:"
"""A source starting with this names a shipped example (``builtin:ndcg-exercise``)."""


def builtin_text(name: str) -> str:
    """The JSON text of a shipped example."""
    if name not in BUILTIN_NAMES:
        raise ValidationError(f"unknown built-in exercise {name!r}; the built-in exercises are: "
                              + ", ".join(BUILTIN_NAMES))
    return (resources.files("irlab.exercises.format") / "examples" / f"{name}.json").read_text(encoding="utf-8")


@cache
def builtin_exercise(name: str) -> Exercise:
    """A shipped example, validated (cached: exercises are immutable)."""
    return parse_exercise(builtin_text(name))


def load_exercise_source(source: str) -> Exercise:
    """An exercise from ``builtin:NAME`` or a file path."""
    if source.startswith(BUILTIN_PREFIX):
        return builtin_exercise(source[len(BUILTIN_PREFIX):])
    return read_exercise(source)


def source_stem(source: str) -> str:
    """A short name for output files: the built-in name or the file's stem.

    >>> source_stem("builtin:ndcg-exercise"), source_stem("course/week3.json")
    ('ndcg-exercise', 'week3')
    """
    if source.startswith(BUILTIN_PREFIX):
        return source[len(BUILTIN_PREFIX):]
    return Path(source).stem or "exercise"
