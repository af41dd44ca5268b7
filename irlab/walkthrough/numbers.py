"""A number a chapter shows, asked as a question: what a chapter declares for the live class.

Each chapter names the numbers a class can predict (``Chapter.number_keys``) and builds each one for a
state (``Chapter.number``) as a :class:`ChapterNumber`: its label (``nDCG@3``), the question in words,
and its breakdown, computed by the chapter's own view, so the class predicts exactly the number the
chapter then shows. Where the number is an irlab measure, it also comes as a one-question exercise
(:class:`~irlab.exercises.model.Exercise`) over the same rankings and judgments, which is how an answer
is checked and a wrong one matched to a named mistake, exactly as on Practise
(:func:`irlab.exercises.questions.answers.check_answer`). This module holds what every chapter's numbers share;
:mod:`irlab.classroom.activities.chapter_numbers` asks a chapter for them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from irlab.data.judgments import Judgments
from irlab.exercises.model import MEAN, Exercise, ExerciseItem, ExerciseQuery, ExerciseSystem, FrozenMapping, Question
from irlab.explain.breakdown import Breakdown
from irlab.scenarios.cats_in_boxes import BINARY_QUERIES
from irlab.walkthrough.chapter import Chapter
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


# --- the one-question exercise -------------------------------------------------------------------------------------

def one_question(measure: str, rankings: Mapping[str, tuple[str, ...]], judgments: Mapping[str, Judgments],
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


def single_query(state: WalkthroughState, chapter: Chapter, measure: str, ranking: tuple[str, ...] | None = None,
                 query: str | None = None) -> Exercise:
    """A question about one query: the chapter's (its mode's query) unless ``query`` is given."""
    mode = state.effective_mode(chapter)
    query = query or MODE_QUERY[mode]
    if query == MODE_QUERY[mode]:  # the chapter's query ranks the shared order, with the learner's grades
        judgments, default = state.judgments(mode), state.order
    else:
        judgments, default = SCENARIO.query(query).judgments, state.query_order(query)
    ranking = ranking if ranking is not None else default
    return one_question(measure, {query: ranking}, {query: judgments}, mean=False)


def over_binary_queries(state: WalkthroughState, measure: str) -> Exercise:
    """A question about the mean of ``measure`` over the three binary queries, each ranked as in ``state``."""
    rankings = {q: state.query_order(q) for q in BINARY_QUERIES}
    return one_question(measure, rankings, {q: SCENARIO.query(q).judgments for q in BINARY_QUERIES}, mean=True)


# --- words every chapter's questions share ---------------------------------------------------------------------

def query_words(state: WalkthroughState, chapter: Chapter) -> str:
    """The chapter's query in a question: ``for the query “white cat in a box” (graded 0-4)``."""
    mode = state.effective_mode(chapter)
    query = SCENARIO.query(MODE_QUERY[mode])
    if mode == "graded":
        return f"for the query \u201c{query.text}\u201d (graded 0-{query.judgments.max_grade})"
    return f"for the query \u201c{query.text}\u201d (relevant or not)"


def level_words(state: WalkthroughState, chapter: Chapter) -> str:
    """The relevance level in a question, in graded mode (binary measures read grades through it); else ""."""
    level = state.effective_level(chapter)
    return f", counting grade {level} or more as relevant" if state.effective_mode(chapter) == "graded" else ""


