"""A histogram of the class's numbers, with bins centred on the right value.

The bin width is a round number (1, 2, 2.5 or 5 times a power of ten) giving about
:data:`TARGET_BINS` bins over the plausible range of the value (0-1 for most measures), and at
least twice the tolerance; for whole numbers (counts such as TP@K) it is 1. One bin is centred on
the right value, so the right answers stand in one bar and a common wrong value (a named mistake)
in another; the other bins continue on both sides over the plausible range. Numbers outside the
bins are counted as ``below`` and ``above`` (a hostile 1e6 is one count, never a bin a mile wide).
Several rounds are counted into the same bins, so they can stand side by side.

>>> h = histogram([0.5, 0.52, 0.7, 0.0, 3.0], right=0.5, low=0.0, high=1.0, tolerance=0.005)
>>> h.width, h.right_bin.low, h.right_bin.high, h.right_bin.count, h.below, h.above
(0.05, 0.475, 0.525, 2, 0, 1)
>>> h.right_bin.label, histogram([3], right=2, low=0, high=8, whole_numbers=True).bins[3].label
('0.47–0.53', '3')
>>> sum(b.count for b in h.bins) + h.below + h.above
5
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from irlab.explain.formula import format_number

TARGET_BINS = 20
MAX_BINS = 60
_NICE = (1.0, 2.0, 2.5, 5.0)


@dataclass(frozen=True)
class Bin:
    """Numbers in ``low <= x < high``; ``right`` marks the bin of the right value."""

    low: float
    high: float
    count: int
    right: bool = False

    @property
    def label(self) -> str:
        """The bin's range in words, to the width's precision (``0.36-0.41`` for a width of 0.05), or its one
        whole number (``3``) for a bin of whole numbers."""
        width = self.high - self.low
        if width == 1 and float(self.low + 0.5).is_integer():
            return format_number(self.low + 0.5)
        digits = max(0, -math.floor(math.log10(width))) if width > 0 else 4
        return f"{format_number(self.low, digits)}\u2013{format_number(self.high, digits)}"


@dataclass(frozen=True)
class Histogram:
    """Bins in increasing order, their width, and the numbers below the first and above the last bin."""

    bins: tuple[Bin, ...]
    width: float
    below: int = 0
    above: int = 0

    @property
    def right_bin(self) -> Bin:
        """The bin that holds the right value."""
        return next(b for b in self.bins if b.right)

    @property
    def total(self) -> int:
        return sum(b.count for b in self.bins) + self.below + self.above


def nice_width(span: float) -> float:
    """The smallest round number (1, 2, 2.5, 5 x 10^n) at least ``span``.

    >>> nice_width(0.05), nice_width(0.051), nice_width(0.3), nice_width(7)
    (0.05, 0.1, 0.5, 10.0)
    """
    if not span > 0 or not math.isfinite(span):
        return 1.0
    power = 10.0 ** math.floor(math.log10(span))
    for step in (*_NICE, 10.0):
        width = round(step * power, 12)
        if width >= span * (1 - 1e-12):
            return width
    return round(10.0 * power, 12)


def bin_edges(right: float, low: float, high: float, tolerance: float = 0.0,
              whole_numbers: bool = False) -> tuple[float, ...]:
    """The edges of the bins: one bin centred on ``right``, the rest covering ``low..high`` (widened to ``right``).

    >>> bin_edges(2, 0, 4, whole_numbers=True)
    (-0.5, 0.5, 1.5, 2.5, 3.5, 4.5)
    """
    low, high = min(low, right), max(high, right)
    width = 1.0 if whole_numbers else nice_width(max((high - low) / TARGET_BINS, 2 * tolerance, 1e-9))
    first = right - width / 2
    below = min(math.ceil((first - low) / width - 1e-9), MAX_BINS // 2)
    above = min(math.ceil((high - (right + width / 2)) / width - 1e-9), MAX_BINS // 2)
    return tuple(round(first + i * width, 12) for i in range(-max(below, 0), max(above, 0) + 2))


def histogram(values: Sequence[float], right: float, low: float, high: float, tolerance: float = 0.0,
              whole_numbers: bool = False) -> Histogram:
    """Count ``values`` into the bins of :func:`bin_edges`."""
    edges = bin_edges(right, low, high, tolerance, whole_numbers)
    return count_into(edges, values, right)


def unmarked(histogram: Histogram) -> Histogram:
    """The same counts with no bin marked right: a spread shown live, before the reveal.

    >>> any(b.right for b in unmarked(histogram([0.5], right=0.5, low=0.0, high=1.0)).bins)
    False
    """
    return replace(histogram, bins=tuple(replace(b, right=False) for b in histogram.bins))


def count_into(edges: Sequence[float], values: Sequence[float], right: float) -> Histogram:
    """Count ``values`` into the bins between consecutive ``edges`` (half-open: ``low <= x < high``)."""
    width = edges[1] - edges[0]
    counts = [0] * (len(edges) - 1)
    below = above = 0
    for value in values:
        if not value >= edges[0]:  # NaN too: never in a bin
            below += 1
        elif value >= edges[-1]:
            above += 1
        else:
            index = min(int((value - edges[0]) // width), len(counts) - 1)
            while index > 0 and value < edges[index]:  # floating point: trust the edges, not the division
                index -= 1
            while index < len(counts) - 1 and value >= edges[index + 1]:
                index += 1
            counts[index] += 1
    right_index = next(i for i in range(len(counts)) if edges[i] <= right < edges[i + 1])
    bins = tuple(Bin(edges[i], edges[i + 1], counts[i], i == right_index) for i in range(len(counts)))
    return Histogram(bins, width, below, above)
