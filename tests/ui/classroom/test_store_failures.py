"""A class store that does not answer (PostgreSQL stopped, a locked or full disk), on every page and route: one line
for the reader, what a student typed kept, never a traceback, and a line in the log.

The pages run under AppTest against a PostgreSQL URL on which nothing listens; the answer route against a store
whose calls fail with the error SQLAlchemy raises when the server went away.
"""

from __future__ import annotations

import pytest
from sqlalchemy.exc import OperationalError

from irlab.classroom import ClassStore, logbook
from irlab.classroom.student import SEAT_GONE
from irlab.ui.classroom import desk, student
from irlab.ui.classroom.feed import OTHER_STORE, UNREACHABLE, answer_reply
from tests.browser import free_port
from tests.ui.classroom.conftest import Lecturer, Student, said


@pytest.fixture
def stopped_store(monkeypatch: pytest.MonkeyPatch) -> str:
    """``IRLAB_CLASS_DB`` names a PostgreSQL server that is not running; a fresh minute of the error log."""
    url = f"postgresql+psycopg://irlab@127.0.0.1:{free_port()}/irlab"
    monkeypatch.setenv("IRLAB_CLASS_DB", url)
    monkeypatch.setattr(logbook, "STORE_ERRORS", logbook.ErrorLog())
    return url


def test_the_lecturers_page_says_the_store_did_not_answer_in_one_line(stopped_store, caplog):
    with caplog.at_level("ERROR", logger="irlab.classroom"):
        lecturer = Lecturer({"code": "ABCDEF", "key": "k" * 43})
    assert said(lecturer.at, "error") == [desk.UNREACHABLE]
    assert [b.label for b in lecturer.at.main.button] == ["Try again"] and not lecturer.at.exception
    assert any("class store error: OperationalError" in r.getMessage() for r in caplog.records)
    starting = Lecturer()  # no class yet: starting one says so, and nothing breaks
    starting.at.button(key="irl-start").click()
    starting.run()
    assert said(starting.at, "error") == [desk.UNREACHABLE] and starting.code is None


def test_a_student_joining_keeps_what_they_typed(stopped_store):
    joining = Student()
    joining.join("abc-def", "Ann")
    assert said(joining.at, "error") == [student.UNREACHABLE]
    assert joining.at.text_input(key="irl-join-code").value == "abc-def"  # press Join again, nothing to retype
    assert joining.at.text_input(key="irl-nickname").value == "Ann" and not joining.at.exception


def test_a_students_page_says_it_tries_again_by_itself(stopped_store):
    seated = Student({"code": "ABCDEF", "student": "t" * 22})
    assert said(seated.at, "warning") == [student.READ_TROUBLE] and not seated.at.exception


def test_an_answer_sent_while_the_store_is_down_is_kept_on_the_phone(class_db, monkeypatch):
    store = ClassStore(class_db)
    new = store.start_class()
    seat = store.join(new.code)

    def gone(*_args, **_kwargs):
        raise OperationalError("SELECT", {}, Exception("connection refused"))

    monkeypatch.setattr(ClassStore, "student", gone)
    status, reply = answer_reply({"code": new.code, "student": seat.token, "round": 1, "answer": "0.5",
                                  "send": "phoneAAAA-1"}, store)
    assert (status, reply) == (503, {"ok": False, "message": UNREACHABLE, "final": False})  # the phone sends it again


def test_a_link_made_on_another_store_says_so_instead_of_no_such_class(class_db):
    mine = ClassStore(class_db).store_id
    seat = Student({"code": "ABCDEF", "student": "t" * 22, "s": "0a1b2c3d"})
    message = OTHER_STORE.format(theirs="0a1b2c3d", mine=mine)
    assert said(seat.at, "info") == [message]
    lecturer = Lecturer({"code": "ABCDEF", "key": "k" * 43, "s": "0a1b2c3d"})
    assert said(lecturer.at, "info") == [message]
    status, reply = answer_reply({"code": "ABCDEF", "student": "t" * 22, "round": 1, "answer": "0.5",
                                  "s": "0a1b2c3d"}, ClassStore(class_db))
    assert (status, reply["message"], reply["gone"]) == (404, message, True)
    same = Student({"code": "ABCDEF", "student": "t" * 22, "s": mine})  # this store's own link: no such seat
    assert said(same.at, "info") == [SEAT_GONE]
