r"""Reciprocal rank and mean reciprocal rank (MRR).

.. math::

    RR = \frac{1}{\mathrm{rank}_1} \qquad \mathrm{MRR} = \frac{1}{Q}\sum_{q=1}^{Q} \frac{1}{\mathrm{rank}_q}

where :math:`\mathrm{rank}_q` is the rank of the first relevant item for query q. Everything
after the first relevant item is ignored. Conventions as trec_eval ``recip_rank``: no relevant
item in the ranking (or in the top K, for RR@K) gives 0, and such queries still count in the mean.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from irlab.data.columns import JudgedRankings, divide
from irlab.data.judgments import DEFAULT_RELEVANCE_LEVEL, check_relevance_level, grade_of, is_relevant
from irlab.data.rankings import check_cutoff, check_ranking
from irlab.explain.breakdown import Breakdown, Column, explain_mean, latex_measure, measure_name
from irlab.explain.formula import Expr, Frac, Num
from irlab.metrics.teaching import Teaching

RankedQueries = Mapping[str, tuple[Sequence[str], Mapping[str, int]]]
"""Several queries: query name -> (ranking, judgments)."""


def explain_reciprocal_rank(ranking: Sequence[str], judgments: Mapping[str, int], k: int | None = None, *,
                            relevance_level: int = DEFAULT_RELEVANCE_LEVEL) -> Breakdown:
    r"""Reciprocal rank: one over the rank of the first relevant item.

    .. math:: RR = \frac{1}{\mathrm{rank}_{\text{first relevant}}}

    Conventions: 0 when no relevant item is ranked; with a cutoff ``k`` (RR@K, as MS MARCO's
    MRR@10) only the top K count. Rows cover ranks 1..K (or the whole ranking) and say which
    rank counts and which are ignored.

    Example (first relevant item at rank 2): :math:`RR = \frac{1}{2} = 0.5`.

    >>> explain_reciprocal_rank(list("12345678"), {"2": 1, "4": 1}).plugged_latex
    '\\mathrm{RR} = \\frac{1}{2} = 0.5'
    >>> reciprocal_rank(list("12345678"), {"2": 1}, k=1)
    0.0
    """
    ranking = check_ranking(ranking)
    k = check_cutoff(k)
    relevance_level = check_relevance_level(relevance_level)
    depth = len(ranking) if k is None else min(k, len(ranking))
    first = None
    rows = []
    for rank, item in enumerate(ranking[:depth], start=1):
        relevant = is_relevant(grade_of(judgments, item), relevance_level)
        if relevant and first is None:
            first, role = rank, "first relevant: counts"
        elif first is None:
            role = "before the first relevant"
        else:
            role = "ignored (after the first relevant)"
        rows.append({"rank": rank, "item": item, "grade": grade_of(judgments, item), "relevant": relevant,
                     "role": role})
    plugged: Expr = Frac(Num(1), Num(first)) if first else Num(0)
    notes = () if first else (("No relevant item is ranked" + ("" if k is None else f" in the top {k}")
                               + ": the reciprocal rank is defined as 0 (trec_eval)."),)
    kk = None if k is None else "K"
    symbolic = rf"{latex_measure('RR', kk)} = \frac{{1}}{{\mathrm{{rank}}_{{\text{{first relevant}}}}}}"
    return Breakdown(measure=measure_name("RR", k), value=float(plugged.value()), lhs=latex_measure("RR", k),
                     symbolic=symbolic, symbolic_text="RR = 1 / rank of the first relevant item",
                     plugged=plugged, rows=tuple(rows),
                     columns=(Column("rank", "rank"), Column("item", "item"), Column("grade", "grade"),
                              Column("relevant", "relevant"), Column("role", "role")),
                     notes=notes)


def reciprocal_rank(ranking: Sequence[str], judgments: Mapping[str, int], k: int | None = None, *,
                    relevance_level: int = DEFAULT_RELEVANCE_LEVEL) -> float:
    """The value of :func:`explain_reciprocal_rank`.

    >>> reciprocal_rank(list("12345678"), {"5": 1, "8": 1})
    0.2
    """
    return explain_reciprocal_rank(ranking, judgments, k, relevance_level=relevance_level).value


def explain_mean_reciprocal_rank(queries: RankedQueries, k: int | None = None, *,
                                 relevance_level: int = DEFAULT_RELEVANCE_LEVEL) -> Breakdown:
    r"""MRR: the mean of the queries' reciprocal ranks.

    .. math:: \mathrm{MRR} = \frac{1}{Q}\sum_{q=1}^{Q}\frac{1}{\mathrm{rank}_q}

    Conventions: every query counts, including those without a relevant item (RR 0); no queries
    gives 0. Example (the three walkthrough queries, first hits at ranks 2, 1, 5):
    :math:`\frac{1}{3}(\frac{1}{2} + \frac{1}{1} + \frac{1}{5}) \approx 0.5667`.

    >>> queries = {"cat in a box": (list("12345678"), {"2": 1}), "white cat": (list("12345678"), {"1": 1}),
    ...            "dark cat": (list("12345678"), {"5": 1})}
    >>> round(mean_reciprocal_rank(queries), 4)
    0.5667
    """
    parts = {name: explain_reciprocal_rank(ranking, judgments, k, relevance_level=relevance_level)
             for name, (ranking, judgments) in queries.items()}
    kk = None if k is None else "K"
    symbolic = rf"{latex_measure('MRR', kk)} = \frac{{1}}{{Q}}\sum_{{q=1}}^{{Q}} \frac{{1}}{{\mathrm{{rank}}_q}}"
    return explain_mean(parts, measure=measure_name("MRR", k), lhs=latex_measure("MRR", k), symbolic=symbolic,
                        symbolic_text="MRR = the mean over the Q queries of 1 / rank of the first relevant item",
                        term_label="RR")


def mean_reciprocal_rank(queries: RankedQueries, k: int | None = None, *,
                         relevance_level: int = DEFAULT_RELEVANCE_LEVEL) -> float:
    """The value of :func:`explain_mean_reciprocal_rank`."""
    return explain_mean_reciprocal_rank(queries, k, relevance_level=relevance_level).value


# --- kernel: the same value for every query of a JudgedRankings at once -----------------------------

def reciprocal_rank_kernel(rankings: JudgedRankings, k: int | None = None, *,
                           relevance_level: int = DEFAULT_RELEVANCE_LEVEL) -> np.ndarray:
    """:func:`explain_reciprocal_rank`'s value for every query (trec_eval ``recip_rank``).

    >>> r = JudgedRankings.from_lists(["q1", "q2"], [[0, -1, 1], [0]], [[0, 1], [0]])
    >>> reciprocal_rank_kernel(r).tolist(), reciprocal_rank_kernel(r, 2).tolist()
    ([0.3333333333333333, 0.0], [0.0, 0.0])
    """
    relevant = rankings.relevant(relevance_level)
    if k is not None:
        relevant = relevant & (rankings.row_rank <= k)
    first = rankings.first_rank(relevant)
    return divide(np.ones(len(first)), first)


# --- how exercises teach it (irlab.metrics.teaching) ----------------------------------------------------------------

def _reciprocal_rank_code(measure, rel: int) -> str:
    return ("top = ranking if k is None else ranking[:k]\n"
            "for rank, doc in enumerate(top, start=1):\n"
            f"    if ground_truth.get(doc, 0) >= {rel}:\n"
            "        return 1 / rank\n"
            "return 0.0")


RECIPROCAL_RANK_TEACHING = Teaching(
    "reciprocal_rank", "Computes the reciprocal rank: 1 / the rank of the first relevant document (0 if none).",
    "RR@k", _reciprocal_rank_code, quiz_k=False, examples=("RR", "RR@2", "RR(rel=2)"))
