r"""How a measure family is taught: part of its declaration in the registry.

A family that exercises can teach declares a :class:`Teaching` (``Family.teaching`` in
:mod:`irlab.metrics.registry`), next to its ``explain_*`` and kernel in its own module:

* ``python_name``, ``summary``, ``returns`` and ``body``: the function of a generated notebook
  (:mod:`irlab.exercises.exports.codegen`), its docstring's first sentence and its plain-Python solution
  (``math`` only) for any variant of the family;
* ``mistakes``: the :class:`Mistake` students make with this family (Precision@K given for
  Recall@K, DCG given for NDCG, ...), tried before the mistakes of a convention
  (:data:`CONVENTION_MISTAKES`: a gain, a discount, the ideal ranking, the cut-off), which apply to
  every family that takes the parameter;
* ``quiz_k``: whether the walkthrough's quiz asks it, and with K (True) or without (False);
* ``examples``: measure names covering every variant, which a test turns into one notebook and runs.

A mistake is the question's measure computed another way (:meth:`Mistake.mistaken_measure`): a
named variant changed (:mod:`irlab.metrics.conventions`), another family, or another cut-off, so a
student who made it sees the full breakdown of what they computed. The pieces of solution code
several families share (a gain, a discount, the ideal gains) are here too.

>>> from irlab.metrics.measure_names import parse_measure
>>> len([m.name for m in CONVENTION_MISTAKES if m.mistaken_measure(parse_measure("nDCG@5"))])
7
>>> [m.name for m in CONVENTION_MISTAKES if m.mistaken_measure(parse_measure("RR@3"))]
['cutoff-ignored', 'cutoff-one-more', 'cutoff-one-less']
>>> str(OFF_BY_ONE_MORE.mistaken_measure(parse_measure("P@5")))
'P@6'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

Measure = Any
"""A parsed measure (:class:`irlab.metrics.registry.Measure`; the registry imports this module, so it is not
imported here): a dataclass with ``family``, ``cutoff``, ``options``, ``relevance_level`` and ``definition``."""


@dataclass(frozen=True)
class Mistake:
    """A named mistake: how to compute the measure the mistaken way, and what it means in words.

    ``alter`` gives the mistaken measure, or None when the mistake cannot apply to a measure;
    ``top_k_only`` computes it on each ranking cut at K (what "retrieved" means at cut-off K).
    """

    name: str
    title: str
    explanation: str
    alter: Callable[[Measure], Measure | None]
    top_k_only: bool = False

    def mistaken_measure(self, measure: Measure) -> Measure | None:
        """The measure computed the mistaken way, or None when the mistake cannot apply to it."""
        return self.alter(measure)


@dataclass(frozen=True)
class Teaching:
    """How exercises teach a family (see the module's docstring)."""

    python_name: str
    summary: str | Callable[[Measure], str]
    """The docstring's first sentence (``Computes Precision@k: ...``), or a function of the measure that says it."""
    returns: str
    body: Callable[[Measure, int], str]
    """The solution's body for a measure (its options set) and its relevance level."""
    mistakes: tuple[Mistake, ...] = ()
    quiz_k: bool | None = None
    examples: tuple[str, ...] = ()

    def summary_of(self, measure: Measure) -> str:
        """The docstring's first sentence for ``measure``."""
        return self.summary(measure) if callable(self.summary) else self.summary


# --- measures computed another way ---------------------------------------------------------------------------------

def with_options(measure: Measure, **options: object) -> Measure:
    """``measure`` with ``options`` set."""
    return replace(measure, options={**measure.options, **options})


def takes(measure: Measure, param: str) -> bool:
    """Whether the measure's family takes ``param`` (the registry says)."""
    return param in measure.definition.param_names


def _idcg_from_retrieved(m: Measure) -> Measure | None:
    """Ideal ranking sorted from the ranked items only (scikit-learn, torchmetrics)."""
    if takes(m, "ideal") and m.options.get("ideal", "judged") == "judged":
        return with_options(m, ideal="retrieved")
    return None


def _idcg_from_top_k(m: Measure) -> Measure | None:
    """As :func:`_idcg_from_retrieved`, for measures with a cut-off (the ranking is cut at K)."""
    return _idcg_from_retrieved(m) if m.cutoff is not None else None


def _exponential_gain(m: Measure) -> Measure | None:
    if takes(m, "gain") and m.options.get("gain", "linear") == "linear":
        return with_options(m, gain="exponential")
    return None


def _linear_gain(m: Measure) -> Measure | None:
    if takes(m, "gain") and m.options.get("gain") == "exponential":
        return with_options(m, gain="linear")
    return None


def _log2_discount(m: Measure) -> Measure | None:
    if takes(m, "discount") and m.options.get("discount") == "jarvelin-kekalainen":
        return with_options(m, discount="log2")
    return None


def _jk_discount(m: Measure) -> Measure | None:
    if takes(m, "discount") and m.options.get("discount", "log2") == "log2":
        return with_options(m, discount="jarvelin-kekalainen")
    return None


def _cutoff_ignored(m: Measure) -> Measure | None:
    """The same measure over the whole ranking (families whose cut-off is optional)."""
    if m.definition.cutoff == "optional" and m.cutoff is not None:
        return replace(m, cutoff=None)
    return None


def _one_more(m: Measure) -> Measure | None:
    """K + 1 ranks counted (``ranking[:k + 1]``, or ranks counted from 0 to K)."""
    if m.definition.cutoff_kind == "rank" and isinstance(m.cutoff, int):
        return replace(m, cutoff=m.cutoff + 1)
    return None


def _one_less(m: Measure) -> Measure | None:
    """K - 1 ranks counted (``range(1, k)``)."""
    if m.definition.cutoff_kind == "rank" and isinstance(m.cutoff, int) and m.cutoff > 1:
        return replace(m, cutoff=m.cutoff - 1)
    return None


IDCG_FROM_RETRIEVED = Mistake(
    "idcg-from-retrieved", "IDCG from the retrieved items only",
    "You built the ideal ranking by re-sorting the top K items the system returned, but IDCG sorts every judged "
    "item of the query, retrieved or not.", _idcg_from_top_k, top_k_only=True)
OFF_BY_ONE_MORE = Mistake(
    "cutoff-one-more", "off-by-one cut-off: K + 1 items",
    "You counted K + 1 items (ranking[:k + 1], or ranks 0 to K), but the cut-off K keeps exactly the top K.",
    _one_more)
OFF_BY_ONE_LESS = Mistake(
    "cutoff-one-less", "off-by-one cut-off: K - 1 items",
    "You counted K - 1 items (range(1, k) stops before K), but the cut-off K keeps exactly the top K.", _one_less)

CONVENTION_MISTAKES: tuple[Mistake, ...] = (
    IDCG_FROM_RETRIEVED,
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
    Mistake("cutoff-ignored", "cutoff ignored",
            "You used the whole ranking, but only the top K items count.", _cutoff_ignored),
    OFF_BY_ONE_MORE,
    OFF_BY_ONE_LESS,
)
"""The mistakes of a convention or a cut-off: each applies to every family that takes the parameter, after the
family's own mistakes (ties go to the earlier)."""


# --- solution code several families share ---------------------------------------------------------------------------

def count_relevant(rel: int) -> str:
    """Python counting the relevant documents of ``ground_truth`` (grade at least ``rel``)."""
    return f"relevant = sum(1 for grade in ground_truth.values() if grade >= {rel})"


def gain_function(measure: Measure) -> str:
    """Python defining ``gain(grade)`` for the measure's gain (linear, exponential, or a gain per grade)."""
    gain = measure.options.get("gain", "linear")
    if gain == "linear":
        return "def gain(grade):\n    return grade  # linear gain: the grade itself"
    if gain == "exponential":
        return "def gain(grade):\n    return 2 ** grade - 1  # exponential gain"
    return f"def gain(grade):\n    return {dict(gain)!r}.get(grade, grade)  # the gain of each grade"


def discount_function(measure: Measure) -> str:
    """Python defining ``discount(rank)`` for the measure's discount."""
    if measure.options.get("discount", "log2") == "jarvelin-kekalainen":
        return ("def discount(rank):\n"
                "    # original Järvelin-Kekäläinen: rank 1 is not discounted, rank i >= 2 is divided by log2(i)\n"
                "    return 1.0 if rank == 1 else math.log2(rank)")
    return "def discount(rank):\n    return math.log2(rank + 1)"


def _zero_has_gain(measure: Measure) -> bool:
    gain = measure.options.get("gain", "linear")
    return isinstance(gain, Mapping) and bool(gain.get(0, 0))


def ideal_gains(measure: Measure) -> str:
    """Python setting ``ideal`` to the gains of the ideal ranking, best first (what IDCG sorts)."""
    if measure.options.get("ideal", "judged") == "retrieved":
        return "ideal = sorted((gain(ground_truth.get(doc, 0)) for doc in ranking), reverse=True)  # ranked documents"
    if _zero_has_gain(measure):  # grade 0 has a gain: unjudged ranked documents count too
        return ("pool = list(dict.fromkeys(list(ranking) + list(ground_truth)))  # every ranked or judged document\n"
                "ideal = sorted((gain(ground_truth.get(doc, 0)) for doc in pool), reverse=True)")
    return "ideal = sorted((gain(grade) for grade in ground_truth.values()), reverse=True)  # every judged document"
