"""Predict, then reveal: a quiz on random rankings of the eight cats-in-boxes pictures.

A *seed* gives a random ranking of the eight pictures and a binary query to judge it by
(``random.Random`` seeded with text, never the global generator), so the same seed always
shows the same question. The learner picks a metric and K, types a prediction, and
:func:`reveal` gives the true value (irlab's breakdown of the measure) and whether the
prediction lay within the tolerance. Scores are plain immutable values (:class:`Tally`).

>>> question = make_question(seed=7, metric="P", k=3)
>>> question.measure, question.ranking
('P@3', ('6', '3', '1', '8', '5', '4', '7', '2'))
>>> result = reveal(question, "2/3")
>>> result.value == question.breakdown.value, result.within, result.breakdown.display_value
(True, True, '0.6667')
>>> scores = record({}, "P", result.within)
>>> scores["P"], total(scores)
(Tally(correct=1, attempted=1), Tally(correct=1, attempted=1))
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import NamedTuple

from irlab.data.judgments import Judgments
from irlab.data.scenario import Query
from irlab.errors import ValidationError
from irlab.exercises.questions.answers import parse_answer
from irlab.explain.breakdown import Breakdown
from irlab.explain.formula import format_number
from irlab.metrics.measure_names import parse_measure
from irlab.metrics.registry import FAMILIES, families_for_people
from irlab.scenarios.cats_in_boxes import BINARY_QUERIES, CATS_IN_BOXES, WHITE_CAT_IN_A_BOX


@dataclass(frozen=True)
class QuizMetric:
    """A metric the quiz asks about: its measure family, label, whether it has a K and uses grades."""

    key: str
    label: str
    uses_k: bool
    graded: bool
    hint: str


ASKED_WITH_K = {family.name: family.teaching.quiz_k for family in families_for_people()
                if family.teaching is not None and family.teaching.quiz_k is not None}
"""The families the quiz asks about, in the order offered, and whether a question sets K: as each family's teaching
declares it (``Teaching.quiz_k`` in :mod:`irlab.metrics.teaching`)."""


def _quiz_metric(family: str, uses_k: bool) -> QuizMetric:
    """A quiz metric from the measure registry: its short label, whether it is graded, its help text."""
    definition = FAMILIES[family]
    graded = not definition.binary
    label = definition.short_label + (" (graded)" if graded else "")
    return QuizMetric(family, label, uses_k, graded, definition.help.replace("documents", "pictures")
                      .replace("document", "picture"))


METRICS: dict[str, QuizMetric] = {key: _quiz_metric(key, uses_k) for key, uses_k in ASKED_WITH_K.items()}
"""The quiz's metrics, in the order offered (labels and help from the measure registry)."""

TOLERANCES = (0.005, 0.02, 0.05)
"""How close a prediction must be to count: exact to two decimals, or a good estimate."""

N_PICTURES = len(CATS_IN_BOXES.items)


def ranking_for(seed: int) -> tuple[str, ...]:
    """The random ranking of the eight pictures for ``seed``.

    >>> ranking_for(7) == ranking_for(7), sorted(ranking_for(7)) == sorted(CATS_IN_BOXES.item_ids)
    (True, True)
    """
    order = list(CATS_IN_BOXES.item_ids)
    random.Random(f"irlab-quiz:{seed}").shuffle(order)
    return tuple(order)


def query_for(seed: int, metric: str) -> Query:
    """The query a question is judged by: a binary query drawn from the seed, or the graded one.

    >>> query_for(7, "P").id, query_for(7, "nDCG").id
    ('white-cat', 'white-cat-in-a-box')
    """
    if METRICS[metric].graded:
        return CATS_IN_BOXES.query(WHITE_CAT_IN_A_BOX)
    return CATS_IN_BOXES.query(random.Random(f"irlab-quiz-query:{seed}").choice(BINARY_QUERIES))


def next_seed(seed: int) -> int:
    """The seed of the "new ranking" after ``seed`` (deterministic, so a session can be replayed).

    >>> next_seed(7) != 7, next_seed(7) == next_seed(7)
    (True, True)
    """
    rng = random.Random(f"irlab-quiz-next:{seed}")
    while (new := rng.randrange(1, 1_000_000)) == seed:
        pass
    return new


@dataclass(frozen=True)
class QuizQuestion:
    """One quiz question: the seed, metric and K, the ranking, and the query with its judgments."""

    seed: int
    metric: str
    k: int | None
    ranking: tuple[str, ...]
    query: Query

    @property
    def judgments(self) -> Judgments:
        return self.query.judgments

    @property
    def measure(self) -> str:
        """The measure asked, in irlab's spelling (``nDCG@3``)."""
        return f"{self.metric}@{self.k}" if self.k is not None else self.metric

    @property
    def breakdown(self) -> Breakdown:
        """irlab's breakdown of the answer."""
        return parse_measure(self.measure).explain(self.ranking, self.judgments)

    @property
    def prompt(self) -> str:
        """The question in words."""
        metric = METRICS[self.metric]
        label = metric.label.split(" (")[0].replace("@K", f"@{self.k}")
        how = f"graded 0-{self.judgments.max_grade}" if metric.graded else "relevant or not"
        return f"What is {label} of this ranking for the query \u201c{self.query.text}\u201d ({how})?"

    def badges(self) -> list[str]:
        """One line per picture in rank order: its rank, grade or relevance, and whether it is in the top K.

        >>> make_question(7, "P", 3).badges()[:4]
        ['1 · relevant · top 3', '2 · not relevant · top 3', '3 · relevant · top 3', '4 · not relevant']
        """
        lines = []
        for rank, item in enumerate(self.ranking, start=1):
            grade = self.judgments.grade(item)
            judged = f"grade {grade}" if METRICS[self.metric].graded else ("relevant" if grade else "not relevant")
            top = f" · top {self.k}" if self.k is not None and rank <= self.k else ""
            lines.append(f"{rank} · {judged}{top}")
        return lines


def make_question(seed: int, metric: str, k: int | None = None) -> QuizQuestion:
    """The question for ``seed``, ``metric`` (a key of :data:`METRICS`) and ``k`` (ignored without K).

    >>> make_question(3, "RR", 5).measure, make_question(3, "nDCG", 9)
    Traceback (most recent call last):
    ...
    irlab.errors.ValidationError: K must be between 1 and 8, got 9
    """
    if metric not in METRICS:
        raise ValidationError(f"unknown quiz metric {metric!r}; the metrics are: {', '.join(METRICS)}")
    if not METRICS[metric].uses_k:
        k = None
    elif isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= N_PICTURES:
        raise ValidationError(f"K must be between 1 and {N_PICTURES}, got {k!r}")
    return QuizQuestion(seed=seed, metric=metric, k=k, ranking=ranking_for(seed), query=query_for(seed, metric))


class Reveal(NamedTuple):
    """The revealed answer: the value, its breakdown, the prediction read as a number, and the verdict.

    ``within`` is None (and ``problem`` says why) when the prediction could not be read.
    """

    value: float
    breakdown: Breakdown
    prediction: float | None
    within: bool | None
    tolerance: float
    problem: str | None = None

    @property
    def message(self) -> str:
        """The verdict in words."""
        if self.problem is not None:
            return f"Your prediction could not be read: {self.problem}"
        shown, true = format_number(self.prediction), self.breakdown.display_value
        if self.within:
            return f"Within {format_number(self.tolerance)}: you predicted {shown}, the value is {true}."
        return f"Not within {format_number(self.tolerance)}: you predicted {shown}, the value is {true}."


def reveal(question: QuizQuestion, prediction: float | str, tolerance: float = TOLERANCES[0]) -> Reveal:
    """The true value and whether ``prediction`` is within ``tolerance`` of it (never raises on bad text).

    >>> q = make_question(7, "RR")
    >>> reveal(q, "100%").within, reveal(q, "0,9").within, reveal(q, "0,9", tolerance=0.1).within
    (True, False, True)
    >>> reveal(q, "lots").message  # doctest: +ELLIPSIS
    "Your prediction could not be read: 'lots' is not a number: type a decimal such as 0.75, ..."
    """
    breakdown = question.breakdown
    try:
        value = parse_answer(prediction)
    except ValidationError as error:
        return Reveal(breakdown.value, breakdown, None, None, tolerance, problem=str(error))
    within = abs(value - breakdown.value) <= tolerance + 1e-9
    return Reveal(breakdown.value, breakdown, value, within, tolerance)


class Tally(NamedTuple):
    """Predictions within tolerance, and predictions revealed."""

    correct: int = 0
    attempted: int = 0


def record(scores: Mapping[str, Tally], metric: str, within: bool | None) -> dict[str, Tally]:
    """The scores after one reveal of ``metric`` (an unreadable prediction counts as attempted)."""
    before = scores.get(metric, Tally())
    return {**scores, metric: Tally(before.correct + bool(within), before.attempted + 1)}


def total(scores: Mapping[str, Tally]) -> Tally:
    """All metrics together."""
    return Tally(sum(t.correct for t in scores.values()), sum(t.attempted for t in scores.values()))


def score_rows(scores: Mapping[str, Tally]) -> list[list[str]]:
    """A table of the session's scores: metric, correct, attempted (metrics in the quiz's order).

    >>> score_rows(record(record({}, "RR", True), "P", False))
    [['Precision@K', '0', '1'], ['Reciprocal rank', '1', '1']]
    """
    return [[metric.label, str(scores[key].correct), str(scores[key].attempted)]
            for key, metric in METRICS.items() if key in scores]
