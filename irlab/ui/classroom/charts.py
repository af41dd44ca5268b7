"""A round's answers as a histogram for the projector: a Plotly spec and its description in words.

Pure: the bins, counts and the right value come from the predict kind's summary
(:class:`~irlab.classroom.activities.predict.NumberSummary`: bins centred on the right value, the same bins
for every round); this module only draws them. The right answer's bar is green with a hatch and
labelled "right answer", so the colour is never the only sign; each bar carries its count. All rounds
of a question share one count axis (``y_max``), so side by side they compare at a glance. Text is 20 px
and dark, readable from the back of a lecture hall (the walkthrough's projector charts do the same).

>>> from irlab.classroom.activities.histogram import histogram
>>> from irlab.classroom.activities.predict import NumberSummary
>>> h = histogram([0.39, 0.38, 0.47, 0.48, 0.2], right=0.3869, low=0.0, high=1.0, tolerance=0.005)
>>> summary = NumberSummary(1, "revealed", 5, 0.3869, h, 2, ())
>>> spec = histogram_spec(summary, y_max=2, right_text="0.3869")
>>> [trace["type"] for trace in spec["data"]], max(spec["data"][0]["y"])
(['bar'], 2)
>>> describe_histogram(summary, "0.3869", "0.005")
'Round 1: 5 answers; 2 within 0.005 of the right answer 0.3869 (40%). The most common range is 0.36–0.41 (2 answers).'
"""

from __future__ import annotations

from typing import Any

from irlab.classroom.activities.predict import NumberSummary
from irlab.explain.formula import format_number
from irlab.walkthrough.charts import OKABE_ITO, TEXT_ON_WHITE

Spec = dict[str, Any]
FONT = 20
"""Projector text (px)."""


def histogram_spec(summary: NumberSummary, *, y_max: int, right_text: str, height: int = 330) -> Spec:
    """One round's histogram: a bar per bin, the right answer's bar marked; ``y_max`` is the largest count of
    any round shown beside it."""
    histogram = summary.histogram
    if histogram is None:
        raise ValueError("this round's distribution is not shown (not revealed, or fewer than 3 answers)")
    bins = histogram.bins
    centres = [(b.low + b.high) / 2 for b in bins]
    counts = [b.count for b in bins]
    right = next(i for i, b in enumerate(bins) if b.right)
    bar = {
        "type": "bar", "x": centres, "y": counts, "width": [histogram.width * 0.92] * len(bins),
        "text": [str(c) if c else "" for c in counts], "textposition": "outside", "cliponaxis": False,
        "textfont": {"size": FONT, "color": TEXT_ON_WHITE["grey"]},
        "marker": {"color": [OKABE_ITO["green"] if b.right else OKABE_ITO["sky"] for b in bins],
                   "line": {"color": [TEXT_ON_WHITE["green"] if b.right else TEXT_ON_WHITE["sky"] for b in bins],
                            "width": 1},
                   "pattern": {"shape": ["/" if b.right else "" for b in bins], "fgcolor": "#ffffff"}},
        "hovertemplate": [f"{b.label}: %{{y}} answers<extra></extra>" for b in bins], "showlegend": False,
    }
    marker = {"text": f"right answer {right_text}", "x": centres[right], "y": max(counts[right], 0),
              "xref": "x", "yref": "y", "yshift": 30, "showarrow": False, "yanchor": "bottom",
              "font": {"size": FONT, "color": TEXT_ON_WHITE["green"]}}
    return {"data": [bar], "layout": {
        "height": height, "margin": {"l": 10, "r": 10, "t": 20, "b": 10}, "font": {"size": FONT, "color": "#1a1a1a"},
        "bargap": 0, "hovermode": "closest",
        "xaxis": {"title": {"text": "answer"}, "range": [bins[0].low, bins[-1].high], "zeroline": False},
        "yaxis": {"title": {"text": "answers"}, "range": [0, max(1, y_max) * 1.45], "rangemode": "tozero",
                  "dtick": _count_step(y_max)},
        "annotations": [marker]}}


def _count_step(y_max: int) -> int:
    """A tick every 1, 2, 5, 10, ... answers: at most about six ticks.

    >>> [_count_step(n) for n in (3, 12, 40, 180)]
    [1, 2, 10, 50]
    """
    for step in (1, 2, 5, 10, 20, 50, 100, 200, 500):
        if y_max / step <= 6:
            return step
    return 1000


def describe_histogram(summary: NumberSummary, right_text: str, tolerance_text: str) -> str:
    """The histogram in words (its text alternative, also its caption)."""
    histogram = summary.histogram
    if histogram is None:
        return f"Round {summary.round}: {answers(summary.count)}."
    share = f" ({summary.share_within:.0%})" if summary.share_within is not None else ""
    text = (f"Round {summary.round}: {answers(summary.count)}; {summary.within} within {tolerance_text} of the right "
            f"answer {right_text}{share}.")
    top = max(histogram.bins, key=lambda b: b.count)
    if top.count:
        text += f" The most common range is {top.label} ({answers(top.count)})."
    low, high = format_number(histogram.bins[0].low, 2), format_number(histogram.bins[-1].high, 2)
    outside = [f"{answers(histogram.below)} below {low}" if histogram.below else "",
               f"{answers(histogram.above)} above {high}" if histogram.above else ""]
    if any(outside):
        text += " Outside the chart: " + " and ".join(part for part in outside if part) + "."
    return text


def answers(count: int) -> str:
    """``count`` answers in words.

    >>> answers(1), answers(0)
    ('1 answer', '0 answers')
    """
    return f"{count} answer{'' if count == 1 else 's'}"
