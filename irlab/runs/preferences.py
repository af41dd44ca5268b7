"""trec_eval's preference files (``-R prefs``, ``-R qrels_prefs``), read and joined with a run.

* ``prefs``: ``query group subgroup doc level`` per line: a judgment group (one user's view), a
  sub-group within it, and the document's level (a number >= 0; 0 is not relevant). Within a
  sub-group, a higher level is preferred to a lower one (:mod:`irlab.data.preferences`).
* ``qrels_prefs``: a qrels file read as preferences, ``query group doc level``: each group (the
  qrels' second column, usually one per query) is one sub-group, its grades the levels.

As with qrels and runs (:mod:`irlab.runs.trec`), blank lines and ``#`` comment lines are skipped, a
file may be gzip-compressed, and every problem names the file and line: a missing or extra field,
a level that is not a number >= 0, a document twice in one sub-group (trec_eval reads a bad level
as 0 and double-counts a repeated document).

:func:`judge_preferences` ranks each judged query's documents as trec_eval does for preferences
(score descending, equal scores by document id **ascending**, then ``-M``) and hands them to the
preference kernels (:class:`~irlab.data.preferences.PreferenceRankings`). ``-J`` and ``-l`` do not
apply to preferences (trec_eval ignores them too).

>>> table = parse_preferences(b"q1 u1 s1 d1 2\\nq1 u1 s1 d2 0\\nq2 u1 s1 d3 1\\n", "prefs.txt")
>>> table.query_ids, table.judgments("q1").docs
(('q1', 'q2'), ('d1', 'd2'))
>>> parse_preferences(b"q1 u1 d1 2\\n", "prefs.txt")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
irlab.errors.ValidationError: prefs.txt:1: a prefs line has 5 fields (query group subgroup doc level), this one has 4...
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np

from irlab.data.preferences import Judgments, PreferenceRankings
from irlab.errors import ValidationError
from irlab.runs.arrow import as_arrow
from irlab.runs.judge import check_depth
from irlab.runs.trec import MAX_FILE_BYTES, RunTable, _check_text, _fast_table, _lines, _where, read_bytes

FORMATS = {"prefs": "query group subgroup doc level", "qrels_prefs": "query group doc level"}
"""The preference formats trec_eval reads (``-R``), and their fields."""


@dataclass(frozen=True)
class PreferenceTable:
    """A preference file: each query's :class:`~irlab.data.preferences.Judgments`, queries in trec_eval's order."""

    name: str
    by_query: dict[str, Judgments]

    @cached_property
    def query_ids(self) -> tuple[str, ...]:
        """The judged queries, in byte order (trec_eval's)."""
        return tuple(sorted(self.by_query, key=str.encode))

    @cached_property
    def index(self) -> dict[str, int]:
        """Query id -> its position in :attr:`query_ids`."""
        return {query: q for q, query in enumerate(self.query_ids)}

    def judgments(self, query: str) -> Judgments:
        """One query's preference lines."""
        return self.by_query[query]

    def __len__(self) -> int:
        return sum(len(j) for j in self.by_query.values())


def parse_preferences(data: bytes, name: str | None = "prefs", *, qrels: bool = False) -> PreferenceTable:
    """A ``prefs`` file's bytes (``qrels=True``: a ``qrels_prefs`` file's) as a :class:`PreferenceTable`."""
    kind = "qrels_prefs" if qrels else "prefs"
    _check_text(data, name, kind)
    fields = ["query", "group", "doc", "level"] if qrels else ["query", "group", "subgroup", "doc", "level"]
    table = _fast_table(data, fields, {"level": _float64(), "group": _string(), "subgroup": _string()})
    if table is not None and not np.isnan(levels := _numbers(table["level"])).any() and (levels >= 0).all():
        queries, docs = table["query"].to_pylist(), table["doc"].to_pylist()
        groups = table["group"].to_pylist()
        subgroups = table["subgroup"].to_pylist() if not qrels else ["0"] * len(docs)
        lines = np.arange(1, len(docs) + 1)
    else:
        queries, groups, subgroups, docs, levels, lines = _slow(data, name, kind, len(fields))
    if not len(docs):
        raise ValidationError(f"the file has no {kind} lines ({FORMATS[kind]})", path=name)
    rows: dict[str, list] = {}
    seen: dict[tuple, int] = {}
    for query, group, sub, doc, level, line in zip(queries, groups, subgroups, docs, levels.tolist(), lines.tolist()):
        key = (query, group, sub, doc)
        if key in seen:
            within = f"sub-group {sub!r} of " if not qrels else ""
            raise ValidationError(f"document {doc!r} is judged twice in {within}judgment group {group!r} of query "
                                  f"{query!r} (lines {seen[key]} and {line})", path=_where(name, line))
        seen[key] = line
        rows.setdefault(query, []).append((group, sub, doc, level))
    return PreferenceTable(name, {query: Judgments.of(lines, query) for query, lines in rows.items()})


def read_preferences_file(path: str | Path, *, qrels: bool = False, limit: int = MAX_FILE_BYTES) -> PreferenceTable:
    """Read a ``prefs`` (or ``qrels_prefs``) file, plain or gzip."""
    return parse_preferences(read_bytes(path, limit=limit), str(path), qrels=qrels)


def _float64():
    import pyarrow as pa

    return pa.float64()


def _string():
    import pyarrow as pa

    return pa.string()


def _numbers(column) -> np.ndarray:
    from irlab.runs.arrow import as_numpy

    return as_numpy(column)


def _slow(data: bytes, name: str | None, kind: str, width: int) -> tuple:
    queries, groups, subgroups, docs, levels, lines = [], [], [], [], [], []
    for number, fields in _lines(data, name):
        if len(fields) != width:
            raise ValidationError(f"a {kind} line has {width} fields ({FORMATS[kind]}), this one has {len(fields)}"
                                  + (" (a qrels_prefs line has 4: use -R qrels_prefs)" if kind == "prefs" else
                                     " (a prefs line has 5: use -R prefs)"), path=_where(name, number))
        try:
            level = float(fields[-1])
        except ValueError:
            level = math.nan
        if math.isnan(level) or math.isinf(level) or level < 0:
            raise ValidationError(f"the level (last field) must be a number >= 0 (0: not relevant), got "
                                  f"{fields[-1]!r}", path=_where(name, number))
        queries.append(fields[0])
        groups.append(fields[1])
        subgroups.append(fields[2] if width == 5 else "0")
        docs.append(fields[-2])
        levels.append(level)
        lines.append(number)
    return queries, groups, subgroups, docs, np.array(levels, dtype=np.float64), np.array(lines, dtype=np.int64)


@dataclass(frozen=True)
class JudgedPreferences:
    """A run joined with preference judgments: the evaluated queries and the kernels' input."""

    queries: tuple[str, ...]
    rankings: PreferenceRankings


def preference_rows(run: RunTable) -> np.ndarray:
    """The run's rows in trec_eval's order for preferences: each block of equal scores of a query reversed.

    A :class:`~irlab.runs.trec.RunTable` ranks equal scores by document id descending (trec_eval's rule
    for qrels); reversing each block gives ascending ids, its rule for preferences (the same as
    :func:`irlab.data.preferences.preference_order`, for all queries at once).

    >>> from irlab.runs.trec import parse_run
    >>> run = parse_run(b"q Q0 b 1 1 r\\nq Q0 c 2 1 r\\nq Q0 a 3 2 r\\nq Q0 d 4 1 r\\n")
    >>> run.ranking("q"), [run.docs[i].as_py() for i in preference_rows(run)]
    (['a', 'd', 'c', 'b'], ['a', 'b', 'c', 'd'])
    """
    n = len(run.scores)
    if not n:
        return np.zeros(0, dtype=np.int64)
    rows = np.arange(n)
    new_block = np.ones(n, dtype=bool)
    new_block[1:] = run.scores[1:] != run.scores[:-1]
    new_block[run.offsets[:-1][run.offsets[:-1] < n]] = True  # a query starts a block
    starts = np.flatnonzero(new_block)
    ends = np.append(starts[1:], n)
    block = np.repeat(np.arange(len(starts)), ends - starts)
    return starts[block] + ends[block] - 1 - rows


def judge_preferences(table: PreferenceTable, run: RunTable, *, complete: bool = True, depth: int | None = None,
                      queries: Iterable[str] | None = None, pairs: bool = False) -> JudgedPreferences:
    """Each judged query (of ``queries``, default all) the run ranks, or every one with ``complete``, as trec_eval.

    A query the run does not rank is evaluated on an empty ranking with ``complete`` (trec_eval's
    ``-c``), left out without it. ValidationError when no query is both judged and ranked (and
    ``queries`` is not given). ``pairs``: count the pairs at once (a prefs_pair measure is asked).
    """
    depth = check_depth(depth)
    in_run = {query: q for q, query in enumerate(run.query_ids)}
    wanted = table.query_ids if queries is None else [q for q in table.query_ids if q in set(queries)]
    if queries is None and not any(q in in_run for q in wanted):
        raise ValidationError(f"no query has both preferences and a ranking: {run.name or 'the run'} ranks "
                              f"{_some(run.query_ids)}, {table.name or 'the preferences'} judge "
                              f"{_some(table.query_ids)}")
    evaluated, rankings = [], []
    order = preference_rows(run)
    for query in wanted:
        r = in_run.get(query)
        if r is None and not complete:
            continue
        ranking: list[str] = []
        if r is not None:
            start, end = int(run.offsets[r]), int(run.offsets[r + 1])
            end = end if depth is None else min(end, start + depth)
            ranking = run.docs.take(as_arrow(order[start:end])).to_pylist()
        evaluated.append(query)
        rankings.append(ranking)
    return JudgedPreferences(tuple(evaluated), PreferenceRankings(evaluated, rankings,
                                                                  [table.judgments(q) for q in evaluated], pairs=pairs))


def _some(ids: tuple[str, ...]) -> str:
    shown = ", ".join(repr(i) for i in ids[:3])
    return shown + (f" and {len(ids) - 3} more" if len(ids) > 3 else "")
