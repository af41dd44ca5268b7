r"""What a question asks, computed by irlab: its (ranking, judgments) pairs and its breakdown.

Every number of an exercise (answer key, feedback, notebook tests, worksheets, CSV) comes from
:func:`explain_question`, which calls irlab's :class:`~irlab.metrics.registry.Measure` for one query and
irlab's mean breakdowns for ``"mean"`` questions (MRR and MAP by their own functions, any other
measure by :func:`irlab.explain.breakdown.explain_mean`). So the exercise, the app and the exports agree
to the last digit.

>>> from irlab.exercises.format.examples import builtin_exercise
>>> ex = builtin_exercise("cats-in-boxes")
>>> round(explain_question(ex, ex.question("mrr")).value, 4), explain_question(ex, ex.question("mrr")).measure
(0.5667, 'MRR')
>>> sorted(question_rankings(ex, ex.question("mrr")))
['cat-in-a-box', 'dark-cat', 'white-cat']
"""

from __future__ import annotations

from irlab.data.judgments import DEFAULT_RELEVANCE_LEVEL, Judgments
from irlab.data.scenario import Item, Query, Scenario
from irlab.exercises.model import Exercise, Question
from irlab.exercises.questions.wording import question_wording
from irlab.explain.breakdown import Breakdown, explain_mean
from irlab.metrics.average_precision import explain_mean_average_precision
from irlab.metrics.reciprocal_rank import explain_mean_reciprocal_rank
from irlab.metrics.registry import Measure
from irlab.scenarios.art import ALT_TEXT

RankedJudged = tuple[tuple[str, ...], Judgments]
"""A query's ranking (of the question's system) and its judgments."""


def question_rankings(exercise: Exercise, question: Question) -> dict[str, RankedJudged]:
    """Query id -> (ranking, judgments) for every query the question is about, in exercise order.

    The app shows these as picture tiles; the breakdown is computed from exactly these pairs.
    """
    system = exercise.system(question.system)
    return {query_id: (system.rankings[query_id], exercise.query(query_id).judgments)
            for query_id in exercise.question_queries(question)}


def explain_question(exercise: Exercise, question: Question, measure: Measure | None = None, *,
                     top_k_only: bool = False) -> Breakdown:
    """The breakdown of the question's answer.

    A per-query question gives the measure's own breakdown; a ``"mean"`` question gives the mean
    breakdown, whose ``parts`` are the per-query breakdowns (keyed by query id). ``measure``
    overrides the question's and ``top_k_only`` cuts each ranking at the measure's K before
    computing: both serve to compute known mistakes (:mod:`irlab.exercises.questions.mistakes`).
    """
    measure = measure or question.parsed
    pairs = question_rankings(exercise, question)
    if top_k_only and measure.cutoff is not None:
        pairs = {query: (ranking[:measure.cutoff], judgments) for query, (ranking, judgments) in pairs.items()}
    if not question.is_mean:
        ranking, judgments = pairs[question.query]
        return measure.explain(ranking, judgments)
    level = measure.relevance_level or DEFAULT_RELEVANCE_LEVEL
    if measure.family == "RR":
        return explain_mean_reciprocal_rank(pairs, measure.cutoff, relevance_level=level)
    if measure.family == "AP":
        return explain_mean_average_precision(pairs, measure.cutoff, relevance_level=level,
                                              denominator=measure.options.get("denominator", "relevant"))
    parts = {query_id: measure.explain(ranking, judgments) for query_id, (ranking, judgments) in pairs.items()}
    first = next(iter(parts.values()))
    return explain_mean(parts, measure=f"mean {first.measure}", lhs=rf"\overline{{{first.lhs}}}",
                        symbolic=rf"\overline{{{first.lhs}}} = \frac{{1}}{{Q}}\sum_{{q=1}}^{{Q}} {first.lhs}_q",
                        symbolic_text=f"the mean of {first.measure} over the Q queries",
                        term_label=first.measure)


def describe_question(exercise: Exercise, question: Question) -> str:
    """The question in words: its prompt, or the measure (in words, :mod:`irlab.exercises.questions.wording`), query
    and system spelled out. :func:`irlab.exercises.questions.wording.question_wording` gives the exact measure name
    beside it.

    >>> from irlab.exercises.format.examples import builtin_exercise
    >>> ex = builtin_exercise("ndcg-exercise")
    >>> describe_question(ex, ex.questions[0])
    'nDCG@5 with the original Järvelin–Kekäläinen discount (rank 1 is not discounted) for query q1'
    """
    return question_wording(exercise, question).text


def exercise_scenario(exercise: Exercise, system_id: str | None = None) -> Scenario:
    """The exercise as an :class:`irlab.data.scenario.Scenario`, so the app can reuse its picture tiles.

    Each query's default ranking is ``system_id``'s ranking (the first system by default);
    items keep their pictures, and their alt text is the picture's (or the label).

    >>> from irlab.exercises.format.examples import builtin_exercise
    >>> s = exercise_scenario(builtin_exercise("cats-in-boxes"))
    >>> s.items[1].picture, s.query("dark-cat").default_ranking[:3]
    ('white-cat-in-box', ('1', '2', '3'))
    """
    system = exercise.system(system_id) if system_id is not None else exercise.systems[0]
    items = tuple(Item(id=item.id, title=item.label, alt=ALT_TEXT.get(item.picture, item.label) if item.picture
                       else item.label, picture=item.picture) for item in exercise.items)
    queries = tuple(Query(id=query.id, text=query.display_text, judgments=query.judgments,
                          default_ranking=system.rankings[query.id]) for query in exercise.queries)
    return Scenario(id=f"exercise:{system.id}", title=exercise.title, items=items, queries=queries,
                    description=exercise.instructions)
