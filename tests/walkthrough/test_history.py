"""Undo and redo: observe, undo and redo behave like an editor's history, whatever the sequence of moves."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from irlab.walkthrough.history import MAX_STEPS, History
from irlab.walkthrough.state import DEFAULT_STATE

states = st.integers(1, 8).map(lambda k: replace(DEFAULT_STATE, k=k))
actions = st.lists(st.one_of(st.tuples(st.just("observe"), states), st.just(("undo",)), st.just(("redo",))),
                   max_size=40)


def _apply(history: History, action: tuple) -> History:
    if action[0] == "observe":
        return history.observe(action[1])
    return history.undo() if action[0] == "undo" else history.redo()


@settings(max_examples=300, deadline=None)
@given(actions, states)
def test_undo_returns_to_the_state_before_a_new_move_and_redo_comes_back(moves, new):
    history = History(DEFAULT_STATE)
    for action in moves:
        history = _apply(history, action)
    before = history.present
    after = history.observe(new)
    if new == before:
        assert after is history
        return
    assert after.present == new and not after.can_redo
    assert after.undo().present == before
    assert after.undo().redo().present == new


@settings(max_examples=300, deadline=None)
@given(actions)
def test_undo_and_redo_walk_one_line_of_states_and_stop_at_its_ends(moves):
    history = History(DEFAULT_STATE)
    for action in moves:
        history = _apply(history, action)
    line = (*history.past, history.present, *history.future)
    walked = history
    while walked.can_undo:
        walked = walked.undo()
    assert walked.undo() == walked and walked.present == line[0]
    seen = [walked.present]
    while walked.can_redo:
        walked = walked.redo()
        seen.append(walked.present)
    assert walked.redo() == walked
    assert tuple(seen) == line


def test_the_oldest_states_are_dropped_beyond_max_steps():
    history = History(DEFAULT_STATE)
    for step in range(MAX_STEPS + 50):
        history = history.observe(replace(DEFAULT_STATE, k=1 + step % 8, returned=step % 2 or None, order=(
            DEFAULT_STATE.order if step % 3 else tuple(reversed(DEFAULT_STATE.order)))))
    assert len(history.past) == MAX_STEPS
    for _ in range(MAX_STEPS):
        history = history.undo()
    assert not history.can_undo and len(history.future) == MAX_STEPS


def test_the_same_state_again_is_no_new_step():
    history = History(DEFAULT_STATE).observe(replace(DEFAULT_STATE, k=3))
    assert history.observe(replace(DEFAULT_STATE, k=3)) is history
    assert len(history.past) == 1
