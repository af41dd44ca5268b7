"""Curves: an @K metric for K = 1..N in one call, for charts and tables.

>>> from irlab.metrics.precision_recall import explain_recall_at_k
>>> c = curve(explain_recall_at_k, list("12345678"), {"2": 1, "4": 1, "5": 1, "7": 1})
>>> c.ks, [round(v, 2) for v in c.values]
((1, 2, 3, 4, 5, 6, 7, 8), [0.0, 0.25, 0.25, 0.5, 0.75, 0.75, 1.0, 1.0])
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from irlab.data.rankings import check_cutoff
from irlab.explain.breakdown import Breakdown


@dataclass(frozen=True)
class Curve:
    """One metric at several cutoffs: ``breakdowns[i]`` explains the value at ``ks[i]``."""

    ks: tuple[int, ...]
    breakdowns: tuple[Breakdown, ...]

    @property
    def values(self) -> list[float]:
        """The metric's value at each K."""
        return [b.value for b in self.breakdowns]

    def at(self, k: int) -> Breakdown:
        """The breakdown at cutoff ``k``."""
        return self.breakdowns[self.ks.index(k)]


def curve(explain: Callable[..., Breakdown], ranking: Sequence[str], judgments: Mapping[str, int],
          ks: Iterable[int] | None = None, **options: Any) -> Curve:
    """``explain(ranking, judgments, k, **options)`` for every K in ``ks`` (default 1..N).

    ``explain`` is any ``explain_*_at_k`` function; ``options`` are its named variants.
    """
    cutoffs = tuple(check_cutoff(k, allow_none=False) for k in (ks if ks is not None else range(1, len(ranking) + 1)))
    return Curve(cutoffs, tuple(explain(ranking, judgments, k, **options) for k in cutoffs))
