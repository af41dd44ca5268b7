"""Chapter 1, actual vs predicted: the top K as a prediction, each picture a TP, FP, FN or TN, the confusion matrix."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from irlab.explain.breakdown import Breakdown
from irlab.metrics.confusion import CLASS_LABELS, explain_confusion_at_k
from irlab.scenarios.cats_in_boxes import WHITE_CAT_IN_A_BOX
from irlab.walkthrough.chapter import Chapter
from irlab.walkthrough.guide import (
    N,
    Step,
    changes,
    first_where,
    give_top_grade,
    headline_value,
    move_to_top,
    top_title,
    with_grade,
)
from irlab.walkthrough.numbers import ChapterNumber, level_words, query_words
from irlab.walkthrough.screens import Block, Columns, Formulas, Numbers, Tiles, breakdown, plain_text, table_block
from irlab.walkthrough.state import SCENARIO, WalkthroughState
from irlab.walkthrough.views import (
    RELEVANCE_LEVEL,
    Headline,
    TileRow,
    main_row,
    once_per_state,
    quantity,
    ranking_and_judgments,
    relevance_rule,
)


@dataclass(frozen=True)
class ConfusionView:
    k: int
    mode: str
    confusion: Breakdown
    headline: tuple[Headline, ...]
    row: TileRow


@once_per_state
def confusion_view(state: WalkthroughState, chapter: Chapter) -> ConfusionView:
    """TP/FP/FN/TN at K and each tile's class (and, graded, whether it counts as relevant)."""
    k, mode = state.effective_k(chapter), state.effective_mode(chapter)
    confusion = explain_confusion_at_k(*ranking_and_judgments(state, chapter), k,
                                       relevance_level=state.effective_level(chapter))
    headline = tuple(Headline(name, count, f"{CLASS_LABELS[name]}s: {confusion.parts[name].symbolic_text}",
                              quantity=quantity(state, chapter, name))
                     for name, count in confusion.value._asdict().items())
    return ConfusionView(k, mode, confusion, headline, main_row(state, chapter, show_classes=True, show_counts=True))


def confusion_matrix(confusion: Breakdown) -> tuple[list[str], list[list[str]]]:
    """The 2x2 matrix as (headers, cells), each cell naming its class and count.

    >>> from irlab.metrics.confusion import explain_confusion_at_k
    >>> confusion_matrix(explain_confusion_at_k(list("1234"), {"2": 1}, 2))[1]
    [['actually relevant', 'TP = 1', 'FN = 0'], ['actually not relevant', 'FP = 1', 'TN = 2']]
    """
    counts = confusion.value
    return (["", "returned (predicted relevant)", "not returned (predicted not relevant)"],
            [["actually relevant", f"TP = {counts.TP}", f"FN = {counts.FN}"],
             ["actually not relevant", f"FP = {counts.FP}", f"TN = {counts.TN}"]])


# --- the live region -----------------------------------------------------------------------------------------------

def screen(state: WalkthroughState, chapter: Chapter) -> tuple[Block, ...]:
    view = confusion_view(state, chapter)
    matrix = Formulas("matrix", (), "Confusion matrix", table_block("matrix-table", *confusion_matrix(view.confusion)))
    return (Numbers("numbers", view.headline), Tiles(view.row.key, view.row),
            Columns("confusion", (matrix, breakdown("each", view.confusion,
                                                    heading=f"Each picture at K = {view.k}"))),
            *plain_text([view.confusion], state))


# --- "Try this" ----------------------------------------------------------------------------------------------------

_COUNTS = ("TP", "FP", "FN", "TN")


def _counts_changes(state: WalkthroughState, after: WalkthroughState, chapter: Chapter,
                    labels: Sequence[str] = _COUNTS) -> str:
    now, then = confusion_view(state, chapter), confusion_view(after, chapter)
    return changes(*((label, headline_value(now, label), headline_value(then, label)) for label in labels))


def steps(state: WalkthroughState, chapter: Chapter) -> list[Step]:
    k = state.effective_k(chapter)
    view = confusion_view(state, chapter)
    counts = view.confusion.value
    rule = relevance_rule(state, chapter)
    found = []
    if k < N:
        move = replace(state, k=N)
        found.append(Step("k-all", f"Move K from {k} to {N}: every picture becomes predicted relevant, so every false "
                                   "negative turns into a true positive and every true negative into a false "
                                   f"positive: {_counts_changes(state, move, chapter)}.", False, move))
    else:
        found.append(Step("k-all", f"At K = {N} every picture is predicted relevant: TP = {counts.TP}, FP = "
                                   f"{counts.FP}, FN = {counts.FN} and TN = {counts.TN}.", True))
    if k != 1:
        move = replace(state, k=1)
        found.append(Step("k-one", "Set K to 1: only the picture at rank 1 is predicted relevant: "
                                   f"{_counts_changes(state, move, chapter, ('TP', 'FP'))}.", False, move))
    else:
        found.append(Step("k-one", f"At K = 1 only the picture at rank 1 is predicted relevant: TP = {counts.TP} "
                                   f"and FP = {counts.FP}.", True))
    found.append(_top_relevant(state, chapter, rule))
    return found


def _top_relevant(state: WalkthroughState, chapter: Chapter, rule: str) -> Step:
    """"A relevant picture at rank 1": by a drag, or by a grade when no picture counts as relevant."""
    k = state.effective_k(chapter)
    relevant = state.relevant_items(chapter)
    if state.order[0] in relevant:
        return Step("top-relevant", f"The picture at rank 1 ({top_title(state)}) is relevant, so it is a true "
                                    f"positive at any K. ({rule})", True)
    first = first_where(state.order, lambda item: item in relevant)
    if first is None:  # graded, every grade below the level: only a grade can make a picture relevant
        top = SCENARIO.query(WHITE_CAT_IN_A_BOX).judgments.max_grade
        move = with_grade(state, state.order[0], top)
        return Step("top-relevant", f"No picture counts as relevant now: {give_top_grade(state, top)}: it then "
                                    f"counts and is a true positive at any K; at K = {k} "
                                    f"{_counts_changes(state, move, chapter, ('TP', 'FP'))}. ({rule})", False, move)
    rank, item = first
    move = replace(state, order=move_to_top(state.order, item))
    top = state.judgments(state.effective_mode(chapter)).grade(state.order[0])
    now = ("not relevant" if state.effective_mode(chapter) == "binary" else
           f"grade {top} < {state.effective_level(chapter)}")
    return Step("top-relevant", f"Drag a relevant picture to rank 1 (now: {top_title(state)}, {now}), e.g. "
                                f"picture {item} from rank {rank}: it is then a true positive at any K; at K = {k} "
                                f"{_counts_changes(state, move, chapter, ('TP', 'FP'))}. ({rule})", False, move)


# --- the class's questions -----------------------------------------------------------------------------------------

def class_number(state: WalkthroughState, chapter: Chapter, key: str) -> ChapterNumber:
    """A count at K (``TP``): no irlab measure, so no exercise; answers are whole numbers."""
    view = confusion_view(state, chapter)
    label = f"{key}@{view.k}"
    prompt = (f"How many {CLASS_LABELS[key].lower()}s ({key}) are there at K = {view.k}, "
              f"{query_words(state, chapter)}{level_words(state, chapter)}?")
    return ChapterNumber(key, label, prompt, view.confusion.parts[key], None, whole_numbers=True,
                         high=float(len(SCENARIO.items)))


CHAPTER = Chapter(
    slug="actual-vs-predicted", number=1, title="Actual vs predicted", icon=":material/compare_arrows:",
    teaches="The top K as a prediction: true and false positives, misses and the confusion matrix.",
    summary=("A search system ranks all eight pictures for the query and returns its top K. Everything it "
             "returns is *predicted* relevant, everything else *predicted* not relevant. Comparing that with "
             "what is *actually* relevant sorts every picture into one of four boxes: true positive (TP), "
             "false positive (FP), false negative (FN) or true negative (TN). Every offline metric in this "
             "walkthrough is built from these counts or from the ranks behind them."),
    default_k=2, default_mode="binary",
    preset_label="The sources' example: \"cat in a box\", K = 2",
    rewards="Nothing yet: this chapter sets up the vocabulary. TP and FN depend on which relevant items made "
            "the top K; FP and TN on the non-relevant ones.",
    pros=("**Offline** metrics need only judgments and a ranking, so a system can be measured before anyone "
          "uses it; **online** metrics (clicks, click-through rate, A/B tests) need real users.",
          "Metrics split into **order-unaware** ones (did the relevant items make the top K?) and "
          "**order-aware** ones (how high did they come?)."),
    cons=("Counting TP/FP/FN/TN ignores the order inside the top K: rank 1 and rank K count the same.",),
    view=confusion_view, screen=screen, steps=steps, class_numbers=tuple(CLASS_LABELS), class_number=class_number,
    settings=(RELEVANCE_LEVEL,),
)
