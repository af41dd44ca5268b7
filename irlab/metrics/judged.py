r"""How well the judgments cover a ranking: unjudged documents at K, and the grades as a string.

.. math:: \mathrm{Unjudged@}K = \frac{\lvert \{\text{top } K \text{ documents without a grade} \ge 0\} \rvert}{K}

A "red flag" measure (trec_eval ``unj_k``): high values at small K mean the qrels say little about
this run, either because it is unusual or because it finds relevant documents nobody judged.
Conventions as trec_eval: documents absent from the qrels and documents with a negative grade
(pooled, unjudged) count; K past the end of the ranking divides by K anyway.

``relstring`` (trec_eval's ``relstring``) prints the top N grades as one character each: the
grade 0-9, ``>`` above 9, ``-`` not in the qrels, ``.`` pooled but unjudged.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from irlab.data.columns import NOT_POOLED, NOT_RANKED, UNJUDGED, JudgedRankings
from irlab.data.rankings import check_cutoff, check_ranking
from irlab.explain.breakdown import Breakdown, Column, latex_measure, measure_name
from irlab.explain.formula import Frac, Num, SetSize


def _grade_code(judgments: Mapping[str, int], item: str) -> int:
    if item not in judgments:
        return NOT_POOLED
    return judgments[item] if judgments[item] >= 0 else UNJUDGED


def explain_unjudged_at_k(ranking: Sequence[str], judgments: Mapping[str, int], k: int) -> Breakdown:
    r"""The share of the top K without a judgment (trec_eval ``unj_k``).

    .. math:: \mathrm{Unjudged@}K = \frac{\lvert U@K \rvert}{K}

    Example: top 4 = a, x, b, y with x and y unjudged: :math:`\frac{2}{4} = 0.5`.

    >>> explain_unjudged_at_k(["a", "x", "b", "y"], {"a": 1, "b": 0}, 4).plugged_latex
    '\\mathrm{Unjudged@}4 = \\frac{\\lvert\\{\\text{x}, \\text{y}\\}\\rvert}{4} = 0.5'
    """
    ranking = [item for item in check_ranking(ranking) if item != NOT_RANKED]  # a missing query counts 0, as trec_eval
    k = check_cutoff(k, allow_none=False)
    top = ranking[:k]
    unjudged = [item for item in top if _grade_code(judgments, item) < 0]
    plugged = Frac(SetSize(tuple(unjudged)), Num(k))
    rows = tuple({"rank": rank, "item": item, "judged": _grade_code(judgments, item) >= 0}
                 for rank, item in enumerate(top, start=1))
    notes = (f"Only {len(ranking)} documents were retrieved, fewer than K = {k}; the rest count as judged.",) \
        if len(ranking) < k else ()
    return Breakdown(measure=measure_name("Unjudged", k), value=float(plugged.value()),
                     lhs=latex_measure("Unjudged", k), symbolic=r"\mathrm{Unjudged@}K = \frac{\lvert U@K \rvert}{K}",
                     symbolic_text="Unjudged@K = documents in the top K without a judgment / K", plugged=plugged,
                     rows=rows, columns=(Column("rank", "rank"), Column("item", "document"),
                                         Column("judged", "judged")), notes=notes)


def unjudged_at_k(ranking: Sequence[str], judgments: Mapping[str, int], k: int) -> float:
    """The value of :func:`explain_unjudged_at_k`."""
    return explain_unjudged_at_k(ranking, judgments, k).value


def grade_character(code: int) -> str:
    """One character for a grade or code, as trec_eval's relstring.

    >>> "".join(grade_character(g) for g in [0, 3, 12, NOT_POOLED, UNJUDGED])
    '03>-.'
    """
    if code > 9:
        return ">"
    if code >= 0:
        return str(code)
    return {NOT_POOLED: "-", UNJUDGED: "."}.get(code, "<")


def explain_relstring(ranking: Sequence[str], judgments: Mapping[str, int], length: int = 10) -> Breakdown:
    """The grades of the top ``length`` documents as a string (trec_eval ``relstring``).

    >>> explain_relstring(["a", "x", "b"], {"a": 2, "b": 0, "c": 1}).value
    '2-0'
    """
    ranking = check_ranking(ranking)
    length = check_cutoff(length, allow_none=False)
    if list(ranking) == [NOT_RANKED] and length == 10:
        ranking = []  # trec_eval empties a missing query's relstring, but only at the default length
    codes = [_grade_code(judgments, item) for item in ranking[:length]]
    text = "".join(grade_character(code) for code in codes)
    return Breakdown(measure="relstring", value=text, lhs=r"\mathrm{relstring}",
                     symbolic=r"\mathrm{relstring} = g_1 g_2 \ldots g_N",
                     symbolic_text="the grade of each of the top N documents, one character each "
                                   "(- not judged, . pooled but unjudged)",
                     plugged=None, rows=tuple({"rank": i, "item": item, "character": grade_character(code)}
                                              for i, (item, code) in enumerate(zip(ranking, codes), start=1)),
                     columns=(Column("rank", "rank"), Column("item", "document"), Column("character", "shown as")))


def unjudged_kernel(rankings: JudgedRankings, k: int) -> np.ndarray:
    """:func:`explain_unjudged_at_k`'s value for every query (trec_eval ``unj_k``)."""
    return np.where(rankings.missing, 0.0, rankings.count_at(rankings.grades < 0, k) / k)


def relstring_kernel(rankings: JudgedRankings, length: int = 10) -> list[str]:
    """:func:`explain_relstring`'s value for every query (empty for a missing query at length 10, as trec_eval)."""
    characters = np.array([grade_character(code) for code in range(-2, 11)])
    shown = characters[np.clip(rankings.grades, -2, 10) + 2]
    ends = np.minimum(rankings.offsets[:-1] + length, rankings.offsets[1:])
    cleared = rankings.missing & (length == 10)
    return ["" if clear else "".join(shown[start:end])
            for start, end, clear in zip(rankings.offsets[:-1], ends, cleared)]
