"""The types of an exercise: items, queries with judgments, systems with rankings, questions.

An :class:`Exercise` is immutable and hashable, so the app can cache on it and a variant can
never change the exercise it came from. Objects of these types are normally built by
:func:`irlab.exercises.format.exercise_file.exercise_from_dict`, which validates everything; building them
by hand skips the checks (run :func:`irlab.exercises.format.exercise_file.validate_exercise` afterwards).

>>> from irlab.data.judgments import Judgments
>>> ex = Exercise(title="Tiny", items=(ExerciseItem("a", "Doc A"), ExerciseItem("b", "Doc B")),
...               queries=(ExerciseQuery("q", Judgments({"b": 1}, scale="binary")),),
...               systems=(ExerciseSystem("s", FrozenMapping({"q": ("a", "b")})),),
...               questions=(Question("rr", "RR", "q", "s"),))
>>> ex.ranking("s", "q"), ex.question("rr").parsed.family, ex.question_queries(ex.question("rr"))
(('a', 'b'), 'RR', ('q',))
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

from irlab.data.judgments import Judgments
from irlab.errors import ValidationError
from irlab.metrics.measure_names import parse_measure
from irlab.metrics.registry import Measure

SCHEMA_VERSION = 1
"""The exercise format version this code reads and writes."""

DEFAULT_TOLERANCE = 0.005
"""An answer within this absolute distance of the expected value is correct (two decimals)."""

MEAN = "mean"
"""The ``query`` of a question that asks for the mean over queries (so no query may be called this)."""

V = TypeVar("V")


class FrozenMapping(Mapping[str, V], Generic[V]):
    """A read-only, hashable mapping (keeps insertion order), so exercises can be cached.

    >>> m = FrozenMapping({"q1": ("a",)})
    >>> m["q1"], len(m), m == FrozenMapping({"q1": ("a",)}), hash(m) == hash(FrozenMapping({"q1": ("a",)}))
    (('a',), 1, True, True)
    """

    __slots__ = ("_data",)

    def __init__(self, data: Mapping[str, V] | None = None) -> None:
        self._data = dict(data or {})

    def __getitem__(self, key: str) -> V:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __hash__(self) -> int:
        return hash(tuple(self._data.items()))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Mapping):
            return dict(self._data) == dict(other)
        return NotImplemented

    def __repr__(self) -> str:
        return f"FrozenMapping({self._data!r})"

    def __getstate__(self) -> dict[str, V]:
        return self._data

    def __setstate__(self, state: dict[str, V]) -> None:
        self._data = state


@dataclass(frozen=True)
class ExerciseItem:
    """Something a system can return: an id, a label (plain text), optionally a built-in picture key."""

    id: str
    label: str
    picture: str | None = None


@dataclass(frozen=True)
class ExerciseQuery:
    """A query: its id, optional text, and its judgments (binary or graded; unjudged items are 0)."""

    id: str
    judgments: Judgments
    text: str = ""

    @property
    def scale(self) -> str:
        """``"binary"`` or ``"graded"``."""
        return self.judgments.scale

    @property
    def max_grade(self) -> int:
        """The top of the grade scale (1 for binary judgments)."""
        return self.judgments.max_grade

    @property
    def display_text(self) -> str:
        """The query's text, or its id when it has none."""
        return self.text or self.id


@dataclass(frozen=True)
class ExerciseSystem:
    """A system: its id, optional name, and its ranking (best first) for every query."""

    id: str
    rankings: FrozenMapping[tuple[str, ...]]
    name: str = ""


@dataclass(frozen=True)
class Question:
    """One question: a measure (irlab's spelling) of one system on one query, or the mean over queries.

    ``query`` is a query id or :data:`MEAN`; ``mean_over`` (only with :data:`MEAN`) names the
    queries averaged, None meaning every query of the exercise.
    """

    id: str
    measure: str
    query: str
    system: str
    prompt: str = ""
    mean_over: tuple[str, ...] | None = None

    @property
    def parsed(self) -> Measure:
        """The measure as a :class:`irlab.metrics.registry.Measure`."""
        return parse_measure(self.measure)

    @property
    def is_mean(self) -> bool:
        """Whether the question asks for the mean over several queries."""
        return self.query == MEAN


@dataclass(frozen=True)
class Exercise:
    """A whole exercise. Look-ups by id raise :class:`ValidationError` naming the valid ids."""

    title: str
    items: tuple[ExerciseItem, ...]
    queries: tuple[ExerciseQuery, ...]
    systems: tuple[ExerciseSystem, ...]
    questions: tuple[Question, ...]
    instructions: str = ""
    seed: int | None = None
    tolerance: float = DEFAULT_TOLERANCE
    schema_version: int = SCHEMA_VERSION

    def item(self, item_id: str) -> ExerciseItem:
        """The item with ``item_id``."""
        return _find(self.items, item_id, "item")

    def query(self, query_id: str) -> ExerciseQuery:
        """The query with ``query_id``."""
        return _find(self.queries, query_id, "query")

    def system(self, system_id: str) -> ExerciseSystem:
        """The system with ``system_id``."""
        return _find(self.systems, system_id, "system")

    def question(self, question_id: str) -> Question:
        """The question with ``question_id``."""
        return _find(self.questions, question_id, "question")

    def ranking(self, system_id: str, query_id: str) -> tuple[str, ...]:
        """The ranking ``system_id`` returned for ``query_id``."""
        self.query(query_id)
        return self.system(system_id).rankings[query_id]

    def question_queries(self, question: Question) -> tuple[str, ...]:
        """The query ids a question is about: its query, or the queries its mean is over."""
        if not question.is_mean:
            return (question.query,)
        return question.mean_over if question.mean_over is not None else tuple(q.id for q in self.queries)

    def labels(self) -> dict[str, str]:
        """Item id -> label."""
        return {item.id: item.label for item in self.items}


def _find(entries: tuple, wanted: str, kind: str):
    for entry in entries:
        if entry.id == wanted:
            return entry
    known = ", ".join(repr(entry.id) for entry in entries[:20]) + (", ..." if len(entries) > 20 else "")
    raise ValidationError(f"unknown {kind} {wanted!r}; the {kind} ids are: {known}")
