"""The charts of the runs page as plain Plotly specs (dicts, no Plotly import), and their words.

* **Topic by topic** (:func:`difference_spec`): one bar per topic, its height the difference
  B − A, topics sorted from B's largest loss to its largest win: the classic picture of a TREC
  comparison, where a mean hides that one system wins on some topics and loses on others. Losses
  are hatched and wins solid, and the caption (:func:`describe_differences`) says the same in words.
* **Interpolated precision-recall** (:func:`precision_recall_spec`): every run's interpolated
  precision at the 11 recall levels 0, 0.1, ..., 1 (trec_eval's ``iprec_at_recall``, averaged
  over topics) in one chart; each run has its own marker shape and line dash as well as colour.

Colour is never the only signal. The colours are the Okabe–Ito palette's, as in the walkthrough's charts.

>>> from irlab.runs.compare import compare
>>> c = compare([0.5, 0.2, 0.4], [0.7, 0.1, 0.4], ["q1", "q2", "q3"], measure="AP", run_a="bm25", run_b="dense")
>>> spec = difference_spec(c)
>>> spec["data"][0]["x"], [round(y, 2) for y in spec["data"][0]["y"]]
(['q2', 'q3', 'q1'], [-0.1, 0.0, 0.2])
>>> print(describe_differences(c))  # doctest: +NORMALIZE_WHITESPACE
AP, dense − bm25 per topic, sorted: dense wins on 1 topic (largest +0.2000 on q1),
loses on 1 (largest −0.1000 on q2), ties on 1.
>>> curve = precision_recall_curve("bm25", [0.6, 0.5, 0.45, 0.4, 0.3, 0.25, 0.2, 0.15, 0.1, 0.05, 0.0])
>>> spec = precision_recall_spec([curve])
>>> spec["data"][0]["x"][:3], spec["data"][0]["marker"]["symbol"], spec["data"][0]["line"]["dash"]
([0.0, 0.1, 0.2], 'circle', 'solid')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from irlab.runs.compare import TIE, Comparison

WIN_COLOUR = "#0072B2"
LOSS_COLOUR = "#D55E00"
TIE_COLOUR = "#6B6B6B"
WIN_TEXT, LOSS_TEXT = "#005A8C", "#A8430A"
"""Darker shades for the labels: 7.4:1 and 6.1:1 on white (the bars' vermillion is 3.9:1, under WCAG AA for text)."""
MAX_LABELLED_TOPICS = 60
"""With more topics the x axis shows no topic ids (hovering still names each bar)."""


def difference_spec(c: Comparison, *, large: bool = False) -> dict[str, Any]:
    """A bar per topic, B − A, sorted ascending; wins solid blue, losses hatched vermillion, ties grey."""
    d = c.differences
    run_a, run_b = _hover_text(c.run_a), _hover_text(c.run_b)  # Plotly reads tags in any text
    order = np.argsort(d, kind="stable")
    topics = [_hover_text(c.queries[i]) for i in order]
    values = d[order].tolist()
    colours = [WIN_COLOUR if v > TIE else LOSS_COLOUR if v < -TIE else TIE_COLOUR for v in values]
    patterns = ["" if v >= -TIE else "/" for v in values]
    size = 18 if large else 13
    bar = {"type": "bar", "x": topics, "y": values, "name": f"{run_b} − {run_a}",
           "marker": {"color": colours, "pattern": {"shape": patterns, "fillmode": "overlay", "fgcolor": "#ffffff"},
                      "line": {"color": colours, "width": 1}},
           "customdata": np.column_stack([c.a[order], c.b[order]]).tolist(),
           "hovertemplate": (f"topic %{{x}}<br>{run_a}: %{{customdata[0]:.4f}}<br>{run_b}: "
                             f"%{{customdata[1]:.4f}}<br>difference: %{{y:+.4f}}<extra></extra>")}
    layout = {
        "title": {"text": f"{c.measure}: {run_b} − {run_a}, topic by topic", "x": 0, "font": {"size": size + 2}},
        "height": 380 if not large else 480,
        "margin": {"l": 10, "r": 10, "t": 56, "b": 10},
        "font": {"size": size},
        "showlegend": False,
        "bargap": 0.15,
        "xaxis": {"title": {"text": f"topics, sorted by difference ({c.n})"}, "type": "category",
                  "showticklabels": c.n <= MAX_LABELLED_TOPICS, "tickangle": -90 if c.n > 15 else 0},
        "yaxis": {"title": {"text": f"{run_b} − {run_a}"}, "zeroline": True, "zerolinewidth": 2,
                  "zerolinecolor": "#444444"},
        "annotations": [
            {"text": f"{run_b} better ▲", "xref": "paper", "yref": "paper", "x": 0, "y": 1, "xanchor": "left",
             "yanchor": "top", "showarrow": False, "font": {"color": WIN_TEXT, "size": size}},
            {"text": f"{run_a} better ▼ (hatched)", "xref": "paper", "yref": "paper", "x": 1, "y": 0,
             "xanchor": "right", "yanchor": "bottom", "showarrow": False, "font": {"color": LOSS_TEXT, "size": size}},
        ],
    }
    return {"data": [bar], "layout": layout}


def describe_differences(c: Comparison) -> str:
    """Words for :func:`difference_spec`: wins, losses and ties of B, with the largest of each."""
    d = c.differences
    parts = [f"{c.measure}, {c.run_b} − {c.run_a} per topic, sorted: {c.run_b} wins on {_topics(c.wins)}"]
    if c.wins:
        best = int(np.argmax(d))
        parts[0] += f" (largest {d[best]:+.4f} on {c.queries[best]})"
    parts.append(f"loses on {c.losses}")
    if c.losses:
        worst = int(np.argmin(d))
        parts[-1] += f" (largest {d[worst]:+.4f} on {c.queries[worst]})".replace("-", "−")
    parts.append(f"ties on {c.ties}")
    return ", ".join(parts) + "."


def _topics(n: int) -> str:
    return f"{n} topic" if n == 1 else f"{n} topics"


ELEVEN_POINTS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
"""The recall levels of trec_eval's ``iprec_at_recall`` (and of 11-point average precision)."""
RUN_COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000")
"""Okabe–Ito colours, one per run (then again, with other shapes and dashes)."""
RUN_SYMBOLS = ("circle", "square", "diamond", "triangle-up", "x", "star", "triangle-down", "cross", "pentagon")
RUN_DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")


@dataclass(frozen=True)
class PrecisionRecallCurve:
    """One run's interpolated precision at each recall level, averaged over its topics."""

    run: str
    recall: tuple[float, ...]
    precision: tuple[float, ...]


def precision_recall_curve(run: str, precision: Sequence[float],
                           recall: Sequence[float] = ELEVEN_POINTS) -> PrecisionRecallCurve:
    """A curve from the mean interpolated precision at each of ``recall`` (trec_eval's ``iprec_at_recall_*``)."""
    if len(precision) != len(recall):
        raise ValueError(f"one precision per recall level: {len(precision)} for {len(recall)} levels")
    return PrecisionRecallCurve(run, tuple(float(r) for r in recall), tuple(float(p) for p in precision))


def precision_recall_spec(curves: Sequence[PrecisionRecallCurve], *, large: bool = False) -> dict[str, Any]:
    """Every run's interpolated precision-recall curve in one chart: colour, marker shape and dash per run."""
    size = 18 if large else 13
    data = []
    for i, curve in enumerate(curves):
        data.append({"type": "scatter", "mode": "lines+markers", "name": curve.run, "x": list(curve.recall),
                     "y": list(curve.precision),
                     "line": {"color": RUN_COLOURS[i % len(RUN_COLOURS)], "dash": RUN_DASHES[i % len(RUN_DASHES)],
                              "width": 2},
                     "marker": {"symbol": RUN_SYMBOLS[i % len(RUN_SYMBOLS)], "size": 9},
                     "hovertemplate": f"{_hover_text(curve.run)}<br>recall %{{x:.1f}}<br>interpolated precision "
                                      "%{y:.4f}<extra></extra>"})
    layout = {
        "title": {"text": "Interpolated precision at 11 recall levels (mean over topics)", "x": 0,
                  "font": {"size": size + 2}},
        "height": 420 if not large else 520,
        "margin": {"l": 10, "r": 10, "t": 56, "b": 10},
        "font": {"size": size},
        "showlegend": True,
        "legend": {"orientation": "h", "y": -0.2},
        "xaxis": {"title": {"text": "recall"}, "range": [-0.02, 1.02], "dtick": 0.1},
        "yaxis": {"title": {"text": "interpolated precision"}, "range": [0, 1.02]},
    }
    return {"data": data, "layout": layout}


def describe_precision_recall(curves: Sequence[PrecisionRecallCurve]) -> str:
    """Words for :func:`precision_recall_spec`: each run's precision at recall 0, 0.5 and 1.

    >>> describe_precision_recall([precision_recall_curve("bm25", [0.6, 0.5, 0.45, 0.4, 0.3, 0.25, 0.2, 0.15, 0.1,
    ...                                                             0.05, 0.0])])
    'Interpolated precision at recall 0, 0.5 and 1: bm25 0.6000, 0.2500, 0.0000.'
    """
    def at(curve: PrecisionRecallCurve, level: float) -> str:
        return f"{curve.precision[curve.recall.index(level)]:.4f}" if level in curve.recall else "—"

    runs = "; ".join(f"{c.run} {at(c, 0.0)}, {at(c, 0.5)}, {at(c, 1.0)}" for c in curves)
    return f"Interpolated precision at recall 0, 0.5 and 1: {runs}."


def _hover_text(name: str) -> str:
    """A run name inside a Plotly hover template: its own % and < cannot act as template or markup."""
    return name.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("%", "&#37;")
