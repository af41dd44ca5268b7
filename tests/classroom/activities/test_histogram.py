"""The class's histogram: every number counted once, the right value in the middle of its bin."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from irlab.classroom.activities.histogram import MAX_BINS, bin_edges, histogram, nice_width

finite = st.floats(allow_nan=False, allow_infinity=False, min_value=-1e6, max_value=1e6)


@given(st.lists(finite, max_size=60), st.floats(0, 50), st.floats(0, 0.5), st.booleans())
def test_every_number_is_counted_once_and_the_right_bin_holds_the_right_value(values, right, tolerance, whole):
    right = float(round(right)) if whole else right
    h = histogram(values, right, 0.0, max(1.0, 2 * right), tolerance, whole)
    assert h.total == len(values)
    assert h.right_bin.low <= right < h.right_bin.high
    assert sum(b.right for b in h.bins) == 1
    assert len(h.bins) <= MAX_BINS + 2
    for b in h.bins:
        assert b.count == sum(1 for v in values if b.low <= v < b.high)
    assert h.below == sum(1 for v in values if v < h.bins[0].low)


@given(st.floats(1e-6, 1e6))
def test_the_width_is_a_round_number_at_least_the_span(span):
    width = nice_width(span)
    assert width >= span * (1 - 1e-9)
    mantissa = width / 10 ** __import__("math").floor(__import__("math").log10(width))
    assert round(mantissa, 6) in (1.0, 2.0, 2.5, 5.0, 10.0)


def test_whole_numbers_get_one_bin_each():
    edges = bin_edges(3, 0, 8, whole_numbers=True)
    assert edges[0] == -0.5 and edges[-1] == 8.5 and len(edges) == 10
    assert [b.label for b in histogram([0, 3, 3, 8], 3, 0, 8, whole_numbers=True).bins][:4] == ["0", "1", "2", "3"]


def test_the_width_is_at_least_twice_the_tolerance():
    assert histogram([0.5], 0.5, 0, 1, tolerance=0.05).width == 0.1
