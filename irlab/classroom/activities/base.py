"""What an activity kind declares, and the records the store hands to it.

A kind (predict a number, and later: order the pictures, which is it, an exercise) is an object
with the methods of :class:`ActivityKind`. The store knows kinds only through these methods: it
keeps a kind's settings and each answer as JSON, stores the verdict (right or not, a named
mistake, the kind's own detail) next to it, and asks the kind to summarise a round. So a new kind
is one module and one line in :mod:`irlab.classroom.activities` (the registry); the tables, the
roles and the exports stay as they are.

The calls, in the order of a class:

1. ``settings(raw)`` when the lecturer adds the activity: checked, returned in canonical form
   (JSON-able). The store keeps them unchanged from then on (changing a question = a new activity).
2. ``question(settings, respondent)`` what a student sees while the round is open (never the
   answer); ``respondent`` lets a kind give each student a variant (None: the projector's copy).
3. ``parse(settings, raw, respondent)`` a student's answer: :class:`Parsed`, or
   :class:`~irlab.errors.ValidationError` with a message for the student (nothing is stored).
4. ``check(settings, parsed_value, respondent)`` the verdict, stored with the answer, so
   summaries and exports never recompute it.
5. ``summarise(settings, rounds)`` the class's answers per round (side by side, so a kind may use
   one scale for all rounds). Nothing distributional below :data:`MIN_ANSWERS_SHOWN` answers, nor
   before the round is revealed unless the lecturer shows the answers live
   (:attr:`RoundAnswers.spread_shown`); the right answer only once revealed.
6. ``solution(settings, respondent)`` and ``feedback(settings, answer)`` once a round is revealed:
   the right answer with its breakdown (projector, student) and the verdict in words (student).
7. ``describe(settings)`` one line naming the activity (lists, CSV); ``answer_cell(settings,
   answer)`` and ``right_cell(settings, respondent)``: the CSV's answer and right answer.

Every text a kind returns is plain text; pages show it as text, never as HTML or Markdown.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from irlab.errors import ValidationError

MIN_ANSWERS_SHOWN = 3
"""Below this many answers in a round, a summary shows only the count (small classes stay anonymous)."""

OPEN, CLOSED, REVEALED = "open", "closed", "revealed"
ROUND_STATES = (OPEN, CLOSED, REVEALED)
"""A round takes answers while open; closed takes none and shows no right answer; revealed shows it."""


ANSWER_TEXT = 100
"""Characters of an answer's text as stored for lists and receipts (the CSV writes the whole answer from its value)."""


def brief(parts: Sequence[str], separator: str = "; ", limit: int = ANSWER_TEXT) -> str:
    """``parts`` joined by ``separator``, cut after the last whole part that fits in ``limit`` characters, with
    an ellipsis when parts were left out (never in the middle of a part, unless the first is longer itself).

    >>> brief(["q1: 0.5", "q2: 3/4"], limit=100)
    'q1: 0.5; q2: 3/4'
    >>> brief(["q1: 0.5", "q2: 3/4", "q3: 0.25"], limit=18)
    'q1: 0.5; q2: 3/4 …'
    >>> brief(["x" * 30], limit=10)
    'xxxxxxxxx…'
    """
    whole = separator.join(parts)
    if len(whole) <= limit:
        return whole
    kept = ""
    for part in parts:
        longer = f"{kept}{separator}{part}" if kept else part
        if len(longer) + 2 > limit:
            break
        kept = longer
    return f"{kept} \u2026" if kept else whole[:limit - 1] + "\u2026"


def known_settings(raw: object, names: set[str]) -> Mapping[str, Any]:
    """``raw`` when it is a mapping of settings with no name outside ``names``; else ValidationError saying why.

    >>> known_settings({"goal": "best-ndcg"}, {"goal", "link"})
    {'goal': 'best-ndcg'}
    >>> known_settings({"goal": 1, "colour": 2, "shape": 3}, {"goal"})
    Traceback (most recent call last):
    ...
    irlab.errors.ValidationError: unknown setting(s): colour, shape
    """
    if not isinstance(raw, Mapping):
        raise ValidationError("the settings must be a mapping")
    unknown = set(raw) - names
    if unknown:
        raise ValidationError(f"unknown setting(s): {', '.join(sorted(map(str, unknown)))[:200]}")
    return raw


@dataclass(frozen=True)
class Respondent:
    """A student as a kind sees them: their number in the class (the anonymous id), and a seed bound to them
    (a whole number in 0..2^60, the same for every call: per-student variants)."""

    number: int
    seed: int


@dataclass(frozen=True)
class Parsed:
    """A readable answer: the text as the student typed it (trimmed, for the CSV) and its canonical value (JSON)."""

    text: str
    value: Any


@dataclass(frozen=True)
class Verdict:
    """The check of one answer: right or not (None: the kind cannot say), a named mistake, the kind's detail."""

    correct: bool | None
    mistake: str | None = None
    detail: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class StoredAnswer:
    """One answer as stored: who, what, the verdict, seconds from the round's opening, how often it changed."""

    respondent: Respondent
    text: str
    value: Any
    correct: bool | None
    mistake: str | None
    seconds: float
    revisions: int = 0
    detail: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class RoundAnswers:
    """A round of an activity (1, 2, ...), its state, and its answers.

    ``shown``: whether the class may see how the answers are spread (the round is revealed, or the lecturer
    shows the answers live); None means "once revealed". The right answer is marked only once revealed."""

    number: int
    state: str
    answers: tuple[StoredAnswer, ...] = field(default=())
    shown: bool | None = None

    @property
    def revealed(self) -> bool:
        return self.state == REVEALED

    @property
    def spread_shown(self) -> bool:
        """Whether a summary may show the answers' spread (enough of them is the kind's other condition)."""
        return self.revealed if self.shown is None else self.shown or self.revealed


class ActivityKind(Protocol):
    """An activity kind (see the module's text for when each method is called)."""

    name: str
    """The kind's stored name (``"predict"``): never changes once classes use it."""
    title: str
    """The kind in words (``"Predict a number"``)."""

    def settings(self, raw: Mapping[str, Any]) -> dict[str, Any]: ...

    def describe(self, settings: Mapping[str, Any]) -> str: ...

    def question(self, settings: Mapping[str, Any], respondent: Respondent | None) -> Any: ...

    def parse(self, settings: Mapping[str, Any], raw: Any, respondent: Respondent) -> Parsed: ...

    def check(self, settings: Mapping[str, Any], value: Any, respondent: Respondent) -> Verdict: ...

    def summarise(self, settings: Mapping[str, Any], rounds: Sequence[RoundAnswers]) -> tuple[Any, ...]: ...

    def solution(self, settings: Mapping[str, Any], respondent: Respondent | None) -> Any: ...

    def feedback(self, settings: Mapping[str, Any], answer: StoredAnswer) -> Any: ...

    def answer_cell(self, settings: Mapping[str, Any], answer: StoredAnswer) -> str: ...

    def right_cell(self, settings: Mapping[str, Any], respondent: Respondent) -> str: ...
