""""Try this": each chapter's experiments, worded for the state on screen, their numbers computed by irlab.

:func:`steps` gives two to four :class:`Step` per chapter: a goal the learner can reach (set K to 8, put
a relevant picture first, reach NDCG = 1 ...), its sentence for the current state, and whether the current
state reaches the goal; the page ticks a step off once it has been reached. No goal holds in a chapter's
own example, so nothing is ticked before the learner moves. :func:`try_this` is the first experiment as
one sentence.

Each suggestion names the current K and mode and predicts what the move will show, by computing the
chapter's view for the state after the move (the same views the pages draw), so a sentence is never
stale: at K = 4 in graded mode it speaks of Recall@4 and of grades, with the numbers those give.

>>> from irlab.walkthrough.chapters import chapter
>>> from irlab.walkthrough.state import DEFAULT_STATE
>>> print(try_this(DEFAULT_STATE, chapter("ndcg")))
Swap the first two tiles: CG@2 stays 4, but DCG@2 goes from 2.5237 to 4 and NDCG@2 from 0.3869 to 0.6131, because the grade-4 picture at rank 2 is no longer discounted.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from irlab.explain.formula import format_number
from irlab.scenarios.cats_in_boxes import DARK_CAT, WHITE_CAT_IN_A_BOX
from irlab.walkthrough.chapters import Chapter
from irlab.walkthrough.state import MODE_QUERY, SCENARIO, WalkthroughState
from irlab.walkthrough.views import (confusion_view, conventions_view, map_view, mrr_view, ndcg_view,
                                     recall_precision_view, relevance_rule)

N = len(SCENARIO.items)


def _swap(order: tuple[str, ...], a: int, b: int) -> tuple[str, ...]:
    swapped = list(order)
    swapped[a], swapped[b] = swapped[b], swapped[a]
    return tuple(swapped)


def _move_to_top(order: tuple[str, ...], item: str) -> tuple[str, ...]:
    return (item, *[i for i in order if i != item])


def _n(value: float) -> str:
    return format_number(value)


def _actual_vs_predicted(state: WalkthroughState, chapter: Chapter) -> str:
    k = state.effective_k(chapter)
    counts = confusion_view(state, chapter).confusion.value
    if k < N:
        after = confusion_view(replace(state, k=N), chapter).confusion.value
        return (f"Move K from {k} to {N}. Every picture becomes predicted relevant: the {counts.FN} false "
                f"negative{'s' if counts.FN != 1 else ''} turn into true positives (TP goes from {counts.TP} to "
                f"{after.TP}), the true negatives into false positives, and at K = {N} FN = 0 and TN = 0.")
    return (f"Move K down from {N} to 1. Only the top picture stays predicted relevant: TP goes from {counts.TP} to "
            f"{confusion_view(replace(state, k=1), chapter).confusion.value.TP}, and every other relevant picture "
            "becomes a false negative.")


def _recall_precision(state: WalkthroughState, chapter: Chapter) -> str:
    k = state.effective_k(chapter)
    view = recall_precision_view(state, chapter)
    if k >= 2:
        first = (f"Swap the first two tiles: {view.recall.measure} stays {view.recall.display_value} and "
                 f"{view.precision.measure} stays {view.precision.display_value}, because both pictures are still "
                 f"in the top {k}: the order inside the top K does not matter to them.")
    else:
        swapped = recall_precision_view(replace(state, order=_swap(state.order, 0, 1)), chapter)
        first = (f"Swap the first two tiles: at K = 1 only the top picture counts, so {view.recall.measure} goes "
                 f"from {view.recall.display_value} to {swapped.recall.display_value} and {view.precision.measure} "
                 f"from {view.precision.display_value} to {swapped.precision.display_value}.")
    return first + f" Then set K = {N}: recall is 1 whatever the order. ({relevance_rule(state, chapter)})"


def _dark_cat(state: WalkthroughState) -> tuple[str, tuple[str, ...], list[int]]:
    """The "dark cat" query's name, ranking, and the ranks of its relevant pictures (the MRR and MAP chapters' example)."""
    order = state.query_order(DARK_CAT)
    judgments = SCENARIO.query(DARK_CAT).judgments
    return (SCENARIO.query(DARK_CAT).text, order,
            [rank for rank, item in enumerate(order, start=1) if judgments.grade(item) >= 1])


def _with_dark_cat(state: WalkthroughState, order: tuple[str, ...]) -> WalkthroughState:
    return replace(state, query_orders={**state.query_orders, DARK_CAT: order})


def _mrr(state: WalkthroughState, chapter: Chapter) -> str:
    view = mrr_view(state, chapter)
    name, order, ranks = _dark_cat(state)
    first = ranks[0]
    item = order[first - 1]
    if first == 1:
        lower = _swap(order, 0, 1)
        after = mrr_view(_with_dark_cat(state, lower), chapter)
        return (f"In \u201c{name}\u201d the first relevant picture ({item}) is already at rank 1. Swap it with the "
                f"picture at rank 2: its reciprocal rank becomes {_n(after.per_query[name].value)} and MRR goes from "
                f"{view.mean.display_value} to {after.mean.display_value}; only the first relevant picture counts.")
    after = mrr_view(_with_dark_cat(state, _move_to_top(order, item)), chapter)
    return (f"In \u201c{name}\u201d, drag picture {item} from rank {first} to rank 1: its reciprocal rank jumps from "
            f"{_n(view.per_query[name].value)} to 1 and MRR from {view.mean.display_value} to "
            f"{after.mean.display_value}. Then move any other picture below it: nothing changes, because only the "
            "first relevant picture counts.")


def _map(state: WalkthroughState, chapter: Chapter) -> str:
    k = state.effective_k(chapter)
    view = map_view(state, chapter)
    name, order, ranks = _dark_cat(state)
    ap = view.per_query[name]
    last = ranks[-1]
    item = order[last - 1]
    after = map_view(_with_dark_cat(state, _move_to_top(order, item)), chapter)
    return (f"In \u201c{name}\u201d, drag picture {item} from rank {last} to rank 1: its {ap.measure} goes from "
            f"{ap.display_value} to {after.per_query[name].display_value} and {view.mean.measure} from "
            f"{view.mean.display_value} to {after.mean.display_value}. Relevant pictures below rank K = {k} add "
            "nothing: set K lower and watch them drop out.")


def _ndcg(state: WalkthroughState, chapter: Chapter) -> str:
    k = state.effective_k(chapter)
    view = ndcg_view(state, chapter)
    swapped = ndcg_view(replace(state, order=_swap(state.order, 0, 1)), chapter)
    cg, dcg, ndcg = (view.headline[0], view.headline[1], view.headline[3])
    cg2, dcg2, ndcg2 = (swapped.headline[0], swapped.headline[1], swapped.headline[3])
    judgments = view.row.query.judgments
    if k < 2:
        return (f"Swap the first two tiles: at K = 1 only the top picture counts, so {cg.label} goes from "
                f"{cg.display} to {cg2.display} and {ndcg.label} from {ndcg.display} to {ndcg2.display}.")
    grades = [judgments.grade(state.order[0]), judgments.grade(state.order[1])]
    if grades[0] == grades[1]:
        return (f"Swap the first two tiles: both have grade {grades[0]}, so nothing changes. Drag a picture with "
                f"another grade to rank 1 and watch {dcg.label} and {ndcg.label} follow; {cg.label} only changes "
                "when the set of the top K changes.")
    higher = "at rank 2 is no longer" if grades[1] > grades[0] else "at rank 1 is now"
    return (f"Swap the first two tiles: {cg.label} stays {cg.display}, but {dcg.label} goes from {dcg.display} to "
            f"{dcg2.display} and {ndcg.label} from {ndcg.display} to {ndcg2.display}, because the grade-"
            f"{max(grades)} picture {higher} discounted.")


def _conventions(state: WalkthroughState, chapter: Chapter) -> str:
    return ("Set \u201citems the system returned\u201d below K: the conventions that divide by the items returned, "
            "or build the ideal ranking from them only, now disagree with trec_eval's; the table and the chart show "
            "by how much, and which tools use each.")


_GUIDES = {"actual-vs-predicted": _actual_vs_predicted, "recall-precision": _recall_precision, "mrr": _mrr,
           "map": _map, "ndcg": _ndcg, "conventions": _conventions}


def try_this(state: WalkthroughState, chapter: Chapter) -> str:
    """The chapter's experiment for ``state``: its K, its mode, and the numbers the move will show."""
    return _GUIDES[chapter.slug](state, chapter)


@dataclass(frozen=True)
class Step:
    """One experiment of a chapter: ``key`` names its goal, ``text`` says it for the current state, ``reached``
    tells whether the current state reaches the goal."""

    key: str
    text: str
    reached: bool


def _top_is_relevant(state: WalkthroughState, chapter: Chapter) -> bool:
    return state.order[0] in state.relevant_items(chapter)


def _swapped_inside_top(state: WalkthroughState, k: int) -> bool:
    """The learner reordered the sources' ranking: inside the top K (K >= 2), or the top picture (K = 1)."""
    source = SCENARIO.query(MODE_QUERY["binary"]).default_ranking
    if k == 1:
        return state.order[0] != source[0]
    return state.order != source and set(state.order[:k]) == set(source[:k])


def _steps_actual_vs_predicted(state: WalkthroughState, chapter: Chapter) -> list[Step]:
    k = state.effective_k(chapter)
    counts = confusion_view(state, chapter).confusion.value
    top = SCENARIO.item(state.order[0]).title
    return [
        Step("k-all", _actual_vs_predicted(state, chapter) if k < N else
             f"At K = {N} every picture is predicted relevant: TP = {counts.TP}, FP = {counts.FP}, FN = 0 and TN = 0.",
             k == N),
        Step("k-one", f"Set K to 1: only rank 1 is predicted relevant; now, at K = {k}, TP = {counts.TP} and "
                      f"FP = {counts.FP}.", k == 1),
        Step("top-relevant", f"Drag a relevant picture to rank 1 (now: {top}): it becomes a true positive at "
                             f"any K. ({relevance_rule(state, chapter)})", _top_is_relevant(state, chapter)),
    ]


def _steps_recall_precision(state: WalkthroughState, chapter: Chapter) -> list[Step]:
    k = state.effective_k(chapter)
    view = recall_precision_view(state, chapter)
    return [
        Step("order-inside-k", _recall_precision(state, chapter).split(" Then set K")[0],
             _swapped_inside_top(state, k)),
        Step("k-all", f"Set K = {N}: {view.recall.measure} is {view.recall.display_value} now; at K = {N} recall is "
                      "1 whatever the order, and precision is the share of relevant pictures.", k == N),
        Step("precision-one", f"Find an order and a K where precision is 1: {view.precision.measure} is "
                              f"{view.precision.display_value} now; only relevant pictures may stand in the top K.",
             view.precision.value == 1),
    ]


def _steps_mrr(state: WalkthroughState, chapter: Chapter) -> list[Step]:
    view = mrr_view(state, chapter)
    name = SCENARIO.query(DARK_CAT).text
    return [
        Step("dark-cat-first", _mrr(state, chapter), view.per_query[name].value == 1),
        Step("mrr-one", f"Make MRR exactly 1 (now {view.mean.display_value}): each query needs a relevant picture "
                        "at rank 1, and nothing below it matters.", view.mean.value == 1),
    ]


def _steps_map(state: WalkthroughState, chapter: Chapter) -> list[Step]:
    k = state.effective_k(chapter)
    view = map_view(state, chapter)
    name = SCENARIO.query(DARK_CAT).text
    return [
        Step("dark-cat-up", _map(state, chapter), view.per_query[name].value == 1),
        Step("k-low", f"Set K to 2: {view.mean.measure} is {view.mean.display_value} at K = {k}; relevant pictures "
                      "below rank 2 then add nothing to the average precision.", k <= 2),
        Step("map-one", f"Make {view.mean.measure} = 1 (now {view.mean.display_value}): in every query all relevant "
                        "pictures above all the others.", view.mean.value == 1),
    ]


def _steps_ndcg(state: WalkthroughState, chapter: Chapter) -> list[Step]:
    view = ndcg_view(state, chapter)
    judgments = view.row.query.judgments
    ndcg = view.headline[3]
    graded = view.mode == "graded"
    return [
        Step("swap", _ndcg(state, chapter),
             judgments.grade(state.order[0]) == judgments.max_grade if graded else _top_is_relevant(state, chapter)),
        Step("ideal", f"Press “Ideal order”: {ndcg.label} goes from {ndcg.display} to 1, because DCG then "
                      "equals IDCG.", ndcg.value == 1),
        Step("edit-grade", "Switch to graded relevance and edit a grade (click it, or type 0-4 on a tile): the ideal "
                           "order, IDCG and NDCG follow the new grade; “Reset grades” puts the judged ones back."
             if not graded else "Edit a grade (click it, or type 0-4 on a tile): the ideal order, IDCG and NDCG follow "
                                "the new grade; “Reset grades” puts the judged ones back.",
             state.grades is not None),
    ]


def _steps_conventions(state: WalkthroughState, chapter: Chapter) -> list[Step]:
    view = conventions_view(state, chapter)
    grades = SCENARIO.query(WHITE_CAT_IN_A_BOX).judgments if state.grades is None else state.graded_judgments()
    return [
        Step("returned", _conventions(state, chapter) + f" Now: {view.returned} returned, K = {view.k}.",
             view.returned < view.k),
        Step("grade-four-first", "Put a grade-4 picture at rank 1: exponential gain (2^grade - 1) weighs it 15 where "
                                 "linear gain weighs it 4, so the two DCG conventions move apart.",
             grades.grade(state.order[0]) == grades.max_grade),
    ]


_STEPS = {"actual-vs-predicted": _steps_actual_vs_predicted, "recall-precision": _steps_recall_precision,
          "mrr": _steps_mrr, "map": _steps_map, "ndcg": _steps_ndcg, "conventions": _steps_conventions}


def steps(state: WalkthroughState, chapter: Chapter) -> tuple[Step, ...]:
    """The chapter's experiments for ``state``, each with whether ``state`` reaches its goal.

    >>> from irlab.walkthrough.chapters import chapter
    >>> from irlab.walkthrough.state import DEFAULT_STATE
    >>> [(step.key, step.reached) for step in steps(DEFAULT_STATE.with_preset(chapter("recall-precision")),
    ...                                            chapter("recall-precision"))]
    [('order-inside-k', False), ('k-all', False), ('precision-one', False)]
    >>> steps(replace(DEFAULT_STATE, k=8), chapter("recall-precision"))[1].reached
    True
    """
    return tuple(_STEPS[chapter.slug](state, chapter))
