"""Chapter 7, the user behind the metric: rank-biased precision's patient reader and ERR's cascade, beside DCG's
discount.

Each metric assumes a user. RBP's reads on from each picture with probability p (their patience), so rank r is read
with probability p^(r-1); ERR's stops at a picture of grade g with probability R(g) = (2^g - 1) / 2^g_max, so rank r is
reached only if nothing above satisfied them; DCG divides rank r's gain by log2(r + 1), whoever reads. The chapter
draws the three weights per rank side by side, ERR@K over K beside NDCG@K, and both formulas with the numbers
plugged in.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from irlab.explain.breakdown import Breakdown
from irlab.explain.formula import format_number
from irlab.metrics.curves import Curve, curve
from irlab.metrics.dcg import explain_ndcg_at_k
from irlab.metrics.err import explain_err_at_k, satisfaction, top_grade
from irlab.metrics.rbp import PERSISTENCE, explain_rbp
from irlab.scenarios.cats_in_boxes import WHITE_CAT_IN_A_BOX
from irlab.walkthrough import charts
from irlab.walkthrough.chapter import Chapter, Setting
from irlab.walkthrough.guide import Step, changes, first_where, give_top_grade, move_to_top, with_grade
from irlab.walkthrough.numbers import ChapterNumber, query_words, single_query
from irlab.walkthrough.screens import (
    Block,
    Chart,
    Columns,
    Numbers,
    Paragraph,
    Tabs,
    Tiles,
    formulas,
    plain_text,
    table_block,
)
from irlab.walkthrough.state import MODE_QUERY, SCENARIO, WalkthroughState
from irlab.walkthrough.views import Headline, Quantity, TileRow, main_row, once_per_state, ranking_and_judgments


def persistence(state: WalkthroughState) -> float:
    """The learner's p, else trec_eval's 0.9."""
    return PERSISTENCE if state.persistence is None else state.persistence


def _patience_note(state: WalkthroughState, chapter: Chapter) -> str:
    p = persistence(state)
    return f"{format_number(1 / (1 - p), 2)} pictures read on average"


PATIENCE = Setting(
    "persistence", "p: how patient is your user?",
    "RBP's persistence: the chance that the user reads on from one picture to the next. 0.5 gives up quickly, "
    "0.95 reads far down the ranking.",
    tuple(round(0.05 * step, 2) for step in range(1, 20)), PERSISTENCE, "the persistence p",
    format=lambda p: f"{p:g}", note=_patience_note)
"""RBP's p, a slider from 0.05 to 0.95 (trec_eval's 0.9 until the learner moves it)."""


@dataclass(frozen=True)
class UserModelView:
    k: int
    mode: str
    p: float
    rbp: Breakdown
    err: Breakdown
    err_query_max: Breakdown
    ndcg: Breakdown
    weights: Mapping[str, tuple[float, ...]]
    curves: Mapping[str, Curve]
    headline: tuple[Headline, ...]
    row: TileRow


@once_per_state
def _curves(state: WalkthroughState, chapter: Chapter) -> Mapping[str, Curve]:
    """ERR@k and NDCG@k for k = 1..N; the same whatever K (asked for with K unset)."""
    ranking, judgments = ranking_and_judgments(state, chapter)
    return {"ERR": curve(explain_err_at_k, ranking, judgments), "NDCG": curve(explain_ndcg_at_k, ranking, judgments)}


@once_per_state
def _rbp_and_err(state: WalkthroughState, chapter: Chapter) -> tuple[Breakdown, Breakdown]:
    """RBP at the learner's p and ERR@K at the state's K: what the view shows, and what a "Try this" step counts a
    move's change by (without the curves, the weights and the tiles it does not need)."""
    ranking, judgments = ranking_and_judgments(state, chapter)
    return (explain_rbp(ranking, judgments, p=persistence(state)),
            explain_err_at_k(ranking, judgments, state.effective_k(chapter)))


@once_per_state
def user_model_view(state: WalkthroughState, chapter: Chapter) -> UserModelView:
    """RBP at the learner's p, ERR@K (gdeval's grade mapping, and the query's top grade's), NDCG@K, and the weight
    each model gives each rank."""
    k, mode, p = state.effective_k(chapter), state.effective_mode(chapter), persistence(state)
    ranking, judgments = ranking_and_judgments(state, chapter)
    curves = _curves(replace(state, k=None, persistence=None), chapter)
    rbp, err = _rbp_and_err(state, chapter)
    ndcg = curves["NDCG"].at(k)
    whole = curves["ERR"].breakdowns[-1]  # the cascade over every rank: the chance to reach each
    weights = {f"RBP, p = {format_number(p)}: p^(r-1)": tuple(row["weight"] for row in rbp.rows),
               "ERR: the chance to reach rank r": tuple(row["reach"] for row in whole.rows),
               "DCG: 1 / log2(r + 1)": tuple(1 / row["discount"] for row in curves["NDCG"].breakdowns[-1].parts["DCG"]
                                            .rows)}
    quantity = {name: Quantity(name, MODE_QUERY[mode], mode) for name in ("RBP", "ERR", "NDCG")}
    headline = (Headline("RBP", rbp.value, f"RBP with p = {format_number(p)}: {rbp.symbolic_text}",
                         quantity=quantity["RBP"]),
                Headline(err.measure, err.value, err.symbolic_text, quantity=quantity["ERR"]),
                Headline(ndcg.measure, ndcg.value, ndcg.symbolic_text, quantity=quantity["NDCG"]))
    return UserModelView(k, mode, p, rbp, err, explain_err_at_k(ranking, judgments, k, grades="query-max"), ndcg,
                         weights, curves, headline, main_row(state, chapter))


# --- the live region -----------------------------------------------------------------------------------------------

def _mapping_words(view: UserModelView, judgments: Mapping[str, int]) -> str:
    top = top_grade(judgments, "query-max")
    if top == 4:
        return (f"gdeval's mapping (ir_measures) divides by 2^4 = 16, and so does the query's top grade here (4): "
                f"{view.err.measure} is {view.err.display_value} both ways. With binary judgments they part.")
    return (f"gdeval's mapping (ir_measures) divides by 2^4 = 16, so a grade-{top} picture satisfies only "
            f"{format_number(satisfaction(top, 4))} of users; with the query's top grade ({top}) as g_max it would "
            f"satisfy {format_number(satisfaction(top, top))} and ERR would give "
            f"{view.err_query_max.display_value} ({view.err.measure} with grades='query-max').")


def screen(state: WalkthroughState, chapter: Chapter) -> tuple[Block, ...]:
    view = user_model_view(state, chapter)
    _, judgments = ranking_and_judgments(state, chapter)
    labels = SCENARIO.labels()
    weights = Chart("weights", charts.attention_spec(view.weights, view.k, large=state.present),
                    charts.describe_attention(view.weights))
    over_k = Chart("err-over-k", charts.curves_spec(view.curves, view.k, title="ERR@K beside NDCG@K",
                                                   large=state.present),
                   charts.describe_curves(view.curves, view.k))
    return (Numbers("numbers", view.headline), Tiles(view.row.key, view.row),
            Columns("formulas", (formulas("rbp", view.rbp, heading=f"RBP, p = {format_number(view.p)}"),
                                 formulas("err", view.err, heading=f"{view.err.measure}: who stops where"))),
            Columns("charts", (weights, over_k)),
            Paragraph("mapping", _mapping_words(view, judgments), lead="ERR's grade mapping:"),
            Tabs("tables", ("ERR, rank by rank", "RBP, rank by rank"), (
                table_block("err-table", *view.err.table(labels)),
                table_block("rbp-table", *view.rbp.table(labels)))),
            *plain_text([view.rbp, view.err, view.ndcg], state))


# --- "Try this" ----------------------------------------------------------------------------------------------------

IMPATIENT = 0.5


def _impatient(state: WalkthroughState, chapter: Chapter) -> Step:
    view = user_model_view(state, chapter)
    p = view.p
    if p <= IMPATIENT:
        return Step("impatient", f"p = {format_number(p)}: an impatient user reads rank 2 with chance "
                                 f"{format_number(p)} and rank 5 with chance {format_number(p ** 4)}; RBP is "
                                 f"{view.rbp.display_value} now, almost all from the first few ranks.", True,
                    by=("persistence",))
    move = replace(state, persistence=IMPATIENT)
    then, _ = _rbp_and_err(move, chapter)
    return Step("impatient", f"Make your user impatient: set p from {format_number(p)} to {format_number(IMPATIENT)}: "
                             f"{changes(('RBP', view.rbp.value, then.value))}; rank 5 then weighs "
                             f"{format_number(IMPATIENT ** 4)} instead of {format_number(p ** 4)}.", False, move,
                by=("persistence",))


def _satisfied_first(state: WalkthroughState, chapter: Chapter) -> Step:
    """The best picture at rank 1: ERR's user is then most likely satisfied at once."""
    view = user_model_view(state, chapter)
    judgments = state.judgments(view.mode)
    top = max(judgments.grade(item) for item in state.order)
    err = view.err
    if top > 0 and judgments.grade(state.order[0]) == top:
        stop = satisfaction(top, 4)
        return Step("satisfied-first", f"A grade-{top} picture is at rank 1: it satisfies {format_number(stop)} of "
                                       f"users at once, so {err.measure} is {err.display_value} now and the ranks "
                                       "below hardly count.", True, by=("order",))
    if top == 0:  # graded, every grade 0: only a grade makes a picture satisfy anyone
        grade = SCENARIO.query(WHITE_CAT_IN_A_BOX).judgments.max_grade
        move = with_grade(state, state.order[0], grade)
        _, then = _rbp_and_err(move, chapter)
        return Step("satisfied-first", f"No picture satisfies anyone now: {give_top_grade(state, grade)}: "
                                       f"{changes((err.measure, err.value, then.value))}.", False, move)
    rank, item = first_where(state.order, lambda i: judgments.grade(i) == top)
    move = replace(state, order=move_to_top(state.order, item))
    _, then = _rbp_and_err(move, chapter)
    return Step("satisfied-first", f"Drag picture {item} (grade {top}) from rank {rank} to rank 1: "
                                   f"{changes((err.measure, err.value, then.value))}, because it satisfies "
                                   f"{format_number(satisfaction(top, 4))} of users at once, and few read on.",
                False, move, by=("order",))


def _binary_mapping(state: WalkthroughState, chapter: Chapter) -> Step:
    view = user_model_view(state, chapter)
    if view.mode == "binary":
        return Step("grade-mapping", f"Binary relevance: under gdeval's mapping a relevant picture satisfies only "
                                     f"1/16 of users, so {view.err.measure} is {view.err.display_value} now; with the "
                                     "query's top grade (1) as g_max it satisfies half of them, and ERR would give "
                                     f"{view.err_query_max.display_value}.", True, by=("mode",))
    move = replace(state, mode="binary")
    _, then = _rbp_and_err(move, chapter)
    moved = changes((view.err.measure, view.err.value, then.value))
    return Step("grade-mapping", f"Switch to binary relevance: {moved}, because under gdeval's mapping a relevant "
                                 "picture (grade 1) satisfies only 1/16 of users; with the query's top grade (1) as "
                                 "g_max it would satisfy half of them.", False, move, by=("mode",))


def steps(state: WalkthroughState, chapter: Chapter) -> list[Step]:
    return [_impatient(state, chapter), _satisfied_first(state, chapter), _binary_mapping(state, chapter)]


# --- the class's questions -----------------------------------------------------------------------------------------

def class_number(state: WalkthroughState, chapter: Chapter, key: str) -> ChapterNumber:
    """RBP at the learner's p, or ERR@K (gdeval's grade mapping), asked about the chapter's query."""
    view = user_model_view(state, chapter)
    if key == "RBP":
        prompt = (f"What is RBP with p = {format_number(view.p)} (the user reads on with that chance) of this "
                  f"ranking {query_words(state, chapter)}?")
        return ChapterNumber(key, f"RBP (p = {format_number(view.p)})", prompt, view.rbp,
                             single_query(state, chapter, f"RBP(p={view.p!r})"))
    prompt = (f"What is {view.err.measure} of this ranking {query_words(state, chapter)}, a grade g satisfying the "
              "user with chance (2^g - 1) / 16?")
    return ChapterNumber(key, view.err.measure, prompt, view.err, single_query(state, chapter, f"ERR@{view.k}"))


CHAPTER = Chapter(
    slug="user-model", number=7, title="The user behind the metric", icon=":material/person_search:",
    teaches="RBP's patient reader and ERR's cascade: what each metric assumes about the user.",
    summary=("Every metric imagines a user. **Rank-biased precision** (RBP) imagines one who reads on from each "
             "picture with probability p, their patience, so rank r is read with probability p^(r - 1). "
             "**Expected reciprocal rank** (ERR) imagines a cascade: each picture satisfies the user, and ends the "
             "search, with a probability that grows with its grade, so a rank counts only if nothing above it "
             "satisfied them. **DCG** just divides each rank's gain by log2(r + 1). Move p, drag the pictures, and "
             "watch how much each rank counts for each user."),
    default_k=8, default_mode="graded",
    preset_label="The example: \"white cat in a box\", graded 0-4, K = 8, p = 0.9",
    rewards="RBP rewards relevant pictures early in proportion to how impatient the user is; ERR rewards putting a "
            "highly relevant picture first, after which little else matters, because the user has probably stopped.",
    pros=("The parameter means something: p is how patient the user is (1 / (1 - p) pictures read on average), and "
          "ERR's R(g) is the chance a picture of grade g ends the search.",
          "ERR models what DCG ignores: a great result early makes the results below it matter less."),
    cons=("RBP needs a p, and numbers with different p cannot be compared; it is not normalised, so a query with few "
          "relevant pictures scores low whatever the order.",
          "ERR depends on the grade mapping: gdeval (and ir_measures) fix the top grade at 4, so binary judgments "
          "give every relevant picture only a 1/16 chance to satisfy; others use the scale's top grade."),
    source_notes=("Beyond the sources' article and notebook: RBP as trec_eval 10 computes it (gains scaled by the "
                  "query's top grade), ERR as ir_measures computes it (gdeval.pl, the TREC Web track's script).",),
    view=user_model_view, screen=screen, steps=steps, class_number=class_number, class_numbers=("RBP", "ERR@K"),
    settings=(PATIENCE,),
)
