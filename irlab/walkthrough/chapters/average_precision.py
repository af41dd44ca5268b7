"""Chapter 4, AP@K and MAP@K: precision at every relevant rank, averaged over three queries."""

from __future__ import annotations

from dataclasses import replace

from irlab.data.rankings import ideal_ranking
from irlab.metrics.average_precision import explain_mean_average_precision
from irlab.scenarios.cats_in_boxes import BINARY_QUERIES, DARK_CAT
from irlab.walkthrough import charts
from irlab.walkthrough.chapter import Chapter
from irlab.walkthrough.guide import EXACT, Step, changes, listed, move_to_top, query_facts, quoted, with_order
from irlab.walkthrough.numbers import ChapterNumber, over_binary_queries, single_query
from irlab.walkthrough.screens import Block, Chart, Numbers, breakdown, per_query_blocks, plain_text
from irlab.walkthrough.state import SCENARIO, WalkthroughState
from irlab.walkthrough.views import (
    Headline,
    MeanView,
    binary_quantity,
    binary_queries,
    binary_row_targets,
    binary_rows,
    once_per_state,
)


@once_per_state
def map_view(state: WalkthroughState, chapter: Chapter) -> MeanView:
    """Each query's AP@K (the P@k x rel_k table) and MAP@K."""
    k = state.effective_k(chapter)
    mean = explain_mean_average_precision(binary_queries(state), k)
    headline = (Headline(mean.measure, mean.value, mean.symbolic_text, quantity=binary_quantity("MAP")),
                *(Headline(f"{part.measure} · {name}", part.value, part.symbolic_text,
                           quantity=binary_quantity("AP", name))
                  for name, part in mean.parts.items()))
    return MeanView(k, mean, None, mean.parts, headline, binary_rows(state, k))


# --- the live region -----------------------------------------------------------------------------------------------

def screen(state: WalkthroughState, chapter: Chapter) -> tuple[Block, ...]:
    view = map_view(state, chapter)
    chart = Chart("ap-terms", charts.ap_terms_spec(view.per_query, view.k, large=state.present),
                  charts.describe_ap_terms(view.per_query))
    return (Numbers("numbers", view.headline), *per_query_blocks(view, state, ap=True), chart,
            breakdown("mean", view.mean, heading="Mean over the three queries"),
            *plain_text([*view.per_query.values(), view.mean], state))


# --- "Try this" ----------------------------------------------------------------------------------------------------

_DARK_CAT_LAST = [item for item in SCENARIO.query(DARK_CAT).default_ranking
                  if SCENARIO.query(DARK_CAT).judgments.grade(item) >= 1][-1]
"""The sources' lowest relevant picture of "dark cat" (picture 7 at rank 8): the chapter drags it to rank 1."""


def _best_ap(query_id: str, k: int) -> float:
    """The highest AP@K a ranking of ``query_id`` can reach: all relevant first, min(K, R) of R counted."""
    relevant = sum(1 for _, grade in SCENARIO.query(query_id).judgments.items() if grade >= 1)
    return min(k, relevant) / relevant


def steps(state: WalkthroughState, chapter: Chapter) -> list[Step]:
    k = state.effective_k(chapter)
    view = map_view(state, chapter)
    name, _, _ = query_facts(DARK_CAT)
    order = state.query_order(DARK_CAT)
    ap = view.per_query[name]
    found = []
    if order[0] == _DARK_CAT_LAST:
        found.append(Step("dark-cat-up", f"In {quoted(name)} picture {_DARK_CAT_LAST} is at rank 1: {ap.measure} of "
                                         f"{quoted(name)} is {ap.display_value} now.", True))
    else:
        rank = order.index(_DARK_CAT_LAST) + 1
        move = with_order(state, DARK_CAT, move_to_top(order, _DARK_CAT_LAST))
        then = map_view(move, chapter)
        moved = changes((f"{ap.measure} of {quoted(name)}", ap.value, then.per_query[name].value),
                        (view.mean.measure, view.mean.value, then.mean.value))
        lower = (f" Relevant pictures below rank K = {k} add nothing: set K lower and watch them drop out."
                 if k > 1 else "")
        found.append(Step("dark-cat-up", f"In {quoted(name)}, drag picture {_DARK_CAT_LAST} from rank {rank} to "
                                         f"rank 1: {moved}.{lower}", False, move))
    if k <= 2:
        found.append(Step("k-low", f"At K = {k} relevant pictures below rank {k} add nothing to the average "
                                   f"precision: {view.mean.measure} is {view.mean.display_value} now.", True))
    else:
        move = replace(state, k=2)
        then = map_view(move, chapter)
        found.append(Step("k-low", f"Set K to 2: {changes(('MAP', view.mean.value, then.mean.value))}: relevant "
                                   "pictures below rank 2 then add nothing, though AP still divides by all of "
                                   "them.", False, move))
    found.append(_map_best(state, chapter))
    return found


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
            rows.append(quoted(text))
            query_order = state.query_order(query_id)
            move = with_order(move, query_id, tuple(ideal_ranking(SCENARIO.query(query_id).judgments, query_order)))
    then = map_view(move, chapter)
    return Step("map-best", f"Press \u201cIdeal order\u201d on {listed(rows)}: "
                            f"{changes((view.mean.measure, view.mean.value, then.mean.value))}, the highest it can be "
                            f"at K = {k}{why}.", False, move)


# --- the class's questions -----------------------------------------------------------------------------------------

def class_number(state: WalkthroughState, chapter: Chapter, key: str) -> ChapterNumber:
    view = map_view(state, chapter)
    _, _, query = key.partition(":")
    if query:
        text = SCENARIO.query(query).text
        label = f"AP@{view.k} \u00b7 {text}"
        return ChapterNumber(key, label, f"What is AP@{view.k} of the ranking for \u201c{text}\u201d?",
                             view.per_query[text], single_query(state, chapter, f"AP@{view.k}", query=query))
    label = f"MAP@{view.k}"
    return ChapterNumber(key, label, f"What is {label}, the mean of AP@{view.k} over the three queries?", view.mean,
                         over_binary_queries(state, f"AP@{view.k}"))


CHAPTER = Chapter(
    slug="map", number=4, title="AP@K and MAP@K", icon=":material/stacked_line_chart:",
    teaches="Precision at every relevant rank: rewards putting all relevant results early.",
    summary=("**Average precision** looks at every rank k up to K that holds a relevant item, takes Precision@k "
             "there, and divides their sum by the number of relevant items. **MAP@K** is the mean of AP@K over "
             "the queries."),
    default_k=8, default_mode="binary",
    preset_label="The sources' example: three queries, K = 8",
    rewards="Returning all the relevant items, and returning them early: every relevant item placed higher "
            "raises the precision at its own rank and at every relevant rank below it.",
    pros=("Order-aware and it counts every relevant item, so it suits search and recommendation lists.",
          "Dividing by all relevant items (not just those found) penalises a system that misses some."),
    cons=("Relevance must be binary: an item is relevant or not, so \"a bit relevant\" cannot be expressed. "
          "Graded judgments need NDCG.",
          "Harder to explain to a non-specialist than precision or recall."),
    source_notes=("The article lists the precision terms of \"white cat\" as 1, 0.5, 0.4, 0.43; they are 1, "
                  "0.5, 0.6, 0.57 (as in the notebook), which gives AP@8 = 0.6679.",
                  "AP@8 of \"dark cat\" is exactly 0.225: the sources print it as 0.22 in one place and 0.23 in "
                  "another (rounding)."),
    binary_only=True,
    view=map_view, screen=screen, steps=steps, class_number=class_number,
    class_numbers=("MAP@K", *(f"AP@K:{q}" for q in BINARY_QUERIES)), tile_rows=binary_row_targets(),
)
