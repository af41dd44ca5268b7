r"""Measures averaged over judgment groups (trec_eval's ``-R qrels_jg``): one topic judged by several users.

A ``qrels_jg`` file is a qrels file whose second column names a **judgment group** (JG): the
judgments of one user (or one assessor, or one session) for the topic. Users disagree, so a
measure is computed against each JG's judgments and averaged over the :math:`G` groups of the
topic, then over topics as usual:

.. math::

    \mathrm{map\_avgjg} = \frac{1}{G}\sum_{g=1}^{G} \mathrm{AP}_g \qquad
    \mathrm{P\_avgjg@}K = \frac{1}{G}\sum_{g=1}^{G} \mathrm{P@}K_g \qquad
    \mathrm{Rprec\_mult\_avgjg}_m = \frac{1}{G}\sum_{g=1}^{G} \mathrm{P@}\lceil mR_g\rceil_g

Each :math:`\mathrm{AP}_g`, :math:`\mathrm{P@}K_g` and R-precision at a multiple of :math:`R_g` is
the ordinary measure (:mod:`irlab.metrics.average_precision`, :mod:`irlab.metrics.precision_recall`)
with the JG's judgments alone, its own :math:`R_g` included. Conventions (trec_eval 10.0): groups
are taken in id order (byte order) and their values added one after the other, then divided by
:math:`G` (not divided when :math:`G = 1`); ``-J`` drops the documents a group has not judged from
that group's ranking; ``-l`` is the relevance level in every group.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np

from irlab.data.columns import JudgedRankings
from irlab.data.judgments import DEFAULT_RELEVANCE_LEVEL
from irlab.errors import ValidationError
from irlab.explain.breakdown import Breakdown, Column
from irlab.explain.formula import Add, Expr, Normalised, Num
from irlab.metrics.average_precision import average_precision_kernel, explain_average_precision
from irlab.metrics.precision_recall import (
    explain_precision_at_k,
    explain_r_precision,
    precision_kernel,
    r_precision_kernel,
)

Groups = Mapping[str, Mapping[str, int]]
"""One query's judgments by group: ``{group: {doc: grade}}``."""


class GroupedRankings:
    """Each evaluated query's ranking judged by each of its groups: the kernels' input.

    ``groups[g]`` holds the rankings of the queries that have a ``g``-th group (their groups in id
    order), as :class:`~irlab.data.columns.JudgedRankings`, with each one's position in ``queries``;
    ``counts`` the number of groups of each query.

    >>> one = JudgedRankings.from_lists(["q1", "q2"], [[1, 0], [0]], [[1, 1], [0, 1]])
    >>> two = JudgedRankings.from_lists(["q1"], [[0, 1]], [[1, 1]])
    >>> grouped = GroupedRankings(["q1", "q2"], [(one, np.array([0, 1])), (two, np.array([0]))])
    >>> grouped.counts.tolist(), ap_avgjg_kernel(grouped).round(4).tolist()
    ([2, 1], [0.375, 0.0])
    """

    def __init__(self, queries: Sequence[str], groups: Sequence[tuple[JudgedRankings, np.ndarray]]) -> None:
        self.queries = tuple(queries)
        self.groups = tuple((rankings, np.asarray(at, dtype=np.int64)) for rankings, at in groups)
        self.counts = np.zeros(len(self.queries), dtype=np.int64)
        for rankings, at in self.groups:
            if len(rankings) != len(at):
                raise ValidationError("one position per ranking of a group")
            self.counts[at] += 1

    def __len__(self) -> int:
        return len(self.queries)


def _averaged(grouped: GroupedRankings, each: Callable[[JudgedRankings], np.ndarray]) -> np.ndarray:
    """The groups' values added one group after the other, divided by the number of groups when above 1."""
    total = np.zeros(len(grouped), dtype=np.float64)
    for rankings, at in grouped.groups:
        total[at] += each(rankings)
    return np.where(grouped.counts > 1, total / np.maximum(grouped.counts, 1), total)


def _explained(ranking: Sequence[str] | Mapping[str, Sequence[str]], groups: Groups, name: str, lhs: str,
               explain_one: Callable[[Sequence[str], Mapping[str, int]], Breakdown], words: str) -> Breakdown:
    if not groups:
        raise ValidationError("a query judged by judgment groups needs at least one group")
    ordered = sorted(groups, key=str.encode)
    parts = {g: explain_one(ranking[g] if isinstance(ranking, Mapping) else ranking, groups[g]) for g in ordered}
    total = Add([Num(part.value) for part in parts.values()])
    plugged: Expr = Normalised(total, Num(len(parts))) if len(parts) > 1 else total
    rows = tuple({"group": g, "value": part.value} for g, part in parts.items())
    return Breakdown(measure=name, value=float(plugged.value()), lhs=lhs,
                     symbolic=rf"{lhs} = \frac{{1}}{{G}} \sum_{{g=1}}^{{G}} {words}_g",
                     symbolic_text=f"{name} = the mean over the G judgment groups of each group's {words}",
                     plugged=plugged, rows=rows,
                     columns=(Column("group", "JG", "the judgment group"), Column("value", words)), parts=parts)


def explain_ap_avgjg(ranking: Sequence[str] | Mapping[str, Sequence[str]], groups: Groups, *,
                     relevance_level: int = DEFAULT_RELEVANCE_LEVEL) -> Breakdown:
    r"""map_avgjg: AP against each judgment group's judgments, averaged over the groups.

    .. math:: \mathrm{map\_avgjg} = \frac{1}{G}\sum_{g=1}^{G} \mathrm{AP}_g

    ``ranking`` is the run's ranking of the query, or one per group (after ``-J``, which drops what a
    group has not judged). Conventions: see the module (groups in id order, :math:`G = 1` not divided).

    Example: user 1 finds a and c relevant, user 2 only b; the run ranks a, b, c.
    :math:`\frac{1}{2}(\frac{1 + 2/3}{2} + \frac{1/2}{1}) \approx 0.6667`.

    >>> b = explain_ap_avgjg(["a", "b", "c"], {"user1": {"a": 1, "c": 1}, "user2": {"b": 1, "a": 0}})
    >>> [round(row["value"], 4) for row in b.rows], round(b.value, 4)
    ([0.8333, 0.5], 0.6667)
    """
    return _explained(ranking, groups, "map_avgjg", r"\mathrm{map\_avgjg}",
                      lambda r, j: explain_average_precision(r, j, relevance_level=relevance_level), "AP")


def explain_precision_avgjg(ranking: Sequence[str] | Mapping[str, Sequence[str]], groups: Groups, k: int, *,
                            relevance_level: int = DEFAULT_RELEVANCE_LEVEL) -> Breakdown:
    r"""P_avgjg_k: Precision@K against each judgment group's judgments, averaged over the groups.

    .. math:: \mathrm{P\_avgjg@}K = \frac{1}{G}\sum_{g=1}^{G} \mathrm{P@}K_g

    Conventions: P@K divides by K, also past the end of the ranking (trec_eval's ``P``); see the module.

    >>> round(explain_precision_avgjg(["a", "b", "c"], {"u1": {"a": 1, "c": 1}, "u2": {"b": 1}}, 2).value, 4)
    0.5
    """
    return _explained(ranking, groups, f"P_avgjg_{k}", rf"\mathrm{{P\_avgjg@}}{k}",
                      lambda r, j: explain_precision_at_k(r, j, k, relevance_level=relevance_level), "P@K")


def explain_rprec_mult_avgjg(ranking: Sequence[str] | Mapping[str, Sequence[str]], groups: Groups, *,
                             relevance_level: int = DEFAULT_RELEVANCE_LEVEL, mult: float = 1.0) -> Breakdown:
    r"""Rprec_mult_avgjg: precision at mult × R of each judgment group (its own R), averaged over the groups.

    .. math:: \frac{1}{G}\sum_{g=1}^{G} \mathrm{P@}\lceil m R_g \rceil_g

    The rank is trec_eval's ``(long)(m R_g + 0.9)`` (:func:`irlab.metrics.precision_recall.r_cutoff`).

    >>> round(explain_rprec_mult_avgjg(["a", "b", "c"], {"u1": {"a": 1, "c": 1}, "u2": {"b": 1}}, mult=1.0).value, 4)
    0.25
    """
    return _explained(ranking, groups, f"Rprec_mult_avgjg_{mult:.2f}", r"\mathrm{Rprec\_mult\_avgjg}",
                      lambda r, j: explain_r_precision(r, j, relevance_level=relevance_level, mult=mult),
                      "R-precision")


def ap_avgjg_kernel(grouped: GroupedRankings, *, relevance_level: int = DEFAULT_RELEVANCE_LEVEL) -> np.ndarray:
    """:func:`explain_ap_avgjg`'s value for every query (trec_eval ``map_avgjg``)."""
    return _averaged(grouped, lambda r: average_precision_kernel(r, None, relevance_level=relevance_level))


def precision_avgjg_kernel(grouped: GroupedRankings, k: int, *,
                           relevance_level: int = DEFAULT_RELEVANCE_LEVEL) -> np.ndarray:
    """:func:`explain_precision_avgjg`'s value for every query (trec_eval ``P_avgjg_k``)."""
    return _averaged(grouped, lambda r: precision_kernel(r, k, relevance_level=relevance_level))


def rprec_mult_avgjg_kernel(grouped: GroupedRankings, *, relevance_level: int = DEFAULT_RELEVANCE_LEVEL,
                            mult: float = 1.0) -> np.ndarray:
    """:func:`explain_rprec_mult_avgjg`'s value for every query (trec_eval ``Rprec_mult_avgjg_m``)."""
    return _averaged(grouped, lambda r: r_precision_kernel(r, relevance_level=relevance_level, mult=mult))
