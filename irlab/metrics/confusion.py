r"""Actual vs predicted at K: true/false positives and negatives.

The top K items of a ranking are *predicted positive* (returned), the rest *predicted
negative* (not returned). Comparing with the *actual* condition (relevant or not):

.. math::

    TP@K = |\mathrm{Rel} \cap \mathrm{Top}_K|, \quad
    FP@K = |\overline{\mathrm{Rel}} \cap \mathrm{Top}_K|, \quad
    FN@K = |\mathrm{Rel} \setminus \mathrm{Top}_K|, \quad
    TN@K = |\overline{\mathrm{Rel}} \setminus \mathrm{Top}_K|

The collection is every ranked or judged item, so relevant items the system never ranked are
false negatives. Relevant means grade >= the relevance level (1 by default).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import NamedTuple

from irlab.data.judgments import DEFAULT_RELEVANCE_LEVEL, check_relevance_level, grade_of, is_relevant
from irlab.data.rankings import check_cutoff, check_ranking
from irlab.explain.breakdown import Breakdown, Column, latex_measure
from irlab.explain.formula import SetSize

CLASS_LABELS = {"TP": "true positive", "FP": "false positive", "FN": "false negative", "TN": "true negative"}
"""Each confusion class and its name in words."""


class ConfusionCounts(NamedTuple):
    """The four counts of the confusion matrix at K."""

    TP: int
    FP: int
    FN: int
    TN: int


def confusion_class(relevant: bool, returned: bool) -> str:
    """The class of one item: ``TP``, ``FP``, ``FN`` or ``TN``.

    >>> confusion_class(True, True), confusion_class(False, True), confusion_class(True, False)
    ('TP', 'FP', 'FN')
    """
    return ("T" if relevant == returned else "F") + ("P" if returned else "N")


_SYMBOLS = {
    "TP": (r"\mathrm{TP@}K = \lvert \mathrm{Rel} \cap \mathrm{Top}_K \rvert",
           "relevant items in the top K"),
    "FP": (r"\mathrm{FP@}K = \lvert \overline{\mathrm{Rel}} \cap \mathrm{Top}_K \rvert",
           "non-relevant items in the top K"),
    "FN": (r"\mathrm{FN@}K = \lvert \mathrm{Rel} \setminus \mathrm{Top}_K \rvert",
           "relevant items not in the top K"),
    "TN": (r"\mathrm{TN@}K = \lvert \overline{\mathrm{Rel}} \setminus \mathrm{Top}_K \rvert",
           "non-relevant items not in the top K"),
}


def explain_confusion_at_k(ranking: Sequence[str], judgments: Mapping[str, int], k: int, *,
                           relevance_level: int = DEFAULT_RELEVANCE_LEVEL,
                           collection: Collection[str] | None = None) -> Breakdown:
    r"""TP, FP, FN and TN at cutoff K, with each item's class.

    Formula: :math:`TP@K = |Rel \cap Top_K|`, :math:`FP@K = |\overline{Rel} \cap Top_K|`,
    :math:`FN@K = |Rel \setminus Top_K|`, :math:`TN@K = |\overline{Rel} \setminus Top_K|`.

    Conventions: the collection defaults to every ranked or judged item; items of the
    collection missing from the ranking are not returned (FN or TN). K larger than the
    ranking returns everything ranked. An empty ranking returns nothing: all relevant items
    are FN. The value is a :class:`ConfusionCounts`; each count is also a part with its own
    set-size formula. Rows list every item of the collection: ranked ones by rank, then the
    unranked ones (rank ``None``).

    Example (cats in boxes, relevant at ranks 2, 4, 5, 7, K = 2):

    >>> b = explain_confusion_at_k(list("12345678"), {"2": 1, "4": 1, "5": 1, "7": 1}, 2)
    >>> b.value
    ConfusionCounts(TP=1, FP=1, FN=3, TN=3)
    >>> [row["class"] for row in b.rows]
    ['FP', 'TP', 'TN', 'FN', 'FN', 'TN', 'FN', 'TN']
    >>> b.parts["FN"].plugged_text
    'FN@2 = |{4, 5, 7}| = 3'
    """
    ranking = check_ranking(ranking)
    k = check_cutoff(k, allow_none=False)
    relevance_level = check_relevance_level(relevance_level)
    universe = list(dict.fromkeys([*ranking, *judgments, *(collection or ())]))
    rank_of = {item: rank for rank, item in enumerate(ranking, start=1)}
    rows = []
    members: dict[str, list[str]] = {name: [] for name in CLASS_LABELS}
    for item in universe:
        rank = rank_of.get(item)
        relevant = is_relevant(grade_of(judgments, item), relevance_level)
        returned = rank is not None and rank <= k
        cls = confusion_class(relevant, returned)
        members[cls].append(item)
        rows.append({"rank": rank, "item": item, "grade": grade_of(judgments, item), "relevant": relevant,
                     "returned": returned, "class": cls, "class_label": CLASS_LABELS[cls]})
    parts = {}
    for name, (symbolic, words) in _SYMBOLS.items():
        plugged = SetSize(tuple(members[name]))
        parts[name] = Breakdown(measure=f"{name}@{k}", value=int(plugged.value()), lhs=latex_measure(name, k),
                                symbolic=symbolic, symbolic_text=f"{name}@K = number of {words}", plugged=plugged)
    counts = ConfusionCounts(*(parts[name].value for name in CLASS_LABELS))
    columns = (Column("rank", "rank"), Column("item", "item"), Column("grade", "grade"),
               Column("relevant", "actually relevant", "actual condition: positive if relevant"),
               Column("returned", "returned", "predicted condition: positive if in the top K"),
               Column("class", "class", "TP, FP, FN or TN"))
    notes = [f"The top {k} items are predicted positive (returned); the other items are predicted negative."]
    if k > len(ranking):
        notes.append(f"K = {k} is more than the {len(ranking)} ranked items: every ranked item is returned.")
    return Breakdown(measure=f"Confusion@{k}", value=counts, lhs=rf"\mathrm{{Confusion@}}{k}",
                     symbolic=r",\quad ".join(symbolic for symbolic, _ in _SYMBOLS.values()),
                     symbolic_text="TP, FP = relevant and non-relevant items in the top K; "
                                   "FN, TN = relevant and non-relevant items not in the top K",
                     plugged=None, rows=tuple(rows), columns=columns, notes=tuple(notes), parts=parts)


def confusion_at_k(ranking: Sequence[str], judgments: Mapping[str, int], k: int, *,
                   relevance_level: int = DEFAULT_RELEVANCE_LEVEL,
                   collection: Collection[str] | None = None) -> ConfusionCounts:
    """The counts of :func:`explain_confusion_at_k`.

    >>> confusion_at_k(list("12345678"), {"2": 1, "4": 1, "5": 1, "7": 1}, 5)
    ConfusionCounts(TP=3, FP=2, FN=1, TN=2)
    """
    return explain_confusion_at_k(ranking, judgments, k, relevance_level=relevance_level,
                                  collection=collection).value
