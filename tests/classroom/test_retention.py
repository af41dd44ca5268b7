"""Retention: a class ends a set time after its last activity; the lecturer can end it at once."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from irlab.classroom import tokens
from irlab.classroom.activities.predict import predict_settings
from irlab.classroom.database import reading
from irlab.classroom.refusals import ClassNotFound
from irlab.classroom.schema import activities, answers, classes, rounds, students
from irlab.walkthrough.chapters import chapter
from irlab.walkthrough.state import DEFAULT_STATE

DAY = 24 * 3600.0


def rows_in(store) -> dict[str, int]:
    with reading(store._context.engine) as connection:
        return {table.name: connection.execute(select(func.count()).select_from(table)).scalar_one()
                for table in (classes, students, activities, rounds, answers)}


def busy_class(store):
    new = store.start_class()
    desk = store.lecturer(new.code, new.key)
    desk.show(desk.add_activity("predict", predict_settings(DEFAULT_STATE, chapter("ndcg"), "nDCG@K")).id)
    seat = store.join(new.code)
    seat.answer(seat.view().activity.round_id, "0.4")
    return new, desk, seat


def test_a_class_lives_until_the_retention_after_its_last_activity(store, clock):
    new, desk, seat = busy_class(store)
    clock.advance(DAY - 60)
    seat.answer(seat.view().activity.round_id, "0.3869")  # activity: the clock starts again
    clock.advance(DAY - 60)
    assert store.versions(new.code) is not None and desk.projector().students == 1
    clock.advance(120)
    assert store.versions(new.code) is None
    with pytest.raises(ClassNotFound):
        seat.view()
    with pytest.raises(ClassNotFound):
        desk.projector()
    with pytest.raises(ClassNotFound):
        store.join(new.code)


def test_purging_deletes_expired_classes_with_everything_in_them(store, clock):
    busy_class(store)
    clock.advance(DAY / 2)
    kept, _, _ = busy_class(store)
    clock.advance(DAY / 2 + 1)
    assert store.purge_expired() == 1
    assert rows_in(store) == {"classes": 1, "students": 1, "activities": 1, "rounds": 1, "answers": 1}
    assert store.versions(kept.code) is not None
    assert store.purge_expired() == 0


def test_starting_a_class_purges_and_a_taken_code_is_drawn_again(store, clock, monkeypatch):
    first, _, _ = busy_class(store)
    drawn = iter([first.code, first.code, "ZZZZZZ" if first.code != "ZZZZZZ" else "YYYYYY"])
    monkeypatch.setattr("irlab.classroom.store.new_code", lambda: next(drawn))
    second = store.start_class()
    assert second.code != first.code and tokens.looks_like_code(second.code)
    clock.advance(DAY + 1)
    monkeypatch.setattr("irlab.classroom.store.new_code", lambda: first.code)
    third = store.start_class()  # the expired class was purged first, so its code is free again
    assert third.code == first.code and store.lecturer(third.code, third.key).projector().students == 0
    assert rows_in(store)["classes"] == 1  # the second class expired too (no activity for a day)


def test_the_lecturer_deletes_a_class_at_once(store):
    new, desk, seat = busy_class(store)
    desk.delete_class()
    assert rows_in(store) == dict.fromkeys(("classes", "students", "activities", "rounds", "answers"), 0)
    with pytest.raises(ClassNotFound):
        store.student(new.code, seat.token)
