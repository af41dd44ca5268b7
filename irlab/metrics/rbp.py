r"""Rank-biased precision (Moffat and Zobel, 2008) and its residual.

A user reads down the ranking and goes on from one document to the next with probability p
(the persistence, 0.9 by default, close to P@10):

.. math::

    \mathrm{RBP} = (1 - p) \sum_{i=1}^{n} g_i \, p^{\,i-1} \qquad
    \mathrm{RBP_{resid}} = p^{\,n} + (1 - p) \sum_{i \text{ unjudged}} p^{\,i-1}

:math:`g_i` is the gain of the document at rank i, scaled to [0, 1]: trec_eval divides each
grade's gain by the query's top gain when a gain is above 1 (or below 0). The residual is how
much RBP could still rise if every unjudged document were fully relevant and the ranking went on
forever; it is 0 when every retrieved document is judged. Conventions as trec_eval ``rbp`` and
``rbp_resid`` (``rbp.p=0.95``): unjudged documents gain 0; :math:`p^i` is multiplied up rank by rank.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

import numpy as np

from irlab.data.columns import NOT_RANKED, JudgedRankings
from irlab.data.judgments import grade_of
from irlab.data.rankings import check_ranking
from irlab.errors import ValidationError
from irlab.explain.breakdown import Breakdown, Column
from irlab.explain.formula import Add, Expr, Mul, Num, Sub, format_number
from irlab.metrics.teaching import Mistake, Teaching, with_options

PERSISTENCE = 0.9
"""trec_eval's default persistence p."""


def check_persistence(p: object) -> float:
    """Return ``p`` if it is a probability strictly between 0 and 1.

    >>> check_persistence(0.95)
    0.95
    """
    if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0 < p < 1:
        raise ValidationError(f"the persistence p is a number between 0 and 1, got {p!r}")
    return float(p)


def _level_gains(top_grade: int, gains: Mapping[int, float] | None) -> dict[int, float]:
    """Each grade's gain for one query, scaled to [0, 1] as trec_eval scales them."""
    levels = {grade: grade for grade in range(top_grade + 1)}
    levels.update(gains or {})
    low, high = min(levels.values()), max(levels.values())
    if low < 0 or high > 1:
        levels = {grade: (gain - low) / (high - low) for grade, gain in levels.items()}
    return {grade: float(gain) for grade, gain in levels.items()}


def _powers(n: int, p: float) -> list[float]:
    """p^0 .. p^n, multiplied up one rank at a time (trec_eval's cur_p)."""
    powers = [1.0]
    for _ in range(n):
        powers.append(powers[-1] * p)
    return powers


def explain_rbp(ranking: Sequence[str], judgments: Mapping[str, int], *, p: float = PERSISTENCE,
                gains: Mapping[int, float] | None = None) -> Breakdown:
    r"""Rank-biased precision: the expected gain per document read by a user of persistence p.

    .. math:: \mathrm{RBP} = (1 - p) \sum_{i=1}^{n} g_i \, p^{\,i-1}

    Example (p = 0.5, binary, relevant at ranks 1 and 3): :math:`0.5 (1 + 0.25) = 0.625`.

    >>> explain_rbp(["a", "b", "c"], {"a": 1, "b": 0, "c": 1}, p=0.5).value
    0.625
    """
    ranking = [item for item in check_ranking(ranking) if item != NOT_RANKED]
    p = check_persistence(p)
    top = max((g for g in judgments.values() if g >= 0), default=0)
    scaled = _level_gains(top, gains)
    powers = _powers(len(ranking), p)
    rows, terms = [], []
    for rank, item in enumerate(ranking, start=1):
        grade = judgments.get(item)
        gain = scaled.get(grade, 0.0) if grade is not None and grade >= 0 else 0.0
        if gain != 0:
            terms.append(Mul(Num(gain), Num(powers[rank - 1])))
        rows.append({"rank": rank, "item": item, "grade": grade_of(judgments, item), "gain": gain,
                     "weight": powers[rank - 1], "term": gain * powers[rank - 1]})
    plugged = Mul(Sub(Num(1), Num(p)), Add(terms))
    return Breakdown(measure=f"RBP(p={format_number(p)})", value=float(plugged.value()), lhs=r"\mathrm{RBP}",
                     symbolic=r"\mathrm{RBP} = (1 - p) \sum_{i=1}^{n} g_i \, p^{\,i-1}",
                     symbolic_text="RBP = (1 - p) times the sum over ranks i of gain_i times p to the power i - 1",
                     plugged=plugged, rows=tuple(rows),
                     columns=(Column("rank", "i"), Column("item", "document"), Column("grade", "grade"),
                              Column("gain", "g_i", "gain scaled to [0, 1]"), Column("weight", "p^(i-1)"),
                              Column("term", "g_i · p^(i-1)")))


def explain_rbp_residual(ranking: Sequence[str], judgments: Mapping[str, int], *,
                         p: float = PERSISTENCE) -> Breakdown:
    r"""The RBP residual: how much RBP could still rise from unjudged documents and the unread tail.

    .. math:: \mathrm{RBP_{resid}} = p^{\,n} + (1 - p) \sum_{i \text{ unjudged}} p^{\,i-1}

    0 when every retrieved document is judged (trec_eval ``rbp_resid``).

    >>> explain_rbp_residual(["a", "x"], {"a": 1}, p=0.5).value
    0.5
    """
    ranking = check_ranking(ranking)
    p = check_persistence(p)
    if list(ranking) == [NOT_RANKED] and p == PERSISTENCE:
        ranking = []  # trec_eval sets a missing query's residual to 0, but only at the default p
    powers = _powers(len(ranking), p)
    unjudged = [rank for rank, item in enumerate(ranking, start=1) if judgments.get(item, -1) < 0]
    rows = tuple({"rank": rank, "item": item, "judged": judgments.get(item, -1) >= 0, "weight": powers[rank - 1]}
                 for rank, item in enumerate(ranking, start=1))
    if unjudged:
        plugged: Expr = Add(Num(powers[-1]), Mul(Sub(Num(1), Num(p)), Add(Num(powers[r - 1]) for r in unjudged)))
        notes = ()
    else:
        plugged, notes = Num(0), ("Every retrieved document is judged: the residual is 0 (trec_eval).",)
    return Breakdown(measure=f"RBPresid(p={format_number(p)})", value=float(plugged.value()),
                     lhs=r"\mathrm{RBP_{resid}}",
                     symbolic=r"\mathrm{RBP_{resid}} = p^{\,n} + (1 - p) \sum_{i \text{ unjudged}} p^{\,i-1}",
                     symbolic_text="RBP residual = p to the power n + (1 - p) times the sum of p to the power i - 1 "
                                   "over the unjudged ranks i", plugged=plugged, rows=rows,
                     columns=(Column("rank", "i"), Column("item", "document"), Column("judged", "judged"),
                              Column("weight", "p^(i-1)")), notes=notes)


def _row_powers(rankings: JudgedRankings, p: float) -> np.ndarray:
    top = int(rankings.row_rank.max()) if len(rankings.grades) else 0
    return np.array(_powers(top, p))[rankings.row_rank - 1] if top else np.zeros(0)


def rbp_kernel(rankings: JudgedRankings, *, p: float = PERSISTENCE,
               gains: Mapping[int, float] | None = None) -> np.ndarray:
    """:func:`explain_rbp`'s value for every query (trec_eval ``rbp``)."""
    tops = np.array([int(np.flatnonzero(row)[-1]) if row.any() else 0 for row in rankings.level_counts > 0])
    width = max(int(rankings.grades.max(initial=0)), max(gains or {0: 0}), 0) + 1
    table = np.zeros((len(rankings), width))
    for top in np.unique(tops):
        scaled = _level_gains(int(top), gains)
        row = np.zeros(width)
        for grade, gain in scaled.items():
            if 0 <= grade < width:
                row[grade] = gain
        table[tops == top] = row
    grades = rankings.grades
    judged = grades >= 0
    row_gain = np.where(judged, table[rankings.row_query, np.clip(grades, 0, width - 1)], 0.0)
    total = rankings.prefix_at(rankings.prefix(row_gain * _row_powers(rankings, p)), None)
    return np.where(rankings.missing, 0.0, (1 - p) * total)


def rbp_residual_kernel(rankings: JudgedRankings, *, p: float = PERSISTENCE) -> np.ndarray:
    """:func:`explain_rbp_residual`'s value for every query (trec_eval ``rbp_resid``)."""
    unjudged = rankings.grades < 0
    powers = _row_powers(rankings, p)
    total = rankings.prefix_at(rankings.prefix(np.where(unjudged, powers, 0.0)), None)
    tail = np.array(_powers(int(rankings.lengths.max(initial=0)), p))[rankings.lengths]
    value = tail + (1 - p) * total
    cleared = rankings.missing & (p == PERSISTENCE)
    return np.where(cleared | (rankings.count_at(unjudged, None) == 0), 0.0, value)


# --- how exercises teach it (irlab.metrics.teaching) ----------------------------------------------------------------

def _rbp_code(measure, rel: int) -> str:
    p = measure.options.get("p", PERSISTENCE)
    gains = measure.options.get("gains")
    custom = f"\nlevels.update({dict(gains)!r})  # the gain of each grade" if gains else ""
    return (f"p = {p!r}  # the persistence: the chance of reading on to the next document\n"
            "top = max([g for g in ground_truth.values() if g >= 0], default=0)\n"
            f"levels = {{grade: grade for grade in range(top + 1)}}{custom}\n"
            "low, high = min(levels.values()), max(levels.values())\n"
            "if low < 0 or high > 1:  # gains scaled to [0, 1], as trec_eval scales them\n"
            "    levels = {grade: (gain - low) / (high - low) for grade, gain in levels.items()}\n"
            "total, weight = 0.0, 1.0  # weight: p to the power rank - 1\n"
            "for doc in ranking:\n"
            "    grade = ground_truth.get(doc)\n"
            "    total += (levels.get(grade, 0.0) if grade is not None and grade >= 0 else 0.0) * weight\n"
            "    weight *= p\n"
            "return (1 - p) * total")


def _p_as_stopping(m):
    p = m.options.get("p", PERSISTENCE)
    return with_options(m, p=round(1 - p, 12)) if m.family == "RBP" else None


def _p_as_cutoff(m):
    """Precision at the depth a user of persistence p reads on average, 1 / (1 - p), rounded."""
    if m.family != "RBP":
        return None
    depth = max(1, round(1 / (1 - m.options.get("p", PERSISTENCE))))
    return replace(m, family="P", cutoff=depth, options={}, relevance_level=None)


RBP_TEACHING = Teaching(
    "rank_biased_precision",
    "Computes rank-biased precision: (1 - p) times the sum over ranks i of gain_i * p^(i - 1), the gain a user "
    "who reads on from each document with probability p collects per document read.", "RBP", _rbp_code,
    mistakes=(Mistake("rbp-p-as-stopping", "p read as the chance of stopping",
                      "You used 1 - p as the persistence, reading p as the chance that the user stops; p is the "
                      "chance that the user reads on to the next document (their patience).", _p_as_stopping),
              Mistake("rbp-p-as-cutoff", "p read as a cut-off",
                      "You counted the relevant documents in the top 1 / (1 - p), the depth a user of persistence p "
                      "reads on average, and divided by that depth, which is Precision@K; RBP has no cut-off: it "
                      "weighs rank i by p^(i - 1), every rank.", _p_as_cutoff)),
    examples=("RBP", "RBP(p=0.5)", "RBP(p=0.95)", "RBP(gains={1: 3, 2: 9})"))
