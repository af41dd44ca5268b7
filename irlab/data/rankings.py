"""Rankings: ordered item ids, how runs with scores become rankings, and the ideal ranking.

A ranking is a sequence of distinct item ids, best first; rank ``k`` (1-based) holds
``ranking[k - 1]``. Conventions (docs/architecture.md, "Metric conventions"):

* **ties in scores**: when a run gives scores, items are ranked by score descending, then by
  item id descending in string order, exactly as trec_eval does (it ignores any rank column).
* **cutoff K**: a metric at K looks at ranks 1..K. K may exceed the ranking's length
  (nothing more was retrieved); K must be a whole number >= 1.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from numbers import Integral, Real

from irlab.data.judgments import check_item_id, grade_of
from irlab.errors import ValidationError


def check_ranking(ranking: Iterable[str], *, known_items: Collection[str] | None = None,
                  allow_empty: bool = True, path: str | None = None) -> tuple[str, ...]:
    """Return ``ranking`` as a tuple after checking it, else raise ValidationError.

    Checks: every id is a non-empty string, no id appears twice, every id is in
    ``known_items`` (when given), and the ranking is not empty (unless ``allow_empty``).

    >>> check_ranking(["2", "1"])
    ('2', '1')
    >>> check_ranking(["1", "2", "1"])
    Traceback (most recent call last):
    ...
    irlab.errors.ValidationError: item '1' appears twice in the ranking (ranks 1 and 3)
    >>> check_ranking(["1", "9"], known_items={"1", "2"})
    Traceback (most recent call last):
    ...
    irlab.errors.ValidationError: unknown item '9' at rank 2
    """
    if isinstance(ranking, (str, bytes)):
        raise ValidationError(f"a ranking must be a list of item ids, got the text {ranking!r}", path=path)
    items = tuple(ranking)
    if not items and not allow_empty:
        raise ValidationError("the ranking is empty", path=path)
    first_rank: dict[str, int] = {}
    for rank, item in enumerate(items, start=1):
        check_item_id(item, path=path)
        if item in first_rank:
            raise ValidationError(f"item {item!r} appears twice in the ranking (ranks {first_rank[item]} and {rank})",
                                  path=path)
        first_rank[item] = rank
        if known_items is not None and item not in known_items:
            raise ValidationError(f"unknown item {item!r} at rank {rank}", path=path)
    return items


def check_cutoff(k: int | None, *, allow_none: bool = True) -> int | None:
    """Return the cutoff ``k`` if it is a whole number >= 1 (or None: no cutoff).

    >>> check_cutoff(5), check_cutoff(None)
    (5, None)
    >>> check_cutoff(0)
    Traceback (most recent call last):
    ...
    irlab.errors.ValidationError: K must be a whole number of at least 1, got 0
    """
    if k is None and allow_none:
        return None
    if isinstance(k, bool) or not isinstance(k, Integral) or k < 1:
        raise ValidationError(f"K must be a whole number of at least 1, got {k!r}")
    return int(k)


def check_k_in_range(k: object, n: int) -> int:
    """Return ``k`` if it is a whole number in 1..``n`` (the number of ranked items).

    Used by scenarios and the app, where K counts how many of the N items are returned.

    >>> check_k_in_range(3, 8)
    3
    >>> check_k_in_range(9, 8)
    Traceback (most recent call last):
    ...
    irlab.errors.ValidationError: K must be between 1 and 8, got 9
    """
    if isinstance(k, bool) or not isinstance(k, Integral) or not 1 <= k <= n:
        raise ValidationError(f"K must be between 1 and {n}, got {k!r}")
    return int(k)


def rank_by_score(scores: Mapping[str, float]) -> list[str]:
    """Item ids by score descending, ties broken by item id descending (trec_eval's order).

    .. math:: d_i \\prec d_j \\iff s_i > s_j \\lor (s_i = s_j \\land id_i > id_j)

    >>> rank_by_score({"a": 1.0, "b": 2.0, "c": 1.0, "d": 0.5})
    ['b', 'c', 'a', 'd']
    """
    for item, score in scores.items():
        check_item_id(item)
        if isinstance(score, bool) or not isinstance(score, Real) or math.isnan(score):
            raise ValidationError(f"the score of item {item!r} must be a number, got {score!r}")
    return [item for item, _ in sorted(scores.items(), key=lambda pair: (pair[1], pair[0]), reverse=True)]


def ideal_ranking(judgments: Mapping[str, int], ranking: Sequence[str] = ()) -> list[str]:
    """The items of ``ranking`` and ``judgments``, best grade first: the order IDCG scores.

    Ties between equal grades keep the current ranking's order (then item id), so showing
    the ideal order moves as few tiles as possible.

    >>> ideal_ranking({"1": 0, "2": 4, "3": 1, "4": 3, "5": 4}, ["1", "2", "3", "4", "5"])
    ['2', '5', '4', '3', '1']
    """
    position = {item: index for index, item in enumerate(ranking)}
    items = list(dict.fromkeys([*ranking, *judgments]))
    return sorted(items, key=lambda item: (-grade_of(judgments, item), position.get(item, len(position)), item))
