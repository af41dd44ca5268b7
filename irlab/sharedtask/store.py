"""The task store: creating a shared task, the lecturer's desk, and a student's seat in it.

A :class:`TaskStore` is a handle on the class store's database (``IRLAB_CLASS_DB``; SQLite or PostgreSQL),
holding no task state, so any replica serves any request. Entry points, by role:

* anyone: :meth:`~TaskStore.create` (rate-limited per session and address, like starting a class):
  the task's code, its lecturer key (shown once) and, for a roster task, one token per student;
  :meth:`~TaskStore.version` (the cheap poll);
* the lecturer: :meth:`~TaskStore.desk` with the code and key gives a :class:`TaskDesk`;
* a student: :meth:`~TaskStore.seat` with the code and their token gives a :class:`TaskSeat`; on a class
  task, :meth:`~TaskStore.enrol` takes a seat of the class (its code and the student's class token, checked
  by the class store, :meth:`irlab.classroom.ClassStore.student`) and makes it a seat in the task.

Every call checks the key or token again (hashes compared in constant time), on the server's clock. A
seat sees only its own submissions and the leaderboard, through :mod:`irlab.sharedtask.disclosure`;
it has no way to another student's runs or to the lecturer's actions.

**Submitting** (:meth:`TaskSeat.submit`): the file is unpacked (at most the task's ``max_run_mb``),
a run sent before (same text) is refused without counting, then a slot is held in a write transaction
that counts the student's submissions (so two uploads at once cannot both take the last slot), the run
is scored outside the transaction (:mod:`irlab.sharedtask.scoring`), and the scores are stored; a run
that cannot be scored frees its slot and counts against a limit of failed tries
(:data:`FAILED`), so a script cannot keep the server scoring. The deadline is the server's.

>>> import tempfile, pathlib, time
>>> store = TaskStore(f"sqlite:///{pathlib.Path(tempfile.mkdtemp()) / 'tasks.sqlite'}")
>>> new = store.create({"title": "Mini TREC", "measures": ["AP"], "deadline": time.time() + 3600,
...                     "roster": ["ann", "bob"]}, b"1 0 d1 1\\n1 0 d2 0\\n", "qrels.txt")
>>> seat = store.seat(new.code, new.tokens["ann"])
>>> seat.submit(b"1 Q0 d1 1 2.0 mine\\n1 Q0 d2 2 1.0 mine\\n", "run.txt").means
{'AP': 1.0}
>>> store.desk(new.code, new.key).view().board[0].means
{'AP': 1.0}
"""

from __future__ import annotations

import gzip
import json
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import asdict

import numpy as np
from sqlalchemy import Connection, Engine, Row, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from irlab.classroom import ClassStore, ratelimit
from irlab.classroom.database import engine_for, reading, writing
from irlab.classroom.nicknames import clean_nickname
from irlab.classroom.ratelimit import Limit
from irlab.classroom.refusals import AccessDenied, ClassNotFound, RateLimited
from irlab.classroom.settings import check_url, database_url
from irlab.classroom.tokens import (
    digest,
    key_matches,
    looks_like_code,
    looks_like_secret,
    new_code,
    new_lecturer_key,
    new_student_token,
    normalise_code,
)
from irlab.errors import ValidationError
from irlab.metrics.measure_names import parse_measure
from irlab.runs.doctor import Finding
from irlab.runs.significance import bootstrap_interval, paired_p
from irlab.runs.trec import MB, QrelsTable, RunTable, parse_qrels, unpack
from irlab.sharedtask import judging
from irlab.sharedtask.definition import MAX_PARTICIPANTS, MAX_QRELS_BYTES, TaskDefinition, check_definition
from irlab.sharedtask.disclosure import Disclosure, check_releases
from irlab.sharedtask.judging import Share
from irlab.sharedtask.leaderboard import Leaderboard, leaderboard
from irlab.sharedtask.records import BoardEntry, NewTask, Submission, TaskView
from irlab.sharedtask.schema import ensure_task_schema, participants, submissions, tasks
from irlab.sharedtask.scoring import pooled_run, run_digest, score_submission

START = Limit("tstart", 20, 3600.0)
"""20 tasks created per hour, per session and per address."""
FAILED = Limit("tfail", 30, 600.0)
"""30 runs that could not be scored per 10 minutes, per student."""
STALE_SECONDS = 600.0
"""A slot held longer than this by a run being scored is taken to be lost (its replica died) and freed."""
BASELINE = "baseline"
CODE_TRIES = 20
SCORING, SCORED = "scoring", "scored"


class TaskStore:
    """The shared tasks in the store at ``url`` (default ``IRLAB_CLASS_DB``); see the module."""

    def __init__(self, url: str | None = None, *, clock: Callable[[], float] = time.time,
                 environ: Mapping[str, str] = os.environ) -> None:
        checked = database_url(environ) if url is None else check_url(url)
        self.classes = ClassStore(checked, clock=clock, environ=environ)  # the class tables, rate limits, seats
        self.engine: Engine = engine_for(checked)
        ensure_task_schema(self.engine)
        self.clock = clock

    # --- anyone ---------------------------------------------------------------------------------------------------

    def create(self, settings: Mapping, qrels: bytes, qrels_name: str = "qrels", *, baseline: bytes | None = None,
               baseline_name: str = "baseline", class_key: str | None = None, session: str | None = None,
               address: str | None = None) -> NewTask:
        """A new task (see the module); ValidationError says what is wrong, RateLimited when too many were made."""
        now = self.clock()
        definition = check_definition(settings, now=now)
        raw = unpack(bytes(qrels), qrels_name, limit=MAX_QRELS_BYTES)
        table = parse_qrels(raw, qrels_name)
        if not len(table.query_ids):
            raise ValidationError("the qrels judge no topic", path=qrels_name)
        if definition.enrolment == "class":
            self.classes.lecturer(normalise_code(definition.class_code), class_key)  # only the class's lecturer
            definition = TaskDefinition(**{**asdict(definition), "class_code": normalise_code(definition.class_code)})
        self.purge_expired()
        hashed = ratelimit.subjects(START, session, address)
        key = new_lecturer_key()
        tokens = {name: new_student_token() for name in definition.roster}
        stored = json.dumps(definition.to_json() | {"topics": list(table.query_ids)}, ensure_ascii=False)
        packed = gzip.compress(raw, mtime=0)
        keep_until = definition.deadline + definition.keep_days * 86_400
        for _ in range(CODE_TRIES):
            code = new_code()
            try:
                with writing(self.engine) as connection:
                    if (wait := ratelimit.seconds_blocked(connection, START, hashed, now)) > 0:
                        raise RateLimited(f"You have created many tasks; try again in {ratelimit.wait_text(wait)}.",
                                          wait)
                    task_id = connection.execute(insert(tasks).values(
                        code=code, key_hash=digest(key), settings=stored, qrels=packed, deadline=definition.deadline,
                        released="[]", version=1, created_at=now, keep_until=keep_until).returning(tasks.c.id)
                    ).scalar_one()
                    if tokens:
                        connection.execute(insert(participants), [
                            {"task_id": task_id, "number": n, "token_hash": digest(token), "label": name,
                             "nickname": None, "baseline": False, "joined_at": now}
                            for n, (name, token) in enumerate(tokens.items(), start=1)])
                    ratelimit.record(connection, START, hashed, now)
            except IntegrityError:
                continue
            new = NewTask(code, key, tokens)
            if baseline is not None:
                self.desk(code, key).submit_baseline(baseline, baseline_name)
            return new
        raise ValidationError("no free task code was found; try again")

    def version(self, code: object) -> int | None:
        """The task's version (it changes with every submission and lecturer action), None when there is none."""
        if not looks_like_code(code):
            return None
        with reading(self.engine) as connection:
            return connection.execute(select(tasks.c.version).where(
                (tasks.c.code == code) & (tasks.c.keep_until > self.clock()))).scalar()

    def purge_expired(self) -> int:
        """Delete the tasks past their keeping time (everything in them too); how many."""
        with writing(self.engine) as connection:
            return connection.execute(delete(tasks).where(tasks.c.keep_until <= self.clock())).rowcount

    # --- roles ----------------------------------------------------------------------------------------------------

    def desk(self, code: object, key: object) -> TaskDesk:
        """The lecturer's desk; TaskNotFound or AccessDenied."""
        if not looks_like_code(code):
            raise TaskNotFound("This link has no valid task code.")
        if not looks_like_secret(key):
            raise AccessDenied("This lecturer link has no valid key; open the task with the link it showed when "
                               "it was created.")
        desk = TaskDesk(self, code, key)
        desk.view(check_only=True)
        return desk

    def seat(self, code: object, token: object) -> TaskSeat:
        """A student's seat from their link's code and token; TaskNotFound or AccessDenied (the same words
        whether the code or the token is wrong, so a link tells nothing about other tasks)."""
        if not looks_like_code(code) or not looks_like_secret(token):
            raise AccessDenied(NOT_YOURS)
        seat = TaskSeat(self, code, token)
        seat.view(check_only=True)
        return seat

    def enrol(self, code: object, class_code: object, class_token: object, nickname: object = None) -> TaskSeat:
        """Make a class seat a seat in the class task ``code`` (again: the same seat); its token stays the class's."""
        if not looks_like_code(code):
            raise AccessDenied(NOT_YOURS)
        self.classes.student(class_code, class_token)  # ClassNotFound / AccessDenied from the class itself
        now = self.clock()
        with writing(self.engine) as connection:
            task = _live_task(connection, code, now, lock=True)
            definition = _definition(task)
            if definition.enrolment != "class" or definition.class_code != class_code:
                raise AccessDenied("This task is not for your class.")
            hashed = digest(str(class_token))
            found = connection.execute(select(participants.c.id).where(
                (participants.c.task_id == task.id) & (participants.c.token_hash == hashed))).first()
            if found is None:
                count, last = connection.execute(select(func.count(), func.max(participants.c.number)).where(
                    participants.c.task_id == task.id)).one()
                if count >= MAX_PARTICIPANTS:
                    raise ValidationError(f"This task is full ({MAX_PARTICIPANTS} students).")
                connection.execute(insert(participants).values(
                    task_id=task.id, number=(last or 0) + 1, token_hash=hashed, label=None,
                    nickname=clean_nickname(nickname), baseline=False, joined_at=now))
                _touch(connection, task.id)
        return TaskSeat(self, code, str(class_token))


NOT_YOURS = "This task link is not valid (a wrong or damaged link, or a task that has ended); ask your lecturer."


class TaskNotFound(ClassNotFound):
    """No task has this code (never created, or past its keeping time)."""


# --- the student ------------------------------------------------------------------------------------------------

class TaskSeat:
    """One student in one task (see the module). Holds the token; checks it on every call."""

    def __init__(self, store: TaskStore, code: str, token: str) -> None:
        self._store, self.code, self.token = store, code, token

    def __repr__(self) -> str:
        return f"TaskSeat(code={self.code!r})"

    def _me(self, connection: Connection, now: float, *, lock: bool = False) -> tuple[Row, Row]:
        task = connection.execute(_task_query(self.code, now, lock)).first()
        me = None if task is None else connection.execute(select(participants).where(
            (participants.c.task_id == task.id) & (participants.c.token_hash == digest(self.token)))).first()
        if me is None or me.baseline:
            raise AccessDenied(NOT_YOURS)
        return task, me

    def view(self, *, check_only: bool = False) -> TaskView | None:
        """What the student sees now (their submissions, the leaderboard, what is released)."""
        now = self._store.clock()
        with reading(self._store.engine) as connection:
            task, me = self._me(connection, now)
            if check_only:
                return None
            return _view(self._store, connection, task, now, me=me)

    def rename(self, nickname: object) -> str | None:
        """The name the leaderboard shows for this student (None: "Student n")."""
        name = clean_nickname(nickname)
        now = self._store.clock()
        with writing(self._store.engine) as connection:
            task, me = self._me(connection, now, lock=True)
            connection.execute(update(participants).where(participants.c.id == me.id).values(nickname=name))
            _touch(connection, task.id)
        return name

    def submit(self, data: bytes, name: str) -> Submission:
        """Submit a run (see the module); its scores as the student may see them."""
        return _submit(self._store, self.code, data, name, lambda c, now: self._me(c, now, lock=True))

    def pool_share(self) -> Share | None:
        """This student's share of the class's pool (None until the lecturer opens it, after the deadline)."""
        now = self._store.clock()
        with reading(self._store.engine) as connection:
            task, me = self._me(connection, now)
            return judging.share(connection, task, me)

    def judge(self, item: object, grade: object) -> None:
        """Grade a document of this student's share of the pool (0-3; a new grade replaces the old)."""
        now = self._store.clock()
        with writing(self._store.engine) as connection:
            task, me = self._me(connection, now, lock=True)
            judging.judge(connection, task, me, item, grade, now)

    def qrels(self) -> bytes:
        """The qrels file, once the lecturer has released it after the deadline."""
        now = self._store.clock()
        with reading(self._store.engine) as connection:
            task, _ = self._me(connection, now)
            if not _disclosure(task, now).qrels:
                raise AccessDenied("The qrels are not released.")
            return gzip.decompress(task.qrels)


def _submit(store: TaskStore, code: str, data: bytes, name: str, me: Callable) -> Submission:
    now = store.clock()
    with reading(store.engine) as connection:
        task, who = me(connection, now)
    definition = _definition(task)
    if now >= task.deadline and not who.baseline:
        raise ValidationError("The deadline has passed: no more submissions.")
    label = _clean_name(name)
    limit = definition.max_run_mb * MB
    raw = unpack(bytes(data), label, limit=limit)
    del data
    stamp = run_digest(raw)
    hashed = ratelimit.subjects(FAILED, who.token_hash, None)
    with writing(store.engine) as connection:
        task, who = me(connection, now)
        if (wait := ratelimit.seconds_blocked(connection, FAILED, hashed, now)) > 0:
            raise RateLimited(f"Too many runs that could not be scored; try again in {ratelimit.wait_text(wait)}.",
                              wait)
        connection.execute(delete(submissions).where((submissions.c.participant_id == who.id)
                                                     & (submissions.c.state == SCORING)
                                                     & (submissions.c.submitted_at < now - STALE_SECONDS)))
        earlier = connection.execute(select(submissions.c.number, submissions.c.digest, submissions.c.state).where(
            submissions.c.participant_id == who.id)).all()
        same = next((row.number for row in earlier if row.digest == stamp), None)
        if same is not None:
            raise ValidationError(f"This run is the same as your submission {same}; it is not scored again and "
                                  "does not count.")
        if not who.baseline and len(earlier) >= definition.max_submissions:
            raise ValidationError(f"You have used all {definition.max_submissions} submissions of this task.")
        number = max((row.number for row in earlier), default=0) + 1
        slot = connection.execute(insert(submissions).values(
            task_id=task.id, participant_id=who.id, number=number, state=SCORING, name=label, digest=stamp,
            submitted_at=now).returning(submissions.c.id)).scalar_one()
    qrels = _hidden_qrels(task)
    measures = {m: parse_measure(m) for m in definition.measures}
    try:
        scored = score_submission(raw, label, qrels, measures, limit=limit, digest=stamp)
    except BaseException as error:
        with writing(store.engine) as connection:
            connection.execute(delete(submissions).where(submissions.c.id == slot))
            if isinstance(error, ValidationError):
                ratelimit.record(connection, FAILED, hashed, now)
        raise
    values = np.vstack([scored.per_topic[m] for m in definition.measures])
    # every measure's interval, not only the shown ones: the lecturer sees them all, and computed later they cost
    # a class's first leaderboard a bootstrap per run and measure (30 ms each: 200 students' 600 runs, a minute)
    stats = {"interval": {m: list(bootstrap_interval(scored.per_topic[m])) for m in definition.measures}, "p": {}}
    with writing(store.engine) as connection:
        connection.execute(update(submissions).where(submissions.c.id == slot).values(
            stats=json.dumps(stats),  # the receipt's intervals: computed once, kept with the run
            state=SCORED, runid=scored.runid[:80], lines=scored.lines, means=json.dumps(scored.means),
            per_topic=values.astype("<f8").tobytes(), findings=json.dumps([asdict(f) for f in scored.findings]),
            pool=scored.pool, pool_depth=scored.pool_depth))
        _touch(connection, task.id)
    with reading(store.engine) as connection:
        task, who = me(connection, now)
        row = connection.execute(select(submissions).where(submissions.c.id == slot)).one()
        return _submission(row, task, _disclosure(task, store.clock()), lecturer=bool(who.baseline),
                           url=str(store.engine.url))


# --- the lecturer -----------------------------------------------------------------------------------------------

class TaskDesk:
    """The lecturer's actions on one task; every call checks the key."""

    def __init__(self, store: TaskStore, code: str, key: str) -> None:
        self._store, self.code, self._key = store, code, key

    def __repr__(self) -> str:
        return f"TaskDesk(code={self.code!r})"

    def _task(self, connection: Connection, now: float, *, lock: bool = False) -> Row:
        task = connection.execute(_task_query(self.code, now, lock)).first()
        if task is None:
            raise TaskNotFound(f"The task {self.code} does not exist any more.")
        if not key_matches(self._key, task.key_hash):
            raise AccessDenied("This lecturer link's key does not belong to the task.")
        return task

    @contextmanager
    def _write(self) -> Iterator[tuple[Connection, Row, float]]:
        now = self._store.clock()
        with writing(self._store.engine) as connection:
            yield connection, self._task(connection, now, lock=True), now

    def view(self, *, check_only: bool = False) -> TaskView | None:
        """Everything about the task (every measure, every participant, p-values)."""
        now = self._store.clock()
        with reading(self._store.engine) as connection:
            task = self._task(connection, now)
            return None if check_only else _view(self._store, connection, task, now, me=None)

    def release(self, names) -> frozenset[str]:
        """Release what ``names`` say (:data:`irlab.sharedtask.disclosure.RELEASES`), after the deadline only."""
        wanted = check_releases(names)
        with self._write() as (connection, task, now):
            if now < task.deadline:
                raise ValidationError("Nothing can be released before the deadline.")
            released = frozenset(json.loads(task.released)) | wanted
            connection.execute(update(tasks).where(tasks.c.id == task.id).values(
                released=json.dumps(sorted(released))))
            _touch(connection, task.id)
        return released

    def set_deadline(self, when: float) -> None:
        """Move the deadline (extend it, or end the task now); released items are withdrawn if it moves later."""
        with self._write() as (connection, task, now):
            definition = _definition(task)
            check_definition(definition.to_json() | {"deadline": max(when, now + 1)}, now=now)
            values = {"deadline": float(when), "keep_until": float(when) + definition.keep_days * 86_400}
            if when > now:
                values["released"] = "[]"
            connection.execute(update(tasks).where(tasks.c.id == task.id).values(**values))
            _touch(connection, task.id)

    def submit_baseline(self, data: bytes, name: str = BASELINE) -> Submission:
        """Submit (or replace) the baseline run every student is compared with; it shows on the leaderboard."""
        with self._write() as (connection, task, now):
            found = connection.execute(select(participants.c.id).where(
                (participants.c.task_id == task.id) & participants.c.baseline)).first()
            if found is None:
                last = connection.execute(select(func.max(participants.c.number)).where(
                    participants.c.task_id == task.id)).scalar()
                connection.execute(insert(participants).values(
                    task_id=task.id, number=(last or 0) + 1, token_hash=digest(new_student_token()), label=BASELINE,
                    nickname=BASELINE, baseline=True, joined_at=now))
            else:
                connection.execute(delete(submissions).where(submissions.c.participant_id == found.id))

        def baseline_of(connection: Connection, at: float) -> tuple[Row, Row]:
            task = self._task(connection, at)
            return task, connection.execute(select(participants).where(
                (participants.c.task_id == task.id) & participants.c.baseline)).one()

        return _submit(self._store, self.code, data, name, baseline_of)

    def qrels(self) -> bytes:
        with reading(self._store.engine) as connection:
            return gzip.decompress(self._task(connection, self._store.clock()).qrels)

    def open_pool(self, depth: int, overlap: int = 2, texts: Mapping[str, str] | None = None) -> int:
        """Let the class judge the pool of the best runs at ``depth`` (after the deadline); the pool's size.

        Opening it again with other settings deals new shares and forgets the judgments made so far.
        """
        runs = self.pooled_runs()
        with self._write() as (connection, task, now):
            if now < task.deadline:
                raise ValidationError("The class judges the pool after the deadline, when no run can change it.")
            size = judging.open_pool(connection, task, runs, depth, overlap, texts, now)
            _touch(connection, task.id)
        return size

    def pool_settings(self) -> tuple[int, int] | None:
        """(depth, judges per document) of the open pool, or None."""
        with reading(self._store.engine) as connection:
            found = judging.pool_settings(connection, self._task(connection, self._store.clock()).id)
        return None if found is None else (found.depth, found.overlap)

    def class_judgments(self) -> dict[str, dict[tuple[str, str], int]]:
        """Every student's judgments of the pool, by the names the lecturer sees."""
        with reading(self._store.engine) as connection:
            return judging.class_judgments(connection, self._task(connection, self._store.clock()).id)

    def tokens(self) -> dict[str, str]:
        """Roster tasks: nothing (tokens are shown once, at creation, and kept only as hashes)."""
        return {}

    def pooled_runs(self, *, best_only: bool = True) -> dict[str, RunTable]:
        """The kept top documents of each student's best run (or every run), as runs: the pooling lab's input."""
        view = self.view()
        with reading(self._store.engine) as connection:
            task = self._task(connection, self._store.clock())
            found = {}
            rows = connection.execute(select(submissions, participants.c.number.label("who"), participants.c.nickname,
                                             participants.c.baseline)
                                      .join(participants, participants.c.id == submissions.c.participant_id)
                                      .where((submissions.c.task_id == task.id) & (submissions.c.state == SCORED))
                                      .order_by(participants.c.number, submissions.c.number)).all()
        best = {(entry.name, entry.run) for entry in view.board}
        for row in rows:
            shown = _shown_name(row.nickname, row.who)
            if best_only and (shown, f"{row.name} (#{row.number})") not in best:
                continue
            found[f"{shown} #{row.number}"] = pooled_run(f"{shown}-{row.number}", row.pool)
        return found

    def export_csv(self) -> str:
        """Every scored submission with every measure's mean (the roster's names: the lecturer's file)."""
        import csv
        import io

        view = self.view()
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(["number", "roster name", "shown as", "submission", "file", "runid", "submitted (UTC)",
                         *view.measures])
        names = {number: (shown, label) for number, shown, label, _ in view.participants}
        for sub in view.submissions:
            if sub.state != SCORED:
                continue
            shown, label = names[sub.participant]
            writer.writerow([sub.participant, _safe(label or ""), _safe(shown), sub.number, _safe(sub.name),
                             _safe(sub.runid), time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(sub.submitted_at)),
                             *[f"{sub.means[m]:.4f}" for m in view.measures]])
        return out.getvalue()


def _safe(text: str) -> str:
    """A CSV cell a spreadsheet will not run as a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


# --- shared ------------------------------------------------------------------------------------------------------

def _task_query(code: str, now: float, lock: bool):
    query = select(tasks).where((tasks.c.code == code) & (tasks.c.keep_until > now))
    return query.with_for_update() if lock else query


def _live_task(connection: Connection, code: str, now: float, *, lock: bool = False) -> Row:
    task = connection.execute(_task_query(code, now, lock)).first()
    if task is None:
        raise AccessDenied(NOT_YOURS)
    return task


def _touch(connection: Connection, task_id: int) -> None:
    connection.execute(update(tasks).where(tasks.c.id == task_id).values(version=tasks.c.version + 1))


def _definition(task: Row) -> TaskDefinition:
    data = json.loads(task.settings)
    data.pop("topics", None)
    return TaskDefinition.from_json(data)


def _topics(task: Row) -> tuple[str, ...]:
    return tuple(json.loads(task.settings)["topics"])


def _disclosure(task: Row, now: float) -> Disclosure:
    return Disclosure(_definition(task), now >= task.deadline, frozenset(json.loads(task.released)))


_QRELS: OrderedDict[tuple[int, int], QrelsTable] = OrderedDict()
_BOARDS: OrderedDict[tuple[str, int, int], tuple[Leaderboard, dict]] = OrderedDict()
_BUILDING: dict[tuple[str, int, int], threading.Lock] = {}
_CACHE_LOCK = threading.Lock()
CACHED = 8
"""Tasks whose qrels and leaderboard a process keeps parsed (derived from the store, keyed by its version)."""


def _hidden_qrels(task: Row) -> QrelsTable:
    key = (task.id, hash(task.qrels))
    with _CACHE_LOCK:
        if key in _QRELS:
            return _QRELS[key]
    table = parse_qrels(gzip.decompress(task.qrels), "qrels")
    with _CACHE_LOCK:
        _QRELS[key] = table
        while len(_QRELS) > CACHED:
            _QRELS.popitem(last=False)
    return table


def _shown_name(nickname: str | None, number: int) -> str:
    """The name the leaderboard shows: the nickname, else "Student n"."""
    return nickname or f"Student {number}"


def _clean_name(name: object) -> str:
    text = clean_nickname(str(name)[:200]) or "run"
    return text[:60]


def _board(store: TaskStore, connection: Connection, task: Row) -> tuple[Leaderboard, dict]:
    """The leaderboard over every measure, and entry -> (participant row, best submission row); cached per version."""
    key = (str(store.engine.url), task.id, task.version)
    with _CACHE_LOCK:
        if key in _BOARDS:
            return _BOARDS[key]
        building = _BUILDING.setdefault(key, threading.Lock())
    with building:  # one request computes a version's board; the others wait for it, then read it
        with _CACHE_LOCK:
            if key in _BOARDS:
                return _BOARDS[key]
        found = _build_board(store, connection, task)
        with _CACHE_LOCK:
            _BOARDS[key] = found
            while len(_BOARDS) > CACHED:
                _BOARDS.popitem(last=False)
            _BUILDING.pop(key, None)
        return found


def _build_board(store: TaskStore, connection: Connection, task: Row) -> tuple[Leaderboard, dict]:
    definition = _definition(task)
    topics = _topics(task)
    rows = connection.execute(select(submissions, participants.c.number.label("who"), participants.c.nickname,
                                     participants.c.baseline, participants.c.label)
                              .join(participants, participants.c.id == submissions.c.participant_id)
                              .where((submissions.c.task_id == task.id) & (submissions.c.state == SCORED))
                              .order_by(submissions.c.participant_id, submissions.c.number)).all()
    best: dict[str, Row] = {}
    primary = definition.primary
    for row in rows:
        entry = f"#{row.who}"
        if entry not in best or json.loads(row.means)[primary] > json.loads(best[entry].means)[primary]:
            best[entry] = row
    values = {entry: dict(zip(definition.measures, _per_topic(row, len(definition.measures), len(topics))))
              for entry, row in best.items()}
    baseline = next((entry for entry, row in best.items() if row.baseline), None)
    # a run's per-topic values never change, so its intervals and tests are computed once and kept in its row
    stats = {entry: json.loads(row.stats) if row.stats else {"interval": {}, "p": {}} for entry, row in best.items()}
    changed: set[str] = set()
    against = f"{best[baseline].id}/{best[baseline].digest[:16]}/{definition.test}" if baseline else ""

    def interval(entry: str, measure: str) -> tuple[float, float]:
        kept = stats[entry]["interval"]
        if measure not in kept:
            kept[measure] = list(bootstrap_interval(values[entry][measure]))
            changed.add(entry)
        return tuple(kept[measure])

    def p_value(entry: str, measure: str) -> float:
        kept = stats[entry]["p"].setdefault(against, {})
        if measure not in kept:
            kept[measure] = paired_p(values[entry][measure] - values[baseline][measure], definition.test)
            changed.add(entry)
        return float(kept[measure])

    board = leaderboard(values, topics, definition.measures, baseline=baseline, test=definition.test,
                        interval=interval, p_value=p_value)
    if changed:
        with writing(store.engine) as writer:
            for entry in changed:
                stats[entry]["p"] = {against: stats[entry]["p"].get(against, {})} if against else {}
                writer.execute(update(submissions).where(submissions.c.id == best[entry].id).values(
                    stats=json.dumps(stats[entry])))
    return board, best


_FIXED: OrderedDict[tuple, object] = OrderedDict()
FIXED = 20_000
"""Intervals and p-values of runs remembered by a process (a run's per-topic values never change)."""


def _run_key(url: str, task: Row, submission: Row, what: str, measure: str) -> tuple:
    """What a remembered value of a scored run is filed under: the store, the task (and when it was made, since a
    purged task's ids may be used again), the submission and its run's digest."""
    return (url, task.id, task.created_at, submission.id, submission.digest, what, measure)


def _remembered(key: tuple, compute: Callable[[], object]):
    with _CACHE_LOCK:
        if key in _FIXED:
            _FIXED.move_to_end(key)
            return _FIXED[key]
    value = compute()
    with _CACHE_LOCK:
        _FIXED[key] = value
        while len(_FIXED) > FIXED:
            _FIXED.popitem(last=False)
    return value


def _per_topic(row: Row, measures: int, topics: int) -> np.ndarray:
    return np.frombuffer(row.per_topic, dtype="<f8").reshape(measures, topics)


def _view(store: TaskStore, connection: Connection, task: Row, now: float, *, me: Row | None) -> TaskView:
    definition = _definition(task)
    disclosure = _disclosure(task, now)
    lecturer = me is None
    shown = definition.measures if lecturer else disclosure.measures
    board, best = _board(store, connection, task)
    entries = []
    for row in board.rows:
        who = best[row.entry]
        mine = me is not None and who.participant_id == me.id
        # a file name may carry its author's name: classmates see only the submission's number
        run = f"{who.name} (#{who.number})" if lecturer or mine or who.baseline else f"submission {who.number}"
        entries.append(BoardEntry(
            place=row.place, name=_shown_name(who.nickname, who.who), run=run,
            means={m: row.means[m] for m in shown}, intervals={m: row.intervals[m] for m in shown},
            versus={m: row.versus[m].symbol for m in shown if m in row.versus},
            p_values={m: row.versus[m].p_adjusted for m in shown if m in row.versus} if lecturer else None,
            mine=mine, baseline=bool(who.baseline)))
    query = select(submissions, participants.c.number.label("who")).join(
        participants, participants.c.id == submissions.c.participant_id).where(submissions.c.task_id == task.id)
    if not lecturer:
        query = query.where(submissions.c.participant_id == me.id)
    own = connection.execute(query.order_by(participants.c.number, submissions.c.number)).all()
    mine = tuple(_submission(row, task, disclosure, lecturer=lecturer, url=str(store.engine.url)) for row in own)
    people = ()
    if lecturer:
        counts = {}
        for row in own:
            counts[row.who] = counts.get(row.who, 0) + (row.state == SCORED)
        everyone = connection.execute(select(participants).where(participants.c.task_id == task.id)
                                      .order_by(participants.c.number))
        people = tuple((p.number, _shown_name(p.nickname, p.number), p.label, counts.get(p.number, 0))
                       for p in everyone)
    topic_texts = dict(definition.topic_texts)
    return TaskView(task.code, definition.title, task.deadline, now, task.version, definition.measures, shown,
                    definition.max_submissions, definition.max_run_mb, definition.test, _topics(task), topic_texts,
                    disclosure.released if disclosure.after_deadline else frozenset(), tuple(entries), mine,
                    me=None if me is None else _shown_name(me.nickname, me.number), lecturer=lecturer,
                    participants=people)


def _submission(row: Row, task: Row, disclosure: Disclosure, *, lecturer: bool, url: str) -> Submission:
    definition = _definition(task)
    shown = definition.measures if lecturer else disclosure.measures
    name = row.name
    participant = getattr(row, "who", None) if lecturer else None
    if row.state != SCORED:
        return Submission(row.number, name, "", row.state, row.submitted_at, 0, {}, {}, (), None, participant)
    means = json.loads(row.means)
    values = dict(zip(definition.measures, _per_topic(row, len(definition.measures), len(_topics(task)))))
    findings = tuple(Finding(**f) for f in json.loads(row.findings))
    per_topic = ({m: tuple(float(v) for v in values[m]) for m in shown}
                 if lecturer or disclosure.per_topic else None)
    kept = json.loads(row.stats)["interval"] if row.stats else {}
    intervals = {m: tuple(kept[m]) if m in kept else _remembered(_run_key(url, task, row, "interval", m),
                                                                 lambda m=m: bootstrap_interval(values[m]))
                 for m in shown}
    return Submission(row.number, name, row.runid or "", row.state, row.submitted_at, row.lines,
                      {m: means[m] for m in shown}, intervals, findings,
                      per_topic, participant)
