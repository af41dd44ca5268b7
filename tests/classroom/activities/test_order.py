"""The kind "order the pictures": settings, hostile orders, each goal against brute force, heatmap, best, common."""

from __future__ import annotations

import itertools

import pytest

from irlab.classroom.activities import kind
from irlab.classroom.activities.base import OPEN, REVEALED, Respondent, RoundAnswers, StoredAnswer
from irlab.classroom.activities.order import GOALS, ORDER, moves_between
from irlab.errors import ValidationError

ME = Respondent(number=1, seed=5)
START = "1,2,3,4,5,6,7,8"


def settings(goal: str, chapter: str = "ndcg", **params: str) -> dict:
    return ORDER.settings({"chapter": chapter, "params": {"order": START, "k": "3", **params}, "goal": goal})


def stored(settings_: dict, orders: list[str]) -> tuple[StoredAnswer, ...]:
    result = []
    for number, text in enumerate(orders, start=1):
        parsed = ORDER.parse(settings_, list(text), ME)  # "21345678": one picture a character
        verdict = ORDER.check(settings_, parsed.value, ME)
        result.append(StoredAnswer(Respondent(number, number), parsed.text, parsed.value, verdict.correct,
                                   verdict.mistake, seconds=float(number), detail=verdict.detail))
    return tuple(result)


def test_the_kind_is_registered_and_its_settings_are_canonical():
    assert kind("order") is ORDER
    assert settings("best-ndcg") == {"chapter": "ndcg", "goal": "best-ndcg",
                                     "params": {"order": START, "k": "3", "rel": "graded"}}
    linked = ORDER.settings({"link": f"https://x.org/ndcg?order={START}&k=3&present=1", "goal": "best-ndcg"})
    assert linked == settings("best-ndcg")


@pytest.mark.parametrize("raw, problem", [
    ({"chapter": "ndcg", "params": {}, "goal": "win"}, "choose a goal"),
    ({"chapter": "ndcg", "params": {}}, "choose a goal"),
    ({"chapter": "ndcg", "params": {"k": "0"}, "goal": "best-ndcg"}, "K must be"),
    ({"chapter": "ndcg", "params": {}, "goal": "best-ndcg", "extra": 1}, "unknown setting"),
    ({"link": "https://x.org/nowhere?k=3", "goal": "best-ndcg"}, "not a link to a walkthrough chapter"),
])
def test_bad_settings_are_refused_with_a_reason(raw, problem):
    with pytest.raises(ValidationError, match=problem):
        ORDER.settings(raw)


@pytest.mark.parametrize("raw, problem", [
    ("1,1,2,3,4,5,6,7", "Picture 1 is in the order twice"),
    ("1,2,3,4,5,6,7,9", "There is no picture '9'"),
    ("1,2,3,4,5,6,7", "leaves out picture\\(s\\) 8"),
    ("", "leaves out"),
    (["1", "2", 3, "4", "5", "6", "7", "8"], "not an order of the pictures"),
    ({"order": START}, "not an order of the pictures"),
    ("1," * 1000, "not an order of the pictures"),
    (["<script>"] * 8, "There is no picture '<script>'"),
    (None, "not an order of the pictures"),
])
def test_hostile_orders_are_refused_with_a_message(raw, problem):
    with pytest.raises(ValidationError, match=problem):
        ORDER.parse(settings("best-ndcg"), raw, ME)


def test_an_order_is_read_from_text_or_a_list():
    assert ORDER.parse(settings("best-ndcg"), " 2, 1,3;4,5,6,7,8 ", ME).value == list("21345678")
    assert ORDER.parse(settings("best-ndcg"), list("21345678"), ME).text == "2,1,3,4,5,6,7,8"


def test_moves_are_the_fewest_single_picture_moves():
    assert moves_between(START.split(","), list("21345678")) == 1
    assert moves_between(START.split(","), list("87654321")) == 7
    assert moves_between(START.split(","), list("23456781")) == 1


# --- each goal against brute force over all 40,320 orders (independent arithmetic, not irlab's) -----------------------

GRADES = {"1": 0, "2": 4, "3": 1, "4": 3, "5": 4, "6": 1, "7": 3, "8": 2}  # "white cat in a box", graded


def _ap(rel: list[int]) -> float:
    hits, total = 0, 0.0
    for rank, r in enumerate(rel, start=1):
        if r:
            hits += 1
            total += hits / rank
    return total / sum(rel)


def test_p_high_ap_low_meets_exactly_the_brute_force_optimum():
    s = settings("p-high-ap-low", chapter="recall-precision", rel="graded", level="3")  # relevant: 2, 4, 5, 7
    best: tuple | None = None
    winners = set()
    for order in itertools.permutations(START.split(",")):
        rel = [1 if GRADES[i] >= 3 else 0 for i in order]
        key = (sum(rel[:3]) / 3, -_ap(rel))
        if best is None or key > best:
            best, winners = key, {order}
        elif key == best:
            winners.add(order)
    assert best == (1.0, -_ap([1, 1, 1, 0, 0, 0, 0, 1]))  # by hand: three on top, the fourth at the very bottom
    assert tuple(ORDER.solution(s).order) in winners
    for order in list(winners)[:50]:
        assert ORDER.check(s, list(order), ME).correct
    assert ORDER.check(s, list("24513678"), ME).mistake == "ap-not-lowest"  # P@3 = 1, AP not lowest
    assert ORDER.check(s, list("12345678"), ME).mistake == "p-not-highest"


def test_best_ndcg_is_met_by_every_grade_sorted_order_and_names_the_binary_shortfall():
    s = settings("best-ndcg")
    assert ORDER.check(s, list("52748361"), ME).correct  # 5 and 2 share grade 4: either first
    verdict = ORDER.check(s, list("38624571"), ME)
    assert not verdict.correct and verdict.mistake == "grades-not-sorted"  # grades 1, 2, 1 on top: not the best
    assert ORDER.check(s, list("12345678"), ME).mistake == "ndcg-not-best"


def test_mrr_one_with_the_fewest_moves():
    s = settings("rr-one-fewest-moves", chapter="mrr")
    assert ORDER.solution(s).order == tuple("21345678")  # "cat in a box": picture 2 is the first relevant one
    assert ORDER.check(s, list("21345678"), ME).correct
    assert ORDER.check(s, list("41235678"), ME).correct  # picture 4 is relevant too: also one move
    assert ORDER.check(s, list("24135678"), ME).mistake == "too-many-moves"
    assert ORDER.check(s, list("12345678"), ME).mistake == "rr-not-one"


# --- the summary -----------------------------------------------------------------------------------------------------

def test_the_summary_hides_everything_before_the_reveal_and_below_three_answers():
    s = settings("best-ndcg")
    answers = stored(s, ["25478361", "25478361", "12345678"])
    hidden, few = ORDER.summarise(s, [RoundAnswers(1, OPEN, answers), RoundAnswers(2, REVEALED, answers[:2])])
    assert (hidden.count, hidden.heatmap, hidden.best) == (3, None, None)
    assert (few.count, few.heatmap) == (2, None)


def test_the_heatmap_the_best_and_the_most_common_order_by_hand():
    s = settings("best-ndcg")
    orders = ["21345678", "25478361", "21345678", "52748361"]
    (summary,) = ORDER.summarise(s, [RoundAnswers(1, REVEALED, stored(s, orders))])
    assert summary.items == tuple(START.split(","))
    # by hand: picture 2 at rank 1 three times (orders 1, 2, 3) and at rank 2 once (order 4)
    assert summary.heatmap[1] == (3, 1, 0, 0, 0, 0, 0, 0)
    assert summary.heatmap[0] == (0, 2, 0, 0, 0, 0, 0, 2)  # picture 1: rank 2 in orders 1 and 3, rank 8 in 2 and 4
    assert all(sum(row) == 4 for row in summary.heatmap)
    assert all(sum(col) == 4 for col in zip(*summary.heatmap))
    assert summary.met == 2 and summary.histogram.right_bin.count == 2 and summary.histogram.total == 4
    assert summary.common.order == tuple("21345678") and summary.common.count == 2
    assert summary.best.order == tuple("25478361") and summary.best.scored.met  # met; ties: first in text order
    assert summary.best.params == {"order": "2,5,4,7,8,3,6,1", "k": "3", "rel": "graded"}
    assert [(m.name, m.count) for m in summary.shortfalls] == [("ndcg-not-best", 2)]  # 2, 1, 3: picture 1 is grade 0


def test_feedback_and_the_csv_cells():
    s = settings("best-ndcg")
    right, wrong = stored(s, ["25478361", "12345678"])
    assert ORDER.feedback(s, right).correct and "NDCG@3 = 1" in ORDER.feedback(s, right).message
    message = ORDER.feedback(s, wrong).message
    assert message.startswith("Not yet: NDCG@K below the best") and "NDCG@3 = 1" in message
    assert ORDER.answer_cell(s, wrong) == "1,2,3,4,5,6,7,8" and ORDER.right_cell(s, ME) == "2,5,4,7,8,3,6,1"


def test_every_goal_is_offered_in_words():
    assert [g.title.format(k=3) for g in GOALS.values()] == [
        "The best order for NDCG@3", "P@3 as high as it can be, AP as low as it can be",
        "Make MRR 1 with the fewest moves"]
