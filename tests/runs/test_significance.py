"""irlab.runs.significance against scipy and statsmodels, and within its memory and time budgets."""

from __future__ import annotations

import math
import tracemalloc

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from statsmodels.stats.multitest import multipletests

from irlab.errors import ValidationError
from irlab.runs import significance
from irlab.runs.compare import compare_pairs
from irlab.runs.significance import (
    SEED,
    Budget,
    BudgetExceeded,
    adjust,
    bootstrap_interval,
    paired_p,
    randomisation_p,
    tukey_hsd,
    wilcoxon_test,
)


def scipy_randomisation(d: np.ndarray, seed: int = SEED) -> float:
    return float(stats.permutation_test((d,), np.mean, permutation_type="samples", n_resamples=10_000,
                                        alternative="two-sided", rng=np.random.default_rng(seed)).pvalue)


@pytest.mark.parametrize("n", [14, 15, 40, 101, 500])
@pytest.mark.parametrize("kind", ["continuous", "grades", "mostly ties"])
def test_randomisation_p_is_scipys_bit_for_bit(n, kind):
    rng = np.random.default_rng(n)
    d = {"continuous": rng.normal(0.02, 0.1, n), "grades": rng.integers(-3, 4, n) / 10,
         "mostly ties": np.where(rng.random(n) < 0.8, 0.0, 0.1)}[kind]
    assert randomisation_p(d) == scipy_randomisation(d)
    assert math.isnan(randomisation_p(d[:1]))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([-0.3, -0.1, 0.0, 0.05, 0.1, 0.2, 0.25, 1.0]), min_size=2, max_size=30),
       st.integers(0, 2**32 - 1))
def test_randomisation_p_equals_scipy_on_any_differences_and_seed(values, seed):
    d = np.array(values)
    assert randomisation_p(d, seed=seed) == scipy_randomisation(d, seed)


def test_randomisation_p_does_not_depend_on_the_batch(monkeypatch):
    d = np.random.default_rng(9).normal(0.01, 0.1, 333)
    expected = randomisation_p(d)
    for cells in (333, 333 * 7 + 5, 10**7):
        monkeypatch.setattr(significance, "BATCH_CELLS", cells)
        assert randomisation_p(d) == expected


def test_randomisation_on_ten_thousand_topics_stays_within_its_batch_memory():
    """scipy without batches holds 10,000 x n x 2 indices (1.6 GB here); this stays near 2 x BATCH_CELLS x 8 bytes."""
    d = np.random.default_rng(2).normal(0.0, 0.1, 10_000)
    tracemalloc.start()
    try:
        p = randomisation_p(d)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert 0 < p <= 1
    assert peak < 80 * 2**20, f"{peak / 2**20:.0f} MB"


def test_paired_p_matches_scipy_and_its_edge_cases():
    rng = np.random.default_rng(4)
    a = rng.uniform(0, 1, 30)
    b = np.clip(a + rng.normal(0.05, 0.1, 30), 0, 1)
    b[:4] = a[:4]
    d = b - a
    assert paired_p(d, "t") == stats.ttest_rel(b, a).pvalue
    assert paired_p(d, "wilcoxon") == stats.wilcoxon(a, b).pvalue  # scipy's defaults on the paired values
    assert paired_p(d, "randomisation") == scipy_randomisation(d)
    assert paired_p(np.zeros(5), "t") == 1.0 and paired_p(np.full(5, 0.1), "t") == 0.0
    assert paired_p(np.zeros(5), "wilcoxon") == 1.0 and math.isnan(paired_p(np.array([0.3]), "t"))
    with pytest.raises(ValidationError, match="the test must be one of"):
        paired_p(d, "sign")


@pytest.mark.parametrize("n, zeros", [(14, 3), (30, 4), (50, 1), (51, 0), (60, 5), (10, 2), (8, 0), (20, 0)])
def test_wilcoxon_is_scipys_default_whatever_the_zeros_and_the_number_of_topics(n, zeros):
    """Issue 37: with zero differences among 14 to 50 topics, scipy's default uses the normal
    approximation; dropping the zeros first made scipy choose its exact method (0.7357, not 0.7260)."""
    rng = np.random.default_rng(n * 100 + zeros)
    a = rng.uniform(0.2, 0.8, n)
    b = a + rng.normal(0.02, 0.1, n)
    b[:zeros] = a[:zeros]
    expected = stats.wilcoxon(a, b)
    assert paired_p(b - a, "wilcoxon") == expected.pvalue
    assert wilcoxon_test(b - a) == (expected.statistic, expected.pvalue)
    if zeros and 14 <= n <= 50:  # where the old way (zeros dropped first) gave another number
        assert stats.wilcoxon((b - a)[b != a]).pvalue != expected.pvalue


HAND_WORKED = {
    # p = 0.01, 0.04, 0.03, 0.20 (m = 4); sorted 0.01 < 0.03 < 0.04 < 0.20
    "bonferroni": [0.04, 0.16, 0.12, 0.80],                 # 4p
    "holm": [0.04, 0.09, 0.09, 0.20],                       # 4(0.01), max(3(0.03), .04), max(2(0.04), .09), 0.20
    "bh": [0.04, 0.05333333333333334, 0.05333333333333334, 0.20],  # min over j >= i of 4 p_(j) / j
    "none": [0.01, 0.04, 0.03, 0.20],
}


@pytest.mark.parametrize("correction", sorted(HAND_WORKED))
def test_corrections_equal_hand_worked_values_and_statsmodels(correction):
    p = [0.01, 0.04, 0.03, 0.20]
    assert adjust(p, correction) == pytest.approx(HAND_WORKED[correction], abs=1e-15)
    if correction != "none":
        method = {"bonferroni": "bonferroni", "holm": "holm", "bh": "fdr_bh"}[correction]
        rng = np.random.default_rng(len(correction))
        for _ in range(50):
            values = rng.uniform(0, 0.2, rng.integers(1, 40))
            assert adjust(values, correction) == pytest.approx(multipletests(values, method=method)[1], abs=1e-12)


def test_corrections_leave_undefined_p_values_out_of_the_family():
    assert adjust([0.01, math.nan, 0.02], "bonferroni")[::2] == [0.02, 0.04]
    assert math.isnan(adjust([0.01, math.nan], "bh")[1])
    with pytest.raises(ValidationError, match="the correction must be one of"):
        adjust([0.1], "sidak")


def test_tukey_hsd_is_the_studentized_range_of_a_two_way_anova():
    rng = np.random.default_rng(8)
    topics = rng.uniform(0, 1, 25)
    x = np.vstack([np.clip(topics + rng.normal(shift, 0.08, 25), 0, 1) for shift in (0.0, 0.06, 0.01, -0.05)])
    k, n = x.shape
    # the analysis of variance written out term by term
    grand = x.sum() / (k * n)
    ss_runs = n * sum((x[j].mean() - grand) ** 2 for j in range(k))
    ss_topics = k * sum((x[:, i].mean() - grand) ** 2 for i in range(n))
    ss_total = sum((x[j, i] - grand) ** 2 for j in range(k) for i in range(n))
    mse = (ss_total - ss_runs - ss_topics) / ((k - 1) * (n - 1))
    p = tukey_hsd(x)
    for j in range(k):
        for other in range(k):
            q = abs(x[j].mean() - x[other].mean()) / math.sqrt(mse / n)
            assert p[j, other] == pytest.approx(stats.studentized_range.sf(q, k, (k - 1) * (n - 1)), rel=1e-9)
    assert p[0, 1] < 0.05 < p[0, 2] and np.allclose(p, p.T)
    # ignoring the pairing (scipy's one-way Tukey) throws the topics' variance into the error term
    assert stats.tukey_hsd(*x).pvalue[0, 1] > p[0, 1]


def test_bootstrap_interval_is_scipys_percentile_interval_and_seeded():
    values = np.random.default_rng(5).uniform(0, 1, 200)
    low, high = bootstrap_interval(values)
    scipy_ci = stats.bootstrap((values,), np.mean, n_resamples=2_000, method="percentile",
                               rng=np.random.default_rng(SEED)).confidence_interval
    assert (low, high) == (scipy_ci.low, scipy_ci.high)
    assert bootstrap_interval(values) == (low, high) and low < values.mean() < high
    assert bootstrap_interval(values, seed=1) != (low, high)
    assert bootstrap_interval([0.3]) == (0.3, 0.3) and bootstrap_interval([0.2, 0.2]) == (0.2, 0.2)


def test_a_budget_stops_every_pair_of_many_runs_with_a_clear_message():
    rng = np.random.default_rng(1)
    values = {f"run{i}": rng.uniform(0, 1, 2_000) for i in range(40)}  # 780 pairs
    with pytest.raises(BudgetExceeded, match=r"comparing every pair of 40 runs \(780 pairs, 2,000 topics\) needs "
                                             r"(about [\d,]+ s|more than that) of computing time, more than the "
                                             r"0\.5 s one request may take; compare against one baseline"):
        compare_pairs(values, [str(q) for q in range(2_000)], budget=0.5)


def test_a_budget_counts_this_threads_cpu_time():
    budget = Budget(10.0)
    budget.check(0.5)
    assert 0 <= budget.used < 10
    spent = Budget(0.0)
    sum(range(100_000))
    with pytest.raises(BudgetExceeded, match="more than the 0 s"):
        spent.check()
