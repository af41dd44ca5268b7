r"""Preference judgments against a ranking: what trec_eval's preference measures count (``-R prefs``).

A preference file judges documents by **judgment groups** (JG: one user's view of one information
need) made of **sub-groups** (JSG). Within a JSG a document with a higher level is preferred to
every document with a lower one; equal levels express no preference. A JG with one JSG prefers
between every two of its levels (its **equivalence classes**, EC); a JG with several JSGs takes the
preferences of each and adds the transitive ones (A > B in one JSG and B > C in another give
A > C). Level 0 means "not relevant" to that user: a document may not be 0 in one JSG of a JG and
above 0 in another, and a JG's preferences may not contradict each other (A > B and B > A);
different JGs may (users disagree).

Against a run, each preference "A > B" of a JG falls in one of five cells (A retrieved or not,
B retrieved or not), counted per JG as trec_eval 10.0 does (``form_prefs_counts.c``):

* both retrieved, A above B: **fulfilled** (``fulfilled_ret``); B above A: not (``possible_ret``
  counts both);
* A retrieved, B not: fulfilled, *implied* (``fulfilled_imp``); B retrieved, A not: not
  (``possible_imp`` counts both);
* neither retrieved: never fulfilled (``not_occurring``).

The run's order here is trec_eval's for preferences: score descending, **ties by document id
ascending** (its qrels measures break ties the other way), then ``-M``; only judged documents get a
place. The counts of every JG are exact integers, so the measures' ratios are computed from them in
trec_eval's order (:mod:`irlab.metrics.preferences`); this module is the fast path (numpy over all the
JGs of a query), the readable definitions are :mod:`irlab.metrics.preferences`' ``explain_prefs_*``.

>>> ranked = ["d3", "d1"]  # the run's order (d2 not retrieved)
>>> lines = Judgments.of([("u1", "s", "d1", 2.0), ("u1", "s", "d2", 1.0), ("u1", "s", "d3", 0.0)])
>>> g = count_preferences(ranked, lines).groups[0]
>>> (g.fulfilled_ret, g.possible_ret, g.fulfilled_imp, g.possible_imp, g.not_occurring)
(0, 1, 1, 2, 0)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from irlab.errors import ValidationError

MAX_JUDGED = 5_000
"""Documents one query's preferences may mention when pairs are counted (prefs_pair*): a count per pair of
them, 2 bytes each, as trec_eval keeps (50 MB at this size)."""
MAX_GROUP_DOCUMENTS = 2_000
"""Documents one judgment group of several sub-groups may mention: its transitive preferences take a pass
over a documents × documents array per document (trec_eval's multiplies such arrays until they settle)."""
_ONE_HOT_CELLS = 1 << 22
"""Retrieved documents × levels counted at once with a one-hot running sum (else a Fenwick tree)."""


@dataclass(frozen=True)
class Judgments:
    """One query's preference lines: judgment group, sub-group, document and level, in file order.

    Refused (ValidationError): a level that is negative or not a number (trec_eval's format is a
    non-negative number; 0 is "not relevant"), and the same document twice in one sub-group.
    """

    groups: tuple[str, ...]
    subgroups: tuple[str, ...]
    docs: tuple[str, ...]
    levels: tuple[float, ...]

    @classmethod
    def of(cls, lines: Iterable[tuple[str, str, str, float]], query: str = "") -> Judgments:
        """From ``(group, subgroup, doc, level)`` lines, checked.

        >>> Judgments.of([("u", "s", "a", 1), ("u", "s", "a", 0)])
        Traceback (most recent call last):
        ...
        irlab.errors.ValidationError: document 'a' is judged twice in sub-group 's' of judgment group 'u'
        """
        rows = [(str(g), str(s), str(d), float(v)) for g, s, d, v in lines]
        seen = set()
        where = f" of query {query!r}" if query else ""
        for g, s, d, v in rows:
            if math.isnan(v) or v < 0 or math.isinf(v):
                raise ValidationError(f"document {d!r}{where} has level {v!r}: preference levels are numbers >= 0 "
                                      "(0: not relevant), as trec_eval's format says")
            if (g, s, d) in seen:
                raise ValidationError(f"document {d!r} is judged twice in sub-group {s!r} of judgment group "
                                      f"{g!r}{where}")
            seen.add((g, s, d))
        columns = tuple(zip(*rows)) if rows else ((), (), (), ())
        return cls(*columns)

    def __len__(self) -> int:
        return len(self.docs)

    def judged(self) -> set[str]:
        """Every document the query's preferences mention."""
        return set(self.docs)


@dataclass(frozen=True)
class GroupCounts:
    """One judgment group's preferences against a ranking (see the module).

    ``possible_ret`` and ``possible_imp`` include the fulfilled ones, as trec_eval's. ``relevant``
    and ``nonrelevant`` count the JG's documents above level 0 and at 0 (``_ret``: those retrieved).
    ``rnonrel`` and ``rnonrel_ret`` are (fulfilled, possible) for ``prefs_avgjg_Rnonrel`` and its
    ``_ret`` form, where the non-relevant documents are cut or padded to as many as the relevant ones.
    """

    group: str
    fulfilled_ret: int
    possible_ret: int
    fulfilled_imp: int
    possible_imp: int
    not_occurring: int
    relevant: int
    nonrelevant: int
    relevant_ret: int
    nonrelevant_ret: int
    rnonrel: tuple[int, int]
    rnonrel_ret: tuple[int, int]

    @property
    def fulfilled(self) -> int:
        """Preferences fulfilled, implied ones included."""
        return self.fulfilled_ret + self.fulfilled_imp

    @property
    def possible(self) -> int:
        """Every preference of the group."""
        return self.possible_ret + self.possible_imp + self.not_occurring


@dataclass(frozen=True)
class PairSums:
    """Per pair of documents with a preference in some JG: the share of those JGs the ranking agrees with.

    ``terms`` are the pairs' shares in trec_eval's order (both retrieved, row by row of the rank
    order; then one retrieved, the other not); ``retrieved`` and ``implied`` how many of them are
    of the first kind and of both kinds; ``pairs`` every pair, those with neither retrieved too
    (they count, as 0).
    """

    terms: np.ndarray = field(repr=False)
    retrieved: int
    implied: int
    pairs: int


@dataclass(frozen=True)
class QueryCounts:
    """Every judgment group of one query against a ranking, groups in id order (byte order)."""

    groups: tuple[GroupCounts, ...]
    judged: int
    judged_ret: int
    pairs: PairSums | None = None


def preference_order(docs: Sequence[str], scores: Sequence[float]) -> list[str]:
    """``docs`` in trec_eval's order for preferences: score descending, equal scores by id ascending.

    >>> preference_order(["b", "a", "c"], [1.0, 1.0, 2.0])
    ['c', 'a', 'b']
    """
    return [doc for _, doc in sorted(zip((-float(s) for s in scores), docs), key=lambda pair: (pair[0],
                                                                                                pair[1].encode()))]


def docid_ranks(ranking: Sequence[str], judged: set[str]) -> tuple[dict[str, int], int]:
    """Each judged document's place: retrieved ones by rank (0, 1, ...), then the others by id; and how many
    were retrieved (trec_eval's ``docid_rank`` and ``num_judged_ret``).

    >>> docid_ranks(["x", "b", "q"], {"a", "b", "c"})
    ({'b': 0, 'a': 1, 'c': 2}, 1)
    """
    retrieved = [doc for doc in dict.fromkeys(ranking) if doc in judged]
    others = sorted(judged - set(retrieved), key=str.encode)
    return {doc: i for i, doc in enumerate(retrieved + others)}, len(retrieved)


def count_preferences(ranking: Sequence[str], judgments: Judgments, *, pairs: bool = False) -> QueryCounts:
    """Every JG's counts for ``ranking`` (already in :func:`preference_order` and cut at ``-M``).

    ``pairs`` also counts, per pair of documents, the JGs preferring each way (prefs_pair*: memory
    grows with the square of the documents judged, at most :data:`MAX_JUDGED`). A JG whose
    preferences contradict themselves, or that calls a document 0 and above 0, is refused.
    """
    place, judged_ret = docid_ranks(ranking, judgments.judged())
    n = len(place)
    counts = None
    if pairs:
        if n > MAX_JUDGED:
            raise ValidationError(f"a query's preferences mention {n:,} documents; counting the pairs of them "
                                  f"(prefs_pair) is limited to {MAX_JUDGED:,}")
        counts = np.zeros((n, n), dtype=np.uint16)  # JGs preferring one document to another: < 2^16 groups
    groups = np.array(judgments.groups, dtype=object)
    subgroups = np.array(judgments.subgroups, dtype=object)
    ranks = np.array([place[d] for d in judgments.docs], dtype=np.int64)
    levels = np.array(judgments.levels, dtype=np.float64)
    results = []
    if len(set(judgments.groups)) >= 1 << 16:
        raise ValidationError("a query's preferences have more than 65,535 judgment groups")
    for group in sorted(set(judgments.groups), key=str.encode):
        mine = groups == group
        subs = subgroups[mine]
        if len(set(subs)) == 1:
            results.append(_ec_group(group, ranks[mine], levels[mine], judged_ret, counts))
        else:
            results.append(_pa_group(group, subs, ranks[mine], levels[mine], judged_ret, counts,
                                     np.array(judgments.docs, dtype=object)[mine]))
    return QueryCounts(tuple(results), n, judged_ret, None if counts is None else _pair_sums(counts, judged_ret))


# --- a JG with one sub-group: equivalence classes of levels -------------------------------------------

def _ec_group(group: str, ranks: np.ndarray, levels: np.ndarray, judged_ret: int,
              counts: np.ndarray | None) -> GroupCounts:
    distinct = np.unique(levels)[::-1]  # highest level first: code 0
    code = np.searchsorted(-distinct, -levels)
    width = len(distinct)
    retrieved = ranks < judged_ret
    in_ret = np.bincount(code[retrieved], minlength=width)
    out = np.bincount(code[~retrieved], minlength=width)
    lower_out = np.concatenate([np.cumsum(out[::-1])[::-1][1:], [0]])  # unretrieved of a lower level
    higher_out = np.concatenate([[0], np.cumsum(out)[:-1]])
    fulfilled_imp = int(np.sum(in_ret * lower_out))
    unfulfilled_imp = int(np.sum(in_ret * higher_out))
    not_occurring = int((out.sum() ** 2 - np.sum(out ** 2)) // 2)
    order = np.argsort(ranks[retrieved], kind="stable")
    fulfilled_ret, unfulfilled_ret = _ordered_pairs(code[retrieved][order], width)
    positive = levels > 0
    relevant, nonrelevant = int(positive.sum()), int((~positive).sum())
    relevant_ret, nonrelevant_ret = int((positive & retrieved).sum()), int((~positive & retrieved).sum())
    if counts is not None:
        counts[np.ix_(ranks, ranks)] += levels[:, None] > levels[None, :]
    base = cells(fulfilled_ret, unfulfilled_ret, fulfilled_imp, unfulfilled_imp, not_occurring,
                 (relevant, nonrelevant, relevant_ret, nonrelevant_ret))
    if relevant >= nonrelevant:
        rnonrel = _padded(base, relevant, nonrelevant, retrieved_only=False)
    else:  # trec_eval recounts with the first R non-relevant documents (the last EC, level 0)
        last = np.sort(ranks[code == width - 1])
        keep = last[:relevant]
        classes = [np.sort(ranks[code == k]) for k in range(width - 1)]
        fulfilled, possible = _ec_pairs_between(classes, judged_ret, retrieved_only=False)
        fulfilled += _above(ranks[retrieved], keep)  # every document of the JG against the kept ones
        possible += len(ranks) * len(keep)
        rnonrel = (fulfilled, possible)
    if relevant_ret >= nonrelevant_ret:
        rnonrel_ret = _padded(base, relevant_ret, nonrelevant_ret, retrieved_only=True)
    else:
        last = np.sort(ranks[(code == width - 1) & retrieved])
        keep = last[:relevant_ret]
        classes = [np.sort(ranks[(code == k) & retrieved]) for k in range(width - 1)]
        fulfilled, possible = _ec_pairs_between(classes, judged_ret, retrieved_only=True)
        fulfilled += _above(ranks[retrieved], keep)
        possible += int(retrieved.sum()) * len(keep)
        rnonrel_ret = (fulfilled, possible)
    return GroupCounts(group, **base, rnonrel=rnonrel, rnonrel_ret=rnonrel_ret)


def cells(fulfilled_ret: int, unfulfilled_ret: int, fulfilled_imp: int, unfulfilled_imp: int, not_occurring: int,
          documents: tuple[int, int, int, int]) -> dict[str, int]:
    """:class:`GroupCounts`' fields from the five cells and (relevant, non-relevant, each retrieved) documents."""
    relevant, nonrelevant, relevant_ret, nonrelevant_ret = documents
    return {"fulfilled_ret": fulfilled_ret, "possible_ret": fulfilled_ret + unfulfilled_ret,
            "fulfilled_imp": fulfilled_imp, "possible_imp": fulfilled_imp + unfulfilled_imp,
            "not_occurring": not_occurring, "relevant": relevant, "nonrelevant": nonrelevant,
            "relevant_ret": relevant_ret, "nonrelevant_ret": nonrelevant_ret}


def _padded(base: dict, relevant: int, nonrelevant: int, *, retrieved_only: bool) -> tuple[int, int]:
    """prefs_avgjg_Rnonrel's counts when a JG has no more non-relevant documents than relevant ones (R >= N):
    R - N fulfilled preferences added per relevant retrieved document, and possible ones per relevant one
    (trec_eval adds ``num_rel * (R - N)`` to the possible ones in both forms)."""
    extra = relevant - nonrelevant
    if retrieved_only:
        return (base["fulfilled_ret"] + base["relevant_ret"] * extra, base["possible_ret"] + base["relevant"] * extra)
    return (base["fulfilled_ret"] + base["fulfilled_imp"] + base["relevant_ret"] * extra,
            base["possible_ret"] + base["possible_imp"] + base["not_occurring"] + base["relevant"] * extra)


def _ec_pairs_between(classes: list[np.ndarray], judged_ret: int, *, retrieved_only: bool) -> tuple[int, int]:
    """(fulfilled, all) over pairs (a, b), a in a higher class than b: fulfilled when a is retrieved and above b."""
    fulfilled = possible = 0
    for k, higher in enumerate(classes):
        lower = np.sort(np.concatenate(classes[k + 1:])) if k + 1 < len(classes) else np.zeros(0, np.int64)
        fulfilled += _above(higher[higher < judged_ret], lower)
        possible += len(higher) * len(lower)
    return fulfilled, possible


def _above(tops: np.ndarray, below: np.ndarray) -> int:
    """Pairs (a, b), a in ``tops`` and b in ``below`` (sorted), with a placed before b."""
    if not len(tops) or not len(below):
        return 0
    return int(np.sum(len(below) - np.searchsorted(below, tops, side="right")))


def _ordered_pairs(codes: np.ndarray, width: int) -> tuple[int, int]:
    """Pairs i < j of a sequence of level codes (0: highest) with codes[i] < codes[j], and with codes[i] > codes[j].

    >>> _ordered_pairs(np.array([0, 1, 0, 2]), 3)
    (4, 1)
    """
    m = len(codes)
    if m < 2:
        return 0, 0
    if m * width <= _ONE_HOT_CELLS:
        seen = np.zeros((m, width), dtype=np.int64)
        seen[np.arange(m), codes] = 1
        before = np.cumsum(seen, axis=0) - seen  # documents above each one, per code
        higher = np.cumsum(before, axis=1) - before  # of a lower code (a higher level) than each code
        above_higher = higher[np.arange(m), codes]
        above_same = before[np.arange(m), codes]
        return int(above_higher.sum()), int((np.arange(m) - above_higher - above_same).sum())
    tree = [0] * (width + 1)  # a Fenwick tree of the codes seen so far
    higher_total = same_total = 0
    seen_of = [0] * width
    for _i, c in enumerate(codes.tolist()):
        k, count = c, 0
        while k > 0:
            count += tree[k]
            k -= k & -k
        higher_total += count
        same_total += seen_of[c]
        seen_of[c] += 1
        k = c + 1
        while k <= width:
            tree[k] += 1
            k += k & -k
    return higher_total, m * (m - 1) // 2 - higher_total - same_total


# --- a JG with several sub-groups: a preference array with the transitive preferences added ----------

def _pa_group(group: str, subgroups: np.ndarray, ranks: np.ndarray, levels: np.ndarray, judged_ret: int,
              counts: np.ndarray | None, docs: np.ndarray) -> GroupCounts:
    where = {int(r): i for i, r in enumerate(dict.fromkeys(ranks.tolist()))}
    local = np.array([where[int(r)] for r in ranks], dtype=np.int64)
    size = len(where)
    if size > MAX_GROUP_DOCUMENTS:
        raise ValidationError(f"judgment group {group!r} has several sub-groups over {size:,} documents; adding its "
                              f"transitive preferences is limited to {MAX_GROUP_DOCUMENTS:,} documents")
    place = np.array(list(where), dtype=np.int64)  # each local document's docid rank
    prefer = np.zeros((size, size), dtype=bool)
    for sub in set(subgroups.tolist()):
        mine = subgroups == sub
        prefer[np.ix_(local[mine], local[mine])] |= levels[mine][:, None] > levels[mine][None, :]
    zero = np.zeros(size, dtype=bool)
    above = np.zeros(size, dtype=bool)
    np.logical_or.at(zero, local, levels == 0)
    np.logical_or.at(above, local, levels > 0)
    both = zero & above
    if both.any():
        doc = docs[np.flatnonzero(np.isin(local, np.flatnonzero(both)))[0]]
        raise ValidationError(f"document {doc!r} has level 0 in one sub-group of judgment group {group!r} and above "
                              "0 in another (a judgment group is one user's view: not relevant, or relevant)")
    for k in range(size):  # the transitive preferences (Warshall)
        prefer |= prefer[:, k:k + 1] & prefer[k:k + 1, :]
    np.fill_diagonal(prefer, False)
    conflict = prefer & prefer.T
    if conflict.any():
        i, j = np.argwhere(conflict)[0]
        name = {int(r): d for r, d in zip(ranks.tolist(), docs.tolist())}
        raise ValidationError(f"judgment group {group!r} prefers {name[int(place[i])]!r} to {name[int(place[j])]!r} "
                              "and the other way round (with its other sub-groups): a group's preferences must agree; "
                              "put disagreeing users in groups of their own")
    retrieved = place < judged_ret
    earlier = place[:, None] < place[None, :]
    fulfilled_ret = int(np.sum(prefer & retrieved[:, None] & retrieved[None, :] & earlier))
    unfulfilled_ret = int(np.sum(prefer & retrieved[:, None] & retrieved[None, :] & ~earlier))
    fulfilled_imp = int(np.sum(prefer & retrieved[:, None] & ~retrieved[None, :]))
    unfulfilled_imp = int(np.sum(prefer & ~retrieved[:, None] & retrieved[None, :]))
    not_occurring = int(np.sum(prefer & ~retrieved[:, None] & ~retrieved[None, :]))
    if counts is not None:
        counts[np.ix_(place, place)] += prefer
    relevant, nonrelevant = int(above.sum()), int(zero.sum())
    relevant_ret, nonrelevant_ret = int((above & retrieved).sum()), int((zero & retrieved).sum())
    base = cells(fulfilled_ret, unfulfilled_ret, fulfilled_imp, unfulfilled_imp, not_occurring,
                 (relevant, nonrelevant, relevant_ret, nonrelevant_ret))
    if relevant >= nonrelevant:
        rnonrel = _padded(base, relevant, nonrelevant, retrieved_only=False)
    else:  # non-relevant documents after the (R + 1)-th in docid order are left out
        cut = np.sort(place[zero])[relevant]
        keep = ~(zero & (place >= cut))
        kept = prefer[np.ix_(keep, keep)]
        ok = retrieved[keep][:, None] & (earlier[np.ix_(keep, keep)] | ~retrieved[keep][None, :])
        rnonrel = (int(np.sum(kept & ok)), int(np.sum(kept)))
    if relevant_ret >= nonrelevant_ret:
        rnonrel_ret = _padded(base, relevant_ret, nonrelevant_ret, retrieved_only=True)
    else:  # trec_eval looks for the (R + 1)-th non-relevant among the retrieved, R counting every relevant one
        retrieved_zero = np.sort(place[zero & retrieved])
        cut = retrieved_zero[relevant] if relevant < len(retrieved_zero) else judged_ret
        keep = ~(zero & (place >= cut)) & retrieved
        kept = prefer[np.ix_(keep, keep)]
        rnonrel_ret = (int(np.sum(kept & earlier[np.ix_(keep, keep)])), int(np.sum(kept)))
    return GroupCounts(group, **base, rnonrel=rnonrel, rnonrel_ret=rnonrel_ret)


def _pair_sums(counts: np.ndarray, judged_ret: int) -> PairSums:
    """Per pair with a preference: the share of its JGs that the ranking agrees with, in trec_eval's order."""
    either = counts + counts.T
    ret = either[:judged_ret, :judged_ret]
    upper = np.triu(ret > 0, k=1)
    rows, cols = np.nonzero(upper)  # row by row, as trec_eval's loops
    first = counts[rows, cols] / either[rows, cols].astype(np.float64)
    mixed = either[:judged_ret, judged_ret:] > 0
    rows2, cols2 = np.nonzero(mixed)
    second = counts[rows2, cols2 + judged_ret] / either[rows2, cols2 + judged_ret].astype(np.float64)
    unretrieved = int(np.count_nonzero(np.triu(either[judged_ret:, judged_ret:] > 0, k=1)))
    return PairSums(np.concatenate([first, second]), len(first), len(first) + len(second),
                    len(first) + len(second) + unretrieved)


class PreferenceRankings:
    """Every evaluated query's ranking and preference judgments, in trec_eval's query order: the preference
    kernels' input. Their counts are made on first use (:attr:`counts`), with the pair counts when
    ``pairs`` says a pair measure will ask (else when it asks, :attr:`pair_counts`). A query the run
    does not rank (trec_eval ``-c``) has an empty ranking.
    """

    def __init__(self, queries: Sequence[str], rankings: Sequence[Sequence[str]],
                 judgments: Sequence[Judgments], *, pairs: bool = False) -> None:
        if not len(queries) == len(rankings) == len(judgments):
            raise ValidationError("one ranking and one Judgments per query")
        self.queries = tuple(queries)
        self.rankings = tuple(tuple(r) for r in rankings)
        self.judgments = tuple(judgments)
        self.pairs = pairs
        self._counts: tuple[QueryCounts, ...] | None = None

    def __len__(self) -> int:
        return len(self.queries)

    @property
    def counts(self) -> tuple[QueryCounts, ...]:
        """Every query's :class:`QueryCounts` (with pair counts when they were made already)."""
        if self._counts is None:
            self._counts = tuple(count_preferences(r, j, pairs=self.pairs) for r, j in zip(self.rankings,
                                                                                         self.judgments))
        return self._counts

    @property
    def pair_counts(self) -> tuple[QueryCounts, ...]:
        """Every query's :class:`QueryCounts` with its :class:`PairSums` (prefs_pair*)."""
        if self._counts is None or self._counts[:1] and self._counts[0].pairs is None:
            self._counts = tuple(count_preferences(r, j, pairs=True) for r, j in zip(self.rankings, self.judgments))
        return self._counts
