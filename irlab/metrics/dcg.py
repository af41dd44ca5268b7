r"""Graded relevance: CG@K, DCG@K, IDCG@K and NDCG@K.

.. math::

    \mathrm{CG@}K = \sum_{k=1}^{K} g(rel_k) \qquad
    \mathrm{DCG@}K = \sum_{k=1}^{K} \frac{g(rel_k)}{d(k)} \qquad
    \mathrm{NDCG@}K = \frac{\mathrm{DCG@}K}{\mathrm{IDCG@}K}

IDCG@K is DCG@K of the ideal ranking (items sorted by gain, best first), computed by the same
function. Named variants (:mod:`irlab.metrics.conventions`):

* ``gain``: ``"linear"`` :math:`g(rel) = rel` (default, trec_eval) or ``"exponential"``
  :math:`g(rel) = 2^{rel} - 1`; or a mapping grade -> gain (trec_eval ``ndcg.1=3,2=9``; unlisted
  grades keep gain = grade).
* ``discount``: ``"log2"`` :math:`d(k) = \log_2(k + 1)` (default, trec_eval 9+) or
  ``"jarvelin-kekalainen"``: :math:`d(1) = 1`, :math:`d(k) = \log_2 k` for k >= 2.
* ``ideal``: ``"judged"`` (default): the ideal ranking holds every judged item;
  ``"retrieved"``: only the ranked items (scikit-learn, torchmetrics).

Conventions: negative grades (trec_eval's unjudged -1) have gain 0; ``k=None`` means no cutoff
(trec_eval ``ndcg``: DCG over the whole ranking, IDCG over every judged item); IDCG = 0 (no
relevant item) gives NDCG 0.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import lru_cache
from numbers import Real

import numpy as np

from irlab.data.columns import NOT_POOLED, JudgedRankings, divide, rank_discounts, segment_prefix, value_at
from irlab.data.judgments import grade_of
from irlab.data.rankings import check_cutoff, check_ranking
from irlab.errors import ValidationError
from irlab.explain.breakdown import Breakdown, Column, latex_measure, measure_name
from irlab.explain.formula import Add, Expr, Frac, Log2, Num, Pow, Sub
from irlab.metrics.conventions import check_variant
from irlab.metrics.teaching import Mistake, Teaching, discount_function, gain_function, ideal_gains

Gain = str | Mapping[int, float]


MAX_GAIN = 1e6
"""The largest gain a mapping may give a grade: sums of a few thousand such gains stay exact and finite
(a gain of 1e308 validated, then overflowed to infinity in every DCG)."""


def check_gain(gain: Gain) -> Gain:
    """Return ``gain`` if it is a gain variant name or a mapping of grades to gains >= 0.

    >>> check_gain("linear"), check_gain({1: 3, 2: 9})
    ('linear', {1: 3, 2: 9})
    """
    if isinstance(gain, str):
        return check_variant("gain", gain)
    if isinstance(gain, Mapping):
        for grade, value in gain.items():
            if isinstance(grade, bool) or not isinstance(grade, int) or grade < 0:
                raise ValidationError(f"a gain mapping's grades must be whole numbers >= 0, got {grade!r}")
            if grade > MAX_GAIN:
                raise ValidationError(f"a gain mapping's grades must be at most {MAX_GAIN:g}, got {grade!r}")
            if isinstance(value, bool) or not isinstance(value, Real) or not 0 <= value <= MAX_GAIN:
                raise ValidationError(f"the gain of grade {grade} must be a number from 0 to {MAX_GAIN:g}, "
                                      f"got {value!r}")
        return gain
    raise ValidationError(f"gain must be 'linear', 'exponential' or a mapping of grades to gains, got {gain!r}")


def gain_expr(grade: int, gain: Gain) -> Expr:
    r"""The gain of an item with ``grade``, as a formula node.

    >>> gain_expr(3, "linear").latex(), gain_expr(3, "exponential").latex(), gain_expr(-1, "linear").latex()
    ('3', '2^{3} - 1', '0')
    """
    if grade < 0:
        return Num(0)
    if gain == "linear":
        return Num(grade)
    if gain == "exponential":
        return Sub(Pow(Num(2), Num(grade)), Num(1))
    return Num(gain.get(grade, grade))


def discount_expr(rank: int, discount: str) -> Expr | None:
    r"""The divisor of the gain at ``rank``, or None when the rank is not discounted.

    >>> discount_expr(1, "log2").latex(), discount_expr(1, "jarvelin-kekalainen")
    ('\\log_2(2)', None)
    >>> discount_expr(3, "jarvelin-kekalainen").latex()
    '\\log_2(3)'
    """
    if discount == "log2":
        return Log2(Num(rank + 1))
    return None if rank == 1 else Log2(Num(rank))


def dcg_formula(name: str, gain: Gain, discount: str) -> tuple[str, str]:
    r"""The symbolic DCG formula for a variant, as (LaTeX, words); ``name`` is DCG or IDCG.

    >>> dcg_formula("DCG", "linear", "log2")[0]
    '\\mathrm{DCG@}K = \\sum_{k=1}^{K} \\frac{rel_k}{\\log_2(k + 1)}'
    """
    g = {"linear": "rel_{k}", "exponential": "(2^{rel_{k}} - 1)"}.get(gain, "g(rel_{k})") if isinstance(gain, str) \
        else "g(rel_{k})"
    g_words = {"linear": "grade", "exponential": "(2 to the power of the grade, minus 1)"}.get(gain, "gain") \
        if isinstance(gain, str) else "gain"
    lhs = latex_measure(name, "K")
    of = " of the ideal ranking" if name == "IDCG" else ""
    if discount == "log2":
        numerator = g.replace("rel_{k}", "rel_k").replace("(2^{rel_k} - 1)", "2^{rel_k} - 1")
        return (rf"{lhs} = \sum_{{k=1}}^{{K}} \frac{{{numerator}}}{{\log_2(k + 1)}}",
                f"{name}@K = sum over ranks k up to K of {g_words} at rank k / log2(k + 1){of}")
    first = g.replace("{k}", "{1}")
    rest = g.replace("rel_{k}", "rel_k").replace("(2^{rel_k} - 1)", "2^{rel_k} - 1")
    return (rf"{lhs} = {first} + \sum_{{k=2}}^{{K}} \frac{{{rest}}}{{\log_2 k}}",
            f"{name}@K = {g_words} at rank 1 + sum over ranks k from 2 to K of {g_words} at rank k / log2(k){of}")


def _item_gain(judgments: Mapping[str, int], item: str, gain: Gain) -> Expr:
    """The gain of ``item``; an unjudged item has grade 0 (so it gains what grade 0 gains).

    trec_eval differs in one corner: with ``ndcg.0=x`` it gives unjudged documents gain 0 and
    judged grade-0 documents gain x; IR Lab gives both x, the rule "unjudged means grade 0".
    """
    return gain_expr(grade_of(judgments, item), gain)


def _ideal_order(ranking: Sequence[str], judgments: Mapping[str, int], gain: Gain, ideal: str) -> list[str]:
    """Items best gain first: every judged and ranked item (``"judged"``) or the ranked ones only; ties in the
    ranking's order (then by id)."""
    return list(_sorted_by_gain(tuple(ranking), tuple(judgments.items()), _frozen_gain(gain), ideal))


@lru_cache(maxsize=1024)
def _sorted_by_gain(ranking: tuple[str, ...], judged: tuple[tuple[str, int], ...], gain: FrozenGain, ideal: str
                    ) -> tuple[str, ...]:
    # cached: IDCG@K at every K of a curve sorts the same items
    grades = dict(judged)
    position = {item: index for index, item in enumerate(ranking)}
    items = list(ranking) if ideal == "retrieved" else list(dict.fromkeys([*ranking, *grades]))
    return tuple(sorted(items, key=lambda item: (-_gain_value(grade_of(grades, item), gain),
                                                 position.get(item, len(position)), item)))


FrozenGain = str | tuple[tuple[int, float], ...]


def _frozen_gain(gain: Gain) -> FrozenGain:
    """``gain`` as a key of the caches below (a mapping grade -> gain as its sorted items)."""
    return gain if isinstance(gain, str) else tuple(sorted(gain.items()))


def _thawed_gain(gain: FrozenGain) -> Gain:
    return gain if isinstance(gain, str) else dict(gain)


@lru_cache(maxsize=256)
def _gain_value(grade: int, gain: FrozenGain) -> float:
    """The value of :func:`gain_expr` (what the ideal order sorts by)."""
    return gain_expr(grade, _thawed_gain(gain)).value()


def _explain_dcg(ranking: Sequence[str], judgments: Mapping[str, int], k: int | None, gain: Gain, discount: str,
                 name: str) -> Breakdown:
    """DCG of ``ranking`` under a variant; named ``name`` (``DCG`` or ``IDCG``).

    DCG@K reads only the top K's grades, and IDCG@K only the ideal order's: the breakdown is made once per top K
    (:func:`_dcg_breakdown`). A chapter draws its screen at eight K and after seven moves of a tile for each new
    order, and most of those share their top K (and nearly all their ideal order) with one drawn before.
    """
    depth = len(ranking) if k is None else min(k, len(ranking))
    graded = tuple((item, grade_of(judgments, item)) for item in ranking[:depth])
    return _dcg_breakdown(graded, len(ranking), k, _frozen_gain(gain), discount, name)


@lru_cache(maxsize=4096)
def _dcg_breakdown(graded: tuple[tuple[str, int], ...], length: int, k: int | None, frozen_gain: FrozenGain,
                   discount: str, name: str) -> Breakdown:
    """DCG of a top K (each item with its grade) of a ranking of ``length`` items (see :func:`_explain_dcg`)."""
    gain = _thawed_gain(frozen_gain)
    rows, terms, running = [], [], 0.0
    for rank, (item, grade) in enumerate(graded, start=1):
        numerator, divisor = gain_expr(grade, gain), discount_expr(rank, discount)
        term = numerator if divisor is None else Frac(numerator, divisor)
        terms.append(term)
        running += term.value()
        rows.append({"rank": rank, "item": item, "grade": grade, "gain": numerator.value(),
                     "discount": 1.0 if divisor is None else divisor.value(), "contribution": term.value(),
                     "running_total": running})
    plugged = Add(terms)
    symbolic, words = dcg_formula(name, gain, discount)
    notes = []
    if k is not None and k > length:
        notes.append(f"K = {k} is past the end of the {length} ranked items: the missing ranks add nothing.")
    return Breakdown(measure=measure_name(name, k), value=float(plugged.value()), lhs=latex_measure(name, k),
                     symbolic=symbolic, symbolic_text=words, plugged=plugged, rows=tuple(rows),
                     columns=(Column("rank", "k"), Column("item", "item"), Column("grade", "rel_k", "the grade"),
                              Column("gain", "gain", "g(rel_k)"), Column("discount", "discount", "d(k)"),
                              Column("contribution", "gain / discount"),
                              Column("running_total", f"{name}@k", "the sum so far")),
                     notes=tuple(notes))


def explain_cg_at_k(ranking: Sequence[str], judgments: Mapping[str, int], k: int | None = None, *,
                    gain: Gain = "linear") -> Breakdown:
    r"""CG@K, cumulative gain: the sum of the gains in the top K, whatever their order.

    .. math:: \mathrm{CG@}K = \sum_{k=1}^{K} rel_k

    Conventions: linear gain by default; negative grades count 0; K past the end adds nothing.
    CG is order-unaware: swapping items inside the top K never changes it.

    Example (grades 0, 4, 1, 3, 4, 1, 3, 2 by rank): :math:`\mathrm{CG@}2 = 0 + 4 = 4`.

    >>> explain_cg_at_k(list("12345678"), dict(zip("12345678", [0, 4, 1, 3, 4, 1, 3, 2])), 2).plugged_latex
    '\\mathrm{CG@}2 = 0 + 4 = 4'
    """
    ranking = check_ranking(ranking)
    k = check_cutoff(k)
    gain = check_gain(gain)
    depth = len(ranking) if k is None else min(k, len(ranking))
    rows, terms, running = [], [], 0.0
    for rank, item in enumerate(ranking[:depth], start=1):
        term = _item_gain(judgments, item, gain)
        terms.append(term)
        running += term.value()
        rows.append({"rank": rank, "item": item, "grade": grade_of(judgments, item), "gain": term.value(),
                     "running_total": running})
    plugged = Add(terms)
    g = "rel_k" if gain == "linear" else (r"(2^{rel_k} - 1)" if gain == "exponential" else "g(rel_k)")
    return Breakdown(measure=measure_name("CG", k), value=float(plugged.value()), lhs=latex_measure("CG", k),
                     symbolic=rf"\mathrm{{CG@}}K = \sum_{{k=1}}^{{K}} {g}",
                     symbolic_text="CG@K = sum of the gains of the top K items", plugged=plugged, rows=tuple(rows),
                     columns=(Column("rank", "k"), Column("item", "item"), Column("grade", "rel_k"),
                              Column("gain", "gain"), Column("running_total", "CG@k", "the sum so far")))


def cg_at_k(ranking: Sequence[str], judgments: Mapping[str, int], k: int | None = None, *,
            gain: Gain = "linear") -> float:
    """The value of :func:`explain_cg_at_k`.

    >>> cg_at_k(list("12345678"), dict(zip("12345678", [0, 4, 1, 3, 4, 1, 3, 2])))
    18.0
    """
    return explain_cg_at_k(ranking, judgments, k, gain=gain).value


def explain_dcg_at_k(ranking: Sequence[str], judgments: Mapping[str, int], k: int | None = None, *,
                     gain: Gain = "linear", discount: str = "log2") -> Breakdown:
    r"""DCG@K, discounted cumulative gain: each gain divided by a discount that grows with rank.

    .. math:: \mathrm{DCG@}K = \sum_{k=1}^{K} \frac{g(rel_k)}{d(k)}, \quad g(rel) = rel, \; d(k) = \log_2(k + 1)

    Variants and conventions: see the module docstring. Rows hold rank, item, grade, gain,
    discount, contribution and the running total.

    Example (grades 0, 4, ... by rank):
    :math:`\mathrm{DCG@}2 = \frac{0}{\log_2 2} + \frac{4}{\log_2 3} \approx 2.5237`; the seed
    exercise's unit case, grades 4, 1, 3 with the original Järvelin–Kekäläinen discount, gives
    :math:`4 + \frac{1}{\log_2 2} = 5` at K = 2.

    >>> grades = dict(zip("12345678", [0, 4, 1, 3, 4, 1, 3, 2]))
    >>> explain_dcg_at_k(list("12345678"), grades, 2).plugged_latex
    '\\mathrm{DCG@}2 = \\frac{0}{\\log_2(2)} + \\frac{4}{\\log_2(3)} \\approx 2.5237'
    >>> dcg_at_k(["a", "b", "c"], {"a": 4, "b": 1, "c": 3}, 2, discount="jarvelin-kekalainen")
    5.0
    """
    ranking = check_ranking(ranking)
    k = check_cutoff(k)
    gain = check_gain(gain)
    check_variant("discount", discount)
    return _explain_dcg(ranking, judgments, k, gain, discount, "DCG")


def dcg_at_k(ranking: Sequence[str], judgments: Mapping[str, int], k: int | None = None, *,
             gain: Gain = "linear", discount: str = "log2") -> float:
    """The value of :func:`explain_dcg_at_k`.

    >>> round(dcg_at_k(["a", "b", "c"], {"a": 4, "b": 1, "c": 3}, 5, discount="jarvelin-kekalainen"), 4)
    6.8928
    """
    return explain_dcg_at_k(ranking, judgments, k, gain=gain, discount=discount).value


def explain_idcg_at_k(ranking: Sequence[str], judgments: Mapping[str, int], k: int | None = None, *,
                      gain: Gain = "linear", discount: str = "log2", ideal: str = "judged") -> Breakdown:
    r"""IDCG@K, the DCG@K of the ideal ranking: the best possible DCG@K for this query.

    .. math:: \mathrm{IDCG@}K = \mathrm{DCG@}K(\text{items sorted by gain, best first})

    ``ideal="judged"`` (default, trec_eval) sorts every judged item of the query;
    ``"retrieved"`` sorts only the ranked items. Ties keep the current ranking's order.

    Example (grades 0, 4, 1, 3, 4, 1, 3, 2; ideal 4, 4, 3, ...):
    :math:`\mathrm{IDCG@}2 = \frac{4}{\log_2 2} + \frac{4}{\log_2 3} \approx 6.5237`.

    >>> round(idcg_at_k(list("12345678"), dict(zip("12345678", [0, 4, 1, 3, 4, 1, 3, 2])), 2), 4)
    6.5237
    """
    ranking = check_ranking(ranking)
    k = check_cutoff(k)
    gain = check_gain(gain)
    check_variant("discount", discount)
    check_variant("ideal", ideal)
    return _explain_dcg(_ideal_order(ranking, judgments, gain, ideal), judgments, k, gain, discount, "IDCG")


def idcg_at_k(ranking: Sequence[str], judgments: Mapping[str, int], k: int | None = None, *,
              gain: Gain = "linear", discount: str = "log2", ideal: str = "judged") -> float:
    """The value of :func:`explain_idcg_at_k`."""
    return explain_idcg_at_k(ranking, judgments, k, gain=gain, discount=discount, ideal=ideal).value


def explain_ndcg_at_k(ranking: Sequence[str], judgments: Mapping[str, int], k: int | None = None, *,
                      gain: Gain = "linear", discount: str = "log2", ideal: str = "judged") -> Breakdown:
    r"""NDCG@K: DCG@K divided by the best possible DCG@K, so 1 means an ideal top K.

    .. math:: \mathrm{NDCG@}K = \frac{\mathrm{DCG@}K}{\mathrm{IDCG@}K}

    Conventions: IDCG@K = 0 (no item with positive gain) gives 0; variants as in the module
    docstring. The breakdown's parts are the DCG and IDCG breakdowns; its rows pair each rank's
    DCG term with the ideal ranking's term and give the running NDCG@k.

    Example (grades 0, 4, 1, 3, 4, 1, 3, 2 by rank):
    :math:`\mathrm{NDCG@}2 = \frac{2.5237}{6.5237} \approx 0.3869`; at K = 8, 0.7283 (the article
    prints 0.41 for this ranking; its code used other grades).

    >>> grades = dict(zip("12345678", [0, 4, 1, 3, 4, 1, 3, 2]))
    >>> explain_ndcg_at_k(list("12345678"), grades, 2).plugged_latex
    '\\mathrm{NDCG@}2 \\approx \\frac{2.5237}{6.5237} \\approx 0.3869'
    >>> round(ndcg_at_k(list("12345678"), grades, 8), 4), ndcg_at_k(["a"], {"a": 0}, 1)
    (0.7283, 0.0)
    """
    dcg = explain_dcg_at_k(ranking, judgments, k, gain=gain, discount=discount)
    idcg = explain_idcg_at_k(ranking, judgments, k, gain=gain, discount=discount, ideal=ideal)
    plugged: Expr = Frac(Num(dcg.value), Num(idcg.value)) if idcg.value > 0 else Num(0)
    notes = () if idcg.value > 0 else ("No item has a positive gain, so IDCG = 0: NDCG is defined as 0 (trec_eval).",)
    rows = []
    for index in range(max(len(dcg.rows), len(idcg.rows))):
        own = dcg.rows[index] if index < len(dcg.rows) else None
        best = idcg.rows[index] if index < len(idcg.rows) else None
        running_dcg = own["running_total"] if own else dcg.value
        running_idcg = best["running_total"] if best else idcg.value
        rows.append({"rank": index + 1, "item": own and own["item"], "grade": own and own["grade"],
                     "contribution": own["contribution"] if own else 0.0, "dcg": running_dcg,
                     "ideal_item": best and best["item"], "ideal_grade": best and best["grade"],
                     "ideal_contribution": best["contribution"] if best else 0.0, "idcg": running_idcg,
                     "ndcg": running_dcg / running_idcg if running_idcg > 0 else 0.0})
    return Breakdown(measure=measure_name("NDCG", k), value=float(plugged.value()), lhs=latex_measure("NDCG", k),
                     symbolic=r"\mathrm{NDCG@}K = \frac{\mathrm{DCG@}K}{\mathrm{IDCG@}K}",
                     symbolic_text="NDCG@K = DCG@K / IDCG@K, the DCG of the ranking over the DCG of the ideal ranking",
                     plugged=plugged, rows=tuple(rows),
                     columns=(Column("rank", "k"), Column("item", "item"), Column("grade", "rel_k"),
                              Column("contribution", "DCG term"), Column("dcg", "DCG@k"),
                              Column("ideal_item", "ideal item"), Column("ideal_grade", "ideal rel_k"),
                              Column("ideal_contribution", "IDCG term"), Column("idcg", "IDCG@k"),
                              Column("ndcg", "NDCG@k")),
                     notes=notes + dcg.notes, parts={"DCG": dcg, "IDCG": idcg})


def ndcg_at_k(ranking: Sequence[str], judgments: Mapping[str, int], k: int | None = None, *,
              gain: Gain = "linear", discount: str = "log2", ideal: str = "judged") -> float:
    """The value of :func:`explain_ndcg_at_k`."""
    return explain_ndcg_at_k(ranking, judgments, k, gain=gain, discount=discount, ideal=ideal).value


# --- kernels: the same values for every query of a JudgedRankings at once ---------------------------

def gain_values(grades: np.ndarray, gain: Gain) -> np.ndarray:
    """:func:`gain_expr` over an array of grades or codes: not in the qrels is grade 0, pooled-unjudged gains 0.

    >>> gain_values(np.array([-2, -1, 0, 1, 3]), "exponential").tolist()
    [0.0, 0.0, 0.0, 1.0, 7.0]
    >>> gain_values(np.array([-1, 2]), {0: 1}).tolist()
    [1.0, 2.0]
    """
    grades = np.asarray(grades, dtype=np.int64)
    grades = np.where(grades == NOT_POOLED, 0, grades)  # an unjudged document has grade 0
    if gain == "linear":
        return np.where(grades > 0, grades, 0).astype(np.float64)
    if gain == "exponential":
        return np.where(grades > 0, np.power(2.0, np.maximum(grades, 0)) - 1.0, 0.0)
    values = np.where(grades > 0, grades, 0).astype(np.float64)
    for grade, value in gain.items():
        values[grades == grade] = value
    return values


def _dcg_prefix(rankings: JudgedRankings, gain: Gain, discount: str) -> np.ndarray:
    def compute() -> np.ndarray:
        return rankings.prefix(gain_values(rankings.grades, gain) / rankings.discounts(discount))
    return rankings.cached(("dcg", _gain_key(gain), discount), compute)


def _ideal_prefix(rankings: JudgedRankings, gain: Gain, discount: str, ideal: str) -> tuple[np.ndarray, np.ndarray]:
    """The ideal rankings' running DCG, and their offsets (every judged document, or the retrieved ones)."""
    def compute() -> tuple[np.ndarray, np.ndarray]:
        if ideal == "retrieved":
            gains = gain_values(rankings.grades, gain)
            best_first = np.lexsort((-gains, rankings.row_query))
            return rankings.prefix(gains[best_first] / rankings.discounts(discount)), rankings.offsets
        level_gain = gain_values(np.arange(rankings.level_counts.shape[1]), gain)
        levels = np.argsort(-level_gain, kind="stable")
        levels = levels[level_gain[levels] > 0]
        at_level = rankings.level_counts.copy()
        if level_gain[0] > 0:  # grade 0 has a gain: unjudged retrieved documents (grade 0) join the ideal
            at_level[:, 0] += rankings.count_at(rankings.grades == NOT_POOLED, None)
        counts = at_level[:, levels]
        gains = np.repeat(np.tile(level_gain[levels], len(rankings)), counts.ravel())
        offsets = np.concatenate([[0], np.cumsum(counts.sum(axis=1))])
        ranks = np.arange(len(gains)) - np.repeat(offsets[:-1], counts.sum(axis=1)) + 1
        return segment_prefix(gains / rank_discounts(ranks, discount), offsets), offsets
    return rankings.cached(("ideal", _gain_key(gain), discount, ideal), compute)


def _gain_key(gain: Gain) -> object:
    return gain if isinstance(gain, str) else tuple(sorted(gain.items()))


def cg_kernel(rankings: JudgedRankings, k: int | None = None, *, gain: Gain = "linear") -> np.ndarray:
    """:func:`explain_cg_at_k`'s value for every query."""
    return rankings.prefix_at(rankings.cached(("cg", _gain_key(gain)),
                                              lambda: rankings.prefix(gain_values(rankings.grades, gain))), k)


def dcg_kernel(rankings: JudgedRankings, k: int | None = None, *, gain: Gain = "linear",
               discount: str = "log2") -> np.ndarray:
    """:func:`explain_dcg_at_k`'s value for every query."""
    return rankings.prefix_at(_dcg_prefix(rankings, gain, discount), k)


def idcg_kernel(rankings: JudgedRankings, k: int | None = None, *, gain: Gain = "linear", discount: str = "log2",
                ideal: str = "judged") -> np.ndarray:
    """:func:`explain_idcg_at_k`'s value for every query."""
    prefix, offsets = _ideal_prefix(rankings, gain, discount, ideal)
    return value_at(prefix, offsets, k)


def ndcg_kernel(rankings: JudgedRankings, k: int | None = None, *, gain: Gain = "linear", discount: str = "log2",
                ideal: str = "judged") -> np.ndarray:
    """:func:`explain_ndcg_at_k`'s value for every query (trec_eval ``ndcg``, ``ndcg_cut_k``, ``ndcg.1=3,...``).

    >>> r = JudgedRankings.from_lists(["q"], [[0, 4, 1, 3, 4, 1, 3, 2]], [[0, 4, 1, 3, 4, 1, 3, 2]])
    >>> ndcg_kernel(r, 2).round(4).tolist(), ndcg_kernel(r, 8).round(4).tolist()
    ([0.3869], [0.7283])
    """
    return divide(dcg_kernel(rankings, k, gain=gain, discount=discount),
                  idcg_kernel(rankings, k, gain=gain, discount=discount, ideal=ideal))


# --- how exercises teach them (irlab.metrics.teaching) --------------------------------------------------------------

def _cg_code(measure, rel: int) -> str:
    return (f"{gain_function(measure)}\n\n"
            "top = ranking if k is None else ranking[:k]\n"
            "return float(sum(gain(ground_truth.get(doc, 0)) for doc in top))")


def _dcg_code(measure, rel: int) -> str:
    return (f"{gain_function(measure)}\n\n{discount_function(measure)}\n\n"
            "top = ranking if k is None else ranking[:k]\n"
            "return float(sum(gain(ground_truth.get(doc, 0)) / discount(rank)\n"
            "                 for rank, doc in enumerate(top, start=1)))")


def _idcg_code(measure, rel: int) -> str:
    return (f"{gain_function(measure)}\n\n{discount_function(measure)}\n\n"
            f"{ideal_gains(measure)}\n"
            "if k is not None:\n    ideal = ideal[:k]\n"
            "return float(sum(g / discount(rank) for rank, g in enumerate(ideal, start=1)))")


def _ndcg_code(measure, rel: int) -> str:
    return (f"{gain_function(measure)}\n\n{discount_function(measure)}\n\n"
            "def dcg(gains):\n    return sum(g / discount(rank) for rank, g in enumerate(gains, start=1))\n\n"
            "gains = [gain(ground_truth.get(doc, 0)) for doc in ranking]\n"
            f"{ideal_gains(measure)}\n"
            "if k is not None:\n    gains, ideal = gains[:k], ideal[:k]\n"
            "best = dcg(ideal)\n"
            "return dcg(gains) / best if best > 0 else 0.0")


def _dcg_for_ndcg(m):
    """DCG with the same gain, discount and cut-off, where NDCG was asked."""
    if m.family == "nDCG":
        return replace(m, family="DCG", options={k: v for k, v in m.options.items() if k != "ideal"})
    return None


NDCG_TEACHING = Teaching(
    "ndcg", "Computes NDCG@k: DCG@k divided by IDCG@k, the DCG@k of the ideal ranking (0 if IDCG@k is 0).", "NDCG@k",
    _ndcg_code, quiz_k=True,
    mistakes=(Mistake("dcg-not-normalised", "DCG instead of NDCG",
                      "You gave DCG, but NDCG divides it by IDCG, the DCG of the ideal ranking.", _dcg_for_ndcg),),
    examples=("nDCG", "nDCG@5", "nDCG(gain='exponential')@5", "nDCG(discount='jarvelin-kekalainen')@5",
              "nDCG(ideal='retrieved')@4", "nDCG(gains={0: 1, 1: 3, 2: 7})@5", "nDCG(gains={1: 10, 2: 1})@3",
              "nDCG(dcg='exp-log2', discount='jk', ideal='retrieved')"))
DCG_TEACHING = Teaching(
    "dcg", "Computes DCG@k: the sum over ranks of the gain divided by the discount of the rank.", "DCG@k", _dcg_code,
    quiz_k=True, examples=("DCG@3", "DCG(gain='exponential', discount='jk')@4", "DCG"))
IDCG_TEACHING = Teaching(
    "idcg", "Computes IDCG@k: the DCG@k of the ideal ranking (documents sorted by gain, best first).", "IDCG@k",
    _idcg_code, examples=("IDCG@5", "IDCG(ideal='retrieved')", "IDCG(gains={0: 2})@3"))
CG_TEACHING = Teaching(
    "cg", "Computes CG@k: the sum of the gains of the top k documents, whatever their order.", "CG@k", _cg_code,
    examples=("CG@4", "CG(gain='exponential')"))
