"""A replica's lines about its store: the store at start, store errors at most once a minute with a count."""

from __future__ import annotations

import logging

from irlab.classroom.logbook import ErrorLog, store_started


class Ticks:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_store_errors_are_logged_at_once_then_at_most_once_a_minute_with_a_count(caplog):
    ticks = Ticks()
    log = ErrorLog(logging.getLogger("irlab.classroom.test"), every=60.0, clock=ticks)
    with caplog.at_level("ERROR", logger="irlab.classroom.test"):
        assert log.report(OSError("disk I/O error\n[SQL: INSERT INTO answers ...]"), "student answer")
        for _ in range(500):  # a class of 500 meeting the same error: no line each
            assert not log.report(OSError("disk I/O error"), "student answer")
        ticks.now = 30
        assert not log.report(TimeoutError("locked"), "projector")
        ticks.now = 61
        assert log.report(OSError("disk I/O error"), "student view")
    lines = [r.getMessage() for r in caplog.records]
    assert lines == ["class store error: OSError: disk I/O error (in student answer)",
                     "class store error: OSError: disk I/O error (in student answer) (502 errors since the last line: "
                     "student answer 500, projector 1, student view 1)"]
    assert "SQL" not in "".join(lines)


def test_the_store_is_logged_once_at_start_or_why_it_could_not_open(caplog):
    with caplog.at_level("INFO", logger="irlab.classroom"):
        store_started("sqlite:////srv/classes.sqlite (store 1a2b3c4d, sqlite)")
        store_started(None, PermissionError("unable to open database file"))
    assert [r.getMessage() for r in caplog.records] == [
        "class store: sqlite:////srv/classes.sqlite (store 1a2b3c4d, sqlite)",
        "class store could not be opened: PermissionError: unable to open database file"]
