"""The chapters under AppTest: golden values by default, controls and tile moves change exactly what
irlab computes, links restore state, malformed links give a notice and never an exception."""

from __future__ import annotations

import json

import pytest

import irlab
from irlab.explain.formula import format_number
from irlab.scenarios.cats_in_boxes import CATS_IN_BOXES, DARK_CAT, WHITE_CAT, WHITE_CAT_IN_A_BOX
from irlab.ui.walkthrough.page import REGION

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
    at.slider(key="irlab.widget.k").set_value(k).run()
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
    at.radio(key="irlab.widget.mode").set_value("graded").run()
    ranking = list(CATS_IN_BOXES.query("cat-in-a-box").default_ranking)
    assert shown_metrics(at)["Precision@2"] == shown(irlab.precision_at_k(ranking, GRADES, 2)) == "0.5"
    at.slider(key="irlab.widget.k").set_value(3).run()
    assert shown_metrics(at)["Precision@3"] == shown(irlab.precision_at_k(ranking, GRADES, 3)) == "0.6667"


def test_controls_persist_across_chapters_once_chosen(pages, shown_metrics, open_page):
    at = open_page("recall-precision")
    at.slider(key="irlab.widget.k").set_value(5).run()
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
    at.slider(key="irlab.widget.k").set_value(3).run()
    at.session_state[REGION] = tile_change("8 7 6 5 4 3 2 1", row=f"tiles-{WHITE_CAT}")
    at.run()
    assert shown_metrics(at)["MAP@3"] != "0.4786"
    at.button(key="preset-map").click().run()
    assert shown_metrics(at)["MAP@8"] == "0.4786"


def test_the_state_round_trips_through_the_url(tile_change, shown_metrics, open_page):
    at = open_page("ndcg")
    at.slider(key="irlab.widget.k").set_value(4).run()
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
    at.slider(key="irlab.widget.k").set_value(6).run()
    at.session_state[REGION] = tile_change("8 7 6 5 4 3 2 1")
    at.run()
    at.sidebar.button[0].click().run()
    assert shown_metrics(at) == {"Recall@2": "0.25", "Precision@2": "0.5"}


def test_conventions_returned_items_make_the_ideal_basis_differ(open_page, shown_blocks):
    """The chapter's experiment: a run of 3 items at K = 5."""
    at = open_page("conventions")
    at.slider(key="irlab.widget.k").set_value(5).run()
    at.slider(key="irlab.widget.returned").set_value(3).run()
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
    assert any("grade ≥ 3 (trec_eval's -l 3)" in c.value.replace("\\", "") for c in at.caption)
    at.get("button_group")[0].set_value(1).run()  # the "Relevant from grade" control
    counts = explain_confusion_at_k(order, grades, 4, relevance_level=1).value
    assert shown_metrics(at)["TP"] == str(counts.TP) and at.query_params.get("level") in (["1"], "1")

    at = open_page("recall-precision", {"rel": "graded", "k": "4", "level": "4"})
    recall = explain_recall_at_k(order, grades, 4, relevance_level=4)
    assert shown_metrics(at)["Recall@4"] == recall.display_value


def test_binary_mode_says_what_is_relevant_and_offers_no_level(open_page):
    at = open_page("actual-vs-predicted", {"level": "3"})  # a level means nothing for binary judgments
    assert not at.get("button_group")
    assert any("judged relevant (binary judgments" in c.value.replace("\\", "") for c in at.caption)


@pytest.mark.parametrize("level", ["5", "0", "３", "x"])
def test_a_bad_level_in_a_link_is_a_notice(open_page, level):
    at = open_page("actual-vs-predicted", {"rel": "graded", "level": level})
    assert any("level" in w.value for w in at.warning)


def test_each_headline_number_shows_its_change_after_a_move(open_page, shown_blocks):
    def numbers(at):
        return [item for block in shown_blocks(at) if block["kind"] == "numbers" for item in block["items"]]

    at = open_page("recall-precision")  # K = 2: Recall@2 0.25, Precision@2 0.5
    assert all(item["delta"] is None and item["trend"] is None for item in numbers(at))  # nothing to compare yet
    at.slider[0].set_value(4).run()
    deltas = {item["label"]: item["delta"] for item in numbers(at)}
    assert {item["trend"] for item in numbers(at)} <= {"up", "same"}
    from irlab import precision_at_k, recall_at_k
    from irlab.walkthrough.state import DEFAULT_STATE, SCENARIO

    order, judgments = list(DEFAULT_STATE.order), SCENARIO.query("cat-in-a-box").judgments
    assert deltas["Recall@4"] == f"+{recall_at_k(order, judgments, 4) - 0.25:g}"
    assert deltas["Precision@4"] in ("no change", f"{precision_at_k(order, judgments, 4) - 0.5:+g}")  # 2 of 4 = 1 of 2


def test_binary_only_chapters_disable_the_relevance_control_with_the_reason(open_page):
    at = open_page("mrr")
    [relevance] = [r for r in at.radio if r.label == "Relevance"]
    assert relevance.disabled and relevance.value == "binary"
    assert any("Binary only here" in c.value for c in at.sidebar.caption)


@pytest.mark.parametrize("slug, previous, following", [
    ("actual-vs-predicted", None, "Next: 2. Recall@K and Precision@K"),
    ("map", "Previous: 3. Mean reciprocal rank (MRR)", "Next: 5. CG, DCG, IDCG and NDCG@K"),
    ("conventions", "Previous: 5. CG, DCG, IDCG and NDCG@K", None)])
def test_chapters_say_where_they_are_and_link_their_neighbours(open_page, slug, previous, following):
    at = open_page(slug)
    links = [link.proto.label for link in at.main.get("page_link")]
    assert [label for label in links if label.startswith(("Previous", "Next"))] == \
        [label for label in (previous, following) if label]
    assert any(m.value.startswith("Chapter ") and " of 6" in m.value for m in at.markdown)


def test_k_is_sent_to_the_slider_only_when_it_changed(tile_change, open_page):
    """A move that leaves K alone does not send the slider "set this value" (the browser would redraw it on
    every drag); an undo back to another K does."""
    at = open_page("recall-precision")
    at.slider(key="irlab.widget.k").set_value(5).run()
    at.session_state[REGION] = tile_change(SWAPPED)
    at.run()
    assert at.slider(key="irlab.widget.k").proto.set_value is False
    at.button(key="irlab-undo").click().run()  # undo the move: K stays 5
    assert at.slider(key="irlab.widget.k").proto.set_value is False
    at.button(key="irlab-undo").click().run()  # undo the K change
    slider = at.slider(key="irlab.widget.k")
    assert slider.proto.set_value is True and slider.value == 2


def _region(at) -> dict:
    """The data the live region's component received this run."""
    [region] = [json.loads(element.proto.json) for element in at.get("bidi_component")
                if element.proto.component_name == "irlab.region"]
    assert region["name"] == REGION
    return region


def _filled(region: dict, screens: dict[str, list[dict]]) -> dict[str, list[dict]]:
    """``screens`` sent with the region, each reference to a block of the region's screen filled in as the browser
    fills it in (``region.js``, ``filled``)."""
    by_digest: dict[str, dict] = {}

    def index(blocks: list[dict]) -> None:
        for block in blocks:
            by_digest[block["digest"]] = block
            index(block.get("children", []))

    def fill(block: dict) -> dict:
        if block.get("same"):
            return by_digest[block["digest"]]
        return {**block, "children": [fill(child) for child in block["children"]]} if "children" in block else block

    index(region["blocks"])
    return {name: [fill(block) for block in blocks] for name, blocks in screens.items()}


def _other_k(region: dict) -> dict[int, list[dict]]:
    """The screens at the other K sent with the region (K -> blocks), filled in."""
    return {int(k): blocks for k, blocks in _filled(region, region["otherScreens"]).items()}


@pytest.mark.parametrize("slug", ["actual-vs-predicted", "recall-precision", "mrr", "map", "ndcg", "conventions"])
def test_the_screen_sent_for_another_k_is_the_one_the_k_change_then_draws(slug, tile_change, open_page):
    """The browser draws another K's screen the moment the slider shows it (``region.js``); the run the slider
    starts must then draw exactly that screen (numbers, their changes, formulas, charts, ticks), or the page would
    change twice. Checked in graded mode (where the chapter has it) after a move, through K 3, 1, 8, 5 and 6."""
    at = open_page(slug)
    if slug not in ("mrr", "map"):
        at.radio(key="irlab.widget.mode").set_value("graded").run()
    at.session_state[REGION] = tile_change(SWAPPED)
    at.run()
    at.slider(key="irlab.widget.k").set_value(3).run()
    for k in (1, 8, 5, 6):
        region = _region(at)
        other = _other_k(region)  # sent: the learner has just moved K
        assert set(other) == set(range(1, 9)) - {region["k"]}
        at.slider(key="irlab.widget.k").set_value(k).run()
        assert not at.exception
        after = _region(at)
        assert after["k"] == k and after["blocks"] == other[k]


def test_the_other_k_screens_are_sent_after_a_k_move_or_when_asked_for_the_screen_shown(tile_change, shown_metrics,
                                                                                          open_page):
    """Seven more screens would delay a tile move's numbers and a cold start, so they come only with a K move's run
    or when the browser asks for them for the screen it shows (the learner came to the slider)."""
    at = open_page("ndcg")
    assert "otherScreens" not in _region(at)  # a cold start
    screen = _region(at)["screen"]
    at.session_state[REGION] = {"wants": "an earlier screen"}
    at.run()
    assert "otherScreens" not in _region(at)
    at.session_state[REGION] = {"wants": screen}
    at.run()
    assert set(_other_k(_region(at))) == {1, 3, 4, 5, 6, 7, 8}
    at.session_state[REGION] = {"wants": screen, **tile_change(SWAPPED)}
    at.run()
    assert shown_metrics(at)["NDCG@2"] == "0.6131"  # the move is taken: a new screen, not the one asked for
    moved = _region(at)
    assert "otherScreens" not in moved
    at.session_state[REGION] = {"wants": moved["screen"], **tile_change(SWAPPED)}
    at.run()  # not a move: the same screen, with the move's changes still shown, and the other K's screens
    assert _region(at)["screen"] == moved["screen"] and "otherScreens" in _region(at)
    [numbers] = [block for block in _region(at)["blocks"] if block["kind"] == "numbers"]
    assert [item["delta"] for item in numbers["items"]] == ["no change", "+1.4763", "no change", "+0.2263"]
    at.slider(key="irlab.widget.k").set_value(4).run()
    assert set(_other_k(_region(at))) == {1, 2, 3, 5, 6, 7, 8}
    at.run()
    assert "otherScreens" not in _region(at)  # taken once


@pytest.mark.parametrize("wants", [None, 42, ["a", "b"], {"screen": "x"}, "x" * 100_000, "<script>alert(1)</script>"])
def test_a_malformed_request_for_the_other_k_screens_is_ignored(wants, open_page):
    """The browser's ``wants`` is untrusted: anything but the shown screen's digest sends nothing, raises nothing
    and changes nothing on the screen."""
    at = open_page("ndcg")
    before = _region(at)
    at.session_state[REGION] = {"wants": wants}
    at.run()
    assert not at.exception
    after = _region(at)
    assert "otherScreens" not in after and after["blocks"] == before["blocks"]


def _tile_rows(region: dict) -> list[dict]:
    """The tile rows of the region's screen, at any depth."""
    found = []

    def walk(blocks: list[dict]) -> None:
        for block in blocks:
            if block["kind"] == "tiles":
                found.append(block)
            walk(block.get("children", []))

    walk(region["blocks"])
    return found


def _moves(region: dict) -> dict[str, list[dict]]:
    """The screens drawn ahead for a tile's moves (order joined by line breaks -> blocks), filled in."""
    return _filled(region, region["moveScreens"]["screens"])


def _without_row(blocks: list[dict], row: str) -> list[dict]:
    """``blocks`` with tile row ``row`` left out (the tiles show a move themselves; the server's answer adds its
    sequence number)."""
    return [{**block, "children": _without_row(block["children"], row)} if "children" in block else block
            for block in blocks if not (block["kind"] == "tiles" and block["key"] == row)]


@pytest.mark.parametrize("slug", ["actual-vs-predicted", "recall-precision", "mrr", "map", "ndcg", "conventions"])
def test_the_screen_drawn_ahead_for_a_tile_move_is_the_one_the_move_then_draws(slug, open_page):
    """The browser draws a tile move the moment the tile is dropped, from the screen the server drew ahead for it
    (``region.js``); the run that takes the move must then draw exactly that screen but for the tiles (numbers,
    their changes, formulas, tables, charts, ticks), or the page would change twice. Every tile row, one tile
    moved five times (each move drawn ahead from the screen before it), in graded mode where the chapter has it."""
    at = open_page(slug)
    if slug not in ("mrr", "map"):
        at.radio(key="irlab.widget.mode").set_value("graded").run()
    seq = 0
    for row in _tile_rows(_region(at)):
        item = row["data"]["tiles"][2]["id"]
        for rank in (0, 7, 4, 1, 6):
            region = _region(at)
            [shown_row] = [block for block in _tile_rows(region) if block["key"] == row["key"]]
            at.session_state[REGION] = {"moves": {"screen": region["screen"], "row": row["key"], "item": item}}
            at.run()
            asked = _region(at)
            assert asked["screen"] == region["screen"] and asked["moveScreens"]["item"] == item
            ahead = _moves(asked)
            order = [tile["id"] for tile in shown_row["data"]["tiles"] if tile["id"] != item]
            order.insert(rank, item)
            assert len(ahead) == 7 and "\n".join(order) in ahead
            drawn_ahead = ahead["\n".join(order)]
            assert [block for block in _tile_rows({"blocks": drawn_ahead}) if block["key"] == row["key"]] == [shown_row]
            seq += 1
            grades = ({tile["id"]: tile["relevance"] for tile in shown_row["data"]["tiles"]}
                      if shown_row["data"]["mode"] == "graded" else None)
            at.session_state[REGION] = {"change": {"order": order, "grades": grades, "seq": seq, "action": "drag",
                                                   "item": item, "row": row["key"]}}
            at.run()
            assert not at.exception
            after = _region(at)
            assert after["screen"] != region["screen"]
            assert _without_row(after["blocks"], row["key"]) == _without_row(drawn_ahead, row["key"])


def test_a_tiles_moves_are_sent_only_when_asked_for_the_screen_shown(tile_change, open_page):
    """Seven more screens would delay every move, so they come only when the browser asks for a tile's moves for
    the screen it shows (the learner came to the tile), or with the answer to a move the browser drew ahead (the
    learner may move that tile again), the same screens either way."""
    at = open_page("ndcg")
    screen = _region(at)["screen"]
    assert "moveScreens" not in _region(at)  # a cold start
    at.session_state[REGION] = {"moves": {"screen": "an earlier screen", "row": "tiles-main", "item": "1"}}
    at.run()
    assert "moveScreens" not in _region(at)
    at.session_state[REGION] = {"moves": {"screen": screen, "row": "tiles-main", "item": "3"}}
    at.run()
    orders = ("3 1 2 4 5 6 7 8", "1 3 2 4 5 6 7 8", "1 2 4 3 5 6 7 8", "1 2 4 5 3 6 7 8", "1 2 4 5 6 3 7 8",
              "1 2 4 5 6 7 3 8", "1 2 4 5 6 7 8 3")
    assert set(_moves(_region(at))) == {order.replace(" ", "\n") for order in orders}
    at.session_state[REGION] = {"moves": {"screen": screen, "row": "tiles-main", "item": "3"}, **tile_change(SWAPPED)}
    at.run()
    assert "moveScreens" not in _region(at)  # the move is taken: a new screen, not the one asked for
    at.session_state[REGION] = {"change": {**tile_change("2 3 1 4 5 6 7 8", seq=2)["change"], "item": "3",
                                           "ahead": True}}
    at.run()  # a move the browser drew ahead: its answer brings the same tile's moves from the new screen
    moved = _region(at)
    assert moved["moveScreens"]["item"] == "3" and len(moved["moveScreens"]["screens"]) == 7
    at.session_state[REGION] = {"moves": {"screen": moved["screen"], "row": "tiles-main", "item": "3"}}
    at.run()
    assert _region(at)["screen"] == moved["screen"] and _moves(_region(at)) == _moves(moved)


@pytest.mark.parametrize("moves", [None, 42, "tiles-main", ["a"], {"screen": None, "row": "tiles-main", "item": "3"},
                                   {"screen": "an earlier screen", "row": "tiles-main", "item": "3"},
                                   {"row": "no such row", "item": "3"}, {"row": "tiles-main", "item": "99"},
                                   {"row": "tiles-main", "item": "3" * 100_000}, {"row": ["tiles-main"], "item": "3"},
                                   {"row": "<script>alert(1)</script>", "item": "<b>3</b>"}])
def test_a_malformed_request_for_a_tiles_moves_is_ignored(moves, open_page):
    """The browser's ``moves`` is untrusted: a request that is not for a tile of the shown screen sends nothing,
    raises nothing and changes nothing on the screen (a request without a screen is for the shown one)."""
    at = open_page("ndcg")
    before = _region(at)
    if isinstance(moves, dict):
        moves = {"screen": before["screen"], **moves}
    at.session_state[REGION] = {"moves": moves}
    at.run()
    assert not at.exception
    after = _region(at)
    assert "moveScreens" not in after and after["blocks"] == before["blocks"]


@pytest.mark.parametrize("item", [None, 5, "", "99", "3" * 100_000, "<script>alert(1)</script>"])
def test_a_move_drawn_ahead_of_a_malformed_tile_brings_no_moves(item, tile_change, shown_metrics, open_page):
    """A change marked as drawn ahead names its tile; a tile that is not text, not on the row, or huge brings no
    moves and no exception, and the move itself is still taken."""
    at = open_page("ndcg")
    at.session_state[REGION] = {"change": {**tile_change(SWAPPED)["change"], "item": item, "ahead": True}}
    at.run()
    assert not at.exception
    assert "moveScreens" not in _region(at) and shown_metrics(at)["NDCG@2"] == "0.6131"
