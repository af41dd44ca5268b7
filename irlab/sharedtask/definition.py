"""What a lecturer sets when creating a shared task, checked: every limit here is enforced by the store.

>>> d = check_definition({"title": "TREC in miniature", "measures": ["map", "ndcg_cut_10"], "deadline": 1.81e9,
...                       "roster": ["ann", "bob"]}, now=1.8e9)
>>> d.measures, d.primary, d.max_submissions, d.visible_before
(('AP', 'nDCG@10'), 'AP', 3, 'primary')
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from irlab.errors import ValidationError
from irlab.metrics.measure_names import parse_measure
from irlab.runs.significance import TESTS

MAX_TITLE = 120
MAX_MEASURES = 8
MAX_SUBMISSIONS = 20
"""Runs one student may submit (each scored one discloses a little about the qrels: disclosure.py)."""
MAX_RUN_MB = 200
MAX_PARTICIPANTS = 2_000
MAX_NAME = 80
MAX_TOPIC_TEXT = 1_000
MAX_KEEP_DAYS = 366
MAX_QRELS_BYTES = 100_000_000
"""The largest qrels file a task takes (after unpacking)."""
DEFAULT_MEASURES = ("AP", "nDCG@10", "P@10", "RR")
ENROLMENTS = ("roster", "class")
VISIBLE = ("primary", "all")


@dataclass(frozen=True)
class TaskDefinition:
    """A task's settings (see :func:`check_definition` for each one's rule)."""

    title: str
    measures: tuple[str, ...]
    deadline: float
    max_submissions: int = 3
    max_run_mb: int = 100
    visible_before: str = "primary"
    test: str = "t"
    enrolment: str = "roster"
    roster: tuple[str, ...] = ()
    class_code: str | None = None
    keep_days: int = 90
    topic_texts: Mapping[str, str] = field(default_factory=dict)

    @property
    def primary(self) -> str:
        """The measure that ranks the leaderboard (the first one named)."""
        return self.measures[0]

    def to_json(self) -> dict[str, Any]:
        found = asdict(self)
        found["measures"], found["roster"] = list(self.measures), list(self.roster)
        found["topic_texts"] = dict(self.topic_texts)
        return found

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TaskDefinition:
        return cls(**{**data, "measures": tuple(data["measures"]), "roster": tuple(data.get("roster", ())),
                      "topic_texts": dict(data.get("topic_texts", {}))})


def check_definition(raw: Mapping[str, Any], *, now: float) -> TaskDefinition:
    """A :class:`TaskDefinition` from the lecturer's form or command line; ValidationError names what is wrong."""
    if not isinstance(raw, Mapping):
        raise ValidationError("a task's settings are a mapping")
    title = _text(raw.get("title", ""), "title", MAX_TITLE)
    if not title:
        raise ValidationError("a task needs a title", path="title")
    names = raw.get("measures") or list(DEFAULT_MEASURES)
    if isinstance(names, str) or not isinstance(names, Sequence) or not 1 <= len(names) <= MAX_MEASURES:
        raise ValidationError(f"name 1 to {MAX_MEASURES} measures", path="measures")
    measures = []
    for name in names:
        measure = parse_measure(str(name))
        if measure.definition.summary not in ("mean", "gmean"):
            raise ValidationError(f"{measure} is not averaged over topics, so it cannot rank runs", path="measures")
        measures.append(str(measure))
    deadline = raw.get("deadline")
    if isinstance(deadline, bool) or not isinstance(deadline, (int, float)) or not math.isfinite(deadline):
        raise ValidationError("the deadline is a time (seconds since 1970, UTC)", path="deadline")
    if deadline <= now:
        raise ValidationError("the deadline must be in the future", path="deadline")
    if deadline > now + MAX_KEEP_DAYS * 86_400:
        raise ValidationError(f"the deadline must be within {MAX_KEEP_DAYS} days", path="deadline")
    enrolment = raw.get("enrolment", "roster")
    if enrolment not in ENROLMENTS:
        raise ValidationError(f"enrolment is one of {', '.join(ENROLMENTS)}", path="enrolment")
    roster = tuple(_text(name, "roster", MAX_NAME) for name in raw.get("roster", ()) or ())
    if enrolment == "roster":
        if not roster:
            raise ValidationError("a roster task needs the students' names (one per line)", path="roster")
        if len(set(roster)) != len(roster) or "" in roster:
            raise ValidationError("each name in the roster must be given once, and not empty", path="roster")
    if len(roster) > MAX_PARTICIPANTS:
        raise ValidationError(f"a task takes at most {MAX_PARTICIPANTS} students", path="roster")
    class_code = raw.get("class_code") if enrolment == "class" else None
    if enrolment == "class" and not isinstance(class_code, str):
        raise ValidationError("a class task needs the class's join code", path="class_code")
    texts = raw.get("topic_texts") or {}
    if not isinstance(texts, Mapping) or len(texts) > 10_000:
        raise ValidationError("topic texts are at most 10,000 id: text pairs", path="topic_texts")
    return TaskDefinition(
        title=title, measures=tuple(dict.fromkeys(measures)), deadline=float(deadline),
        max_submissions=_whole(raw.get("max_submissions", 3), "max_submissions", 1, MAX_SUBMISSIONS),
        max_run_mb=_whole(raw.get("max_run_mb", 100), "max_run_mb", 1, MAX_RUN_MB),
        visible_before=_choice(raw.get("visible_before", "primary"), "visible_before", VISIBLE),
        test=_choice(raw.get("test", "t"), "test", tuple(t for t in TESTS if t != "tukey")),
        enrolment=enrolment, roster=roster, class_code=class_code,
        keep_days=_whole(raw.get("keep_days", 90), "keep_days", 1, MAX_KEEP_DAYS),
        topic_texts={_text(k, "topic_texts", MAX_NAME): _text(v, "topic_texts", MAX_TOPIC_TEXT)
                     for k, v in texts.items()})


def _text(value: object, path: str, limit: int) -> str:
    """Plain text on one line, control characters dropped, at most ``limit`` characters."""
    if not isinstance(value, str):
        raise ValidationError("must be text", path=path)
    flat = " ".join("".join(c for c in value if c.isprintable() or c.isspace()).split())
    if len(flat) > limit:
        raise ValidationError(f"at most {limit} characters", path=path)
    return flat


def _whole(value: object, path: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValidationError(f"a whole number from {low} to {high}, got {value!r}", path=path)
    return value


def _choice(value: object, path: str, choices: Sequence[str]) -> str:
    if value not in choices:
        raise ValidationError(f"one of {', '.join(choices)}, got {value!r}", path=path)
    return str(value)
