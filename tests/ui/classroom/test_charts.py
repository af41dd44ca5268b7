"""The projector's histogram against hand-counted answers: every spec is valid Plotly, the right answer's bar is
marked by more than colour, rounds share one scale, and the words say what the bars show."""

from __future__ import annotations

import plotly.graph_objects as go
import pytest

from irlab.classroom.activities.histogram import histogram
from irlab.classroom.activities.predict import NumberSummary
from irlab.ui.classroom.charts import describe_histogram, histogram_spec

RIGHT = 0.3869  # NDCG@2 of the sources' example


def summary(values: list[float], *, round_: int = 1, within: int = 0) -> NumberSummary:
    return NumberSummary(round_, "revealed", len(values), RIGHT,
                         histogram(values, right=RIGHT, low=0.0, high=1.0, tolerance=0.005), within, ())


def test_the_bars_count_the_answers_and_the_right_bar_is_marked_by_more_than_colour():
    values = [0.39, 0.38, 0.3869, 0.47, 0.48, 0.49, 0.2, 5.0]  # bins 0.05 wide, one centred on 0.3869
    spec = histogram_spec(summary(values, within=3), y_max=3, right_text="0.3869")
    go.Figure(spec)  # full validation: the app sends specs unvalidated
    bar = spec["data"][0]
    counts = dict(zip([round(x, 4) for x in bar["x"]], bar["y"]))
    assert counts[0.3869] == 3 and counts[round(0.3869 + 0.1, 4)] == 3 and counts[round(0.3869 - 0.2, 4)] == 1
    assert sum(bar["y"]) == 7  # 5.0 lies above the chart: counted in the words, not in a bar
    right = bar["x"].index(next(x for x in bar["x"] if round(x, 4) == 0.3869))
    assert bar["marker"]["pattern"]["shape"][right] == "/" and set(bar["marker"]["pattern"]["shape"]) == {"/", ""}
    assert spec["layout"]["annotations"][0]["text"] == "right answer 0.3869"
    assert spec["layout"]["font"]["size"] >= 18 and bar["textfont"]["size"] >= 18  # the back row


def test_rounds_side_by_side_share_one_count_axis():
    first = histogram_spec(summary([0.5] * 9 + [RIGHT]), y_max=9, right_text="0.3869")
    second = histogram_spec(summary([RIGHT] * 4, round_=2), y_max=9, right_text="0.3869")
    assert first["layout"]["yaxis"]["range"] == second["layout"]["yaxis"]["range"]
    assert first["layout"]["xaxis"]["range"] == second["layout"]["xaxis"]["range"]


def test_the_words_say_the_share_the_most_common_range_and_what_lies_outside():
    text = describe_histogram(summary([0.39, 0.47, 0.48, 0.49, -3.0, 7.0], within=1), "0.3869", "0.005")
    assert text.startswith("Round 1: 6 answers; 1 within 0.005 of the right answer 0.3869 (17%).")
    assert "The most common range is 0.46–0.51 (3 answers)." in text
    assert text.endswith("Outside the chart: 1 answer below -0.04 and 1 answer above 1.01.")


def test_a_round_without_a_distribution_has_no_chart():
    hidden = NumberSummary(1, "open", 2)
    with pytest.raises(ValueError):
        histogram_spec(hidden, y_max=1, right_text="0.3869")
    assert describe_histogram(hidden, "0.3869", "0.005") == "Round 1: 2 answers."
