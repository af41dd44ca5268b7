"""Chart specs are valid Plotly (checked with full validation), accessible, and reach Streamlit intact."""

from __future__ import annotations

import json

import plotly.graph_objects as go
import plotly.io
import plotly.tools

from irlab.walkthrough import charts
from irlab.walkthrough.chapters import chapter
from irlab.walkthrough.chapters.average_precision import map_view
from irlab.walkthrough.chapters.conventions import conventions_chart_rows, conventions_view
from irlab.walkthrough.chapters.ndcg import ndcg_view
from irlab.walkthrough.chapters.recall_precision import recall_precision_view
from irlab.walkthrough.state import DEFAULT_STATE


def specs(*, large: bool):
    """Every chart of the walkthrough at the laptop size, or at the projector size (``large``)."""
    rp = recall_precision_view(DEFAULT_STATE, chapter("recall-precision"))
    nd = ndcg_view(DEFAULT_STATE, chapter("ndcg"))
    mp = map_view(DEFAULT_STATE, chapter("map"))
    cv = conventions_chart_rows(conventions_view(DEFAULT_STATE, chapter("conventions")))
    yield charts.curves_spec(rp.curves, rp.k, title="t", large=large)
    yield charts.dcg_spec(nd.curves, nd.k, large=large)
    yield charts.ap_terms_spec(mp.per_query, mp.k, large=large)
    yield charts.conventions_spec(cv, large=large)


def every_spec():
    yield from specs(large=False)
    yield from specs(large=True)


def test_every_spec_passes_plotlys_full_validation():
    for spec in every_spec():
        figure = go.Figure(spec)  # raises on any invalid property
        assert figure.data


def test_every_spec_serialises_as_it_is_for_the_chart_component():
    """The chart component sends a spec as JSON without building Plotly's object tree."""
    for spec in every_spec():
        assert json.loads(plotly.io.to_json(spec, validate=False)) == json.loads(json.dumps(spec))


def test_series_differ_by_more_than_colour_and_k_is_marked():
    rp = recall_precision_view(DEFAULT_STATE, chapter("recall-precision"))
    spec = charts.curves_spec(rp.curves, 2, title="t")
    dashes = {trace["line"]["dash"] for trace in spec["data"]}
    symbols = {trace["marker"]["symbol"] for trace in spec["data"]}
    assert len(dashes) == len(symbols) == 2
    assert spec["layout"]["shapes"][0]["x0"] == 2 and spec["layout"]["annotations"][0]["text"] == "K = 2"
    recall_label, recall_ring = spec["layout"]["annotations"][1], spec["layout"]["shapes"][1]
    assert (recall_label["text"], recall_label["x"], recall_label["y"]) == ("0.25", 2, 0.25)
    assert (recall_ring["type"], recall_ring["xanchor"], recall_ring["yanchor"]) == ("circle", 2, 0.25)


def test_a_change_of_k_changes_only_the_layout():
    """The point at K is marked by layout, so Plotly moves a few shapes and labels instead of redrawing traces."""
    rp = recall_precision_view(DEFAULT_STATE, chapter("recall-precision"))
    nd = ndcg_view(DEFAULT_STATE, chapter("ndcg"))
    for at_k in (lambda k: charts.curves_spec(rp.curves, k, title="t"), lambda k: charts.dcg_spec(nd.curves, k)):
        specs_by_k = [at_k(k) for k in range(1, 9)]
        assert all(spec["data"] == specs_by_k[0]["data"] for spec in specs_by_k)
        assert len({json.dumps(spec["layout"]) for spec in specs_by_k}) == 8


def test_descriptions_say_what_the_charts_show():
    rp = recall_precision_view(DEFAULT_STATE, chapter("recall-precision"))
    text = charts.describe_curves(rp.curves, 2)
    assert "Recall: 0 at K = 1, 1 at K = 8, first reaches 1 at K = 7; at K = 2 it is 0.25" in text
    mp = map_view(DEFAULT_STATE, chapter("map"))
    assert "dark cat: P@5 = 0.2, P@8 = 0.25, AP = 0.225" in charts.describe_ap_terms(mp.per_query)
    rows = [("gain", "linear", 0.5, True), ("gain", "exponential", 0.25, False)]
    assert charts.describe_conventions(rows) == "Values under each convention: gain, linear: 0.5 (default); " \
                                                "gain, exponential: 0.25."
    assert charts.conventions_spec(rows)["data"][0]["marker"]["pattern"]["shape"] == ["", "/"]


def _contrast(colour: str, background: str = "#ffffff") -> float:
    def luminance(hex_colour: str) -> float:
        channels = [int(hex_colour.lstrip("#")[i:i + 2], 16) / 255 for i in (0, 2, 4)]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    a, b = luminance(colour), luminance(background)
    return (max(a, b) + 0.05) / (min(a, b) + 0.05)


def test_chart_text_meets_wcag_aa_contrast():
    from irlab.runs import charts as run_charts
    from irlab.walkthrough.charts import TEXT_ON_WHITE

    assert all(_contrast(c) >= 4.5 for c in TEXT_ON_WHITE.values())
    assert _contrast(run_charts.WIN_TEXT) >= 4.5 and _contrast(run_charts.LOSS_TEXT) >= 4.5


def _font_sizes(spec) -> list[float]:
    """Every font size a spec sets (layout, title, axes, legend, annotations, trace text)."""
    sizes = []

    def walk(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("font", "textfont", "tickfont") and isinstance(value, dict) and "size" in value:
                    sizes.append(value["size"])
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(spec)
    return sizes


def test_projector_charts_use_text_of_at_least_18_px_in_dark_colours():
    for spec in specs(large=True):
        sizes = _font_sizes(spec)
        assert sizes and min(sizes) >= 18, (spec["layout"]["title"]["text"], sizes)
        assert spec["layout"]["font"]["size"] >= 18  # ticks and axis titles inherit the layout's font
    for colour in charts.TEXT_ON_WHITE.values():
        assert _contrast(colour) >= 4.5


def test_value_labels_sit_beside_the_k_line_never_on_it():
    rp = recall_precision_view(DEFAULT_STATE, chapter("recall-precision"))
    for k in range(1, 9):
        spec = charts.curves_spec(rp.curves, k, title="t", large=True)
        labels = spec["layout"]["annotations"][1:]  # after "K = k"
        sides = [(label["xanchor"], label["yanchor"]) for label in labels]
        assert len(labels) == 2 and all(side in ("left", "right") for side, _ in sides)  # never centred on K
        assert all(abs(label["xshift"]) >= 9 for label in labels)  # clear of the ring round the point
        assert sides[0] != sides[1]  # two curves meeting at K keep their labels apart
        if k == 1:
            assert all(side == "left" for side, _ in sides)  # text runs right: not past the plot's left edge
        if k == 8:
            assert all(side == "right" for side, _ in sides)
            k_label = spec["layout"]["annotations"][0]  # Recall@8 = 1 has its label at the top: "K = 8" goes down
            assert (k_label["y"], k_label["yanchor"]) == (0, "bottom")
        if k == 4:
            assert spec["layout"]["annotations"][0]["y"] == 1  # values at K = 4 are 0.5


def test_map_chart_series_never_hide_each_other():
    """Issue 20: "cat in a box" hid under "white cat" from rank 2 on. Equal values at a rank sit side by side."""
    view = map_view(DEFAULT_STATE.with_preset(chapter("map")), chapter("map"))
    spec = charts.ap_terms_spec(view.per_query, view.k)
    points = [(round(x), y, x) for trace in spec["data"] for x, y in zip(trace["x"], trace["y"])]
    coinciding = [(a, b) for i, a in enumerate(points) for b in points[i + 1:] if a[:2] == b[:2]]
    assert coinciding, "the default state has equal precision at a rank (0.5 at rank 2)"
    assert all(abs(a[2] - b[2]) >= 0.1 for a, b in coinciding)
    assert all(abs(x - round(x)) < 0.2 for _, _, x in points)  # still read as its rank
    assert {trace["marker"]["symbol"][0].removesuffix("-open") for trace in spec["data"]} == {
        "circle", "square", "diamond"}
