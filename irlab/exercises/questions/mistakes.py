"""Known mistakes: each one is the question's measure computed under one mistaken convention.

A wrong answer is matched to a mistake when it lies within the tolerance of that mistaken
computation **and** the mistaken computation differs from the correct value by more than the
tolerance (otherwise the mistake would not show in the number). The mistaken computation is
an irlab measure with one named variant changed (:mod:`irlab.metrics.conventions`), another family
or another cut-off, so the student sees its full breakdown.

The mistakes are declared with the measures (:mod:`irlab.metrics.teaching`): each family's teaching
names its own (``precision-instead-of-recall`` for Recall@K, ``dcg-not-normalised`` for nDCG,
``ap-over-found`` for AP, ...), tried first, in the order declared; then the mistakes of a
convention or a cut-off, which apply to every family that takes the parameter
(:data:`~irlab.metrics.teaching.CONVENTION_MISTAKES`: the gain, the discount, the ideal ranking,
the cut-off ignored, an off-by-one cut-off). :data:`MISTAKES` lists them all, for their names and
titles; docs/exercise-format.md lists them (a test keeps that list complete).

Precision divided by the items retrieved is not named: exercises keep K within the ranking,
where it equals precision divided by K.

A question that cannot tell a mistake from the right answer (the mistaken computation gives the same
number) cannot catch that mistake: :func:`indistinct_mistakes` lists them, and the builder warns.

>>> from irlab.exercises.format.examples import builtin_exercise
>>> ex = builtin_exercise("ndcg-exercise")
>>> [m.mistake.name for m in likely_mistakes(ex, ex.question("ndcg5-q2"))]
['dcg-not-normalised', 'idcg-from-retrieved', 'exponential-gain', 'discount-log2-k-plus-1', 'cutoff-ignored', \
'cutoff-one-less']
>>> match_mistake(ex, ex.question("ndcg5-q1"), 0.7463).mistake.name
'discount-log2-k-plus-1'
"""

from __future__ import annotations

from dataclasses import dataclass

from irlab.exercises.model import Exercise, Question
from irlab.exercises.questions.explain import explain_question
from irlab.explain.breakdown import Breakdown
from irlab.metrics.registry import FAMILIES, Measure
from irlab.metrics.teaching import CONVENTION_MISTAKES, Mistake

_SLACK = 1e-9  # float noise: a value exactly on the tolerance boundary counts as within it


@dataclass(frozen=True)
class MistakeMatch:
    """A mistake applied to one question: the mistaken computation's breakdown."""

    mistake: Mistake
    breakdown: Breakdown

    @property
    def value(self) -> float:
        """What the mistaken computation gives."""
        return self.breakdown.value


def mistakes_for(measure: Measure) -> tuple[Mistake, ...]:
    """The mistakes tried for ``measure``, in order: its family's own, then those of a convention or a cut-off."""
    teaching = FAMILIES[measure.family].teaching
    return (teaching.mistakes if teaching else ()) + CONVENTION_MISTAKES


MISTAKES: tuple[Mistake, ...] = tuple({mistake.name: mistake for mistake in (
    *(mistake for family in FAMILIES.values() if family.teaching for mistake in family.teaching.mistakes),
    *CONVENTION_MISTAKES)}.values())
"""Every known mistake: each family's own (in the registry's order), then those of a convention or a cut-off."""


def likely_mistakes(exercise: Exercise, question: Question, expected: Breakdown | None = None,
                    tolerance: float | None = None) -> list[MistakeMatch]:
    """Every known mistake that applies to the question and changes its answer by more than the tolerance."""
    expected = expected or explain_question(exercise, question)
    tolerance = exercise.tolerance if tolerance is None else tolerance
    matches = []
    for mistake in mistakes_for(question.parsed):
        mistaken = mistake.mistaken_measure(question.parsed)
        if mistaken is None:
            continue
        breakdown = explain_question(exercise, question, mistaken, top_k_only=mistake.top_k_only)
        if abs(breakdown.value - expected.value) > tolerance + _SLACK:
            matches.append(MistakeMatch(mistake, breakdown))
    return matches


def match_mistake(exercise: Exercise, question: Question, answer: float, tolerance: float | None = None,
                  expected: Breakdown | None = None) -> MistakeMatch | None:
    """The known mistake that best explains a wrong ``answer``, or None.

    Only mistakes from :func:`likely_mistakes` whose value is within the tolerance of the
    answer count; the closest one wins.
    """
    tolerance = exercise.tolerance if tolerance is None else tolerance
    candidates = [m for m in likely_mistakes(exercise, question, expected, tolerance)
                  if abs(m.value - answer) <= tolerance + _SLACK]
    return min(candidates, key=lambda m: abs(m.value - answer), default=None)


def indistinct_mistakes(exercise: Exercise, question: Question) -> list[Mistake]:
    """The known mistakes that apply to the question but give its right answer (within the tolerance): the question
    cannot tell a student who made one of them from one who did not.

    >>> from irlab.exercises.format.examples import builtin_exercise
    >>> ex = builtin_exercise("ndcg-exercise")
    >>> [m.name for m in indistinct_mistakes(ex, ex.question("ndcg5-q2"))]
    ['idcg-from-ranked-list', 'cutoff-one-more']
    """
    expected = explain_question(exercise, question)
    tolerance = exercise.tolerance
    found = []
    for mistake in mistakes_for(question.parsed):
        mistaken = mistake.mistaken_measure(question.parsed)
        if mistaken is None:
            continue
        breakdown = explain_question(exercise, question, mistaken, top_k_only=mistake.top_k_only)
        if abs(breakdown.value - expected.value) <= tolerance + _SLACK:
            found.append(mistake)
    return found
