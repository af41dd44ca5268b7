"""Who follows a class live: each replica says how many of a class's students have its page open and listening.

A student's page follows the class through one replica's event stream (the pages' push,
:mod:`irlab.classroom.watch`). Each replica counts the students it streams to, per class, and writes
the counts into the store (:func:`publish`: one row per replica and class, rewritten every few seconds
while it has any); the lecturer's desk adds up the rows that are fresh (:func:`following`), so it can
say "3 students not following" (a phone that lost its connection, or went to sleep) whichever replica
each student is on. A replica that dies stops refreshing its rows, which then count for nothing after
:data:`FRESH_SECONDS`.

A student with two tabs open counts once per replica; the sum is capped at the students who joined.
"""

from __future__ import annotations

from collections.abc import Mapping

from sqlalchemy import Connection, Engine, delete, func, insert, select

from irlab.classroom.database import writing
from irlab.classroom.schema import classes, presence, students

FRESH_SECONDS = 30.0
"""A replica's count older than this is not counted (the replica stopped saying it: it died or has no one)."""


def publish(engine: Engine, replica: str, counts: Mapping[int, int], now: float) -> None:
    """Replace this replica's counts (class id -> students following through it) with ``counts``."""
    with writing(engine) as connection:
        connection.execute(delete(presence).where(presence.c.replica == replica))
        kept = {class_id: max(0, int(count)) for class_id, count in counts.items()}  # 0 counts: nobody follows
        if kept:
            live = set(connection.execute(select(classes.c.id).where(classes.c.id.in_(list(kept)))).scalars())
            rows = [{"replica": replica, "class_id": class_id, "students": count, "updated_at": now}
                    for class_id, count in kept.items() if class_id in live]  # a class deleted meanwhile has none
            if rows:
                connection.execute(insert(presence), rows)


def following(connection: Connection, class_id: int, now: float) -> int | None:
    """Students of the class following it live, summed over the replicas that said so recently; None when no replica
    has (the app runs without push, e.g. under a test harness, or nobody has opened the class's page yet)."""
    total, reports = connection.execute(select(func.sum(presence.c.students), func.count()).where(
        (presence.c.class_id == class_id) & (presence.c.updated_at > now - FRESH_SECONDS))).one()
    if not reports:
        return None
    joined = connection.execute(select(func.count()).where(students.c.class_id == class_id)).scalar_one()
    return min(int(total or 0), joined)


def following_many(connection: Connection, class_ids: list[int], now: float) -> dict[int, int]:
    """Class id -> students following it live (not capped), for the classes some replica reported recently."""
    if not class_ids:
        return {}
    return {class_id: int(total or 0) for class_id, total in connection.execute(
        select(presence.c.class_id, func.sum(presence.c.students))
        .where(presence.c.class_id.in_(class_ids) & (presence.c.updated_at > now - FRESH_SECONDS))
        .group_by(presence.c.class_id))}
