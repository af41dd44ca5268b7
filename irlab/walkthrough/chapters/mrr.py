"""Chapter 3, mean reciprocal rank: how soon the first relevant result comes, over three queries."""

from __future__ import annotations

from irlab.metrics.reciprocal_rank import explain_mean_reciprocal_rank
from irlab.scenarios.cats_in_boxes import BINARY_QUERIES, DARK_CAT
from irlab.walkthrough.chapter import Chapter
from irlab.walkthrough.guide import (
    EXACT,
    Step,
    changes,
    first_where,
    listed,
    move_to_top,
    query_facts,
    quoted,
    with_order,
)
from irlab.walkthrough.numbers import ChapterNumber, over_binary_queries, single_query
from irlab.walkthrough.screens import Block, Numbers, Paragraph, breakdown, per_query_blocks, plain_text
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
def mrr_view(state: WalkthroughState, chapter: Chapter) -> MeanView:
    """Each query's reciprocal rank and their mean; MRR@K as MS MARCO cuts it."""
    k = state.effective_k(chapter)
    mean = explain_mean_reciprocal_rank(binary_queries(state))
    mean_at_k = explain_mean_reciprocal_rank(binary_queries(state), k)
    headline = (Headline("MRR", mean.value, mean.symbolic_text, quantity=binary_quantity("MRR")),
                *(Headline(f"RR · {name}", part.value, part.symbolic_text, quantity=binary_quantity("RR", name))
                  for name, part in mean.parts.items()))
    return MeanView(k, mean, mean_at_k, mean.parts, headline, binary_rows(state, None))


# --- the live region -----------------------------------------------------------------------------------------------

def screen(state: WalkthroughState, chapter: Chapter) -> tuple[Block, ...]:
    view = mrr_view(state, chapter)
    cut = Paragraph("cut", f"Cut at K = {view.k} (as MS MARCO's MRR@10 does), only first hits in the top {view.k} "
                           f"count: {view.mean_at_k.plugged_text}.")
    return (Numbers("numbers", view.headline), *per_query_blocks(view, state, ap=False),
            breakdown("mean", view.mean, heading="Mean over the three queries"), cut,
            *plain_text([*view.per_query.values(), view.mean, view.mean_at_k], state))


# --- "Try this" ----------------------------------------------------------------------------------------------------

def steps(state: WalkthroughState, chapter: Chapter) -> list[Step]:
    view = mrr_view(state, chapter)
    name, _, relevant = query_facts(DARK_CAT)
    order = state.query_order(DARK_CAT)
    rank, item = first_where(order, relevant)  # every binary query has relevant pictures
    found = []
    rr = f"RR of {quoted(name)}"
    if rank == 1:
        found.append(Step("dark-cat-first", f"In {quoted(name)} a relevant picture ({item}) is at rank 1, so {rr} "
                                            "is 1 now; nothing below it changes that, because only the first "
                                            "relevant picture counts.", True))
    else:
        move = with_order(state, DARK_CAT, move_to_top(order, item))
        then = mrr_view(move, chapter)
        moved = changes((rr, view.per_query[name].value, then.per_query[name].value),
                        ("MRR", view.mean.value, then.mean.value))
        found.append(Step("dark-cat-first", f"In {quoted(name)}, drag picture {item} from rank {rank} to rank 1: "
                                            f"{moved}. Then move any other picture below it: nothing changes, "
                                            "because only the first relevant picture counts.", False, move))
    if abs(view.mean.value - 1) < EXACT:
        found.append(Step("mrr-one", "MRR is 1 now: every query has a relevant picture at rank 1, and nothing below "
                                     "it matters.", True))
        return found
    move, moves = state, []
    for query_id in BINARY_QUERIES:
        text, _, wanted = query_facts(query_id)
        query_order = state.query_order(query_id)
        if not wanted(query_order[0]):
            _, first = first_where(query_order, wanted)
            moves.append(f"picture {first} in {quoted(text)}")
            move = with_order(move, query_id, move_to_top(query_order, first))
    then = mrr_view(move, chapter)
    found.append(Step("mrr-one", f"Make MRR 1: put a relevant picture at rank 1 of every query, e.g. "
                                 f"{listed(moves)}: {changes(('MRR', view.mean.value, then.mean.value))}; "
                                 "nothing below a first hit matters.", False, move))
    return found


# --- the class's questions -----------------------------------------------------------------------------------------

def class_number(state: WalkthroughState, chapter: Chapter, key: str) -> ChapterNumber:
    view = mrr_view(state, chapter)
    _, _, query = key.partition(":")
    if query:
        text = SCENARIO.query(query).text
        return ChapterNumber(key, f"RR \u00b7 {text}", f"What is the reciprocal rank of the ranking for "
                             f"\u201c{text}\u201d?", view.per_query[text],
                             single_query(state, chapter, "RR", query=query))
    if key == "MRR@K":
        label = f"MRR@{view.k}"
        return ChapterNumber(key, label, f"What is {label} over the three queries (a first relevant result below "
                             f"rank {view.k} counts 0)?", view.mean_at_k, over_binary_queries(state, f"RR@{view.k}"))
    return ChapterNumber(key, "MRR", "What is MRR, the mean reciprocal rank over the three queries?", view.mean,
                         over_binary_queries(state, "RR"))


CHAPTER = Chapter(
    slug="mrr", number=3, title="Mean reciprocal rank (MRR)", icon=":material/looks_one:",
    teaches="How soon the first relevant result comes, averaged over queries.",
    summary=("For each query, the **reciprocal rank** is 1 divided by the rank of the first relevant result. "
             "**MRR** averages it over the queries: here \"cat in a box\", \"white cat\" and \"dark cat\", each "
             "with its own ranking of the same eight pictures."),
    default_k=2, default_mode="binary",
    preset_label="The sources' example: three queries, first hits at ranks 2, 1 and 5",
    rewards="Putting one relevant result at the very top, which is what matters for a chatbot or a question "
            "answering system that shows a single answer.",
    pros=("Order-aware: a first hit at rank 1 scores 1, at rank 2 only 0.5.",
          "Simple to compute and to compare across systems."),
    cons=("Everything after the first relevant result is ignored: one hit at rank 1 and nine irrelevant items "
          "still score a perfect 1.",
          "Less intuitive than recall: an MRR of 0.57 means \"first hit around rank 2\" only on average."),
    source_notes=("The notebook's MRR loop prints the running sum (0.5, 1.5, 1.7) where it means each query's "
                  "reciprocal rank (0.5, 1, 0.2); the MRR it prints, 0.57, is right.",
                  "The sources' code reads the rank of the first relevant result straight from the list of "
                  "relevant ids; that only works because their predicted list is 1, 2, ..., 8. Here the "
                  "rank is looked up in the ranking, so any order works."),
    uses_k=False, binary_only=True,
    view=mrr_view, screen=screen, steps=steps, class_number=class_number,
    class_numbers=("MRR", "MRR@K", *(f"RR:{q}" for q in BINARY_QUERIES)), tile_rows=binary_row_targets(),
)
