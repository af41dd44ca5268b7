"""A paper's results table: several runs, several measures, baselines, a test, a correction, intervals.

Given each run's per-topic values for each measure (on the same topics), :func:`results_table`
computes what a results table shows, and nothing about how it is drawn:

* each **cell**: the mean over the topics and its 95% bootstrap interval (seeded, so the page,
  the command line and a rerun give the same interval); the best mean of each measure is marked;
* **markers**: for each comparison found significant, ▲ (better) or ▼ (worse) and the letter of
  the run compared with; never colour alone. Every run has a letter (``a``, ``b``, ...);
* **comparisons**: each run against each baseline (default: the first run), or every pair of
  runs (``all_pairs``), by the paired t-test, the Wilcoxon signed-rank test or the paired
  randomisation test, with a correction (Holm, Bonferroni, Benjamini-Hochberg or none) over the
  family of comparisons of each measure; or Tukey's HSD over all runs at once, which needs no
  further correction (:mod:`irlab.runs.significance`);
* **wins / ties / losses** of each run against each run it is compared with (ties: a difference
  below 10^-12);
* the **per-topic values** of every run, for download.

:func:`how_to_read` says in plain words what the table means (the runs page and the command line
show the same text); :mod:`irlab.runs.table_export` writes it as text, Markdown, LaTeX and CSV.

>>> values = {"bm25": {"AP": [0.2, 0.3, 0.1, 0.4, 0.2, 0.3]}, "dense": {"AP": [0.4, 0.5, 0.2, 0.6, 0.3, 0.5]}}
>>> t = results_table(values, ["1", "2", "3", "4", "5", "6"])
>>> t.letters, t.cell("dense", "AP").text, t.cell("dense", "AP").best
({'bm25': 'a', 'dense': 'b'}, '0.4167 ▲a', True)
>>> c = t.comparison("dense", "bm25", "AP")
>>> (c.wins, c.ties, c.losses), round(c.p, 4)
((6, 0, 0), 0.0005)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

import numpy as np

from irlab.errors import ValidationError
from irlab.runs.coverage import Coverage
from irlab.runs.significance import (
    BOOTSTRAP_RESAMPLES,
    CORRECTIONS,
    SEED,
    TESTS,
    TIE,
    Budget,
    adjust,
    bootstrap_interval,
    paired_p,
    tukey_hsd,
)

ALPHA = 0.05
"""The significance level of the markers."""
LOWER_IS_BETTER = frozenset({"Unjudged"})
"""Measure families whose best value is the smallest (the share of unjudged documents)."""
MAX_RUNS = 200
"""More runs than this in one table are refused (the page and the command line say so)."""


@dataclass(frozen=True)
class Marker:
    """One significant comparison shown in a cell: better (▲) or worse (▼) than the run with ``letter``."""

    against: str
    letter: str
    better: bool
    p: float
    p_adjusted: float

    @property
    def symbol(self) -> str:
        return "▲" if self.better else "▼"

    @property
    def text(self) -> str:
        return self.symbol + self.letter


@dataclass(frozen=True)
class Cell:
    """One run's mean on one measure, its 95% interval, whether it is the best, and its markers."""

    run: str
    measure: str
    mean: float
    ci_low: float
    ci_high: float
    best: bool
    markers: tuple[Marker, ...] = ()

    @property
    def text(self) -> str:
        """The mean to 4 decimals and the markers (``0.3120 ▲a``)."""
        marks = " " + "".join(m.text for m in self.markers) if self.markers else ""
        return f"{_number(self.mean)}{marks}"

    @property
    def interval(self) -> str:
        """The interval as ``[0.2901, 0.3344]``."""
        return f"[{_number(self.ci_low)}, {_number(self.ci_high)}]"


@dataclass(frozen=True)
class PairResult:
    """Run ``run`` against run ``against`` on one measure: the difference (run − against), the topic
    counts, the test's p-value before and after the correction, and whether it is significant."""

    measure: str
    run: str
    against: str
    mean_difference: float
    wins: int
    ties: int
    losses: int
    p: float
    p_adjusted: float
    significant: bool

    def record(self, separator: str = "/") -> str:
        """Wins, ties and losses as one cell, e.g. ``43/3/4`` (a page may space the separator out).

        >>> PairResult("ndcg", "B", "A", 0.02, 43, 3, 4, 0.01, 0.02, True).record(), \\
        ...     PairResult("ndcg", "B", "A", 0.02, 43, 3, 4, 0.01, 0.02, True).record(" / ")
        ('43/3/4', '43 / 3 / 4')
        """
        return separator.join(str(count) for count in (self.wins, self.ties, self.losses))


@dataclass(frozen=True)
class ResultsTable:
    """Everything a results table shows (see the module); drawing it is :mod:`irlab.runs.table_export`'s."""

    runs: tuple[str, ...]
    letters: dict[str, str]
    measures: tuple[str, ...]
    baselines: tuple[str, ...]
    queries: tuple[str, ...]
    test: str
    correction: str
    all_pairs: bool
    alpha: float
    resamples: int
    cells: dict[tuple[str, str], Cell]
    pairs: tuple[PairResult, ...]
    per_query: dict[str, dict[str, np.ndarray]] = field(repr=False)
    coverage: dict[str, Coverage] = field(default_factory=dict)
    missed_count: bool = True

    def cell(self, run: str, measure: str) -> Cell:
        return self.cells[(run, measure)]

    def comparison(self, run: str, against: str, measure: str) -> PairResult:
        """The comparison of ``run`` with ``against`` on ``measure`` (either way round)."""
        for pair in self.pairs:
            if pair.measure == measure and (pair.run, pair.against) == (run, against):
                return pair
            if pair.measure == measure and (pair.run, pair.against) == (against, run):
                return PairResult(measure, run, against, -pair.mean_difference, pair.losses, pair.ties, pair.wins,
                                  pair.p, pair.p_adjusted, pair.significant)
        raise KeyError(f"{run} is not compared with {against} on {measure}")

    def comparisons_of(self, run: str, measure: str) -> list[PairResult]:
        """The comparisons ``run``'s cell shows on ``measure``, seen from ``run`` (against baselines: those
        asked for it; with every pair: all of them)."""
        return _pairs_of(list(self.pairs), run, measure, mirrored=self.all_pairs)

    @property
    def compared_with(self) -> tuple[str, ...]:
        """The runs every other run is compared with: the baselines, or every run."""
        return self.runs if self.all_pairs else self.baselines

    @property
    def wtl_groups(self) -> list[tuple[str, list[str]]]:
        """Each run others are compared with, and those others, for the wins / ties / losses tables: against
        baselines, every other run against each baseline; for all pairs, each pair once (every run against the
        runs before it in the table).

        >>> values = {"a": {"AP": [0.1, 0.2, 0.3]}, "b": {"AP": [0.2, 0.2, 0.4]}, "c": {"AP": [0.3, 0.1, 0.5]}}
        >>> results_table(values, ["1", "2", "3"]).wtl_groups
        [('a', ['b', 'c'])]
        >>> results_table(values, ["1", "2", "3"], all_pairs=True).wtl_groups
        [('a', ['b', 'c']), ('b', ['c'])]
        """
        groups = []
        for against in self.compared_with:
            if self.all_pairs:
                others = list(self.runs[self.runs.index(against) + 1:])
            else:
                others = [run for run in self.runs if run != against]
            if others:
                groups.append((against, others))
        return groups

    @property
    def family_size(self) -> int:
        """Comparisons per measure (what the correction corrects for)."""
        return sum(1 for pair in self.pairs if pair.measure == self.measures[0]) if self.measures else 0


def results_table(values: Mapping[str, Mapping[str, Sequence[float]]], queries: Sequence[str], *,
                  baselines: Sequence[str] | None = None, test: str = "t", correction: str = "holm",
                  all_pairs: bool = False, alpha: float = ALPHA, seed: int = SEED,
                  resamples: int = BOOTSTRAP_RESAMPLES, budget: float | None = None,
                  coverage: Mapping[str, Coverage] | None = None, missed_count: bool = True) -> ResultsTable:
    """The results table of ``values[run][measure]`` (per-topic values in the order of ``queries``).

    ``baselines`` default to the first run; ``test`` is ``t``, ``wilcoxon``, ``randomisation`` or
    ``tukey`` (every pair, no further correction); ``budget`` bounds the computing time in seconds
    (None: no bound; :class:`~irlab.runs.significance.BudgetExceeded` when it is not enough).
    ``coverage`` says which judged topics each run misses, and ``missed_count`` whether ``values``
    count them as 0 (the default, as TREC reports) or leave them out.
    """
    runs = tuple(values)
    if len(runs) < 1 or not values[runs[0]]:
        raise ValidationError("a results table needs at least one run and one measure")
    if len(runs) > MAX_RUNS:
        raise ValidationError(f"a results table takes at most {MAX_RUNS} runs, got {len(runs)}")
    measures = tuple(values[runs[0]])
    if test not in TESTS:
        raise ValidationError(f"the test must be one of {', '.join(TESTS)}, got {test!r}")
    if correction not in CORRECTIONS:
        raise ValidationError(f"the correction must be one of {', '.join(CORRECTIONS)}, got {correction!r}")
    if not 0 < alpha < 1:
        raise ValidationError(f"the significance level must be between 0 and 1, got {alpha!r}")
    baselines = tuple(dict.fromkeys(baselines or runs[:1]))
    unknown = [b for b in baselines if b not in runs]
    if unknown:
        raise ValidationError(f"the baseline {unknown[0]!r} is not one of the runs ({', '.join(runs)})")
    all_pairs = all_pairs or test == "tukey"
    correction = "none" if test == "tukey" else correction
    per_query = {run: {m: _checked(values[run][m], queries, run, m) for m in measures} for run in runs}
    letters = {run: _letter(i) for i, run in enumerate(runs)}
    pairs_asked = (list(combinations(runs, 2)) if all_pairs
                   else [(run, base) for base in baselines for run in runs if run != base])
    limit = None if budget is None else Budget(budget, f"this table ({len(pairs_asked) * len(measures):,} comparisons "
                                                       f"on {len(queries):,} topics)",
                                               "pick one baseline, fewer runs, or the t-test")
    pairs: list[PairResult] = []
    for measure in measures:
        pairs += _compare_measure(measure, per_query, pairs_asked, runs, test, correction, alpha, seed, limit)
    cells = {}
    for measure in measures:
        means = {run: float(np.mean(per_query[run][measure])) if len(queries) else math.nan for run in runs}
        best = _best(means, measure)
        for run in runs:
            low, high = bootstrap_interval(per_query[run][measure], resamples=resamples, seed=seed)
            if limit is not None:
                limit.check()
            markers = tuple(Marker(p.against, letters[p.against], p.mean_difference > 0, p.p, p.p_adjusted)
                            for p in _pairs_of(pairs, run, measure, mirrored=all_pairs) if p.significant)
            cells[(run, measure)] = Cell(run, measure, means[run], low, high, abs(means[run] - best) <= TIE, markers)
    return ResultsTable(runs, letters, measures, baselines, tuple(queries), test, correction, all_pairs, alpha,
                        resamples, cells, tuple(pairs), per_query, dict(coverage or {}), missed_count)


def _checked(values: Sequence[float], queries: Sequence[str], run: str, measure: str) -> np.ndarray:
    array = np.asarray(values, dtype=np.float64)
    if array.shape != (len(queries),):
        raise ValidationError(f"{run}, {measure}: one value per topic is needed ({len(queries)}), got {array.shape}")
    return array


def _compare_measure(measure: str, per_query: dict[str, dict[str, np.ndarray]], asked: list[tuple[str, str]],
                     runs: tuple[str, ...], test: str, correction: str, alpha: float, seed: int,
                     budget: Budget | None) -> list[PairResult]:
    """Every asked comparison on one measure, its p-values corrected over the family."""
    if test == "tukey":
        matrix = tukey_hsd(np.vstack([per_query[run][measure] for run in runs]))
        index = {run: i for i, run in enumerate(runs)}
        raw = [float(matrix[index[a], index[b]]) for a, b in asked]
    else:
        raw = []
        for number, (a, b) in enumerate(asked, start=1):
            raw.append(paired_p(per_query[a][measure] - per_query[b][measure], test, seed=seed, budget=budget))
            if budget is not None:
                budget.check(number / max(1, len(asked)))
    adjusted = adjust(raw, correction)
    results = []
    for (a, b), p, q in zip(asked, raw, adjusted):
        d = per_query[a][measure] - per_query[b][measure]
        wins, losses = int(np.sum(d > TIE)), int(np.sum(d < -TIE))
        mean = float(np.mean(d)) if len(d) else math.nan
        significant = bool(q < alpha) and abs(mean) > TIE  # a difference of 0 is never marked
        results.append(PairResult(measure, a, b, mean, wins, len(d) - wins - losses, losses, p, q, significant))
    return results


def _pairs_of(pairs: list[PairResult], run: str, measure: str, *, mirrored: bool) -> list[PairResult]:
    """The comparisons of ``run`` on ``measure``, seen from ``run`` (difference run − other).

    Against baselines a baseline's cell shows no marks (they are on the runs compared with it);
    with every pair compared, each cell shows both sides (``mirrored``).
    """
    seen = []
    for pair in pairs:
        if pair.measure != measure:
            continue
        if pair.run == run:
            seen.append(pair)
        elif pair.against == run and mirrored:
            seen.append(PairResult(measure, run, pair.run, -pair.mean_difference, pair.losses, pair.ties, pair.wins,
                                   pair.p, pair.p_adjusted, pair.significant))
    return seen


def _best(means: dict[str, float], measure: str) -> float:
    finite = [m for m in means.values() if not math.isnan(m)]
    if not finite:
        return math.nan
    family = measure.split("(")[0].split("@")[0]
    return min(finite) if family in LOWER_IS_BETTER else max(finite)


def _letter(i: int) -> str:
    """``a`` ... ``z``, then ``aa``, ``ab``, ... (as spreadsheet columns).

    >>> [_letter(i) for i in (0, 25, 26, 27, 52)]
    ['a', 'z', 'aa', 'ab', 'ba']
    """
    letters = ""
    i += 1
    while i:
        i, rest = divmod(i - 1, 26)
        letters = chr(ord("a") + rest) + letters
    return letters


def _number(value: float) -> str:
    return "—" if math.isnan(value) else f"{value:.4f}"


def how_to_read(table: ResultsTable, *, name: Callable[[str], str] = str) -> str:
    """What the table says, in plain words, for its settings (the page and ``irlab compare`` show it).

    Paragraphs are separated by a blank line; ``name`` writes a run's name for the format the text
    goes into (:func:`irlab.runs.table_export.markdown_text` for Markdown), the rest is plain words.

    >>> values = {"a": {"AP": [0.1, 0.2, 0.3]}, "b": {"AP": [0.2, 0.2, 0.4]}}
    >>> print(how_to_read(results_table(values, ["1", "2", "3"])).split("\\n\\n")[0])  # doctest: +ELLIPSIS
    Each cell is a run's mean over the 3 topics, with its 95% confidence interval...
    """
    n = len(table.queries)
    parts = [f"Each cell is a run's mean over the {n:,} topics, with its 95% confidence interval: the middle 95% of "
             f"the means of {table.resamples:,} resamples of the topics (bootstrap, seeded, so the same files give "
             "the same interval). A wide interval means the topics disagree, and the mean could easily have been "
             "different on other topics."]
    if any(c.missed for c in table.coverage.values()) and table.missed_count:
        parts.append("A judged topic a run does not rank counts 0 for it, as in TREC reports: leaving such topics out "
                     "would flatter a run that skips hard topics. The lines under the table give each mean without "
                     "them.")
    elif any(c.missed for c in table.coverage.values()):
        parts.append("Only the topics every run ranks are compared here; the judged topics some run misses are left "
                     "out, which flatters a run that skips hard topics. TREC reports count them as 0; the lines "
                     "under the table give those means.")
    letters = ", ".join(f"{letter} = {name(run)}" for run, letter in table.letters.items())
    if table.test == "tukey":
        how = (f"Tukey's HSD compares every pair of runs at once (paired by topic), so the chance of any false "
               f"'significant' in a column stays at {table.alpha:g}")
    else:
        family = f"{table.family_size} comparison{'' if table.family_size == 1 else 's'}"
        fix = {"none": "with no correction for the number of comparisons (so some marks may be chance)",
               "holm": f"after Holm's correction for the {family} of each measure (the chance of any "
                       f"false mark in a column stays at {table.alpha:g})",
               "bonferroni": f"after Bonferroni's correction for the {family} of each measure (the "
                             f"chance of any false mark in a column stays at {table.alpha:g})",
               "bh": f"after the Benjamini-Hochberg correction for the {family} of each measure (at most "
                     f"{table.alpha:.0%} of the marks in a column are expected to be false)"}[table.correction]
        how = f"The {TESTS[table.test]}, at the {table.alpha:g} level, {fix}"
    against = "every other run" if table.all_pairs else (
        "the baseline " + table.letters[table.baselines[0]] if len(table.baselines) == 1
        else "the baselines " + ", ".join(table.letters[b] for b in table.baselines))
    parts.append(f"Runs have letters ({letters}). A mark ▲b means the run is significantly better than run b on this "
                 f"measure, ▼b significantly worse; each run is compared with {against}. {how}. No mark means the "
                 "test found no difference it can tell from chance, which is not proof that the runs are equally "
                 "good: more topics might tell them apart.")
    parts.append("The best mean of each measure is in bold (followed by * in plain text). Wins / ties / losses "
                 "count the topics on which a run is better than, equal to or worse than the run it is compared "
                 "with: a mean can hide that a run wins on many topics and loses badly on a few.")
    parts.append("Significance is not importance: with many topics tiny differences become significant, with few "
                 "topics large ones may not. Whether a difference matters depends on its size and on the users.")
    return "\n\n".join(parts)
