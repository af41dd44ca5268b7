r"""Average precision (AP@K) and mean average precision (MAP@K).

.. math::

    \mathrm{AP@}K = \frac{1}{R}\sum_{k=1}^{K} P@k \cdot rel_k \qquad
    \mathrm{MAP@}K = \frac{1}{Q}\sum_{q=1}^{Q} \mathrm{AP@}K_q

:math:`rel_k` is 1 when the item at rank k is relevant, else 0, so only the precision at
relevant ranks counts. R is every relevant item of the query, retrieved or not (trec_eval
``map`` and ``map_cut_k``, and the sources); :math:`\min(K, R)` and "relevant found in the top K"
are named variants (:mod:`irlab.metrics.conventions`). AP needs binary relevance: graded judgments
count as relevant from the relevance level up.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from irlab.data.columns import JudgedRankings, divide
from irlab.data.judgments import DEFAULT_RELEVANCE_LEVEL, check_relevance_level, grade_of, is_relevant, num_relevant
from irlab.data.rankings import check_cutoff, check_ranking
from irlab.explain.breakdown import Breakdown, Column, explain_mean, latex_measure, measure_name
from irlab.explain.formula import Add, Expr, Frac, Normalised, Num
from irlab.metrics.conventions import check_variant
from irlab.metrics.reciprocal_rank import RankedQueries
from irlab.metrics.teaching import Mistake, Teaching, count_relevant, with_options

_DENOMINATORS = {
    "relevant": (r"R", "the number of relevant items R"),
    "min-k-r": (r"\min(K, R)", "the smaller of K and the number of relevant items R"),
    "found": (r"TP@K", "the number of relevant items found in the top K"),
}


def explain_average_precision(ranking: Sequence[str], judgments: Mapping[str, int], k: int | None = None, *,
                              relevance_level: int = DEFAULT_RELEVANCE_LEVEL,
                              denominator: str = "relevant") -> Breakdown:
    r"""AP@K: the mean of the precision at each relevant rank, over all relevant items.

    .. math:: \mathrm{AP@}K = \frac{\sum_{k=1}^{K} P@k \cdot rel_k}{R}

    ``P@k`` is relevant items in the top k divided by k (:func:`irlab.precision_at_k`).
    Conventions: ``k=None`` uses the whole ranking (trec_eval ``map``); a denominator of 0 (no
    relevant item, or none found with ``"found"``) gives 0; K past the ranking's end adds no terms.
    Rows hold rank, item, :math:`rel_k`, P@k, the term :math:`P@k \cdot rel_k` and the running sum.

    Example ("cat in a box", relevant at ranks 2, 4, 5, 7, K = 8):
    :math:`\frac{1}{4}(\frac{1}{2} + \frac{2}{4} + \frac{3}{5} + \frac{4}{7}) \approx 0.5429`.

    >>> b = explain_average_precision(list("12345678"), {"2": 1, "4": 1, "5": 1, "7": 1}, 8)
    >>> print(b.plugged_latex)
    \mathrm{AP@}8 = \frac{1}{4} \cdot \left(\frac{1}{2} + \frac{2}{4} + \frac{3}{5} + \frac{4}{7}\right) \approx 0.5429
    >>> round(average_precision(list("12345678"), {"2": 1, "4": 1, "5": 1, "7": 1}, 2, denominator="min-k-r"), 4)
    0.25
    """
    check_variant("ap_denominator", denominator)
    ranking = check_ranking(ranking)
    k = check_cutoff(k)
    relevance_level = check_relevance_level(relevance_level)
    depth = len(ranking) if k is None else min(k, len(ranking))
    rows, terms, hits = [], [], 0
    for rank, item in enumerate(ranking[:depth], start=1):
        rel = int(is_relevant(grade_of(judgments, item), relevance_level))
        hits += rel
        precision = Frac(Num(hits), Num(rank))
        if rel:
            terms.append(precision)
        rows.append({"rank": rank, "item": item, "grade": grade_of(judgments, item), "rel": rel, "hits": hits,
                     "precision": precision.value(), "term": precision.value() * rel})
    running = 0.0
    for row in rows:
        running += row["term"]
        row["running_sum"] = running
    r = num_relevant(judgments, relevance_level)
    count = {"relevant": r, "min-k-r": r if k is None else min(k, r), "found": hits}[denominator]
    # 1/R times the sum reads better on screen than a fraction of fractions
    plugged: Expr = Normalised(Add(terms), Num(count)) if count else Num(0)
    notes = []
    if not r:
        notes.append("The query has no relevant item: AP is defined as 0 (trec_eval).")
    elif not count:
        notes.append("No relevant item was found in the top K: AP is defined as 0.")
    den_latex, den_words = _DENOMINATORS[denominator]
    kk = None if k is None else "K"
    top = "K" if k is not None else "N"
    return Breakdown(
        measure=measure_name("AP", k), value=float(plugged.value()), lhs=latex_measure("AP", k),
        symbolic=rf"{latex_measure('AP', kk)} = \frac{{1}}{{{den_latex}}} \sum_{{k=1}}^{{{top}}} P@k \cdot rel_k",
        symbolic_text=f"AP = (sum over the ranks k of precision at k times rel_k) / {den_words}",
        plugged=plugged, rows=tuple(rows),
        columns=(Column("rank", "k"), Column("item", "item"), Column("rel", "rel_k", "1 if relevant, else 0"),
                 Column("precision", "P@k", "relevant in the top k / k"),
                 Column("term", "P@k × rel_k", "the term added to the sum"),
                 Column("running_sum", "sum so far")),
        notes=tuple(notes))


def average_precision(ranking: Sequence[str], judgments: Mapping[str, int], k: int | None = None, *,
                      relevance_level: int = DEFAULT_RELEVANCE_LEVEL, denominator: str = "relevant") -> float:
    """The value of :func:`explain_average_precision`.

    >>> round(average_precision(list("12345678"), {"5": 1, "8": 1}, 8), 4)
    0.225
    """
    return explain_average_precision(ranking, judgments, k, relevance_level=relevance_level,
                                     denominator=denominator).value


def explain_mean_average_precision(queries: RankedQueries, k: int | None = None, *,
                                   relevance_level: int = DEFAULT_RELEVANCE_LEVEL,
                                   denominator: str = "relevant") -> Breakdown:
    r"""MAP@K: the mean of the queries' AP@K.

    .. math:: \mathrm{MAP@}K = \frac{1}{Q}\sum_{q=1}^{Q}\mathrm{AP@}K_q

    Every query counts, including those with AP 0. Example (the three walkthrough queries at
    K = 8): :math:`\frac{1}{3}(0.5429 + 0.6679 + 0.225) \approx 0.4786`.

    >>> queries = {"cat in a box": (list("12345678"), {"2": 1, "4": 1, "5": 1, "7": 1}),
    ...            "white cat": (list("12345678"), {"1": 1, "4": 1, "5": 1, "7": 1}),
    ...            "dark cat": (list("12345678"), {"5": 1, "8": 1})}
    >>> round(mean_average_precision(queries, 8), 4)
    0.4786
    """
    parts = {name: explain_average_precision(ranking, judgments, k, relevance_level=relevance_level,
                                             denominator=denominator)
             for name, (ranking, judgments) in queries.items()}
    kk = None if k is None else "K"
    symbolic = rf"{latex_measure('MAP', kk)} = \frac{{1}}{{Q}}\sum_{{q=1}}^{{Q}} {latex_measure('AP', kk)}_q"
    return explain_mean(parts, measure=measure_name("MAP", k), lhs=latex_measure("MAP", k), symbolic=symbolic,
                        symbolic_text="MAP = the mean over the Q queries of their average precision",
                        term_label="AP", inline_formulas=False)


def mean_average_precision(queries: RankedQueries, k: int | None = None, *,
                           relevance_level: int = DEFAULT_RELEVANCE_LEVEL, denominator: str = "relevant") -> float:
    """The value of :func:`explain_mean_average_precision`."""
    return explain_mean_average_precision(queries, k, relevance_level=relevance_level, denominator=denominator).value


# --- kernel: the same value for every query of a JudgedRankings at once -----------------------------

def precision_terms(rankings: JudgedRankings, relevance_level: int) -> np.ndarray:
    r"""Each query's running sum of :math:`P@k \cdot rel_k` in rank order (shared by AP and AP@K).

    >>> r = JudgedRankings.from_lists(["q"], [[1, 0, 1]], [[1, 1]])
    >>> precision_terms(r, 1).tolist()
    [1.0, 1.0, 1.6666666666666665]
    """
    def compute() -> np.ndarray:
        relevant = rankings.relevant(relevance_level)
        hits = rankings.cumulative(relevant, key=("relevant", relevance_level))
        return rankings.prefix(np.where(relevant, hits / rankings.row_rank, 0.0))
    return rankings.cached(("precision_terms", relevance_level), compute)


def average_precision_kernel(rankings: JudgedRankings, k: int | None = None, *,
                             relevance_level: int = DEFAULT_RELEVANCE_LEVEL,
                             denominator: str = "relevant") -> np.ndarray:
    """:func:`explain_average_precision`'s value for every query (trec_eval ``map``, ``map_cut_k``).

    >>> r = JudgedRankings.from_lists(["q"], [[0, 1, 0, 1, 1, 0, 1, 0]], [[1, 1, 1, 1]])
    >>> average_precision_kernel(r, 8).round(4).tolist()
    [0.5429]
    """
    total = rankings.prefix_at(precision_terms(rankings, relevance_level), k)
    relevant = rankings.num_rel(relevance_level)
    count = {"relevant": lambda: relevant, "min-k-r": lambda: relevant if k is None else np.minimum(k, relevant),
             "found": lambda: rankings.hits_at(k, relevance_level)}[denominator]()
    return divide(total, count)


# --- how exercises teach it (irlab.metrics.teaching) ----------------------------------------------------------------

_AP_DENOMINATOR_WORDS = {"relevant": "R, all relevant documents of the query (0 if R is 0)",
                         "min-k-r": "min(k, R), R being the number of relevant documents (0 if R is 0)",
                         "found": "the relevant documents found in the top k (0 if none)"}


def _average_precision_summary(measure) -> str:
    den = _AP_DENOMINATOR_WORDS[measure.options.get("denominator", "relevant")]
    return f"Computes average precision (AP@k): the sum of the precision at each relevant rank, divided by {den}."


def _average_precision_code(measure, rel: int) -> str:
    den = {"relevant": "relevant", "min-k-r": "relevant if k is None else min(k, relevant)",
           "found": "hits"}[measure.options.get("denominator", "relevant")]
    return ("top = ranking if k is None else ranking[:k]\n"
            "hits, total = 0, 0.0\n"
            "for rank, doc in enumerate(top, start=1):\n"
            f"    if ground_truth.get(doc, 0) >= {rel}:\n"
            "        hits += 1\n"
            "        total += hits / rank  # the precision at this relevant rank\n"
            f"{count_relevant(rel)}\n"
            f"denominator = {den}\n"
            "return total / denominator if denominator else 0.0")


def _over_found(m):
    if m.family == "AP" and m.options.get("denominator", "relevant") == "relevant":
        return with_options(m, denominator="found")
    return None


def _over_min_k_r(m):
    if m.family == "AP" and m.cutoff is not None and m.options.get("denominator", "relevant") == "relevant":
        return with_options(m, denominator="min-k-r")
    return None


AVERAGE_PRECISION_TEACHING = Teaching(
    "average_precision", _average_precision_summary, "AP@k", _average_precision_code, quiz_k=True,
    mistakes=(Mistake("ap-over-found", "AP divided by the relevant items found",
                      "You divided by the relevant items found in the top K, but AP divides by all relevant items "
                      "of the query, found or not.", _over_found),
              Mistake("ap-over-min-k-r", "AP divided by min(K, R)",
                      "You divided by the smaller of K and the number of relevant items, but AP here divides by all "
                      "relevant items of the query.", _over_min_k_r)),
    examples=("AP", "AP@5", "AP(denominator='min-k-r')@4", "AP(denominator='found')@5", "AP(rel=2)@6"))
