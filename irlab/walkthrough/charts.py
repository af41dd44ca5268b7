"""Plotly figures built from breakdowns and curves, each with a text alternative.

Colours are the Okabe–Ito palette (safe for colour-blind readers) and are never the only
signal: every series also has its own line dash and marker symbol, and the current K is
marked by a labelled line. Each ``*_figure`` function has a ``describe_*`` twin that says in
words what the chart shows, for a caption and for screen readers.

Figures are built as plain Plotly specs (dicts). Building a ``go.Figure`` validates every
property, ~30 ms per chart, a third of a drag's time budget; the tests validate every spec with
full validation instead, and the chart component (irlab/ui/components/chart/) sends the spec as it is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from irlab.explain.breakdown import Breakdown
from irlab.explain.formula import format_number
from irlab.metrics.curves import Curve

OKABE_ITO = {"blue": "#0072B2", "orange": "#E69F00", "green": "#009E73", "vermillion": "#D55E00",
             "sky": "#56B4E9", "purple": "#CC79A7", "yellow": "#F0E442", "grey": "#6B6B6B"}
TEXT_ON_WHITE = {"blue": "#005A8C", "orange": "#8A5D00", "green": "#00704F", "vermillion": "#A8430A",
                 "sky": "#1F6E99", "purple": "#8E3F73", "yellow": "#6B5A00", "grey": "#4A4A4A"}
"""Darker shades of the palette for text (value labels): each at least 5.5:1 on white (WCAG AA asks 4.5:1),
where the palette's own orange, green and purple are 2.3-3.4:1. Lines and markers keep the palette."""
SERIES_STYLES = (("blue", "solid", "circle"), ("vermillion", "dash", "square"), ("green", "dot", "diamond"),
                 ("purple", "dashdot", "triangle-up"))

Spec = dict[str, Any]


def _layout(*, title: str, x_title: str, y_title: str, large: bool, height: int = 340) -> Spec:
    size = 20 if large else 14
    return {
        "title": {"text": title, "x": 0, "font": {"size": size + 2}},
        "height": int(height * (1.3 if large else 1)),
        "margin": {"l": 10, "r": 10, "t": 56, "b": 10},
        "font": {"size": size},
        "legend": {"orientation": "h", "yanchor": "bottom", "y": 1.0, "xanchor": "right", "x": 1},
        "hovermode": "x unified",
        "xaxis": {"title": {"text": x_title}, "dtick": 1},
        "yaxis": {"title": {"text": y_title}, "rangemode": "tozero"},
    }


def _k_marker(k: int, large: bool, *, low: bool = False, first: bool = False) -> tuple[Spec, Spec]:
    """A dotted vertical line at K and its label, at the line's top (or its foot: ``low``), left of the line (right of
    it at the ``first`` K, where the y axis's numbers are)."""
    line = {"type": "line", "xref": "x", "yref": "paper", "x0": k, "x1": k, "y0": 0, "y1": 1,
            "line": {"color": OKABE_ITO["grey"], "dash": "dot", "width": 2}}
    label = {"text": f"K = {k}", "xref": "x", "yref": "paper", "x": k, "y": 0 if low else 1,
             "xanchor": "left" if first else "right",
             "yanchor": "bottom" if low else "top", "showarrow": False, "font": {"size": 18 if large else 13}}
    if low:
        label["yshift"] = 14  # above the zero line, which the axis pads a little above the plot's foot
    return line, label


def label_position(index: int, k: int, ks: Sequence[int]) -> str:
    """Where the value label at K sits beside its point: never centred on the K line, never past the plot's edge.

    Series alternate sides (left above, right below), so two curves meeting at K keep their labels apart.

    >>> label_position(0, 3, range(1, 9)), label_position(1, 3, range(1, 9)), label_position(0, 1, range(1, 9))
    ('top left', 'bottom right', 'top right')
    """
    left = index % 2 == 0
    if k == min(ks):
        left = False
    elif k == max(ks):
        left = True
    return ("top " if index % 2 == 0 else "bottom ") + ("left" if left else "right")


def value_at_k_marks(index: int, name: str, series: Curve, k: int, colour: str, *,
                     large: bool) -> tuple[Spec, Spec]:
    """A ring round one curve's point at K and its value beside it, as layout (a shape and an annotation).

    They are layout, not trace properties, so that a change of K leaves the traces as they are, and the chart
    component hands Plotly the same trace objects: Plotly then moves shapes and labels instead of recomputing
    and redrawing every trace (16.8 -> 7.9 ms of the browser's main thread per chart and K change, measured in
    bench/chart_k_change.py). The ring keeps the series' own marker symbol inside it, so the point at K is
    found without colour; the label sits where :func:`label_position` says, just clear of the ring.

    >>> from irlab.metrics.curves import curve
    >>> from irlab.metrics.precision_recall import explain_recall_at_k
    >>> recall = curve(explain_recall_at_k, list("1234"), {"2": 1})
    >>> ring, label = value_at_k_marks(0, "Recall", recall, 2, "blue", large=False)
    >>> ring["xanchor"], ring["yanchor"], label["text"], label["xanchor"], label["yanchor"]
    (2, 1.0, '1', 'right', 'bottom')
    """
    value = series.at(k).value
    diameter = 24 if large else 18
    ring = {"type": "circle", "xref": "x", "yref": "y", "xsizemode": "pixel", "ysizemode": "pixel",
            "xanchor": k, "yanchor": value, "x0": -diameter / 2, "x1": diameter / 2,
            "y0": -diameter / 2, "y1": diameter / 2, "line": {"color": OKABE_ITO[colour], "width": 3},
            "name": f"{name} at K"}
    vertical, side = label_position(index, k, series.ks).split()
    gap = diameter / 2
    label = {"text": format_number(value), "xref": "x", "yref": "y", "x": k, "y": value, "showarrow": False,
             "xanchor": "right" if side == "left" else "left", "yanchor": "bottom" if vertical == "top" else "top",
             "xshift": -gap if side == "left" else gap, "yshift": gap if vertical == "top" else -gap,
             "font": {"color": TEXT_ON_WHITE[colour], "size": 18 if large else 13}}
    return ring, label


def curves_spec(curves: Mapping[str, Curve], k: int, *, title: str, y_title: str = "value",
                unit_range: bool = True, large: bool = False) -> Spec:
    """Each curve over K as a line with markers; the point at the current K ringed and labelled."""
    traces = []
    top = max(1.0 if unit_range else 0.0, *(max(series.values) for series in curves.values()))
    values_at_k = [series.at(k).value for series in curves.values()]
    # "K = k" sits at the top of the line, unless a value at K is up there and none is near the bottom
    low = any(v > 0.85 * top for v in values_at_k) and all(v > 0.2 * top for v in values_at_k)
    k_line, k_label = _k_marker(k, large, low=low, first=k == min(next(iter(curves.values())).ks))
    shapes, annotations = [k_line], [k_label]
    for index, ((name, series), (colour, dash, symbol)) in enumerate(zip(curves.items(), SERIES_STYLES)):
        traces.append({
            "type": "scatter", "x": list(series.ks), "y": series.values, "name": name, "mode": "lines+markers",
            "line": {"color": OKABE_ITO[colour], "dash": dash, "width": 3},
            "marker": {"symbol": symbol, "size": 10, "color": OKABE_ITO[colour]},
            "hovertemplate": f"{name}@%{{x}} = %{{y:.4f}}<extra></extra>"})
        ring, label = value_at_k_marks(index, name, series, k, colour, large=large)
        shapes.append(ring)
        annotations.append(label)
    layout = _layout(title=title, x_title="K", y_title=y_title, large=large)
    _fixed_ranges(layout, next(iter(curves.values())).ks, top)
    if unit_range:
        layout["yaxis"]["range"] = [-0.05, 1.15]
    layout["shapes"], layout["annotations"] = shapes, annotations
    return {"data": traces, "layout": layout}


def _fixed_ranges(layout: Spec, ks: Sequence[int], top: float) -> None:
    """Axes that stay where they are whatever K is: half a step beyond the first and last K, and from just below 0 to
    10% above ``top`` (room for the value labelled above a point at the top). The marks at K are drawn over the plot
    (the chart component draws them itself, not Plotly), so they can no longer widen an axis to fit: before, at K = 1
    and K = 8 the ring and its label pushed the axis out, and the curves moved when K got there."""
    layout["xaxis"]["range"] = [min(ks) - 0.5, max(ks) + 0.5]
    layout["yaxis"]["range"] = [-0.05 * top, 1.1 * top]


def describe_curves(curves: Mapping[str, Curve], k: int) -> str:
    """Words for :func:`curves_spec`: where each curve starts, ends, and its value at K.

    >>> from irlab.metrics.curves import curve
    >>> from irlab.metrics.precision_recall import explain_recall_at_k
    >>> describe_curves({"Recall": curve(explain_recall_at_k, list("1234"), {"2": 1})}, 2)
    'Chart over K = 1 to 4. Recall: 0 at K = 1, 1 at K = 4, first reaches 1 at K = 2; at K = 2 it is 1.'
    """
    ks = next(iter(curves.values())).ks
    parts = []
    for name, series in curves.items():
        values = series.values
        peak = max(values)
        parts.append(f"{name}: {format_number(values[0])} at K = {ks[0]}, {format_number(values[-1])} at K = "
                     f"{ks[-1]}, first reaches {format_number(peak)} at K = {series.ks[values.index(peak)]}; "
                     f"at K = {k} it is {format_number(series.at(k).value)}")
    return f"Chart over K = {ks[0]} to {ks[-1]}. " + ". ".join(parts) + "."


def dcg_spec(curves: Mapping[str, Curve], k: int, *, large: bool = False) -> Spec:
    """DCG@K and IDCG@K together over K: the gap is what the ranking loses to the ideal order."""
    return curves_spec({name: curves[name] for name in ("DCG", "IDCG")}, k, title="DCG@K and IDCG@K",
                       y_title="discounted cumulative gain", unit_range=False, large=large)


def legend_below(layout: Spec, *, lines: int, large: bool) -> None:
    """The legend at the figure's foot, under the axis title (placed in the figure's own coordinates, so neither a
    long title nor a narrow screen puts it on the axis), with room for one entry per line on a phone."""
    layout["legend"] = {"orientation": "h", "yref": "container", "y": 0, "yanchor": "bottom", "xanchor": "left",
                        "x": 0}
    layout["margin"] = {**layout["margin"], "b": 40 + (30 if large else 22) * lines}


def dodged(index: int, count: int, width: float = 0.3) -> float:
    """How far series ``index`` of ``count`` is moved sideways from its rank, so that series with equal values
    at a rank sit side by side instead of on top of each other (the values stay exact).

    >>> [round(dodged(i, 3), 2) for i in range(3)], dodged(0, 1)
    ([-0.15, 0.0, 0.15], 0.0)
    """
    return 0.0 if count < 2 else -width / 2 + width * index / (count - 1)


def ap_terms_spec(per_query: Mapping[str, Breakdown], k: int, *, large: bool = False) -> Spec:
    """Precision@k at every rank of each query up to K; relevant ranks (the terms AP adds) filled.

    Queries often have the same precision at a rank (all 0.5 at rank 2): each query's markers are moved a
    little sideways (:func:`dodged`) and differ in shape and line, so every series stays visible.
    """
    traces = []
    for index, ((name, breakdown), (colour, dash, symbol)) in enumerate(zip(per_query.items(), SERIES_STYLES)):
        rel, ranks = breakdown.column("rel"), breakdown.column("rank")
        shift = dodged(index, len(per_query))
        traces.append({
            "type": "scatter", "x": [rank + shift for rank in ranks], "y": breakdown.column("precision"),
            "name": f"{name} (AP {breakdown.display_value})", "mode": "lines+markers",
            "line": {"color": OKABE_ITO[colour], "dash": dash, "width": 2},
            "marker": {"symbol": [symbol if r else f"{symbol}-open" for r in rel], "size": 15 if large else 12,
                       "color": OKABE_ITO[colour], "line": {"width": 2, "color": OKABE_ITO[colour]}},
            "customdata": [[rank, "relevant: this term counts" if r else "not relevant: adds nothing"]
                           for rank, r in zip(ranks, rel)],
            "hovertemplate": f"{name}: P@%{{customdata[0]}} = %{{y:.4f}} (%{{customdata[1]}})<extra></extra>"})
    layout = _layout(title="Precision@k at each rank (filled: a term of AP)", x_title="rank k",
                     y_title="Precision@k", large=large, height=400)
    legend_below(layout, lines=len(per_query), large=large)
    layout["hovermode"] = "closest"
    layout["yaxis"]["range"] = [-0.05, 1.1]
    layout["xaxis"]["range"] = [0.5, max(k, 1) + 0.5]
    return {"data": traces, "layout": layout}


def describe_ap_terms(per_query: Mapping[str, Breakdown]) -> str:
    """Words for :func:`ap_terms_spec`: each query's relevant ranks and the precision there."""
    parts = []
    for name, breakdown in per_query.items():
        terms = [f"P@{row['rank']} = {format_number(row['precision'])}" for row in breakdown.rows if row["rel"]]
        parts.append(f"{name}: " + (", ".join(terms) if terms else "no relevant item in the top K")
                     + f", AP = {breakdown.display_value}")
    return "Precision at each relevant rank. " + "; ".join(parts) + "."


def conventions_spec(rows: Sequence[tuple[str, str, float, bool]], *, large: bool = False) -> Spec:
    """Horizontal bars, one per (label group, variant, value, is_default); defaults solid blue, others hatched."""
    labels = [f"{group}: {variant}" for group, variant, _, _ in rows]
    values = [value for _, _, value, _ in rows]
    defaults = [is_default for *_, is_default in rows]
    layout = _layout(title="The current ranking under each convention (solid blue: trec_eval's default)",
                     x_title="value", y_title="", large=large, height=80 + 34 * len(rows))
    layout["yaxis"] = {"autorange": "reversed", "automargin": True}
    layout["xaxis"] = {"title": {"text": "value"}, "range": [0, max([*values, 1.0]) * 1.3]}
    layout["hovermode"] = "closest"
    return {"data": [{
        "type": "bar", "orientation": "h", "x": values, "y": labels, "textposition": "outside",
        "text": [format_number(v) + (" (default)" if d else "") for v, d in zip(values, defaults)],
        "marker": {"color": [OKABE_ITO["blue"] if d else OKABE_ITO["orange"] for d in defaults],
                   "pattern": {"shape": ["" if d else "/" for d in defaults]}},
        "hovertemplate": "%{y}: %{x:.4f}<extra></extra>"}], "layout": layout}


def describe_conventions(rows: Sequence[tuple[str, str, float, bool]]) -> str:
    """Words for :func:`conventions_spec`."""
    return "Values under each convention: " + "; ".join(
        f"{group}, {variant}: {format_number(value)}{' (default)' if is_default else ''}"
        for group, variant, value, is_default in rows) + "."


def attention_spec(weights: Mapping[str, Sequence[float]], k: int, *, large: bool = False) -> Spec:
    """How much each rank counts for each model of the user, over ranks 1..N (one line each); K marked."""
    traces = []
    for (name, values), (colour, dash, symbol) in zip(weights.items(), SERIES_STYLES):
        ranks = list(range(1, len(values) + 1))
        traces.append({
            "type": "scatter", "x": ranks, "y": list(values), "name": name, "mode": "lines+markers",
            "line": {"color": OKABE_ITO[colour], "dash": dash, "width": 3},
            "marker": {"symbol": symbol, "size": 10, "color": OKABE_ITO[colour]},
            "hovertemplate": f"{name}, rank %{{x}}: %{{y:.4f}}<extra></extra>"})
    k_line, k_label = _k_marker(k, large, first=k == 1)
    layout = _layout(title="How much each rank counts", x_title="rank", y_title="weight", large=large, height=400)
    legend_below(layout, lines=len(weights), large=large)
    _fixed_ranges(layout, range(1, max(len(values) for values in weights.values()) + 1), 1.0)
    layout["yaxis"]["range"] = [-0.05, 1.1]
    layout["shapes"], layout["annotations"] = [k_line], [k_label]
    return {"data": traces, "layout": layout}


def describe_attention(weights: Mapping[str, Sequence[float]]) -> str:
    """Words for :func:`attention_spec`: each model's weight at the first, second and last rank.

    >>> describe_attention({"RBP, p = 0.5": [1, 0.5, 0.25]})
    'How much each rank counts. RBP, p = 0.5: 1 at rank 1, 0.5 at rank 2, 0.25 at rank 3.'
    """
    parts = [f"{name}: {format_number(values[0])} at rank 1, {format_number(values[1])} at rank 2, "
             f"{format_number(values[-1])} at rank {len(values)}" for name, values in weights.items()]
    return "How much each rank counts. " + "; ".join(parts) + "."
