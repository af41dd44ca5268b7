"""A task view as rows of text, the way the page (and any export) shows it: numbers to trec_eval's 4 decimals.

>>> from irlab.sharedtask.records import BoardEntry
>>> entry = BoardEntry(1, "Ann", "run.txt (#1)", {"AP": 0.31234}, {"AP": (0.25, 0.37)}, {"AP": "▲"}, mine=True)
>>> row = board_rows([entry], ("AP",))[0]
>>> row["name"], row["AP"], row["AP 95% interval"], row["AP vs baseline"]
('Ann (you)', '0.3123', '0.2500–0.3700', '▲ better')
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from irlab.sharedtask.records import BoardEntry, Submission

VERSUS = {"▲": "▲ better", "▼": "▼ worse", "=": "= no difference"}
"""The comparison with the baseline in words (never colour alone)."""


def board_rows(board: Sequence[BoardEntry], measures: Sequence[str], *, p_values: bool = False) -> list[dict]:
    """One row per leaderboard entry: place, name, run, and per measure its mean, interval and the baseline mark.

    A student's (one measure, often on a phone): the mean, the mark, then the interval, so the first two fit a
    phone's width. The lecturer's (``p_values``: every measure, on a projector): two columns a measure, the mean
    with its interval (as the submissions' table writes them) and the mark with the Holm-adjusted p.

    >>> from irlab.sharedtask.records import BoardEntry
    >>> entry = BoardEntry(2, "Bo", "b.run (#2)", {"AP": 0.2}, {"AP": (0.1, 0.3)}, {"AP": "="}, p_values={"AP": 0.41})
    >>> board_rows([entry], ("AP",), p_values=True)[0]
    {'place': '2', 'name': 'Bo', 'AP [95% interval]': '0.2000 [0.1000, 0.3000]', \
'AP vs baseline': '= no difference (p 0.4100)', 'run': 'b.run (#2)'}
    """
    rows = []
    for entry in board:
        name = entry.name + (" (you)" if entry.mine else "") + (" (baseline)" if entry.baseline and
                                                                 entry.name != "baseline" else "")
        row = {"place": str(entry.place), "name": name}
        for m in measures:  # the numbers first: on a phone the table scrolls sideways
            low, high = entry.intervals[m]
            mark = "baseline" if entry.baseline else VERSUS.get(entry.versus.get(m, ""), "—")
            if p_values:
                shown = entry.p_values.get(m) if entry.p_values else None
                row[f"{m} [95% interval]"] = f"{entry.means[m]:.4f} [{low:.4f}, {high:.4f}]"
                row[f"{m} vs baseline"] = mark if shown is None else f"{mark} (p {shown:.4f})"
            else:
                row[m] = f"{entry.means[m]:.4f}"
                row[f"{m} vs baseline"] = mark
                row[f"{m} 95% interval"] = f"{low:.4f}–{high:.4f}"
        row["run"] = entry.run
        rows.append(row)
    return rows


def submission_rows(submissions: Sequence[Submission], measures: Sequence[str], *, who: dict[int, str] | None = None
                    ) -> list[dict]:
    """One row per submission: its number, file, run id, when, lines, and each measure shown (with its interval)."""
    rows = []
    for s in submissions:
        row = {"#": str(s.number)}
        if who is not None:
            row["student"] = who.get(s.participant, "") if s.participant is not None else ""
        for m in measures:  # the numbers first: on a phone the table scrolls sideways
            if m in s.means:
                low, high = s.intervals[m]
                row[m] = f"{s.means[m]:.4f} [{low:.4f}, {high:.4f}]"
        row |= {"file": s.name, "run id": s.runid, "submitted (UTC)": when(s.submitted_at),
                "lines": f"{s.lines:,}" if s.state == "scored" else "scoring…"}
        rows.append(row)
    return rows


def per_topic_rows(submission: Submission, topics: Sequence[str]) -> list[dict]:
    """A released submission's per-topic values: one row per topic."""
    if submission.per_topic is None:
        return []
    return [{"topic": topic, **{m: f"{values[i]:.4f}" for m, values in submission.per_topic.items()}}
            for i, topic in enumerate(topics)]


def when(seconds: float) -> str:
    """A time as ``2026-12-20 23:59`` (UTC)."""
    return time.strftime("%Y-%m-%d %H:%M", time.gmtime(seconds))


def time_left(deadline: float, now: float) -> str:
    """``3 days 4 hours left``, ``25 minutes left``, or ``closed``.

    >>> time_left(1000 + 3 * 86_400 + 4 * 3600 + 5, 1000), time_left(1000 + 25 * 60, 1000), time_left(0, 1)
    ('3 days 4 hours left', '25 minutes left', 'closed')
    """
    seconds = deadline - now
    if seconds <= 0:
        return "closed"
    days, rest = divmod(int(seconds), 86_400)
    hours, rest = divmod(rest, 3600)
    minutes = max(1, rest // 60) if not days and not hours else rest // 60
    parts = ([f"{days} day{'s' * (days != 1)}"] if days else []) + ([f"{hours} hour{'s' * (hours != 1)}"]
                                                                      if hours else [])
    if not days:
        parts += [f"{minutes} minute{'s' * (minutes != 1)}"] if minutes and not hours else []
    return " ".join(parts[:2]) + " left"
