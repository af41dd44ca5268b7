r"""bpref: binary preference, a measure built for incomplete judgments (Buckley and Voorhees, 2004).

.. math::

    \mathrm{bpref} = \frac{1}{R} \sum_{r \text{ relevant, retrieved}} \left(1 - \frac{\min(n_r, R)}{\min(N, R)}\right)

R is the number of relevant judged documents, N the number of judged non-relevant ones, and
:math:`n_r` the number of judged non-relevant documents ranked above relevant document r.
Unjudged documents are skipped, as if they were not retrieved: bpref only compares judged
documents, so it barely moves when judgments are missing. Conventions as trec_eval ``bpref``:
a relevant document with no judged non-relevant one above it adds 1; relevant documents never
retrieved add 0; a query without relevant documents scores 0. Its geometric mean over queries is
trec_eval's ``gm_bpref``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from irlab.data.columns import JudgedRankings, divide
from irlab.data.judgments import DEFAULT_RELEVANCE_LEVEL, check_relevance_level, num_relevant
from irlab.data.rankings import check_ranking
from irlab.explain.breakdown import Breakdown, Column
from irlab.explain.formula import Add, Expr, Frac, Min, Normalised, Num, Sub


def judged_status(judgments: Mapping[str, int], item: str, relevance_level: int) -> str:
    """``"relevant"``, ``"non-relevant"``, ``"unjudged"`` (not in the qrels) or ``"pooled"`` (negative grade).

    >>> [judged_status({"a": 2, "b": 0, "c": -1}, i, 1) for i in "abcd"]
    ['relevant', 'non-relevant', 'pooled', 'unjudged']
    """
    if item not in judgments:
        return "unjudged"
    grade = judgments[item]
    if grade < 0:
        return "pooled"
    return "relevant" if grade >= relevance_level else "non-relevant"


def explain_bpref(ranking: Sequence[str], judgments: Mapping[str, int], *,
                  relevance_level: int = DEFAULT_RELEVANCE_LEVEL) -> Breakdown:
    r"""bpref: how often relevant documents are ranked above judged non-relevant ones.

    .. math:: \mathrm{bpref} = \frac{1}{R} \sum_{r} \left(1 - \frac{\min(n_r, R)}{\min(N, R)}\right)

    See the module for the conventions. Rows: every rank with its status; relevant ranks show
    :math:`n_r` and their term, unjudged ranks are marked skipped.

    Example: relevant a, c, e (R = 3), judged non-relevant b, d (N = 2), ranking a b x c d e
    (x unjudged): :math:`\frac{1}{3}\left(1 + (1 - \frac{1}{2}) + (1 - \frac{2}{2})\right) = 0.5`.

    >>> b = explain_bpref(list("abxcde"), {"a": 1, "b": 0, "c": 1, "d": 0, "e": 1})
    >>> b.value, b.plugged_text
    (0.5, 'bpref = 1/3 * (1 + (1 - min(1, 3) / min(2, 3)) + (1 - min(2, 3) / min(2, 3))) = 0.5')
    """
    ranking = check_ranking(ranking)
    relevance_level = check_relevance_level(relevance_level)
    r = num_relevant(judgments, relevance_level)
    n = sum(1 for grade in judgments.values() if 0 <= grade < relevance_level)
    rows, terms, above = [], [], 0
    for rank, item in enumerate(ranking, start=1):
        status = judged_status(judgments, item, relevance_level)
        row = {"rank": rank, "item": item, "status": status, "nonrel_above": None, "term": None}
        if status == "non-relevant":
            above += 1
        elif status == "relevant":
            term: Expr = Num(1) if above == 0 else Sub(Num(1), Frac(Min(Num(above), Num(r)), Min(Num(n), Num(r))))
            terms.append(term)
            row.update(nonrel_above=above, term=term.value())
        else:
            row["status"] = f"{status} (skipped)"
        rows.append(row)
    plugged: Expr = Normalised(Add(terms), Num(r)) if r else Num(0)
    notes = [] if r else ["The query has no relevant document: bpref is defined as 0 (trec_eval)."]
    if r and len(terms) < r:
        notes.append(f"{r - len(terms)} relevant document(s) were never retrieved: they add 0.")
    return Breakdown(
        measure="bpref", value=float(plugged.value()), lhs=r"\mathrm{bpref}",
        symbolic=r"\mathrm{bpref} = \frac{1}{R} \sum_{r} \left(1 - \frac{\min(n_r, R)}{\min(N, R)}\right)",
        symbolic_text="bpref = (sum over the retrieved relevant documents r of 1 - min(judged non-relevant above r, R)"
                      " / min(N, R)) / R",
        plugged=plugged, rows=tuple(rows),
        columns=(Column("rank", "rank"), Column("item", "document"), Column("status", "judged as"),
                 Column("nonrel_above", "n_r", "judged non-relevant documents above"),
                 Column("term", "term", "1 - min(n_r, R) / min(N, R)")),
        notes=tuple(notes))


def bpref(ranking: Sequence[str], judgments: Mapping[str, int], *,
          relevance_level: int = DEFAULT_RELEVANCE_LEVEL) -> float:
    """The value of :func:`explain_bpref`."""
    return explain_bpref(ranking, judgments, relevance_level=relevance_level).value


def bpref_kernel(rankings: JudgedRankings, *, relevance_level: int = DEFAULT_RELEVANCE_LEVEL) -> np.ndarray:
    """:func:`explain_bpref`'s value for every query (trec_eval ``bpref``).

    >>> r = JudgedRankings.from_lists(["q"], [[1, 0, -1, 1, 0, 1]], [[1, 0, 1, 0, 1]])
    >>> bpref_kernel(r).tolist()
    [0.5]
    """
    grades = rankings.grades
    relevant = rankings.relevant(relevance_level)
    r = rankings.num_rel(relevance_level)
    n = rankings.num_judged_below(relevance_level)
    rows = np.flatnonzero(relevant)  # only relevant rows add a term: work on those alone
    above = rankings.cumulative((grades >= 0) & (grades < relevance_level))[rows]
    query = rankings.row_query[rows]
    share = np.minimum(above, r[query]) / np.maximum(np.minimum(n, r)[query], 1)
    terms = np.zeros(len(grades))
    terms[rows] = np.where(above > 0, 1.0 - share, 1.0)
    return divide(rankings.prefix_at(rankings.prefix(terms), None), r)
