"""Known mistakes: each one is the question's measure computed under one mistaken convention.

A wrong answer is matched to a mistake when it lies within the tolerance of that mistaken
computation **and** the mistaken computation differs from the correct value by more than the
tolerance (otherwise the mistake would not show in the number). The mistaken computation is
an irlab measure with one named variant changed (:mod:`irlab.metrics.conventions`) or one documented
alteration (DCG instead of NDCG, no cutoff, only the top K ranked), so the student sees its full
breakdown.

==========================  ==========================================================  =======================
name                        the mistake                                                 applies to
==========================  ==========================================================  =======================
``idcg-from-retrieved``     IDCG from the retrieved (top K) items only                  nDCG@K, IDCG@K
``idcg-from-ranked-list``   IDCG from the ranked items only (``ideal='retrieved'``)     nDCG, IDCG
``exponential-gain``        gain 2^rel - 1 instead of rel                               nDCG, DCG, IDCG, CG
``linear-gain``             gain rel instead of 2^rel - 1                               the same, exponential
``discount-log2-k-plus-1``  log2(k + 1) where the original J-K discount was asked       nDCG, DCG, IDCG
``discount-jk``             original J-K discount where log2(k + 1) was asked           nDCG, DCG, IDCG
``dcg-not-normalised``      gave DCG when NDCG was asked                                nDCG
``ap-over-found``           AP divided by the relevant items found in the top K         AP
``ap-over-min-k-r``         AP divided by min(K, R)                                     AP@K
``recall-over-min-k-r``     recall divided by min(K, R)                                 R@K
``cutoff-ignored``          the whole ranking used instead of the top K                 RR, AP, (I)(n)DCG, CG
==========================  ==========================================================  =======================

Tried first, because it is the classic one: ``precision-instead-of-recall`` (Precision@K given where
Recall@K was asked) and ``recall-instead-of-precision`` (the reverse).

Precision divided by the items retrieved is not listed: exercises keep K within the ranking,
where it equals precision divided by K.

>>> from irlab.exercises.examples import builtin_exercise
>>> ex = builtin_exercise("ndcg-exercise")
>>> [m.mistake.name for m in likely_mistakes(ex, ex.question("ndcg5-q2"))]
['idcg-from-retrieved', 'exponential-gain', 'discount-log2-k-plus-1', 'dcg-not-normalised', 'cutoff-ignored']
>>> match_mistake(ex, ex.question("ndcg5-q1"), 0.7463).mistake.name
'discount-log2-k-plus-1'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from irlab.exercises.model import Exercise, Question
from irlab.exercises.questions import explain_question
from irlab.explain.breakdown import Breakdown
from irlab.metrics.registry import FAMILIES, Measure

_SLACK = 1e-9  # float noise: a value exactly on the tolerance boundary counts as within it


@dataclass(frozen=True)
class Mistake:
    """A named mistake: how to compute the measure the mistaken way, and what it means in words."""

    name: str
    title: str
    explanation: str
    alter: Callable[[Measure], Measure | None]
    top_k_only: bool = False  # compute on each ranking cut at K (what "retrieved" means at cutoff K)

    def mistaken_measure(self, measure: Measure) -> Measure | None:
        """The measure computed the mistaken way, or None when the mistake cannot apply to it."""
        return self.alter(measure)


@dataclass(frozen=True)
class MistakeMatch:
    """A mistake applied to one question: the mistaken computation's breakdown."""

    mistake: Mistake
    breakdown: Breakdown

    @property
    def value(self) -> float:
        """What the mistaken computation gives."""
        return self.breakdown.value


def _with(measure: Measure, **options: object) -> Measure:
    return replace(measure, options={**measure.options, **options})


def _takes(measure: Measure, param: str) -> bool:
    """Whether the measure's family takes ``param`` (the registry says)."""
    return param in FAMILIES[measure.family].param_names


def _idcg_from_retrieved(m: Measure) -> Measure | None:
    """Ideal ranking sorted from the ranked items only (scikit-learn, torchmetrics); with
    ``top_k_only``, from the top K only (the items returned at cutoff K)."""
    if _takes(m, "ideal") and m.options.get("ideal", "judged") == "judged":
        return _with(m, ideal="retrieved")
    return None


def _idcg_from_top_k(m: Measure) -> Measure | None:
    """As :func:`_idcg_from_retrieved`, for measures with a cutoff (the ranking is cut at K)."""
    return _idcg_from_retrieved(m) if m.cutoff is not None else None


def _exponential_gain(m: Measure) -> Measure | None:
    """Gain 2^rel - 1 where the grade itself was the gain."""
    if _takes(m, "gain") and m.options.get("gain", "linear") == "linear":
        return _with(m, gain="exponential")
    return None


def _linear_gain(m: Measure) -> Measure | None:
    """The grade as gain where 2^rel - 1 was asked."""
    if _takes(m, "gain") and m.options.get("gain") == "exponential":
        return _with(m, gain="linear")
    return None


def _log2_discount(m: Measure) -> Measure | None:
    """log2(k + 1) at every rank where the original Järvelin–Kekäläinen discount was asked."""
    if _takes(m, "discount") and m.options.get("discount") == "jarvelin-kekalainen":
        return _with(m, discount="log2")
    return None


def _jk_discount(m: Measure) -> Measure | None:
    """The original Järvelin–Kekäläinen discount (rank 1 undiscounted, then log2 k) where log2(k + 1) was asked."""
    if _takes(m, "discount") and m.options.get("discount", "log2") == "log2":
        return _with(m, discount="jarvelin-kekalainen")
    return None


def _dcg_not_normalised(m: Measure) -> Measure | None:
    """DCG with the same gain, discount and cutoff, where NDCG was asked."""
    if m.family == "nDCG":
        return replace(m, family="DCG", options={k: v for k, v in m.options.items() if k != "ideal"})
    return None


def _ap_over_found(m: Measure) -> Measure | None:
    """AP divided by the relevant items found in the top K (torchmetrics)."""
    if m.family == "AP" and m.options.get("denominator", "relevant") == "relevant":
        return _with(m, denominator="found")
    return None


def _ap_over_min_k_r(m: Measure) -> Measure | None:
    """AP@K divided by min(K, R) (ml_metrics apk)."""
    if m.family == "AP" and m.cutoff is not None and m.options.get("denominator", "relevant") == "relevant":
        return _with(m, denominator="min-k-r")
    return None


def _recall_over_min_k_r(m: Measure) -> Measure | None:
    """Recall@K divided by min(K, R)."""
    if m.family == "R" and m.options.get("denominator", "relevant") == "relevant":
        return _with(m, denominator="min-k-r")
    return None


def _precision_instead_of_recall(m: Measure) -> Measure | None:
    """Precision@K computed where Recall@K was asked (the classic mix-up of the two denominators)."""
    return Measure("P", m.cutoff, {}, m.relevance_level) if m.family == "R" else None


def _recall_instead_of_precision(m: Measure) -> Measure | None:
    """Recall@K computed where Precision@K was asked."""
    return Measure("R", m.cutoff, {}, m.relevance_level) if m.family == "P" else None


def _cutoff_ignored(m: Measure) -> Measure | None:
    """The same measure over the whole ranking (families whose cutoff is optional)."""
    if FAMILIES[m.family].cutoff == "optional" and m.cutoff is not None:
        return replace(m, cutoff=None)
    return None


MISTAKES: tuple[Mistake, ...] = (
    # the classic mix-up first: on a tie it is the likelier explanation
    Mistake("precision-instead-of-recall", "Precision@K instead of Recall@K",
            "You divided the relevant items in the top K by K, which is Precision@K; Recall@K divides them by all "
            "relevant items of the query.", _precision_instead_of_recall),
    Mistake("recall-instead-of-precision", "Recall@K instead of Precision@K",
            "You divided the relevant items in the top K by all relevant items of the query, which is Recall@K; "
            "Precision@K divides them by K.", _recall_instead_of_precision),
    Mistake("idcg-from-retrieved", "IDCG from the retrieved items only",
            "You built the ideal ranking by re-sorting the top K items the system returned, but IDCG sorts every "
            "judged item of the query, retrieved or not.", _idcg_from_top_k, top_k_only=True),
    Mistake("idcg-from-ranked-list", "IDCG from the ranked items only",
            "You built the ideal ranking by re-sorting the items the system ranked, but IDCG sorts every judged "
            "item of the query, ranked or not.", _idcg_from_retrieved),
    Mistake("exponential-gain", "exponential instead of linear gain",
            "You used the gain 2^rel - 1, but this question uses the grade itself as the gain.", _exponential_gain),
    Mistake("linear-gain", "linear instead of exponential gain",
            "You used the grade itself as the gain, but this question uses the gain 2^rel - 1.", _linear_gain),
    Mistake("discount-log2-k-plus-1", "log2(k + 1) discount instead of the original Järvelin–Kekäläinen one",
            "You divided the gain at every rank k by log2(k + 1), but this question uses the original "
            "Järvelin–Kekäläinen discount: rank 1 is not discounted and rank k >= 2 is divided by log2(k).",
            _log2_discount),
    Mistake("discount-jk", "original Järvelin–Kekäläinen discount instead of log2(k + 1)",
            "You left rank 1 undiscounted and divided rank k >= 2 by log2(k), but this question divides the gain "
            "at every rank k by log2(k + 1).", _jk_discount),
    Mistake("dcg-not-normalised", "DCG instead of NDCG",
            "You gave DCG, but NDCG divides it by IDCG, the DCG of the ideal ranking.", _dcg_not_normalised),
    Mistake("ap-over-found", "AP divided by the relevant items found",
            "You divided by the relevant items found in the top K, but AP divides by all relevant items of the "
            "query, found or not.", _ap_over_found),
    Mistake("ap-over-min-k-r", "AP divided by min(K, R)",
            "You divided by the smaller of K and the number of relevant items, but AP here divides by all "
            "relevant items of the query.", _ap_over_min_k_r),
    Mistake("recall-over-min-k-r", "recall divided by min(K, R)",
            "You divided by the smaller of K and the number of relevant items, but recall divides by all "
            "relevant items of the query.", _recall_over_min_k_r),
    Mistake("cutoff-ignored", "cutoff ignored",
            "You used the whole ranking, but only the top K items count.", _cutoff_ignored),
)
"""Every known mistake, in the order they are tried (the closest match wins; ties go to the first, so the
precision/recall mix-up is named before less likely explanations)."""


def likely_mistakes(exercise: Exercise, question: Question, expected: Breakdown | None = None,
                    tolerance: float | None = None) -> list[MistakeMatch]:
    """Every known mistake that applies to the question and changes its answer by more than the tolerance."""
    expected = expected or explain_question(exercise, question)
    tolerance = exercise.tolerance if tolerance is None else tolerance
    matches = []
    for mistake in MISTAKES:
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
