"""A class's pulse: what the pages that follow it live must know at once, read for many classes in four queries.

Each replica has one watcher (:mod:`irlab.classroom.watch`); when the store changed it reads the pulse of
every class its pages follow and pushes each page what changed. A student's page needs the student
version (redraw when it changed) and the current round's timer; the projector also needs the counts (it
draws them from the pulse itself, without a run of the page) and how many students follow.

>>> Pulse("ABCDEF", 1, 3, 9, 12, None, False, 30, None).projector_message()["students"]
12
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, func, select

from irlab.classroom import presence, rows
from irlab.classroom.schema import answers, classes, rounds, students


@dataclass(frozen=True)
class RoundPulse:
    """The current activity's latest round: its id, number, state now (a run-out timer closes it), when its timer
    ends (None: no timer), and how many answered; ``earlier``: the answer counts of the activity's earlier rounds."""

    id: int
    number: int
    state: str
    closes_at: float | None
    answers: int
    earlier: tuple[int, ...] = ()


@dataclass(frozen=True)
class Pulse:
    """One class's pulse (see the module's text)."""

    code: str
    class_id: int
    student: int
    """The student version: what a student's page shows changed."""
    projector: int
    """The projector version: anything else the projector shows changed."""
    students: int
    following: int | None
    joining_locked: bool
    timer_seconds: int | None
    round: RoundPulse | None

    def student_message(self) -> dict[str, Any]:
        """What a student's page is sent: the version and the round's timer (nothing about classmates)."""
        current = self.round
        return {"student": self.student,
                "round": None if current is None else {"id": current.id, "state": current.state,
                                                       "closes_at": current.closes_at}}

    def projector_message(self) -> dict[str, Any]:
        """What the projector's page is sent: both versions, the counts, the timer, who follows."""
        current = self.round
        return {"student": self.student, "projector": self.projector, "students": self.students,
                "following": self.following, "locked": self.joining_locked, "timer": self.timer_seconds,
                "round": None if current is None else {
                    "id": current.id, "number": current.number, "state": current.state,
                    "closes_at": current.closes_at, "answers": current.answers, "earlier": list(current.earlier)}}


def read_pulses(connection: Connection, codes: Sequence[str], live_after: float, now: float) -> dict[str, Pulse]:
    """The pulse of each live class among ``codes`` (code -> pulse); four queries whatever the number of classes."""
    if not codes:
        return {}
    found = list(connection.execute(select(
        classes.c.id, classes.c.code, classes.c.student_version, classes.c.projector_version,
        classes.c.joining_locked, classes.c.timer_seconds, classes.c.current_activity_id)
        .where(classes.c.code.in_(list(codes)) & (classes.c.last_activity_at > live_after))))
    if not found:
        return {}
    ids = [row.id for row in found]
    joined = dict(connection.execute(select(students.c.class_id, func.count()).where(students.c.class_id.in_(ids))
                                     .group_by(students.c.class_id)).all())
    current = [row.current_activity_id for row in found if row.current_activity_id is not None]
    by_activity: dict[int, list] = {}
    if current:
        counted = (select(rounds.c.id, rounds.c.activity_id, rounds.c.number, rounds.c.state, rounds.c.closes_at,
                          func.count(answers.c.id).label("answers"))
                   .outerjoin(answers, answers.c.round_id == rounds.c.id)
                   .where(rounds.c.activity_id.in_(current))
                   .group_by(rounds.c.id, rounds.c.activity_id, rounds.c.number, rounds.c.state, rounds.c.closes_at)
                   .order_by(rounds.c.activity_id, rounds.c.number))
        for row in connection.execute(counted):
            by_activity.setdefault(row.activity_id, []).append(row)
    following = presence.following_many(connection, ids, now)
    pulses = {}
    for row in found:
        listed = by_activity.get(row.current_activity_id, [])
        latest = listed[-1] if listed else None
        round_ = None if latest is None else RoundPulse(
            latest.id, latest.number, rows.round_state(latest, now), latest.closes_at, latest.answers,
            tuple(r.answers for r in listed[:-1]))
        count = joined.get(row.id, 0)
        follows = following.get(row.id)
        pulses[row.code] = Pulse(row.code, row.id, row.student_version, row.projector_version, count,
                                 None if follows is None else min(follows, count), bool(row.joining_locked),
                                 row.timer_seconds, round_)
    return pulses
