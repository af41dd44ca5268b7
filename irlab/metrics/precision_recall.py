r"""Order-unaware metrics at K: Precision@K, Recall@K, R-precision and Success@K.

All four count the relevant items in the top K (the true positives of
:mod:`irlab.metrics.confusion`) and ignore their order:

.. math::

    \mathrm{Precision@}K = \frac{TP@K}{K} \qquad \mathrm{Recall@}K = \frac{TP@K}{TP@K + FN@K} = \frac{TP@K}{R}

R-precision is Precision@R with R the number of relevant items; Success@K is 1 when at
least one relevant item is in the top K. Defaults follow trec_eval (``P_k``, ``recall_k``,
``Rprec``, ``success_k``); the denominators have named variants (:mod:`irlab.metrics.conventions`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace

import numpy as np

from irlab.data.columns import JudgedRankings, divide
from irlab.data.judgments import DEFAULT_RELEVANCE_LEVEL, num_relevant
from irlab.explain.breakdown import Breakdown, latex_measure, measure_name
from irlab.explain.formula import Add, Expr, Frac, Min, Num, format_number
from irlab.metrics.confusion import explain_confusion_at_k
from irlab.metrics.conventions import check_variant
from irlab.metrics.teaching import Mistake, Teaching, count_relevant, with_options

_NO_RELEVANT = "The query has no relevant item: the value is defined as 0 (trec_eval)."


def _with_counts(confusion: Breakdown, *, measure: str, lhs: str, symbolic: str, symbolic_text: str,
                 plugged: Expr, notes: Sequence[str] = ()) -> Breakdown:
    """A metric breakdown over the confusion rows of the same ranking (one computation)."""
    return Breakdown(measure=measure, value=float(plugged.value()), lhs=lhs, symbolic=symbolic,
                     symbolic_text=symbolic_text, plugged=plugged, rows=confusion.rows, columns=confusion.columns,
                     notes=tuple(notes) + confusion.notes, parts=confusion.parts)


def explain_precision_at_k(ranking: Sequence[str], judgments: Mapping[str, int], k: int, *,
                           relevance_level: int = DEFAULT_RELEVANCE_LEVEL, denominator: str = "k") -> Breakdown:
    r"""Precision@K: the share of the top K that is relevant.

    .. math:: \mathrm{Precision@}K = \frac{TP@K}{TP@K + FP@K} = \frac{TP@K}{K}

    Conventions: ``denominator="k"`` (default, trec_eval ``P_k``) divides by K even when fewer
    than K items were ranked; ``"retrieved"`` divides by the items actually returned, TP + FP
    (torchmetrics ``adaptive_k``), and is 0 when nothing was returned. An empty ranking scores 0.

    Example (relevant at ranks 2, 4, 5, 7): :math:`\mathrm{Precision@}2 = \frac{1}{2} = 0.5`.

    >>> explain_precision_at_k(list("12345678"), {"2": 1, "4": 1, "5": 1, "7": 1}, 2).plugged_latex
    '\\mathrm{Precision@}2 = \\frac{1}{2} = 0.5'
    >>> precision_at_k(["a", "b"], {"a": 1}, 5), precision_at_k(["a", "b"], {"a": 1}, 5, denominator="retrieved")
    (0.2, 0.5)
    """
    check_variant("precision_denominator", denominator)
    confusion = explain_confusion_at_k(ranking, judgments, k, relevance_level=relevance_level)
    tp, fp = confusion.value.TP, confusion.value.FP
    notes = []
    if denominator == "k":
        plugged: Expr = Frac(Num(tp), Num(k))
        symbolic, words = r"\mathrm{Precision@}K = \frac{TP@K}{K}", "Precision@K = relevant items in the top K / K"
        if len(ranking) < k:
            notes.append(f"Only {len(ranking)} items were ranked, fewer than K = {k}; trec_eval still divides by K.")
    else:
        plugged = Frac(Num(tp), Add(Num(tp), Num(fp))) if tp + fp else Num(0)
        symbolic, words = (r"\mathrm{Precision@}K = \frac{TP@K}{TP@K + FP@K}",
                           "Precision@K = relevant items in the top K / items returned in the top K")
        if not tp + fp:
            notes.append("Nothing was returned: the value is defined as 0.")
    return _with_counts(confusion, measure=measure_name("Precision", k), lhs=latex_measure("Precision", k),
                        symbolic=symbolic, symbolic_text=words, plugged=plugged, notes=notes)


def precision_at_k(ranking: Sequence[str], judgments: Mapping[str, int], k: int, *,
                   relevance_level: int = DEFAULT_RELEVANCE_LEVEL, denominator: str = "k") -> float:
    """The value of :func:`explain_precision_at_k`.

    >>> precision_at_k(list("12345678"), {"2": 1, "4": 1, "5": 1, "7": 1}, 7)
    0.5714285714285714
    """
    return explain_precision_at_k(ranking, judgments, k, relevance_level=relevance_level,
                                  denominator=denominator).value


def explain_recall_at_k(ranking: Sequence[str], judgments: Mapping[str, int], k: int, *,
                        relevance_level: int = DEFAULT_RELEVANCE_LEVEL, denominator: str = "relevant") -> Breakdown:
    r"""Recall@K: the share of all relevant items that made it into the top K.

    .. math:: \mathrm{Recall@}K = \frac{TP@K}{TP@K + FN@K} = \frac{TP@K}{R}

    Conventions: ``denominator="relevant"`` (default, trec_eval ``recall_k``) divides by R, every
    relevant judged item; ``"min-k-r"`` divides by :math:`\min(K, R)`. A query without relevant
    items scores 0. K >= N returns everything, so recall is 1 whenever every relevant item is ranked.

    Example (relevant at ranks 2, 4, 5, 7): :math:`\mathrm{Recall@}2 = \frac{1}{1 + 3} = 0.25`.

    >>> explain_recall_at_k(list("12345678"), {"2": 1, "4": 1, "5": 1, "7": 1}, 2).plugged_latex
    '\\mathrm{Recall@}2 = \\frac{1}{1 + 3} = 0.25'
    >>> recall_at_k(["a"], {"b": 0}, 1)
    0.0
    """
    check_variant("recall_denominator", denominator)
    confusion = explain_confusion_at_k(ranking, judgments, k, relevance_level=relevance_level)
    tp, fn = confusion.value.TP, confusion.value.FN
    notes = []
    if tp + fn == 0:
        plugged: Expr = Num(0)
        notes.append(_NO_RELEVANT)
    elif denominator == "relevant":
        plugged = Frac(Num(tp), Add(Num(tp), Num(fn)))
    else:
        plugged = Frac(Num(tp), Num(min(k, tp + fn)))
    if denominator == "relevant":
        symbolic, words = (r"\mathrm{Recall@}K = \frac{TP@K}{TP@K + FN@K}",
                           "Recall@K = relevant items in the top K / all relevant items")
    else:
        symbolic, words = (r"\mathrm{Recall@}K = \frac{TP@K}{\min(K, R)}",
                           "Recall@K = relevant items in the top K / the smaller of K and the number of relevant items")
    return _with_counts(confusion, measure=measure_name("Recall", k), lhs=latex_measure("Recall", k),
                        symbolic=symbolic, symbolic_text=words, plugged=plugged, notes=notes)


def recall_at_k(ranking: Sequence[str], judgments: Mapping[str, int], k: int, *,
                relevance_level: int = DEFAULT_RELEVANCE_LEVEL, denominator: str = "relevant") -> float:
    """The value of :func:`explain_recall_at_k`.

    >>> recall_at_k(list("12345678"), {"2": 1, "4": 1, "5": 1, "7": 1}, 5)
    0.75
    """
    return explain_recall_at_k(ranking, judgments, k, relevance_level=relevance_level, denominator=denominator).value


def r_cutoff(relevant: int | np.ndarray, mult: float = 1.0) -> int | np.ndarray:
    r"""The rank R-precision looks at: :math:`\lfloor mult \cdot R + 0.9 \rfloor` (trec_eval ``Rprec_mult``).

    At mult 1 that is R itself.

    >>> r_cutoff(4), r_cutoff(4, 0.2), r_cutoff(np.array([0, 7]), 0.35).tolist()
    (4, 1, [0, 3])
    """
    if isinstance(relevant, np.ndarray):
        return np.floor(mult * relevant + 0.9).astype(np.int64)
    return int(math.floor(mult * relevant + 0.9))


def explain_r_precision(ranking: Sequence[str], judgments: Mapping[str, int], *,
                        relevance_level: int = DEFAULT_RELEVANCE_LEVEL, mult: float = 1.0) -> Breakdown:
    r"""R-precision: Precision@R, where R is the number of relevant items of the query.

    .. math:: \mathrm{R\text{-}precision} = \mathrm{Precision@}R = \frac{TP@R}{R}

    At K = R, precision and recall are equal. Conventions as trec_eval ``Rprec``: a query
    without relevant items scores 0; a ranking shorter than R still divides by R. ``mult``
    looks at a multiple of R instead (trec_eval ``Rprec_mult``):
    Precision@:math:`\lfloor mult \cdot R + 0.9 \rfloor`, 0 when that rounds to 0.

    Example (4 relevant items at ranks 2, 4, 5, 7): :math:`\frac{2}{4} = 0.5`; at mult 0.5,
    Precision@2 = 0.5.

    >>> r_precision(list("12345678"), {"2": 1, "4": 1, "5": 1, "7": 1})
    0.5
    >>> explain_r_precision(list("12345678"), {"2": 1, "4": 1, "5": 1, "7": 1}, mult=0.5).plugged_latex
    '\\mathrm{R\\text{-}precision}_{0.5} = \\frac{1}{2} = 0.5'
    """
    r = num_relevant(judgments, relevance_level)
    cut = r_cutoff(r, mult)
    scaled = "" if mult == 1.0 else f"_{{{format_number(mult)}}}"
    lhs = rf"\mathrm{{R\text{{-}}precision}}{scaled}"
    name = "R-precision" + ("" if mult == 1.0 else f"×{format_number(mult)}")
    if mult == 1.0:
        symbolic = r"\mathrm{R\text{-}precision} = \mathrm{Precision@}R = \frac{TP@R}{R}"
        words = "R-precision = relevant items in the top R / R, where R is the number of relevant items"
    else:
        symbolic = rf"{lhs} = \mathrm{{Precision@}}\lfloor {format_number(mult)} R + 0.9 \rfloor"
        words = f"precision at the rank {format_number(mult)} times R (rounded as trec_eval's Rprec_mult)"
    if cut == 0:
        note = _NO_RELEVANT if r == 0 else f"{format_number(mult)} × R rounds to rank 0: the value is defined as 0."
        return Breakdown(measure=name, value=0.0, lhs=lhs, symbolic=symbolic, symbolic_text=words, plugged=Num(0),
                         notes=(note,))
    at_r = explain_precision_at_k(ranking, judgments, cut, relevance_level=relevance_level)
    return at_r.relabelled(name, lhs, symbolic, words)


def r_precision(ranking: Sequence[str], judgments: Mapping[str, int], *,
                relevance_level: int = DEFAULT_RELEVANCE_LEVEL, mult: float = 1.0) -> float:
    """The value of :func:`explain_r_precision`.

    >>> r_precision(["a", "b"], {"b": 1, "c": 1, "d": 0})
    0.5
    """
    return explain_r_precision(ranking, judgments, relevance_level=relevance_level, mult=mult).value


def explain_success_at_k(ranking: Sequence[str], judgments: Mapping[str, int], k: int, *,
                         relevance_level: int = DEFAULT_RELEVANCE_LEVEL) -> Breakdown:
    r"""Success@K (hit rate): 1 when at least one relevant item is in the top K, else 0.

    .. math:: \mathrm{Success@}K = \min(1, TP@K)

    Conventions as trec_eval ``success_k``; averaged over queries it is the hit rate.

    Example (first relevant item at rank 2): Success@1 = 0, Success@2 = 1.

    >>> success_at_k(list("12345678"), {"2": 1}, 1), success_at_k(list("12345678"), {"2": 1}, 2)
    (0.0, 1.0)
    """
    confusion = explain_confusion_at_k(ranking, judgments, k, relevance_level=relevance_level)
    tp = confusion.value.TP
    plugged = Min(Num(1), Num(tp))
    return _with_counts(confusion, measure=measure_name("Success", k), lhs=latex_measure("Success", k),
                        symbolic=r"\mathrm{Success@}K = \min(1,\, TP@K)",
                        symbolic_text="Success@K = 1 if at least one relevant item is in the top K, else 0",
                        plugged=plugged)


def success_at_k(ranking: Sequence[str], judgments: Mapping[str, int], k: int, *,
                 relevance_level: int = DEFAULT_RELEVANCE_LEVEL) -> float:
    """The value of :func:`explain_success_at_k`."""
    return explain_success_at_k(ranking, judgments, k, relevance_level=relevance_level).value



# --- kernels: the same values for every query of a JudgedRankings at once ---------------------------

def precision_kernel(rankings: JudgedRankings, k: int, *, relevance_level: int = DEFAULT_RELEVANCE_LEVEL,
                     denominator: str = "k") -> np.ndarray:
    """:func:`explain_precision_at_k`'s value for every query (trec_eval ``P_k``).

    >>> r = JudgedRankings.from_lists(["q"], [[0, 1, -1]], [[0, 1, 1]])
    >>> precision_kernel(r, 2).tolist(), precision_kernel(r, 5, denominator="retrieved").tolist()
    ([0.5], [0.3333333333333333])
    """
    hits = rankings.hits_at(k, relevance_level)
    if denominator == "k":
        return hits / k
    return divide(hits, np.minimum(rankings.num_ret, k))


def recall_kernel(rankings: JudgedRankings, k: int, *, relevance_level: int = DEFAULT_RELEVANCE_LEVEL,
                  denominator: str = "relevant") -> np.ndarray:
    """:func:`explain_recall_at_k`'s value for every query (trec_eval ``recall_k``).

    With ``denominator="min-k-r"`` it is trec_eval's ``relative_P_k``.
    """
    relevant = rankings.num_rel(relevance_level)
    divisors = relevant if denominator == "relevant" else np.minimum(k, relevant)
    return divide(rankings.hits_at(k, relevance_level), divisors)


def r_precision_kernel(rankings: JudgedRankings, *, relevance_level: int = DEFAULT_RELEVANCE_LEVEL,
                       mult: float = 1.0) -> np.ndarray:
    """:func:`explain_r_precision`'s value for every query (trec_eval ``Rprec``, ``Rprec_mult_x``)."""
    cut = r_cutoff(rankings.num_rel(relevance_level), mult)
    return divide(rankings.hits_at(cut, relevance_level), cut)


def success_kernel(rankings: JudgedRankings, k: int, *,
                   relevance_level: int = DEFAULT_RELEVANCE_LEVEL) -> np.ndarray:
    """:func:`explain_success_at_k`'s value for every query (trec_eval ``success_k``)."""
    return (rankings.hits_at(k, relevance_level) > 0).astype(np.float64)


# --- how exercises teach them (irlab.metrics.teaching) --------------------------------------------------------------

def _hits(rel: int, top: str = "ranking[:k]") -> str:
    return f"hits = sum(1 for doc in {top} if ground_truth.get(doc, 0) >= {rel})"


def _precision_summary(measure) -> str:
    den = ("the number of documents in the top k" if measure.options.get("denominator", "k") == "retrieved" else
           "k (also when fewer than k documents were ranked)")
    return f"Computes Precision@k: the relevant documents in the top k, divided by {den}."


def _precision_code(measure, rel: int) -> str:
    if measure.options.get("denominator", "k") == "retrieved":
        return f"{_hits(rel)}\nreturned = len(ranking[:k])\nreturn hits / returned if returned else 0.0"
    return f"{_hits(rel)}\nreturn hits / k"


def _recall_summary(measure) -> str:
    den = ("min(k, R), R being the number of relevant documents" if measure.options.get("denominator") == "min-k-r"
           else "all relevant documents of the query")
    return f"Computes Recall@k: the relevant documents in the top k, divided by {den}."


def _recall_code(measure, rel: int) -> str:
    den = "min(k, relevant)" if measure.options.get("denominator") == "min-k-r" else "relevant"
    return f"{count_relevant(rel)}\nif relevant == 0:\n    return 0.0\n{_hits(rel)}\nreturn hits / {den}"


def _r_precision_code(measure, rel: int) -> str:
    return (f"{count_relevant(rel)}\nif relevant == 0:\n    return 0.0\n{_hits(rel, 'ranking[:relevant]')}\n"
            "return hits / relevant")


def _success_code(measure, rel: int) -> str:
    return f"return 1.0 if any(ground_truth.get(doc, 0) >= {rel} for doc in ranking[:k]) else 0.0"


def _precision_for_recall(m):
    return replace(m, family="P", options={}) if m.family == "R" else None


def _recall_for_precision(m):
    return replace(m, family="R", options={}) if m.family == "P" else None


def _recall_over_min_k_r(m):
    if m.family == "R" and m.options.get("denominator", "relevant") == "relevant":
        return with_options(m, denominator="min-k-r")
    return None


PRECISION_INSTEAD_OF_RECALL = Mistake(
    "precision-instead-of-recall", "Precision@K instead of Recall@K",
    "You divided the relevant items in the top K by K, which is Precision@K; Recall@K divides them by all relevant "
    "items of the query.", _precision_for_recall)
RECALL_INSTEAD_OF_PRECISION = Mistake(
    "recall-instead-of-precision", "Recall@K instead of Precision@K",
    "You divided the relevant items in the top K by all relevant items of the query, which is Recall@K; "
    "Precision@K divides them by K.", _recall_for_precision)

PRECISION_TEACHING = Teaching(
    "precision", _precision_summary, "Precision@k", _precision_code, mistakes=(RECALL_INSTEAD_OF_PRECISION,),
    quiz_k=True, examples=("P@3", "P(denominator='retrieved')@3", "P(rel=2)@4"))
RECALL_TEACHING = Teaching(
    "recall", _recall_summary, "Recall@k", _recall_code, quiz_k=True,
    mistakes=(PRECISION_INSTEAD_OF_RECALL,  # the classic mix-up first: on a tie it is the likelier explanation
              Mistake("recall-over-min-k-r", "recall divided by min(K, R)",
                      "You divided by the smaller of K and the number of relevant items, but recall divides by all "
                      "relevant items of the query.", _recall_over_min_k_r)),
    examples=("R@3", "R(denominator='min-k-r')@2", "R(rel=2)@4"))
R_PRECISION_TEACHING = Teaching(
    "r_precision", "Computes R-precision: Precision@R, where R is the number of relevant documents (0 if R is 0).",
    "R-precision", _r_precision_code, examples=("Rprec", "Rprec(rel=2)"))
SUCCESS_TEACHING = Teaching(
    "success", "Computes Success@k: 1 if a relevant document is in the top k, else 0.", "Success@k", _success_code,
    examples=("Success@2", "Success(rel=3)@6"))
