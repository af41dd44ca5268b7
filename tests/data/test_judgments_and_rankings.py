"""Judgments, rankings and scenarios reject bad input with a message that names the problem."""

from __future__ import annotations

import pytest

from irlab.data.judgments import Judgments, check_grade, check_relevance_level, num_relevant
from irlab.data.rankings import check_cutoff, check_k_in_range, check_ranking, ideal_ranking, rank_by_score
from irlab.data.scenario import Item, Query, Scenario
from irlab.errors import ValidationError
from irlab.scenarios.cats_in_boxes import CATS_IN_BOXES


@pytest.mark.parametrize("grades, scale, message", [
    ({"1": -1}, "graded", "cannot be negative"),
    ({"1": 1.5}, "graded", "whole number"),
    ({"1": "2"}, "graded", "whole number"),
    ({"1": True}, "graded", "whole number"),
    ({"1": 2}, "binary", "binary judgments use grades 0 and 1"),
    ({"": 1}, "graded", "non-empty"),
    ({" 1": 1}, "graded", "surrounding spaces"),
])
def test_bad_judgments_are_named(grades, scale, message):
    with pytest.raises(ValidationError, match=message):
        Judgments(grades, scale=scale)


def test_judgments_behave_like_a_read_only_mapping():
    judgments = Judgments({"a": 3, "b": 0}, scale="graded", max_grade=4)
    assert dict(judgments) == {"a": 3, "b": 0} and judgments.grade("zzz") == 0
    assert judgments.relevant_items(3) == {"a"} and num_relevant(judgments) == 1
    assert judgments.with_grade("b", 4) == Judgments({"a": 3, "b": 4}, scale="graded", max_grade=4)
    with pytest.raises(ValidationError, match="above the top"):
        judgments.with_grade("b", 5)
    assert Judgments([("a", 1)], scale="binary").max_grade == 1
    with pytest.raises(ValidationError, match="judged twice"):
        Judgments([("a", 1), ("a", 0)])


def test_grade_and_level_checks():
    assert check_grade(2.0) == 2 and check_grade(-1, allow_negative=True) == -1
    with pytest.raises(ValidationError):
        check_relevance_level(0)


def test_rankings_reject_duplicates_unknown_items_and_text():
    with pytest.raises(ValidationError, match="appears twice"):
        check_ranking(["a", "b", "a"])
    with pytest.raises(ValidationError, match="unknown item 'x' at rank 2"):
        check_ranking(["a", "x"], known_items={"a"})
    with pytest.raises(ValidationError, match="is empty"):
        check_ranking([], allow_empty=False)
    with pytest.raises(ValidationError, match="list of item ids"):
        check_ranking("abc")


@pytest.mark.parametrize("k", [0, -1, 1.5, "2", True, None])
def test_k_outside_one_to_n_is_rejected(k):
    with pytest.raises(ValidationError, match="K must be"):
        check_k_in_range(k, 8)
    assert check_k_in_range(8, 8) == 8


def test_cutoffs():
    assert check_cutoff(None) is None
    with pytest.raises(ValidationError):
        check_cutoff(None, allow_none=False)


def test_scores_must_be_numbers():
    with pytest.raises(ValidationError, match="must be a number"):
        rank_by_score({"a": float("nan")})
    assert rank_by_score({"b": 1, "a": 1, "c": 2}) == ["c", "b", "a"]


def test_ideal_ranking_keeps_ties_in_current_order():
    assert ideal_ranking({"a": 1, "b": 1, "c": 2}, ["b", "a", "c"]) == ["c", "b", "a"]
    assert ideal_ranking({"z": 3}, ["a"]) == ["z", "a"]  # judged but unranked items take part


def _query(**changes):
    fields = {"id": "q", "text": "cat", "judgments": Judgments({"1": 1}), "default_ranking": ("1",)}
    return Query(**{**fields, **changes})


@pytest.mark.parametrize("items, queries, message", [
    ((Item("1", "a"), Item("1", "b")), (), "used twice"),
    ((Item("1", "a"),), (_query(judgments=Judgments({"9": 1})),), "judges unknown item '9'"),
    ((Item("1", "a"),), (_query(default_ranking=("1", "1")),), "appears twice"),
    ((Item("1", "a"),), (_query(default_ranking=("2",)),), "unknown item '2'"),
    ((Item("1", "a"),), (_query(default_ranking=()),), "ranking is empty"),
    ((Item("1", "a"),), (_query(judgments=Judgments({})),), "no judgments"),
    ((Item("1", "a"),), (_query(), _query()), "query id is used twice"),
    ((Item("1", "a"),), (_query(text=" "),), "no text"),
])
def test_scenarios_are_validated_on_construction(items, queries, message):
    with pytest.raises(ValidationError, match=message):
        Scenario("s", "S", items, queries)


def test_items_need_a_title():
    with pytest.raises(ValidationError, match="needs a title"):
        Item("1", " ")


def test_scenario_lookups_and_checks():
    assert CATS_IN_BOXES.item("3").title == "Empty box"
    assert CATS_IN_BOXES.check_ranking(list("87654321"), complete=True) == tuple("87654321")
    with pytest.raises(ValidationError, match="missing: '8'"):
        CATS_IN_BOXES.check_ranking(list("1234567"), complete=True)
    with pytest.raises(ValidationError, match="unknown query 'x'"):
        CATS_IN_BOXES.query("x")
    with pytest.raises(ValidationError, match="between 1 and 8"):
        CATS_IN_BOXES.check_k(9)
    assert all(item.alt and item.picture for item in CATS_IN_BOXES.items)
