"""The chapters under AppTest: golden values by default, controls and tile moves change exactly what
irlab computes, links restore state, malformed links give a notice and never an exception."""

from __future__ import annotations

import pytest

import irlab
from irlab.explain.formula import format_number
from irlab.scenarios.cats_in_boxes import CATS_IN_BOXES, DARK_CAT, WHITE_CAT, WHITE_CAT_IN_A_BOX
from irlab.ui.walkthrough.page import REGION
from tests.ui.conftest import region_data, send_message

GRADES = CATS_IN_BOXES.query(WHITE_CAT_IN_A_BOX).judgments
BINARY = CATS_IN_BOXES.query("cat-in-a-box").judgments
SWAPPED = "2 1 3 4 5 6 7 8"


def shown(value: float) -> str:
    return format_number(value)


@pytest.mark.parametrize("slug, expected", [
    ("actual-vs-predicted", {"TP": "1", "FP": "1", "FN": "3", "TN": "3"}),
    ("recall-precision", {"Recall@2": "0.25", "Precision@2": "0.5"}),
    ("mrr", {"MRR": "0.5667", "RR · cat in a box": "0.5", "RR · white cat": "1", "RR · dark cat": "0.2"}),
    ("map", {"MAP@8": "0.4786", "AP@8 · cat in a box": "0.5429", "AP@8 · white cat": "0.6679",
             "AP@8 · dark cat": "0.225"}),
    ("ndcg", {"CG@2": "4", "DCG@2": "2.5237", "IDCG@2": "6.5237", "NDCG@2": "0.3869"}),
])
def test_default_state_shows_the_golden_values(slug, expected, shown_metrics, open_page):
    assert shown_metrics(open_page(slug)) == expected


def test_conventions_default_shows_the_golden_ndcg_variants(open_page, shown_blocks):
    at = open_page("conventions")
    [table] = [block for block in shown_blocks(at) if block["kind"] == "table" and block["key"] == "table"]
    values = {row[3] for row in table["cells"]}
    assert {"0.7283", "0.6829", "0.7675"} <= values  # linear, exponential, Järvelin–Kekäläinen NDCG@8


@pytest.mark.parametrize("k", [1, 5, 8])
def test_moving_k_changes_recall_and_precision_exactly(k, shown_metrics, open_page):
    at = open_page("recall-precision")
    send_message(at, "k", k=k)
    ranking = list(CATS_IN_BOXES.query("cat-in-a-box").default_ranking)
    assert shown_metrics(at) == {f"Recall@{k}": shown(irlab.recall_at_k(ranking, BINARY, k)),
                           f"Precision@{k}": shown(irlab.precision_at_k(ranking, BINARY, k))}


def test_a_tile_move_changes_ndcg_but_not_recall(pages, tile_change, shown_metrics, open_page):
    """The walkthrough's experiment: swap the first two tiles."""
    at = open_page("recall-precision")
    at.session_state[REGION] = tile_change(SWAPPED)
    at.run()
    assert shown_metrics(at) == {"Recall@2": "0.25", "Precision@2": "0.5"}
    at.switch_page(pages["ndcg"]).run()
    assert shown_metrics(at)["NDCG@2"] == shown(irlab.ndcg_at_k(SWAPPED.split(), GRADES, 2)) == "0.6131"
    assert shown_metrics(at)["CG@2"] == "4" and shown_metrics(at)["DCG@2"] == "4"


def test_relevance_toggle_switches_queries(shown_metrics, open_page):
    at = open_page("recall-precision")
    at.button_group(key="irlab.widget.mode").set_value("graded").run()  # the title row's Relevance switch
    ranking = list(CATS_IN_BOXES.query("cat-in-a-box").default_ranking)
    assert shown_metrics(at)["Precision@2"] == shown(irlab.precision_at_k(ranking, GRADES, 2)) == "0.5"
    send_message(at, "k", k=3)
    assert shown_metrics(at)["Precision@3"] == shown(irlab.precision_at_k(ranking, GRADES, 3)) == "0.6667"


def test_controls_persist_across_chapters_once_chosen(pages, shown_metrics, open_page):
    at = open_page("recall-precision")
    send_message(at, "k", k=5)
    at.switch_page(pages["map"]).run()
    assert "MAP@5" in shown_metrics(at)  # the learner's K follows; unchosen, MAP opens at its example K = 8
    at.switch_page(pages["ndcg"]).run()
    assert "NDCG@5" in shown_metrics(at)


def test_chapters_open_in_their_sources_example_until_a_control_is_touched(pages, shown_metrics, open_page):
    at = open_page("recall-precision")
    at.switch_page(pages["map"]).run()
    assert "MAP@8" in shown_metrics(at)
    at.switch_page(pages["ndcg"]).run()
    assert shown_metrics(at)["NDCG@2"] == "0.3869"  # graded by default here


def test_grade_edits_from_the_tiles_change_ndcg(tile_change, shown_metrics, open_page):
    at = open_page("ndcg")
    grades = {**dict(GRADES), "1": 4}
    at.session_state[REGION] = tile_change("1 2 3 4 5 6 7 8", grades=grades)
    at.run()
    assert shown_metrics(at)["NDCG@2"] == shown(irlab.ndcg_at_k(list("12345678"), grades, 2)) == "1"
    assert at.query_params["grades"] == "4,4,1,3,4,1,3,2"


def test_mrr_rows_reorder_their_own_query(tile_change, shown_metrics, open_page):
    at = open_page("mrr")
    dark = list(CATS_IN_BOXES.query(DARK_CAT).default_ranking)
    dark.remove("4")
    at.session_state[REGION] = tile_change(" ".join(["4", *dark]), row=f"tiles-{DARK_CAT}")
    at.run()
    assert shown_metrics(at)["RR · dark cat"] == "1" and shown_metrics(at)["MRR"] == "0.8333"
    assert at.query_params["order_dark_cat"] == "4," + ",".join(dark)
    assert shown_metrics(at)["RR · white cat"] == "1"


def test_map_preset_restores_the_sources_example(tile_change, shown_metrics, open_page):
    at = open_page("map")
    send_message(at, "k", k=3)
    at.session_state[REGION] = tile_change("8 7 6 5 4 3 2 1", row=f"tiles-{WHITE_CAT}")
    at.run()
    assert shown_metrics(at)["MAP@3"] != "0.4786"
    at.button(key="preset-map").click().run()
    assert shown_metrics(at)["MAP@8"] == "0.4786"


def test_the_state_round_trips_through_the_url(tile_change, shown_metrics, open_page):
    at = open_page("ndcg")
    send_message(at, "k", k=4)
    at.session_state[REGION] = tile_change("5 2 4 7 8 3 6 1", grades=dict(GRADES))
    at.run()
    params = {name: at.query_params[name] for name in at.query_params}
    assert params == {"order": "5,2,4,7,8,3,6,1", "k": "4", "rel": "graded"}
    again = open_page("ndcg", params)
    assert shown_metrics(again) == shown_metrics(at)


@pytest.mark.parametrize("params, notice", [
    ({"k": "12"}, "K must be between 1 and 8"),
    ({"k": "two"}, "K must be between 1 and 8"),
    ({"order": "1,2,2,4,5,6,7,8"}, "each of the pictures 1-8 once"),
    ({"order": "<script>alert(1)</script>"}, "each of the pictures 1-8 once"),
    ({"rel": "fuzzy"}, "rel must be 'binary' or 'graded'"),
    ({"grades": "9,9,9,9,9,9,9,9"}, "above the top of the scale"),
    ({"order_dark_cat": "1,2"}, "each of the pictures 1-8 once"),
    ({"present": "maybe"}, "present must be 1 or 0"),
    ({"K": "3"}, "unknown setting 'K'"),
])
def test_malformed_links_give_a_notice_and_defaults(params, notice, shown_metrics, open_page):
    at = open_page("recall-precision", params)
    assert not at.exception
    warnings = " ".join(w.value for w in at.warning).replace("\\", "")  # notices are escaped Markdown
    assert notice in warnings and "<script>" not in warnings
    assert shown_metrics(at) == {"Recall@2": "0.25", "Precision@2": "0.5"}


def test_a_malformed_tile_value_is_ignored_with_a_notice(tile_change, shown_metrics, open_page):
    at = open_page("recall-precision")
    at.session_state[REGION] = tile_change("1 2 3")
    at.run()
    assert not at.exception and "was ignored" in " ".join(w.value for w in at.warning)
    assert shown_metrics(at) == {"Recall@2": "0.25", "Precision@2": "0.5"}


def test_presentation_mode_hides_secondary_text(shown_metrics, open_page):
    at = open_page("recall-precision")
    summary = "asks: of all the relevant pictures"
    assert any(summary in m.value for m in at.markdown)
    at.toggle(key="irlab.widget.present").set_value(True).run()
    assert not any(summary in m.value for m in at.markdown)
    assert at.query_params["present"] == "1" and shown_metrics(at)["Recall@2"] == "0.25"


def test_start_over_restores_everything(tile_change, shown_metrics, open_page):
    at = open_page("recall-precision")
    send_message(at, "k", k=6)
    at.session_state[REGION] = tile_change("8 7 6 5 4 3 2 1")
    at.run()
    at.sidebar.button[0].click().run()
    assert shown_metrics(at) == {"Recall@2": "0.25", "Precision@2": "0.5"}


def test_conventions_returned_items_make_the_ideal_basis_differ(open_page, shown_blocks):
    """The chapter's experiment: a run of 3 items at K = 5."""
    at = open_page("conventions")
    send_message(at, "k", k=5)
    send_message(at, "control", action="setting", name="returned", value="3")
    [text] = [block["text"] for block in shown_blocks(at) if block["key"] == "differences"]
    assert "IDCG basis: IDCG over all judged items" in text and "Precision@K denominator: K " in text
    run = list("123")
    judged = irlab.ndcg_at_k(run, GRADES, 5)
    retrieved = irlab.ndcg_at_k(run, GRADES, 5, ideal="retrieved")
    assert retrieved > judged and f"IDCG over the retrieved items only {shown(retrieved)}" in text


def test_the_relevance_level_decides_what_counts_in_chapters_1_and_2(open_page, shown_metrics):
    from irlab import explain_confusion_at_k, explain_recall_at_k
    from irlab.walkthrough.state import DEFAULT_STATE

    order, grades = list(DEFAULT_STATE.order), dict(DEFAULT_STATE.graded_judgments())
    at = open_page("actual-vs-predicted", {"rel": "graded", "k": "4", "level": "3"})
    counts = explain_confusion_at_k(order, grades, 4, relevance_level=3).value
    assert shown_metrics(at) == {name: str(value) for name, value in counts._asdict().items()}
    [level] = [s for s in region_data(at)["controls"]["settings"] if s["name"] == "level"]
    assert level["applies"] and level["value"] == "3" and "grade ≥ 3 (trec_eval's -l 3)" in level["note"]
    send_message(at, "control", action="setting", name="level", value="1")  # the "Relevant from grade" buttons
    counts = explain_confusion_at_k(order, grades, 4, relevance_level=1).value
    assert shown_metrics(at)["TP"] == str(counts.TP) and at.query_params.get("level") in (["1"], "1")

    at = open_page("recall-precision", {"rel": "graded", "k": "4", "level": "4"})
    recall = explain_recall_at_k(order, grades, 4, relevance_level=4)
    assert shown_metrics(at)["Recall@4"] == recall.display_value


def test_binary_mode_says_what_is_relevant_and_offers_no_level(open_page):
    at = open_page("actual-vs-predicted", {"level": "3"})  # a level means nothing for binary judgments
    [level] = [s for s in region_data(at)["controls"]["settings"] if s["name"] == "level"]
    assert not level["applies"] and "judged relevant (binary judgments" in level["note"]


@pytest.mark.parametrize("level", ["5", "0", "３", "x"])
def test_a_bad_level_in_a_link_is_a_notice(open_page, level):
    at = open_page("actual-vs-predicted", {"rel": "graded", "level": level})
    assert any("level" in w.value for w in at.warning)


def test_each_headline_number_shows_its_change_after_a_move(open_page, shown_blocks):
    def numbers(at):
        return [item for block in shown_blocks(at) if block["kind"] == "numbers" for item in block["items"]]

    at = open_page("recall-precision")  # K = 2: Recall@2 0.25, Precision@2 0.5
    assert all(item["delta"] is None and item["trend"] is None for item in numbers(at))  # nothing to compare yet
    send_message(at, "k", k=4)
    deltas = {item["label"]: item["delta"] for item in numbers(at)}
    assert {item["trend"] for item in numbers(at)} <= {"up", "same"}
    from irlab import precision_at_k, recall_at_k
    from irlab.walkthrough.state import DEFAULT_STATE, SCENARIO

    order, judgments = list(DEFAULT_STATE.order), SCENARIO.query("cat-in-a-box").judgments
    assert deltas["Recall@4"] == f"+{recall_at_k(order, judgments, 4) - 0.25:g}"
    assert deltas["Precision@4"] in ("no change", f"{precision_at_k(order, judgments, 4) - 0.5:+g}")  # 2 of 4 = 1 of 2


def test_binary_only_chapters_disable_the_relevance_control_with_the_reason(open_page):
    at = open_page("mrr")
    relevance = at.button_group(key="irlab.widget.mode")
    assert relevance.disabled and relevance.value == "binary" and "Binary only here" in relevance.help
    assert not at.sidebar.get("button_group")  # in the title row, not the sidebar (a phone folds the sidebar away)


@pytest.mark.parametrize("index", [0, 3, -1], ids=["first", "fourth", "last"])
def test_chapters_say_where_they_are_and_link_their_neighbours(open_page, index):
    from irlab.walkthrough.chapters import CHAPTERS

    chapter = CHAPTERS[index]
    position = CHAPTERS.index(chapter)
    previous = f"Previous: {CHAPTERS[position - 1].number}. {CHAPTERS[position - 1].title}" if position else None
    following = (f"Next: {CHAPTERS[position + 1].number}. {CHAPTERS[position + 1].title}"
                 if position + 1 < len(CHAPTERS) else None)
    at = open_page(chapter.slug)
    links = [link.proto.label for link in at.main.get("page_link")]
    assert [label for label in links if label.startswith(("Previous", "Next"))] == \
        [label for label in (previous, following) if label]
    assert any(m.value == f"Chapter {chapter.number} of {len(CHAPTERS)}" for m in at.markdown)


def test_undo_and_redo_come_from_the_region_and_step_through_k_and_moves(tile_change, open_page):
    """The region's Undo and Redo (messages, no Streamlit buttons): a K, then a move; undo twice is back at K 2 and the
    first order, with Undo disabled and Redo enabled in the controls the region draws."""
    at = open_page("recall-precision")
    assert region_data(at)["controls"]["undo"] is False
    send_message(at, "k", k=5)
    at.session_state[REGION] = tile_change(SWAPPED)
    at.run()
    assert region_data(at)["controls"]["undo"] is True and at.query_params["k"] == "5"
    send_message(at, "control", action="undo")  # the move: K stays 5
    assert region_data(at)["k"] == 5 and at.query_params["order"] == "1,2,3,4,5,6,7,8"
    send_message(at, "control", action="undo")  # the K change
    data = region_data(at)
    assert data["k"] == 2 and data["controls"]["k"]["value"] == 2
    assert data["controls"]["undo"] is False and data["controls"]["redo"] is True
    send_message(at, "control", action="redo")
    assert region_data(at)["k"] == 5
