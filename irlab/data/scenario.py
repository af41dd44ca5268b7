"""Scenarios: items, queries with their judgments, and each query's default ranking.

A scenario is data: the cats-in-boxes walkthrough is one, an exercise is another. Building
one validates it and raises :class:`irlab.errors.ValidationError` naming the problem (an
unknown id, an id twice in a ranking, a bad grade, an empty ranking, a query without
judgments), so the app never works on inconsistent data.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from irlab.data.judgments import Judgments, check_item_id
from irlab.data.rankings import check_k_in_range, check_ranking
from irlab.errors import ValidationError


@dataclass(frozen=True)
class Item:
    """Something a system can return: a stable id, a short title, a description and alt text.

    ``picture`` names a built-in picture (:mod:`irlab.scenarios.art`) or is None.
    """

    id: str
    title: str
    description: str = ""
    alt: str = ""
    picture: str | None = None

    def __post_init__(self) -> None:
        check_item_id(self.id, path="item")
        if not isinstance(self.title, str) or not self.title.strip():
            raise ValidationError("an item needs a title", path=f"item {self.id!r}")


@dataclass(frozen=True)
class Query:
    """A query: its text, its judgments and the ranking a system returned for it.

    ``rubric`` explains the grades of graded judgments (e.g. "4: a white cat in a box, ...").
    """

    id: str
    text: str
    judgments: Judgments
    default_ranking: tuple[str, ...]
    rubric: str = ""

    @property
    def graded(self) -> bool:
        """Whether the judgments are graded (not binary)."""
        return self.judgments.scale == "graded"


@dataclass(frozen=True)
class Scenario:
    """Items and queries that belong together, validated on construction."""

    id: str
    title: str
    items: tuple[Item, ...]
    queries: tuple[Query, ...]
    description: str = ""
    _items_by_id: Mapping[str, Item] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_id: dict[str, Item] = {}
        for item in self.items:
            if item.id in by_id:
                raise ValidationError(f"item id {item.id!r} is used twice", path="items")
            by_id[item.id] = item
        object.__setattr__(self, "_items_by_id", by_id)
        query_ids = set()
        for query in self.queries:
            path = f"query {query.id!r}"
            if query.id in query_ids:
                raise ValidationError("query id is used twice", path=path)
            query_ids.add(query.id)
            if not query.text.strip():
                raise ValidationError("the query has no text", path=path)
            if not len(query.judgments):
                raise ValidationError("the query has no judgments", path=path)
            for item in query.judgments:
                if item not in by_id:
                    raise ValidationError(f"judges unknown item {item!r}", path=path)
            check_ranking(query.default_ranking, known_items=by_id, allow_empty=False, path=f"{path} ranking")

    def item(self, item_id: str) -> Item:
        """The item with ``item_id`` (ValidationError if there is none)."""
        try:
            return self._items_by_id[item_id]
        except KeyError:
            raise ValidationError(f"unknown item {item_id!r}") from None

    def query(self, query_id: str) -> Query:
        """The query with ``query_id`` (ValidationError if there is none)."""
        for query in self.queries:
            if query.id == query_id:
                return query
        raise ValidationError(f"unknown query {query_id!r}; the queries are: "
                              + ", ".join(repr(q.id) for q in self.queries))

    @property
    def item_ids(self) -> tuple[str, ...]:
        """Every item id, in the scenario's order."""
        return tuple(item.id for item in self.items)

    def check_ranking(self, ranking: Sequence[str], *, complete: bool = False) -> tuple[str, ...]:
        """Validate a ranking of this scenario's items; ``complete`` requires every item once."""
        checked = check_ranking(ranking, known_items=self._items_by_id, allow_empty=False)
        if complete and len(checked) != len(self.items):
            missing = [item for item in self.item_ids if item not in checked]
            raise ValidationError(f"the ranking must hold all {len(self.items)} items; missing: "
                                  + ", ".join(repr(m) for m in missing))
        return checked

    def check_k(self, k: object) -> int:
        """Validate a cutoff K for a ranking of all this scenario's items (1..N)."""
        return check_k_in_range(k, len(self.items))

    def labels(self) -> dict[str, str]:
        """Item id -> title, for readable breakdown rows."""
        return {item.id: item.title for item in self.items}
