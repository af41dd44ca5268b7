"""Each replica's watcher, on SQLite (its change counter) and PostgreSQL (LISTEN/NOTIFY): the pages following a class
are told when it changed, whichever process changed it; timers close rounds; who follows is counted; a failing store
is said once and recovered from."""

from __future__ import annotations

import threading
import time

import pytest
from sqlalchemy.exc import OperationalError

from irlab.classroom import ClassStore, logbook
from irlab.classroom.activities.base import CLOSED, OPEN
from irlab.classroom.rows import TIMER_GRACE
from irlab.classroom.watch import ClassWatcher, Update
from tests.classroom.test_store import class_with_activity


class Heard:
    """A listener that keeps every update, and waits for one that satisfies a condition."""

    def __init__(self) -> None:
        self.updates: list[Update] = []
        self.lock = threading.Condition()

    def __call__(self, update: Update) -> None:
        with self.lock:
            self.updates.append(update)
            self.lock.notify_all()

    def wait_for(self, condition, timeout: float = 20.0) -> Update:
        deadline = time.monotonic() + timeout
        with self.lock:
            while True:
                found = next((u for u in reversed(self.updates) if condition(u)), None)
                if found is not None:
                    return found
                left = deadline - time.monotonic()
                assert left > 0, f"never heard it; heard: {self.updates[-3:]}"
                self.lock.wait(left)


@pytest.fixture
def watcher(store):
    watching = ClassWatcher(store, replica="replica-test").start()
    yield watching
    watching.stop()


def test_a_follower_hears_the_class_as_it_is_and_every_change_made_elsewhere(store, watcher, database_url, clock):
    new, desk, info = class_with_activity(store)
    heard = Heard()
    unfollow = watcher.follow(new.code, heard)
    first = heard.wait_for(lambda u: u.pulse is not None)
    assert first.pulse.students == 0 and first.pulse.round is None
    other = ClassStore(database_url, clock=clock)  # another replica's handle on the same store
    seat = other.join(new.code)
    heard.wait_for(lambda u: u.pulse is not None and u.pulse.students == 1)
    desk.show(info.id)
    opened = heard.wait_for(lambda u: u.pulse is not None and u.pulse.round is not None)
    seat.answer(seat.view().activity.round_id, "0.39")
    counted = heard.wait_for(lambda u: u.pulse is not None and u.pulse.round is not None and u.pulse.round.answers)
    assert counted.pulse.student == opened.pulse.student and counted.pulse.projector > opened.pulse.projector
    told = len(heard.updates)
    desk.set_show_names(True)  # nothing the pulse holds changes... but the projector's version does
    heard.wait_for(lambda u: u.pulse is not None and u.pulse.projector > counted.pulse.projector)
    assert len(heard.updates) == told + 1  # told once per change, not once per tick
    unfollow()
    assert watcher.following() == {}
    desk.delete_class()


def test_a_deleted_class_is_said_gone(store, watcher):
    new = store.start_class()
    heard = Heard()
    watcher.follow(new.code, heard)
    heard.wait_for(lambda u: u.pulse is not None)
    store.lecturer(new.code, new.key).delete_class()
    gone = heard.wait_for(lambda u: u.pulse is None)
    assert gone.trouble is None


def test_a_timer_closes_the_round_for_everyone_by_itself(store, clock, watcher):
    new, desk, info = class_with_activity(store)
    desk.set_timer(30)
    desk.show(info.id)
    heard = Heard()
    watcher.follow(new.code, heard)
    opened = heard.wait_for(lambda u: u.pulse is not None and u.pulse.round is not None).pulse
    assert opened.round.state == OPEN
    clock.advance(30)  # the timer ran out: the followers hear it closed, before anything is written
    closed = heard.wait_for(lambda u: u.pulse.round.state == CLOSED).pulse
    assert closed.student == opened.student
    clock.advance(TIMER_GRACE)  # then the watcher writes it closed: every view is told through its version
    written = heard.wait_for(lambda u: u.pulse.student > opened.student).pulse
    assert written.round.state == CLOSED
    assert store.lecturer(new.code, new.key).projector().current.latest.state == CLOSED


def test_who_follows_through_this_replica_reaches_the_desk(store, watcher):
    new = store.start_class()
    seats = [store.join(new.code) for _ in range(3)]
    desk = store.lecturer(new.code, new.key)
    projector = Heard()
    watcher.follow(new.code, projector)  # the lecturer's page
    stops = [watcher.follow(new.code, Heard(), seat=seat.student_number()) for seat in seats[:2]]
    watcher.follow(new.code, Heard(), seat=seats[0].student_number())  # a second tab of the first student
    deadline = time.monotonic() + 20
    while desk.projector().following != 2:
        assert time.monotonic() < deadline, desk.projector().following
        time.sleep(0.1)
    assert desk.projector().not_following == 1
    stops[1]()
    while desk.projector().following != 1:
        assert time.monotonic() < deadline, desk.projector().following
        time.sleep(0.1)


def test_a_failing_store_is_said_once_and_the_followers_hear_it_again_when_it_is_back(store, watcher, monkeypatch,
                                                                                      caplog):
    new = store.start_class()
    heard = Heard()
    watcher.follow(new.code, heard)
    heard.wait_for(lambda u: u.pulse is not None)
    failing = threading.Event()
    real = store.pulses

    def pulses(codes):
        if failing.is_set():
            raise OperationalError("SELECT", {}, Exception("database is locked"))
        return real(codes)

    monkeypatch.setattr(store, "pulses", pulses)
    monkeypatch.setattr(logbook, "STORE_ERRORS", logbook.ErrorLog())  # this test's minute, not an earlier test's
    failing.set()
    with caplog.at_level("ERROR", logger="irlab.classroom"):
        trouble = heard.wait_for(lambda u: u.trouble is not None)
        assert trouble.trouble == "The class store is not answering; trying again." and trouble.pulse is not None
        said_at = next(n for n, u in enumerate(heard.updates) if u.trouble is not None)
        failing.clear()
        heard.wait_for(lambda u: any(later.trouble is None for later in heard.updates[said_at + 1:]))
    assert sum("class store error" in r.message for r in caplog.records) == 1  # once a minute, not once a tick
    assert sum(u.trouble is not None for u in heard.updates) == 1


def test_a_classmates_answer_wakes_the_projector_not_the_other_phones(store, watcher):
    new, desk, info = class_with_activity(store)
    desk.show(info.id)
    seats = [store.join(new.code) for _ in range(2)]
    projector, phone = Heard(), Heard()
    watcher.follow(new.code, projector)
    watcher.follow(new.code, phone, seat=seats[1].student_number())
    first = projector.wait_for(lambda u: u.pulse is not None and u.pulse.students == 2).pulse
    phone.wait_for(lambda u: u.pulse is not None)
    told = len(phone.updates)
    seats[0].answer(seats[0].view().activity.round_id, "0.4")
    projector.wait_for(lambda u: u.pulse.round.answers == 1 and u.pulse.projector > first.projector)
    desk.close()  # the lecturer's move: every page is told
    phone.wait_for(lambda u: u.pulse.round.state == CLOSED)
    assert len(phone.updates) == told + 1
