r"""Significance tests, corrections and intervals for paired per-topic values, in bounded memory and time.

Two runs evaluated on the same :math:`n` topics give differences :math:`d_i = b_i - a_i`.

* **Paired randomisation test** (:func:`randomisation_p`): under the null hypothesis the sign of
  each :math:`d_i` is a coin toss; flip the signs at random :data:`PERMUTATIONS` times and count
  how often the mean is at least as far from 0 as the observed :math:`\bar d`. The p-value is
  exactly ``scipy.stats.permutation_test((d,), np.mean, permutation_type="samples", rng=seed)``'s,
  bit for bit (a test checks it), but the flips are drawn in batches of at most
  :data:`BATCH_CELLS` numbers: scipy without ``batch`` holds 10,000 × n × 2 indices (0.64 GB per
  1,000 topics) and with it takes 20 s for 10,000 topics; this takes about 1 s and 40 MB.
* **Paired t-test** (:func:`paired_p`): scipy's ``ttest_rel``.
* **Wilcoxon signed-rank test** (:func:`paired_p`): ``scipy.stats.wilcoxon(a, b)`` with scipy's
  defaults, as ranx and PyTerrier report it, so a researcher who checks the number with scipy
  gets the same one: zero differences (exactly 0) are dropped from the ranks
  (``zero_method="wilcox"``), but scipy chooses its method on all :math:`n` topics: the exact
  null distribution when :math:`n \le 50` and no difference is 0 or tied; with zeros or ties,
  every sign flip when :math:`n \le 13`, else the normal approximation (without continuity
  correction); the normal approximation when :math:`n > 50`. Dropping the zeros *before*
  calling scipy would choose the exact method where scipy's default does not (issue 37: p =
  0.7357 where scipy gives 0.7260).
* **Tukey's HSD** over :math:`k` runs at once (:func:`tukey_hsd`), for a paired design: a
  two-way analysis of variance (runs × topics) without replication gives the residual mean
  square :math:`\mathrm{MSE} = \sum_{j,i} (x_{ji} - \bar x_{j\cdot} - \bar x_{\cdot i} + \bar x)^2 /
  ((k-1)(n-1))`, and a pair's :math:`q = \lvert \bar x_j - \bar x_l \rvert / \sqrt{\mathrm{MSE}/n}`
  is read against the studentized range distribution with :math:`k` and :math:`(k-1)(n-1)`
  degrees of freedom (Sakai, *Laboratory Experiments in Information Retrieval*, 2018, ch. 4).
  ``scipy.stats.tukey_hsd`` treats the runs as independent samples, which wastes the pairing.
* **Corrections** for a family of :math:`m` p-values (:func:`adjust`): Bonferroni
  :math:`\min(1, m p)`; Holm's step-down :math:`p_{(i)} \mapsto \max_{j \le i} \min(1, (m-j+1) p_{(j)})`;
  Benjamini–Hochberg's step-up :math:`p_{(i)} \mapsto \min_{j \ge i} \min(1, m p_{(j)} / j)` (it
  bounds the share of false discoveries, not the chance of any).
* **Bootstrap interval** of a mean (:func:`bootstrap_interval`): the middle 95% of the means of
  :data:`BOOTSTRAP_RESAMPLES` resamples of the topics, drawn with replacement and seeded
  (``scipy.stats.bootstrap(..., method="percentile")`` in batches).

A :class:`Budget` bounds the computing time of a whole request (the runs page's "every pair of
80 runs" once took 53 s of a shared server's CPU per click): it counts this thread's CPU time, and
:class:`BudgetExceeded` says in words what was asked and what to ask instead.

>>> d = np.array([0.1, 0.15, 0.0, 0.2, 0.05])
>>> round(randomisation_p(d), 4), round(paired_p(d, "t"), 4), round(paired_p(d, "wilcoxon"), 4)
(0.125, 0.0474, 0.125)
>>> adjust([0.01, 0.04, 0.03], "holm"), adjust([0.01, 0.04, 0.03], "bh")
([0.03, 0.06, 0.06], [0.03, 0.04, 0.04])
>>> [round(p, 2) for p in adjust([0.01, 0.04, 0.03], "bonferroni")]
[0.03, 0.12, 0.09]
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlab.errors import ValidationError

PERMUTATIONS = 10_000
"""Random sign flips of the randomisation test."""
SEED = 20_240_401
"""The seed of every random draw here: the same runs give the same p-values and intervals everywhere."""
BATCH_CELLS = 1 << 21
"""Sign flips × topics drawn at once: about 40 MB of working memory, whatever the number of topics."""
BOOTSTRAP_RESAMPLES = 2_000
"""Bootstrap resamples per interval (Efron and Tibshirani's advice for 95% percentile intervals)."""
TIE = 1e-12
"""Differences smaller than this count as ties (the values are sums of floating-point terms)."""
TESTS = {"t": "paired t-test", "wilcoxon": "Wilcoxon signed-rank test",
         "randomisation": f"paired randomisation test ({PERMUTATIONS:,} sign flips, seeded)",
         "tukey": "Tukey's HSD (two-way analysis of variance over runs and topics)"}
"""The tests offered, by the name the command line and the page use."""
CORRECTIONS = {"holm": "Holm's correction", "bonferroni": "Bonferroni's correction",
               "bh": "Benjamini-Hochberg's correction", "none": "no correction"}
"""The corrections for many comparisons, by name."""


class BudgetExceeded(ValidationError):
    """A request needs more computing time than its budget (the message says what to ask instead)."""


@dataclass
class Budget:
    """At most ``seconds`` of this thread's CPU time from its creation; ``what`` names the request."""

    seconds: float
    what: str = "this comparison"
    advice: str = "compare against one baseline, or fewer runs"

    def __post_init__(self) -> None:
        self.start = time.thread_time()

    @property
    def used(self) -> float:
        return time.thread_time() - self.start

    def check(self, done: float = 1.0) -> None:
        """Raise :class:`BudgetExceeded` when the time is up, or when ``done`` (the share of the work
        finished, 0-1) says the rest will not fit."""
        used = self.used
        if used > self.seconds or (done > 0.02 and used / done > 2 * self.seconds):
            need = f"about {used / done:,.0f} s" if done > 0.02 else "more than that"
            raise BudgetExceeded(f"{self.what} needs {need} of computing time, more than the {self.seconds:g} s one "
                                 f"request may take; {self.advice}")


def randomisation_p(d: Sequence[float], *, permutations: int = PERMUTATIONS, seed: int = SEED,
                    budget: Budget | None = None) -> float:
    """The two-sided paired randomisation test's p-value of the differences ``d`` (see the module).

    Equal to scipy's ``permutation_test`` with the same seed: the sign of topic ``i`` in flip
    ``k`` comes from the ``k·n + i``-th 32-bit draw of the generator (scipy shuffles the pair
    (d, −d) of each topic, which swaps them when the draw's lowest bit is 0), and each flip's mean
    adds the topics in order, as scipy's strided mean does. With at most 13 topics scipy tries
    every one of the 2^n flips, and so does this (by calling it).
    """
    from scipy import stats

    d = np.asarray(d, dtype=np.float64)
    n = len(d)
    if n < 2:  # nothing to flip against (scipy refuses)
        return math.nan
    if 2 ** min(n, 64) <= permutations:  # few topics: every flip, as scipy
        return float(stats.permutation_test((d,), np.mean, permutation_type="samples", n_resamples=permutations,
                                            alternative="two-sided", rng=np.random.default_rng(seed)).pvalue)
    observed = float(np.mean(d))
    gamma = abs(np.finfo(np.float64).eps * 100 * observed)
    draws = np.random.default_rng(seed).bit_generator
    batch = max(1, min(permutations, BATCH_CELLS // n))
    left = np.zeros(0, dtype=np.uint32)  # a 64-bit draw is two 32-bit ones: the second may start the next batch
    at_most = at_least = 0
    for start in range(0, permutations, batch):
        size = min(batch, permutations - start)
        needed = size * n - len(left)
        bits = np.concatenate([left, draws.random_raw((needed + 1) // 2).view(np.uint32)])
        left = bits[size * n:]
        signs = np.where((bits[:size * n] & 1).reshape(size, n) == 0, -d, d)
        means = np.cumsum(signs, axis=1)[:, -1] / n
        at_most += int(np.count_nonzero(means <= observed + gamma))
        at_least += int(np.count_nonzero(means >= observed - gamma))
        if budget is not None:
            budget.check()
    p = min(at_most + 1, at_least + 1) / (permutations + 1) * 2
    return float(min(max(p, 0.0), 1.0))


def paired_p(d: Sequence[float], test: str, *, seed: int = SEED, budget: Budget | None = None) -> float:
    """The two-sided p-value of ``test`` (``t``, ``wilcoxon`` or ``randomisation``) on the differences ``d``.

    ``nan`` when the test cannot say anything: fewer than two topics, or no spread (then 1 when
    every difference is 0 and 0 when they are all the same other value, as for a t-test's limit).
    """
    from scipy import stats

    d = np.asarray(d, dtype=np.float64)
    if test not in ("t", "wilcoxon", "randomisation"):
        raise ValidationError(f"the test must be one of t, wilcoxon, randomisation, got {test!r}")
    if len(d) < 2:
        return math.nan
    if test == "wilcoxon":
        return wilcoxon_test(d)[1]
    if float(np.std(d, ddof=1)) <= TIE:
        return 1.0 if abs(float(np.mean(d))) <= TIE else 0.0
    if test == "t":
        return float(stats.ttest_1samp(d, 0.0).pvalue)
    return randomisation_p(d, seed=seed, budget=budget)


def wilcoxon_test(d: Sequence[float]) -> tuple[float, float]:
    """The Wilcoxon signed-rank test's statistic and two-sided p-value: ``scipy.stats.wilcoxon(d)``'s defaults.

    ``wilcoxon(a, b)`` tests ``a - b``; the two-sided test gives the same statistic and p-value for
    ``b - a``. Every difference 0 gives the statistic 0 and p = 1 (scipy's answer, without its
    warning); fewer than two topics give ``nan`` (no test).

    >>> d = [0.1, 0.0, -0.05, 0.2, 0.15, 0.0, 0.3, -0.1, 0.05, 0.12, 0.08, 0.0, 0.2, 0.25]
    >>> [round(x, 4) for x in wilcoxon_test(d)]  # 3 zeros among 14: the normal approximation, as scipy's default
    [6.0, 0.0162]
    >>> from scipy import stats
    >>> round(float(stats.wilcoxon([x for x in d if x]).pvalue), 4)  # zeros dropped first: exact, another number
    0.0146
    """
    import warnings

    from scipy import stats

    d = np.asarray(d, dtype=np.float64)
    if len(d) < 2:
        return math.nan, math.nan
    if not np.any(d):
        return 0.0, 1.0
    with warnings.catch_warnings():  # scipy warns about its normal approximation's ties; the p-value stands
        warnings.simplefilter("ignore", RuntimeWarning)
        result = stats.wilcoxon(d)
    return float(result.statistic), float(result.pvalue)


def tukey_hsd(values: np.ndarray) -> np.ndarray:
    """Tukey's HSD p-values of every pair of rows of ``values`` (runs × topics), paired by topic (see the module).

    >>> x = np.array([[0.2, 0.4, 0.6, 0.3], [0.3, 0.5, 0.8, 0.4], [0.2, 0.4, 0.5, 0.3]])
    >>> np.round(tukey_hsd(x), 4).tolist()
    [[1.0, 0.0285, 0.7684], [0.0285, 1.0, 0.0128], [0.7684, 0.0128, 1.0]]
    """
    from scipy import stats

    x = np.asarray(values, dtype=np.float64)
    k, n = x.shape
    if k < 2 or n < 2:
        return np.full((k, k), math.nan)
    run_means, topic_means, grand = x.mean(axis=1), x.mean(axis=0), x.mean()
    residual = x - run_means[:, None] - topic_means[None, :] + grand
    df = (k - 1) * (n - 1)
    mse = float(np.sum(residual ** 2)) / df
    gaps = np.abs(run_means[:, None] - run_means[None, :])
    if mse <= TIE * TIE:
        return np.where(gaps <= TIE, 1.0, 0.0)
    return stats.studentized_range.sf(gaps / math.sqrt(mse / n), k, df)


def adjust(p_values: Sequence[float], correction: str) -> list[float]:
    """``p_values`` adjusted for a family of comparisons, in the input's order (see the module).

    ``nan`` stays ``nan`` and does not count in the family.

    >>> adjust([0.01, float("nan"), 0.02], "holm")[2], adjust([0.02, 0.5], "none")
    (0.02, [0.02, 0.5])
    """
    if correction not in CORRECTIONS:
        raise ValidationError(f"the correction must be one of {', '.join(CORRECTIONS)}, got {correction!r}")
    values = [float(p) for p in p_values]
    ranked = sorted((p, i) for i, p in enumerate(values) if not math.isnan(p))
    m = len(ranked)
    adjusted = list(values)
    if correction == "bonferroni":
        for p, i in ranked:
            adjusted[i] = min(1.0, m * p)
    elif correction == "holm":
        running = 0.0
        for j, (p, i) in enumerate(ranked):
            running = max(running, min(1.0, (m - j) * p))
            adjusted[i] = running
    elif correction == "bh":
        running = 1.0
        for j in range(m - 1, -1, -1):
            p, i = ranked[j]
            running = min(running, m * p / (j + 1))
            adjusted[i] = min(1.0, running)
    return adjusted


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values (:func:`adjust` with ``"holm"``)."""
    return adjust(p_values, "holm")


def bootstrap_interval(values: Sequence[float], *, resamples: int = BOOTSTRAP_RESAMPLES, seed: int = SEED,
                       confidence: float = 0.95) -> tuple[float, float]:
    """The percentile bootstrap interval of the mean of ``values`` (see the module); the point when n < 2.

    >>> bootstrap_interval([0.2, 0.4, 0.1, 0.5, 0.3, 0.6, 0.2, 0.4])
    (0.2375, 0.45)
    """
    from scipy import stats

    x = np.asarray(values, dtype=np.float64)
    if len(x) < 2 or float(np.ptp(x)) == 0.0:
        mean = float(np.mean(x)) if len(x) else math.nan
        return mean, mean
    batch = max(1, min(resamples, BATCH_CELLS // len(x)))
    result = stats.bootstrap((x,), np.mean, n_resamples=resamples, batch=batch, method="percentile",
                             confidence_level=confidence, vectorized=True, rng=np.random.default_rng(seed))
    return float(result.confidence_interval.low), float(result.confidence_interval.high)
