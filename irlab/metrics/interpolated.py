r"""Interpolated precision at a recall level, and its 11-point average (the precision-recall curve).

.. math::

    \mathrm{IPrec}@r = \max_{m \ge c} \frac{m}{\mathrm{rank}_m}, \quad c = \mathrm{round}(r \cdot R)
    \qquad
    \mathrm{11pt} = \frac{1}{11} \sum_{r \in \{0, 0.1, \ldots, 1\}} \mathrm{IPrec}@r

:math:`\mathrm{rank}_m` is the rank of the m-th relevant document retrieved, so
:math:`m / \mathrm{rank}_m` is the precision when recall reaches m / R; interpolation takes the
best precision at that recall or beyond. Conventions as trec_eval ``iprec_at_recall`` and
``11pt_avg`` (version 10): c rounds half away from zero; a level above the recall the ranking
reaches gives 0; level 0 (or any c of 0) takes the best precision anywhere, which is 0 when no
relevant document is retrieved and undefined (trec_eval prints ``-nan``) when nothing is retrieved.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np

from irlab.data.columns import JudgedRankings
from irlab.data.judgments import DEFAULT_RELEVANCE_LEVEL, check_relevance_level, grade_of, is_relevant, num_relevant
from irlab.data.rankings import check_ranking
from irlab.errors import ValidationError
from irlab.explain.breakdown import Breakdown, Column
from irlab.explain.formula import Add, Expr, Frac, Max, Normalised, Num, format_number

ELEVEN_POINTS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
"""The recall levels of the 11-point average (trec_eval's defaults for both measures)."""


def check_recall_level(level: object) -> float:
    """Return ``level`` as a float if it is a number from 0 to 1.

    >>> check_recall_level(0.5)
    0.5
    """
    if isinstance(level, bool) or not isinstance(level, (int, float)) or not 0 <= level <= 1:
        raise ValidationError(f"a recall level is a number from 0 to 1, got {level!r}")
    return float(level)


def round_half_away(x: float) -> int:
    """C's ``lround``: the nearest whole number, halves away from zero (trec_eval 10's rounding).

    >>> round_half_away(0.5), round_half_away(1.5), round_half_away(2.4999)
    (1, 2, 2)
    """
    floor = math.floor(x)
    return int(floor + (x - floor >= 0.5))


def recall_rank(level: float, relevant: int) -> int:
    """c, the number of relevant documents recall ``level`` asks for: ``round(level * R)``.

    >>> recall_rank(0.3, 5), recall_rank(0.1, 3)
    (2, 0)
    """
    return round_half_away(level * relevant)


def _precisions(ranking: Sequence[str], judgments: Mapping[str, int],
                relevance_level: int) -> list[tuple[int, int, str]]:
    """(m, rank_m, item) for every relevant document retrieved, in rank order."""
    found = []
    for rank, item in enumerate(ranking, start=1):
        if is_relevant(grade_of(judgments, item), relevance_level):
            found.append((len(found) + 1, rank, item))
    return found


def _interpolated(found: list[tuple[int, int, str]], c: int, retrieved: int) -> tuple[Expr, str | None]:
    """IPrec for relevant count ``c`` as a formula, and a note when a convention decided it."""
    if c > len(found):
        return Num(0), f"recall {c} of R is never reached: 0"
    if c == 0 and not found:
        if retrieved:
            return Num(0), "no relevant document is retrieved: 0"
        return Num(math.nan), "nothing is retrieved: precision 0/0 is undefined (trec_eval prints -nan)"
    return Max([Frac(Num(m), Num(rank)) for m, rank, _ in found[max(c, 1) - 1:]]), None


def explain_iprec_at_recall(ranking: Sequence[str], judgments: Mapping[str, int], level: float, *,
                            relevance_level: int = DEFAULT_RELEVANCE_LEVEL) -> Breakdown:
    r"""Interpolated precision at recall ``level``: the best precision once recall reaches it.

    .. math:: \mathrm{IPrec}@r = \max_{m \ge \mathrm{round}(r R)} \frac{m}{\mathrm{rank}_m}

    Rows: each relevant document retrieved, its precision :math:`m / \mathrm{rank}_m`, its recall
    m / R, and whether it takes part in the maximum. Conventions: see the module.

    Example (relevant at ranks 2, 4, 5, 7 of 8; R = 4): at recall 0.5, c = 2 and
    :math:`\max(\frac{2}{4}, \frac{3}{5}, \frac{4}{7}) = 0.6`.

    >>> explain_iprec_at_recall(list("12345678"), {"2": 1, "4": 1, "5": 1, "7": 1}, 0.5).plugged_latex
    '\\mathrm{IPrec@}0.5 = \\max\\left(\\frac{2}{4}, \\frac{3}{5}, \\frac{4}{7}\\right) = 0.6'
    """
    ranking = check_ranking(ranking)
    level = check_recall_level(level)
    relevance_level = check_relevance_level(relevance_level)
    r = num_relevant(judgments, relevance_level)
    found = _precisions(ranking, judgments, relevance_level)
    c = recall_rank(level, r)
    plugged, note = _interpolated(found, c, len(ranking))
    rows = tuple({"m": m, "rank": rank, "item": item, "precision": m / rank, "recall": m / r,
                  "counts": m >= max(c, 1) and c <= len(found)} for m, rank, item in found)
    name = f"IPrec@{format_number(level)}"
    return Breakdown(
        measure=name, value=float(plugged.value()), lhs=rf"\mathrm{{IPrec@}}{format_number(level)}",
        symbolic=r"\mathrm{IPrec}@r = \max_{m \ge \mathrm{round}(r R)} \frac{m}{\mathrm{rank}_m}",
        symbolic_text="IPrec@r = the best precision m / rank_m among the relevant documents m from round(r * R) on",
        plugged=plugged, rows=rows,
        columns=(Column("m", "m", "the m-th relevant document retrieved"), Column("rank", "rank_m"),
                 Column("item", "document"), Column("precision", "m / rank_m", "precision at its rank"),
                 Column("recall", "m / R", "recall at its rank"), Column("counts", "in the max")),
        notes=(f"R = {r}, so recall {format_number(level)} asks for c = round({format_number(level)} × {r}) = {c} "
               "relevant documents.",) + ((note,) if note else ()))


def iprec_at_recall(ranking: Sequence[str], judgments: Mapping[str, int], level: float, *,
                    relevance_level: int = DEFAULT_RELEVANCE_LEVEL) -> float:
    """The value of :func:`explain_iprec_at_recall`."""
    return explain_iprec_at_recall(ranking, judgments, level, relevance_level=relevance_level).value


def explain_eleven_point(ranking: Sequence[str], judgments: Mapping[str, int], *,
                         relevance_level: int = DEFAULT_RELEVANCE_LEVEL,
                         levels: Sequence[float] = ELEVEN_POINTS) -> Breakdown:
    r"""The 11-point interpolated average precision: IPrec averaged over recall 0, 0.1, ..., 1.

    .. math:: \mathrm{11pt} = \frac{1}{L} \sum_{r} \mathrm{IPrec}@r

    ``levels`` replaces the 11 levels (trec_eval ``11pt_avg.0.25,0.5,0.75``). The sum runs from
    the highest level down, the order trec_eval adds in. Rows: each level, its c and its value.

    Example (relevant at ranks 2, 4, 5, 7 of 8): 0.6 at recall 0 to 0.8 and 4/7 at 0.9 and 1, so
    :math:`\frac{1}{11}(2 \cdot \frac{4}{7} + 9 \cdot 0.6) \approx 0.5948`.

    >>> round(eleven_point(list("12345678"), {"2": 1, "4": 1, "5": 1, "7": 1}), 4)
    0.5948
    """
    ranking = check_ranking(ranking)
    relevance_level = check_relevance_level(relevance_level)
    levels = sorted({check_recall_level(level) for level in levels})
    if not levels:
        raise ValidationError("the 11-point average needs at least one recall level")
    r = num_relevant(judgments, relevance_level)
    found = _precisions(ranking, judgments, relevance_level)
    terms, rows, notes = [], [], []
    for level in reversed(levels):
        c = recall_rank(level, r)
        term, note = _interpolated(found, c, len(ranking))
        terms.append(term)
        rows.append({"level": level, "c": c, "iprec": term.value()})
        if note and math.isnan(term.value()):
            notes.append(note)
    plugged = Normalised(Add(terms), Num(len(levels)))
    return Breakdown(
        measure="11pt", value=float(plugged.value()), lhs=r"\mathrm{11pt}",
        symbolic=rf"\mathrm{{11pt}} = \frac{{1}}{{{len(levels)}}} \sum_{{r}} \mathrm{{IPrec}}@r",
        symbolic_text=f"11-point average = the mean of the interpolated precision at {len(levels)} recall levels",
        plugged=plugged, rows=tuple(reversed(rows)),
        columns=(Column("level", "recall r"), Column("c", "c", "round(r × R) relevant documents"),
                 Column("iprec", "IPrec@r")),
        notes=tuple(dict.fromkeys(notes)))


def eleven_point(ranking: Sequence[str], judgments: Mapping[str, int], *,
                 relevance_level: int = DEFAULT_RELEVANCE_LEVEL, levels: Sequence[float] = ELEVEN_POINTS) -> float:
    """The value of :func:`explain_eleven_point`."""
    return explain_eleven_point(ranking, judgments, relevance_level=relevance_level, levels=levels).value


# --- kernels ---------------------------------------------------------------------------------------

def _best_from(rankings: JudgedRankings, relevance_level: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For every relevant row: its query, its m, and the best precision from it on (a suffix maximum)."""
    def compute():
        relevant = rankings.relevant(relevance_level)
        rows = np.flatnonzero(relevant)
        query = rankings.row_query[rows]
        m = rankings.cumulative(relevant, key=("relevant", relevance_level))[rows]
        precision = m / rankings.row_rank[rows]
        # suffix maximum within each query: reverse, running maximum per segment, reverse back
        counts = np.bincount(query, minlength=len(rankings))
        offsets = np.concatenate([[0], np.cumsum(counts)])
        best = _segment_suffix_max(precision, offsets)
        return query, m, best, offsets
    return rankings.cached(("iprec", relevance_level), compute)


def _segment_suffix_max(values: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """The maximum of each value and the values after it in its segment (exact: a selection, no arithmetic)."""
    out = np.empty_like(values)
    starts, lengths = offsets[:-1], np.diff(offsets)
    width = int(lengths.max()) if len(lengths) else 0
    if width == 0:
        return out
    columns = np.arange(width)
    inside = columns[None, :] < lengths[:, None]
    index = starts[:, None] + (lengths[:, None] - 1 - columns[None, :])  # reversed within each segment
    padded = np.where(inside, values[np.where(inside, index, 0)], -np.inf)
    np.maximum.accumulate(padded, axis=1, out=padded)
    out[index[inside]] = padded[inside]
    return out


def iprec_kernel(rankings: JudgedRankings, level: float, *,
                 relevance_level: int = DEFAULT_RELEVANCE_LEVEL) -> np.ndarray:
    """:func:`explain_iprec_at_recall`'s value for every query (trec_eval ``iprec_at_recall_x``).

    >>> r = JudgedRankings.from_lists(["q"], [[0, 1, 0, 1, 1, 0, 1, 0]], [[1, 1, 1, 1]])
    >>> iprec_kernel(r, 0.5).tolist(), iprec_kernel(r, 0.0).tolist()
    ([0.6], [0.6])
    """
    _, m, best, offsets = _best_from(rankings, relevance_level)
    found = np.diff(offsets)
    c = _round_half_away(level * rankings.num_rel(relevance_level))
    pick = offsets[:-1] + np.maximum(c, 1) - 1
    reached = (c <= found) & (found > 0)
    values = np.where(reached, best[np.minimum(pick, max(len(best) - 1, 0))] if len(best) else 0.0, 0.0)
    empty = (c == 0) & (found == 0) & (rankings.lengths == 0)  # a missing query's placeholder is a document here
    return np.where(empty, np.nan, values)


def eleven_point_kernel(rankings: JudgedRankings, *, relevance_level: int = DEFAULT_RELEVANCE_LEVEL,
                        levels: Sequence[float] = ELEVEN_POINTS) -> np.ndarray:
    """:func:`explain_eleven_point`'s value for every query (trec_eval ``11pt_avg``)."""
    levels = sorted({float(level) for level in levels})
    total = np.zeros(len(rankings))
    for level in reversed(levels):
        total = total + iprec_kernel(rankings, level, relevance_level=relevance_level)
    return total / len(levels)


def _round_half_away(x: np.ndarray) -> np.ndarray:
    floor = np.floor(x)
    return (floor + (x - floor >= 0.5)).astype(np.int64)
