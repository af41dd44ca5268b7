"""irlab.runs.compare against scipy.stats called directly, and Holm's correction by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from irlab.errors import ValidationError
from irlab.runs.charts import describe_differences, difference_spec
from irlab.runs.compare import compare, compare_pairs, format_p, holm, verdict


def _pairs(seed: int, n: int = 40) -> tuple[np.ndarray, np.ndarray, list[str]]:
    rng = np.random.default_rng(seed)
    a = rng.uniform(0, 1, n)
    b = np.clip(a + rng.normal(0.05, 0.1, n), 0, 1)
    b[:3] = a[:3]  # ties
    return a, b, [f"q{i}" for i in range(n)]


@pytest.mark.parametrize("seed", range(5))
def test_statistics_equal_scipy_called_directly(seed):
    a, b, queries = _pairs(seed)
    c = compare(a, b, queries, measure="AP", run_a="x", run_b="y")
    t = stats.ttest_rel(b, a)
    assert (c.t_statistic, c.t_p) == (t.statistic, t.pvalue)
    ci = t.confidence_interval(0.95)
    assert (c.ci_low, c.ci_high) == (ci.low, ci.high)
    d = b - a
    w = stats.wilcoxon(a, b)  # scipy's defaults, as ranx and PyTerrier call it
    assert (c.wilcoxon_statistic, c.wilcoxon_p) == (w.statistic, w.pvalue)
    r = stats.permutation_test((d,), np.mean, permutation_type="samples", n_resamples=10_000,
                               rng=np.random.default_rng(20_240_401))
    assert c.randomisation_p == r.pvalue
    assert c.effect_size == pytest.approx(d.mean() / d.std(ddof=1))
    assert (c.wins, c.ties, c.losses) == (int((d > 0).sum()), 3, int((d < 0).sum()))
    assert c.mean_difference == pytest.approx(d.mean()) and c.mean_b - c.mean_a == pytest.approx(d.mean())


def test_randomisation_is_seeded_and_repeatable():
    a, b, queries = _pairs(7)
    assert compare(a, b, queries).randomisation_p == compare(a, b, queries).randomisation_p


def test_a_clear_difference_is_significant_and_the_verdict_says_so():
    a, b, queries = _pairs(1, n=60)
    c = compare(a, b + 0.1, queries, measure="nDCG@10", run_a="bm25", run_b="dense")
    assert c.t_p < 0.001 and c.randomisation_p < 0.001
    text = verdict(c)
    assert "statistically significant" in text and "Significance is not importance" in text and "dense" in text


def test_the_verdict_names_the_test_whose_p_value_it_quotes():
    a, b, queries = _pairs(2, n=30)
    c = compare(a, b, queries, measure="AP", run_a="bm25", run_b="dense")
    assert f"(randomisation test, p = {format_p(c.randomisation_p)})" in verdict(c)
    assert f"(paired t-test, p = {format_p(c.t_p)})" in verdict(c, test="t")
    assert f"(Wilcoxon signed-rank test, p = {format_p(c.wilcoxon_p)})" in verdict(c, test="wilcoxon")
    assert "(Tukey's HSD, p = 0.500 after Holm's correction)" in verdict(c, test="tukey", p=0.5,
                                                                        correction="Holm's correction")
    with pytest.raises(ValidationError, match="give its p-value"):
        verdict(c, test="tukey")
    with pytest.raises(ValidationError, match="the test must be one of"):
        verdict(c, test="sign")


def test_no_difference_says_that_chance_explains_it_and_what_that_does_not_mean():
    rng = np.random.default_rng(3)
    a = rng.uniform(0, 1, 30)
    b = a + rng.normal(0, 0.05, 30)
    c = compare(a, b, [str(i) for i in range(30)])
    assert c.randomisation_p > 0.05
    assert "could easily arise by chance" in verdict(c) and "not proof that they are equally good" in verdict(c)


def test_degenerate_inputs_give_defined_answers_not_errors():
    same = compare([0.5, 0.2], [0.5, 0.2], ["a", "b"])
    assert (same.wins, same.ties, same.losses) == (0, 2, 0)
    assert same.t_p == 1.0 and same.wilcoxon_p == 1.0 and math.isnan(same.effect_size)
    shifted = compare([0.1, 0.2, 0.3], [0.2, 0.3, 0.4], ["a", "b", "c"])  # every difference +0.1
    assert shifted.ci_low == pytest.approx(0.1) and shifted.ci_high == pytest.approx(0.1)
    one = compare([0.1], [0.3], ["a"])
    assert math.isnan(one.t_p) and "fewer than two topics" in verdict(one)
    with pytest.raises(ValidationError):
        compare([], [], [])
    with pytest.raises(ValidationError):
        compare([0.1], [0.2, 0.3], ["a"])


def test_holm_by_hand():
    # sorted 0.01, 0.03, 0.04 -> 3*0.01, max(0.03, 2*0.03), max(0.06, 1*0.04)
    assert holm([0.04, 0.01, 0.03]) == pytest.approx([0.06, 0.03, 0.06])
    assert holm([0.5, 0.6]) == [1.0, 1.0]
    nan = holm([float("nan"), 0.02])
    assert math.isnan(nan[0]) and nan[1] == 0.02


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(0, 1), min_size=1, max_size=12))
def test_holm_never_lowers_a_p_value_and_keeps_the_order(ps):
    adjusted = holm(ps)
    assert all(p <= q <= 1 for p, q in zip(ps, adjusted))
    for (p1, q1) in zip(ps, adjusted):
        for (p2, q2) in zip(ps, adjusted):
            if p1 < p2:
                assert q1 <= q2


def test_compare_pairs_adjusts_over_every_pair():
    a, b, queries = _pairs(2)
    pairs = compare_pairs({"x": a, "y": b, "z": b + 0.01}, queries)
    assert [(c.run_a, c.run_b) for c, _ in pairs] == [("x", "y"), ("x", "z"), ("y", "z")]
    assert [p for _, p in pairs] == holm([c.randomisation_p for c, _ in pairs])


def test_format_p():
    assert format_p(0.5) == "0.500" and format_p(0.0004) == "< 0.001" and format_p(float("nan")) == "—"


def test_chart_sorts_topics_and_marks_losses_without_colour():
    c = compare([0.5, 0.2, 0.4, 0.1], [0.7, 0.1, 0.4, 0.9], ["q1", "q2", "q3", "<b>q4</b>"], measure="AP")
    spec = difference_spec(c)
    bar = spec["data"][0]
    assert bar["x"] == ["q2", "q3", "q1", "&lt;b&gt;q4&lt;/b&gt;"]  # text: shown, never read as markup
    assert bar["y"] == sorted(bar["y"])
    assert bar["marker"]["pattern"]["shape"] == ["/", "", "", ""]  # the loss is hatched, not only coloured
    import plotly.graph_objects as go
    go.Figure(spec)  # a valid figure under Plotly's full validation
    assert "wins on 2 topics" in describe_differences(c) and "loses on 1" in describe_differences(c)
