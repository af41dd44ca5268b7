r"""Yet another average precision (trec_eval's ``yaap``): Robertson's smoothed, log-odds form of AP.

.. math::

    S = \sum_{k=1}^{N} P@k \cdot rel_k \qquad
    \mathrm{YAAP} = \ln \frac{1 + S}{1 + R - S}

:math:`S` is AP's numerator (the precision at each relevant rank, summed over the whole ranking)
and :math:`R` the number of relevant documents, retrieved or not, so :math:`\mathrm{AP} = S / R`.
Where AP lives in [0, 1] and its mean is ruled by the topics near 0, YAAP is a log-odds: a topic
with AP 0 scores :math:`-\ln(1 + R)` rather than a flat 0, one with AP 1 scores :math:`\ln(1 + R)`,
and averaging over topics treats a gain from 0.01 to 0.02 like one from 0.5 to 0.67 (S. Robertson,
"On Smoothing Average Precision", ECIR 2012, LNCS 7224, pp. 158-169). It grows with AP on one
topic (monotonic), can be negative, and is averaged over topics with the plain mean (trec_eval).
Binary relevance: a document is relevant from the relevance level up (trec_eval ``-l``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np

from irlab.data.columns import JudgedRankings
from irlab.data.judgments import DEFAULT_RELEVANCE_LEVEL, check_relevance_level, grade_of, is_relevant, num_relevant
from irlab.data.rankings import check_ranking
from irlab.explain.breakdown import Breakdown, Column
from irlab.explain.formula import Add, Frac, Ln, Num, Sub
from irlab.metrics.average_precision import precision_terms


def explain_yaap(ranking: Sequence[str], judgments: Mapping[str, int], *,
                 relevance_level: int = DEFAULT_RELEVANCE_LEVEL) -> Breakdown:
    r"""YAAP: the log-odds of the precision sum :math:`S` against what is left of :math:`R`.

    .. math:: \mathrm{YAAP} = \ln \frac{1 + S}{1 + R - S}, \quad S = \sum_{k=1}^{N} P@k \cdot rel_k

    Conventions (trec_eval 10.0's ``yaap``): the whole ranking (no cutoff); :math:`S` adds the
    terms rank by rank; the denominator is computed as :math:`(1 + R) - S`; the natural logarithm.
    A query without relevant documents scores :math:`\ln 1 = 0`. Rows hold rank, item,
    :math:`rel_k`, P@k and the running sum :math:`S`.

    Example (relevant at ranks 2, 4, 5, 7 of 8, R = 4): :math:`S = \frac{1}{2} + \frac{2}{4} +
    \frac{3}{5} + \frac{4}{7} \approx 2.1714`, so YAAP :math:`= \ln \frac{3.1714}{2.8286} \approx 0.1144`
    (AP is 0.5429).

    >>> b = explain_yaap(list("12345678"), {"2": 1, "4": 1, "5": 1, "7": 1})
    >>> print(b.plugged_latex)
    \mathrm{YAAP} \approx \ln\left(\frac{1 + 2.1714}{1 + 4 - 2.1714}\right) \approx 0.1144
    >>> round(yaap(list("123"), {"9": 1}), 4)  # nothing relevant retrieved: -ln(1 + R)
    -0.6931
    """
    ranking = check_ranking(ranking)
    relevance_level = check_relevance_level(relevance_level)
    rows, hits, total = [], 0, 0.0
    for rank, item in enumerate(ranking, start=1):
        rel = int(is_relevant(grade_of(judgments, item), relevance_level))
        hits += rel
        if rel:
            total += hits / rank
        rows.append({"rank": rank, "item": item, "grade": grade_of(judgments, item), "rel": rel,
                     "precision": hits / rank, "running_sum": total})
    r = num_relevant(judgments, relevance_level)
    plugged = Ln(Frac(Add(Num(1), Num(total)), Sub(Add(Num(1), Num(r)), Num(total))))
    notes = ["S is the sum of the precision at each relevant rank (AP's numerator: AP = S / R)."]
    if not r:
        notes.append("The query has no relevant document: S = R = 0 and YAAP = ln 1 = 0.")
    return Breakdown(
        measure="YAAP", value=float(plugged.value()), lhs=r"\mathrm{YAAP}",
        symbolic=r"\mathrm{YAAP} = \ln\left(\frac{1 + S}{1 + R - S}\right), \quad S = \sum_{k=1}^{N} P@k \cdot rel_k",
        symbolic_text="YAAP = ln((1 + S) / (1 + R - S)), where S is the sum over the relevant ranks of the precision "
                      "there and R the number of relevant documents",
        plugged=plugged, rows=tuple(rows),
        columns=(Column("rank", "k"), Column("item", "item"), Column("rel", "rel_k", "1 if relevant, else 0"),
                 Column("precision", "P@k", "relevant in the top k / k"),
                 Column("running_sum", "S so far", "the precision at the relevant ranks so far, summed")),
        notes=tuple(notes))


def yaap(ranking: Sequence[str], judgments: Mapping[str, int], *,
         relevance_level: int = DEFAULT_RELEVANCE_LEVEL) -> float:
    """The value of :func:`explain_yaap`.

    >>> round(yaap(list("12345678"), {"1": 1, "2": 1}), 4)
    1.0986
    """
    return explain_yaap(ranking, judgments, relevance_level=relevance_level).value


def yaap_kernel(rankings: JudgedRankings, *, relevance_level: int = DEFAULT_RELEVANCE_LEVEL) -> np.ndarray:
    """:func:`explain_yaap`'s value for every query (trec_eval ``yaap``).

    The logarithm is Python's ``math.log`` (the C library's, as trec_eval's), one query at a
    time: numpy's vectorised ``log`` may differ from it in the last bit.

    >>> r = JudgedRankings.from_lists(["q", "none"], [[0, 1, 0, 1, 1, 0, 1, 0], [0]], [[1, 1, 1, 1], [0]])
    >>> yaap_kernel(r).round(4).tolist()
    [0.1144, 0.0]
    """
    total = rankings.prefix_at(precision_terms(rankings, relevance_level), None)
    relevant = rankings.num_rel(relevance_level).astype(np.float64)
    return np.array([math.log((1.0 + s) / ((1.0 + r) - s)) for s, r in zip(total.tolist(), relevant.tolist())],
                    dtype=np.float64)
