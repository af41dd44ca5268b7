"""Seeded variants: the same exercise with the system rankings perturbed, one per student.

``make_variant(exercise, seed)`` is a pure function of the exercise's content and the seed.
It keeps the items, queries, judgments, questions, tolerance and every ranking's items (so
every K stays valid) and perturbs the order of each system's ranking of each query with
``random.Random(f"{content hash}:{seed}")`` (never the global random generator): every item
moves a few places at most (:func:`jittered`), so a good ranking stays about as good and the
answers stay in the same range. Judgments are kept: they describe what the items are (a dog
in a box stays a dog in a box).

Difficulty is kept too: a draw is accepted only when no question whose answer was not 0
becomes 0 (no relevant item in the top K leaves nothing to compute), and when the variant
differs from the original in at least one ranking. After :data:`MAX_DRAWS` refused draws the
last draw is used.

>>> from irlab.exercises.format.examples import builtin_exercise
>>> ex = builtin_exercise("ndcg-exercise")
>>> v = make_variant(ex, 7)
>>> v.seed, v == make_variant(ex, 7), v.system("system").rankings["q1"] != ex.system("system").rankings["q1"]
(7, True, True)
>>> sorted(v.system("system").rankings["q1"], key=int) == sorted(ex.system("system").rankings["q1"], key=int)
True
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import replace

from irlab.errors import ValidationError
from irlab.exercises.format.exercise_file import compact_json
from irlab.exercises.model import Exercise, ExerciseSystem, FrozenMapping
from irlab.exercises.questions.explain import explain_question

MAX_DRAWS = 200
"""How many shuffles are tried before the last one is used regardless of difficulty."""


def content_hash(exercise: Exercise) -> str:
    """A SHA-256 of the exercise's canonical JSON, without its seed (so a variant's origin is its content).

    >>> from irlab.exercises.format.examples import builtin_exercise
    >>> len(content_hash(builtin_exercise("cats-in-boxes")))
    64
    """
    return hashlib.sha256(compact_json(replace(exercise, seed=None)).encode("utf-8")).hexdigest()


def check_seed(seed: object) -> int:
    """A seed must be a whole number >= 0.

    >>> check_seed(3)
    3
    >>> check_seed(-1)
    Traceback (most recent call last):
    ...
    irlab.errors.ValidationError: a variant seed must be a whole number >= 0, got -1
    """
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise ValidationError(f"a variant seed must be a whole number >= 0, got {seed!r}")
    return seed


def make_variant(exercise: Exercise, seed: int) -> Exercise:
    """The variant of ``exercise`` for ``seed`` (see the module docstring); its ``seed`` field is ``seed``."""
    seed = check_seed(seed)
    rng = random.Random(f"{content_hash(exercise)}:{seed}")
    zero_before = _zero_questions(exercise)
    candidate = exercise
    for _ in range(MAX_DRAWS):
        candidate = replace(exercise, seed=seed, systems=tuple(_shuffled(system, rng) for system in exercise.systems))
        if _rankings_differ(candidate, exercise) and _zero_questions(candidate) <= zero_before:
            break
    return candidate


def jittered(ranking: tuple[str, ...], rng: random.Random) -> tuple[str, ...]:
    """``ranking`` re-sorted by rank plus uniform noise in [0, max(2, N/2)): items move a few places.

    So a variant stays about as good a ranking as the original (a system that put relevant
    items near the top still does), while the exact order, and so every answer, changes.

    >>> jittered(("a",), random.Random(1)), sorted(jittered(tuple("abcdefgh"), random.Random(1)))
    (('a',), ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'])
    """
    spread = max(2.0, len(ranking) / 2)
    keys = {item: rank + rng.uniform(0, spread) for rank, item in enumerate(ranking)}
    return tuple(sorted(ranking, key=keys.__getitem__))


def _shuffled(system: ExerciseSystem, rng: random.Random) -> ExerciseSystem:
    rankings = {query: jittered(ranking, rng) for query, ranking in system.rankings.items()}
    return replace(system, rankings=FrozenMapping(rankings))


def _rankings_differ(candidate: Exercise, original: Exercise) -> bool:
    if all(len(r) < 2 for s in original.systems for r in s.rankings.values()):
        return True  # nothing can be shuffled; any draw is the only variant there is
    return any(a.rankings != b.rankings for a, b in zip(candidate.systems, original.systems))


def _zero_questions(exercise: Exercise) -> set[str]:
    """The questions whose answer is 0."""
    return {question.id for question in exercise.questions if abs(explain_question(exercise, question).value) < 1e-12}
