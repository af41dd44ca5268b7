"""What the live class's browser components are given: the feed's versions, timer and counts; the answer form's round.

A page is drawn from the store at one moment; its feed (:func:`irlab.ui.components.classfeed.class_feed`)
is told which versions it shows (``shown``) and reruns the page's fragment when the class's event stream
names others. The stream's address carries the class's code, the student's token or the lecturer's key
(the page's link carries them already) and the store's id the page was drawn from; it and the answer route's
are under the server's base path, if any (:mod:`irlab.ui.shell.base_path`).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from irlab.classroom.records import ProjectorView, StudentActivity, StudentView
from irlab.ui.classroom.feed import ANSWER_PATH, EVENTS_PATH
from irlab.ui.shell.base_path import served_path

STUDENT_SPREAD_MS = 1500
"""A student's page reruns within this many ms (at random) after the class changed: 500 phones do not all rerun in
the same instant, and the last sees the lecturer's move 1.5 s later at most."""
HELD_MS = 5000
"""A page that could not read the class asks again after this long (its feed's ``hold``)."""


def events_url(code: str, store: str, *, student: str | None = None, key: str | None = None) -> str:
    """The event stream of a student's page (``student``: their token) or the lecturer's (``key``).

    >>> events_url("ABCDEF", "1a2b3c4d", student="tok")  # served at the root (no base path)
    '/_irlab/class/events?code=ABCDEF&student=tok&s=1a2b3c4d'
    """
    secret = {"student": student} if student is not None else {"key": key or ""}
    return f"{served_path(EVENTS_PATH)}?{urlencode({'code': code, **secret, 's': store})}"


def _round(activity: StudentActivity | None) -> dict[str, Any] | None:
    if activity is None:
        return None
    return {"id": activity.round_id, "state": activity.state, "closes_at": activity.closes_at}


def student_feed(code: str, token: str, store: str, view: StudentView | None) -> dict[str, Any]:
    """The feed's data on a student's page drawn from ``view`` (None: the class could not be read; ask again soon)."""
    activity = view.activity if view is not None else None
    return {"role": "student", "events": events_url(code, store, student=token),
            "shown": {"student": view.version if view is not None else -1,
                      "round": activity.round_id if activity is not None else None,
                      "state": activity.state if activity is not None else None},
            "now": view.now if view is not None else 0.0, "round": _round(activity), "counts": None,
            "spread": HELD_MS if view is None else STUDENT_SPREAD_MS, "held": view is None}


def projector_feed(code: str, key: str, store: str, view: ProjectorView | None, *, held: bool = False
                   ) -> dict[str, Any]:
    """The feed's data on the lecturer's page drawn from ``view``: versions, the current round, the counts (``held``:
    the view is an older one kept while the store did not answer; the page asks again after a while)."""
    latest = view.current.latest if view is not None and view.current is not None else None
    round_ = None
    if latest is not None:
        round_ = {"id": latest.id, "number": latest.number, "state": latest.state, "closes_at": latest.closes_at,
                  "answers": latest.answers, "earlier": [r.answers for r in view.current.rounds[:-1]]}
    return {"role": "projector", "events": events_url(code, store, key=key),
            "shown": {"student": view.versions.student if view is not None else -1,
                      "projector": view.versions.projector if view is not None else -1,
                      "round": latest.id if latest is not None else None,
                      "state": latest.state if latest is not None else None},
            "now": view.now if view is not None else 0.0, "round": round_,
            "counts": {"students": view.students, "following": view.following} if view is not None else None,
            "spread": HELD_MS if view is None or held else 0, "held": held or view is None}


def answer_data(code: str, token: str, store: str, activity: StudentActivity, form: dict[str, Any],
                now: float) -> dict[str, Any]:
    """The answer form's data for the open round of ``activity``."""
    return {"code": code, "student": token, "store": store, "post": served_path(ANSWER_PATH),
            "round": activity.round_id, "form": form, "stored": activity.value, "stored_text": activity.answer,
            "closes_at": activity.closes_at, "now": now}
