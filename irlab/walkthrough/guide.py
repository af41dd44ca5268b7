""""Try this": each chapter's experiments, worded for the state on screen, their numbers computed by irlab.

:func:`steps` gives two to four :class:`Step` per chapter. A step has a goal (K = 8, a relevant picture at
rank 1, NDCG = 1, ...) that ``reached`` checks on the current state; while it is not reached, its text says
one concrete move that reaches it from the current state, and ``move`` is the state after that move.
No goal holds in a chapter's own example, so nothing is ticked before the learner moves; the page ticks
a step off once it has been reached.

The numbers of a sentence are the views' numbers (:mod:`irlab.walkthrough.views`) for the state now and
for ``move``, so a sentence never promises a value the move does not give. They follow one grammar,
which tests/walkthrough/test_guide.py parses and checks against the views:

* ``<measure> goes from <now> to <after the move>`` (after the first, ``<measure> from <now> to <after>``);
* ``<measure> stays <now and after>``;
* ``<measure> is <now> now`` and ``<measure> = <now>`` for the state on screen.

A measure is a headline label (``Recall@2``, ``TP``, ``MRR``), one query's (``AP@8 of “dark cat”``),
or a bare name (``Recall``) when the move changes K, so a sentence names only the K on screen.

>>> from irlab.walkthrough.chapters import chapter
>>> from irlab.walkthrough.state import DEFAULT_STATE
>>> import textwrap
>>> print(textwrap.fill(try_this(DEFAULT_STATE, chapter("ndcg")), 100))
Swap the first two tiles: CG@2 stays 4, but DCG@2 goes from 2.5237 to 4 and NDCG@2 from 0.3869 to
0.6131, because the grade-4 picture at rank 2 is no longer discounted.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from irlab.data.judgments import Judgments
from irlab.data.rankings import ideal_ranking
from irlab.explain.formula import format_number
from irlab.scenarios.cats_in_boxes import BINARY_QUERIES, DARK_CAT, WHITE_CAT_IN_A_BOX
from irlab.walkthrough.chapters import Chapter
from irlab.walkthrough.state import MODE_QUERY, SCENARIO, WalkthroughState
from irlab.walkthrough.views import (
    Headline,
    confusion_view,
    conventions_view,
    map_view,
    mrr_view,
    ndcg_view,
    recall_precision_view,
    relevance_rule,
)

N = len(SCENARIO.items)
EXACT = 1e-12
"""How close two values must be to count as equal (a goal such as NDCG = 1 is computed, not typed)."""


@dataclass(frozen=True)
class Step:
    """One experiment of a chapter.

    ``key`` names its goal, ``text`` says it for the current state, ``reached`` tells whether the current
    state reaches the goal, and ``move`` is the state after doing what ``text`` says (None once reached:
    the text then describes the state on screen).
    """

    key: str
    text: str
    reached: bool
    move: WalkthroughState | None = None


# --- wording ---------------------------------------------------------------------------------------------

def _n(value: float) -> str:
    return format_number(value)


def _listed(parts: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _changes(*changes: tuple[str, float, float]) -> str:
    """Each (measure, now, after the move) as "stays" or "goes from ... to ...", in the guide's grammar.

    >>> _changes(("CG@2", 4, 4), ("DCG@2", 2.5237, 4), ("NDCG@2", 0.3869, 0.6131))
    'CG@2 stays 4, but DCG@2 goes from 2.5237 to 4 and NDCG@2 from 0.3869 to 0.6131'
    >>> _changes(("IDCG@2", 6.5237, 6.5237), ("NDCG@2", 0.3869, 1))
    'IDCG@2 stays 6.5237, but NDCG@2 goes from 0.3869 to 1'
    """
    parts, moved, stayed = [], False, False
    for label, now, after in changes:
        if _n(now) == _n(after):
            parts.append(f"{label} stays {_n(now)}")
            stayed = True
        elif not moved:
            parts.append(f"{'but ' if stayed else ''}{label} goes from {_n(now)} to {_n(after)}")
            moved = True
        else:
            parts.append(f"{label} from {_n(now)} to {_n(after)}")
    return _listed(parts).replace(" and but ", ", but ")


def _value(view: object, label: str) -> float:
    """The headline number called ``label`` in ``view``."""
    headline: tuple[Headline, ...] = view.headline  # type: ignore[attr-defined]
    return next(item.value for item in headline if item.label == label)


def _pictures(items: Sequence[str]) -> str:
    return ("pictures " if len(items) > 1 else "picture ") + _listed(list(items))


def _quoted(text: str) -> str:
    return f"\u201c{text}\u201d"


# --- moves -------------------------------------------------------------------------------------------------

def _move_to_top(order: Sequence[str], item: str) -> tuple[str, ...]:
    return (item, *[i for i in order if i != item])


def _swap_items(order: Sequence[str], a: str, b: str) -> tuple[str, ...]:
    return tuple(b if i == a else a if i == b else i for i in order)


def _with_order(state: WalkthroughState, query_id: str, order: tuple[str, ...]) -> WalkthroughState:
    """``state`` with ``query_id`` ranked ``order`` (the first binary query shares the main order)."""
    if query_id == MODE_QUERY["binary"]:
        return replace(state, order=order)
    return replace(state, query_orders={**state.query_orders, query_id: order})


def _with_grade(state: WalkthroughState, item: str, grade: int) -> WalkthroughState:
    """``state`` with picture ``item`` graded ``grade`` (grades equal to the judged ones are no edit: None)."""
    rubric = SCENARIO.query(WHITE_CAT_IN_A_BOX).judgments
    grades = {**dict(state.graded_judgments()), item: grade}
    return replace(state, grades=None if grades == dict(rubric) else grades)


def _relevant(judgments: Judgments, level: int = 1) -> Callable[[str], bool]:
    return lambda item: judgments.grade(item) >= level


def _first(order: Sequence[str], wanted: Callable[[str], bool]) -> tuple[int, str] | None:
    """The rank and id of the first picture of ``order`` that is ``wanted``, or None."""
    return next(((rank, item) for rank, item in enumerate(order, start=1) if wanted(item)), None)


def _top_title(state: WalkthroughState) -> str:
    return SCENARIO.item(state.order[0]).title


def _give_top_grade(state: WalkthroughState, grade: int) -> str:
    return (f"give the picture at rank 1 ({_top_title(state)}) grade {grade} (click its grade, or type {grade} "
            "on its tile)")


# --- chapter 1 ---------------------------------------------------------------------------------------------

_COUNTS = ("TP", "FP", "FN", "TN")


def _counts_changes(state: WalkthroughState, after: WalkthroughState, chapter: Chapter,
                    labels: Sequence[str] = _COUNTS) -> str:
    now, then = confusion_view(state, chapter), confusion_view(after, chapter)
    return _changes(*((label, _value(now, label), _value(then, label)) for label in labels))


def _steps_actual_vs_predicted(state: WalkthroughState, chapter: Chapter) -> list[Step]:
    k = state.effective_k(chapter)
    view = confusion_view(state, chapter)
    counts = view.confusion.value
    rule = relevance_rule(state, chapter)
    steps = []
    if k < N:
        move = replace(state, k=N)
        steps.append(Step("k-all", f"Move K from {k} to {N}: every picture becomes predicted relevant, so every false "
                                   "negative turns into a true positive and every true negative into a false "
                                   f"positive: {_counts_changes(state, move, chapter)}.", False, move))
    else:
        steps.append(Step("k-all", f"At K = {N} every picture is predicted relevant: TP = {counts.TP}, FP = "
                                   f"{counts.FP}, FN = {counts.FN} and TN = {counts.TN}.", True))
    if k != 1:
        move = replace(state, k=1)
        steps.append(Step("k-one", "Set K to 1: only the picture at rank 1 is predicted relevant: "
                                   f"{_counts_changes(state, move, chapter, ('TP', 'FP'))}.", False, move))
    else:
        steps.append(Step("k-one", f"At K = 1 only the picture at rank 1 is predicted relevant: TP = {counts.TP} "
                                   f"and FP = {counts.FP}.", True))
    steps.append(_top_relevant(state, chapter, rule))
    return steps


def _top_relevant(state: WalkthroughState, chapter: Chapter, rule: str) -> Step:
    """Chapter 1's "a relevant picture at rank 1": by a drag, or by a grade when no picture counts as relevant."""
    k = state.effective_k(chapter)
    relevant = state.relevant_items(chapter)
    if state.order[0] in relevant:
        return Step("top-relevant", f"The picture at rank 1 ({_top_title(state)}) is relevant, so it is a true "
                                    f"positive at any K. ({rule})", True)
    first = _first(state.order, lambda item: item in relevant)
    if first is None:  # graded, every grade below the level: only a grade can make a picture relevant
        top = SCENARIO.query(WHITE_CAT_IN_A_BOX).judgments.max_grade
        move = _with_grade(state, state.order[0], top)
        return Step("top-relevant", f"No picture counts as relevant now: {_give_top_grade(state, top)}: it then "
                                    f"counts and is a true positive at any K; at K = {k} "
                                    f"{_counts_changes(state, move, chapter, ('TP', 'FP'))}. ({rule})", False, move)
    rank, item = first
    move = replace(state, order=_move_to_top(state.order, item))
    top = state.judgments(state.effective_mode(chapter)).grade(state.order[0])
    now = ("not relevant" if state.effective_mode(chapter) == "binary" else
           f"grade {top} < {state.effective_level(chapter)}")
    return Step("top-relevant", f"Drag a relevant picture to rank 1 (now: {_top_title(state)}, {now}), e.g. "
                                f"picture {item} from rank {rank}: it is then a true positive at any K; at K = {k} "
                                f"{_counts_changes(state, move, chapter, ('TP', 'FP'))}. ({rule})", False, move)


# --- chapter 2 ---------------------------------------------------------------------------------------------

_SOURCE = SCENARIO.query(MODE_QUERY["binary"]).default_ranking
_FIRST, _SECOND = _SOURCE[0], _SOURCE[1]
"""The sources' first two pictures: chapter 2 swaps them to show that the order inside the top K does not count."""


def _recall_precision_changes(state: WalkthroughState, after: WalkthroughState, chapter: Chapter, *,
                              bare: bool = False) -> str:
    now, then = recall_precision_view(state, chapter), recall_precision_view(after, chapter)
    return _changes((("Recall" if bare else now.recall.measure), now.recall.value, then.recall.value),
                    (("Precision" if bare else now.precision.measure), now.precision.value, then.precision.value))


def _order_inside_k(state: WalkthroughState, chapter: Chapter) -> Step:
    k = state.effective_k(chapter)
    a, b = state.order.index(_FIRST) + 1, state.order.index(_SECOND) + 1
    if b < a:
        view = recall_precision_view(state, chapter)
        return Step("order-inside-k", f"Pictures {_SECOND} and {_FIRST} have swapped places: "
                                      f"{view.recall.measure} is {view.recall.display_value} now and "
                                      f"{view.precision.measure} is {view.precision.display_value} now; they only "
                                      f"count which pictures are in the top {k}, not their order.", True)
    move = replace(state, order=_swap_items(state.order, _FIRST, _SECOND))
    changes = _recall_precision_changes(state, move, chapter)
    where = ("Swap the first two tiles" if (a, b) == (1, 2) else
             f"Swap pictures {_FIRST} and {_SECOND} (ranks {a} and {b})")
    if b <= k:
        why = (f"{changes}, because both pictures are still in the top {k}: the order inside the top K does not "
               "matter to them.")
    elif a > k:
        why = f"{changes}, because both pictures stay below the top {k}."
    else:
        why = (f"picture {_SECOND} enters the top {k} and picture {_FIRST} leaves it, so {changes}: only which "
               "pictures are in the top K counts.")
    return Step("order-inside-k", f"{where}: {why}", False, move)


def _steps_recall_precision(state: WalkthroughState, chapter: Chapter) -> list[Step]:
    k = state.effective_k(chapter)
    view = recall_precision_view(state, chapter)
    relevant = state.relevant_items(chapter)
    steps = [_order_inside_k(state, chapter)]
    if k < N:
        move = replace(state, k=N)
        why = ("then every relevant picture is returned, so recall is 1 whatever the order, and precision is the "
               "share of relevant pictures." if relevant else
               "no picture counts as relevant now, so neither can rise.")
        steps.append(Step("k-all", f"Set K to {N}: {_recall_precision_changes(state, move, chapter, bare=True)}: "
                                   f"{why}", False, move))
    else:
        steps.append(Step("k-all", f"At K = {N} every picture is returned: {view.recall.measure} is "
                                   f"{view.recall.display_value} now and {view.precision.measure} is "
                                   f"{view.precision.display_value} now, the share of relevant pictures.", True))
    steps.append(_precision_one(state, chapter))
    return steps


def _precision_one(state: WalkthroughState, chapter: Chapter) -> Step:
    """Precision@K = 1: the ideal order and, when fewer pictures are relevant than K, a K that fits them."""
    k = state.effective_k(chapter)
    view = recall_precision_view(state, chapter)
    if abs(view.precision.value - 1) < EXACT:
        return Step("precision-one", f"{view.precision.measure} is 1 now: only relevant pictures stand in the top "
                                     f"{k}.", True)
    relevant = state.relevant_items(chapter)
    if not relevant:
        top = SCENARIO.query(WHITE_CAT_IN_A_BOX).judgments.max_grade
        move = replace(_with_grade(state, state.order[0], top), k=1)
        then = recall_precision_view(move, chapter)
        how = _give_top_grade(state, top) + (" and set K to 1" if k != 1 else "")
        return Step("precision-one", f"Find an order and a K where precision is 1: no picture counts as relevant "
                                     f"now; {how}: Precision goes from {_n(view.precision.value)} to "
                                     f"{_n(then.precision.value)}.", False, move)
    fits = min(k, len(relevant))
    actions = []
    move = state
    if not set(state.order[:fits]) <= set(relevant):
        actions.append("press \u201cIdeal order\u201d (relevant pictures first)")
        move = replace(move, order=tuple(ideal_ranking(state.judgments(state.effective_mode(chapter)), state.order)))
    if fits < k:
        actions.append(f"set K to {fits}, as many as there are relevant pictures")
        move = replace(move, k=fits)
    then = recall_precision_view(move, chapter)
    label = view.precision.measure if fits == k else "Precision"
    return Step("precision-one", f"Find an order and a K where precision is 1: {_listed(actions)}: "
                                 f"{_changes((label, view.precision.value, then.precision.value))}; only relevant "
                                 "pictures then stand in the top K.", False, move)


# --- chapters 3 and 4 --------------------------------------------------------------------------------------

def _query(query_id: str) -> tuple[str, tuple[str, ...], Callable[[str], bool]]:
    query = SCENARIO.query(query_id)
    return query.text, query.default_ranking, _relevant(query.judgments)


def _steps_mrr(state: WalkthroughState, chapter: Chapter) -> list[Step]:
    view = mrr_view(state, chapter)
    name, _, relevant = _query(DARK_CAT)
    order = state.query_order(DARK_CAT)
    rank, item = _first(order, relevant)  # every binary query has relevant pictures
    steps = []
    rr = f"RR of {_quoted(name)}"
    if rank == 1:
        steps.append(Step("dark-cat-first", f"In {_quoted(name)} a relevant picture ({item}) is at rank 1, so {rr} "
                                            "is 1 now; nothing below it changes that, because only the first "
                                            "relevant picture counts.", True))
    else:
        move = _with_order(state, DARK_CAT, _move_to_top(order, item))
        then = mrr_view(move, chapter)
        changes = _changes((rr, view.per_query[name].value, then.per_query[name].value),
                           ("MRR", view.mean.value, then.mean.value))
        steps.append(Step("dark-cat-first", f"In {_quoted(name)}, drag picture {item} from rank {rank} to rank 1: "
                                            f"{changes}. Then move any other picture below it: nothing changes, "
                                            "because only the first relevant picture counts.", False, move))
    if abs(view.mean.value - 1) < EXACT:
        steps.append(Step("mrr-one", "MRR is 1 now: every query has a relevant picture at rank 1, and nothing below "
                                     "it matters.", True))
        return steps
    move, moves = state, []
    for query_id in BINARY_QUERIES:
        text, _, wanted = _query(query_id)
        query_order = state.query_order(query_id)
        if not wanted(query_order[0]):
            _, first = _first(query_order, wanted)
            moves.append(f"picture {first} in {_quoted(text)}")
            move = _with_order(move, query_id, _move_to_top(query_order, first))
    then = mrr_view(move, chapter)
    steps.append(Step("mrr-one", f"Make MRR 1: put a relevant picture at rank 1 of every query, e.g. "
                                 f"{_listed(moves)}: {_changes(('MRR', view.mean.value, then.mean.value))}; "
                                 "nothing below a first hit matters.", False, move))
    return steps


_DARK_CAT_LAST = [item for item in SCENARIO.query(DARK_CAT).default_ranking
                  if SCENARIO.query(DARK_CAT).judgments.grade(item) >= 1][-1]
"""The sources' lowest relevant picture of "dark cat" (picture 7 at rank 8): chapter 4 drags it to rank 1."""


def _best_ap(query_id: str, k: int) -> float:
    """The highest AP@K a ranking of ``query_id`` can reach: all relevant first, min(K, R) of R counted."""
    relevant = sum(1 for _, grade in SCENARIO.query(query_id).judgments.items() if grade >= 1)
    return min(k, relevant) / relevant


def _steps_map(state: WalkthroughState, chapter: Chapter) -> list[Step]:
    k = state.effective_k(chapter)
    view = map_view(state, chapter)
    name, _, _ = _query(DARK_CAT)
    order = state.query_order(DARK_CAT)
    ap = view.per_query[name]
    steps = []
    if order[0] == _DARK_CAT_LAST:
        steps.append(Step("dark-cat-up", f"In {_quoted(name)} picture {_DARK_CAT_LAST} is at rank 1: {ap.measure} of "
                                         f"{_quoted(name)} is {ap.display_value} now.", True))
    else:
        rank = order.index(_DARK_CAT_LAST) + 1
        move = _with_order(state, DARK_CAT, _move_to_top(order, _DARK_CAT_LAST))
        then = map_view(move, chapter)
        changes = _changes((f"{ap.measure} of {_quoted(name)}", ap.value, then.per_query[name].value),
                           (view.mean.measure, view.mean.value, then.mean.value))
        lower = (f" Relevant pictures below rank K = {k} add nothing: set K lower and watch them drop out."
                 if k > 1 else "")
        steps.append(Step("dark-cat-up", f"In {_quoted(name)}, drag picture {_DARK_CAT_LAST} from rank {rank} to "
                                         f"rank 1: {changes}.{lower}", False, move))
    if k <= 2:
        steps.append(Step("k-low", f"At K = {k} relevant pictures below rank {k} add nothing to the average "
                                   f"precision: {view.mean.measure} is {view.mean.display_value} now.", True))
    else:
        move = replace(state, k=2)
        then = map_view(move, chapter)
        steps.append(Step("k-low", f"Set K to 2: {_changes(('MAP', view.mean.value, then.mean.value))}: relevant "
                                   "pictures below rank 2 then add nothing, though AP still divides by all of "
                                   "them.", False, move))
    steps.append(_map_best(state, chapter))
    return steps


def _map_best(state: WalkthroughState, chapter: Chapter) -> Step:
    """MAP@K as high as it goes at this K: every query in its ideal order (1 only when every R fits in K)."""
    k = state.effective_k(chapter)
    view = map_view(state, chapter)
    best = sum(_best_ap(query_id, k) for query_id in BINARY_QUERIES) / len(BINARY_QUERIES)
    why = ("" if best >= 1 - EXACT else
           f"; not 1, because AP divides by all R relevant pictures of a query and only {k} fit in the top {k}")
    if view.mean.value >= best - EXACT:
        return Step("map-best", f"{view.mean.measure} is {view.mean.display_value} now, the highest it can be at "
                                f"K = {k}{why}.", True)
    move, rows = state, []
    for query_id in BINARY_QUERIES:
        text = SCENARIO.query(query_id).text
        if view.per_query[text].value < _best_ap(query_id, k) - EXACT:
            rows.append(_quoted(text))
            query_order = state.query_order(query_id)
            move = _with_order(move, query_id, tuple(ideal_ranking(SCENARIO.query(query_id).judgments, query_order)))
    then = map_view(move, chapter)
    return Step("map-best", f"Press \u201cIdeal order\u201d on {_listed(rows)}: "
                            f"{_changes((view.mean.measure, view.mean.value, then.mean.value))}, the highest it can be "
                            f"at K = {k}{why}.", False, move)


# --- chapter 5 ---------------------------------------------------------------------------------------------

def _ndcg_changes(state: WalkthroughState, after: WalkthroughState, chapter: Chapter,
                  labels: Sequence[int] = (0, 1, 3)) -> str:
    """CG, DCG, IDCG, NDCG (by position in the headline) now and after the move."""
    now, then = ndcg_view(state, chapter), ndcg_view(after, chapter)
    return _changes(*((now.headline[i].label, now.headline[i].value, then.headline[i].value) for i in labels))


def _steps_ndcg(state: WalkthroughState, chapter: Chapter) -> list[Step]:
    return [_top_grade(state, chapter), _ideal(state, chapter), _edit_grade(state, chapter)]


def _top_grade(state: WalkthroughState, chapter: Chapter) -> Step:
    """The highest grade at rank 1, where nothing is discounted (binary: a relevant picture)."""
    k = state.effective_k(chapter)
    view = ndcg_view(state, chapter)
    judgments = state.judgments(view.mode)  # the learner's grades, edits included
    graded = view.mode == "graded"
    highest = max(judgments.grade(item) for item in state.order)
    dcg = view.headline[1]
    if highest > 0 and judgments.grade(state.order[0]) == highest:
        what = f"A grade-{highest} picture, the highest grade here," if graded else "A relevant picture"
        return Step("swap", f"{what} is at rank 1, where nothing is discounted: {dcg.label} is {dcg.display} now.",
                    True)
    if highest == 0:  # graded, every grade 0 (binary queries always have relevant pictures)
        top = judgments.max_grade
        move = _with_grade(state, state.order[0], top)
        return Step("swap", f"Every grade is 0 now: {_give_top_grade(state, top)}: "
                            f"{_ndcg_changes(state, move, chapter)}.", False, move)
    rank, item = _first(state.order, lambda i: judgments.grade(i) == highest)
    move = replace(state, order=_move_to_top(state.order, item))
    what = f"grade-{highest} picture" if graded else "relevant picture"
    where = "Swap the first two tiles" if rank == 2 else f"Drag picture {item} ({what}) from rank {rank} to rank 1"
    why = (f"the {what} at rank {rank} is no longer discounted" if rank <= k else
           f"the {what} enters the top {k} at rank 1, where nothing is discounted")
    return Step("swap", f"{where}: {_ndcg_changes(state, move, chapter)}, because {why}.", False, move)


def _ideal(state: WalkthroughState, chapter: Chapter) -> Step:
    view = ndcg_view(state, chapter)
    ndcg, idcg = view.headline[3], view.headline[2]
    if abs(ndcg.value - 1) < EXACT:
        return Step("ideal", f"{ndcg.label} is 1 now: DCG equals IDCG, the DCG of the best order.", True)
    if idcg.value == 0:  # every grade 0: no order helps, a grade does
        top = view.row.query.judgments.max_grade
        move = _with_grade(state, state.order[0], top)
        return Step("ideal", f"Every grade is 0 now, so {ndcg.label} is 0 in any order: {_give_top_grade(state, top)}: "
                             f"{_ndcg_changes(state, move, chapter, (3,))}, because that one picture then is the "
                             "ideal order.", False, move)
    move = replace(state, order=view.ideal_order)
    return Step("ideal", f"Press \u201cIdeal order\u201d: {_ndcg_changes(state, move, chapter, (1, 3))}, because DCG "
                         "then equals IDCG.", False, move)


def _edit_grade(state: WalkthroughState, chapter: Chapter) -> Step:
    graded = state.effective_mode(chapter) == "graded"
    rubric = SCENARIO.query(WHITE_CAT_IN_A_BOX).judgments
    how = "(click it, or type 0-4 on a tile)"
    back = "\u201cReset grades\u201d puts the judged ones back."
    if state.grades is not None:
        shown = "" if graded else " (graded relevance shows them)"
        return Step("edit-grade", f"A grade is edited{shown}: the ideal order, IDCG and NDCG follow it; {back}", True)
    item = state.order[0]
    grade = rubric.max_grade if rubric.grade(item) < rubric.max_grade else 0
    example = f"e.g. give the picture at rank 1 ({_top_title(state)}) grade {grade}"
    if not graded:
        move = _with_grade(replace(state, mode="graded"), item, grade)
        return Step("edit-grade", f"Switch to graded relevance and edit a grade {how}, {example}: the ideal order, "
                                  f"IDCG and NDCG follow the new grade; {back}", False, move)
    move = _with_grade(state, item, grade)
    return Step("edit-grade", f"Edit a grade {how}, {example}: the ideal order, IDCG and NDCG follow the new grade: "
                              f"{_ndcg_changes(state, move, chapter, (2, 3))}; {back}", False, move)


# --- chapter 6 ---------------------------------------------------------------------------------------------

def _steps_conventions(state: WalkthroughState, chapter: Chapter) -> list[Step]:
    view = conventions_view(state, chapter)
    steps = []
    if view.returned < view.k:
        steps.append(Step("returned", f"{view.returned} returned, below K = {view.k}: the conventions that divide "
                                      "by the items returned, or build the ideal ranking from them only, can now "
                                      "disagree with trec_eval's; the table and the chart show by how much, and which "
                                      "tools use each.", True))
    else:
        k = view.k if view.k > 1 else N
        move = replace(state, k=k, returned=k - 1)
        then = conventions_view(move, chapter)
        new = [then.topic(t)[0].topic_label for t in then.differing_topics if t not in view.differing_topics]
        returned = f"\u201citems the system returned\u201d to {k - 1}"
        how = (f"Set {returned}, below K = {k}" if k == view.k else
               f"At K = 1 no system returns fewer than K: set K to {k}, then {returned}")
        result = (f"here the {_listed(new)} {'starts' if len(new) == 1 else 'start'} to disagree" if new else
                  "here no other convention starts to disagree")
        steps.append(Step("returned", f"{how}: the conventions that divide by the items returned, or build the "
                                      f"ideal ranking from them only, can then disagree with trec_eval's; {result}.",
                          False, move))
    steps.append(_grade_four_first(state, chapter))
    return steps


def _grade_four_first(state: WalkthroughState, chapter: Chapter) -> Step:
    graded = state.effective_mode(chapter) == "graded"
    judgments = state.graded_judgments()
    top = judgments.max_grade
    weights = f"exponential gain (2^grade - 1) weighs it {2 ** top - 1} where linear gain weighs it {top}"
    if graded and judgments.grade(state.order[0]) == top:
        return Step("grade-four-first", f"A grade-{top} picture is at rank 1: {weights}; the DCG gain rows of the "
                                        "table show what that does to NDCG.", True)
    switch = "" if graded else "Switch to graded relevance, then "
    move = replace(state, mode="graded")
    first = _first(state.order, lambda item: judgments.grade(item) == top)
    if first is None:
        move = _with_grade(move, state.order[0], top)
        how = _give_top_grade(state, top)
        how = how[0].upper() + how[1:] if not switch else how
    elif first[0] == 1:  # binary mode, a grade-4 picture already first: switching is the whole move
        return Step("grade-four-first", f"Switch to graded relevance: a grade-{top} picture is at rank 1, and "
                                        f"{weights}; the DCG gain rows of the table show what that does to NDCG.",
                    False, move)
    else:
        rank, item = first
        move = replace(move, order=_move_to_top(state.order, item))
        how = f"{'d' if switch else 'D'}rag picture {item} (grade {top}) from rank {rank} to rank 1"
    return Step("grade-four-first", f"{switch}{how}: {weights}; the DCG gain rows of the table show what that does "
                                    "to NDCG.", False, move)


_STEPS = {"actual-vs-predicted": _steps_actual_vs_predicted, "recall-precision": _steps_recall_precision,
          "mrr": _steps_mrr, "map": _steps_map, "ndcg": _steps_ndcg, "conventions": _steps_conventions}


def steps(state: WalkthroughState, chapter: Chapter) -> tuple[Step, ...]:
    """The chapter's experiments for ``state``, each with whether ``state`` reaches its goal and, if not, the
    state after the move its text describes.

    The views they read are the ones the chapter's screen shows (computed once per state, see
    :func:`irlab.walkthrough.views.once_per_state`), plus one per move.

    >>> from irlab.walkthrough.chapters import chapter
    >>> from irlab.walkthrough.state import DEFAULT_STATE
    >>> [(step.key, step.reached) for step in steps(DEFAULT_STATE.with_preset(chapter("recall-precision")),
    ...                                            chapter("recall-precision"))]
    [('order-inside-k', False), ('k-all', False), ('precision-one', False)]
    >>> steps(replace(DEFAULT_STATE, k=8), chapter("recall-precision"))[1].reached
    True
    """
    return tuple(_STEPS[chapter.slug](state, chapter))


def try_this(state: WalkthroughState, chapter: Chapter) -> str:
    """The chapter's first experiment for ``state``: its K, its mode, and the numbers the move will show."""
    return steps(state, chapter)[0].text
