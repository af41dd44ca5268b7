"""What each walkthrough chapter shows, computed from the learner's state (no Streamlit).

A page asks for its chapter's view (``recall_precision_view(state, chapter)``) and renders it:
the headline values, the breakdowns, the curves and the tile rows all come from irlab's metrics
here, so pages hold no arithmetic and every number on screen has one computation behind it.
The state itself (:class:`~irlab.walkthrough.state.WalkthroughState`) lives in
:mod:`irlab.walkthrough.state`.

Each view is computed once per state: a run draws the chapter's screen and words its "Try this"
(:mod:`irlab.walkthrough.guide`) from the same view, and the guide's predictions ask for the views of
the states after each move; a small cache keyed on the state's values (:func:`state_key`) serves the
repeats. Views are shared between callers, so treat them as read-only.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache, wraps
from typing import TypeVar

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
class Quantity:
    """What a headline number measures, apart from K: the measure, the query, the relevance mode and level.

    Two headline numbers are the same quantity when all four agree; a change of K keeps the quantity
    (watching Recall@2 become Recall@3 is the lesson), a change of mode, query or level does not.
    ``query`` is "" for a mean over queries; ``level`` is None where no relevance level applies (NDCG).
    """

    measure: str
    query: str
    mode: str
    level: int | None = None


@dataclass(frozen=True)
class Headline:
    """A headline value: its label names the measure and K (``Recall@2``), as screen readers read it.

    ``quantity`` says what the number measures apart from K, so a change is only shown between two
    numbers of the same quantity (:func:`with_changes`).
    """

    label: str
    value: float
    help: str = ""
    change: float | None = None  # the change from the previous state the learner saw; None: nothing to compare
    quantity: Quantity | None = None

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


def with_changes(items: Sequence[Headline], previous: Sequence[Headline] | Sequence[float] | None
                 ) -> tuple[Headline, ...]:
    """The headline with each value's change since ``previous``, the headline shown before the learner's move.

    A value gets a change only when ``previous`` holds a number of the same :class:`Quantity`: a K change
    renames ``Recall@2`` to ``Recall@3`` and keeps the quantity, so the change is shown; a switch of mode,
    query or level makes another quantity, and comparing the two would compare different things, so
    that value has no change (None). ``previous`` as plain values (the older form) is matched by
    position, without that check.

    >>> before = (Headline("Recall@2", 0.25, quantity=Quantity("Recall", "cat-in-a-box", "binary", 1)),)
    >>> now = (Headline("Recall@3", 0.5, quantity=Quantity("Recall", "cat-in-a-box", "binary", 1)),)
    >>> [(h.label, h.change_display) for h in with_changes(now, before)]
    [('Recall@3', '+0.25')]
    >>> graded = (Headline("Recall@3", 0.1429, quantity=Quantity("Recall", "white-cat-in-a-box", "graded", 1)),)
    >>> with_changes(graded, before)[0].change is None
    True
    >>> with_changes([Headline("MRR", 0.5)], None)[0].change is None
    True
    """
    if not previous:
        return tuple(items)
    if all(isinstance(before, Headline) for before in previous):
        values = {before.quantity: before.value for before in previous if before.quantity is not None}
        return tuple(replace(item, change=item.value - values[item.quantity])
                     if item.quantity is not None and item.quantity in values else item for item in items)
    if len(previous) != len(items):
        return tuple(items)
    return tuple(replace(item, change=item.value - before) for item, before in zip(items, previous))


# --- each view once per state -----------------------------------------------------------------------

def state_key(state: WalkthroughState) -> Hashable:
    """The state's values as a hashable key (its mappings as sorted tuples): equal states, equal keys.

    >>> state_key(WalkthroughState(grades={"2": 4, "1": 0})) == state_key(WalkthroughState(grades={"1": 0, "2": 4}))
    True
    """
    return (state.order, state.k, state.mode, None if state.grades is None else tuple(sorted(state.grades.items())),
            tuple(sorted(state.query_orders.items())), state.returned, state.present, state.level)


@dataclass(frozen=True)
class _Keyed:
    """A state that hashes by :func:`state_key`, so a cache can hold it."""

    state: WalkthroughState = field(compare=False, hash=False)
    key: Hashable = None


View = TypeVar("View")
CACHED_STATES = 64
"""How many states each view keeps: a run asks for the state on screen and the states after the guide's moves."""


def once_per_state(compute: Callable[[WalkthroughState, Chapter], View]) -> Callable[[WalkthroughState, Chapter], View]:
    """``compute`` (a view function) computed once per (state, chapter) and then served from a small cache.

    The cached function keeps ``cache_info`` and ``cache_clear``; ``__wrapped__`` is ``compute``.
    """
    @lru_cache(maxsize=CACHED_STATES)
    def by_key(keyed: _Keyed, chapter: Chapter) -> View:
        return compute(keyed.state, chapter)

    @wraps(compute)
    def view(state: WalkthroughState, chapter: Chapter) -> View:
        return by_key(_Keyed(state, state_key(state)), chapter)

    view.cache_info = by_key.cache_info  # type: ignore[attr-defined]
    view.cache_clear = by_key.cache_clear  # type: ignore[attr-defined]
    return view


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


def counts_label(grade: int, level: int) -> str:
    """Whether a picture of ``grade`` counts as relevant at relevance level ``level``, in words with the comparison
    (short: it sits on a tile under the grade).

    >>> counts_label(3, 2), counts_label(1, 2)
    ('relevant (3 ≥ 2)', 'not relevant (1 < 2)')
    """
    if grade >= level:
        return f"relevant ({grade} \u2265 {level})"
    return f"not relevant ({grade} < {level})"


def tile_row(key: str, query: Query, ranking: Sequence[str], judgments: Judgments, mode: str, k: int | None, *,
             show_classes: bool = False, editable_grades: bool = False, relevance_level: int = 1,
             show_counts: bool = False) -> TileRow:
    """The tiles of ``ranking`` with their grades and, at cutoff ``k``, their TP/FP/FN/TN class.

    With ``show_counts`` in graded mode (the binary measures of chapters 1-2 read grades through a relevance
    level), each tile also says whether it counts as relevant: ``counts`` (True/False) and ``counts_label``
    (:func:`counts_label`); elsewhere ``counts`` is None and ``counts_label`` empty.
    """
    classes = {}
    if k is not None and show_classes:
        confusion = explain_confusion_at_k(ranking, judgments, k, relevance_level=relevance_level)
        classes = {row["item"]: row["class"] for row in confusion.rows}
    counted = show_counts and mode == "graded"
    tiles = []
    for item_id in ranking:
        item = SCENARIO.item(item_id)
        grade = judgments.grade(item_id)
        cls = classes.get(item_id)
        tiles.append({"id": item_id, "title": item.title, "alt": item.alt, "picture": item.picture or "",
                      "relevance": grade, "relevance_label": _relevance_label(grade, mode, judgments.max_grade),
                      "class": cls, "class_label": CLASS_LABELS.get(cls, "") if cls else "",
                      "rubric": query.judgments.grade(item_id) if editable_grades else None,
                      "counts": grade >= relevance_level if counted else None,
                      "counts_label": counts_label(grade, relevance_level) if counted else ""})
    return TileRow(key=key, label=f"Ranking for \u201c{query.text}\u201d", query=query, tiles=tuple(tiles), k=k,
                   mode=mode, editable_grades=editable_grades, default_order=query.default_ranking,
                   ideal_order=tuple(ideal_ranking(judgments, ranking)), show_classes=show_classes)


def main_row(state: WalkthroughState, chapter: Chapter, *, show_classes: bool = False,
             k: int | None = None, show_counts: bool = False) -> TileRow:
    """The shared ranking's tiles as ``chapter`` shows them (grades editable in graded mode; with ``show_counts``,
    whether each counts as relevant at the chapter's level)."""
    mode = state.effective_mode(chapter)
    return tile_row("tiles-main", SCENARIO.query(MODE_QUERY[mode]), state.order, state.judgments(mode), mode,
                    k if k is not None else state.effective_k(chapter), show_classes=show_classes,
                    editable_grades=mode == "graded", relevance_level=state.effective_level(chapter),
                    show_counts=show_counts)


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


def _quantity(state: WalkthroughState, chapter: Chapter, measure: str) -> Quantity:
    """A measure of the shared ranking's query, in the chapter's mode and at its relevance level."""
    mode = state.effective_mode(chapter)
    return Quantity(measure, MODE_QUERY[mode], mode, state.effective_level(chapter))


@once_per_state
def confusion_view(state: WalkthroughState, chapter: Chapter) -> ConfusionView:
    """Chapter 1: TP/FP/FN/TN at K and each tile's class (and, graded, whether it counts as relevant)."""
    k, mode = state.effective_k(chapter), state.effective_mode(chapter)
    confusion = explain_confusion_at_k(*ranking_and_judgments(state, chapter), k,
                                       relevance_level=state.effective_level(chapter))
    headline = tuple(Headline(name, count, f"{CLASS_LABELS[name]}s: {confusion.parts[name].symbolic_text}",
                              quantity=_quantity(state, chapter, name))
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


@once_per_state
def _recall_precision_curves(state: WalkthroughState, chapter: Chapter) -> Mapping[str, Curve]:
    """Recall@k and Precision@k for k = 1..N; the same whatever K (asked for with K unset, so a K move reuses them)."""
    ranking, judgments = ranking_and_judgments(state, chapter)
    level = state.effective_level(chapter)
    return {"Recall": curve(explain_recall_at_k, ranking, judgments, relevance_level=level),
            "Precision": curve(explain_precision_at_k, ranking, judgments, relevance_level=level)}


@once_per_state
def recall_precision_view(state: WalkthroughState, chapter: Chapter) -> RecallPrecisionView:
    """Chapter 2: Recall@K and Precision@K, with both curves over K = 1..N."""
    k, mode = state.effective_k(chapter), state.effective_mode(chapter)
    curves = _recall_precision_curves(replace(state, k=None), chapter)
    recall, precision = curves["Recall"].at(k), curves["Precision"].at(k)
    headline = (Headline(recall.measure, recall.value, recall.symbolic_text,
                         quantity=_quantity(state, chapter, "Recall")),
                Headline(precision.measure, precision.value, precision.symbolic_text,
                         quantity=_quantity(state, chapter, "Precision")))
    return RecallPrecisionView(k, mode, recall, precision, curves, headline,
                               main_row(state, chapter, show_counts=True))


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


def _binary_quantity(measure: str, query_text: str = "") -> Quantity:
    """A measure of the three binary queries (their own judgments, whatever the learner's mode); "" for the mean."""
    ids = {SCENARIO.query(q).text: q for q in BINARY_QUERIES}
    return Quantity(measure, ids[query_text] if query_text else "", "binary", 1)


@dataclass(frozen=True)
class MeanView:
    k: int
    mean: Breakdown
    mean_at_k: Breakdown | None
    per_query: Mapping[str, Breakdown]
    headline: tuple[Headline, ...]
    rows: tuple[TileRow, ...]


@once_per_state
def mrr_view(state: WalkthroughState, chapter: Chapter) -> MeanView:
    """Chapter 3: each query's reciprocal rank and their mean; MRR@K as MS MARCO cuts it."""
    k = state.effective_k(chapter)
    mean = explain_mean_reciprocal_rank(_queries(state))
    mean_at_k = explain_mean_reciprocal_rank(_queries(state), k)
    headline = (Headline("MRR", mean.value, mean.symbolic_text, quantity=_binary_quantity("MRR")),
                *(Headline(f"RR · {name}", part.value, part.symbolic_text, quantity=_binary_quantity("RR", name))
                  for name, part in mean.parts.items()))
    return MeanView(k, mean, mean_at_k, mean.parts, headline, binary_rows(state, None))


@once_per_state
def map_view(state: WalkthroughState, chapter: Chapter) -> MeanView:
    """Chapter 4: each query's AP@K (the P@k x rel_k table) and MAP@K."""
    k = state.effective_k(chapter)
    mean = explain_mean_average_precision(_queries(state), k)
    headline = (Headline(mean.measure, mean.value, mean.symbolic_text, quantity=_binary_quantity("MAP")),
                *(Headline(f"{part.measure} · {name}", part.value, part.symbolic_text,
                           quantity=_binary_quantity("AP", name))
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


@once_per_state
def _ndcg_curve(state: WalkthroughState, chapter: Chapter) -> Curve:
    """NDCG@k (with its DCG and IDCG) for k = 1..N; the same whatever K (asked for with K unset)."""
    return curve(explain_ndcg_at_k, *ranking_and_judgments(state, chapter))


@once_per_state
def ndcg_view(state: WalkthroughState, chapter: Chapter) -> NdcgView:
    """Chapter 5: CG@K, DCG@K, IDCG@K and NDCG@K, the ideal order, and the curves over K."""
    k, mode = state.effective_k(chapter), state.effective_mode(chapter)
    ranking, judgments = ranking_and_judgments(state, chapter)
    ndcg_curve = _ndcg_curve(replace(state, k=None), chapter)
    curves = {"DCG": Curve(ndcg_curve.ks, tuple(b.parts["DCG"] for b in ndcg_curve.breakdowns)),
              "IDCG": Curve(ndcg_curve.ks, tuple(b.parts["IDCG"] for b in ndcg_curve.breakdowns)),
              "NDCG": ndcg_curve}
    ndcg = ndcg_curve.at(k)
    cg = explain_cg_at_k(ranking, judgments, k)
    parts = {"CG": cg, "DCG": ndcg.parts["DCG"], "IDCG": ndcg.parts["IDCG"], "NDCG": ndcg}
    headline = tuple(Headline(b.measure, b.value, b.symbolic_text,
                              quantity=Quantity(name, MODE_QUERY[mode], mode))  # no relevance level: grades count
                     for name, b in parts.items())
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


def _score(topic: str, name: str, ranking: Sequence[str], judgments: Judgments, k: int) -> Breakdown:
    """The metric a convention topic belongs to, computed with variant ``name``."""
    if topic in ("gain", "discount", "ideal"):
        return explain_ndcg_at_k(ranking, judgments, k, **{topic: name})
    if topic == "ap_denominator":
        return explain_average_precision(ranking, judgments, k, denominator=name)
    if topic == "precision_denominator":
        return explain_precision_at_k(ranking, judgments, k, denominator=name)
    return explain_recall_at_k(ranking, judgments, k, denominator=name)


@once_per_state
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


VIEWS: dict[str, Callable[[WalkthroughState, Chapter], object]] = {
    "actual-vs-predicted": confusion_view, "recall-precision": recall_precision_view, "mrr": mrr_view,
    "map": map_view, "ndcg": ndcg_view, "conventions": conventions_view}
"""Each chapter's view function, by chapter slug."""


def chapter_view(state: WalkthroughState, chapter: Chapter) -> object:
    """The view of ``chapter`` for ``state`` (computed once per state, like every view here)."""
    return VIEWS[chapter.slug](state, chapter)
