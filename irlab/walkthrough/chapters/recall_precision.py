"""Chapter 2, Recall@K and Precision@K: how much of the relevant the top K found, and how much of it is relevant."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from irlab.data.rankings import ideal_ranking
from irlab.explain.breakdown import Breakdown
from irlab.metrics.curves import Curve, curve
from irlab.metrics.precision_recall import explain_precision_at_k, explain_recall_at_k
from irlab.scenarios.cats_in_boxes import WHITE_CAT_IN_A_BOX
from irlab.walkthrough import charts
from irlab.walkthrough.chapter import Chapter
from irlab.walkthrough.guide import EXACT, N, Step, changes, give_top_grade, listed, shown, swap_items, with_grade
from irlab.walkthrough.numbers import ChapterNumber, level_words, query_words, single_query
from irlab.walkthrough.screens import Block, Chart, Columns, Numbers, Tiles, formulas, plain_text, rank_table
from irlab.walkthrough.state import MODE_QUERY, SCENARIO, WalkthroughState
from irlab.walkthrough.views import (
    RELEVANCE_LEVEL,
    Headline,
    TileRow,
    main_row,
    once_per_state,
    quantity,
    ranking_and_judgments,
)


@dataclass(frozen=True)
class RecallPrecisionView:
    k: int
    mode: str
    recall: Breakdown
    precision: Breakdown
    curves: Mapping[str, Curve]
    headline: tuple[Headline, ...]
    row: TileRow


@once_per_state
def _recall_precision_curves(state: WalkthroughState, chapter: Chapter) -> Mapping[str, Curve]:
    """Recall@k and Precision@k for k = 1..N; the same whatever K (asked for with K unset, so a K move reuses them)."""
    ranking, judgments = ranking_and_judgments(state, chapter)
    level = state.effective_level(chapter)
    return {"Recall": curve(explain_recall_at_k, ranking, judgments, relevance_level=level),
            "Precision": curve(explain_precision_at_k, ranking, judgments, relevance_level=level)}


@once_per_state
def recall_precision_view(state: WalkthroughState, chapter: Chapter) -> RecallPrecisionView:
    """Recall@K and Precision@K, with both curves over K = 1..N."""
    k, mode = state.effective_k(chapter), state.effective_mode(chapter)
    curves = _recall_precision_curves(replace(state, k=None), chapter)
    recall, precision = curves["Recall"].at(k), curves["Precision"].at(k)
    headline = (Headline(recall.measure, recall.value, recall.symbolic_text,
                         quantity=quantity(state, chapter, "Recall")),
                Headline(precision.measure, precision.value, precision.symbolic_text,
                         quantity=quantity(state, chapter, "Precision")))
    return RecallPrecisionView(k, mode, recall, precision, curves, headline,
                               main_row(state, chapter, show_counts=True))


# --- the live region -----------------------------------------------------------------------------------------------

def screen(state: WalkthroughState, chapter: Chapter) -> tuple[Block, ...]:
    view = recall_precision_view(state, chapter)
    curves = Chart("curves", charts.curves_spec(view.curves, view.k, title="Recall@K and Precision@K over K",
                                                large=state.present),
                   charts.describe_curves(view.curves, view.k))
    return (Numbers("numbers", view.headline), Tiles(view.row.key, view.row),
            Columns("formulas", (formulas("recall", view.recall), formulas("precision", view.precision))),
            curves, rank_table("which", view.recall, heading=f"Which pictures count at K = {view.k}"),
            *plain_text([view.recall, view.precision], state))


# --- "Try this" ----------------------------------------------------------------------------------------------------

_SOURCE = SCENARIO.query(MODE_QUERY["binary"]).default_ranking
_FIRST, _SECOND = _SOURCE[0], _SOURCE[1]
"""The sources' first two pictures: the chapter swaps them to show that the order inside the top K does not count."""


def _recall_precision_changes(state: WalkthroughState, after: WalkthroughState, chapter: Chapter, *,
                              bare: bool = False) -> str:
    now, then = recall_precision_view(state, chapter), recall_precision_view(after, chapter)
    return changes((("Recall" if bare else now.recall.measure), now.recall.value, then.recall.value),
                   (("Precision" if bare else now.precision.measure), now.precision.value, then.precision.value))


def _order_inside_k(state: WalkthroughState, chapter: Chapter) -> Step:
    k = state.effective_k(chapter)
    a, b = state.order.index(_FIRST) + 1, state.order.index(_SECOND) + 1
    if b < a and a <= k:
        view = recall_precision_view(state, chapter)
        return Step("order-inside-k", f"Pictures {_SECOND} and {_FIRST} have swapped places: "
                                      f"{view.recall.measure} is {view.recall.display_value} now and "
                                      f"{view.precision.measure} is {view.precision.display_value} now; they only "
                                      f"count which pictures are in the top {k}, not their order.", True)
    if b < a:  # swapped, but picture _FIRST is below the top K: the swap changed which pictures count, not an order
        move = replace(state, k=a)
        return Step("order-inside-k", f"Pictures {_SECOND} and {_FIRST} have swapped places, but at K = {k} picture "
                                      f"{_FIRST} (rank {a}) is not in the top {k}, so the swap changed which pictures "
                                      f"count. Set K to {a}: "
                                      f"{_recall_precision_changes(state, move, chapter, bare=True)}; with both in "
                                      "the top K, their order does not count.", False, move)
    swapped = swap_items(state.order, _FIRST, _SECOND)
    where = ("the first two tiles" if (a, b) == (1, 2) else f"pictures {_FIRST} and {_SECOND} (ranks {a} and {b})")
    if b <= k:
        move = replace(state, order=swapped)
        return Step("order-inside-k", f"Swap {where}: {_recall_precision_changes(state, move, chapter)}, because both "
                                      f"pictures are still in the top {k}: the order inside the top K does not matter "
                                      "to them.", False, move)
    # a picture below the top K: a swap there would change which pictures count, so K first takes both in
    move = replace(state, order=swapped, k=b)
    inside = "only one of them is" if a <= k else "neither is"
    return Step("order-inside-k", f"At K = {k} {inside} in the top {k}, so a swap would change which pictures count: "
                                  f"set K to {b} and swap {where}: "
                                  f"{_recall_precision_changes(state, move, chapter, bare=True)}, all of it from K; "
                                  f"with both in the top {b} the swap itself changes nothing.", False, move)


def steps(state: WalkthroughState, chapter: Chapter) -> list[Step]:
    k = state.effective_k(chapter)
    view = recall_precision_view(state, chapter)
    relevant = state.relevant_items(chapter)
    found = [_order_inside_k(state, chapter)]
    if k < N:
        move = replace(state, k=N)
        why = ("then every relevant picture is returned, so recall is 1 whatever the order, and precision is the "
               "share of relevant pictures." if relevant else
               "no picture counts as relevant now, so neither can rise.")
        found.append(Step("k-all", f"Set K to {N}: {_recall_precision_changes(state, move, chapter, bare=True)}: "
                                   f"{why}", False, move))
    else:
        found.append(Step("k-all", f"At K = {N} every picture is returned: {view.recall.measure} is "
                                   f"{view.recall.display_value} now and {view.precision.measure} is "
                                   f"{view.precision.display_value} now, the share of relevant pictures.", True))
    found.append(_precision_one(state, chapter))
    return found


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
        move = replace(with_grade(state, state.order[0], top), k=1)
        then = recall_precision_view(move, chapter)
        how = give_top_grade(state, top) + (" and set K to 1" if k != 1 else "")
        return Step("precision-one", f"Find an order and a K where precision is 1: no picture counts as relevant "
                                     f"now; {how}: Precision goes from {shown(view.precision.value)} to "
                                     f"{shown(then.precision.value)}.", False, move)
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
    return Step("precision-one", f"Find an order and a K where precision is 1: {listed(actions)}: "
                                 f"{changes((label, view.precision.value, then.precision.value))}; only relevant "
                                 "pictures then stand in the top K.", False, move)


# --- the class's questions -----------------------------------------------------------------------------------------

def class_number(state: WalkthroughState, chapter: Chapter, key: str) -> ChapterNumber:
    view = recall_precision_view(state, chapter)
    breakdown_ = view.recall if key == "Recall@K" else view.precision
    family = "R" if key == "Recall@K" else "P"
    level = state.effective_level(chapter)
    measure = f"{family}(rel={level})@{view.k}" if level != 1 else f"{family}@{view.k}"
    label = breakdown_.measure
    prompt = f"What is {label} of this ranking {query_words(state, chapter)}{level_words(state, chapter)}?"
    return ChapterNumber(key, label, prompt, breakdown_, single_query(state, chapter, measure))


CHAPTER = Chapter(
    slug="recall-precision", number=2, title="Recall@K and Precision@K", icon=":material/filter_list:",
    teaches="How much of the relevant the top K found, and how much of the top K is relevant.",
    summary=("**Recall@K** asks: of all the relevant pictures, how many made the top K? **Precision@K** asks: "
             "of the top K, how many are relevant? Both only count the relevant items in the top K, so they "
             "ignore the order inside it."),
    default_k=2, default_mode="binary",
    preset_label="The sources' example: \"cat in a box\", K = 2",
    rewards="Recall rewards finding every relevant item; precision rewards not wasting the user's attention "
            "on irrelevant ones. Usually one rises while the other falls as K grows.",
    pros=("Both are easy to explain: a recall of 1 means every relevant item was returned.",
          "A small K makes recall hard to earn, which matches what a user who reads only the top results sees."),
    cons=("Recall@K can be gamed: with K = N every system has perfect recall.",
          "Both are order-unaware: a relevant item at rank 1 scores the same as one at rank K."),
    source_notes=("The sources divide Precision@K by K, as trec_eval does; some libraries divide by the number of "
                  "items actually returned when fewer than K come back (see Conventions).",),
    view=recall_precision_view, screen=screen, steps=steps, class_number=class_number,
    class_numbers=("Recall@K", "Precision@K"),
    settings=(RELEVANCE_LEVEL,),
)
