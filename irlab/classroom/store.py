"""The class store: where a lecturer starts a class and a student joins one.

A :class:`ClassStore` is a handle on the database, nothing more: it holds the engine (one per URL
and process, :mod:`irlab.classroom.database`), the retention and a clock, and no class state, so
any replica can serve any request and a page may make one per request or keep one per process.

Entry points, by role:

* anyone: :meth:`~ClassStore.start_class` (a new class: its code and the lecturer key, shown once),
  :meth:`~ClassStore.versions` (one indexed row), :meth:`~ClassStore.pulses` (what each replica's
  watcher pushes: versions, counts and timers of the classes its pages follow, in four queries);
* the lecturer: :meth:`~ClassStore.lecturer` with the code and key gives a
  :class:`~irlab.classroom.lecturer.LecturerDesk`;
* a student: :meth:`~ClassStore.join` with the code (rate-limited, :mod:`irlab.classroom.ratelimit`)
  gives a :class:`~irlab.classroom.student.StudentSeat` with a new token;
  :meth:`~ClassStore.student` with the code and token from the student's link gives it back.

A code that names no class taking students gets one answer, whatever the reason (never started, ended,
or joining locked), and so does a student link or a lecturer link that opens nothing: nothing a student
sends tells a live code from a dead one. The store's id (:attr:`~ClassStore.store_id`) goes into the
class's links, so a replica on another store can say so instead.

Retention: a class is live until :func:`irlab.classroom.settings.retention_hours` after its last
activity (a join, an answer, a lecturer action); after that it is invisible at once and its rows
are deleted by :meth:`~ClassStore.purge_expired`, which :meth:`~ClassStore.start_class` runs
(a page may also run it now and then).

>>> import tempfile, pathlib
>>> store = ClassStore(f"sqlite:///{pathlib.Path(tempfile.mkdtemp()) / 'classes.sqlite'}")
>>> new = store.start_class()
>>> desk = store.lecturer(new.code, new.key)
>>> seat = store.join(new.code, nickname="Ann")
>>> store.student(new.code, seat.token).view().activity is None
True
>>> desk.projector().students
1
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping

from sqlalchemy import delete, func, insert, select
from sqlalchemy.exc import IntegrityError

from irlab.classroom import ratelimit, rows
from irlab.classroom.database import engine_for, reading, writing
from irlab.classroom.lecturer import LINK_GONE, LecturerDesk
from irlab.classroom.nicknames import clean_nickname
from irlab.classroom.pulse import Pulse, read_pulses
from irlab.classroom.records import NewClass, Versions
from irlab.classroom.refusals import AccessDenied, ClassNotFound, RateLimited
from irlab.classroom.schema import classes, ensure_schema, students
from irlab.classroom.settings import check_url, database_url
from irlab.classroom.settings import retention_hours as configured_retention
from irlab.classroom.student import StudentSeat
from irlab.classroom.tokens import (
    digest,
    looks_like_code,
    looks_like_secret,
    new_code,
    new_lecturer_key,
    new_student_token,
    normalise_code,
)
from irlab.errors import ValidationError

MAX_STUDENTS = 2_000
"""Students per class (far above a lecture hall; a script cannot join a million)."""
CODE_TRIES = 20
NO_CLASS = ("No class is taking students with this code: check it with your lecturer (they may also have closed "
            "joining).")
GUESSING = "Too many wrong codes from this device or network; try again in {wait}."
CROWDED = "Many students are joining this class right now; try again in {wait}."


class ClassStore:
    """The store at ``url`` (default: ``IRLAB_CLASS_DB``, else the per-user SQLite file), created on first use.

    ``retention_hours`` defaults to ``IRLAB_CLASS_RETENTION_HOURS`` (24); ``clock`` gives seconds since the
    epoch (tests pass their own).
    """

    def __init__(self, url: str | None = None, *, retention_hours: float | None = None,
                 clock: Callable[[], float] = time.time, environ: Mapping[str, str] = os.environ) -> None:
        checked = database_url(environ) if url is None else check_url(url)
        hours = configured_retention(environ) if retention_hours is None else retention_hours
        engine = engine_for(checked)
        self._id = ensure_schema(engine)
        self._context = rows.Context(engine, hours * 3600.0, clock)

    @property
    def backend(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self._context.engine.dialect.name

    @property
    def store_id(self) -> str:
        """The id the store got when it was created: the same for every replica that opens this store."""
        return self._id

    @property
    def url(self) -> str:
        """The store's URL with the password hidden (for logs and messages)."""
        return self._context.engine.url.render_as_string(hide_password=True)

    @property
    def engine(self):
        """The SQLAlchemy engine (the watcher opens its own connection of the same URL)."""
        return self._context.engine

    def clock(self) -> float:
        """The store's clock: seconds since the epoch."""
        return self._context.clock()

    @property
    def retention_seconds(self) -> float:
        """How long a class is kept after its last activity."""
        return self._context.retention_seconds

    # --- anyone --------------------------------------------------------------------------------------------------

    def start_class(self, *, show_names: bool = False, session: str | None = None,
                    address: str | None = None) -> NewClass:
        """A new class with a code unique among live classes and a new lecturer key (kept here only as a hash).

        At most :data:`irlab.classroom.ratelimit.START` classes per session and address (RateLimited).
        """
        self.purge_expired()
        hashed = ratelimit.subjects(ratelimit.START, session, address)
        key = new_lecturer_key()
        for _ in range(CODE_TRIES):
            now = self._context.clock()
            code = new_code()
            try:
                with writing(self._context.engine) as connection:
                    if (wait := ratelimit.seconds_blocked(connection, ratelimit.START, hashed, now)) > 0:
                        raise RateLimited(f"You have started many classes; try again in "
                                          f"{ratelimit.wait_text(wait)}.", wait)
                    connection.execute(insert(classes).values(
                        code=code, key_hash=digest(key), show_names=bool(show_names), current_activity_id=None,
                        student_version=1, projector_version=1, created_at=now, last_activity_at=now))
                    ratelimit.record(connection, ratelimit.START, hashed, now)
                return NewClass(code, key)
            except IntegrityError:  # the code is taken (a live class, or one past retention not yet purged)
                continue
        raise ValidationError("no free join code was found; try again")  # 20 collisions in a billion codes

    def pulses(self, codes: list[str]) -> dict[str, Pulse]:
        """What the pages following these classes need to know now (:mod:`irlab.classroom.pulse`); a code with no
        live class is missing from the answer."""
        now = self._context.clock()
        with reading(self._context.engine) as connection:
            return read_pulses(connection, [c for c in codes if looks_like_code(c)],
                               self._context.live_after(now), now)

    def close_due(self, code: str) -> int:
        """Write closed the class's rounds whose timer ran out (each replica's watcher calls this at the deadline, so
        the views are told); how many were closed."""
        now = self._context.clock()
        with writing(self._context.engine) as connection:
            row = rows.live_class(connection, self._context, code, now, lock=True)
            return rows.close_due_rounds(connection, row.id, now) if row is not None else 0

    def versions(self, code: str) -> Versions | None:
        """The class's change counters, or None when no live class has this code (the poll: one indexed row)."""
        if not looks_like_code(code):
            return None
        now = self._context.clock()
        with reading(self._context.engine) as connection:
            row = connection.execute(select(classes.c.student_version, classes.c.projector_version).where(
                (classes.c.code == code) & (classes.c.last_activity_at > self._context.live_after(now)))).first()
        return None if row is None else Versions(row.student_version, row.projector_version)

    def purge_expired(self) -> int:
        """Delete the classes past retention (with everything in them); how many were deleted."""
        now = self._context.clock()
        with writing(self._context.engine) as connection:
            return connection.execute(delete(classes).where(
                classes.c.last_activity_at <= self._context.live_after(now))).rowcount

    # --- the lecturer --------------------------------------------------------------------------------------------

    def lecturer(self, code: object, key: object) -> LecturerDesk:
        """The lecturer's desk for the class; ClassNotFound when the link opens no live class (the key is checked
        now and on every action)."""
        if not looks_like_code(code) or not looks_like_secret(key):
            raise ClassNotFound(LINK_GONE)
        desk = LecturerDesk(self._context, code, key)
        desk.check()
        return desk

    # --- a student -----------------------------------------------------------------------------------------------

    def join(self, code: object, *, nickname: object = None, session: str | None = None,
             address: str | None = None) -> StudentSeat:
        """A new student in the class with ``code`` (as typed); their token is the seat's ``token``.

        Refused with RateLimited after too many failed joins from this session or address
        (:data:`irlab.classroom.ratelimit.JOIN`) or when the class takes many students at once
        (:data:`~irlab.classroom.ratelimit.CLASS_JOINS`), with ClassNotFound (counted as a failure) when no live
        class takes students with the code (none has it, or its lecturer locked joining: the same answer).
        """
        hashed = ratelimit.subjects(ratelimit.JOIN, session, address)
        name = clean_nickname(nickname)
        token = new_student_token()
        now = self._context.clock()
        failure: ValidationError | None = None
        with writing(self._context.engine) as connection:
            if (wait := ratelimit.seconds_blocked(connection, ratelimit.JOIN, hashed, now)) > 0:
                raise RateLimited(GUESSING.format(wait=ratelimit.wait_text(wait)), wait)
            try:
                found = rows.live_class(connection, self._context, normalise_code(code), now)
            except ValidationError as error:
                found, failure = None, error
            class_row = rows.lock_class(connection, self._context, found.id, now) if found is not None else None
            if class_row is None or class_row.joining_locked:
                failure = failure or ClassNotFound(NO_CLASS)
                ratelimit.record(connection, ratelimit.JOIN, hashed, now)  # committed: the failure counts
            else:
                crowd = ratelimit.subjects(ratelimit.CLASS_JOINS, klass=class_row.id)
                if (wait := ratelimit.seconds_blocked(connection, ratelimit.CLASS_JOINS, crowd, now)) > 0:
                    raise RateLimited(CROWDED.format(wait=ratelimit.wait_text(wait)), wait)
                count, last = connection.execute(select(func.count(), func.max(students.c.number))
                                                 .where(students.c.class_id == class_row.id)).one()
                if count >= MAX_STUDENTS:
                    raise ValidationError(f"This class is full ({MAX_STUDENTS} students).")
                connection.execute(insert(students).values(class_id=class_row.id, number=(last or 0) + 1,
                                                           token_hash=digest(token), nickname=name, joined_at=now))
                ratelimit.record(connection, ratelimit.CLASS_JOINS, crowd, now)
                rows.touch(connection, class_row.id, now, projector=True)
        if failure is not None:
            raise failure
        return StudentSeat(self._context, class_row.code, token)

    def student(self, code: object, token: object) -> StudentSeat:
        """The student whose link carries ``code`` and ``token`` (a reload, another replica, a restart)."""
        if not looks_like_code(code):
            raise ClassNotFound("This link has no valid class code; join with the code your lecturer shows.")
        if not looks_like_secret(token):
            raise AccessDenied("This student link is damaged; join the class again with its code.")  # no class named
        seat = StudentSeat(self._context, code, token)
        seat.check()
        return seat
