"""Pacing a class and keeping it fair, on SQLite and PostgreSQL: timers that close a round by themselves, locked
joining, answers shown live or only at the reveal, a send counted once, joins per class, the pulse the replicas push
and who follows the class live."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from irlab.classroom import ClassStore, presence, ratelimit
from irlab.classroom.activities.base import CLOSED, OPEN
from irlab.classroom.database import reading
from irlab.classroom.refusals import ClassNotFound, NotAccepting, RateLimited
from irlab.classroom.rows import TIMER_GRACE
from irlab.classroom.schema import answers, rounds
from irlab.classroom.student import TIME_UP
from irlab.errors import ValidationError
from tests.classroom.test_store import class_with_activity

FN4_CHOICE = {"chapter": "actual-vs-predicted", "params": {"order": "1,2,3,4,5,6,7,8", "k": "4"}, "about": "class:FN"}


def test_a_timer_closes_the_round_by_itself_and_refuses_late_answers(store, clock):
    new, desk, info = class_with_activity(store)
    desk.set_timer(30)
    desk.show(info.id)
    early, late, later = (store.join(new.code) for _ in range(3))
    activity = early.view().activity
    assert activity.state == OPEN and activity.closes_at == clock.now + 30
    early.answer(activity.round_id, "0.39")
    clock.advance(30)  # the timer ran out: everyone sees the round closed, before anything is written
    assert early.view().activity.state == CLOSED and desk.projector().current.latest.state == CLOSED
    late.answer(activity.round_id, "0.5")  # on its way when time ran out: taken within the grace
    clock.advance(TIMER_GRACE + 0.01)
    with pytest.raises(NotAccepting) as refused:
        later.answer(activity.round_id, "0.5")
    assert str(refused.value) == TIME_UP
    assert store.close_due(new.code) == 1 and store.close_due(new.code) == 0  # each replica's watcher: once
    with reading(store.engine) as connection:
        row = connection.execute(select(rounds)).one()
    assert (row.state, row.closed_at) == (CLOSED, activity.closes_at)
    with pytest.raises(NotAccepting, match="Time is up"):
        later.answer(activity.round_id, "0.5")
    desk.reveal()
    assert desk.projector().current.rounds[0].answers == 2


def test_the_timer_of_the_round_open_now_and_of_the_rounds_to_come(store, clock):
    new, desk, info = class_with_activity(store)
    desk.show(info.id)
    seat = store.join(new.code)
    assert seat.view().activity.closes_at is None
    versions = store.versions(new.code)
    clock.advance(5)
    desk.set_timer(60)  # the open round gets it, counted from now; the students' pages are told
    assert seat.view().activity.closes_at == clock.now + 60 and store.versions(new.code).student > versions.student
    desk.reveal()
    desk.reopen()  # round 2 opens with the class's timer
    assert seat.view().activity.closes_at == clock.now + 60 and desk.projector().timer_seconds == 60
    desk.set_timer(None)  # and the open round runs until the lecturer closes it
    assert seat.view().activity.closes_at is None
    for wrong in (15, 0, True, "30"):
        with pytest.raises(ValidationError, match="a timer runs 30 s or 60 s"):
            desk.set_timer(wrong)


def test_locked_joining_reads_like_an_unknown_code(store):
    new = store.start_class()
    desk = store.lecturer(new.code, new.key)
    store.join(new.code)
    desk.set_joining_locked(True)
    assert desk.projector().joining_locked
    with pytest.raises(ClassNotFound) as locked:
        store.join(new.code, session="s1")
    with pytest.raises(ClassNotFound) as unknown:
        store.join("ABCDEF" if new.code != "ABCDEF" else "BCDEFG", session="s2")
    assert str(locked.value) == str(unknown.value)  # the answer tells no live code from a dead one
    desk.set_joining_locked(False)
    assert store.join(new.code).view().number == 2


def test_joins_per_class_per_minute_are_bounded_with_a_clear_message(store, clock, monkeypatch):
    monkeypatch.setattr(ratelimit, "CLASS_JOINS", ratelimit.Limit("joins", 5, 60.0))
    new = store.start_class()
    for _ in range(5):
        store.join(new.code)
    with pytest.raises(RateLimited, match=r"^Many students are joining this class right now; try again in 1 minute\.$"):
        store.join(new.code)
    other = store.start_class()
    store.join(other.code)  # another class is not held up
    clock.advance(61)
    assert store.join(new.code).view().number == 6


def test_wrong_codes_block_their_own_address_not_a_classmates(store):
    new = store.start_class()
    for n in range(ratelimit.JOIN.attempts):
        with pytest.raises(ClassNotFound):
            store.join("ABCDEF" if new.code != "ABCDEF" else "BCDEFG", session=f"s{n}", address="10.0.0.66")
    with pytest.raises(RateLimited, match="Too many wrong codes from this device or network"):
        store.join(new.code, session="fresh", address="10.0.0.66")  # a new websocket does not reset the address
    assert store.join(new.code, session="mate", address="10.0.0.7").view().number == 1


def test_answers_hidden_until_the_reveal_unless_shown_live(store):
    new = store.start_class()
    desk = store.lecturer(new.code, new.key)
    info = desk.add_activity("choice", FN4_CHOICE)
    desk.show(info.id)
    seats = [store.join(new.code) for _ in range(3)]
    round_id = seats[0].view().activity.round_id
    for seat in seats:
        seat.answer(round_id, ["5", "7"])
    current = desk.projector().current
    assert not current.info.live_results and current.summaries[0].options is None and current.rounds[0].answers == 3
    desk.set_live_results(True)
    current = desk.projector().current
    assert current.info.live_results and {o.id: o.count for o in current.summaries[0].options}["5"] == 3
    assert all(o.right is None for o in current.summaries[0].options)  # live shares never tell the right answer
    desk.stand_by()
    with pytest.raises(ValidationError, match="no activity is shown"):
        desk.set_live_results(False)


def test_a_send_made_again_is_acknowledged_once_and_counted_once(store):
    new, desk, info = class_with_activity(store)
    desk.show(info.id)
    seat = store.join(new.code)
    round_id = seat.view().activity.round_id
    first = seat.answer(round_id, "0.39", send_id="phoneAAA-1")
    again = seat.answer(round_id, "0.39", send_id="phoneAAA-1")  # the connection dropped before the receipt
    assert (first.unchanged, again.unchanged, again.text) == (False, True, "0.39")
    changed = seat.answer(round_id, "0.5", send_id="phoneAAA-2")
    stale = seat.answer(round_id, "0.39", send_id="phoneAAA-1")  # an old send arriving late changes nothing
    assert changed.replaced and stale.unchanged and stale.text == "0.5"
    other_tab = seat.answer(round_id, "0.4", send_id="phoneBBB-1")  # another phone of the seat: a real change
    assert other_tab.replaced and not other_tab.unchanged
    with reading(store.engine) as connection:
        row = connection.execute(select(answers)).one()
    assert (row.text, row.revisions, row.send_id) == ("0.4", 2, "phoneBBB-1")
    assert desk.projector().current.rounds[0].answers == 1


def test_the_pulse_of_a_class(store, clock):
    new, desk, info = class_with_activity(store)
    pulses = store.pulses([new.code, "ABCDEF" if new.code != "ABCDEF" else "BCDEFG", "<b>"])
    assert list(pulses) == [new.code]
    assert pulses[new.code].round is None and pulses[new.code].students == 0
    desk.set_timer(30)
    desk.show(info.id)
    seats = [store.join(new.code) for _ in range(3)]
    round_id = seats[0].view().activity.round_id
    seats[0].answer(round_id, "0.3")
    pulse = store.pulses([new.code])[new.code]
    assert (pulse.students, pulse.round.number, pulse.round.answers, pulse.round.state) == (3, 1, 1, OPEN)
    assert pulse.round.closes_at == clock.now + 30 and pulse.timer_seconds == 30 and pulse.following is None
    message = pulse.student_message()
    assert set(message) == {"student", "round"} and "answers" not in message["round"]  # nothing about classmates
    desk.reveal()
    desk.reopen()
    pulse = store.pulses([new.code])[new.code]
    assert (pulse.round.number, pulse.round.answers, pulse.round.earlier) == (2, 0, (1,))


def test_who_follows_the_class_live_across_replicas(store, clock):
    new = store.start_class()
    desk = store.lecturer(new.code, new.key)
    class_id = store.pulses([new.code])[new.code].class_id
    for _ in range(5):
        store.join(new.code)
    assert desk.projector().following is None  # no replica has said anything yet
    presence.publish(store.engine, "replica-a", {class_id: 3}, clock.now)
    presence.publish(store.engine, "replica-b", {class_id: 1}, clock.now)
    assert (desk.projector().following, desk.projector().not_following) == (4, 1)
    presence.publish(store.engine, "replica-b", {}, clock.now)  # its students left
    assert desk.projector().not_following == 2
    clock.advance(presence.FRESH_SECONDS + 1)  # replica a died: its count goes stale
    assert desk.projector().following is None
    presence.publish(store.engine, "replica-a", {class_id: 9}, clock.now)
    assert desk.projector().following == 5  # never more than joined


def test_every_replica_of_a_store_sees_the_same_store_id(database_url):
    first, second = ClassStore(database_url), ClassStore(database_url)
    assert first.store_id == second.store_id and len(first.store_id) == 8
    assert "password" not in first.url or "***" in first.url
