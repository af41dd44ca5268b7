"""Chapter 5, CG, DCG, IDCG and NDCG@K: graded relevance, rank discounts and the ideal ranking."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from irlab.data.rankings import ideal_ranking
from irlab.explain.breakdown import Breakdown
from irlab.metrics.curves import Curve, curve
from irlab.metrics.dcg import explain_cg_at_k, explain_ndcg_at_k
from irlab.scenarios.cats_in_boxes import WHITE_CAT_IN_A_BOX
from irlab.walkthrough import charts
from irlab.walkthrough.chapter import Chapter
from irlab.walkthrough.guide import (
    EXACT,
    Step,
    changes,
    first_where,
    give_top_grade,
    move_to_top,
    top_title,
    with_grade,
)
from irlab.walkthrough.numbers import ChapterNumber, query_words, single_query
from irlab.walkthrough.screens import (
    Block,
    Chart,
    Columns,
    Heading,
    Numbers,
    Pictures,
    Tabs,
    Tiles,
    formulas,
    plain_text,
    rank_table,
)
from irlab.walkthrough.state import MODE_QUERY, SCENARIO, WalkthroughState
from irlab.walkthrough.views import Headline, Quantity, TileRow, main_row, once_per_state, ranking_and_judgments


@dataclass(frozen=True)
class NdcgView:
    k: int
    mode: str
    cg: Breakdown
    ndcg: Breakdown
    curves: Mapping[str, Curve]
    headline: tuple[Headline, ...]
    row: TileRow
    ideal_order: tuple[str, ...]

    @property
    def ideal_badges(self) -> list[str]:
        """A caption per picture of the ideal order: its rank and grade."""
        judgments = self.row.query.judgments
        return [f"{rank} \u00b7 grade {judgments.grade(item)}" for rank, item in enumerate(self.ideal_order, start=1)]


@once_per_state
def _ndcg_curve(state: WalkthroughState, chapter: Chapter) -> Curve:
    """NDCG@k (with its DCG and IDCG) for k = 1..N; the same whatever K (asked for with K unset)."""
    return curve(explain_ndcg_at_k, *ranking_and_judgments(state, chapter))


@once_per_state
def _at_k(state: WalkthroughState, chapter: Chapter) -> tuple[Breakdown, Breakdown, tuple[Headline, ...]]:
    """CG@K and NDCG@K (with its DCG and IDCG) at the state's K, and the headline of the four: what the view shows
    at K and what a "Try this" step counts the change of a move by (without the curves over K it does not need)."""
    k, mode = state.effective_k(chapter), state.effective_mode(chapter)
    ranking, judgments = ranking_and_judgments(state, chapter)
    cg, ndcg = explain_cg_at_k(ranking, judgments, k), explain_ndcg_at_k(ranking, judgments, k)
    parts = {"CG": cg, "DCG": ndcg.parts["DCG"], "IDCG": ndcg.parts["IDCG"], "NDCG": ndcg}
    headline = tuple(Headline(b.measure, b.value, b.symbolic_text,
                              quantity=Quantity(name, MODE_QUERY[mode], mode))  # no relevance level: grades count
                     for name, b in parts.items())
    return cg, ndcg, headline


@once_per_state
def ndcg_view(state: WalkthroughState, chapter: Chapter) -> NdcgView:
    """CG@K, DCG@K, IDCG@K and NDCG@K, the ideal order, and the curves over K."""
    k, mode = state.effective_k(chapter), state.effective_mode(chapter)
    ranking, judgments = ranking_and_judgments(state, chapter)
    ndcg_curve = _ndcg_curve(replace(state, k=None), chapter)
    curves = {"DCG": Curve(ndcg_curve.ks, tuple(b.parts["DCG"] for b in ndcg_curve.breakdowns)),
              "IDCG": Curve(ndcg_curve.ks, tuple(b.parts["IDCG"] for b in ndcg_curve.breakdowns)),
              "NDCG": ndcg_curve}
    cg, ndcg, headline = _at_k(state, chapter)
    ideal = tuple(ideal_ranking(judgments, ranking))
    return NdcgView(k, mode, cg, ndcg, curves, headline, main_row(state, chapter), ideal)


# --- the live region -----------------------------------------------------------------------------------------------

def screen(state: WalkthroughState, chapter: Chapter) -> tuple[Block, ...]:
    view = ndcg_view(state, chapter)
    dcg, idcg = view.ndcg.parts["DCG"], view.ndcg.parts["IDCG"]
    curves = Columns("curves", (
        Chart("dcg-curves", charts.dcg_spec(view.curves, view.k, large=state.present),
              charts.describe_curves({n: view.curves[n] for n in ("DCG", "IDCG")}, view.k)),
        Chart("ndcg-curve", charts.curves_spec({"NDCG": view.curves["NDCG"]}, view.k, title="NDCG@K",
                                               large=state.present),
              charts.describe_curves({"NDCG": view.curves["NDCG"]}, view.k))))
    return (Numbers("numbers", view.headline), Tiles(view.row.key, view.row),
            Heading("ideal-heading", "The ideal order (what IDCG scores)"),
            Pictures("ideal", view.ideal_order, tuple(view.ideal_badges)),
            Columns("formulas", (formulas("cg-ndcg", view.cg, view.ndcg), formulas("dcg-idcg", dcg, idcg))),
            curves,
            Tabs("tables", (f"DCG@{view.k}, rank by rank", "NDCG@k beside the ideal order"),
                 (rank_table("dcg", dcg), rank_table("ndcg", view.ndcg))),
            *plain_text([view.cg, dcg, idcg, view.ndcg], state))


# --- "Try this" ----------------------------------------------------------------------------------------------------

def _ndcg_changes(state: WalkthroughState, after: WalkthroughState, chapter: Chapter,
                  labels: Sequence[int] = (0, 1, 3)) -> str:
    """CG, DCG, IDCG, NDCG (by position in the headline) now and after the move."""
    now, then = _at_k(state, chapter)[2], _at_k(after, chapter)[2]
    return changes(*((now[i].label, now[i].value, then[i].value) for i in labels))


_ORDER = ("order",)
"""The steps about the order are done by reordering: a grade edit that makes the order ideal does not press "Ideal
order" (it is its own step)."""


def steps(state: WalkthroughState, chapter: Chapter) -> list[Step]:
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
                    True, by=_ORDER)
    if highest == 0:  # graded, every grade 0 (binary queries always have relevant pictures)
        top = judgments.max_grade
        move = with_grade(state, state.order[0], top)
        return Step("swap", f"Every grade is 0 now: {give_top_grade(state, top)}: "
                            f"{_ndcg_changes(state, move, chapter)}.", False, move)
    rank, item = first_where(state.order, lambda i: judgments.grade(i) == highest)
    move = replace(state, order=move_to_top(state.order, item))
    what = f"grade-{highest} picture" if graded else "relevant picture"
    where = "Swap the first two tiles" if rank == 2 else f"Drag picture {item} ({what}) from rank {rank} to rank 1"
    why = (f"the {what} at rank {rank} is no longer discounted" if rank <= k else
           f"the {what} enters the top {k} at rank 1, where nothing is discounted")
    return Step("swap", f"{where}: {_ndcg_changes(state, move, chapter)}, because {why}.", False, move, by=_ORDER)


def _ideal(state: WalkthroughState, chapter: Chapter) -> Step:
    view = ndcg_view(state, chapter)
    ndcg, idcg = view.headline[3], view.headline[2]
    if abs(ndcg.value - 1) < EXACT:
        return Step("ideal", f"{ndcg.label} is 1 now: DCG equals IDCG, the DCG of the best order.", True, by=_ORDER)
    if idcg.value == 0:  # every grade 0: no order helps, a grade does
        top = view.row.query.judgments.max_grade
        move = with_grade(state, state.order[0], top)
        return Step("ideal", f"Every grade is 0 now, so {ndcg.label} is 0 in any order: {give_top_grade(state, top)}: "
                             f"{_ndcg_changes(state, move, chapter, (3,))}, because that one picture then is the "
                             "ideal order.", False, move)
    move = replace(state, order=view.ideal_order)
    return Step("ideal", f"Press \u201cIdeal order\u201d: {_ndcg_changes(state, move, chapter, (1, 3))}, because DCG "
                         "then equals IDCG.", False, move, by=_ORDER)


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
    example = f"e.g. give the picture at rank 1 ({top_title(state)}) grade {grade}"
    if not graded:
        move = with_grade(replace(state, mode="graded"), item, grade)
        return Step("edit-grade", f"Switch to graded relevance and edit a grade {how}, {example}: the ideal order, "
                                  f"IDCG and NDCG follow the new grade; {back}", False, move)
    move = with_grade(state, item, grade)
    return Step("edit-grade", f"Edit a grade {how}, {example}: the ideal order, IDCG and NDCG follow the new grade: "
                              f"{_ndcg_changes(state, move, chapter, (2, 3))}; {back}", False, move)


# --- the class's questions -----------------------------------------------------------------------------------------

def class_number(state: WalkthroughState, chapter: Chapter, key: str) -> ChapterNumber:
    view = ndcg_view(state, chapter)
    asked = {"CG@K": view.cg, "DCG@K": view.ndcg.parts["DCG"], "IDCG@K": view.ndcg.parts["IDCG"],
             "nDCG@K": view.ndcg}[key]
    family = key.removesuffix("@K")
    label = asked.measure
    prompt = f"What is {label} of this ranking {query_words(state, chapter)}?"
    bounded = family == "nDCG"
    return ChapterNumber(key, label, prompt, asked, single_query(state, chapter, f"{family}@{view.k}"),
                         high=1.0 if bounded else max(1.0, 2 * float(asked.value)))


CHAPTER = Chapter(
    slug="ndcg", number=5, title="CG, DCG, IDCG and NDCG@K", icon=":material/leaderboard:",
    teaches="Graded relevance: gains, rank discounts and the ideal ranking.",
    summary=("With **graded** relevance each picture gets a grade from 0 (not relevant) to 4 (a white cat in a "
             "box). **CG@K** adds up the grades of the top K; **DCG@K** first divides each grade by a discount "
             "that grows with the rank; **IDCG@K** is the DCG of the best possible order; **NDCG@K** = DCG@K / "
             "IDCG@K, between 0 and 1."),
    default_k=2, default_mode="graded",
    preset_label="The sources' example: \"white cat in a box\", graded 0-4, K = 2",
    rewards="Highly relevant items near the top: a grade-4 item at rank 1 is worth more than the same item at "
            "rank 5, and more than a grade-1 item at rank 1.",
    pros=("Uses graded judgments, so \"more relevant\" counts for more.",
          "Order-aware, and normalised: an ideal top K scores 1, so queries with many or few relevant items "
          "can be averaged fairly."),
    cons=("Needs graded judgments for every item, which are costlier to collect than yes/no.",
          "Tools disagree on the gain, the discount and the ideal ranking, so NDCG numbers from different "
          "tools are not always comparable (see Conventions)."),
    source_notes=("The article states NDCG@8 = 0.41 for this ranking, but prints code with other grades "
                  "(0, 7, 2, 4, 6, 1, 4, 3); for the grades in its text and figures the value is 0.7283, as the "
                  "notebook prints (0.73).",),
    view=ndcg_view, screen=screen, steps=steps, class_number=class_number,
    class_numbers=("CG@K", "DCG@K", "IDCG@K", "nDCG@K"),
)
