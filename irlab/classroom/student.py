"""The student's side of a class: what a student sees, and answering.

A :class:`StudentSeat` is what :meth:`irlab.classroom.store.ClassStore.join` (a new student) and
:meth:`~irlab.classroom.store.ClassStore.student` (the same student again, from the token in their
link) return. Every call looks the student up by the token's hash again, so a seat outlives
neither its class nor a wrong token. A seat has no lecturer action and no way to reach one.

An answer names the round the student saw (``round_id`` from :class:`~irlab.classroom.records.
StudentActivity`): it is stored only while that round is the current activity's open round (and its
timer, if any, has not run out: :data:`irlab.classroom.rows.TIMER_GRACE`), so an answer typed while
the lecturer moved on never lands in another question. One answer per student and round: a new one
replaces the old (at most :data:`MAX_CHANGES` times per round, so a script cannot rewrite its answer
forever; the row stays one row).

**Sent again, counted once.** The phone gives every send an id (``send_id``: the phone's id and a
number that grows with each send) and sends it again until it is acknowledged (a dropped connection,
a replica that died). The answer row keeps the id of the send that stored it: the same send again, or
an older one of the same phone arriving late, is acknowledged without a write (:func:`superseded`),
and so is the answer the student already has (a flood of the same answer costs nothing after its
first write).

A link whose token names no seat of a live class gets one answer, whatever the reason (the class
ended, or the token belongs to another class), so a link tells nothing about other classes.
"""

from __future__ import annotations

import json
import re

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
SEAT_GONE = ("This link opens no seat in a live class: the class has ended, or the link is not this class's. "
             "Join with the code your lecturer shows.")
MOVED_ON = "The lecturer has moved on: this question is not open any more."
CLOSED_ROUND = "This round is closed: answers are no longer taken."
TIME_UP = "Time is up: this round closed when its timer ran out, so this answer was not counted."
_SEND_ID = re.compile(r"^[A-Za-z0-9_-]{8,40}$")
_NUMBERED = re.compile(r"^([A-Za-z0-9_]{8,24})-([0-9]{1,12})$")


def send_id_of(raw: object) -> str | None:
    """A phone's id for one send, when it looks like one (8 to 40 characters of base64url); else None.

    >>> send_id_of("k3J9x_Qa8-12"), send_id_of("short"), send_id_of(12345678)
    ('k3J9x_Qa8-12', None, None)
    """
    return raw if isinstance(raw, str) and _SEND_ID.match(raw) else None


def superseded(send: str | None, stored: str | None) -> bool:
    """Whether ``send`` is the send that stored the answer, or an earlier one of the same phone: a phone numbers its
    sends (``<phone>-<number>``), so a send that arrives late, after a newer one of the same phone, changes nothing.

    >>> [superseded(f"phoneAAA-{n}", "phoneAAA-3") for n in (3, 2, 4)]
    [True, True, False]
    >>> superseded("phoneBBB-1", "phoneAAA-3"), superseded(None, "phoneAAA-3"), superseded("opaque-id-x", "opaque-id-x")
    (False, False, True)
    """
    if send is None or stored is None:
        return False
    if send == stored:
        return True
    mine, theirs = _NUMBERED.match(send), _NUMBERED.match(stored)
    return bool(mine and theirs and mine[1] == theirs[1] and int(mine[2]) <= int(theirs[2]))


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
        raise ClassNotFound(SEAT_GONE)

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
            return StudentView(self.code, me.number, me.nickname, me.student_version,
                               self._activity(connection, me, now), now)

    def student_number(self) -> int:
        """The student's number in the class (their anonymous id); ClassNotFound when the seat is gone."""
        now = self._context.clock()
        with reading(self._context.engine) as connection:
            return self._me(connection, now).number

    def _activity(self, connection: Connection, me: Row, now: float) -> StudentActivity | None:
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
        state = rows.round_state(latest, now)
        if state == REVEALED:
            solution = kind_.solution(settings, respondent)
            if mine is not None:
                feedback = kind_.feedback(settings, rows.stored_answer(mine, latest.opened_at))
        return StudentActivity(activity.id, activity.kind, kind_.describe(settings),
                               kind_.question(settings, respondent),
                               latest.id, latest.number, state, mine.text if mine is not None else None,
                               feedback, solution, latest.closes_at,
                               json.loads(mine.value) if mine is not None else None)

    def answer(self, round_id: int, raw: object, *, send_id: object = None) -> Receipt:
        """Store the student's answer to ``round_id``; ValidationError (for the student) when it cannot be read,
        NotAccepting when the round is not open any more (or its timer ran out).

        ``send_id``: the phone's id of this send (see the module's text): the same send again, or the answer the
        student already has, is acknowledged without writing anything."""
        now = self._context.clock()
        send = send_id_of(send_id)
        with reading(self._context.engine) as connection:
            me = self._me(connection, now)
            target = self._open_round(connection, me.current_activity_id, round_id, now)
            earlier = self._earlier(connection, target, me)
        if (again := self._again(target, earlier, send, None)) is not None:
            return again  # a send the phone made again: acknowledged once, counted once
        kind_ = activity_kind(target.kind)
        settings = json.loads(target.settings)
        respondent = rows.respondent(me)
        parsed = kind_.parse(settings, raw, respondent)  # ValidationError: nothing is stored
        value = json.dumps(parsed.value)
        if (again := self._again(target, earlier, send, value)) is not None:
            return again  # the answer the student has already: nothing to write
        self._changes_left(earlier)  # a script's 10,000th answer costs a read, not a write
        verdict = kind_.check(settings, parsed.value, respondent)
        stored = {"text": parsed.text, "value": value, "correct": verdict.correct, "send_id": send,
                  "mistake": verdict.mistake, "answered_at": now,
                  "detail": json.dumps(verdict.detail, sort_keys=True) if verdict.detail is not None else None}
        with writing(self._context.engine) as connection:
            locked = rows.lock_class(connection, self._context, me.class_id, now)
            if locked is None:
                raise ClassNotFound(SEAT_GONE)
            target = self._open_round(connection, locked.current_activity_id, round_id, now)  # its timer checked
            earlier = self._earlier(connection, target, me)
            if (again := self._again(target, earlier, send, value)) is not None:
                return again  # the same send arrived twice at once (two replicas): the first one counted
            self._changes_left(earlier)
            if earlier is None:
                connection.execute(insert(answers).values(round_id=target.id, student_id=me.student_id,
                                                          first_at=now, revisions=0, **stored))
            else:
                connection.execute(update(answers).where(answers.c.id == earlier.id).values(
                    revisions=earlier.revisions + 1, **stored))
            rows.touch(connection, me.class_id, now, projector=True)
        return Receipt(target.number, parsed.text, earlier is not None)

    @staticmethod
    def _again(target: Row, earlier: Row | None, send: str | None, value: str | None) -> Receipt | None:
        """The receipt of the stored answer when this send is the one that stored it, or (``value`` given) when it
        is the answer stored already; else None."""
        if earlier is None:
            return None
        if superseded(send, earlier.send_id) or (value is not None and earlier.value == value):
            return Receipt(target.number, earlier.text, earlier.revisions > 0, unchanged=True)
        return None

    def _earlier(self, connection: Connection, target: Row, me: Row) -> Row | None:
        """The student's answer to the round as stored (id, revisions, value, text, send id), or None."""
        return connection.execute(select(answers.c.id, answers.c.revisions, answers.c.value, answers.c.text,
                                         answers.c.send_id).where(
            (answers.c.round_id == target.id) & (answers.c.student_id == me.student_id))).first()

    @staticmethod
    def _changes_left(earlier: Row | None) -> None:
        """NotAccepting after too many changes of the answer."""
        if earlier is not None and earlier.revisions >= MAX_CHANGES:
            raise NotAccepting(f"You have changed this answer {MAX_CHANGES} times; it stays as it is.")

    def _open_round(self, connection: Connection, current_activity_id: int | None, round_id: object,
                    now: float) -> Row:
        """The round with its activity's kind and settings, if it is the current activity's latest round and open
        (its timer not run out more than :data:`~irlab.classroom.rows.TIMER_GRACE` ago); NotAccepting otherwise."""
        if isinstance(round_id, bool) or not isinstance(round_id, int) or current_activity_id is None:
            raise NotAccepting(MOVED_ON)
        later = rounds.alias("later")
        target = connection.execute(
            select(rounds, activities.c.kind, activities.c.settings)
            .join(activities, activities.c.id == rounds.c.activity_id)
            .where((rounds.c.id == round_id) & (rounds.c.activity_id == current_activity_id)
                   & ~exists().where((later.c.activity_id == rounds.c.activity_id)
                                     & (later.c.number > rounds.c.number)))).first()
        if target is None:
            raise NotAccepting(MOVED_ON)
        if target.state != OPEN:
            raise NotAccepting(TIME_UP if target.closes_at is not None and target.closed_at == target.closes_at
                               else CLOSED_ROUND)
        if target.closes_at is not None and now > target.closes_at + rows.TIMER_GRACE:
            raise NotAccepting(TIME_UP)
        return target

    def rename(self, nickname: object) -> str | None:
        """Change the nickname (cleaned; None or empty: anonymous). Returns the nickname as stored."""
        name = clean_nickname(nickname)
        now = self._context.clock()
        with writing(self._context.engine) as connection:
            me = self._me(connection, now)
            if rows.lock_class(connection, self._context, me.class_id, now) is None:
                raise ClassNotFound(SEAT_GONE)
            connection.execute(update(students).where(students.c.id == me.student_id).values(nickname=name))
            rows.touch(connection, me.class_id, now, projector=True)
        return name
