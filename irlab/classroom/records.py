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


@dataclass(frozen=True)
class RoundInfo:
    """A round of an activity: its number, state and how many answers it holds."""

    id: int
    number: int
    state: str
    answers: int


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


@dataclass(frozen=True)
class Receipt:
    """An accepted answer: the round, the answer as stored, and whether it replaced an earlier one."""

    round_number: int
    text: str
    replaced: bool

    @property
    def message(self) -> str:
        """The receipt in words, for the student."""
        done = "Answer changed to" if self.replaced else "Answer received:"
        return f"{done} {self.text}. You can change it until the lecturer closes the round."
