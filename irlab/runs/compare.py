r"""Comparing two runs query by query: differences, paired tests, effect size and Holm's correction.

Two systems evaluated on the same topics give paired values :math:`a_i, b_i`; everything here
reads the differences :math:`d_i = b_i - a_i` (positive: B is better on topic :math:`i`):

* wins / ties / losses of B against A (a tie: :math:`|d_i| < 10^{-12}`);
* the mean difference :math:`\bar d` with its 95% confidence interval
  :math:`\bar d \pm t_{0.975,\,n-1}\, s_d / \sqrt{n}`;
* the paired t-test (``scipy.stats.ttest_rel``), the Wilcoxon signed-rank test
  (``scipy.stats.wilcoxon(a, b)`` with scipy's defaults, as ranx and PyTerrier report it:
  :func:`irlab.runs.significance.wilcoxon_test`) and a paired randomisation
  test (the sign of each difference flipped at random, 10,000 times, seeded so the page and the
  command line print the same p-value twice: scipy's ``permutation_test``, in bounded memory,
  :func:`irlab.runs.significance.randomisation_p`);
* the effect size :math:`d_z = \bar d / s_d` (Cohen's d for paired samples);
* with more than two runs, Holm's step-down correction of the p-values of every pair, within a
  budget of computing time (:data:`PAIRS_BUDGET`): every pair of 80 runs is 3,160 comparisons.

A table of many runs against baselines, with other tests and corrections, is
:mod:`irlab.runs.table`.

>>> c = compare([0.1, 0.2, 0.3, 0.4, 0.5], [0.2, 0.35, 0.3, 0.6, 0.55], ["q1", "q2", "q3", "q4", "q5"])
>>> c.wins, c.ties, c.losses, round(c.mean_difference, 4)
(4, 1, 0, 0.1)
>>> round(c.t_p, 4), round(c.wilcoxon_p, 4), round(c.effect_size, 3)
(0.0474, 0.125, 1.265)
>>> holm([0.01, 0.04, 0.03])
[0.03, 0.06, 0.06]
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from irlab.errors import ValidationError
from irlab.runs.significance import PERMUTATIONS, SEED, TIE, Budget, holm, randomisation_p, wilcoxon_test

__all__ = ["ALPHA", "PAIRS_BUDGET", "PERMUTATIONS", "SEED", "TIE", "VERDICT_TESTS", "Comparison", "compare",
           "compare_pairs", "format_p", "holm", "verdict"]

ALPHA = 0.05
"""The significance level the verdict text uses."""
PAIRS_BUDGET = 10.0
"""Seconds of computing time :func:`compare_pairs` may take by default (a click on a shared server)."""


@dataclass(frozen=True)
class Comparison:
    """Run B against run A on one measure, query by query (see the module for every statistic).

    ``a``, ``b`` and ``differences`` follow ``queries``; statistics that need at least two topics (or
    differences that are not all equal) are ``nan`` when they are undefined.
    """

    measure: str
    run_a: str
    run_b: str
    queries: tuple[str, ...]
    a: np.ndarray
    b: np.ndarray
    mean_a: float
    mean_b: float
    mean_difference: float
    ci_low: float
    ci_high: float
    wins: int
    ties: int
    losses: int
    t_statistic: float
    t_p: float
    wilcoxon_statistic: float
    wilcoxon_p: float
    randomisation_p: float
    effect_size: float

    @property
    def differences(self) -> np.ndarray:
        """:math:`d_i = b_i - a_i` per query."""
        return self.b - self.a

    @property
    def n(self) -> int:
        return len(self.queries)


def compare(a: Sequence[float], b: Sequence[float], queries: Sequence[str], *, measure: str = "",
            run_a: str = "A", run_b: str = "B", seed: int = SEED, permutations: int = PERMUTATIONS,
            budget: Budget | None = None) -> Comparison:
    """Compare paired per-query values ``b`` against ``a`` (see the module)."""
    from scipy import stats  # imported here: the evaluation engine and the CLI's evaluate do not need scipy

    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if not (len(a) == len(b) == len(queries)):
        raise ValidationError(f"paired values need one value per query: {len(a)}, {len(b)} values, "
                              f"{len(queries)} queries")
    if not len(a):
        raise ValidationError("the two runs have no query in common to compare")
    d = b - a
    n = len(d)
    wins, losses = int(np.sum(d > TIE)), int(np.sum(d < -TIE))
    mean = float(np.mean(d))
    nan = float("nan")
    spread = float(np.std(d, ddof=1)) if n > 1 else nan
    varies = n > 1 and spread > TIE
    t_stat = t_p = ci_low = ci_high = w_stat = w_p = r_p = effect = nan
    if varies:
        t = stats.ttest_rel(b, a)
        t_stat, t_p = float(t.statistic), float(t.pvalue)
        ci = t.confidence_interval(0.95)
        ci_low, ci_high = float(ci.low), float(ci.high)
        effect = mean / spread
        r_p = randomisation_p(d, permutations=permutations, seed=seed, budget=budget)
    elif n > 1:  # every difference equal: no spread, the interval is the point itself
        ci_low = ci_high = mean
        t_p = r_p = 1.0 if abs(mean) <= TIE else 0.0
    if n > 1:
        w_stat, w_p = wilcoxon_test(d)
    return Comparison(measure, run_a, run_b, tuple(queries), a, b, float(np.mean(a)), float(np.mean(b)), mean,
                      ci_low, ci_high, wins, n - wins - losses, losses, t_stat, t_p, w_stat, w_p, r_p, effect)


def compare_pairs(values: Mapping[str, Sequence[float]], queries: Sequence[str], *, measure: str = "",
                  seed: int = SEED, budget: float | None = PAIRS_BUDGET) -> list[tuple[Comparison, float]]:
    """Every pair of runs (later run as B), each with its Holm-adjusted randomisation-test p-value.

    ``values`` maps run names to per-query values in the order of ``queries``. ``budget`` bounds
    the computing time (seconds of this thread's CPU; None: no bound): beyond it, or as soon as the
    pairs done so far show that the rest will not fit, :class:`~irlab.runs.significance.BudgetExceeded`
    says so, naming how many pairs were asked for.
    """
    names = list(values)
    pairs = list(combinations(names, 2))
    limit = None if budget is None else Budget(budget, f"comparing every pair of {len(names)} runs "
                                                       f"({len(pairs):,} pairs, {len(queries):,} topics)",
                                               "compare against one baseline instead, or pick fewer runs")
    done = []
    for number, (a, b) in enumerate(pairs, start=1):
        done.append(compare(values[a], values[b], queries, measure=measure, run_a=a, run_b=b, seed=seed,
                            budget=limit))
        if limit is not None:
            limit.check(number / len(pairs))
    adjusted = holm([c.randomisation_p for c in done]) if len(done) > 1 else [c.randomisation_p for c in done]
    return list(zip(done, adjusted))


def format_p(p: float) -> str:
    """A p-value for people: three decimals, ``< 0.001`` below that, ``—`` when undefined.

    >>> format_p(0.04567), format_p(0.00001), format_p(float("nan"))
    ('0.046', '< 0.001', '—')
    """
    if math.isnan(p):
        return "—"
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


VERDICT_TESTS = {"t": "paired t-test", "wilcoxon": "Wilcoxon signed-rank test", "randomisation": "randomisation test",
                 "tukey": "Tukey's HSD"}
"""The name the verdict gives each test (the keys are :data:`irlab.runs.significance.TESTS`')."""


def verdict(c: Comparison, *, test: str = "randomisation", p: float | None = None,
            correction: str | None = None) -> str:
    """What the comparison means in plain words, and what it does not.

    The sentence on significance names the test whose p-value it quotes: ``test`` (one of
    :data:`VERDICT_TESTS`), with ``p`` its p-value (default: the comparison's own for that test;
    Tukey's HSD needs it given) after ``correction`` (e.g. ``"Holm's correction"``) when one was
    applied. The command line passes the results table's test, so the verdict and the table's
    header name the same test; the page's "compare runs" tab quotes the randomisation test.

    >>> c = compare([0.1, 0.2, 0.3, 0.4, 0.5], [0.2, 0.35, 0.3, 0.6, 0.55], list("abcde"), measure="AP")
    >>> print(verdict(c))  # doctest: +ELLIPSIS
    B is better than A on 4 of 5 topics, worse on 0 ...
    >>> print(verdict(c, test="t").split("\\n\\n")[1])  # doctest: +ELLIPSIS
    A difference this large would be unlikely (paired t-test, p = 0.047) if B and A were equally good ...
    """
    if test not in VERDICT_TESTS:
        raise ValidationError(f"the test must be one of {', '.join(VERDICT_TESTS)}, got {test!r}")
    if p is None:
        if test == "tukey":
            raise ValidationError("Tukey's HSD compares every run at once: give its p-value for this pair")
        p = {"t": c.t_p, "wilcoxon": c.wilcoxon_p, "randomisation": c.randomisation_p}[test]
    quoted = f"{VERDICT_TESTS[test]}, p = {format_p(p)}{f' after {correction}' if correction else ''}"
    better = c.run_b if c.mean_difference > 0 else c.run_a
    worse = c.run_a if c.mean_difference > 0 else c.run_b
    lines = [f"{c.run_b} is better than {c.run_a} on {c.wins} of {c.n} topics, worse on {c.losses} "
             f"and equal on {c.ties}; on average {c.measure or 'the measure'} differs by {c.mean_difference:+.4f} "
             f"(95% confidence interval {_number(c.ci_low)} to {_number(c.ci_high)})."]
    if c.n < 2 or math.isnan(p):
        lines.append("With fewer than two topics, or the same difference on every topic, no test can say more.")
    elif p < ALPHA:
        lines.append(f"A difference this large would be unlikely ({quoted}) "
                     f"if {better} and {worse} were equally good on these topics: the difference is statistically "
                     f"significant at the {ALPHA:g} level.")
    else:
        lines.append(f"A difference like this could easily arise by chance ({quoted}): these {c.n} topics do not "
                     "show that one run is better. That is not proof that they are equally good; more topics might "
                     "tell them apart.")
    lines.append(f"Significance is not importance: the effect size d = {_number(c.effect_size, 2)} says how large the "
                 "difference is relative to how much it varies between topics (around 0.2 is small, 0.5 medium, 0.8 "
                 "large), and whether a difference matters depends on the users, not the test. With many topics, "
                 "tiny differences become significant; with few, large ones may not.")
    return " ".join(lines[:1]) + "\n\n" + "\n\n".join(lines[1:])


def _number(value: float, digits: int = 4) -> str:
    return "—" if math.isnan(value) else f"{value:+.{digits}f}"
