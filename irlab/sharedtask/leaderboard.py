"""The leaderboard: each student's best run with its interval and its significance against the baseline.

The numbers of the results table (:func:`irlab.runs.table.results_table`), from the same functions of
:mod:`irlab.runs.significance`: the 95% bootstrap interval of each mean (seeded), and each run compared
with the baseline by the task's paired test, corrected (Holm) over the family of all students'
comparisons on a measure (a test checks them against the results table). Computed here rather than by
building the table because a class changes one run at a time: the caller may give ``interval`` and
``p_value`` functions that remember what a run's fixed per-topic values gave before (the task store
does), so a new submission costs its own intervals and tests, not the class's (with 1,000 topics a
bootstrap interval takes about 0.1 s: 800 of them for 200 students and 4 measures), and a class larger
than a results table's :data:`irlab.runs.table.MAX_RUNS` runs needs no special case.

A student's best run is their scored submission with the highest mean of the primary measure (the
earlier one on a tie); the leaderboard is ordered by it, best first.

>>> import numpy as np
>>> board = leaderboard({"#1": {"AP": np.array([0.2, 0.4, 0.3, 0.5])}, "#2": {"AP": np.array([0.1, 0.2, 0.2, 0.3])}},
...                     ["1", "2", "3", "4"], ["AP"], baseline="#2")
>>> [(row.entry, row.place, round(row.means["AP"], 4)) for row in board.rows]
[('#1', 1, 0.35), ('#2', 2, 0.2)]
>>> board.rows[0].versus["AP"].better, board.rows[0].versus["AP"].significant
(True, True)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from irlab.runs.significance import TIE, adjust, bootstrap_interval, paired_p
from irlab.runs.table import ALPHA


@dataclass(frozen=True)
class Versus:
    """A run against the baseline on one measure: the mean difference, the p-value before and after the
    correction, significant or not, and which way."""

    difference: float
    p: float
    p_adjusted: float
    significant: bool

    @property
    def better(self) -> bool:
        return self.difference > 0

    @property
    def symbol(self) -> str:
        """▲ significantly better, ▼ significantly worse, = no significant difference."""
        return ("▲" if self.better else "▼") if self.significant else "="


@dataclass(frozen=True)
class Row:
    """One leaderboard entry: its place, each measure's mean and 95% interval, and the comparison with the
    baseline (absent for the baseline itself, or without one)."""

    entry: str
    place: int
    means: dict[str, float]
    intervals: dict[str, tuple[float, float]]
    versus: dict[str, Versus]


@dataclass(frozen=True)
class Leaderboard:
    """The rows, best first by the primary measure, and the settings they were computed with."""

    rows: tuple[Row, ...]
    measures: tuple[str, ...]
    baseline: str | None
    test: str
    topics: int

    def row(self, entry: str) -> Row | None:
        return next((row for row in self.rows if row.entry == entry), None)


def leaderboard(values: Mapping[str, Mapping[str, np.ndarray]], topics: Sequence[str], measures: Sequence[str], *,
                baseline: str | None = None, test: str = "t", correction: str = "holm",
                interval: Callable[[str, str], tuple[float, float]] | None = None,
                p_value: Callable[[str, str], float] | None = None) -> Leaderboard:
    """The leaderboard of ``values[entry][measure]`` (per-topic values in the order of ``topics``; see the module).

    ``interval(entry, measure)`` and ``p_value(entry, measure)`` (against the baseline, uncorrected) default to
    computing them; a caller may remember them per run.
    """
    entries = list(values)
    if not entries:
        return Leaderboard((), tuple(measures), baseline, test, len(topics))
    interval = interval or (lambda e, m: bootstrap_interval(values[e][m]))
    p_value = p_value or (lambda e, m: paired_p(np.asarray(values[e][m]) - np.asarray(values[baseline][m]), test))
    means = {e: {m: float(np.mean(values[e][m])) if len(topics) else math.nan for m in measures} for e in entries}
    intervals = {e: {m: interval(e, m) for m in measures} for e in entries}
    raw: dict[str, list[tuple[str, float, float]]] = {m: [] for m in measures}
    if baseline is not None:
        for name in (e for e in entries if e != baseline):
            for m in measures:
                difference = float(np.mean(np.asarray(values[name][m]) - np.asarray(values[baseline][m])))
                raw[m].append((name, difference, p_value(name, m)))
    versus: dict[str, dict[str, Versus]] = {e: {} for e in entries}
    for m, found in raw.items():
        adjusted = adjust([p for _, _, p in found], correction)
        for (name, difference, p), q in zip(found, adjusted):
            significant = not math.isnan(q) and q < ALPHA and abs(difference) > TIE
            versus[name][m] = Versus(difference, p, q, significant)
    primary = measures[0]
    order = sorted(entries, key=lambda e: (-_finite(means[e][primary]), entries.index(e)))
    rows, place, previous = [], 0, None
    for i, e in enumerate(order, start=1):
        if previous is None or means[e][primary] != previous:  # equal means share a place
            place = i
        previous = means[e][primary]
        rows.append(Row(e, place, means[e], intervals[e], versus[e]))
    return Leaderboard(tuple(rows), tuple(measures), baseline, test, len(topics))


def _finite(value: float) -> float:
    return -math.inf if math.isnan(value) else value
