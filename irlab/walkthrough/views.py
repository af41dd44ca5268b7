"""What each walkthrough chapter shows, computed from the learner's state (no Streamlit).

A page asks for its chapter's view (``recall_precision_view(state, chapter)``) and renders it:
the headline values, the breakdowns, the curves and the tile rows all come from irlab's metrics
here, so pages hold no arithmetic and every number on screen has one computation behind it.
The state itself (:class:`~irlab.walkthrough.state.WalkthroughState`) lives in
:mod:`irlab.walkthrough.state`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from irlab.data.judgments import Judgments
from irlab.data.rankings import ideal_ranking
from irlab.data.scenario import Query
from irlab.explain.breakdown import Breakdown
from irlab.explain.formula import format_number
from irlab.metrics.average_precision import explain_average_precision, explain_mean_average_precision
from irlab.metrics.confusion import CLASS_LABELS, explain_confusion_at_k
from irlab.metrics.conventions import CONVENTIONS, TOPIC_LABELS, Variant
from irlab.metrics.curves import Curve, curve
from irlab.metrics.dcg import explain_cg_at_k, explain_ndcg_at_k
from irlab.metrics.precision_recall import explain_precision_at_k, explain_recall_at_k
from irlab.metrics.reciprocal_rank import explain_mean_reciprocal_rank
from irlab.scenarios.cats_in_boxes import BINARY_QUERIES, CAT_IN_A_BOX
from irlab.walkthrough.chapters import Chapter
from irlab.walkthrough.state import MAIN_TARGET, MODE_QUERY, SCENARIO, WalkthroughState


@dataclass(frozen=True)
class Headline:
    """A headline value: its label names the measure and K (``Recall@2``), as screen readers read it."""

    label: str
    value: float
    help: str = ""
    change: float | None = None  # the change from the previous state the learner saw; None: nothing to compare

    @property
    def display(self) -> str:
        return format_number(self.value)

    @property
    def change_display(self) -> str | None:
        """The change as signed text (``+0.25``, ``-1``, ``no change``), or None before the first move."""
        if self.change is None:
            return None
        if self.change == 0:
            return "no change"
        return ("+" if self.change > 0 else "-") + format_number(abs(self.change))


def with_changes(items: Sequence[Headline], previous: Sequence[float] | None) -> tuple[Headline, ...]:
    """The headline with each value's change from ``previous`` (the values shown before, position by position).

    A K change renames ``Recall@2`` to ``Recall@3``, so values are matched by position, not label.

    >>> now = with_changes([Headline("Recall@3", 0.5), Headline("Precision@3", 1 / 3)], [0.25, 0.5])
    >>> [(h.label, h.change_display) for h in now]
    [('Recall@3', '+0.25'), ('Precision@3', '-0.1667')]
    >>> with_changes([Headline("MRR", 0.5)], None)[0].change is None
    True
    """
    if previous is None or len(previous) != len(items):
        return tuple(items)
    return tuple(replace(item, change=item.value - before) for item, before in zip(items, previous))


@dataclass(frozen=True)
class TileRow:
    """One row of picture tiles: everything the tile component needs, in rank order."""

    key: str
    label: str
    query: Query
    tiles: tuple[Mapping[str, object], ...]
    k: int | None
    mode: str
    editable_grades: bool
    default_order: tuple[str, ...]
    ideal_order: tuple[str, ...]
    show_classes: bool


def _relevance_label(grade: int, mode: str, max_grade: int) -> str:
    if mode == "binary":
        return "relevant" if grade >= 1 else "not relevant"
    return f"grade {grade} of {max_grade}"


def tile_row(key: str, query: Query, ranking: Sequence[str], judgments: Judgments, mode: str, k: int | None, *,
             show_classes: bool = False, editable_grades: bool = False, relevance_level: int = 1) -> TileRow:
    """The tiles of ``ranking`` with their grades and, at cutoff ``k``, their TP/FP/FN/TN class."""
    classes = {}
    if k is not None and show_classes:
        confusion = explain_confusion_at_k(ranking, judgments, k, relevance_level=relevance_level)
        classes = {row["item"]: row["class"] for row in confusion.rows}
    tiles = []
    for item_id in ranking:
        item = SCENARIO.item(item_id)
        grade = judgments.grade(item_id)
        cls = classes.get(item_id)
        tiles.append({"id": item_id, "title": item.title, "alt": item.alt, "picture": item.picture or "",
                      "relevance": grade, "relevance_label": _relevance_label(grade, mode, judgments.max_grade),
                      "class": cls, "class_label": CLASS_LABELS.get(cls, "") if cls else "",
                      "rubric": query.judgments.grade(item_id) if editable_grades else None})
    return TileRow(key=key, label=f"Ranking for \u201c{query.text}\u201d", query=query, tiles=tuple(tiles), k=k,
                   mode=mode, editable_grades=editable_grades, default_order=query.default_ranking,
                   ideal_order=tuple(ideal_ranking(judgments, ranking)), show_classes=show_classes)


def main_row(state: WalkthroughState, chapter: Chapter, *, show_classes: bool = False,
             k: int | None = None) -> TileRow:
    """The shared ranking's tiles as ``chapter`` shows them (grades editable in graded mode)."""
    mode = state.effective_mode(chapter)
    return tile_row("tiles-main", SCENARIO.query(MODE_QUERY[mode]), state.order, state.judgments(mode), mode,
                    k if k is not None else state.effective_k(chapter), show_classes=show_classes,
                    editable_grades=mode == "graded", relevance_level=state.effective_level(chapter))


def ranking_and_judgments(state: WalkthroughState, chapter: Chapter) -> tuple[tuple[str, ...], Judgments]:
    """The shared ranking and the judgments of the chapter's mode."""
    return state.order, state.judgments(state.effective_mode(chapter))


def relevance_rule(state: WalkthroughState, chapter: Chapter) -> str:
    """What counts as relevant for the binary measures of ``chapter``, in words, with the pictures it makes relevant.

    >>> from irlab.walkthrough.chapters import chapter
    >>> from irlab.walkthrough.state import DEFAULT_STATE
    >>> relevance_rule(DEFAULT_STATE, chapter("actual-vs-predicted"))
    'Relevant: judged relevant (binary judgments, 1 or 0): pictures 2, 4, 5 and 7.'
    >>> relevance_rule(replace(DEFAULT_STATE, mode="graded", level=4), chapter("actual-vs-predicted"))
    "Relevant: grade ≥ 4 (trec_eval's -l 4): pictures 2 and 5."
    """
    items = state.relevant_items(chapter)
    shown = ("pictures " + ", ".join(items[:-1]) + " and " + items[-1]) if len(items) > 1 else \
        (f"picture {items[0]}" if items else "no picture")
    if state.effective_mode(chapter) != "graded":
        return f"Relevant: judged relevant (binary judgments, 1 or 0): {shown}."
    level = state.effective_level(chapter)
    return f"Relevant: grade \u2265 {level} (trec_eval's -l {level}): {shown}."


# --- chapter 1 -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class ConfusionView:
    k: int
    mode: str
    confusion: Breakdown
    headline: tuple[Headline, ...]
    row: TileRow


def confusion_view(state: WalkthroughState, chapter: Chapter) -> ConfusionView:
    """Chapter 1: TP/FP/FN/TN at K and each tile's class."""
    k, mode = state.effective_k(chapter), state.effective_mode(chapter)
    confusion = explain_confusion_at_k(*ranking_and_judgments(state, chapter), k,
                                       relevance_level=state.effective_level(chapter))
    headline = tuple(Headline(name, count, f"{CLASS_LABELS[name]}s: {confusion.parts[name].symbolic_text}")
                     for name, count in confusion.value._asdict().items())
    return ConfusionView(k, mode, confusion, headline, main_row(state, chapter, show_classes=True))


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


# --- chapter 2 -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class RecallPrecisionView:
    k: int
    mode: str
    recall: Breakdown
    precision: Breakdown
    curves: Mapping[str, Curve]
    headline: tuple[Headline, ...]
    row: TileRow


def recall_precision_view(state: WalkthroughState, chapter: Chapter) -> RecallPrecisionView:
    """Chapter 2: Recall@K and Precision@K, with both curves over K = 1..N."""
    k, mode = state.effective_k(chapter), state.effective_mode(chapter)
    ranking, judgments = ranking_and_judgments(state, chapter)
    level = state.effective_level(chapter)
    curves = {"Recall": curve(explain_recall_at_k, ranking, judgments, relevance_level=level),
              "Precision": curve(explain_precision_at_k, ranking, judgments, relevance_level=level)}
    recall, precision = curves["Recall"].at(k), curves["Precision"].at(k)
    headline = (Headline(recall.measure, recall.value, recall.symbolic_text),
                Headline(precision.measure, precision.value, precision.symbolic_text))
    return RecallPrecisionView(k, mode, recall, precision, curves, headline, main_row(state, chapter))


# --- chapters 3 and 4 ----------------------------------------------------------------------------

def binary_rows(state: WalkthroughState, k: int | None) -> tuple[TileRow, ...]:
    """One tile row per binary query, each with its own ranking."""
    rows = []
    for query_id in BINARY_QUERIES:
        query = SCENARIO.query(query_id)
        rows.append(tile_row(f"tiles-{query_id}", query, state.query_order(query_id), query.judgments, "binary", k))
    return tuple(rows)


def binary_row_targets() -> dict[str, str]:
    """Tile row key -> what its moves reorder, for the three-query chapters."""
    return {f"tiles-{q}": (MAIN_TARGET if q == CAT_IN_A_BOX else q) for q in BINARY_QUERIES}


def _queries(state: WalkthroughState) -> dict[str, tuple[tuple[str, ...], Judgments]]:
    return {SCENARIO.query(q).text: (state.query_order(q), SCENARIO.query(q).judgments) for q in BINARY_QUERIES}


@dataclass(frozen=True)
class MeanView:
    k: int
    mean: Breakdown
    mean_at_k: Breakdown | None
    per_query: Mapping[str, Breakdown]
    headline: tuple[Headline, ...]
    rows: tuple[TileRow, ...]


def mrr_view(state: WalkthroughState, chapter: Chapter) -> MeanView:
    """Chapter 3: each query's reciprocal rank and their mean; MRR@K as MS MARCO cuts it."""
    k = state.effective_k(chapter)
    mean = explain_mean_reciprocal_rank(_queries(state))
    mean_at_k = explain_mean_reciprocal_rank(_queries(state), k)
    headline = (Headline("MRR", mean.value, mean.symbolic_text),
                *(Headline(f"RR · {name}", part.value, part.symbolic_text) for name, part in mean.parts.items()))
    return MeanView(k, mean, mean_at_k, mean.parts, headline, binary_rows(state, None))


def map_view(state: WalkthroughState, chapter: Chapter) -> MeanView:
    """Chapter 4: each query's AP@K (the P@k x rel_k table) and MAP@K."""
    k = state.effective_k(chapter)
    mean = explain_mean_average_precision(_queries(state), k)
    headline = (Headline(mean.measure, mean.value, mean.symbolic_text),
                *(Headline(f"{part.measure} · {name}", part.value, part.symbolic_text)
                  for name, part in mean.parts.items()))
    return MeanView(k, mean, None, mean.parts, headline, binary_rows(state, k))


# --- chapter 5 -----------------------------------------------------------------------------------

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


def ndcg_view(state: WalkthroughState, chapter: Chapter) -> NdcgView:
    """Chapter 5: CG@K, DCG@K, IDCG@K and NDCG@K, the ideal order, and the curves over K."""
    k, mode = state.effective_k(chapter), state.effective_mode(chapter)
    ranking, judgments = ranking_and_judgments(state, chapter)
    ndcg_curve = curve(explain_ndcg_at_k, ranking, judgments)
    curves = {"DCG": Curve(ndcg_curve.ks, tuple(b.parts["DCG"] for b in ndcg_curve.breakdowns)),
              "IDCG": Curve(ndcg_curve.ks, tuple(b.parts["IDCG"] for b in ndcg_curve.breakdowns)),
              "NDCG": ndcg_curve}
    ndcg = ndcg_curve.at(k)
    cg = explain_cg_at_k(ranking, judgments, k)
    headline = tuple(Headline(b.measure, b.value, b.symbolic_text)
                     for b in (cg, ndcg.parts["DCG"], ndcg.parts["IDCG"], ndcg))
    ideal = tuple(ideal_ranking(judgments, ranking))
    return NdcgView(k, mode, cg, ndcg, curves, headline, main_row(state, chapter), ideal)


# --- chapter 6 -----------------------------------------------------------------------------------

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
        """In words: which conventions disagree for the current ranking, with their values."""
        if not self.differing_topics:
            return ("none: every convention gives the same value here. Try fewer returned items, another K, "
                    "or graded relevance.")
        parts = [f"{self.topic(t)[0].topic_label} ("
                 + " vs ".join(f"{r.variant.name} {r.breakdown.display_value}" for r in self.topic(t)) + ")"
                 for t in self.differing_topics]
        agree = len(CONVENTIONS) - len(self.differing_topics)
        return "; ".join(parts) + (f". The other {agree} agree." if agree else ".")


def _score(topic: str, name: str, ranking: Sequence[str], judgments: Judgments, k: int) -> Breakdown:
    """The metric a convention topic belongs to, computed with variant ``name``."""
    if topic in ("gain", "discount", "ideal"):
        return explain_ndcg_at_k(ranking, judgments, k, **{topic: name})
    if topic == "ap_denominator":
        return explain_average_precision(ranking, judgments, k, denominator=name)
    if topic == "precision_denominator":
        return explain_precision_at_k(ranking, judgments, k, denominator=name)
    return explain_recall_at_k(ranking, judgments, k, denominator=name)


def conventions_view(state: WalkthroughState, chapter: Chapter) -> ConventionsView:
    """Chapter 6: the current ranking (cut to the items returned) under every named variant."""
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
