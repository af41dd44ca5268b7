"""Chapter 6, conventions: the same ranking scored under every named variant, and which tools use each."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from irlab.data.judgments import Judgments
from irlab.explain.breakdown import Breakdown
from irlab.explain.formula import format_number
from irlab.metrics.conventions import CONVENTIONS, TOPIC_LABELS, Variant
from irlab.metrics.registry import Measure, families_for_people
from irlab.walkthrough import charts
from irlab.walkthrough.chapter import Chapter, Setting
from irlab.walkthrough.guide import N, Step, first_where, give_top_grade, listed, move_to_top, with_grade
from irlab.walkthrough.numbers import ChapterNumber, query_words, single_query
from irlab.walkthrough.screens import (
    Block,
    Chart,
    Columns,
    Heading,
    Paragraph,
    Tabs,
    Tiles,
    formulas,
    plain_text,
    table_block,
)
from irlab.walkthrough.state import SCENARIO, WalkthroughState
from irlab.walkthrough.views import TileRow, main_row, once_per_state


@dataclass(frozen=True)
class ConventionResult:
    """The current ranking scored under one variant of one convention topic."""

    topic: str
    topic_label: str
    variant: Variant
    breakdown: Breakdown

    @property
    def shown_parts(self) -> tuple[Breakdown, ...]:
        """The breakdowns where this variant makes its difference: DCG for gain and discount,
        IDCG for the ideal basis, then the metric itself."""
        part = {"gain": "DCG", "discount": "DCG", "ideal": "IDCG"}.get(self.topic)
        return (self.breakdown.parts[part], self.breakdown) if part else (self.breakdown,)


@dataclass(frozen=True)
class ConventionsView:
    k: int
    mode: str
    returned: int
    results: tuple[ConventionResult, ...]
    row: TileRow

    def topic(self, topic: str) -> tuple[ConventionResult, ...]:
        return tuple(r for r in self.results if r.topic == topic)

    @property
    def differing_topics(self) -> tuple[str, ...]:
        """Topics whose variants give different values for the current ranking."""
        return tuple(t for t in CONVENTIONS
                     if len({round(r.breakdown.value, 12) for r in self.topic(t)}) > 1)

    @property
    def shown_breakdowns(self) -> tuple[Breakdown, ...]:
        """The breakdowns whose formulas the page shows: those of the topics that disagree."""
        return tuple(part for topic in self.differing_topics for r in self.topic(topic) for part in r.shown_parts)

    @property
    def differences_text(self) -> str:
        """In words: which conventions disagree for the current ranking, with their values (each variant by its
        label, as the table names it, not its parameter value)."""
        if not self.differing_topics:
            return ("none: every convention gives the same value here. Try fewer returned items, another K, "
                    "or graded relevance.")
        parts = [f"{self.topic(t)[0].topic_label}: "
                 + " vs ".join(f"{r.variant.label} {r.breakdown.display_value}" for r in self.topic(t))
                 for t in self.differing_topics]
        agree = len(CONVENTIONS) - len(self.differing_topics)
        return "; ".join(parts) + (f". The other {agree} agree." if agree else ".")


def convention_measure(topic: str, name: str, k: int) -> Measure:
    """The measure a convention topic is shown on, at K, with variant ``name``: the first family (teachable ones first)
    with a parameter of that topic, so a convention added with its family's parameter is shown without a word here.

    >>> str(convention_measure("gain", "exponential", 8)), str(convention_measure("ap_denominator", "found", 3))
    ("nDCG(gain='exponential')@8", "AP(denominator='found')@3")
    """
    family, param = next((family, param) for family in families_for_people() for param in family.params
                         if param.topic == topic)
    return Measure(family.name, k if family.cutoff != "none" else None, {param.keyword: name})


def _score(topic: str, name: str, ranking: Sequence[str], judgments: Judgments, k: int) -> Breakdown:
    """The measure a convention topic belongs to, computed with variant ``name``."""
    return convention_measure(topic, name, k).explain(ranking, judgments)


@once_per_state
def conventions_view(state: WalkthroughState, chapter: Chapter) -> ConventionsView:
    """The current ranking (cut to the items returned) under every named variant."""
    k, mode = state.effective_k(chapter), state.effective_mode(chapter)
    returned = state.returned if state.returned is not None else len(state.order)
    ranking, judgments = state.order[:returned], state.judgments(mode)
    results = tuple(ConventionResult(topic, TOPIC_LABELS[topic], variant,
                                     _score(topic, variant.name, ranking, judgments, k))
                    for topic, variants in CONVENTIONS.items() for variant in variants)
    return ConventionsView(k, mode, returned, results, main_row(state, chapter))


def conventions_table(view: ConventionsView) -> tuple[list[str], list[list[str]]]:
    """(headers, cells), one row per variant: topic, variant, metric, value, difference from the default, users."""
    rows = []
    for topic in CONVENTIONS:
        results = view.topic(topic)
        default = next(r for r in results if r.variant.default).breakdown.value
        for r in results:
            difference = r.breakdown.value - default
            rows.append({"convention": r.topic_label, "variant": r.variant.label + (" (default)" if r.variant.default
                                                                                     else ""),
                         "metric": r.breakdown.measure, "value": r.breakdown.display_value,
                         "vs default": "" if r.variant.default else ("same" if abs(difference) < 1e-12 else
                                                                     ("+" if difference > 0 else "\u2212")
                                                                     + format_number(abs(difference))),
                         "used by": r.variant.used_by})
    return list(rows[0]), [list(row.values()) for row in rows]


def conventions_chart_rows(view: ConventionsView) -> list[tuple[str, str, float, bool]]:
    """(topic, variant, value, is default) for the conventions bar chart."""
    return [(r.topic_label, r.variant.name, r.breakdown.value, r.variant.default) for r in view.results]


# --- the live region -----------------------------------------------------------------------------------------------

def screen(state: WalkthroughState, chapter: Chapter) -> tuple[Block, ...]:
    view = conventions_view(state, chapter)
    rows = conventions_chart_rows(view)
    topics = view.differing_topics
    formula_tabs = Tabs("topics", tuple(view.topic(t)[0].topic_label for t in topics), tuple(
        Columns(f"topic-{t}", tuple(
            formulas(f"topic-{t}-{r.variant.name}", *r.shown_parts, heading=f"{r.variant.label}: "
                     f"{r.variant.description}") for r in view.topic(t))) for t in topics))
    return (Tiles(view.row.key, view.row),
            Paragraph("differences", view.differences_text, lead="Where the conventions disagree for this ranking:"),
            Tabs("views", ("Table", "Chart"), (
                table_block("table", *conventions_table(view)),
                Chart("conventions-chart", charts.conventions_spec(rows, large=state.present),
                      charts.describe_conventions(rows)))),
            *((Heading("formulas-heading", "The formulas where they disagree"), formula_tabs) if topics else ()),
            *plain_text(view.shown_breakdowns, state))


# --- "Try this" ----------------------------------------------------------------------------------------------------

def steps(state: WalkthroughState, chapter: Chapter) -> list[Step]:
    view = conventions_view(state, chapter)
    found = []
    if view.returned < view.k:
        found.append(Step("returned", f"{view.returned} returned, below K = {view.k}: the conventions that divide "
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
        result = (f"here the {listed(new)} {'starts' if len(new) == 1 else 'start'} to disagree" if new else
                  "here no other convention starts to disagree")
        found.append(Step("returned", f"{how}: the conventions that divide by the items returned, or build the "
                                      f"ideal ranking from them only, can then disagree with trec_eval's; {result}.",
                          False, move))
    found.append(_grade_four_first(state, chapter))
    return found


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
    first = first_where(state.order, lambda item: judgments.grade(item) == top)
    if first is None:
        move = with_grade(move, state.order[0], top)
        how = give_top_grade(state, top)
        how = how[0].upper() + how[1:] if not switch else how
    elif first[0] == 1:  # binary mode, a grade-4 picture already first: switching is the whole move
        return Step("grade-four-first", f"Switch to graded relevance: a grade-{top} picture is at rank 1, and "
                                        f"{weights}; the DCG gain rows of the table show what that does to NDCG.",
                    False, move)
    else:
        rank, item = first
        move = replace(move, order=move_to_top(state.order, item))
        how = f"{'d' if switch else 'D'}rag picture {item} (grade {top}) from rank {rank} to rank 1"
    return Step("grade-four-first", f"{switch}{how}: {weights}; the DCG gain rows of the table show what that does "
                                    "to NDCG.", False, move)


# --- the class's questions -----------------------------------------------------------------------------------------

def class_number(state: WalkthroughState, chapter: Chapter, key: str) -> ChapterNumber:
    view = conventions_view(state, chapter)
    topic, _, name = key.partition(":")
    result = next(r for r in view.topic(topic) if r.variant.name == name)
    measure = str(convention_measure(topic, name, view.k))
    family = measure.partition("(")[0]
    label = f"{family}@{view.k} ({result.variant.label})"
    returned = f", the system returning {view.returned} of the eight" if view.returned < len(SCENARIO.items) else ""
    prompt = (f"What is {family}@{view.k} with {TOPIC_LABELS[topic]}: {result.variant.label}, "
              f"{query_words(state, chapter)}{returned}?")
    return ChapterNumber(key, label, prompt, result.breakdown,
                         single_query(state, chapter, measure, ranking=state.order[:view.returned]))


RETURNED = Setting(
    "returned", "Items the system returned",
    "A run can return fewer items than K; several conventions differ exactly then.",
    tuple(range(1, N + 1)), N, "the number of returned items")
"""How many of the ranked pictures the system returned (trec_eval scores what a run returns)."""


CHAPTER = Chapter(
    slug="conventions", number=6, title="Conventions", icon=":material/rule:",
    teaches="Why trec_eval, scikit-learn and others print different numbers for the same ranking.",
    summary=("The same ranking can get different scores from different tools, because each metric has "
             "choices: which gain, which discount, which items the ideal ranking sorts, what AP and precision "
             "divide by. Here the current ranking is scored under every named convention, with the formula "
             "and the tools that use it."),
    default_k=8, default_mode="graded",
    preset_label="The sources' example: \"white cat in a box\", K = 8, all eight returned",
    rewards="Knowing which convention a number was computed with before comparing it with another.",
    pros=("IR Lab follows trec_eval, the field's reference implementation, unless you choose otherwise.",),
    cons=("A paper that reports \"NDCG@10\" without saying which gain, discount and ideal ranking it used "
          "cannot be compared digit for digit with another.",),
    source_notes=("The NDCG exercise of the sources uses the original Järvelin–Kekäläinen discount (rank 1 not "
                  "discounted, rank k >= 2 divided by log2 k); the article and notebook use log2(k + 1). Both are "
                  "legitimate; their numbers differ.",),
    view=conventions_view, screen=screen, steps=steps, class_number=class_number,
    class_numbers=tuple(f"{topic}:{v.name}" for topic, variants in CONVENTIONS.items() for v in variants),
    settings=(RETURNED,),
)
