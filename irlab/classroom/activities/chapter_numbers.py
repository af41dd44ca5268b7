"""The numbers a walkthrough chapter shows, as questions a class can predict.

For a chapter and a learner's state, :func:`chapter_number` gives one number the chapter shows:
its label (``nDCG@3``), the question in words, and its breakdown, computed by the chapter's own
view (:mod:`irlab.walkthrough.views`), so the class predicts exactly the number the chapter then
shows. Where the number is an irlab measure, it also comes as a one-question exercise
(:class:`~irlab.exercises.model.Exercise`) over the same rankings and judgments, which is how an
answer is checked and a wrong one matched to a named mistake, exactly as on Practise
(:func:`irlab.exercises.answers.check_answer`); a test keeps the exercise's value equal to the
view's for every number and state.

=======================  ===============================================  ==============
chapter                  keys (K is the state's)                          whole numbers
=======================  ===============================================  ==============
actual-vs-predicted      ``TP`` ``FP`` ``FN`` ``TN`` (counts at K)        yes
recall-precision         ``Recall@K`` ``Precision@K``
mrr                      ``MRR`` ``MRR@K`` ``RR:<query>``
map                      ``MAP@K`` ``AP@K:<query>``
ndcg                     ``CG@K`` ``DCG@K`` ``IDCG@K`` ``nDCG@K``
conventions              ``<topic>:<variant>`` (e.g. ``gain:exponential``)
=======================  ===============================================  ==============

``<query>`` is one of the three binary queries (``cat-in-a-box``, ``white-cat``, ``dark-cat``).

>>> from irlab.walkthrough.chapters import chapter
>>> from irlab.walkthrough.state import DEFAULT_STATE
>>> n = chapter_number(DEFAULT_STATE, chapter("ndcg"), "nDCG@K")
>>> n.label, n.breakdown.display_value, n.exercise.questions[0].measure
('NDCG@2', '0.3869', 'nDCG@2')
>>> [key for key, _ in offered(DEFAULT_STATE, chapter("mrr"))]
['MRR', 'MRR@K', 'RR:cat-in-a-box', 'RR:white-cat', 'RR:dark-cat']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from irlab.data.judgments import Judgments
from irlab.errors import ValidationError
from irlab.exercises.model import MEAN, Exercise, ExerciseItem, ExerciseQuery, ExerciseSystem, FrozenMapping, Question
from irlab.explain.breakdown import Breakdown
from irlab.metrics.confusion import CLASS_LABELS
from irlab.metrics.conventions import CONVENTIONS, TOPIC_LABELS
from irlab.scenarios.cats_in_boxes import BINARY_QUERIES
from irlab.walkthrough import views
from irlab.walkthrough.chapters import Chapter
from irlab.walkthrough.state import MODE_QUERY, SCENARIO, WalkthroughState

SYSTEM = "walkthrough"
QUESTION = "asked"


@dataclass(frozen=True)
class ChapterNumber:
    """One number a chapter shows for one state, asked as a question.

    ``breakdown`` is the chapter's own computation; ``exercise`` (None for the confusion counts,
    which are no irlab measure) asks the same number as its one question, :data:`QUESTION`.
    ``low``..``high`` is the range where answers are expected (the histogram's scale).
    """

    key: str
    label: str
    prompt: str
    breakdown: Breakdown
    exercise: Exercise | None
    whole_numbers: bool = False
    low: float = 0.0
    high: float = 1.0

    @property
    def value(self) -> float:
        return float(self.breakdown.value)


def offered(state: WalkthroughState, chapter: Chapter) -> list[tuple[str, str]]:
    """(key, label) of every number ``chapter`` shows for ``state``, in the chapter's order (for a picker)."""
    return [(key, chapter_number(state, chapter, key).label) for key in _keys(chapter)]


def chapter_number(state: WalkthroughState, chapter: Chapter, key: str) -> ChapterNumber:
    """The number ``key`` of ``chapter`` for ``state``; ValidationError names the keys when it shows no such number."""
    keys = _keys(chapter)
    if key not in keys:
        raise ValidationError(f"the chapter {chapter.title!r} shows no number {key!r}; it shows: {', '.join(keys)}")
    return _BUILDERS[chapter.slug](state, chapter, key)


def _keys(chapter: Chapter) -> tuple[str, ...]:
    return {
        "actual-vs-predicted": tuple(CLASS_LABELS),
        "recall-precision": ("Recall@K", "Precision@K"),
        "mrr": ("MRR", "MRR@K", *(f"RR:{q}" for q in BINARY_QUERIES)),
        "map": ("MAP@K", *(f"AP@K:{q}" for q in BINARY_QUERIES)),
        "ndcg": ("CG@K", "DCG@K", "IDCG@K", "nDCG@K"),
        "conventions": tuple(f"{topic}:{v.name}" for topic, variants in CONVENTIONS.items() for v in variants),
    }[chapter.slug]


def _convention_label(state: WalkthroughState, chapter: Chapter, key: str) -> str:
    topic, _, name = key.partition(":")
    variant = next(v for v in CONVENTIONS[topic] if v.name == name)
    return f"{_CONVENTION_MEASURE[topic]}@{state.effective_k(chapter)} ({variant.label})"


# --- the one-question exercise -------------------------------------------------------------------------------------

def _exercise(measure: str, rankings: Mapping[str, tuple[str, ...]], judgments: Mapping[str, Judgments],
              mean: bool) -> Exercise:
    """The number as an exercise: the eight pictures, the queries asked about, one system, one question."""
    items = tuple(ExerciseItem(item.id, item.title, item.picture) for item in SCENARIO.items)
    queries = tuple(ExerciseQuery(query, judgments[query], SCENARIO.query(query).text) for query in rankings)
    system = ExerciseSystem(SYSTEM, FrozenMapping(rankings))
    only = next(iter(rankings))
    question = Question(QUESTION, measure, MEAN if mean else only, SYSTEM,
                        mean_over=tuple(rankings) if mean else None)
    return Exercise(title="A walkthrough question", items=items, queries=queries, systems=(system,),
                    questions=(question,))


def _single(state: WalkthroughState, chapter: Chapter, measure: str, ranking: tuple[str, ...] | None = None,
            query: str | None = None) -> Exercise:
    """A question about one query: the chapter's (its mode's query) unless ``query`` is given."""
    mode = state.effective_mode(chapter)
    query = query or MODE_QUERY[mode]
    if query == MODE_QUERY[mode]:  # the chapter's query ranks the shared order, with the learner's grades
        judgments, default = state.judgments(mode), state.order
    else:
        judgments, default = SCENARIO.query(query).judgments, state.query_order(query)
    ranking = ranking if ranking is not None else default
    return _exercise(measure, {query: ranking}, {query: judgments}, mean=False)


def _over_binary_queries(state: WalkthroughState, measure: str) -> Exercise:
    rankings = {q: state.query_order(q) for q in BINARY_QUERIES}
    return _exercise(measure, rankings, {q: SCENARIO.query(q).judgments for q in BINARY_QUERIES}, mean=True)


# --- one builder per chapter ---------------------------------------------------------------------------------------

def _how(state: WalkthroughState, chapter: Chapter) -> str:
    mode = state.effective_mode(chapter)
    query = SCENARIO.query(MODE_QUERY[mode])
    if mode == "graded":
        return f"for the query \u201c{query.text}\u201d (graded 0-{query.judgments.max_grade})"
    return f"for the query \u201c{query.text}\u201d (relevant or not)"


def _relevance(state: WalkthroughState, chapter: Chapter) -> str:
    level = state.effective_level(chapter)
    return f", counting grade {level} or more as relevant" if state.effective_mode(chapter) == "graded" else ""


def _confusion(state: WalkthroughState, chapter: Chapter, key: str) -> ChapterNumber:
    view = views.confusion_view(state, chapter)
    label = f"{key}@{view.k}"
    prompt = (f"How many {CLASS_LABELS[key].lower()}s ({key}) are there at K = {view.k}, "
              f"{_how(state, chapter)}{_relevance(state, chapter)}?")
    return ChapterNumber(key, label, prompt, view.confusion.parts[key], None, whole_numbers=True,
                         high=float(len(SCENARIO.items)))


def _recall_precision(state: WalkthroughState, chapter: Chapter, key: str) -> ChapterNumber:
    view = views.recall_precision_view(state, chapter)
    breakdown = view.recall if key == "Recall@K" else view.precision
    family = "R" if key == "Recall@K" else "P"
    level = state.effective_level(chapter)
    measure = f"{family}(rel={level})@{view.k}" if level != 1 else f"{family}@{view.k}"
    label = breakdown.measure
    prompt = f"What is {label} of this ranking {_how(state, chapter)}{_relevance(state, chapter)}?"
    return ChapterNumber(key, label, prompt, breakdown, _single(state, chapter, measure))


def _mrr(state: WalkthroughState, chapter: Chapter, key: str) -> ChapterNumber:
    view = views.mrr_view(state, chapter)
    name, _, query = key.partition(":")
    if query:
        text = SCENARIO.query(query).text
        breakdown = view.per_query[text]
        return ChapterNumber(key, f"RR \u00b7 {text}", f"What is the reciprocal rank of the ranking for "
                             f"\u201c{text}\u201d?", breakdown, _single(state, chapter, "RR", query=query))
    if key == "MRR@K":
        label = f"MRR@{view.k}"
        return ChapterNumber(key, label, f"What is {label} over the three queries (a first relevant result below "
                             f"rank {view.k} counts 0)?", view.mean_at_k, _over_binary_queries(state, f"RR@{view.k}"))
    return ChapterNumber(key, "MRR", "What is MRR, the mean reciprocal rank over the three queries?", view.mean,
                         _over_binary_queries(state, "RR"))


def _map(state: WalkthroughState, chapter: Chapter, key: str) -> ChapterNumber:
    view = views.map_view(state, chapter)
    _, _, query = key.partition(":")
    if query:
        text = SCENARIO.query(query).text
        label = f"AP@{view.k} \u00b7 {text}"
        return ChapterNumber(key, label, f"What is AP@{view.k} of the ranking for \u201c{text}\u201d?",
                             view.per_query[text], _single(state, chapter, f"AP@{view.k}", query=query))
    label = f"MAP@{view.k}"
    return ChapterNumber(key, label, f"What is {label}, the mean of AP@{view.k} over the three queries?", view.mean,
                         _over_binary_queries(state, f"AP@{view.k}"))


def _ndcg(state: WalkthroughState, chapter: Chapter, key: str) -> ChapterNumber:
    view = views.ndcg_view(state, chapter)
    breakdown = {"CG@K": view.cg, "DCG@K": view.ndcg.parts["DCG"], "IDCG@K": view.ndcg.parts["IDCG"],
                 "nDCG@K": view.ndcg}[key]
    family = key.removesuffix("@K")
    label = breakdown.measure
    prompt = f"What is {label} of this ranking {_how(state, chapter)}?"
    bounded = family == "nDCG"
    return ChapterNumber(key, label, prompt, breakdown, _single(state, chapter, f"{family}@{view.k}"),
                         high=1.0 if bounded else max(1.0, 2 * float(breakdown.value)))


_CONVENTION_MEASURE = {"gain": "nDCG", "discount": "nDCG", "ideal": "nDCG", "ap_denominator": "AP",
                       "precision_denominator": "P", "recall_denominator": "R"}
_CONVENTION_OPTION = {"gain": "gain", "discount": "discount", "ideal": "ideal", "ap_denominator": "denominator",
                      "precision_denominator": "denominator", "recall_denominator": "denominator"}


def _conventions(state: WalkthroughState, chapter: Chapter, key: str) -> ChapterNumber:
    view = views.conventions_view(state, chapter)
    topic, _, name = key.partition(":")
    result = next(r for r in view.topic(topic) if r.variant.name == name)
    family = _CONVENTION_MEASURE[topic]
    measure = f"{family}({_CONVENTION_OPTION[topic]}={name!r})@{view.k}"
    label = _convention_label(state, chapter, key)
    returned = f", the system returning {view.returned} of the eight" if view.returned < len(SCENARIO.items) else ""
    prompt = (f"What is {family}@{view.k} with {TOPIC_LABELS[topic]}: {result.variant.label}, "
              f"{_how(state, chapter)}{returned}?")
    return ChapterNumber(key, label, prompt, result.breakdown,
                         _single(state, chapter, measure, ranking=state.order[:view.returned]))


_BUILDERS: dict[str, Callable[[WalkthroughState, Chapter, str], ChapterNumber]] = {
    "actual-vs-predicted": _confusion, "recall-precision": _recall_precision, "mrr": _mrr, "map": _map,
    "ndcg": _ndcg, "conventions": _conventions,
}
