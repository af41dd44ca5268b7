"""Class analytics after the lecture: per activity and round, the share right, the named mistakes, the time to answer.

Read from the stored answers only (the verdicts were stored when each answer came in), for every kind
alike: a round's :class:`RoundStats` counts its answers, those right (answers whose kind cannot say are
left out of the share), its named mistakes with their counts, and the seconds from the round's opening
to each student's (last) answer: the median and the 90th percentile (the slow end of the class).

=====================  ===================================================================
CSV column             meaning
=====================  ===================================================================
``activity``           the activity's position in the class (1, 2, ...)
``question``           the activity in one line
``kind``               the activity kind
``round``              1, 2, ...
``answers``            how many students answered the round
``right``              how many were right
``share right``        right / answers with a verdict, 0-1 (empty when none has one)
``median seconds``     the median time to answer
``p90 seconds``        the 90th percentile of the time to answer
``named mistakes``     ``title: count`` for each named mistake, most common first, ``; ``-separated
=====================  ===================================================================

>>> from irlab.classroom.activities.base import Respondent, StoredAnswer
>>> found = [StoredAnswer(Respondent(n, n), "x", 0, n != 3, "discount-jk" if n == 3 else None, 10.0 * n)
...          for n in (1, 2, 3, 4)]
>>> stats = round_stats(1, "NDCG@3", "Predict a number", 1, found)
>>> stats.right, stats.share_right, stats.median_seconds, stats.p90_seconds, stats.mistakes[0][1]
(3, 0.75, 25.0, 37.0, 1)
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import Connection

from irlab.classroom import rows
from irlab.classroom.activities import kind, mistake_title
from irlab.classroom.activities.base import StoredAnswer
from irlab.classroom.export import neutralise

COLUMNS = ("activity", "question", "kind", "round", "answers", "right", "share right", "median seconds",
           "p90 seconds", "named mistakes")


@dataclass(frozen=True)
class RoundStats:
    """One round of one activity, summarised for after the lecture."""

    position: int
    question: str
    kind: str
    round: int
    answers: int
    right: int
    judged: int
    median_seconds: float | None
    p90_seconds: float | None
    mistakes: tuple[tuple[str, int], ...]

    @property
    def share_right(self) -> float | None:
        """Right among the answers with a verdict (0-1), or None."""
        return self.right / self.judged if self.judged else None

    @property
    def label(self) -> str:
        """``Q2 · round 1``: short, for a chart's axis."""
        return f"Q{self.position} \u00b7 round {self.round}"


def percentile(values: Sequence[float], share: float) -> float | None:
    """The ``share`` percentile of ``values`` (linear between the closest ranks, as spreadsheets compute it).

    >>> percentile([10, 20, 30, 40], 0.5), percentile([10, 20, 30, 40], 0.9), percentile([], 0.5)
    (25.0, 37.0, None)
    """
    if not values:
        return None
    ordered = sorted(values)
    at = share * (len(ordered) - 1)
    low, high = math.floor(at), math.ceil(at)
    return float(ordered[low] + (ordered[high] - ordered[low]) * (at - low))


def round_stats(position: int, question: str, kind_title: str, number: int,
                answers: Sequence[StoredAnswer]) -> RoundStats:
    """One round's numbers from its stored answers."""
    judged = [a for a in answers if a.correct is not None]
    mistakes = Counter(a.mistake for a in answers if a.mistake and not a.correct)
    named = tuple((mistake_title(name), count)
                  for name, count in sorted(mistakes.items(), key=lambda item: (-item[1], item[0])))
    seconds = [a.seconds for a in answers]
    return RoundStats(position, question, kind_title, number, len(answers), sum(1 for a in judged if a.correct),
                      len(judged), percentile(seconds, 0.5), percentile(seconds, 0.9), named)


def class_stats(connection: Connection, class_id: int) -> tuple[RoundStats, ...]:
    """Every round of every activity of the class, in order."""
    found = []
    activity_list = rows.activity_rows(connection, class_id)
    by_activity = rows.round_rows(connection, [a.id for a in activity_list])
    for activity in activity_list:
        kind_ = kind(activity.kind)
        question = kind_.describe(json.loads(activity.settings))
        rounds_ = by_activity[activity.id]
        answers = rows.stored_answers(connection, rounds_)
        found += [round_stats(activity.position, question, kind_.title, r.number, answers.get(r.id, ()))
                  for r in rounds_]
    return tuple(found)


def stats_csv(stats: Sequence[RoundStats]) -> str:
    """The rounds' numbers as CSV text (formula-neutralised, like every class CSV)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(COLUMNS)
    for s in stats:
        writer.writerow([neutralise(cell) for cell in (
            s.position, s.question, s.kind, s.round, s.answers, s.right,
            "" if s.share_right is None else f"{s.share_right:.3f}",
            "" if s.median_seconds is None else f"{s.median_seconds:.1f}",
            "" if s.p90_seconds is None else f"{s.p90_seconds:.1f}",
            "; ".join(f"{title}: {count}" for title, count in s.mistakes))])
    return out.getvalue()
