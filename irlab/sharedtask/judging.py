"""The class judges its own pool: after the deadline the lecturer opens the pool, each student judges a share.

:func:`open_pool` (the lecturer, after the deadline) pools each student's best run at a depth
(:func:`irlab.runs.pooling.pool_runs` on the kept top documents) and deals the pooled documents out to the
task's students, each document to ``overlap`` of them (:func:`irlab.runs.agreement.assign`, seeded by the
task, so the shares are the same on every replica and need not be stored). A student's share
(:func:`share`) comes in a shuffled order with the topic's text and, when the lecturer gave a documents
file, the document's; a judgment (:func:`judge`) is stored only for a document of the student's own share,
a grade 0-3, one per document (a new one replaces it). :func:`class_judgments` gives the lecturer every
student's judgments: their agreement (Cohen's and Fleiss' kappa) and the merged grades are the pooling
lab's (:mod:`irlab.runs.agreement`). Nothing here reads the hidden qrels.
"""

from __future__ import annotations

import gzip
import json
import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass

from sqlalchemy import Connection, Row, delete, insert, select, update

from irlab.errors import ValidationError
from irlab.runs.agreement import Item, assign
from irlab.runs.pooling import check_depth, pool_runs
from irlab.runs.texts import MAX_TEXT
from irlab.runs.trec import RunTable
from irlab.sharedtask.schema import judgments, participants, pools

GRADES = (0, 1, 2, 3)
MAX_ITEMS = 20_000
"""The most pooled documents a class judges (a share of 100 each for 200 students, twice over)."""
MAX_OVERLAP = 5


@dataclass(frozen=True)
class Share:
    """A student's share of the pool: the documents in the order to judge them, the grades given so far, texts."""

    items: tuple[Item, ...]
    grades: dict[Item, int]
    texts: dict[str, str]
    depth: int
    overlap: int

    @property
    def done(self) -> int:
        return sum(1 for item in self.items if item in self.grades)

    def next_item(self) -> Item | None:
        return next((item for item in self.items if item not in self.grades), None)


def _students(connection: Connection, task_id: int) -> list[Row]:
    return list(connection.execute(select(participants).where(
        (participants.c.task_id == task_id) & ~participants.c.baseline).order_by(participants.c.number)))


def _items(runs: Mapping[str, RunTable], depth: int) -> list[Item]:
    return pool_runs(runs, depth).items() if runs else []


def open_pool(connection: Connection, task: Row, runs: Mapping[str, RunTable], depth: int, overlap: int,
              texts: Mapping[str, str] | None, now: float) -> int:
    """Open (or reopen with new settings) the class's judging of the pool of ``runs``; the pool's size."""
    depth = check_depth(depth)
    students = _students(connection, task.id)
    if not students:
        raise ValidationError("the task has no students to judge the pool")
    if isinstance(overlap, bool) or not isinstance(overlap, int) or not 1 <= overlap <= min(MAX_OVERLAP,
                                                                                             len(students)):
        raise ValidationError(f"each document is judged by 1 to {min(MAX_OVERLAP, len(students))} students")
    items = _items(runs, depth)
    if not items:
        raise ValidationError("no run is scored: there is nothing to pool")
    if len(items) > MAX_ITEMS:
        raise ValidationError(f"the pool at depth {depth} holds {len(items):,} documents, more than the "
                              f"{MAX_ITEMS:,} a class judges; choose a smaller depth")
    pooled = {doc for _, doc in items}
    kept = {doc: text[:MAX_TEXT] for doc, text in (texts or {}).items() if doc in pooled}
    packed = gzip.compress(json.dumps(kept, ensure_ascii=False).encode(), mtime=0) if kept else None
    listed = gzip.compress(json.dumps(items, ensure_ascii=False).encode(), mtime=0)
    values = {"depth": depth, "overlap": overlap, "seed": int(task.id), "items": listed, "texts": packed,
              "opened_at": now}
    if connection.execute(select(pools.c.task_id).where(pools.c.task_id == task.id)).first() is None:
        connection.execute(insert(pools).values(task_id=task.id, **values))
    else:
        connection.execute(update(pools).where(pools.c.task_id == task.id).values(**values))
        connection.execute(delete(judgments).where(judgments.c.task_id == task.id))  # new shares: start afresh
    return len(items)


def pool_settings(connection: Connection, task_id: int) -> Row | None:
    return connection.execute(select(pools).where(pools.c.task_id == task_id)).first()


_DEALT: OrderedDict[tuple, dict[int, list[Item]]] = OrderedDict()
_DEALT_LOCK = threading.Lock()


def _shares(connection: Connection, task: Row, settings: Row) -> dict[int, list[Item]]:
    """Student id -> their share (dealt again from the stored pool, the same on every replica; kept per process)."""
    students = _students(connection, task.id)
    key = (str(connection.engine.url), task.id, settings.opened_at, tuple(s.id for s in students))
    with _DEALT_LOCK:
        if key in _DEALT:
            return _DEALT[key]
    items = [tuple(pair) for pair in json.loads(gzip.decompress(settings.items))]
    dealt = assign(items, [str(s.id) for s in students], overlap=min(settings.overlap, len(students)),
                   seed=settings.seed)
    found = {int(who): share for who, share in dealt.items()}
    with _DEALT_LOCK:
        _DEALT[key] = found
        while len(_DEALT) > 8:
            _DEALT.popitem(last=False)
    return found


def share(connection: Connection, task: Row, me: Row) -> Share | None:
    """The student's share, or None when the pool is not open."""
    settings = pool_settings(connection, task.id)
    if settings is None:
        return None
    items = tuple(_shares(connection, task, settings).get(me.id, []))
    grades = {(row.topic, row.doc): row.grade for row in connection.execute(
        select(judgments).where(judgments.c.participant_id == me.id))}
    texts = json.loads(gzip.decompress(settings.texts)) if settings.texts else {}
    return Share(items, grades, {doc: texts[doc] for _, doc in items if doc in texts}, settings.depth,
                 settings.overlap)


def judge(connection: Connection, task: Row, me: Row, item: object, grade: object, now: float) -> None:
    """Store the student's grade for a document of their own share (anything else is refused)."""
    if isinstance(grade, bool) or grade not in GRADES:
        raise ValidationError(f"a grade is one of {', '.join(map(str, GRADES))}")
    mine = share(connection, task, me)
    if mine is None:
        raise ValidationError("The lecturer has not opened the pool for judging.")
    if isinstance(item, list):
        item = tuple(item)
    if not isinstance(item, tuple) or item not in set(mine.items):
        raise ValidationError("This document is not in your share of the pool.")
    topic, doc = item
    found = connection.execute(select(judgments.c.id).where(
        (judgments.c.participant_id == me.id) & (judgments.c.topic == topic) & (judgments.c.doc == doc))).first()
    if found is None:
        connection.execute(insert(judgments).values(task_id=task.id, participant_id=me.id, topic=topic, doc=doc,
                                                    grade=int(grade), judged_at=now))
    else:
        connection.execute(update(judgments).where(judgments.c.id == found.id).values(grade=int(grade),
                                                                                      judged_at=now))


def class_judgments(connection: Connection, task_id: int) -> dict[str, dict[Item, int]]:
    """Every student's judgments, by the name the lecturer sees (roster name, nickname or "Student n")."""
    names = {s.id: s.label or s.nickname or f"Student {s.number}" for s in _students(connection, task_id)}
    found: dict[str, dict[Item, int]] = {}
    for row in connection.execute(select(judgments).where(judgments.c.task_id == task_id)):
        found.setdefault(names.get(row.participant_id, str(row.participant_id)), {})[(row.topic, row.doc)] = row.grade
    return found
