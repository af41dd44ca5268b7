"""The student's side of a class: what a student sees, and answering.

A :class:`StudentSeat` is what :meth:`irlab.classroom.store.ClassStore.join` (a new student) and
:meth:`~irlab.classroom.store.ClassStore.student` (the same student again, from the token in their
link) return. Every call looks the student up by the token's hash again, so a seat outlives
neither its class nor a wrong token. A seat has no lecturer action and no way to reach one.

An answer names the round the student saw (``round_id`` from :class:`~irlab.classroom.records.
StudentActivity`): it is stored only while that round is the current activity's open round, so an
answer typed while the lecturer moved on never lands in another question. One answer per student
and round: a new one replaces the old (at most :data:`MAX_CHANGES` times per round, so a script
cannot rewrite its answer forever; the row stays one row).
"""

from __future__ import annotations

import json

from sqlalchemy import Connection, Row, exists, insert, select, update

from irlab.classroom import rows
from irlab.classroom.activities import kind as activity_kind
from irlab.classroom.activities.base import OPEN, REVEALED
from irlab.classroom.database import reading, writing
from irlab.classroom.nicknames import clean_nickname
from irlab.classroom.records import Receipt, StudentActivity, StudentView
from irlab.classroom.refusals import AccessDenied, ClassNotFound, NotAccepting
from irlab.classroom.schema import activities, answers, classes, rounds, students
from irlab.classroom.tokens import digest, looks_like_secret

MAX_CHANGES = 50
"""Changes of one answer in one round; a script sending thousands is refused after this many."""


class StudentSeat:
    """One student in one class (see the module's text)."""

    def __init__(self, context: rows.Context, code: str, token: str) -> None:
        self._context = context
        self.code = code
        self.token = token
        """The student's identity: keep it in their link (``/join?code=...&student=TOKEN``)."""

    def __repr__(self) -> str:  # never the token
        return f"StudentSeat(code={self.code!r})"

    def _me(self, connection: Connection, now: float) -> Row:
        """The student and their class in one row (``student_id``, ``number``, ``token_hash``, ``nickname``,
        ``class_id``, ``student_version``, ``current_activity_id``); AccessDenied or ClassNotFound when the seat is
        no longer valid."""
        if not looks_like_secret(self.token):
            raise AccessDenied("This student link is damaged; join the class again with its code.")
        me = connection.execute(
            select(students.c.id.label("student_id"), students.c.number, students.c.token_hash, students.c.nickname,
                   classes.c.id.label("class_id"), classes.c.student_version, classes.c.current_activity_id)
            .join(classes, classes.c.id == students.c.class_id)
            .where((students.c.token_hash == digest(self.token)) & (classes.c.code == self.code)
                   & (classes.c.last_activity_at > self._context.live_after(now)))).first()
        if me is not None:
            return me
        if rows.live_class(connection, self._context, self.code, now) is None:
            raise ClassNotFound(f"The class {self.code} has ended.")
        raise AccessDenied("This student link does not belong to this class; join it again with its code.")

    def check(self) -> None:
        """Raise AccessDenied or ClassNotFound unless the seat is valid."""
        now = self._context.clock()
        with reading(self._context.engine) as connection:
            self._me(connection, now)

    def version(self) -> int | None:
        """The class's student version (what a student view polls), or None when the class has ended."""
        now = self._context.clock()
        with reading(self._context.engine) as connection:
            row = rows.live_class(connection, self._context, self.code, now)
            return None if row is None else row.student_version

    def view(self) -> StudentView:
        """What the student sees now."""
        now = self._context.clock()
        with reading(self._context.engine) as connection:
            me = self._me(connection, now)
            return StudentView(self.code, me.number, me.nickname, me.student_version, self._activity(connection, me))

    def _activity(self, connection: Connection, me: Row) -> StudentActivity | None:
        if me.current_activity_id is None:
            return None
        activity = rows.activity_row(connection, me.class_id, me.current_activity_id)
        rounds_ = rows.round_rows(connection, [activity.id])[activity.id] if activity is not None else []
        if not rounds_:
            return None
        latest = rounds_[-1]
        kind_ = activity_kind(activity.kind)
        settings = json.loads(activity.settings)
        respondent = rows.respondent(me)
        mine = connection.execute(
            select(answers, students.c.number, students.c.token_hash)
            .join(students, students.c.id == answers.c.student_id)
            .where((answers.c.round_id == latest.id) & (answers.c.student_id == me.student_id))).first()
        feedback = solution = None
        if latest.state == REVEALED:
            solution = kind_.solution(settings, respondent)
            if mine is not None:
                feedback = kind_.feedback(settings, rows.stored_answer(mine, latest.opened_at))
        return StudentActivity(activity.id, activity.kind, kind_.describe(settings),
                               kind_.question(settings, respondent),
                               latest.id, latest.number, latest.state, mine.text if mine is not None else None,
                               feedback, solution)

    def answer(self, round_id: int, raw: object) -> Receipt:
        """Store the student's answer to ``round_id``; ValidationError (for the student) when it cannot be read,
        NotAccepting when the round is not open any more."""
        now = self._context.clock()
        with reading(self._context.engine) as connection:
            me = self._me(connection, now)
            target = self._open_round(connection, me.current_activity_id, round_id)
            self._changes_left(connection, target, me)  # a script's 10,000th answer costs a read, not a write
        kind_ = activity_kind(target.kind)
        settings = json.loads(target.settings)
        respondent = rows.respondent(me)
        parsed = kind_.parse(settings, raw, respondent)  # ValidationError: nothing is stored
        verdict = kind_.check(settings, parsed.value, respondent)
        stored = {"text": parsed.text, "value": json.dumps(parsed.value), "correct": verdict.correct,
                  "mistake": verdict.mistake, "answered_at": now,
                  "detail": json.dumps(verdict.detail, sort_keys=True) if verdict.detail is not None else None}
        with writing(self._context.engine) as connection:
            locked = rows.lock_class(connection, self._context, me.class_id, now)
            if locked is None:
                raise ClassNotFound(f"The class {self.code} has ended.")
            target = self._open_round(connection, locked.current_activity_id, round_id)
            earlier = self._changes_left(connection, target, me)
            if earlier is None:
                connection.execute(insert(answers).values(round_id=target.id, student_id=me.student_id,
                                                          first_at=now, revisions=0, **stored))
            else:
                connection.execute(update(answers).where(answers.c.id == earlier.id).values(
                    revisions=earlier.revisions + 1, **stored))
            rows.touch(connection, me.class_id, now, projector=True)
        return Receipt(target.number, parsed.text, earlier is not None)

    def _changes_left(self, connection: Connection, target: Row, me: Row) -> Row | None:
        """The student's earlier answer to the round (id, revisions), or None; NotAccepting after too many changes."""
        earlier = connection.execute(select(answers.c.id, answers.c.revisions).where(
            (answers.c.round_id == target.id) & (answers.c.student_id == me.student_id))).first()
        if earlier is not None and earlier.revisions >= MAX_CHANGES:
            raise NotAccepting(f"You have changed this answer {MAX_CHANGES} times; it stays as it is.")
        return earlier

    def _open_round(self, connection: Connection, current_activity_id: int | None, round_id: object) -> Row:
        """The round with its activity's kind and settings, if it is the current activity's latest round and open;
        NotAccepting otherwise."""
        if isinstance(round_id, bool) or not isinstance(round_id, int) or current_activity_id is None:
            raise NotAccepting("The lecturer has moved on: this question is not open any more.")
        later = rounds.alias("later")
        target = connection.execute(
            select(rounds, activities.c.kind, activities.c.settings)
            .join(activities, activities.c.id == rounds.c.activity_id)
            .where((rounds.c.id == round_id) & (rounds.c.activity_id == current_activity_id)
                   & ~exists().where((later.c.activity_id == rounds.c.activity_id)
                                     & (later.c.number > rounds.c.number)))).first()
        if target is None:
            raise NotAccepting("The lecturer has moved on: this question is not open any more.")
        if target.state != OPEN:
            raise NotAccepting("This round is closed: answers are no longer taken.")
        return target

    def rename(self, nickname: object) -> str | None:
        """Change the nickname (cleaned; None or empty: anonymous). Returns the nickname as stored."""
        name = clean_nickname(nickname)
        now = self._context.clock()
        with writing(self._context.engine) as connection:
            me = self._me(connection, now)
            if rows.lock_class(connection, self._context, me.class_id, now) is None:
                raise ClassNotFound(f"The class {self.code} has ended.")
            connection.execute(update(students).where(students.c.id == me.student_id).values(nickname=name))
            rows.touch(connection, me.class_id, now, projector=True)
        return name
