"""The leaderboard: each student's best run with its interval and its significance against the baseline.

Built on the results table (:func:`irlab.runs.table.results_table`): the bootstrap interval of each
mean, and each run compared with the baseline by the task's paired test, corrected (Holm) over the
family of all students' comparisons on a measure. A results table takes at most
:data:`irlab.runs.table.MAX_RUNS` runs, so a larger class is computed in groups (each with the
baseline), uncorrected, and the p-values of all groups are then corrected together
(:func:`irlab.runs.significance.adjust`): the same numbers as one table.

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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from irlab.runs.significance import adjust
from irlab.runs.table import ALPHA, MAX_RUNS, results_table


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
                baseline: str | None = None, test: str = "t", correction: str = "holm") -> Leaderboard:
    """The leaderboard of ``values[entry][measure]`` (per-topic values in the order of ``topics``; see the module)."""
    entries = list(values)
    if not entries:
        return Leaderboard((), tuple(measures), baseline, test, len(topics))
    others = [e for e in entries if e != baseline]
    group = MAX_RUNS - 1 if baseline is not None else MAX_RUNS
    means: dict[str, dict[str, float]] = {e: {} for e in entries}
    intervals: dict[str, dict[str, tuple[float, float]]] = {e: {} for e in entries}
    raw: dict[str, list[tuple[str, float, float]]] = {m: [] for m in measures}
    for start in range(0, max(1, len(others)), group):
        chunk = others[start:start + group]
        names = ([baseline] if baseline is not None else []) + chunk
        if not names:
            continue
        table = results_table({name: {m: values[name][m] for m in measures} for name in names}, topics,
                              baselines=[baseline] if baseline is not None else None, test=test, correction="none")
        for name in names:
            for m in measures:
                cell = table.cell(name, m)
                means[name][m], intervals[name][m] = cell.mean, (cell.ci_low, cell.ci_high)
        if baseline is not None:
            for name in chunk:
                for m in measures:
                    pair = table.comparison(name, baseline, m)
                    raw[m].append((name, pair.mean_difference, pair.p))
    versus: dict[str, dict[str, Versus]] = {e: {} for e in entries}
    for m, found in raw.items():
        adjusted = adjust([p for _, _, p in found], correction)
        for (name, difference, p), q in zip(found, adjusted):
            significant = not math.isnan(q) and q < ALPHA and abs(difference) > 1e-12
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
