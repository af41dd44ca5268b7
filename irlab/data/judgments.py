"""Relevance judgments: which items are relevant to a query, and how much.

A judgment maps an item id to a grade. Binary judgments use grades 0 (not relevant) and
1 (relevant); graded judgments use a scale such as 0-4. Items without a judgment count as
grade 0 (not relevant), as in trec_eval.

Conventions (docs/architecture.md, "Metric conventions"):

* **binary from graded**: an item is relevant when its grade is at least the *relevance
  level*, 1 by default (trec_eval ``-l``). So with grades 0-4, grades 1-4 are relevant.
* trec_eval qrels may hold negative grades (``-1``: in the pool but not judged). Metric
  functions accept them and treat them as not relevant with gain 0; :class:`Judgments`,
  used for scenarios and exercises, only accepts grades >= 0.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from numbers import Integral

from irlab.errors import ValidationError

DEFAULT_RELEVANCE_LEVEL = 1
"""An item is relevant when its grade is at least this (trec_eval's default ``-l1``)."""


def is_relevant(grade: int, relevance_level: int = DEFAULT_RELEVANCE_LEVEL) -> bool:
    """Whether an item with ``grade`` counts as relevant: :math:`grade \\ge level`.

    >>> is_relevant(0), is_relevant(1), is_relevant(3, relevance_level=4)
    (False, True, False)
    """
    return grade >= relevance_level


def grade_of(judgments: Mapping[str, int], item: str) -> int:
    """The grade of ``item``; unjudged items have grade 0.

    >>> grade_of({"a": 3}, "a"), grade_of({"a": 3}, "b")
    (3, 0)
    """
    return judgments.get(item, 0)


def num_relevant(judgments: Mapping[str, int], relevance_level: int = DEFAULT_RELEVANCE_LEVEL) -> int:
    """R, the number of judged items that are relevant (retrieved or not).

    >>> num_relevant({"a": 0, "b": 2, "c": 1}), num_relevant({"a": 0, "b": 2, "c": 1}, relevance_level=2)
    (2, 1)
    """
    return sum(1 for grade in judgments.values() if is_relevant(grade, relevance_level))


def check_relevance_level(relevance_level: int) -> int:
    """Return ``relevance_level`` if it is a whole number >= 1, else raise ValidationError.

    >>> check_relevance_level(2)
    2
    """
    if isinstance(relevance_level, bool) or not isinstance(relevance_level, Integral) or relevance_level < 1:
        raise ValidationError(f"the relevance level must be a whole number of at least 1, got {relevance_level!r}")
    return int(relevance_level)


def check_grade(grade: object, *, path: str | None = None, allow_negative: bool = False) -> int:
    """Return ``grade`` as an int, or raise ValidationError naming what is wrong with it.

    Grades are whole numbers, >= 0 unless ``allow_negative`` (trec_eval's -1 for "unjudged").

    >>> check_grade(3)
    3
    >>> check_grade(1.5)
    Traceback (most recent call last):
    ...
    irlab.errors.ValidationError: a grade must be a whole number, got 1.5
    """
    if isinstance(grade, bool) or not isinstance(grade, Integral):
        if isinstance(grade, float) and grade.is_integer():
            grade = int(grade)
        else:
            raise ValidationError(f"a grade must be a whole number, got {grade!r}", path=path)
    if grade < 0 and not allow_negative:
        raise ValidationError(f"a grade cannot be negative, got {grade}", path=path)
    return int(grade)


def check_item_id(item: object, *, path: str | None = None) -> str:
    """Return ``item`` if it is a non-empty id string without surrounding spaces.

    >>> check_item_id("7")
    '7'
    """
    if not isinstance(item, str) or not item or item != item.strip():
        raise ValidationError(f"an item id must be a non-empty text without surrounding spaces, got {item!r}",
                              path=path)
    return item


class Judgments(Mapping[str, int]):
    """The judgments of one query: an immutable mapping from item id to grade.

    ``scale`` is ``"binary"`` (grades 0 and 1 only) or ``"graded"`` (grades 0..``max_grade``).
    Construction validates every id and grade and raises :class:`ValidationError` naming the
    offending item.

    >>> j = Judgments({"2": 1, "4": 1, "1": 0}, scale="binary")
    >>> sorted(j.relevant_items()), j["1"], j.grade("9"), len(j)
    (['2', '4'], 0, 0, 3)
    >>> Judgments({"2": 5}, scale="graded", max_grade=4)
    Traceback (most recent call last):
    ...
    irlab.errors.ValidationError: judgments['2']: grade 5 is above the top of the scale (4)
    """

    __slots__ = ("_grades", "scale", "max_grade")

    def __init__(self, grades: Mapping[str, int] | Iterable[tuple[str, int]], *, scale: str = "graded",
                 max_grade: int | None = None) -> None:
        if scale not in ("binary", "graded"):
            raise ValidationError(f"scale must be 'binary' or 'graded', got {scale!r}")
        pairs = grades.items() if isinstance(grades, Mapping) else grades
        checked: dict[str, int] = {}
        for item, grade in pairs:
            path = f"judgments[{item!r}]"
            item = check_item_id(item, path=path)
            if item in checked:
                raise ValidationError("item is judged twice", path=path)
            checked[item] = check_grade(grade, path=path)
        top = 1 if scale == "binary" else max_grade
        if top is not None:
            for item, grade in checked.items():
                if grade > top:
                    what = "binary judgments use grades 0 and 1 only" if scale == "binary" else None
                    raise ValidationError(what or f"grade {grade} is above the top of the scale ({top})",
                                          path=f"judgments[{item!r}]")
        self._grades = checked
        self.scale = scale
        self.max_grade = top if top is not None else max(checked.values(), default=0)

    def __getitem__(self, item: str) -> int:
        return self._grades[item]

    def __iter__(self) -> Iterator[str]:
        return iter(self._grades)

    def __len__(self) -> int:
        return len(self._grades)

    def __repr__(self) -> str:
        return f"Judgments({self._grades!r}, scale={self.scale!r}, max_grade={self.max_grade!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Judgments):
            return (self._grades, self.scale, self.max_grade) == (other._grades, other.scale, other.max_grade)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((tuple(sorted(self._grades.items())), self.scale, self.max_grade))

    def grade(self, item: str) -> int:
        """The grade of ``item`` (0 when unjudged)."""
        return self._grades.get(item, 0)

    def relevant_items(self, relevance_level: int = DEFAULT_RELEVANCE_LEVEL) -> frozenset[str]:
        """The ids of the items whose grade is at least ``relevance_level``."""
        return frozenset(item for item, grade in self._grades.items() if is_relevant(grade, relevance_level))

    def with_grade(self, item: str, grade: int) -> Judgments:
        """A copy with ``item`` set to ``grade`` (validated against the scale)."""
        return Judgments({**self._grades, item: grade}, scale=self.scale, max_grade=self.max_grade)
