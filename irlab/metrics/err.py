r"""Expected reciprocal rank (Chapelle, Metzler, Zhang and Grinspan, 2009): a cascade user.

The user reads down the ranking; a document of grade g satisfies them, and ends the search, with
probability :math:`R(g)`; otherwise they read on. ERR is the expected value of 1 / the rank where
they stop (0 when they never stop):

.. math::

    \mathrm{ERR@}K = \sum_{r=1}^{K} \frac{1}{r} \, R_r \prod_{i=1}^{r-1} (1 - R_i) \qquad
    R(g) = \frac{2^{g} - 1}{2^{g_{\max}}}

The product is the chance of reaching rank r unsatisfied. The grade mapping is a named convention
(:mod:`irlab.metrics.conventions`, ``err_grades``): ``gdeval`` (the default) fixes
:math:`g_{\max} = 4` as gdeval.pl, the TREC Web track's script, does, and ir_measures' ``ERR``
computes it with gdeval; ``query-max`` takes the query's top judged grade, so that a query's best
grade satisfies with probability :math:`1 - 2^{-g_{\max}}` and binary judgments give
:math:`R(1) = 1/2`. Negative grades (pooled, not judged) and unjudged documents have
:math:`R = 0`; the terms are added rank by rank and the chance of reaching the next rank is
multiplied up rank by rank, as gdeval does. A query without relevant documents scores 0 and counts
in the mean (trec_eval's convention; gdeval leaves such a query out). With ``gdeval``, a grade
above 4 is refused, as gdeval refuses it: its :math:`R` would exceed 1.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

import numpy as np

from irlab.data.columns import NOT_RANKED, JudgedRankings, segment_accumulate
from irlab.data.judgments import grade_of
from irlab.data.rankings import check_cutoff, check_ranking
from irlab.errors import ValidationError
from irlab.explain.breakdown import Breakdown, Column, latex_measure, measure_name
from irlab.explain.formula import Add, Frac, Mul, Num
from irlab.metrics.conventions import check_variant
from irlab.metrics.teaching import Mistake, Teaching, with_options

GDEVAL_TOP_GRADE = 4
"""gdeval.pl's ``$MAX_JUDGMENT``: the top grade of the ``gdeval`` mapping."""


def top_grade(judgments: Mapping[str, int], grades: str) -> int:
    r""":math:`g_{\max}` of a query: 4 with ``gdeval``, its highest judged grade (0 if none) with ``query-max``.

    >>> top_grade({"a": 1, "b": 0}, "gdeval"), top_grade({"a": 1, "b": 0}, "query-max")
    (4, 1)
    """
    if check_variant("err_grades", grades) == "gdeval":
        return GDEVAL_TOP_GRADE
    return max((grade for grade in judgments.values() if grade >= 0), default=0)


def satisfaction(grade: int | None, top: int) -> float:
    r""":math:`R(g) = (2^g - 1) / 2^{g_{\max}}`: the chance that a document of this grade satisfies the user (0 for
    an unjudged or negative grade).

    >>> satisfaction(2, 4), satisfaction(1, 1), satisfaction(None, 4)
    (0.1875, 0.5, 0.0)
    """
    if grade is None or grade <= 0:
        return 0.0
    return (2.0 ** grade - 1.0) / 2.0 ** top


def _check_grades(grades: Sequence[int], top: int, mapping: str) -> None:
    if mapping == "gdeval" and any(grade > top for grade in grades):
        raise ValidationError(f"ERR with gdeval's grade mapping reads grades up to {top} (gdeval.pl refuses higher "
                              f"ones, whose chance to satisfy would exceed 1); got grade {max(grades)}: use "
                              "ERR(grades='query-max')")


def explain_err_at_k(ranking: Sequence[str], judgments: Mapping[str, int], k: int | None = None, *,
                     grades: str = "gdeval") -> Breakdown:
    r"""Expected reciprocal rank at K: the expected 1 / (the rank where a cascade user stops).

    .. math:: \mathrm{ERR@}K = \sum_{r=1}^{K} \frac{1}{r} \, R_r \prod_{i=1}^{r-1} (1 - R_i)

    Example (gdeval's mapping, grades 0, 1, 2): :math:`R = 0, 1/16, 3/16`; the user reaches rank 2
    surely and rank 3 with chance 15/16, so ERR@3 = 0.0625 / 2 + 0.1875 · 0.9375 / 3 = 0.08984375.

    >>> explain_err_at_k(["a", "b", "c"], {"a": 0, "b": 1, "c": 2}, 3).value
    0.08984375
    >>> explain_err_at_k(["a", "b"], {"b": 1}, grades="query-max").value  # binary: R(1) = 1/2
    0.25
    """
    ranking = [item for item in check_ranking(ranking) if item != NOT_RANKED]
    k = check_cutoff(k)
    top = top_grade(judgments, grades)
    shown = ranking if k is None else ranking[:k]
    _check_grades([judgments.get(item, 0) for item in ranking], top, grades)
    rows, terms, reach = [], [], 1.0
    for rank, item in enumerate(shown, start=1):
        stop = satisfaction(judgments.get(item), top)
        stopped = stop * reach
        if stop > 0:
            terms.append(Frac(Mul(Num(stop), Num(reach)), Num(rank)))
        rows.append({"rank": rank, "item": item, "grade": grade_of(judgments, item), "satisfies": stop,
                     "reach": reach, "stop": stopped, "term": stopped / rank})
        reach *= 1 - stop
    plugged = Add(terms)
    name = measure_name("ERR", k)
    mapping = (r"R(g) = \frac{2^{g} - 1}{2^{4}}" if grades == "gdeval" else
               rf"R(g) = \frac{{2^{{g}} - 1}}{{2^{{{top}}}}}")
    notes = (f"Grade mapping: R(g) = (2^g - 1) / 2^{top}, the top grade "
             + ("fixed at 4 as gdeval.pl and ir_measures do." if grades == "gdeval" else "of this query."),)
    return Breakdown(
        measure=name, value=float(plugged.value()), lhs=latex_measure("ERR", k if k is not None else "N"),
        symbolic=(rf"{latex_measure('ERR', 'K' if k is not None else 'N')} = \sum_{{r=1}}^{{{'K' if k else 'N'}}} "
                  rf"\frac{{R_r \prod_{{i<r}} (1 - R_i)}}{{r}}, \quad {mapping}"),
        symbolic_text=f"{name} = the sum over ranks r of R_r times the chance of reaching rank r unsatisfied "
                      f"(the product of 1 - R_i over the ranks above), divided by r; R(g) = (2^g - 1) / 2^{top}",
        plugged=plugged, rows=tuple(rows), notes=notes,
        columns=(Column("rank", "r"), Column("item", "document"), Column("grade", "grade"),
                 Column("satisfies", "R_r", "the chance this document satisfies the user"),
                 Column("reach", "reach r", "the chance the user reaches rank r: the product of 1 - R_i above"),
                 Column("stop", "stops here", "R_r · reach: the chance the user stops at rank r"),
                 Column("term", "÷ r", "the stop's share of ERR: stops here / r")))


def segment_product(values: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """Running products of ``values`` restarting at every segment, multiplied strictly left to right
    (:func:`irlab.data.columns.segment_accumulate`, padded with 1.0 where sums are padded with 0.0).

    >>> segment_product(np.array([0.5, 0.5, 0.25, 2.0]), np.array([0, 3, 3, 4])).tolist()
    [0.5, 0.25, 0.0625, 2.0]
    """
    return segment_accumulate(values, offsets, np.multiply, 1.0)


def err_kernel(rankings: JudgedRankings, k: int | None = None, *, grades: str = "gdeval") -> np.ndarray:
    """:func:`explain_err_at_k`'s value for every query, with the same multiplications and additions in rank order."""
    check_variant("err_grades", grades)
    if grades == "gdeval":
        tops = np.full(len(rankings), GDEVAL_TOP_GRADE)
        _check_grades(rankings.grades[rankings.grades > GDEVAL_TOP_GRADE].tolist(), GDEVAL_TOP_GRADE, grades)
    else:
        tops = np.array([int(np.flatnonzero(row)[-1]) if row.any() else 0 for row in rankings.level_counts > 0])
    positive = rankings.grades > 0
    stop = np.where(positive, (np.exp2(np.where(positive, rankings.grades, 0).astype(np.float64)) - 1.0)
                    / np.exp2(tops[rankings.row_query].astype(np.float64)), 0.0)
    through = segment_product(1.0 - stop, rankings.offsets)
    first = np.zeros(len(stop), dtype=bool)
    first[rankings.offsets[:-1][rankings.lengths > 0]] = True
    reach = np.where(first, 1.0, np.concatenate([[1.0], through[:-1]]))
    terms = np.where(stop > 0, stop * reach / rankings.row_rank, 0.0)
    total = rankings.prefix_at(rankings.prefix(terms), k)
    return np.where(rankings.missing, 0.0, total)


# --- how exercises teach it (irlab.metrics.teaching) ----------------------------------------------------------------

def _err_code(measure, rel: int) -> str:
    if measure.options.get("grades", "gdeval") == "gdeval":
        top = "top = 4  # gdeval's grade mapping: the top grade is fixed at 4"
    else:
        top = "top = max([g for g in ground_truth.values() if g >= 0], default=0)  # the query's top grade"
    return (f"{top}\n"
            "score, reach = 0.0, 1.0  # reach: the chance the user gets this far unsatisfied\n"
            "for rank, doc in enumerate(ranking if k is None else ranking[:k], start=1):\n"
            "    grade = ground_truth.get(doc, 0)\n"
            "    satisfies = (2 ** grade - 1) / 2 ** top if grade > 0 else 0.0\n"
            "    score += satisfies * reach / rank\n"
            "    reach *= 1 - satisfies\n"
            "return score")


def _query_max_for_gdeval(m):
    return with_options(m, grades="query-max") if m.options.get("grades", "gdeval") == "gdeval" else None


def _gdeval_for_query_max(m):
    return with_options(m, grades="gdeval") if m.options.get("grades") == "query-max" else None


def _reciprocal_rank_for_err(m):
    return replace(m, family="RR", options={}, relevance_level=None) if m.family == "ERR" else None


ERR_TEACHING = Teaching(
    "expected_reciprocal_rank",
    "Computes ERR@k: the expected 1 / (the rank where a user who stops at each document with probability "
    "R(grade) = (2^grade - 1) / 2^top stops), 0 if they never stop.", "ERR@k", _err_code,
    mistakes=(Mistake("err-top-grade-of-query", "ERR with the query's top grade instead of 4",
                      "You divided 2^grade - 1 by 2 to the power of the query's top grade, but this question uses "
                      "gdeval's mapping, whose top grade is fixed at 4: R(g) = (2^g - 1) / 16.", _query_max_for_gdeval),
              Mistake("err-top-grade-4", "ERR with the top grade 4 instead of the query's",
                      "You divided 2^grade - 1 by 2^4 = 16 (gdeval's mapping), but this question divides by 2 to the "
                      "power of the query's top grade.", _gdeval_for_query_max),
              Mistake("err-as-reciprocal-rank", "reciprocal rank instead of ERR",
                      "You stopped the user at the first relevant document for sure, which is the reciprocal rank; "
                      "ERR lets each document satisfy the user only with probability R(grade), so the user may read "
                      "on.", _reciprocal_rank_for_err)),
    examples=("ERR@5", "ERR", "ERR(grades='query-max')@3", "ERR(grades='query-max')"))
