"""trec_eval's ``qrels_jg`` files (``-R qrels_jg``): qrels whose second column names a judgment group.

``query group doc grade`` per line: the same as a qrels file, but the second column (the
"iteration" trec_eval ignores in qrels) says whose judgments these are; a topic may have several
groups (users), each judging the documents in its own way. A document twice in one group of a
query is refused, as in qrels; in two groups it is expected.

:func:`judge_groups` joins a run with every group of each query (:func:`irlab.runs.judge.judge`
per group, so ``-c``, ``-M`` and ``-J`` act as for qrels, ``-J`` on each group's own judgments),
for the measures of :mod:`irlab.metrics.judgment_groups`.

>>> grouped = parse_grouped_qrels(b"q1 u1 a 1\\nq1 u2 a 0\\nq1 u2 b 1\\nq2 u1 c 1\\n", "qrels.123")
>>> grouped.query_ids, grouped.groups_of("q1"), grouped.slots[1].query_ids
(('q1', 'q2'), ('u1', 'u2'), ('q1',))
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np
import pyarrow as pa

from irlab.errors import ValidationError
from irlab.metrics.judgment_groups import GroupedRankings
from irlab.runs.arrow import as_arrow, as_numpy
from irlab.runs.judge import judge, no_overlap_message
from irlab.runs.trec import (
    MAX_FILE_BYTES,
    QrelsTable,
    RunTable,
    _check_text,
    _fast_table,
    _slow_qrels,
    qrels_table,
    read_bytes,
)

FIELDS = "query group doc grade"


@dataclass(frozen=True)
class GroupedQrels:
    """A ``qrels_jg`` file: ``slots[g]`` holds each query's ``g``-th judgment group (groups in id order) as qrels.

    ``groups`` maps each query to its group ids, in that order.
    """

    name: str
    slots: tuple[QrelsTable, ...]
    groups: dict[str, tuple[str, ...]]

    @cached_property
    def query_ids(self) -> tuple[str, ...]:
        """The judged queries, in byte order (trec_eval's)."""
        return self.slots[0].query_ids

    @cached_property
    def index(self) -> dict[str, int]:
        return self.slots[0].index

    def groups_of(self, query: str) -> tuple[str, ...]:
        """A query's judgment groups, in id order."""
        return self.groups[query]

    def judgments(self, query: str) -> dict[str, dict[str, int]]:
        """A query's judgments by group: ``{group: {doc: grade}}``."""
        return {group: self.slots[g].judgments(query) for g, group in enumerate(self.groups[query])}

    @cached_property
    def judged_relevant(self) -> int:
        """Judgments above grade 0 in every group of every query (trec_eval's ``num_rel`` with ``-c``)."""
        return int(sum(np.sum(slot.grades > 0) for slot in self.slots))

    def __len__(self) -> int:
        return sum(len(slot) for slot in self.slots)


def parse_grouped_qrels(data: bytes, name: str | None = "qrels_jg") -> GroupedQrels:
    """A ``qrels_jg`` file's bytes as :class:`GroupedQrels`; every problem names the file and line."""
    _check_text(data, name, "qrels")
    table = _fast_table(data, ["query", "group", "doc", "grade"], {"grade": pa.int64(), "group": pa.string()})
    if table is not None:
        columns = {c: table[c].combine_chunks() if table[c].num_chunks else pa.nulls(0, pa.string())
                   for c in ("query", "group", "doc")}
        grades, lines = as_numpy(table["grade"]), np.arange(1, len(table["grade"]) + 1)
    else:  # the line-by-line reader (it names the line of a problem)
        queries, docs, grades, lines, groups = _slow_qrels(data, name, kind="qrels_jg", fields_text=FIELDS)
        columns = {"query": queries, "group": groups, "doc": docs}
    if not len(grades):
        raise ValidationError(f"the file has no qrels_jg lines ({FIELDS})", path=name)
    by_query: dict[str, dict[str, list[int]]] = {}
    for row, (query, group) in enumerate(zip(columns["query"].to_pylist(), columns["group"].to_pylist())):
        by_query.setdefault(query, {}).setdefault(group, []).append(row)
    order = {query: tuple(sorted(found, key=str.encode)) for query, found in by_query.items()}
    slots = []
    for g in range(max(len(found) for found in order.values())):
        take = np.array([row for query, found in order.items() if g < len(found) for row in by_query[query][found[g]]],
                        dtype=np.int64)
        slots.append(qrels_table(name, columns["query"].take(as_arrow(take)), columns["doc"].take(as_arrow(take)),
                                 np.asarray(grades)[take], lines=np.asarray(lines)[take]))
    return GroupedQrels(name, tuple(slots), order)


def read_grouped_qrels_file(path: str | Path, *, limit: int = MAX_FILE_BYTES) -> GroupedQrels:
    """Read a ``qrels_jg`` file (plain or gzip)."""
    return parse_grouped_qrels(read_bytes(path, limit=limit), str(path))


@dataclass(frozen=True)
class JudgedGroups:
    """A run joined with every judgment group of each evaluated query."""

    queries: tuple[str, ...]
    rankings: GroupedRankings


def judge_groups(grouped: GroupedQrels, run: RunTable, *, complete: bool = True, depth: int | None = None,
                 judged_only: bool = False, queries: Iterable[str] | None = None) -> JudgedGroups:
    """Join ``run`` with each group of each judged query (of ``queries``), under trec_eval's rules (see the module)."""
    ranked = set(run.query_ids)
    wanted = grouped.query_ids if queries is None else [q for q in grouped.query_ids if q in set(queries)]
    if queries is None and not any(q in ranked for q in wanted):
        raise ValidationError(no_overlap_message(run.name, run.query_ids, grouped.slots[0]))
    evaluated = [q for q in wanted if complete or q in ranked]
    position = {q: i for i, q in enumerate(evaluated)}
    parts = []
    for slot in grouped.slots:
        mine = [q for q in evaluated if q in slot.index]
        if not mine:
            continue
        joined = judge(slot, run, complete=complete, depth=depth, judged_only=judged_only, queries=mine)
        parts.append((joined.rankings, np.array([position[q] for q in joined.queries], dtype=np.int64)))
    return JudgedGroups(tuple(evaluated), GroupedRankings(evaluated, parts))
