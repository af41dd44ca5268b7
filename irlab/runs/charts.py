"""The topic-by-topic chart of a comparison, as a plain Plotly spec, and its words.

One bar per topic, its height the difference B − A, topics sorted from B's largest loss to its
largest win: the classic picture of a TREC comparison, where a mean hides that one system wins
on some topics and loses on others. Colour is never the only signal: losses are hatched and
wins solid, and the caption (:func:`describe_differences`) says the same in words. The colours
are the Okabe–Ito palette's blue and vermillion, as in the walkthrough's charts.

>>> from irlab.runs.compare import compare
>>> c = compare([0.5, 0.2, 0.4], [0.7, 0.1, 0.4], ["q1", "q2", "q3"], measure="AP", run_a="bm25", run_b="dense")
>>> spec = difference_spec(c)
>>> spec["data"][0]["x"], [round(y, 2) for y in spec["data"][0]["y"]]
(['q2', 'q3', 'q1'], [-0.1, 0.0, 0.2])
>>> describe_differences(c)
'AP, dense − bm25 per topic, sorted: dense wins on 1 topic (largest +0.2000 on q1), loses on 1 (largest −0.1000 on q2), ties on 1.'
"""

from __future__ import annotations

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
    order = np.argsort(d, kind="stable")
    topics = [c.queries[i] for i in order]
    values = d[order].tolist()
    colours = [WIN_COLOUR if v > TIE else LOSS_COLOUR if v < -TIE else TIE_COLOUR for v in values]
    patterns = ["" if v >= -TIE else "/" for v in values]
    size = 18 if large else 13
    bar = {"type": "bar", "x": topics, "y": values, "name": f"{c.run_b} − {c.run_a}",
           "marker": {"color": colours, "pattern": {"shape": patterns, "fillmode": "overlay", "fgcolor": "#ffffff"},
                      "line": {"color": colours, "width": 1}},
           "customdata": np.column_stack([c.a[order], c.b[order]]).tolist(),
           "hovertemplate": (f"topic %{{x}}<br>{c.run_a}: %{{customdata[0]:.4f}}<br>{c.run_b}: "
                             f"%{{customdata[1]:.4f}}<br>difference: %{{y:+.4f}}<extra></extra>")}
    layout = {
        "title": {"text": f"{c.measure}: {c.run_b} − {c.run_a}, topic by topic", "x": 0, "font": {"size": size + 2}},
        "height": 380 if not large else 480,
        "margin": {"l": 10, "r": 10, "t": 56, "b": 10},
        "font": {"size": size},
        "showlegend": False,
        "bargap": 0.15,
        "xaxis": {"title": {"text": f"topics, sorted by difference ({c.n})"}, "type": "category",
                  "showticklabels": c.n <= MAX_LABELLED_TOPICS, "tickangle": -90 if c.n > 15 else 0},
        "yaxis": {"title": {"text": f"{c.run_b} − {c.run_a}"}, "zeroline": True, "zerolinewidth": 2,
                  "zerolinecolor": "#444444"},
        "annotations": [
            {"text": f"{c.run_b} better ▲", "xref": "paper", "yref": "paper", "x": 0, "y": 1, "xanchor": "left",
             "yanchor": "top", "showarrow": False, "font": {"color": WIN_TEXT, "size": size}},
            {"text": f"{c.run_a} better ▼ (hatched)", "xref": "paper", "yref": "paper", "x": 1, "y": 0,
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
