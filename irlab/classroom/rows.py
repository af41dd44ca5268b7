"""Reading and writing a class's rows: the SQL both roles share (internal to irlab.classroom).

Every write to a class starts by locking the class's row (:func:`lock_class`: ``SELECT ... FOR
UPDATE`` on PostgreSQL; on SQLite the write transaction already holds the one write lock), so
the writes of one class happen one after the other: a student's answer cannot land in a round
the lecturer is revealing at that moment, and two joins cannot take the same student number.

Every change a view shows bumps a version counter of the class (:func:`touch`); on PostgreSQL the
same transaction notifies :data:`CHANNEL` with the class's code (delivered when it commits), which
each replica's watcher listens to (:mod:`irlab.classroom.watch`).

**Timers.** A round may have a timer (``closes_at``): it counts as closed from that moment for
everyone who reads it (:func:`round_state`), takes answers that arrive up to :data:`TIMER_GRACE`
seconds later (their way through the network), and is written closed by the next write to its
class after that (:func:`close_due_rounds`; each replica's watcher makes one at the deadline, so
the views are told).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, Engine, Row, select, text, update

from irlab.classroom.activities import kind
from irlab.classroom.activities.base import CLOSED, OPEN, REVEALED, Respondent, RoundAnswers, StoredAnswer
from irlab.classroom.records import ActivityInfo, ActivityReport, RoundInfo
from irlab.classroom.schema import activities, answers, classes, rounds, students


@dataclass(frozen=True)
class Context:
    """What every request needs: the engine, the clock (seconds since the epoch) and the retention."""

    engine: Engine
    retention_seconds: float
    clock: Callable[[], float] = field(default=time.time)

    def live_after(self, now: float) -> float:
        """Classes whose last activity is after this time are live."""
        return now - self.retention_seconds


def live_class(connection: Connection, context: Context, code: str, now: float, *, lock: bool = False) -> Row | None:
    """The live class with join code ``code``, or None; ``lock``: locked for the rest of the transaction."""
    query = select(classes).where((classes.c.code == code) & (classes.c.last_activity_at > context.live_after(now)))
    return connection.execute(query.with_for_update() if lock else query).first()


def lock_class(connection: Connection, context: Context, class_id: int, now: float) -> Row | None:
    """The class's row, locked for the rest of the transaction (None when it is gone or past retention)."""
    return connection.execute(select(classes).where(
        (classes.c.id == class_id) & (classes.c.last_activity_at > context.live_after(now))).with_for_update()).first()


CHANNEL = "irlab_classes"
"""The PostgreSQL notification channel of class changes (the payload: the class's join code)."""
TIMER_GRACE = 1.0
"""Seconds after a round's timer ran out in which an answer is still taken (it was on its way)."""


def touch(connection: Connection, class_id: int, now: float, *, student: bool = False,
          projector: bool = False, **values: Any) -> None:
    """Record that the class changed now: bump the version(s) whose view changed, set ``values``, and (PostgreSQL)
    notify the replicas' watchers when the transaction commits."""
    changes: dict[str, Any] = {"last_activity_at": now, **values}
    if student:
        changes["student_version"] = classes.c.student_version + 1
    if projector:
        changes["projector_version"] = classes.c.projector_version + 1
    statement = update(classes).where(classes.c.id == class_id).values(**changes)
    if connection.dialect.name != "postgresql" or not (student or projector):
        connection.execute(statement)
        return
    notify(connection, connection.execute(statement.returning(classes.c.code)).scalar())


def notify(connection: Connection, code: str | None) -> None:
    """PostgreSQL: tell the replicas' watchers that class ``code`` changed, when the transaction commits (SQLite's
    watchers notice any commit by themselves)."""
    if connection.dialect.name == "postgresql" and code is not None:
        connection.execute(text("SELECT pg_notify(:channel, :code)"), {"channel": CHANNEL, "code": code})


def round_state(row: Row, now: float) -> str:
    """The round's state at ``now``: an open round whose timer has run out is closed.

    >>> from types import SimpleNamespace as R
    >>> round_state(R(state="open", closes_at=100.0), 99.9), round_state(R(state="open", closes_at=100.0), 100.0)
    ('open', 'closed')
    >>> round_state(R(state="revealed", closes_at=None), 5.0)
    'revealed'
    """
    if row.state == OPEN and row.closes_at is not None and now >= row.closes_at:
        return CLOSED
    return row.state


def close_due_rounds(connection: Connection, class_id: int, now: float) -> int:
    """Write closed every open round of the class whose timer ran out more than :data:`TIMER_GRACE` ago (closed at
    its timer's end); bump the views when there was one. How many were closed."""
    due = ((rounds.c.state == OPEN) & (rounds.c.closes_at.is_not(None)) & (rounds.c.closes_at + TIMER_GRACE <= now)
           & rounds.c.activity_id.in_(select(activities.c.id).where(activities.c.class_id == class_id)))
    closed = connection.execute(update(rounds).where(due).values(state=CLOSED, closed_at=rounds.c.closes_at)).rowcount
    if closed:
        touch(connection, class_id, now, student=True, projector=True)
    return closed


def respondent(student: Row) -> Respondent:
    """The student as a kind sees them: number, and a seed from their token's hash (stable, never shown)."""
    return Respondent(number=student.number, seed=int(student.token_hash[:15], 16))


def activity_rows(connection: Connection, class_id: int) -> list[Row]:
    """The class's activities in order."""
    return list(connection.execute(select(activities).where(activities.c.class_id == class_id)
                                   .order_by(activities.c.position)))


def activity_row(connection: Connection, class_id: int, activity_id: object) -> Row | None:
    """One activity of the class (None for an id of another class or none at all)."""
    if isinstance(activity_id, bool) or not isinstance(activity_id, int):
        return None
    return connection.execute(select(activities).where(
        (activities.c.id == activity_id) & (activities.c.class_id == class_id))).first()


def round_rows(connection: Connection, activity_ids: Iterable[int]) -> dict[int, list[Row]]:
    """Each activity's rounds in order."""
    ids = list(activity_ids)
    found: dict[int, list[Row]] = {i: [] for i in ids}
    if ids:
        for row in connection.execute(select(rounds).where(rounds.c.activity_id.in_(ids))
                                      .order_by(rounds.c.activity_id, rounds.c.number)):
            found[row.activity_id].append(row)
    return found


def stored_answers(connection: Connection, round_rows_: Sequence[Row]) -> dict[int, tuple[StoredAnswer, ...]]:
    """Round id -> its answers as the kinds see them, in the students' order."""
    opened = {row.id: row.opened_at for row in round_rows_}
    found: dict[int, list[StoredAnswer]] = {round_id: [] for round_id in opened}
    if not opened:
        return {}
    query = (select(answers, students.c.number, students.c.token_hash)
             .join(students, students.c.id == answers.c.student_id)
             .where(answers.c.round_id.in_(list(opened))).order_by(answers.c.round_id, students.c.number))
    for row in connection.execute(query):
        found[row.round_id].append(stored_answer(row, opened[row.round_id]))
    return {round_id: tuple(items) for round_id, items in found.items()}


def stored_answer(row: Row, opened_at: float) -> StoredAnswer:
    """An answer row (joined with its student's number and token hash) as a kind sees it."""
    return StoredAnswer(respondent=respondent(row), text=row.text, value=json.loads(row.value), correct=row.correct,
                        mistake=row.mistake, seconds=max(0.0, row.answered_at - opened_at), revisions=row.revisions,
                        detail=json.loads(row.detail) if row.detail else None)


def activity_info(row: Row, rounds_: Sequence[Row], current_id: int | None, now: float) -> ActivityInfo:
    """An activity for the class's list."""
    settings = json.loads(row.settings)
    return ActivityInfo(id=row.id, position=row.position, kind=row.kind, title=kind(row.kind).describe(settings),
                        rounds=len(rounds_), state=round_state(rounds_[-1], now) if rounds_ else None,
                        current=row.id == current_id, live_results=bool(row.live_results))


def activity_report(connection: Connection, row: Row, current_id: int | None, now: float) -> ActivityReport:
    """An activity with its rounds side by side, summarised by its kind (the solution once a round is revealed).

    A round's answers are summarised for everyone to see once it is revealed, or while it runs when the lecturer
    shows the answers live (``live_results``); before that, only how many answered."""
    kind_ = kind(row.kind)
    settings = json.loads(row.settings)
    rounds_ = round_rows(connection, [row.id])[row.id]
    by_round = stored_answers(connection, rounds_)
    states = {r.id: round_state(r, now) for r in rounds_}
    live = bool(row.live_results)
    summaries = kind_.summarise(settings, [RoundAnswers(r.number, states[r.id], by_round[r.id],
                                                        shown=live or states[r.id] == REVEALED) for r in rounds_])
    revealed = any(state == REVEALED for state in states.values())
    return ActivityReport(info=activity_info(row, rounds_, current_id, now), question=kind_.question(settings, None),
                          rounds=tuple(RoundInfo(r.id, r.number, states[r.id], len(by_round[r.id]), r.closes_at)
                                       for r in rounds_),
                          summaries=summaries, solution=kind_.solution(settings, None) if revealed else None)
