"""What the task store hands to pages and the command line: plain, immutable records (no secrets, no rows).

A student's records hold only what :mod:`irlab.sharedtask.disclosure` allows them to see now; the
lecturer's hold everything.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from irlab.runs.doctor import Finding


@dataclass(frozen=True)
class NewTask:
    """A task just created: its code, the lecturer key (shown once), and for a roster task each student's token."""

    code: str
    key: str
    tokens: dict[str, str] = field(repr=False)

    def __repr__(self) -> str:
        return f"NewTask(code={self.code!r})"


@dataclass(frozen=True)
class Submission:
    """One submission as its viewer may see it: ``means`` and ``intervals`` only for the measures shown,
    ``per_topic`` only when released (or for the lecturer)."""

    number: int
    name: str
    runid: str
    state: str
    submitted_at: float
    lines: int
    means: dict[str, float]
    intervals: dict[str, tuple[float, float]]
    findings: tuple[Finding, ...]
    per_topic: dict[str, tuple[float, ...]] | None = None
    participant: int | None = None
    """The student's number (the lecturer's view only)."""


@dataclass(frozen=True)
class BoardEntry:
    """A leaderboard row as shown: place, the name shown, the run, means, intervals and the baseline marks."""

    place: int
    name: str
    run: str
    means: dict[str, float]
    intervals: dict[str, tuple[float, float]]
    versus: dict[str, str]
    p_values: dict[str, float] | None = None
    mine: bool = False
    baseline: bool = False


@dataclass(frozen=True)
class TaskView:
    """A task as a student (or, with ``lecturer``, the lecturer) sees it now."""

    code: str
    title: str
    deadline: float
    now: float
    version: int
    measures: tuple[str, ...]
    shown_measures: tuple[str, ...]
    max_submissions: int
    max_run_mb: int
    test: str
    topics: tuple[str, ...]
    topic_texts: dict[str, str]
    released: frozenset[str]
    board: tuple[BoardEntry, ...]
    submissions: tuple[Submission, ...]
    me: str | None = None
    lecturer: bool = False
    participants: tuple[tuple[int, str, str | None, int], ...] = ()
    """For the lecturer: (number, name shown, roster name, scored submissions) of every participant."""

    @property
    def open(self) -> bool:
        return self.now < self.deadline

    @property
    def submissions_left(self) -> int:
        return max(0, self.max_submissions - sum(1 for s in self.submissions if s.state == "scored"))
