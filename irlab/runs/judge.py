"""Joining a run with its qrels: every evaluated query's ranking as grades (trec_eval's query rules).

:func:`judge` turns a :class:`~irlab.runs.trec.RunTable` (ranked) and a
:class:`~irlab.runs.trec.QrelsTable` into :class:`JudgedRun`: the
:class:`~irlab.data.columns.JudgedRankings` every measure's kernel reads, plus what the runs page
needs to explain one query (its doc ids and judgments).

trec_eval's rules, each an option here:

* only judged queries are evaluated; run queries without judgments are ignored;
* ``complete=True`` (trec_eval ``-c``): a judged query missing from the run counts, with
  a ranking of one placeholder document that is not in the pool, as trec_eval 10 does (``-M 0``
  empties it too), and 0 documents retrieved; ``complete=False``: it is left out;
* ``depth`` (``-M``): only the top ``depth`` documents of each ranking count (0: none, as
  trec_eval's ``-M 0``, which evaluates every query on an empty ranking);
* ``judged_only`` (``-J``): documents without a grade >= 0 are removed, after ``depth``.

>>> from irlab.runs.trec import parse_qrels, parse_run
>>> qrels = parse_qrels(b"q1 0 a 1\\nq1 0 b 0\\nq1 0 u -1\\nq2 0 c 2\\n")
>>> run = parse_run(b"q1 Q0 x 1 3 r\\nq1 Q0 a 2 2 r\\nq1 Q0 u 3 1 r\\nq9 Q0 a 1 1 r\\n")
>>> judged = judge(qrels, run)
>>> judged.rankings.queries, judged.rankings.grades.tolist(), judged.rankings.num_ret.tolist()
(('q1', 'q2'), [-1, 1, -2, -1], [3, 0])
>>> judged.ranking("q1"), judged.judgments("q2")
(['x', 'a', 'u'], {'c': 2})
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from numbers import Integral

import numpy as np
import pyarrow.compute as pc

from irlab.data.columns import NOT_POOLED, NOT_RANKED, UNJUDGED, JudgedRankings
from irlab.errors import ValidationError
from irlab.runs.arrow import as_arrow, as_numpy
from irlab.runs.trec import QrelsTable, RunTable

PLACEHOLDER = -1
"""The run row of a missing query's placeholder document."""


def check_depth(depth: int | None) -> int | None:
    """``depth`` (trec_eval's ``-M``) if it is None (no limit) or a whole number >= 0.

    0 is trec_eval's ``-M 0``: every ranking is empty. A negative depth is refused (trec_eval
    10.0 crashes on it).

    >>> check_depth(0), check_depth(None), check_depth(100)
    (0, None, 100)
    >>> check_depth(-1)
    Traceback (most recent call last):
    ...
    irlab.errors.ValidationError: the depth (-M) must be a whole number of at least 0, got -1
    """
    if depth is None:
        return None
    if isinstance(depth, bool) or not isinstance(depth, Integral) or depth < 0:
        raise ValidationError(f"the depth (-M) must be a whole number of at least 0, got {depth!r}")
    return int(depth)


@dataclass(frozen=True)
class JudgedRun:
    """A run joined with qrels under trec_eval's rules (see the module).

    ``rows`` gives, for each row of ``rankings``, the run row it came from (:data:`PLACEHOLDER`
    for a missing query's placeholder).
    """

    run: RunTable
    qrels: QrelsTable
    rankings: JudgedRankings
    rows: np.ndarray
    complete: bool
    depth: int | None
    judged_only: bool

    @property
    def queries(self) -> tuple[str, ...]:
        """The evaluated queries, in trec_eval's order."""
        return self.rankings.queries

    def ranking(self, query: str) -> list[str]:
        """The doc ids ``query`` is evaluated on, in rank order (after ``depth`` and ``judged_only``)."""
        q = self.queries.index(query)
        rows = self.rows[self.rankings.offsets[q]:self.rankings.offsets[q + 1]]
        rows = rows[rows != PLACEHOLDER]
        return self.run.docs.take(as_arrow(rows.astype(np.int64))).to_pylist() if len(rows) else []

    def evaluated_ranking(self, query: str) -> list[str]:
        """What the measures see for ``query``: :meth:`ranking`, or a missing query's placeholder.

        Explaining a query on this ranking gives exactly the value of the batch engine, also for
        a query the run misses (``-c``), whose placeholder is :data:`~irlab.data.columns.NOT_RANKED`.
        """
        q = self.queries.index(query)
        rows = self.rows[self.rankings.offsets[q]:self.rankings.offsets[q + 1]]
        if len(rows) and rows[0] == PLACEHOLDER:
            return [NOT_RANKED]
        return self.ranking(query)

    def judgments(self, query: str) -> dict[str, int]:
        """The qrels of ``query``: ``{doc_id: grade}``."""
        return self.qrels.judgments(query)


def judge(qrels: QrelsTable, run: RunTable, *, complete: bool = True, depth: int | None = None,
          judged_only: bool = False, queries: Iterable[str] | None = None) -> JudgedRun:
    """Join ``run`` with ``qrels`` (see the module); ValidationError when no query is both judged and ranked.

    ``queries`` limits the join to those judged queries (a block of a file read topic by topic,
    :mod:`irlab.runs.stream`): each keeps its trec_eval order, and no overlap is required.
    """
    depth = check_depth(depth)
    in_run = {query: i for i, query in enumerate(run.query_ids)}
    if queries is None:
        if not any(query in in_run for query in qrels.query_ids):
            raise ValidationError(no_overlap_message(run.name, run.query_ids, qrels))
        width = None
    else:  # a few queries: the qrels of those only (joining a block costs what the block holds)
        width = qrels.top_grade + 1  # every block's grade counts as wide as the whole qrels'
        qrels = qrels.subset(queries)
    judged_ids = qrels.query_ids
    evaluated = [q for q, query in enumerate(judged_ids) if complete or query in in_run]

    # the run rows of each evaluated query, cut at depth; a missing query gets one placeholder row
    starts, lengths, missing = [], [], []
    for q in evaluated:
        r = in_run.get(judged_ids[q])
        if r is None:  # trec_eval's one-document placeholder ranking, cut by -M as any ranking (-M 0: empty)
            starts.append(PLACEHOLDER)
            lengths.append(1 if depth is None else min(depth, 1))
            missing.append(True)
        else:
            start, end = int(run.offsets[r]), int(run.offsets[r + 1])
            starts.append(start)
            lengths.append(end - start if depth is None else min(depth, end - start))
            missing.append(False)
    lengths_array = np.array(lengths, dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum(lengths_array)])
    segment = np.repeat(np.arange(len(evaluated)), lengths_array)
    rows = np.repeat(np.array(starts, dtype=np.int64), lengths_array) + (np.arange(offsets[-1]) - offsets[segment])
    rows[np.repeat(np.array(missing, dtype=bool), lengths_array)] = PLACEHOLDER

    grades = _grades(qrels, run, rows, np.array(evaluated, dtype=np.int64)[segment])
    if judged_only:
        keep = grades >= 0
        rows, grades, segment = rows[keep], grades[keep], segment[keep]
        offsets = np.concatenate([[0], np.cumsum(np.bincount(segment, minlength=len(evaluated)))])
    rankings = JudgedRankings([judged_ids[q] for q in evaluated], offsets, grades,
                              _level_counts(qrels, width)[evaluated], np.array(missing, dtype=bool))
    return JudgedRun(run, qrels, rankings, rows, complete, depth, judged_only)


def _grades(qrels: QrelsTable, run: RunTable, rows: np.ndarray, qrels_query: np.ndarray) -> np.ndarray:
    """The grade (or code) of each run row in ``rows``, whose query is qrels query ``qrels_query``."""
    grades = np.full(len(rows), NOT_POOLED, dtype=np.int64)
    real = rows != PLACEHOLDER
    if not real.any():
        return grades
    judged_docs = pc.unique(qrels.docs)
    same_rows = len(rows) == len(run.docs) and bool(real.all()) and bool((rows == np.arange(len(rows))).all())
    docs = run.docs if same_rows else run.docs.take(as_arrow(rows[real]))  # no copy when every row counts
    doc_code = pc.index_in(docs, value_set=judged_docs)
    known = ~as_numpy(doc_code.is_null())
    width = len(judged_docs)
    run_keys = qrels_query[real][known] * width + as_numpy(doc_code.drop_null()).astype(np.int64)
    qrels_keys = (np.repeat(np.arange(len(qrels.query_ids)), np.diff(qrels.offsets)) * width
                  + as_numpy(pc.index_in(qrels.docs, value_set=judged_docs)).astype(np.int64))
    order = np.argsort(qrels_keys, kind="stable")
    at = np.searchsorted(qrels_keys[order], run_keys)
    at = np.minimum(at, len(order) - 1)
    found = qrels_keys[order][at] == run_keys
    matched = np.full(known.sum(), NOT_POOLED, dtype=np.int64)
    qrels_grade = qrels.grades[order][at[found]]
    matched[found] = np.where(qrels_grade < 0, UNJUDGED, qrels_grade)
    real_grades = np.full(real.sum(), NOT_POOLED, dtype=np.int64)
    real_grades[known] = matched
    grades[real] = real_grades
    return grades


def _level_counts(qrels: QrelsTable, width: int | None = None) -> np.ndarray:
    """Judged documents of each grade >= 0, per qrels query: shape (queries, ``width`` or top grade + 1)."""
    query = np.repeat(np.arange(len(qrels.query_ids)), np.diff(qrels.offsets))
    judged = qrels.grades >= 0
    width = width or qrels.top_grade + 1
    flat = np.bincount(query[judged] * width + qrels.grades[judged], minlength=len(qrels.query_ids) * width)
    return flat.reshape(len(qrels.query_ids), width)


def no_overlap_message(run_name: str | None, run_queries: tuple[str, ...], qrels: QrelsTable) -> str:
    """What to say when a run ranks no judged query (a run for another track, or the files swapped)."""
    return (f"no query has both judgments and a ranking: {run_name or 'the run'} ranks {_some(run_queries)}, "
            f"{qrels.name or 'the qrels'} judges {_some(qrels.query_ids)}")


def _some(ids: tuple[str, ...]) -> str:
    shown = ", ".join(repr(i) for i in ids[:3])
    return shown + (f" and {len(ids) - 3} more" if len(ids) > 3 else "")
