"""The pieces every chapter's view is built from: headline numbers, tile rows, and a view computed once per state.

Each chapter declares its own view (:mod:`irlab.walkthrough.chapters`, e.g. ``ndcg_view`` in
``chapters/ndcg.py``): the headline values, the breakdowns, the curves and the tile rows, all from
irlab's metrics, so pages hold no arithmetic and every number on screen has one computation behind
it. :func:`chapter_view` asks a chapter for its view. The state itself
(:class:`~irlab.walkthrough.state.WalkthroughState`) lives in :mod:`irlab.walkthrough.state`.

Each view is computed once per state: a run draws the chapter's screen and words its "Try this"
(:mod:`irlab.walkthrough.guide`) from the same view, and the guide's predictions ask for the views of
the states after each move; a small cache keyed on the state's values (:func:`state_key`) serves the
repeats. Views are shared between callers, so treat them as read-only.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from functools import lru_cache, wraps
from typing import TypeVar

from irlab.data.judgments import Judgments
from irlab.data.rankings import ideal_ranking
from irlab.data.scenario import Query
from irlab.explain.breakdown import Breakdown
from irlab.explain.formula import format_number
from irlab.metrics.confusion import CLASS_LABELS, explain_confusion_at_k
from irlab.scenarios.cats_in_boxes import BINARY_QUERIES, CAT_IN_A_BOX
from irlab.walkthrough.chapter import Chapter, Setting
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

def _frozen(value: object) -> Hashable:
    """A mapping as a sorted tuple of its items (values frozen too); anything else as it is."""
    if isinstance(value, Mapping):
        return tuple(sorted((key, _frozen(item)) for key, item in value.items()))
    return value  # type: ignore[return-value]


def state_key(state: WalkthroughState) -> Hashable:
    """The state's values as a hashable key (its mappings as sorted tuples): equal states, equal keys. Every field
    counts, so a field a chapter adds (a setting) keeps its views apart without a word here.

    >>> state_key(WalkthroughState(grades={"2": 4, "1": 0})) == state_key(WalkthroughState(grades={"1": 0, "2": 4}))
    True
    """
    return tuple(_frozen(getattr(state, item.name)) for item in fields(state))


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


def _graded(state: WalkthroughState, chapter: Chapter) -> bool:
    return state.effective_mode(chapter) == "graded"


def _level_note(state: WalkthroughState, chapter: Chapter) -> str:
    """Under the level: the rule in one line (each tile says whether it counts); binary, which pictures count."""
    if not _graded(state, chapter):
        return relevance_rule(state, chapter)
    level = state.effective_level(chapter)
    return f"Relevant: grade \u2265 {level} (trec_eval's -l {level})."


RELEVANCE_LEVEL = Setting(
    "level", "Relevant from grade",
    "Binary measures need relevant or not: a picture counts as relevant when its grade is at least this "
    "(trec_eval's -l). Change it and watch the counts.",
    tuple(range(1, SCENARIO.query(MODE_QUERY["graded"]).judgments.max_grade + 1)), 1, "the relevance level",
    buttons=True, applies=_graded, note=_level_note)
"""The relevance level of the chapters whose binary measures read grades (graded mode only)."""


# --- pieces several chapters share -------------------------------------------------------------

def quantity(state: WalkthroughState, chapter: Chapter, measure: str) -> Quantity:
    """A measure of the shared ranking's query, in the chapter's mode and at its relevance level."""
    mode = state.effective_mode(chapter)
    return Quantity(measure, MODE_QUERY[mode], mode, state.effective_level(chapter))


# --- the three binary queries (MRR, MAP) -----------------------------------------------------------------

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


def binary_queries(state: WalkthroughState) -> dict[str, tuple[tuple[str, ...], Judgments]]:
    """Each binary query's text -> its ranking in ``state`` and its judgments."""
    return {SCENARIO.query(q).text: (state.query_order(q), SCENARIO.query(q).judgments) for q in BINARY_QUERIES}


def binary_quantity(measure: str, query_text: str = "") -> Quantity:
    """A measure of the three binary queries (their own judgments, whatever the learner's mode); "" for the mean."""
    ids = {SCENARIO.query(q).text: q for q in BINARY_QUERIES}
    return Quantity(measure, ids[query_text] if query_text else "", "binary", 1)


@dataclass(frozen=True)
class MeanView:
    """A mean over the three binary queries (MRR, MAP@K): the mean, each query's part, one tile row per query."""

    k: int
    mean: Breakdown
    mean_at_k: Breakdown | None
    per_query: Mapping[str, Breakdown]
    headline: tuple[Headline, ...]
    rows: tuple[TileRow, ...]


def chapter_view(state: WalkthroughState, chapter: Chapter) -> object:
    """The view of ``chapter`` for ``state`` (computed once per state, like every view): ``chapter.view``."""
    return chapter.view(state, chapter)
