"""The lecturer's side of a class: every action takes the key and checks it.

A :class:`LecturerDesk` is what :meth:`irlab.classroom.store.ClassStore.lecturer` returns for a
join code and a key. It holds the key, not a verdict: every call checks it again against the
store (in constant time) inside its own transaction, so a desk kept in a session stops working the
moment its class is deleted or expires, and nothing here trusts an earlier check. Students never
get a desk: their side is :mod:`irlab.classroom.student`.

The flow of an activity (rounds: vote, discuss, revote):

* :meth:`~LecturerDesk.add_activity` appends it to the class's list (settings checked by its kind);
* :meth:`~LecturerDesk.show` makes it the one students see, opening round 1 the first time
  (showing an earlier activity again is how the lecturer goes back);
* :meth:`~LecturerDesk.close` stops answers without revealing (for a revote after discussion);
* :meth:`~LecturerDesk.reveal` reveals every round of the current activity (students see whether
  they were right and why; the projector shows the distributions);
* :meth:`~LecturerDesk.reopen` starts the next round (the open one, if any, is closed first);
* :meth:`~LecturerDesk.stand_by` shows students "waiting for the lecturer".

Pacing and the room: :meth:`~LecturerDesk.set_timer` gives the rounds the lecturer opens a timer
(:data:`TIMERS`; a round closes itself when it runs out, :mod:`irlab.classroom.rows`), also the round
open now; :meth:`~LecturerDesk.set_joining_locked` stops new students from joining;
:meth:`~LecturerDesk.set_live_results` shows the current question's answers on the projector while
the round runs (hidden until the reveal by default, as peer instruction wants).

A link whose key does not run a live class gets one answer, whatever the reason (the class ended, or
the key is another class's), so a lecturer link tells nothing about other classes.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Connection, Row, delete, func, insert, select, update

from irlab.classroom import presence, rows
from irlab.classroom.activities import kind as activity_kind
from irlab.classroom.activities.base import CLOSED, OPEN, REVEALED
from irlab.classroom.analytics import RoundStats, class_stats, stats_csv
from irlab.classroom.database import reading, writing
from irlab.classroom.export import answers_csv
from irlab.classroom.records import ActivityInfo, ActivityReport, ProjectorView, Versions
from irlab.classroom.refusals import ClassNotFound
from irlab.classroom.schema import activities, classes, rounds, students
from irlab.classroom.tokens import key_matches
from irlab.errors import ValidationError

MAX_ACTIVITIES = 200
MAX_ROUNDS = 10
MAX_SETTINGS_BYTES = 16_000
TIMERS = (30, 60)
"""The timers a lecturer can give a round, in seconds (or none)."""
LINK_GONE = ("This lecturer link opens no live class: the class has ended (deleted, or no activity for a long "
             "time), or the key is not this class's. Open the class with the link it showed when it started.")


class LecturerDesk:
    """The lecturer's actions on one class (see the module's text)."""

    def __init__(self, context: rows.Context, code: str, key: str) -> None:
        self._context = context
        self.code = code
        self._key = key

    def __repr__(self) -> str:  # never the key
        return f"LecturerDesk(code={self.code!r})"

    # --- checking the key ----------------------------------------------------------------------------------------

    def _checked(self, row: Row | None) -> Row:
        if row is None or not key_matches(self._key, row.key_hash):
            raise ClassNotFound(LINK_GONE)
        return row

    @contextmanager
    def _write(self) -> Iterator[tuple[Connection, Row, float]]:
        """A write transaction on the class, its row locked and the key checked (rounds whose timer ran out are
        written closed first)."""
        now = self._context.clock()
        with writing(self._context.engine) as connection:
            row = self._checked(rows.live_class(connection, self._context, self.code, now, lock=True))
            if rows.close_due_rounds(connection, row.id, now):
                row = self._checked(rows.live_class(connection, self._context, self.code, now, lock=True))
            yield connection, row, now

    @contextmanager
    def _read(self) -> Iterator[tuple[Connection, Row, float]]:
        now = self._context.clock()
        with reading(self._context.engine) as connection:
            yield connection, self._checked(rows.live_class(connection, self._context, self.code, now)), now

    def check(self) -> None:
        """Raise :class:`~irlab.classroom.refusals.ClassNotFound` unless the key runs a live class."""
        with self._read():
            pass

    # --- activities ----------------------------------------------------------------------------------------------

    def add_activity(self, kind: str, settings: Mapping[str, Any]) -> ActivityInfo:
        """Append an activity (its kind checks the settings; ValidationError says what is wrong)."""
        kind_ = activity_kind(kind)
        checked = kind_.settings(settings)
        stored = json.dumps(checked, sort_keys=True, ensure_ascii=False)
        if len(stored.encode("utf-8")) > MAX_SETTINGS_BYTES:
            raise ValidationError(f"the activity's settings are too large (at most {MAX_SETTINGS_BYTES:,} bytes)")
        with self._write() as (connection, class_row, now):
            count, last = connection.execute(select(func.count(), func.max(activities.c.position))
                                             .where(activities.c.class_id == class_row.id)).one()
            if count >= MAX_ACTIVITIES:
                raise ValidationError(f"a class holds at most {MAX_ACTIVITIES} activities")
            position = (last or 0) + 1
            activity_id = connection.execute(insert(activities).values(
                class_id=class_row.id, position=position, kind=kind_.name, settings=stored, created_at=now)
                .returning(activities.c.id)).scalar_one()
            rows.touch(connection, class_row.id, now, projector=True)
        return ActivityInfo(activity_id, position, kind_.name, kind_.describe(checked), 0, None, False)

    def show(self, activity_id: int) -> None:
        """Make the activity the one students see; its first showing opens round 1 (with the class's timer)."""
        with self._write() as (connection, class_row, now):
            row = self._activity(connection, class_row, activity_id)
            if not rows.round_rows(connection, [row.id])[row.id]:
                connection.execute(insert(rounds).values(activity_id=row.id, number=1, state=OPEN, opened_at=now,
                                                         closes_at=_timer_end(class_row, now)))
            rows.touch(connection, class_row.id, now, student=True, projector=True, current_activity_id=row.id)

    def close(self) -> None:
        """Stop taking answers to the current activity's open round, without revealing anything."""
        with self._write() as (connection, class_row, now):
            latest = self._current_rounds(connection, class_row)[-1]
            if rows.round_state(latest, now) != OPEN:
                raise ValidationError("the current round is not open")
            connection.execute(update(rounds).where(rounds.c.id == latest.id).values(state=CLOSED, closed_at=now))
            rows.touch(connection, class_row.id, now, student=True, projector=True)

    def reveal(self) -> None:
        """Reveal every round of the current activity (answers stop; students see whether they were right)."""
        with self._write() as (connection, class_row, now):
            hidden = [r for r in self._current_rounds(connection, class_row) if r.state != REVEALED]
            if not hidden:
                raise ValidationError("this activity is revealed already; reopen it for another round")
            for r in hidden:
                ended = min(now, r.closes_at) if r.closes_at is not None else now  # a timer may have ended it
                connection.execute(update(rounds).where(rounds.c.id == r.id).values(
                    state=REVEALED, revealed_at=now, closed_at=r.closed_at if r.closed_at is not None else ended))
            rows.touch(connection, class_row.id, now, student=True, projector=True)

    def reopen(self) -> None:
        """Start the next round of the current activity (vote, discuss, revote); an open round is closed first."""
        with self._write() as (connection, class_row, now):
            latest = self._current_rounds(connection, class_row)[-1]
            if latest.number >= MAX_ROUNDS:
                raise ValidationError(f"an activity has at most {MAX_ROUNDS} rounds")
            if latest.state == OPEN:
                connection.execute(update(rounds).where(rounds.c.id == latest.id).values(
                    state=CLOSED, closed_at=min(now, latest.closes_at) if latest.closes_at is not None else now))
            connection.execute(insert(rounds).values(activity_id=latest.activity_id, number=latest.number + 1,
                                                     state=OPEN, opened_at=now, closes_at=_timer_end(class_row, now)))
            rows.touch(connection, class_row.id, now, student=True, projector=True)

    def stand_by(self) -> None:
        """Show students "waiting for the lecturer" (no activity)."""
        with self._write() as (connection, class_row, now):
            rows.touch(connection, class_row.id, now, student=True, projector=True, current_activity_id=None)

    def _activity(self, connection: Connection, class_row: Row, activity_id: object) -> Row:
        row = rows.activity_row(connection, class_row.id, activity_id)
        if row is None:
            raise ValidationError("this class has no such activity")
        return row

    def _current_rounds(self, connection: Connection, class_row: Row) -> list[Row]:
        if class_row.current_activity_id is None:
            raise ValidationError("no activity is shown; show one first")
        found = rows.round_rows(connection, [class_row.current_activity_id])[class_row.current_activity_id]
        if not found:
            raise ValidationError("the current activity has no round; show it again")
        return found

    # --- the class -----------------------------------------------------------------------------------------------

    def set_show_names(self, show: bool) -> None:
        """Show the students' nicknames on the projector, or not (the default)."""
        with self._write() as (connection, class_row, now):
            rows.touch(connection, class_row.id, now, projector=True, show_names=bool(show))

    def set_timer(self, seconds: int | None) -> None:
        """The timer of the rounds the lecturer opens from now on (one of :data:`TIMERS`, or None for none); the
        round open now gets it too, counted from now (None: it runs until the lecturer closes it)."""
        if seconds is not None and (isinstance(seconds, bool) or seconds not in TIMERS):
            raise ValidationError(f"a timer runs {' or '.join(f'{t} s' for t in TIMERS)}, or there is none")
        with self._write() as (connection, class_row, now):
            if class_row.current_activity_id is not None:
                found = rows.round_rows(connection, [class_row.current_activity_id])[class_row.current_activity_id]
                if found and rows.round_state(found[-1], now) == OPEN:
                    connection.execute(update(rounds).where(rounds.c.id == found[-1].id).values(
                        closes_at=now + seconds if seconds is not None else None))
            rows.touch(connection, class_row.id, now, student=True, projector=True, timer_seconds=seconds)

    def set_joining_locked(self, locked: bool) -> None:
        """Stop new students from joining (those who joined stay), or let them join again."""
        with self._write() as (connection, class_row, now):
            rows.touch(connection, class_row.id, now, projector=True, joining_locked=bool(locked))

    def set_live_results(self, live: bool) -> None:
        """Show the current question's answers on the projector while its round runs, or only once revealed."""
        with self._write() as (connection, class_row, now):
            if class_row.current_activity_id is None:
                raise ValidationError("no activity is shown; show one first")
            connection.execute(update(activities).where(activities.c.id == class_row.current_activity_id)
                               .values(live_results=bool(live)))
            rows.touch(connection, class_row.id, now, projector=True)

    def delete_class(self) -> None:
        """Delete the class with its students, activities and answers, now."""
        with self._write() as (connection, class_row, _):
            connection.execute(delete(classes).where(classes.c.id == class_row.id))
            rows.notify(connection, class_row.code)  # the pages following it hear that it is gone

    # --- reading -------------------------------------------------------------------------------------------------

    def versions(self) -> Versions:
        """The class's change counters (the key is checked: a projector polls this)."""
        with self._read() as (_, class_row, _now):
            return Versions(class_row.student_version, class_row.projector_version)

    def projector(self) -> ProjectorView:
        """Everything the projector shows: join count, names if on, the activities, the current one summarised,
        the timer, whether joining is locked, and how many students follow the class live."""
        with self._read() as (connection, class_row, now):
            joined = list(connection.execute(select(students.c.nickname).where(students.c.class_id == class_row.id)
                                             .order_by(students.c.number)).scalars())
            activity_list = rows.activity_rows(connection, class_row.id)
            by_activity = rows.round_rows(connection, [a.id for a in activity_list])
            current_id = class_row.current_activity_id
            infos = tuple(rows.activity_info(a, by_activity[a.id], current_id, now) for a in activity_list)
            current_row = next((a for a in activity_list if a.id == current_id), None)
            current = (rows.activity_report(connection, current_row, current_id, now) if current_row is not None
                       else None)
            names = tuple(name for name in joined if name) if class_row.show_names else ()
            return ProjectorView(self.code, Versions(class_row.student_version, class_row.projector_version),
                                 len(joined), bool(class_row.show_names), names, infos, current,
                                 bool(class_row.joining_locked), class_row.timer_seconds,
                                 presence.following(connection, class_row.id, now), now)

    def report(self, activity_id: int) -> ActivityReport:
        """Any activity of the class with its rounds summarised (going back over earlier questions)."""
        with self._read() as (connection, class_row, now):
            return rows.activity_report(connection, self._activity(connection, class_row, activity_id),
                                        class_row.current_activity_id, now)

    def export_csv(self) -> str:
        """All answers of the class as CSV text (:mod:`irlab.classroom.export`)."""
        with self._read() as (connection, class_row, _now):
            return answers_csv(connection, class_row.id)

    def analytics(self) -> tuple[RoundStats, ...]:
        """Every round of every activity: share right, named mistakes, time to answer (:mod:`irlab.classroom.
        analytics`)."""
        with self._read() as (connection, class_row, _now):
            return class_stats(connection, class_row.id)

    def analytics_csv(self) -> str:
        """:meth:`analytics` as CSV text (:func:`irlab.classroom.analytics.stats_csv`)."""
        return stats_csv(self.analytics())


def _timer_end(class_row: Row, now: float) -> float | None:
    """When a round opened now ends by the class's timer (None: no timer)."""
    return now + class_row.timer_seconds if class_row.timer_seconds else None
