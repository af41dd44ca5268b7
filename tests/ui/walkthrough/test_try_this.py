""""Try this" under AppTest: it sits right under the tiles, and a chapter's steps tick only for what was done in it.

Issue 36 item 5: chapter 2 opened with 2 of 3 steps ticked (K = 8 was set in chapter 1), and NDCG's "Press Ideal
order" ticked after a grade edit that made the order ideal.
"""

from __future__ import annotations

import pytest

from irlab.scenarios.cats_in_boxes import CATS_IN_BOXES, WHITE_CAT_IN_A_BOX
from irlab.walkthrough.chapters import CHAPTERS
from tests.ui.conftest import region_data, send_message


def try_block(at) -> dict:
    data = region_data(at)
    blocks = data.get("blocks")
    assert blocks is not None, "the whole screen (a test sends no screen it holds)"
    return next(block for block in blocks if block["key"] == "try-this")


def ticks(at) -> dict[int, bool]:
    return {index: item["done"] for index, item in enumerate(try_block(at)["items"])}


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda c: c.slug)
def test_try_this_sits_right_under_the_first_tiles(chapter, open_page):
    blocks = region_data(open_page(chapter.slug))["blocks"]
    keys = [block["key"] for block in blocks]
    kinds = [block["kind"] for block in blocks]
    anchor = kinds.index("tiles") if "tiles" in kinds else kinds.index("numbers")
    assert keys[anchor + 1] == "try-this"


def test_a_step_reached_in_another_chapter_is_not_done_in_this_one(pages, open_page):
    at = open_page("actual-vs-predicted")
    send_message(at, "k", k=8)  # chapter 1's "Move K to 8" (its step is done there)
    assert ticks(at)[0] is True
    at.switch_page(pages["recall-precision"]).run()
    # K = 8 reaches chapter 2's "Set K to 8" too, but nothing was done here yet
    assert ticks(at) == {0: False, 1: False, 2: False}
    assert try_block(at)["title"] == "Try this. 0 of 3 done"
    send_message(at, "k", k=3)
    send_message(at, "k", k=8)  # now done here
    assert ticks(at)[1] is True and try_block(at)["title"] == "Try this. 1 of 3 done"
    at.switch_page(pages["actual-vs-predicted"]).run()
    at.switch_page(pages["recall-precision"]).run()
    assert ticks(at)[1] is True  # what was done in a chapter stays done there


def test_a_grade_edit_that_makes_the_order_ideal_does_not_press_ideal_order(open_page, tile_change):
    at = open_page("ndcg")
    grades = dict(CATS_IN_BOXES.query(WHITE_CAT_IN_A_BOX).judgments)
    order = [str(item) for item in range(1, 9)]
    ideal_for_edit = dict(zip(order, (4, 4, 3, 3, 2, 1, 0, 0)))  # grades that make this order ideal
    assert ideal_for_edit != grades
    at.session_state["live-region"] = tile_change(" ".join(order), grades=ideal_for_edit)
    at.run()
    steps = try_block(at)["items"]
    assert "is 1 now" in steps[1]["text"] and steps[1]["done"] is False  # NDCG = 1, but no order was pressed
    assert steps[2]["done"] is True  # the grade edit is its own step, done
    # press "Ideal order" after another grade edit that spoils it: now the order is what changed
    spoiled = {**ideal_for_edit, "8": 4}
    at.session_state["live-region"] = tile_change(" ".join(order), grades=spoiled, seq=2)
    at.run()
    ideal = sorted(order, key=lambda item: (-spoiled[item], order.index(item)))
    at.session_state["live-region"] = tile_change(" ".join(ideal), grades=spoiled, seq=3)
    at.run()
    assert try_block(at)["items"][1]["done"] is True
