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
    right = next((i for i, b in enumerate(bins) if b.right), None)  # None: shown live, before the reveal
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
    marker = None if right is None else {
        "text": f"right answer {right_text}", "x": centres[right], "y": max(counts[right], 0), "xref": "x", "yref": "y",
        "yshift": 30, "showarrow": False, "yanchor": "bottom", "font": {"size": FONT, "color": TEXT_ON_WHITE["green"]}}
    return {"data": [bar], "layout": {
        "height": height, "margin": {"l": 10, "r": 10, "t": 20, "b": 10}, "font": {"size": FONT, "color": "#1a1a1a"},
        "bargap": 0, "hovermode": "closest",
        "xaxis": {"title": {"text": "answer"}, "range": [bins[0].low, bins[-1].high], "zeroline": False},
        "yaxis": {"title": {"text": "answers"}, "range": [0, max(1, y_max) * 1.45], "rangemode": "tozero",
                  "dtick": _count_step(y_max)},
        "annotations": [marker] if marker else []}}


def _count_step(y_max: int) -> int:
    """A tick every 1, 2, 5, 10, ... answers: at most about six ticks.

    >>> [_count_step(n) for n in (3, 12, 40, 180)]
    [1, 2, 10, 50]
    """
    for step in (1, 2, 5, 10, 20, 50, 100, 200, 500):
        if y_max / step <= 6:
            return step
    return 1000


def describe_live(summary: NumberSummary) -> str:
    """A round's spread shown live (before the reveal) in words: where the answers fall, no right answer."""
    histogram = summary.histogram
    if histogram is None:
        return f"{answers(summary.count)}."
    bins = [f"{b.label}: {b.count}" for b in histogram.bins if b.count]
    return f"{answers(summary.count)} so far; " + "; ".join(bins) + "."


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


# --- order the pictures: where the class put each picture -------------------------------------------------------------

def heatmap_spec(rows: list[str], cells: tuple[tuple[int, ...], ...], *, height: int = 420) -> Spec:
    """A rank-position heatmap: one row per picture (``rows``: their labels), one column per rank, each cell the
    number of orders that put the picture at the rank (written in the cell, so the shade is never the only sign).

    >>> spec = heatmap_spec(["1 White cat", "2 Cat in a box"], ((2, 1), (1, 2)))
    >>> spec["data"][0]["type"], spec["data"][0]["z"], spec["data"][0]["x"]
    ('heatmap', [[2, 1], [1, 2]], ['rank 1', 'rank 2'])
    """
    ranks = [f"rank {r}" for r in range(1, len(cells[0]) + 1)] if cells else []
    top = max((c for row in cells for c in row), default=0)
    heat = {
        "type": "heatmap", "z": [list(row) for row in cells], "x": ranks, "y": list(rows),
        "text": [[str(c) if c else "" for c in row] for row in cells], "texttemplate": "%{text}",
        "textfont": {"size": FONT}, "zmin": 0, "zmax": max(1, top), "showscale": False, "xgap": 2, "ygap": 2,
        "colorscale": [[0.0, "#ffffff"], [0.5, OKABE_ITO["sky"]], [1.0, OKABE_ITO["blue"]]],
        "hovertemplate": "%{y}, %{x}: %{z} orders<extra></extra>",
    }
    return {"data": [heat], "layout": {
        "height": height, "margin": {"l": 10, "r": 10, "t": 10, "b": 10}, "font": {"size": FONT, "color": "#1a1a1a"},
        "xaxis": {"side": "top", "fixedrange": True}, "yaxis": {"autorange": "reversed", "fixedrange": True,
                                                                "automargin": True}}}


def describe_heatmap(rows: list[str], cells: tuple[tuple[int, ...], ...], orders: int) -> str:
    """The heatmap in words: for each picture, the rank most orders gave it.

    >>> describe_heatmap(["1 White cat", "2 Cat in a box"], ((2, 1), (1, 2)), 3)
    'Where 3 orders put each picture: 1 White cat mostly at rank 1 (2 of 3); 2 Cat in a box mostly at rank 2 (2 of 3).'
    """
    parts = []
    for label, row in zip(rows, cells):
        rank = max(range(len(row)), key=lambda r: (row[r], -r))
        parts.append(f"{label} mostly at rank {rank + 1} ({row[rank]} of {orders})")
    return f"Where {orders} orders put each picture: " + "; ".join(parts) + "."


# --- bars: the share of each option, each question's success rate, the named mistakes -----------------------------

def bars_spec(labels: list[str], counts: list[int], *, marked: list[bool] | None = None, total: int | None = None,
              height: int | None = None) -> Spec:
    """Horizontal bars, one per label, largest count first as given; ``marked`` bars (the right options) green with
    a hatch, the others sky blue; each bar says its count (and its share of ``total`` when given).

    >>> spec = bars_spec(["A", "B"], [3, 1], marked=[True, False], total=4)
    >>> spec["data"][0]["text"], spec["data"][0]["marker"]["pattern"]["shape"]
    (['3 (75%)', '1 (25%)'], ['/', ''])
    """
    marked = marked or [False] * len(labels)
    text = [f"{c} ({c / total:.0%})" if total else str(c) for c in counts]
    bar = {
        "type": "bar", "orientation": "h", "x": counts, "y": labels, "text": text, "textposition": "outside",
        "cliponaxis": False, "textfont": {"size": FONT, "color": TEXT_ON_WHITE["grey"]},
        "marker": {"color": [OKABE_ITO["green"] if m else OKABE_ITO["sky"] for m in marked],
                   "pattern": {"shape": ["/" if m else "" for m in marked], "fgcolor": "#ffffff"}},
        "hovertemplate": "%{y}: %{x}<extra></extra>", "showlegend": False,
    }
    top = max(counts, default=0)
    return {"data": [bar], "layout": {
        "height": height or 90 + 56 * len(labels), "margin": {"l": 10, "r": 40, "t": 10, "b": 10},
        "font": {"size": FONT, "color": "#1a1a1a"},
        "xaxis": {"range": [0, max(1, top) * 1.35], "dtick": _count_step(top), "fixedrange": True},
        "yaxis": {"autorange": "reversed", "automargin": True, "fixedrange": True}}}


def describe_bars(labels: list[str], counts: list[int], total: int, *, marked: list[bool] | None = None) -> str:
    """Bars in words (their text alternative).

    >>> describe_bars(["A", "B"], [3, 1], 4, marked=[True, False])
    'Of 4: A 3 (75%, right); B 1 (25%).'
    """
    marked = marked or [False] * len(labels)
    parts = [f"{label} {count}" + (f" ({count / total:.0%}{', right' if m else ''})" if total else "")
             for label, count, m in zip(labels, counts, marked)]
    return f"Of {total}: " + "; ".join(parts) + "."
