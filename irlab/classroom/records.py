"""What the store hands to pages: plain, immutable records (no database objects, no secrets).

The lecturer's page reads a :class:`ProjectorView` (and :class:`ActivityReport` for any
activity); the student's page reads a :class:`StudentView`. Both first poll :class:`Versions`,
one row of the store, and read a view only when its number changed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Versions:
    """A class's two change counters.

    ``student`` changes when anything a student's view shows changes (the lecturer opens, reveals,
    reopens, closes or leaves an activity); ``projector`` when anything else the projector shows
    changes (a join, an answer, an added activity, the names switch). A student view polls
    ``student`` only, so a classmate's answer does not redraw it; the projector polls both.
    """

    student: int
    projector: int


@dataclass(frozen=True)
class NewClass:
    """A class just started: its join code and the lecturer key (shown once; the store keeps only its hash)."""

    code: str
    key: str

    @property
    def join_path(self) -> str:
        """The students' link, relative to the app (``/join?code=ABCDEF``)."""
        return f"/join?code={self.code}"

    @property
    def lecturer_path(self) -> str:
        """The lecturer's capability link (``/class?code=...&key=...``): whoever has it runs the class."""
        return f"/class?code={self.code}&key={self.key}"


@dataclass(frozen=True)
class ActivityInfo:
    """An activity in the class's list: its position (1, 2, ...), kind, one-line title, rounds and state.

    ``state`` is the latest round's (``open``, ``closed``, ``revealed``), or None before it is started.
    """

    id: int
    position: int
    kind: str
    title: str
    rounds: int
    state: str | None
    current: bool
    live_results: bool = False
    """Whether the projector shows the answers' spread while a round runs (else only once revealed)."""


@dataclass(frozen=True)
class RoundInfo:
    """A round of an activity: its number, state (an open round whose timer ran out is closed), how many answers
    it holds, and when its timer ends (None: no timer)."""

    id: int
    number: int
    state: str
    answers: int
    closes_at: float | None = None


@dataclass(frozen=True)
class ActivityReport:
    """An activity on the projector: the question, its rounds side by side with the kind's summary of each,
    and (once a round is revealed) the right answer with its breakdown."""

    info: ActivityInfo
    question: Any
    rounds: tuple[RoundInfo, ...]
    summaries: tuple[Any, ...]
    solution: Any | None

    @property
    def latest(self) -> RoundInfo | None:
        return self.rounds[-1] if self.rounds else None


@dataclass(frozen=True)
class ProjectorView:
    """Everything the lecturer's projector shows. ``names`` holds the nicknames only when the lecturer turned
    names on (plain text, in joining order)."""

    code: str
    versions: Versions
    students: int
    show_names: bool
    names: tuple[str, ...]
    activities: tuple[ActivityInfo, ...]
    current: ActivityReport | None
    joining_locked: bool = False
    timer_seconds: int | None = None
    """The timer of the rounds the lecturer opens (None: no timer)."""
    following: int | None = None
    """Students whose page follows the class live now (None: no replica reports it, e.g. outside a server)."""
    now: float = 0.0
    """The store's clock when the view was read (seconds since the epoch)."""

    @property
    def not_following(self) -> int | None:
        """Students who joined but whose page does not follow the class now (None when unknown)."""
        return None if self.following is None else max(0, self.students - self.following)


@dataclass(frozen=True)
class StudentActivity:
    """The activity a student sees: the question of its latest round, their own answer to that round, and
    after the reveal the kind's feedback on it (None if they did not answer) and the solution."""

    activity_id: int
    kind: str
    title: str
    question: Any
    round_id: int
    round_number: int
    state: str
    answer: str | None
    feedback: Any | None
    solution: Any | None
    closes_at: float | None = None
    """When the round's timer ends (None: no timer)."""
    value: Any = None
    """The student's answer as stored (JSON: a number, option ids, an order, answers per question), or None."""

    @property
    def accepting(self) -> bool:
        """Whether the student may answer now."""
        return self.state == "open"


@dataclass(frozen=True)
class StudentView:
    """A student's screen: who they are (``number`` is their anonymous id) and the activity, or None while the
    lecturer has none open ("waiting for the lecturer")."""

    code: str
    number: int
    nickname: str | None
    version: int
    activity: StudentActivity | None
    now: float = 0.0
    """The store's clock when the view was read (seconds since the epoch)."""


@dataclass(frozen=True)
class Receipt:
    """An accepted answer: the round, the answer as stored, whether it replaced an earlier one, and whether it was
    the stored answer already (the same send again, or the same answer sent twice: nothing was written)."""

    round_number: int
    text: str
    replaced: bool
    unchanged: bool = False

    @property
    def message(self) -> str:
        """The receipt in words, for the student.

        >>> Receipt(1, "0.5", False).message
        'Answer received: 0.5. You can change it until the round closes.'
        >>> Receipt(2, "0.5", True, unchanged=True).message
        'Answer received: 0.5 (round 2). You can change it until the round closes.'
        """
        done = "Answer changed to" if self.replaced and not self.unchanged else "Answer received:"
        which = f" (round {self.round_number})" if self.round_number > 1 else ""
        return f"{done} {self.text}{which}. You can change it until the round closes."
