r"""trec_eval's experimental gain measures: binG, G, ndcg_rel and Rndcg.

Buckley's experiments (trec_eval 9, 2008) in combining the qualities of MAP and nDCG:

* ``binG``: :math:`\frac{1}{R}\sum_{r \text{ relevant}} \frac{1}{\log_2(2 + n_r)}`, with :math:`n_r` the
  documents above r that are not relevant: a relevant document is discounted only by the
  non-relevant ones above it.
* ``G``: :math:`\frac{1}{\sum_j I_j} \sum_i \frac{g_i}{\log_2(2 + C_i - S_i)}`, with :math:`S_i` the
  gain collected up to rank i, :math:`I_j` the ideal ranking's gains and :math:`C_i` the ideal
  "cost" up to rank i (each ideal gain counted at least 1): the discount grows only as far as
  the ranking falls behind the ideal one.
* ``ndcg_rel``: nDCG averaged at each relevant document retrieved (a relevant document never
  retrieved counts the nDCG at the end of the ranking).
* ``Rndcg``: nDCG averaged at the ranks where the ideal ranking's gain changes level (the "R
  levels"), and at the end of the ranking.

Gains are the grades unless given (``G.1=3.5,2=9``); unjudged documents gain 0. G, ndcg_rel and
Rndcg are defined by trec_eval's loops, so each is computed by one function that walks the
ranking and the ideal ranking as trec_eval does; it explains one query and, query by query, a
whole run. binG is a plain sum and has a vectorised kernel.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

import numpy as np

from irlab.data.columns import NOT_POOLED, NOT_RANKED, UNJUDGED, JudgedRankings, divide, log2_table
from irlab.data.judgments import DEFAULT_RELEVANCE_LEVEL, check_relevance_level, num_relevant
from irlab.data.rankings import check_ranking
from irlab.explain.breakdown import Breakdown, Column
from irlab.explain.formula import Add, Frac, Log2, Normalised, Num

Gains = Mapping[int, float] | None
_MIN_COST = 1.0


# --- one query, as trec_eval walks it ----------------------------------------------------------------

def _ideal(levels: Sequence[int], gains: Gains) -> tuple[float, list[float]]:
    """The top level's gain, and the ideal ranking's gain at each rank (levels best gain first).

    As trec_eval's ``setup_gains``: every grade from 0 to the top judged grade is a level with its
    gain (the grade unless ``gains`` says otherwise), and so is every grade ``gains`` names.
    """
    counts: dict[int, int] = {}
    for grade in levels:
        counts[grade] = counts.get(grade, 0) + 1
    table = {grade: (float(grade), counts.get(grade, 0)) for grade in range(max(counts, default=-1) + 1)}
    for grade, gain in (gains or {}).items():
        table[grade] = (float(gain), counts.get(grade, 0))
    ordered = sorted(table.values(), key=lambda pair: -pair[0])
    top = ordered[0][0] if ordered else 0.0
    return top, [gain for gain, count in ordered for _ in range(count)]


def _at(ideal: list[float], i: int) -> float:
    return ideal[i] if i < len(ideal) else 0.0


def _gain(code: int, gains: Gains) -> float:
    """A retrieved document's gain: its grade's (0 for codes of unjudged documents)."""
    return 0.0 if code < 0 else float((gains or {}).get(code, code))


def _divide(a: float, b: float) -> float:
    """``a / b`` as C computes it (inf or nan instead of an error when b is 0)."""
    if b:
        return a / b
    return math.nan if a == 0 or math.isnan(a) else math.copysign(math.inf, a)


def g_query(grades: Sequence[int], levels: Sequence[int], gains: Gains = None) -> tuple[float, list[dict]]:
    """G of one query (grade codes in rank order, the judged grades) and its rows."""
    top, ideal = _ideal(levels, gains)
    collected = cost = result = total_ideal = 0.0
    previous, rows, i = top, [], 0
    while i < len(grades) and previous > 0.0:
        gain, level = _gain(grades[i], gains), _at(ideal, i)
        collected += gain
        if level > 0.0:
            total_ideal += level
        cost += level if level >= _MIN_COST else _MIN_COST
        term = gain / math.log2(2 + cost - collected) if gain != 0 else 0.0
        result += term
        rows.append({"rank": i + 1, "gain": gain, "ideal_gain": level, "collected": collected, "cost": cost,
                     "term": term})
        previous, i = level, i + 1
    while i < len(grades):
        gain = _gain(grades[i], gains)
        collected += gain
        cost += _MIN_COST
        term = gain / math.log2(2 + cost - collected) if gain != 0 else 0.0
        result += term
        rows.append({"rank": i + 1, "gain": gain, "ideal_gain": 0.0, "collected": collected, "cost": cost,
                     "term": term})
        i += 1
    while previous > 0.0:
        previous = _at(ideal, i)
        if previous > 0.0:
            total_ideal += previous
        i += 1
    return (result / total_ideal if total_ideal > 0.0 else 0.0), rows


def ndcg_rel_query(grades: Sequence[int], levels: Sequence[int], gains: Gains = None) -> tuple[float, list[dict]]:
    """ndcg_rel of one query and its rows (nDCG at each relevant document)."""
    log2 = log2_table(len(grades) + len(levels) + 2)
    top, ideal = _ideal(levels, gains)
    dcg = ideal_dcg = total = 0.0
    relevant = found = 0
    previous, rows, i = top, [], 0
    while i < len(grades) and previous > 0.0:
        gain, level = _gain(grades[i], gains), _at(ideal, i)
        if gain != 0:
            dcg += gain / log2[i + 2]
        if level > 0.0:
            relevant += 1
            ideal_dcg += level / log2[i + 2]
        at = None
        if gain > 0:
            at = _divide(dcg, ideal_dcg)
            total += at
            found += 1
        rows.append({"rank": i + 1, "gain": gain, "dcg": dcg, "idcg": ideal_dcg, "ndcg": at})
        previous, i = level, i + 1
    while i < len(grades):
        gain = _gain(grades[i], gains)
        if gain != 0:
            dcg += gain / log2[i + 2]
        at = None
        if gain > 0:
            at = _divide(dcg, ideal_dcg)
            total += at
            found += 1
        rows.append({"rank": i + 1, "gain": gain, "dcg": dcg, "idcg": ideal_dcg, "ndcg": at})
        i += 1
    while previous > 0.0:
        previous = _at(ideal, i)
        if previous > 0.0:
            relevant += 1
            ideal_dcg += previous / _log2(i + 2)
        i += 1
    total += _divide(float(relevant - found) * dcg, ideal_dcg)
    return (total / relevant if total > 0.0 else 0.0), rows


def rndcg_query(grades: Sequence[int], levels: Sequence[int], gains: Gains = None, *,
                relevant: int) -> tuple[float, list[dict]]:
    """Rndcg of one query and its rows (nDCG where the ideal gain changes level); ``relevant`` is R."""
    if relevant == 0:
        return 0.0, []
    log2 = log2_table(len(grades) + len(levels) + 2)
    top, ideal = _ideal(levels, gains)
    dcg = ideal_dcg = total = 0.0
    changes = 0
    current = old = top
    rows, i = [], 0
    while i < len(grades) and current > 0.0:
        gain, current = _gain(grades[i], gains), _at(ideal, i)
        counted = None
        if old != current:
            if ideal_dcg > 0.0:
                counted = dcg / ideal_dcg
                total += counted
                changes += 1
            old = current
        if gain != 0:
            dcg += gain / log2[i + 2]
        if current > 0.0:
            ideal_dcg += current / log2[i + 2]
        rows.append({"rank": i + 1, "gain": gain, "ideal_gain": current, "dcg": dcg, "idcg": ideal_dcg,
                     "ndcg": counted})
        i += 1
    if i < len(grades):
        while i < len(grades):
            gain = _gain(grades[i], gains)
            if gain != 0:
                dcg += gain / log2[i + 2]
            rows.append({"rank": i + 1, "gain": gain, "ideal_gain": 0.0, "dcg": dcg, "idcg": ideal_dcg,
                         "ndcg": None})
            i += 1
        if ideal_dcg > 0.0:
            rows[-1]["ndcg"] = dcg / ideal_dcg
            total += dcg / ideal_dcg
            changes += 1
    while current > 0.0:
        current = _at(ideal, i)
        if old != current:
            if ideal_dcg > 0.0:
                total += dcg / ideal_dcg
                changes += 1
            old = current
        if current > 0.0:
            ideal_dcg += current / _log2(i + 2)
        i += 1
    return _divide(total, changes), rows


def _log2(x: int) -> float:
    return math.log2(x)


# --- explaining one query --------------------------------------------------------------------------

def _codes(ranking: Sequence[str], judgments: Mapping[str, int]) -> tuple[list[str], list[int], list[int]]:
    """The retrieved documents (a missing query's placeholder left out), their grade codes, the judged grades."""
    ranking = [item for item in check_ranking(ranking) if item != NOT_RANKED]
    codes = [NOT_POOLED if item not in judgments else (judgments[item] if judgments[item] >= 0 else UNJUDGED)
             for item in ranking]
    return ranking, codes, [grade for grade in judgments.values() if grade >= 0]


def _walked(name: str, lhs: str, symbolic: str, words: str, value: float, ranking: Sequence[str],
            rows: list[dict], columns: tuple[Column, ...]) -> Breakdown:
    for row in rows:
        row["item"] = ranking[row["rank"] - 1]
    return Breakdown(measure=name, value=float(value), lhs=lhs, symbolic=symbolic, symbolic_text=words,
                     plugged=Num(value), rows=tuple(rows), columns=columns)


def explain_g(ranking: Sequence[str], judgments: Mapping[str, int], *, gains: Gains = None) -> Breakdown:
    r"""G: gain discounted by how far the ranking has fallen behind the ideal one (trec_eval ``G``).

    .. math:: G = \frac{1}{\sum_j I_j} \sum_i \frac{g_i}{\log_2(2 + C_i - S_i)}

    >>> round(explain_g(["a", "b"], {"a": 1, "b": 1}).value, 4)
    1.0
    """
    ranking, codes, levels = _codes(ranking, judgments)
    value, rows = g_query(codes, levels, gains)
    return _walked("G", r"\mathrm{G}", r"G = \frac{1}{\sum_j I_j} \sum_i \frac{g_i}{\log_2(2 + C_i - S_i)}",
                   "G = sum over ranks of gain / log2(2 + ideal cost so far - gain so far), over the ideal gain",
                   value, ranking, rows,
                   (Column("rank", "i"), Column("item", "document"), Column("gain", "g_i"),
                    Column("ideal_gain", "I_i"), Column("collected", "S_i", "gain collected so far"),
                    Column("cost", "C_i", "ideal cost so far"), Column("term", "term")))


def explain_ndcg_rel(ranking: Sequence[str], judgments: Mapping[str, int], *, gains: Gains = None) -> Breakdown:
    r"""nDCG averaged at each relevant document (trec_eval ``ndcg_rel``).

    >>> round(explain_ndcg_rel(["a", "x", "b"], {"a": 1, "b": 1}).value, 4)
    0.9599
    """
    ranking, codes, levels = _codes(ranking, judgments)
    value, rows = ndcg_rel_query(codes, levels, gains)
    return _walked("ndcg_rel", r"\mathrm{nDCG_{rel}}",
                   r"\mathrm{nDCG_{rel}} = \frac{1}{R} \sum_{r \text{ relevant}} \mathrm{nDCG@}\mathrm{rank}_r",
                   "the mean over relevant documents of nDCG at their rank (at the end of the ranking if missed)",
                   value, ranking, rows,
                   (Column("rank", "k"), Column("item", "document"), Column("gain", "gain"), Column("dcg", "DCG@k"),
                    Column("idcg", "IDCG@k"), Column("ndcg", "nDCG@k counted")))


def explain_rndcg(ranking: Sequence[str], judgments: Mapping[str, int], *,
                  relevance_level: int = DEFAULT_RELEVANCE_LEVEL, gains: Gains = None) -> Breakdown:
    r"""nDCG averaged at the R levels, the ranks where the ideal gain changes (trec_eval ``Rndcg``).

    >>> round(explain_rndcg(["a", "x", "b"], {"a": 2, "b": 1, "c": 0}).value, 4)
    0.8801
    """
    ranking, codes, levels = _codes(ranking, judgments)
    relevant = num_relevant(judgments, check_relevance_level(relevance_level))
    value, rows = rndcg_query(codes, levels, gains, relevant=relevant)
    return _walked("Rndcg", r"\mathrm{RnDCG}",
                   r"\mathrm{RnDCG} = \text{mean of } \mathrm{nDCG@}k \text{ at the R levels}",
                   "the mean of nDCG at the ranks where the ideal ranking's gain changes, and at the end",
                   value, ranking, rows,
                   (Column("rank", "k"), Column("item", "document"), Column("gain", "gain"),
                    Column("ideal_gain", "ideal gain"), Column("dcg", "DCG@k"), Column("idcg", "IDCG@k"),
                    Column("ndcg", "nDCG counted here")))


def explain_bin_g(ranking: Sequence[str], judgments: Mapping[str, int], *,
                  relevance_level: int = DEFAULT_RELEVANCE_LEVEL) -> Breakdown:
    r"""binG: each relevant document discounted by the non-relevant documents above it (trec_eval ``binG``).

    .. math:: \mathrm{binG} = \frac{1}{R}\sum_{r} \frac{1}{\log_2(2 + n_r)}

    Example (relevant at ranks 1 and 3 of 3, R = 2):
    :math:`\frac{1}{2}(\frac{1}{\log_2 2} + \frac{1}{\log_2 3}) \approx 0.8155`.

    >>> round(bin_g(["a", "b", "c"], {"a": 1, "c": 1}), 4)
    0.8155
    """
    ranking = [item for item in check_ranking(ranking) if item != NOT_RANKED]
    level = check_relevance_level(relevance_level)
    r = num_relevant(judgments, level)
    terms, rows, above = [], [], 0
    for rank, item in enumerate(ranking, start=1):
        relevant = judgments.get(item, -1) >= level
        term = None
        if relevant:
            frac = Frac(Num(1), Log2(Num(2 + above)))
            terms.append(frac)
            term = frac.value()
        else:
            above += 1
        rows.append({"rank": rank, "item": item, "relevant": relevant, "nonrel_above": above if relevant else None,
                     "term": term})
    plugged = Normalised(Add(terms), Num(r)) if terms else Num(0)
    return Breakdown(measure="binG", value=float(plugged.value()), lhs=r"\mathrm{binG}",
                     symbolic=r"\mathrm{binG} = \frac{1}{R}\sum_{r} \frac{1}{\log_2(2 + n_r)}",
                     symbolic_text="binG = (sum over retrieved relevant documents of 1 / log2(2 + non-relevant "
                                   "documents above)) / R", plugged=plugged, rows=tuple(rows),
                     columns=(Column("rank", "rank"), Column("item", "document"), Column("relevant", "relevant"),
                              Column("nonrel_above", "n_r"), Column("term", "1 / log2(2 + n_r)")))


def bin_g(ranking: Sequence[str], judgments: Mapping[str, int], *,
          relevance_level: int = DEFAULT_RELEVANCE_LEVEL) -> float:
    """The value of :func:`explain_bin_g`."""
    return explain_bin_g(ranking, judgments, relevance_level=relevance_level).value


# --- kernels ---------------------------------------------------------------------------------------

def bin_g_kernel(rankings: JudgedRankings, *, relevance_level: int = DEFAULT_RELEVANCE_LEVEL) -> np.ndarray:
    """:func:`explain_bin_g`'s value for every query (trec_eval ``binG``)."""
    relevant = rankings.relevant(relevance_level)
    above = rankings.row_rank - rankings.cumulative(relevant, key=("relevant", relevance_level))
    log2 = log2_table(int(above.max(initial=0)) + 3)
    terms = np.where(relevant, 1.0 / log2[np.where(relevant, above + 2, 2)], 0.0)
    return divide(rankings.prefix_at(rankings.prefix(terms), None), rankings.num_rel(relevance_level))


def _per_query(rankings: JudgedRankings, value: Callable[[list[int], list[int], int], float]) -> np.ndarray:
    """Run a one-query walk over every query (missing queries walk an empty ranking)."""
    out = np.zeros(len(rankings))
    levels_of = [np.repeat(np.arange(row.shape[0]), row).tolist() for row in rankings.level_counts]
    for q in range(len(rankings)):
        grades = [] if rankings.missing[q] else rankings.grades[rankings.offsets[q]:rankings.offsets[q + 1]].tolist()
        out[q] = value(grades, levels_of[q], q)
    return out


def g_kernel(rankings: JudgedRankings, *, gains: Gains = None) -> np.ndarray:
    """:func:`explain_g`'s value for every query (trec_eval ``G``)."""
    return _per_query(rankings, lambda grades, levels, q: g_query(grades, levels, gains)[0])


def ndcg_rel_kernel(rankings: JudgedRankings, *, gains: Gains = None) -> np.ndarray:
    """:func:`explain_ndcg_rel`'s value for every query (trec_eval ``ndcg_rel``)."""
    return _per_query(rankings, lambda grades, levels, q: ndcg_rel_query(grades, levels, gains)[0])


def rndcg_kernel(rankings: JudgedRankings, *, relevance_level: int = DEFAULT_RELEVANCE_LEVEL,
                 gains: Gains = None) -> np.ndarray:
    """:func:`explain_rndcg`'s value for every query (trec_eval ``Rndcg``)."""
    relevant = rankings.num_rel(relevance_level)
    return _per_query(rankings, lambda grades, levels, q: rndcg_query(grades, levels, gains,
                                                                      relevant=int(relevant[q]))[0])
