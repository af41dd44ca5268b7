"""Chapter 7, the user behind the metric: its numbers are the golden ones worked by hand (tests/golden/user_model.json),
and p is a setting of the chapter, carried by the link."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from irlab.walkthrough.chapters import chapter
from irlab.walkthrough.guide import steps
from irlab.walkthrough.screens import chapter_screen, numbers_of
from irlab.walkthrough.state import DEFAULT_STATE
from irlab.walkthrough.urlstate import params_from_state, state_from_params
from irlab.walkthrough.views import chapter_view

GOLDEN = json.loads((Path(__file__).resolve().parents[1] / "golden" / "user_model.json").read_text())
USER = chapter("user-model")
EXAMPLE = DEFAULT_STATE.with_preset(USER)


def golden(mode: str, name: str):
    return GOLDEN[mode][name]["value"]


def test_the_example_shows_the_golden_numbers():
    view = chapter_view(EXAMPLE, USER)
    assert {h.label: round(h.value, 4) for h in view.headline} == {
        "RBP": golden("graded", "RBP p=0.9"), "ERR@8": golden("graded", "ERR@8"), "NDCG@8": golden("graded", "NDCG@8")}
    reach = view.weights["ERR: the chance to reach rank r"]
    assert [round(value, 4) for value in reach] == golden("graded", "ERR reach by rank")
    assert [round(value, 4) for value in view.weights["RBP, p = 0.9: p^(r-1)"]][:3] == [1, 0.9, 0.81]
    assert [row["satisfies"] for row in view.err.rows] == [0, 15 / 16, 1 / 16, 7 / 16, 15 / 16, 1 / 16, 7 / 16, 3 / 16]


@pytest.mark.parametrize("k, name", [(1, "ERR@1"), (2, "ERR@2"), (3, "ERR@3")])
def test_err_at_every_k_is_golden(k, name):
    assert round(chapter_view(replace(EXAMPLE, k=k), USER).err.value, 4) == golden("graded", name)


def test_patience_swaps_and_binary_judgments_are_golden():
    assert round(chapter_view(replace(EXAMPLE, persistence=0.5), USER).rbp.value, 4) == golden("graded", "RBP p=0.5")
    swapped = replace(EXAMPLE, order=("2", "1", *EXAMPLE.order[2:]))
    assert round(chapter_view(swapped, USER).err.value, 4) == golden("graded", "ERR@8 after swapping ranks 1 and 2")
    binary = chapter_view(replace(EXAMPLE, mode="binary"), USER)
    assert round(binary.rbp.value, 4) == golden("binary", "RBP p=0.9")
    assert round(binary.err.value, 4) == golden("binary", "ERR@8")
    assert round(binary.err_query_max.value, 4) == golden("binary", "ERR@8 with the query's top grade")
    assert round(chapter_view(replace(EXAMPLE, mode="binary", k=2), USER).err.value, 4) == golden("binary", "ERR@2")


def test_the_formulas_show_the_numbers_plugged_in():
    view = chapter_view(EXAMPLE, USER)
    # rank 2 (grade 4: gain 1) read with chance 0.9; rank 3 (grade 1: gain 0.25) with 0.81
    assert view.rbp.plugged_text.startswith("RBP(p=0.9) ≈ (1 - 0.9) * (1 * 0.9 + 0.25 * 0.81 + 0.75 * 0.729")
    # rank 2: R = 15/16, reached surely, divided by 2; rank 3: R = 1/16, reached by 1/16
    assert view.err.plugged_text.startswith("ERR@8 ≈ (0.9375 * 1) / 2 + (0.0625 * 0.0625) / 3")
    blocks = [type(block).__name__ for block in chapter_screen(EXAMPLE, USER)]
    assert blocks[:4] == ["Numbers", "Tiles", "Columns", "Columns"] and "Tabs" in blocks


def test_p_is_a_setting_the_link_carries():
    moved = replace(EXAMPLE, persistence=0.35)
    params = params_from_state(moved, USER)
    assert params["persistence"] == "0.35"
    restored, notices = state_from_params(params)
    assert notices == [] and restored.persistence == 0.35
    _, notices = state_from_params({**params, "persistence": "0.99"})
    assert notices and "persistence p must be one of" in notices[0]
    assert numbers_of(chapter_screen(restored, USER))[0].display == chapter_view(moved, USER).headline[0].display


def test_try_this_promises_the_golden_moves():
    texts = [step.text for step in steps(EXAMPLE, USER)]
    assert "RBP goes from 0.3091 to 0.3711" in texts[0]
    assert "ERR@8 goes from 0.4828 to 0.9516" in texts[1]
    assert "ERR@8 goes from 0.4828 to 0.0642" in texts[2]


def test_the_weights_chart_is_valid_plotly_and_says_its_numbers():
    import plotly.graph_objects as go

    from irlab.walkthrough import charts

    view = chapter_view(EXAMPLE, USER)
    for large in (False, True):
        go.Figure(charts.attention_spec(view.weights, view.k, large=large))  # full validation
    words = charts.describe_attention(view.weights)
    assert "ERR: the chance to reach rank r: 1 at rank 1, 1 at rank 2, 0.0011 at rank 8" in words
