"""The chapters' claims hold, and each chapter's view shows what its page promises."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

import irlab
from irlab.scenarios.art import PICTURES
from irlab.scenarios.cats_in_boxes import DARK_CAT, WHITE_CAT_IN_A_BOX
from irlab.ui.shell.pages import chapter_page_path
from irlab.walkthrough.chapters import CHAPTERS, chapter
from irlab.walkthrough.chapters.actual_vs_predicted import confusion_view
from irlab.walkthrough.chapters.average_precision import map_view
from irlab.walkthrough.chapters.conventions import conventions_table, conventions_view
from irlab.walkthrough.chapters.mrr import mrr_view
from irlab.walkthrough.chapters.ndcg import ndcg_view
from irlab.walkthrough.chapters.recall_precision import recall_precision_view
from irlab.walkthrough.guide import steps
from irlab.walkthrough.screens import chapter_screen
from irlab.walkthrough.state import DEFAULT_STATE, SCENARIO
from irlab.walkthrough.views import binary_row_targets, main_row, state_key, with_changes

ROOT = Path(__file__).resolve().parents[2]
GRADES = SCENARIO.query(WHITE_CAT_IN_A_BOX).judgments
BINARY = SCENARIO.query("cat-in-a-box").judgments
CATS = list("12345678")
SWAPPED = list("21345678")


def test_every_chapter_has_its_text_and_a_distinct_slug():
    assert [c.number for c in CHAPTERS] == list(range(1, len(CHAPTERS) + 1))
    assert len({c.slug for c in CHAPTERS}) == len(CHAPTERS) >= 6
    for c in CHAPTERS:
        assert c.summary and c.rewards and c.pros and c.cons and c.preset_label and c.teaches
        assert 1 <= c.default_k <= 8 and c.default_mode in ("binary", "graded")
        assert c.icon.startswith(":material/") and c.class_numbers


@pytest.mark.parametrize("chap", CHAPTERS, ids=lambda c: c.slug)
def test_a_chapter_is_one_module_and_its_page(chap):
    """Issue 36: a chapter's view, screen, steps and class numbers are declared in its own module, and its page
    file is the one the navigation names (a new chapter adds its module and its page, nothing keyed by name)."""
    module = chap.view.__module__
    assert module.startswith("irlab.walkthrough.chapters.")
    assert {f.__module__ for f in (chap.screen, chap.steps, chap.class_number)} == {module}
    assert ROOT.joinpath(chapter_page_path(chap)).read_text().count(f'chapter("{chap.slug}")') == 1
    state = DEFAULT_STATE.with_preset(chap)
    assert chapter_screen(state, chap) and steps(state, chap)
    assert all(chap.class_number(state, chap, key).key == key for key in chap.class_numbers)


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
    assert "from rank 5 to rank 1: RR of \u201cdark cat\u201d goes from 0.2 to 1 and MRR from 0.5667 to 0.8333" in \
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
    assert "DCG gain: linear gain 0.7283 vs exponential gain 0.6829" in view.differences_text
    assert "original Järvelin–Kekäläinen discount 0.7675" in view.differences_text  # words, not 'jarvelin-kekalainen'

    headers, cells = conventions_table(view)
    assert headers == ["convention", "variant", "metric", "value", "vs default", "used by"]
    assert cells[1][:5] == ["DCG gain", "exponential gain", "NDCG@8", "0.6829", "\u22120.0454"]
    short = conventions_view(replace(DEFAULT_STATE, k=5, returned=3), chapter("conventions"))
    assert set(short.differing_topics) >= {"ideal", "precision_denominator"}
    assert {part.measure for part in short.shown_breakdowns} >= {"IDCG@5", "Precision@5"}


def _drag(state, chap):
    """What a run of a chapter's live region computes: the screen, then "Try this" (irlab/ui/walkthrough/page.py)."""
    return chapter_screen(state, chap), steps(state, chap)


@pytest.mark.parametrize("chap", CHAPTERS, ids=lambda c: c.slug)
def test_a_run_computes_the_view_of_the_state_on_screen_once(chap):
    """Issue 22: a drag computed ndcg_view four times, three for the same state. Now the screen and "Try this"
    share one view of the state, and each move "Try this" predicts is computed once."""
    view = chap.view
    state = replace(DEFAULT_STATE.with_preset(chap), order=tuple("31245678"))
    view.cache_clear()
    _, chapter_steps = _drag(state, chap)
    moves = {state_key(step.move) for step in chapter_steps if step.move is not None} - {state_key(state)}
    computed = view.cache_info().misses
    assert 1 <= computed <= 1 + len(moves)  # the state on screen once, at most one per predicted move
    view(state, chap)
    _drag(state, chap)  # the next run of the same state (a rerun without a move) computes nothing
    assert view.cache_info().misses == computed
    assert view(state, chap) is view(replace(state, query_orders=dict(state.query_orders)), chap)


def test_a_change_is_shown_only_between_numbers_of_the_same_quantity():
    """Issue 20 item 8: binary -> graded showed "Recall@2 0.1429 down -0.1071", two different queries."""
    rp = chapter("recall-precision")
    binary = recall_precision_view(DEFAULT_STATE, rp).headline
    graded = recall_precision_view(replace(DEFAULT_STATE, mode="graded"), rp).headline
    assert [h.change for h in with_changes(graded, binary)] == [None, None]
    level = recall_precision_view(replace(DEFAULT_STATE, mode="graded", level=3), rp).headline
    assert [h.change for h in with_changes(level, graded)] == [None, None]
    wider = recall_precision_view(replace(DEFAULT_STATE, k=4), rp).headline  # K may change: that is the lesson
    assert [(h.label, h.change_display) for h in with_changes(wider, binary)] == [("Recall@4", "+0.25"),
                                                                                 ("Precision@4", "no change")]
    mrr = chapter("mrr")
    before = mrr_view(DEFAULT_STATE, mrr).headline
    after = mrr_view(replace(DEFAULT_STATE, mode="graded"), mrr).headline  # MRR ranks the binary queries in any mode
    assert [h.change_display for h in with_changes(after, before)] == ["no change"] * 4
    nd = chapter("ndcg")
    assert all(h.change is None for h in with_changes(ndcg_view(replace(DEFAULT_STATE, mode="binary"), nd).headline,
                                                      ndcg_view(DEFAULT_STATE, nd).headline))
    quantities = [h.quantity for view in (binary, graded, level, wider) for h in view]
    assert len(set(quantities)) == 6 and all(q is not None and q.measure in ("Recall", "Precision") for q in quantities)


def test_graded_tiles_say_in_words_whether_they_count_as_relevant():
    """Issue 20 item 12: chapters 1-2 in graded mode mark, at the chosen level, which pictures count."""
    for slug, view in (("actual-vs-predicted", confusion_view), ("recall-precision", recall_precision_view)):
        row = view(replace(DEFAULT_STATE, mode="graded", level=2), chapter(slug)).row
        grades = [t["relevance"] for t in row.tiles]
        assert [t["counts"] for t in row.tiles] == [g >= 2 for g in grades]
        assert row.tiles[3]["counts_label"] == "relevant (3 \u2265 2)"
        assert row.tiles[2]["counts_label"] == "not relevant (1 < 2)"
        binary = view(DEFAULT_STATE, chapter(slug)).row
        assert {t["counts"] for t in binary.tiles} == {None} and {t["counts_label"] for t in binary.tiles} == {""}
    ndcg_row = ndcg_view(DEFAULT_STATE, chapter("ndcg")).row  # grades count as grades there: no level
    assert {t["counts"] for t in ndcg_row.tiles} == {None}
