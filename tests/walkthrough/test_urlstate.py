"""Links: every state round-trips through URL parameters; bad parameters fall back one by one."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irlab.scenarios.cats_in_boxes import DARK_CAT, WHITE_CAT
from irlab.walkthrough.chapters import CHAPTERS, chapter
from irlab.walkthrough.state import DEFAULT_STATE, SCENARIO
from irlab.walkthrough.urlstate import SETTINGS, params_from_state, state_from_params

IDS = list(SCENARIO.item_ids)
states = st.builds(
    lambda order, k, mode, grades, white, dark, present, chosen: replace(
        DEFAULT_STATE, order=tuple(order), k=k, mode=mode, grades=grades,
        query_orders={WHITE_CAT: tuple(white), DARK_CAT: tuple(dark)}, present=present, **chosen),
    st.permutations(IDS), st.integers(1, 8), st.sampled_from(["binary", "graded"]),
    st.none() | st.fixed_dictionaries({i: st.integers(0, 4) for i in IDS}),
    st.permutations(IDS), st.permutations(IDS), st.booleans(),
    st.fixed_dictionaries({name: st.none() | st.sampled_from(s.choices) for name, s in SETTINGS.items()}))
"""Any state, with every chapter's settings (``returned``, ``level``, ...) unset or at any of their choices."""


@settings(max_examples=200, deadline=None)
@given(states, st.sampled_from(CHAPTERS))
def test_every_state_round_trips_through_its_link(state, chap):
    restored, notices = state_from_params(params_from_state(state, chap))
    assert notices == []
    assert restored.order == state.order and restored.k == state.k and restored.mode == state.mode
    assert restored.present == state.present
    if state.grades is not None:
        assert restored.grades == state.grades
    if chap.binary_only:
        assert restored.query_orders == state.query_orders
    for setting in chap.settings:  # what the chapter offers comes back (the relevance level only in graded mode)
        if setting.applies(state, chap):
            assert getattr(restored, setting.name) == getattr(state, setting.name), setting.name


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(["order", "k", "rel", "grades", "returned", "present", "order_dark_cat",
                                        "x", "K"]), st.text(max_size=40) | st.lists(st.text(max_size=10))))
def test_any_parameters_give_a_state_and_notices_never_an_exception(params):
    state, notices = state_from_params(params)
    assert len(state.order) == 8 and state.k in (None, *range(1, 9)) and state.mode in (None, "binary", "graded")
    for notice in notices:
        assert "<" not in notice and "[" not in notice.split("was ignored")[0]


def test_defaults_write_the_chapters_example():
    assert params_from_state(DEFAULT_STATE, chapter("map")) == {
        "order": "1,2,3,4,5,6,7,8", "k": "8", "rel": "binary",
        "order_white_cat": "1,3,4,2,5,7,6,8", "order_dark_cat": "1,2,3,5,4,6,8,7"}
    assert params_from_state(DEFAULT_STATE, chapter("ndcg")) == {"order": "1,2,3,4,5,6,7,8", "k": "2",
                                                                 "rel": "graded"}


def test_long_values_are_refused():
    state, notices = state_from_params({"order": "1," * 200})
    assert state.order == DEFAULT_STATE.order and "too long" in notices[0]


@pytest.mark.parametrize("params", [{"k": "１"}, {"k": "٣"}, {"returned": "５"}, {"grades": "０,4,1,3,4,1,3,2"}])
def test_only_ascii_digits_are_numbers(params):
    state, notices = state_from_params(params)
    assert state == DEFAULT_STATE and len(notices) == 1 and "was ignored" in notices[0]


def test_many_unknown_parameters_are_one_notice():
    state, notices = state_from_params({f"x{i}": "1" for i in range(300)} | {"k": "3"})
    assert state.k == 3
    assert len(notices) == 1 and "and 295 more were ignored" in notices[0]


def test_what_a_link_leaves_out_comes_from_the_base_state():
    # The browser's Back button returns to a link of the same session: the learner's edited grades and other
    # queries' rankings stay, the link's order and K win.
    base = replace(DEFAULT_STATE, grades=dict.fromkeys(IDS, 2), query_orders={DARK_CAT: tuple(reversed(IDS))},
                   present=True)
    restored, notices = state_from_params({"order": "2,1,3,4,5,6,7,8", "k": "3"}, base=base)
    assert notices == []
    assert restored.order == ("2", "1", *IDS[2:]) and restored.k == 3
    assert restored.grades == base.grades and restored.query_orders == base.query_orders
    fresh, _ = state_from_params({"order": "2,1,3,4,5,6,7,8", "k": "3"})
    assert fresh.grades is None and fresh.query_orders == {}
