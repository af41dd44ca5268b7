r"""Set measures: the retrieved documents as an unordered set (trec_eval's ``set`` measures).

With :math:`TP` the relevant documents retrieved, :math:`n` the documents retrieved and R the
relevant documents judged:

.. math::

    \mathrm{SetP} = \frac{TP}{n} \qquad \mathrm{SetR} = \frac{TP}{R} \qquad
    \mathrm{SetF}_\beta = \frac{(\beta + 1) \cdot P \cdot R_{set}}{\beta \cdot P + R_{set}} \qquad
    \mathrm{SetAP} = \frac{TP^2}{n \cdot R} \qquad \mathrm{SetRelP} = \frac{TP}{\min(n, R)}

and the utility :math:`p_1 TP + p_2 FP + p_3 FN + p_4 TN` of the contingency table. As trec_eval
(``set_P``, ``set_recall``, ``set_F``, ``set_map``, ``set_relative_P``, ``utility``): a zero
denominator gives 0; ``set_F``'s :math:`\beta` weighs recall against precision the trec_eval way
(:math:`\beta = 1` is F1), and it is 0 when nothing relevant is retrieved; the true negatives of
the utility need the collection size (trec_eval ``-N``), 0 by default. These are the measures of
a system that returns a set, such as a Boolean search.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from irlab.data.columns import NOT_RANKED, JudgedRankings, divide
from irlab.data.judgments import DEFAULT_RELEVANCE_LEVEL, check_relevance_level, grade_of, is_relevant, num_relevant
from irlab.data.rankings import check_ranking
from irlab.errors import ValidationError
from irlab.explain.breakdown import Breakdown, Column
from irlab.explain.formula import Add, Expr, Frac, Min, Mul, Num, format_number

UTILITY = (1.0, -1.0, 0.0, 0.0)
"""trec_eval's default utility coefficients for TP, FP, FN and TN."""


def set_counts(ranking: Sequence[str], judgments: Mapping[str, int], relevance_level: int) -> tuple[int, int, int]:
    """(TP, n, R): relevant retrieved, retrieved, relevant judged. A missing query's placeholder is not retrieved.

    >>> set_counts(["a", "b", "c"], {"a": 1, "c": 0, "d": 2}, 1)
    (1, 3, 2)
    """
    retrieved = [item for item in check_ranking(ranking) if item != NOT_RANKED]
    tp = sum(1 for item in retrieved if is_relevant(grade_of(judgments, item), relevance_level))
    return tp, len(retrieved), num_relevant(judgments, relevance_level)


def _rows(ranking: Sequence[str], judgments: Mapping[str, int], relevance_level: int) -> tuple[dict, ...]:
    return tuple({"rank": rank, "item": item, "grade": grade_of(judgments, item),
                  "relevant": is_relevant(grade_of(judgments, item), relevance_level)}
                 for rank, item in enumerate(ranking, start=1) if item != NOT_RANKED)


_COLUMNS = (Column("rank", "rank"), Column("item", "document"), Column("grade", "grade"),
            Column("relevant", "relevant"))


def _breakdown(name: str, lhs: str, symbolic: str, words: str, plugged: Expr, ranking: Sequence[str],
               judgments: Mapping[str, int], relevance_level: int, notes: Sequence[str] = ()) -> Breakdown:
    return Breakdown(measure=name, value=float(plugged.value()), lhs=lhs, symbolic=symbolic, symbolic_text=words,
                     plugged=plugged, rows=_rows(ranking, judgments, relevance_level), columns=_COLUMNS,
                     notes=tuple(notes))


def explain_set_precision(ranking: Sequence[str], judgments: Mapping[str, int], *,
                          relevance_level: int = DEFAULT_RELEVANCE_LEVEL) -> Breakdown:
    r"""Set precision: the share of everything retrieved that is relevant, :math:`\frac{TP}{n}`.

    >>> explain_set_precision(["a", "b", "c", "d"], {"a": 1, "c": 1}).plugged_latex
    '\\mathrm{SetP} = \\frac{2}{4} = 0.5'
    """
    tp, n, _ = set_counts(ranking, judgments, check_relevance_level(relevance_level))
    return _breakdown("SetP", r"\mathrm{SetP}", r"\mathrm{SetP} = \frac{TP}{n}",
                      "set precision = relevant documents retrieved / documents retrieved",
                      Frac(Num(tp), Num(n)) if n else Num(0), ranking, judgments, relevance_level,
                      () if n else ("Nothing was retrieved: the value is defined as 0.",))


def explain_set_recall(ranking: Sequence[str], judgments: Mapping[str, int], *,
                       relevance_level: int = DEFAULT_RELEVANCE_LEVEL) -> Breakdown:
    r"""Set recall: the share of the relevant documents that were retrieved, :math:`\frac{TP}{R}`.

    >>> set_recall(["a", "b"], {"a": 1, "c": 1, "d": 1})
    0.3333333333333333
    """
    tp, _, r = set_counts(ranking, judgments, check_relevance_level(relevance_level))
    return _breakdown("SetR", r"\mathrm{SetR}", r"\mathrm{SetR} = \frac{TP}{R}",
                      "set recall = relevant documents retrieved / relevant documents judged",
                      Frac(Num(tp), Num(r)) if r else Num(0), ranking, judgments, relevance_level,
                      () if r else ("The query has no relevant document: the value is defined as 0.",))


def explain_set_f(ranking: Sequence[str], judgments: Mapping[str, int], *,
                  relevance_level: int = DEFAULT_RELEVANCE_LEVEL, beta: float = 1.0) -> Breakdown:
    r"""Set F-measure: the weighted harmonic mean of set precision and set recall.

    .. math:: \mathrm{SetF}_\beta = \frac{(\beta + 1) \cdot P \cdot R_{set}}{\beta \cdot P + R_{set}}

    trec_eval's form (``set_F``): :math:`\beta = 1` is F1; 0 when nothing relevant is retrieved.

    >>> b = explain_set_f(["a", "b", "c", "d"], {"a": 1, "c": 1, "e": 1, "f": 1})
    >>> print(b.plugged_latex)  # doctest: +NORMALIZE_WHITESPACE
    \mathrm{SetF}_{1} = \frac{\left(1 + 1\right) \cdot \frac{2}{4} \cdot \frac{2}{4}}{1 \cdot \frac{2}{4} + \frac{2}{4}}
    = 0.5
    """
    beta = check_beta(beta)
    tp, n, r = set_counts(ranking, judgments, check_relevance_level(relevance_level))
    if tp:
        p, rr = Frac(Num(tp), Num(n)), Frac(Num(tp), Num(r))
        plugged: Expr = Frac(Mul(Add(Num(beta), Num(1)), p, rr), Add(Mul(Num(beta), p), rr))
    else:
        plugged = Num(0)
    b = format_number(beta)
    return _breakdown(f"SetF(beta={b})" if beta != 1 else "SetF", rf"\mathrm{{SetF}}_{{{b}}}",
                      r"\mathrm{SetF}_\beta = \frac{(\beta + 1) \cdot P \cdot R}{\beta \cdot P + R}",
                      "set F = (beta + 1) * set precision * set recall / (beta * set precision + set recall)",
                      plugged, ranking, judgments, relevance_level,
                      () if tp else ("No relevant document was retrieved: F is defined as 0.",))


def explain_set_ap(ranking: Sequence[str], judgments: Mapping[str, int], *,
                   relevance_level: int = DEFAULT_RELEVANCE_LEVEL) -> Breakdown:
    r"""Set AP: precision times recall of the retrieved set, :math:`\frac{TP \cdot TP}{n \cdot R}`.

    trec_eval calls it ``set_map``.

    >>> set_ap(["a", "b"], {"a": 1, "c": 1})
    0.25
    """
    tp, n, r = set_counts(ranking, judgments, check_relevance_level(relevance_level))
    plugged = Frac(Mul(Num(tp), Num(tp)), Mul(Num(n), Num(r))) if n and r else Num(0)
    return _breakdown("SetAP", r"\mathrm{SetAP}", r"\mathrm{SetAP} = \frac{TP \cdot TP}{n \cdot R}",
                      "set AP = relevant retrieved squared / (retrieved times relevant judged)",
                      plugged, ranking, judgments, relevance_level)


def explain_set_relative_precision(ranking: Sequence[str], judgments: Mapping[str, int], *,
                                   relevance_level: int = DEFAULT_RELEVANCE_LEVEL) -> Breakdown:
    r"""Relative set precision: set precision over the best a set of this size could do, :math:`\frac{TP}{\min(n, R)}`.

    >>> set_relative_precision(["a", "b", "c"], {"a": 1, "d": 1})
    0.5
    """
    tp, n, r = set_counts(ranking, judgments, check_relevance_level(relevance_level))
    plugged = Frac(Num(tp), Min(Num(n), Num(r))) if n and r else Num(0)
    return _breakdown("SetRelP", r"\mathrm{SetRelP}", r"\mathrm{SetRelP} = \frac{TP}{\min(n, R)}",
                      "relative set precision = relevant retrieved / the smaller of retrieved and relevant judged",
                      plugged, ranking, judgments, relevance_level)


def explain_utility(ranking: Sequence[str], judgments: Mapping[str, int], *,
                    relevance_level: int = DEFAULT_RELEVANCE_LEVEL, coefficients: Sequence[float] = UTILITY,
                    collection_size: int = 0) -> Breakdown:
    r"""Utility: a weighted sum of the contingency table, :math:`p_1 TP + p_2 FP + p_3 FN + p_4 TN`.

    TN = collection size + TP - n - R (trec_eval ``-N``; 0 when the size is not given, which makes
    TN meaningless, so its default coefficient is 0). Defaults +1 per relevant retrieved, -1 per
    non-relevant retrieved.

    >>> explain_utility(["a", "b", "c"], {"a": 1, "d": 1}).plugged_latex
    '\\mathrm{utility} = 1 \\cdot 1 + \\left(-1\\right) \\cdot 2 + 0 \\cdot 1 + 0 \\cdot \\left(-4\\right) = -1'
    """
    coefficients = check_coefficients(coefficients)
    tp, n, r = set_counts(ranking, judgments, check_relevance_level(relevance_level))
    if list(ranking) == [NOT_RANKED]:
        if coefficients == UTILITY:
            return _breakdown("utility", r"\mathrm{utility}", r"\mathrm{utility} = p_1 TP + p_2 FP + p_3 FN + p_4 TN",
                              "utility of the retrieved set", Num(0), [], judgments, relevance_level,
                              ("The run does not rank this query: its utility is 0 (trec_eval -c).",))
        n = 1  # trec_eval scores other coefficients on its placeholder document, retrieved and not relevant
    cells = (tp, n - tp, r - tp, collection_size + tp - n - r)
    plugged = Add(Mul(Num(p), Num(cell)) for p, cell in zip(coefficients, cells))
    return _breakdown("utility", r"\mathrm{utility}", r"\mathrm{utility} = p_1 TP + p_2 FP + p_3 FN + p_4 TN",
                      "utility = p1 * relevant retrieved + p2 * non-relevant retrieved + p3 * relevant missed"
                      " + p4 * non-relevant not retrieved", plugged, ranking, judgments, relevance_level)


def check_beta(beta: object) -> float:
    """Return ``beta`` if it is a number >= 0 (set F's weight of recall).

    >>> check_beta(0.5)
    0.5
    """
    if isinstance(beta, bool) or not isinstance(beta, (int, float)) or not 0 <= beta < 1e6:
        raise ValidationError(f"beta is a number from 0 up, got {beta!r}")
    return float(beta)


def check_coefficients(coefficients: object) -> tuple[float, float, float, float]:
    """Return four utility coefficients as floats, or raise naming what is wrong.

    >>> check_coefficients([2, -1, 0, 0])
    (2.0, -1.0, 0.0, 0.0)
    """
    if (not isinstance(coefficients, (list, tuple)) or len(coefficients) != 4
            or any(isinstance(c, bool) or not isinstance(c, (int, float)) or abs(c) > 1e9 for c in coefficients)):
        raise ValidationError(f"utility takes four coefficients (TP, FP, FN, TN), got {coefficients!r}")
    return tuple(float(c) for c in coefficients)


def set_precision(ranking, judgments, *, relevance_level=DEFAULT_RELEVANCE_LEVEL) -> float:
    """The value of :func:`explain_set_precision`."""
    return explain_set_precision(ranking, judgments, relevance_level=relevance_level).value


def set_recall(ranking, judgments, *, relevance_level=DEFAULT_RELEVANCE_LEVEL) -> float:
    """The value of :func:`explain_set_recall`."""
    return explain_set_recall(ranking, judgments, relevance_level=relevance_level).value


def set_ap(ranking, judgments, *, relevance_level=DEFAULT_RELEVANCE_LEVEL) -> float:
    """The value of :func:`explain_set_ap`."""
    return explain_set_ap(ranking, judgments, relevance_level=relevance_level).value


def set_relative_precision(ranking, judgments, *, relevance_level=DEFAULT_RELEVANCE_LEVEL) -> float:
    """The value of :func:`explain_set_relative_precision`."""
    return explain_set_relative_precision(ranking, judgments, relevance_level=relevance_level).value


# --- kernels ---------------------------------------------------------------------------------------

def _counts(rankings: JudgedRankings, level: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return rankings.num_rel_ret(level), rankings.num_ret, rankings.num_rel(level)


def set_precision_kernel(rankings: JudgedRankings, *, relevance_level: int = DEFAULT_RELEVANCE_LEVEL) -> np.ndarray:
    """:func:`explain_set_precision`'s value for every query (trec_eval ``set_P``)."""
    tp, n, _ = _counts(rankings, relevance_level)
    return divide(tp, n)


def set_recall_kernel(rankings: JudgedRankings, *, relevance_level: int = DEFAULT_RELEVANCE_LEVEL) -> np.ndarray:
    """:func:`explain_set_recall`'s value for every query (trec_eval ``set_recall``)."""
    tp, _, r = _counts(rankings, relevance_level)
    return divide(tp, r)


def set_f_kernel(rankings: JudgedRankings, *, relevance_level: int = DEFAULT_RELEVANCE_LEVEL,
                 beta: float = 1.0) -> np.ndarray:
    """:func:`explain_set_f`'s value for every query (trec_eval ``set_F``)."""
    tp, n, r = _counts(rankings, relevance_level)
    p, rr = divide(tp, n), divide(tp, r)
    with np.errstate(divide="ignore", invalid="ignore"):
        f = (beta + 1.0) * p * rr / (beta * p + rr)
    return np.where(tp > 0, f, 0.0)


def set_ap_kernel(rankings: JudgedRankings, *, relevance_level: int = DEFAULT_RELEVANCE_LEVEL) -> np.ndarray:
    """:func:`explain_set_ap`'s value for every query (trec_eval ``set_map``)."""
    tp, n, r = _counts(rankings, relevance_level)
    return divide(tp.astype(np.float64) * tp, n.astype(np.float64) * r)


def set_relative_precision_kernel(rankings: JudgedRankings, *,
                                  relevance_level: int = DEFAULT_RELEVANCE_LEVEL) -> np.ndarray:
    """:func:`explain_set_relative_precision`'s value for every query (trec_eval ``set_relative_P``)."""
    tp, n, r = _counts(rankings, relevance_level)
    return np.where((n > 0) & (r > 0), divide(tp, np.minimum(n, r)), 0.0)


def utility_kernel(rankings: JudgedRankings, *, relevance_level: int = DEFAULT_RELEVANCE_LEVEL,
                   coefficients: Sequence[float] = UTILITY, collection_size: int = 0) -> np.ndarray:
    """:func:`explain_utility`'s value for every query (trec_eval ``utility``)."""
    tp, _, r = _counts(rankings, relevance_level)
    n = rankings.lengths  # a missing query's placeholder counts as retrieved, as in trec_eval
    p1, p2, p3, p4 = (float(c) for c in coefficients)
    utility = p1 * tp + p2 * (n - tp) + p3 * (r - tp) + p4 * (collection_size + tp - n - r)
    # trec_eval sets a missing query's utility to 0, but only under the default coefficients
    return np.where(rankings.missing & (tuple(coefficients) == UTILITY), 0.0, utility)
