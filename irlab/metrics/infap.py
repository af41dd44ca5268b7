r"""infAP: inferred average precision, AP estimated from a random sample of judgments (Yilmaz and Aslam, 2006).

When only a sample of the pool is judged, the precision above a relevant document is
estimated from the judged documents above it:

.. math::

    \mathrm{infAP} = \frac{1}{R} \sum_{k \text{ relevant}} E[P@k], \qquad
    E[P@k] = \frac{1}{k} + \frac{k - 1}{k} \cdot \frac{|\mathrm{pool}_{<k}|}{k - 1}
             \cdot \frac{rel_{<k} + \epsilon}{rel_{<k} + nonrel_{<k} + 2\epsilon}

with :math:`E[P@1] = 1`. Above rank k: :math:`rel_{<k}` relevant and :math:`nonrel_{<k}` judged
non-relevant documents, and :math:`|\mathrm{pool}_{<k}|` documents in the pool (those two plus
the pooled but unjudged ones, qrels grade < 0). :math:`\epsilon = 0.00001` as in trec_eval
``infAP``. With complete judgments infAP equals AP. A query without relevant documents scores 0.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from irlab.data.columns import UNJUDGED, JudgedRankings, divide
from irlab.data.judgments import DEFAULT_RELEVANCE_LEVEL, check_relevance_level, num_relevant
from irlab.data.rankings import check_ranking
from irlab.explain.breakdown import Breakdown, Column
from irlab.explain.formula import Add, Expr, Frac, Mul, Normalised, Num
from irlab.metrics.bpref import judged_status

EPSILON = 0.00001
"""trec_eval's INFAP_EPSILON: keeps the estimate defined when nothing above is judged."""


def expected_precision(rank: int, relevant_above: int, nonrelevant_above: int, pooled_above: int) -> Expr:
    r""":math:`E[P@k]` for a relevant document at rank k, in trec_eval's arithmetic order.

    >>> expected_precision(1, 0, 0, 0).value(), round(expected_precision(3, 1, 1, 2).value(), 4)
    (1, 0.6667)
    """
    if rank == 1:
        return Num(1)
    return Add(Frac(Num(1), Num(rank)),
               Mul(Frac(Num(rank - 1), Num(rank)), Frac(Num(pooled_above), Num(rank - 1)),
                   Frac(Add(Num(relevant_above), Num(EPSILON)), Add(Num(relevant_above + nonrelevant_above),
                                                                    Num(2 * EPSILON)))))


def explain_infap(ranking: Sequence[str], judgments: Mapping[str, int], *,
                  relevance_level: int = DEFAULT_RELEVANCE_LEVEL) -> Breakdown:
    r"""infAP: the mean over relevant documents of the estimated precision above each.

    .. math:: \mathrm{infAP} = \frac{1}{R} \sum_{k \text{ relevant}} E[P@k]

    See the module for :math:`E[P@k]` and the conventions. Rows: every rank, its status, the
    counts above it and, at relevant ranks, the estimate.

    Example (everything judged, relevant at ranks 1 and 3 of 3, R = 2): the estimate is the
    precision, so infAP is AP, :math:`\frac{1}{2}(1 + 0.6667) \approx 0.8333`.

    >>> round(infap(["a", "b", "c"], {"a": 1, "b": 0, "c": 1}), 4)
    0.8333
    """
    ranking = check_ranking(ranking)
    relevance_level = check_relevance_level(relevance_level)
    r = num_relevant(judgments, relevance_level)
    rows, terms = [], []
    relevant = nonrelevant = pooled = 0
    for rank, item in enumerate(ranking, start=1):
        status = judged_status(judgments, item, relevance_level)
        row = {"rank": rank, "item": item, "status": status, "relevant_above": relevant,
               "nonrelevant_above": nonrelevant, "pooled_above": relevant + nonrelevant + pooled, "term": None}
        if status == "relevant":
            term = expected_precision(rank, relevant, nonrelevant, relevant + nonrelevant + pooled)
            terms.append(term)
            row["term"] = term.value()
            relevant += 1
        elif status == "non-relevant":
            nonrelevant += 1
        elif status == "pooled":
            pooled += 1
        rows.append(row)
    plugged: Expr = Normalised(Add(terms), Num(r)) if r else Num(0)
    notes = [] if r else ["The query has no relevant document: infAP is defined as 0 (trec_eval)."]
    return Breakdown(
        measure="infAP", value=float(plugged.value()), lhs=r"\mathrm{infAP}",
        symbolic=r"\mathrm{infAP} = \frac{1}{R} \sum_{k \text{ relevant}} E[P@k]",
        symbolic_text="infAP = (sum over the retrieved relevant documents of the estimated precision above them) / R",
        plugged=plugged, rows=tuple(rows),
        columns=(Column("rank", "k"), Column("item", "document"), Column("status", "judged as"),
                 Column("relevant_above", "rel<k"), Column("nonrelevant_above", "nonrel<k"),
                 Column("pooled_above", "pool<k", "documents above in the pool, judged or not"),
                 Column("term", "E[P@k]")),
        notes=tuple(notes))


def infap(ranking: Sequence[str], judgments: Mapping[str, int], *,
          relevance_level: int = DEFAULT_RELEVANCE_LEVEL) -> float:
    """The value of :func:`explain_infap`."""
    return explain_infap(ranking, judgments, relevance_level=relevance_level).value


def infap_kernel(rankings: JudgedRankings, *, relevance_level: int = DEFAULT_RELEVANCE_LEVEL) -> np.ndarray:
    """:func:`explain_infap`'s value for every query (trec_eval ``infAP``).

    >>> r = JudgedRankings.from_lists(["q"], [[1, 0, 1]], [[1, 0, 1]])
    >>> infap_kernel(r).round(4).tolist()
    [0.8333]
    """
    grades = rankings.grades
    relevant = rankings.relevant(relevance_level)
    nonrel = (grades >= 0) & (grades < relevance_level)
    rel_above = rankings.cumulative(relevant, key=("relevant", relevance_level)) - relevant
    nonrel_above = rankings.cumulative(nonrel) - nonrel
    pooled_above = rel_above + nonrel_above + rankings.cumulative(grades == UNJUDGED) - (grades == UNJUDGED)
    k = rankings.row_rank.astype(np.float64)
    j = k - 1.0
    with np.errstate(divide="ignore", invalid="ignore"):
        estimate = 1.0 / k + (j / k) * (pooled_above / j) * ((rel_above + EPSILON) / ((rel_above + nonrel_above)
                                                                                    + 2 * EPSILON))
    terms = np.where(relevant, np.where(rankings.row_rank == 1, 1.0, estimate), 0.0)
    return divide(rankings.prefix_at(rankings.prefix(terms), None), rankings.num_rel(relevance_level))
