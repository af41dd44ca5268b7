"""Reading trec_eval's text formats: qrels and run (results) files.

* qrels: ``query_id iteration doc_id grade`` per line;
* run: ``query_id Q0 doc_id rank score tag`` per line (the rank column is ignored: trec_eval
  ranks by score, ties by doc id descending); anything after the tag is ignored, as trec_eval
  does. Unlike trec_eval (which reads a bad score as 0), a score that is not a number is an error.

Fields are separated by white space; blank lines and lines starting with ``#`` are skipped.
A malformed line raises :class:`irlab.errors.ValidationError` naming the line number.

>>> read_qrels_text("q1 0 d1 1\\n# a comment\\nq1 0 d2 0\\n")
{'q1': {'d1': 1, 'd2': 0}}
>>> read_run_text("q1 Q0 d1 1 0.5 sys\\nq1 Q0 d2 2 0.75 sys\\n")
{'q1': {'d1': 0.5, 'd2': 0.75}}
>>> read_qrels_text("q1 0 d1 one\\n")
Traceback (most recent call last):
...
irlab.errors.ValidationError: line 1: the grade must be a whole number, got 'one'
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path

from irlab.errors import ValidationError


def _fields(text: str, count: int, what: str, *, extra_allowed: bool) -> Iterator[tuple[int, list[str]]]:
    """Numbered lines split into ``count`` fields (comments and blank lines skipped)."""
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        fields = stripped.split()
        if len(fields) < count or (len(fields) > count and not extra_allowed):
            raise ValidationError(f"a {what} line has {count} fields, this one has {len(fields)}", path=f"line {number}")
        yield number, fields[:count]


def read_qrels_text(text: str) -> dict[str, dict[str, int]]:
    """Parse qrels text into ``{query_id: {doc_id: grade}}``; a doc judged twice is an error."""
    qrels: dict[str, dict[str, int]] = {}
    for number, (query, _iteration, doc, grade) in _fields(text, 4, "qrels", extra_allowed=False):
        try:
            value = int(grade)
        except ValueError:
            raise ValidationError(f"the grade must be a whole number, got {grade!r}", path=f"line {number}") from None
        docs = qrels.setdefault(query, {})
        if doc in docs:
            raise ValidationError(f"document {doc!r} is judged twice for query {query!r}", path=f"line {number}")
        docs[doc] = value
    return qrels


def read_run_text(text: str) -> dict[str, dict[str, float]]:
    """Parse run text into ``{query_id: {doc_id: score}}``; a doc listed twice is an error."""
    run: dict[str, dict[str, float]] = {}
    for number, (query, _q0, doc, _rank, score, _tag) in _fields(text, 6, "run", extra_allowed=True):
        try:
            value = float(score)
        except ValueError:
            value = math.nan
        if math.isnan(value):
            raise ValidationError(f"the score must be a number, got {score!r}", path=f"line {number}")
        docs = run.setdefault(query, {})
        if doc in docs:
            raise ValidationError(f"document {doc!r} appears twice for query {query!r}", path=f"line {number}")
        docs[doc] = value
    return run


def read_qrels(path: str | Path) -> dict[str, dict[str, int]]:
    """Read a qrels file (see :func:`read_qrels_text`)."""
    return read_qrels_text(Path(path).read_text(encoding="utf-8"))


def read_run(path: str | Path) -> dict[str, dict[str, float]]:
    """Read a run file (see :func:`read_run_text`)."""
    return read_run_text(Path(path).read_text(encoding="utf-8"))
