"""Many queries' rankings as columns: what the batch engine computes every measure from.

trec_eval turns each query's ranked documents into a list of relevance values (its
``results_rel_list``) and counts the judged documents at each grade (``rel_levels``); every
measure is computed from those two. :class:`JudgedRankings` holds them for all queries at once
as numpy arrays, so a measure is a few array operations over every query (a *kernel*, in the
metric modules) instead of a loop over queries.

The grade at a rank is the document's qrels grade (>= 0), or one of trec_eval's codes:

* :data:`NOT_POOLED` (-1): the document is not in the qrels at all;
* :data:`UNJUDGED` (-2): the qrels list it with a negative grade ("in the pool, not judged").

Both count as not relevant; bpref and infAP tell them apart.

>>> r = JudgedRankings.from_lists(["q1", "q2"], [[1, -1, 2], []], [[3, 1, 1], [0, 2]])
>>> r.num_ret.tolist(), r.num_rel(1).tolist(), r.hits_at(2, 1).tolist()
([3, 0], [3, 1], [1, 0])

Exact arithmetic: trec_eval adds a query's terms one after another, and the batch engine
must print the same last digit, so every floating-point sum here is a sequential prefix sum
(:func:`segment_prefix`), never numpy's pairwise ``sum``.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from functools import cached_property

import numpy as np

from irlab.errors import ValidationError

NOT_POOLED = -1
"""Grade code of a retrieved document that the qrels do not list (trec_eval's RELVALUE_NONPOOL)."""

UNJUDGED = -2
"""Grade code of a retrieved document the qrels list with a negative grade (trec_eval's RELVALUE_UNJUDGED)."""

NOT_RANKED = "(not ranked)"
"""The doc id that stands for a missing query's placeholder document when one query is explained.

trec_eval 10 evaluates a judged query the run does not rank (``-c``) on a ranking of one
document that is in no pool; explaining such a query on ``[NOT_RANKED]`` reproduces its values.
A TREC doc id never holds a space, so this one never collides with a real document.
"""

_PAD_BUDGET = 1 << 19
"""Cells per padded block in :func:`segment_prefix` (4 MB of float64)."""


class JudgedRankings:
    """The grades of every evaluated query's ranking, in rank order, and the judged grade counts.

    * ``queries``: query ids, in trec_eval's order (sorted as byte strings);
    * ``offsets``: int64, ``len(queries) + 1``; query q's ranks are rows ``offsets[q]:offsets[q+1]``;
    * ``grades``: int64, one row per retrieved document: its grade or a code (see the module);
    * ``level_counts``: int64, shape (queries, L): judged documents (grade >= 0) of each grade;
    * ``missing``: bool per query: a judged query the run does not rank (trec_eval ``-c``). Its
      ranking holds one placeholder row (:data:`NOT_POOLED`), as trec_eval's, and it retrieved 0.

    Derived columns are computed once and cached; the arrays are never modified.
    """

    def __init__(self, queries: Sequence[str], offsets: np.ndarray, grades: np.ndarray, level_counts: np.ndarray,
                 missing: np.ndarray | None = None) -> None:
        self.queries = tuple(queries)
        self.offsets = np.asarray(offsets, dtype=np.int64)
        self.grades = np.asarray(grades, dtype=np.int64)
        self.level_counts = np.asarray(level_counts, dtype=np.int64)
        nq = len(self.queries)
        self.missing = np.zeros(nq, dtype=bool) if missing is None else np.asarray(missing, dtype=bool)
        if self.offsets.shape != (nq + 1,) or self.offsets[0] != 0 or self.offsets[-1] != len(self.grades):
            raise ValidationError("offsets must start at 0, end at the number of rows, one per query plus one")
        if np.any(np.diff(self.offsets) < 0):
            raise ValidationError("offsets must not decrease")
        if self.level_counts.ndim != 2 or self.level_counts.shape[0] != nq or self.level_counts.shape[1] < 1:
            raise ValidationError("level_counts must have one row per query and at least one grade column")
        if self.missing.shape != (nq,):
            raise ValidationError("missing must have one flag per query")

    @classmethod
    def from_lists(cls, queries: Sequence[str], grades: Sequence[Sequence[int]],
                   judged: Sequence[Sequence[int]], missing: Sequence[bool] | None = None) -> JudgedRankings:
        """Build from per-query lists: the grades in rank order, and every judged grade of the query."""
        lengths = [len(g) for g in grades]
        offsets = np.concatenate([[0], np.cumsum(lengths, dtype=np.int64)])
        flat = np.fromiter((g for query in grades for g in query), dtype=np.int64, count=int(offsets[-1]))
        top = max((g for query in judged for g in query), default=0)
        counts = np.zeros((len(queries), max(top, 0) + 1), dtype=np.int64)
        for q, query in enumerate(judged):
            for grade in query:
                if grade >= 0:
                    counts[q, grade] += 1
        return cls(queries, offsets, flat, counts, None if missing is None else np.asarray(missing, dtype=bool))

    def __len__(self) -> int:
        return len(self.queries)

    # --- shapes -----------------------------------------------------------------------------

    @cached_property
    def lengths(self) -> np.ndarray:
        """Rows per query (a missing query's placeholder counts as 1)."""
        return np.diff(self.offsets)

    @cached_property
    def num_ret(self) -> np.ndarray:
        """Documents retrieved per query (0 for a missing query)."""
        return np.where(self.missing, 0, self.lengths)

    @cached_property
    def row_query(self) -> np.ndarray:
        """The query index of every row."""
        return np.repeat(np.arange(len(self), dtype=np.int32), self.lengths)

    @cached_property
    def row_rank(self) -> np.ndarray:
        """The 1-based rank of every row within its query."""
        ranks = np.arange(1, len(self.grades) + 1, dtype=np.int32)
        ranks -= np.repeat(self.offsets[:-1].astype(np.int32), self.lengths)
        return ranks

    # --- counts -----------------------------------------------------------------------------

    def num_judged_below(self, level: int) -> np.ndarray:
        """Judged documents per query with 0 <= grade < ``level`` (trec_eval's non-relevant judged)."""
        return self.level_counts[:, :max(0, min(level, self.level_counts.shape[1]))].sum(axis=1)

    def num_rel(self, level: int) -> np.ndarray:
        """R: judged documents per query with grade >= ``level``, retrieved or not."""
        return self.level_counts[:, max(0, level):].sum(axis=1)

    def relevant(self, level: int) -> np.ndarray:
        """Whether each row is relevant (grade >= ``level``; the codes never are)."""
        return self.cached(("relevant", level), lambda: self.grades >= max(level, 0))

    def cumulative(self, mask: np.ndarray, key: tuple | None = None) -> np.ndarray:
        """For every row, how many rows of its query up to and including it are in ``mask`` (int64)."""
        def compute() -> np.ndarray:
            counts = np.cumsum(mask, dtype=np.int32)
            counts -= np.repeat(np.concatenate([[0], counts])[self.offsets[:-1]], self.lengths)
            return counts
        return compute() if key is None else self.cached(("cumulative", *key), compute)

    def count_at(self, mask: np.ndarray, k: int | np.ndarray | None, key: tuple | None = None) -> np.ndarray:
        """Rows in ``mask`` among each query's top ``k`` (``None``: the whole ranking; an array: one k per query).

        ``key`` names the mask, so its running count is computed once for these rankings.
        """
        def running() -> np.ndarray:
            return np.concatenate([[0], np.cumsum(mask, dtype=np.int64)])
        counts = running() if key is None else self.cached(("running count", *key), running)
        ends = self.offsets[1:] if k is None else np.minimum(self.offsets[:-1] + k, self.offsets[1:])
        return counts[ends] - counts[self.offsets[:-1]]

    def hits_at(self, k: int | np.ndarray | None, level: int) -> np.ndarray:
        """Relevant documents in each query's top ``k``."""
        return self.count_at(self.relevant(level), k, key=("relevant", level))

    def num_rel_ret(self, level: int) -> np.ndarray:
        """Relevant documents retrieved, per query."""
        return self.hits_at(None, level)

    def cached(self, key: tuple, compute) -> np.ndarray:
        """``compute()``, computed once per ``key`` for these rankings (kernels share running sums)."""
        cache = self.__dict__.setdefault("_cache", {})
        if key not in cache:
            cache[key] = compute()
        return cache[key]

    def first_rank(self, mask: np.ndarray) -> np.ndarray:
        """The rank of each query's first row in ``mask``, or 0 when it has none."""
        first = np.zeros(len(self), dtype=np.int64)
        rows = np.flatnonzero(mask)
        queries, where = np.unique(self.row_query[rows], return_index=True)
        first[queries] = self.row_rank[rows[where]]
        return first

    # --- sums, in trec_eval's order ---------------------------------------------------------------

    def prefix(self, terms: np.ndarray) -> np.ndarray:
        """Each query's running sum of ``terms`` in rank order (sequential, see the module)."""
        return segment_prefix(terms, self.offsets)

    def prefix_at(self, prefix: np.ndarray, k: int | np.ndarray | None) -> np.ndarray:
        """A running sum's value after each query's top ``k`` rows (0 for an empty ranking)."""
        return value_at(prefix, self.offsets, k)

    def discounts(self, kind: str = "log2") -> np.ndarray:
        """The DCG discount of every row's rank: ``log2(rank + 1)``, or Järvelin–Kekäläinen's 1, then ``log2(rank)``."""
        return rank_discounts(self.row_rank, kind)


def rank_discounts(ranks: np.ndarray, kind: str = "log2") -> np.ndarray:
    """DCG discounts of 1-based ``ranks`` (see :meth:`JudgedRankings.discounts`).

    >>> rank_discounts(np.array([1, 2, 3]), "log2").tolist()
    [1.0, 1.584962500721156, 2.0]
    >>> rank_discounts(np.array([1, 2, 4]), "jarvelin-kekalainen").tolist()
    [1.0, 1.0, 2.0]
    """
    table = log2_table(int(ranks.max()) + 1 if len(ranks) else 1)
    if kind == "log2":
        return table[ranks + 1]
    return np.where(ranks == 1, 1.0, table[ranks])


def segment_prefix(values: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """Running sums of ``values`` restarting at every segment, added strictly left to right.

    ``np.cumsum`` over a 2-D block adds along each row one value at a time, so the result is
    exactly what a C loop ``sum += x`` gives; segments are padded with 0.0 (adding 0.0 changes
    nothing) into blocks of similar lengths, so memory stays bounded for any mix of lengths.

    >>> segment_prefix(np.array([0.1, 0.2, 0.3, 1.0, 2.0]), np.array([0, 3, 3, 5])).tolist()
    [0.1, 0.30000000000000004, 0.6000000000000001, 1.0, 3.0]
    """
    return segment_accumulate(values, offsets, np.add, 0.0)


def segment_accumulate(values: np.ndarray, offsets: np.ndarray, ufunc: np.ufunc, pad: float) -> np.ndarray:
    """Running ``ufunc`` (``np.add``, ``np.multiply``) of ``values``, restarting at every segment, left to right.

    Segments are padded with ``pad`` (the ufunc's identity: adding 0.0 or multiplying by 1.0 changes nothing) into
    blocks of similar lengths, so memory stays bounded for any mix of lengths; ``ufunc.accumulate`` along a block's
    rows applies the ufunc one value at a time, as a C loop would.

    >>> segment_accumulate(np.array([0.5, 0.5, 0.25, 2.0]), np.array([0, 3, 3, 4]), np.multiply, 1.0).tolist()
    [0.5, 0.25, 0.0625, 2.0]
    """
    values = np.asarray(values, dtype=np.float64)
    out = np.empty_like(values)
    starts, lengths = offsets[:-1], np.diff(offsets)
    order = np.argsort(-lengths, kind="stable")
    order = order[lengths[order] > 0]
    i = 0
    while i < len(order):
        width = int(lengths[order[i]])
        block = order[i:i + max(1, _PAD_BUDGET // max(width, 1))]
        padded = np.full((len(block), width), pad)
        inside = np.arange(width)[None, :] < lengths[block][:, None]
        index = np.repeat(starts[block], lengths[block]) + (np.flatnonzero(inside) % width)
        padded[inside] = values[index]
        ufunc.accumulate(padded, axis=1, out=padded)
        out[index] = padded[inside]
        i += len(block)
    return out


def value_at(prefix: np.ndarray, offsets: np.ndarray, k: int | np.ndarray | None) -> np.ndarray:
    """``prefix`` at each segment's ``min(k, length)``-th row; 0.0 where that is no row.

    >>> value_at(np.array([1.0, 3.0, 6.0, 5.0]), np.array([0, 3, 3, 4]), 2).tolist()
    [3.0, 0.0, 5.0]
    """
    starts, ends = offsets[:-1], offsets[1:]
    last = ends if k is None else np.minimum(starts + k, ends)
    safe = np.maximum(last - 1, 0)
    taken = prefix[safe] if len(prefix) else np.zeros(len(starts))
    return np.where(last > starts, taken, 0.0)


def divide(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    """``numerator / denominator`` as float64, 0.0 where the denominator is 0 (trec_eval's convention).

    >>> divide(np.array([1, 2]), np.array([4, 0])).tolist()
    [0.25, 0.0]
    """
    numerator = np.asarray(numerator, dtype=np.float64)
    denominator = np.asarray(denominator, dtype=np.float64)
    return np.divide(numerator, denominator, out=np.zeros(np.broadcast(numerator, denominator).shape),
                     where=denominator != 0)


def log2_table(n: int) -> np.ndarray:
    """``table[i] = log2(i)`` for i = 1..n (``table[0]`` is unused), from C's ``log2`` via Python's math.

    numpy's vectorised log2 may differ from the C library's in the last bit; trec_eval calls
    the C library, and so does this table. It is built once per size (powers of two).

    >>> log2_table(4)[1:5].tolist()
    [0.0, 1.0, 1.584962500721156, 2.0]
    """
    size = 1 << max(4, (n + 1).bit_length())
    return _log2(size)


@functools.cache
def _log2(size: int) -> np.ndarray:
    table = np.array([math.log2(i) if i else 0.0 for i in range(size)], dtype=np.float64)
    table.flags.writeable = False
    return table
