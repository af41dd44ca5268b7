"""The chapters' claims hold, and each chapter's view shows what its page promises."""

from __future__ import annotations

from dataclasses import replace

import pytest

import irlab
from irlab.scenarios.art import PICTURES
from irlab.scenarios.cats_in_boxes import DARK_CAT, WHITE_CAT_IN_A_BOX
from irlab.walkthrough.chapters import CHAPTERS, chapter
from irlab.walkthrough.state import DEFAULT_STATE, SCENARIO
from irlab.walkthrough.views import (binary_row_targets, confusion_view, conventions_table, conventions_view, main_row,
                                     map_view, mrr_view, ndcg_view, recall_precision_view)

GRADES = SCENARIO.query(WHITE_CAT_IN_A_BOX).judgments
BINARY = SCENARIO.query("cat-in-a-box").judgments
CATS = list("12345678")
SWAPPED = list("21345678")


def test_every_chapter_has_its_text_and_a_distinct_slug():
    assert [c.number for c in CHAPTERS] == list(range(1, 7))
    assert len({c.slug for c in CHAPTERS}) == 6
    for c in CHAPTERS:
        assert c.summary and c.rewards and c.pros and c.cons and c.preset_label
        assert 1 <= c.default_k <= 8 and c.default_mode in ("binary", "graded")


def test_try_this_claims_of_the_sources_example_are_true():
    # the sources' example, the state the chapters open in: the guide's numbers for it, checked by hand
    from irlab.walkthrough.guide import try_this

    assert irlab.confusion_at_k(CATS, BINARY, 8)[2:] == (0, 0)
    assert "TP goes from 1 to 4" in try_this(DEFAULT_STATE, chapter("actual-vs-predicted"))
    assert irlab.recall_at_k(SWAPPED, BINARY, 2) == irlab.recall_at_k(CATS, BINARY, 2) == 0.25
    assert "Recall@2 stays 0.25" in try_this(DEFAULT_STATE, chapter("recall-precision"))
    dark = list(SCENARIO.query(DARK_CAT).default_ranking)
    moved = [dark[4], *dark[:4], *dark[5:]]
    state = replace(DEFAULT_STATE, query_orders={DARK_CAT: tuple(moved)})
    assert round(mrr_view(state, chapter("mrr")).mean.value, 4) == 0.8333
    assert "from rank 5 to rank 1: its reciprocal rank jumps from 0.2 to 1 and MRR from 0.5667 to 0.8333" in \
        try_this(DEFAULT_STATE, chapter("mrr"))
    assert irlab.dcg_at_k(SWAPPED, GRADES, 2) == 4 and round(irlab.ndcg_at_k(SWAPPED, GRADES, 2), 4) == 0.6131
    assert "DCG@2 goes from 2.5237 to 4 and NDCG@2 from 0.3869 to 0.6131" in try_this(DEFAULT_STATE, chapter("ndcg"))


def test_effective_k_and_mode_follow_the_chapter_until_chosen():
    assert DEFAULT_STATE.effective_k(chapter("map")) == 8 and DEFAULT_STATE.effective_mode(chapter("ndcg")) == "graded"
    chosen = replace(DEFAULT_STATE, k=3, mode="binary")
    assert chosen.effective_k(chapter("map")) == 3 and chosen.effective_mode(chapter("ndcg")) == "binary"
    assert chosen.with_preset(chapter("map")).k == 8


def test_tiles_carry_grades_classes_and_alt_text():
    row = main_row(DEFAULT_STATE, chapter("actual-vs-predicted"), show_classes=True)
    assert [t["class"] for t in row.tiles] == ["FP", "TP", "TN", "FN", "FN", "TN", "FN", "TN"]
    assert all(t["alt"] and t["picture"] in PICTURES for t in row.tiles)  # the UI serves each as a cached file
    graded = main_row(DEFAULT_STATE, chapter("ndcg"))
    assert graded.editable_grades and [t["relevance"] for t in graded.tiles] == [0, 4, 1, 3, 4, 1, 3, 2]
    assert graded.tiles[1]["relevance_label"] == "grade 4 of 4" and graded.ideal_order[:2] == ("2", "5")
    assert binary_row_targets() == {"tiles-cat-in-a-box": "main", "tiles-white-cat": "white-cat",
                                    "tiles-dark-cat": "dark-cat"}


def test_views_show_their_chapters_numbers():
    assert confusion_view(DEFAULT_STATE, chapter("actual-vs-predicted")).confusion.value == (1, 1, 3, 3)
    view = recall_precision_view(DEFAULT_STATE, chapter("recall-precision"))
    assert view.curves["Recall"].values == [0, 0.25, 0.25, 0.5, 0.75, 0.75, 1, 1]
    assert round(map_view(DEFAULT_STATE, chapter("map")).mean.value, 4) == 0.4786
    ndcg = ndcg_view(DEFAULT_STATE, chapter("ndcg"))
    assert [round(v, 4) for v in ndcg.curves["NDCG"].values] == [0, 0.3869, 0.3768, 0.4633, 0.5811, 0.5954,
                                                                  0.6698, 0.7283]
    assert ndcg.ideal_badges[0] == "1 \u00b7 grade 4"


def test_conventions_view_names_the_disagreements():
    view = conventions_view(DEFAULT_STATE, chapter("conventions"))
    assert view.differing_topics == ("gain", "discount")
    assert "DCG gain (linear 0.7283 vs exponential 0.6829)" in view.differences_text
    headers, cells = conventions_table(view)
    assert headers == ["convention", "variant", "metric", "value", "vs default", "used by"]
    assert ["DCG gain", "exponential gain", "NDCG@8", "0.6829", "\u22120.0454"] == cells[1][:5]
    short = conventions_view(replace(DEFAULT_STATE, k=5, returned=3), chapter("conventions"))
    assert set(short.differing_topics) >= {"ideal", "precision_denominator"}
    assert {part.measure for part in short.shown_breakdowns} >= {"IDCG@5", "Precision@5"}


@pytest.mark.parametrize("view", [recall_precision_view, ndcg_view])
def test_views_are_fast_enough_to_run_on_every_drag(view, benchmark=None):
    """Not a timing test: the views must not do anything quadratic in K beyond the 8x8 curves."""
    chap = chapter("ndcg" if view is ndcg_view else "recall-precision")
    result = view(replace(DEFAULT_STATE, k=8), chap)
    assert len(next(iter(result.curves.values())).ks) == 8
