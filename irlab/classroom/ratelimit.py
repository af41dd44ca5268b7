"""Rate limits counted in the store, so they hold across replicas: failed joins, joins per class, classes started.

* **Guessing codes** (:data:`JOIN`): a failed join (a code that names no class taking students, or
  text that is no code) is logged once per scope the caller knows, the browser session and the client
  address (the student's machine behind any proxy: :mod:`irlab.ui.shell.client`). When either has
  :data:`JOIN` ``.attempts`` failures within its window, further joins from it are refused before the
  code is even looked up, so a guesser learns nothing, not even from a right guess. Joining with a
  right code is never logged here. One student's wrong codes block their own session and address,
  not their classmates' (unless a whole class reaches the server from one address: a NAT).
* **Joins per class** (:data:`CLASS_JOINS`): every join is logged for its class, and a class takes at
  most so many a minute, so a script cannot fill a lecture with made-up students faster than a
  lecturer notices (the desk counts them, and can lock joining).
* **Starting classes** (:data:`START`): every class started is logged per session and address, so
  one script cannot fill the store with classes.

The subjects are stored as SHA-256 hashes (no addresses in the database), and entries older than
their window are deleted as new ones arrive. Counting and logging happen in the caller's write
transaction: on SQLite one writer at a time, so a limit is exact; on PostgreSQL simultaneous
attempts can each pass the count before either is logged, so a burst can exceed a limit by as
many attempts as arrive at the same instant.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping
from dataclasses import dataclass

from sqlalchemy import Connection, delete, func, insert, select

from irlab.classroom.schema import rate_events


@dataclass(frozen=True)
class Limit:
    """At most ``attempts`` logged events per subject within ``window`` seconds."""

    purpose: str
    attempts: int
    window: float


JOIN = Limit("join", 10, 600.0)
"""10 failed joins per 10 minutes, per session and per address."""
CLASS_JOINS = Limit("joins", 300, 60.0)
"""300 students join a class per minute at most (a hall of 500 is in within two minutes)."""
START = Limit("start", 20, 3600.0)
"""20 classes started per hour, per session and per address."""


def subjects(limit: Limit, session: str | None = None, address: str | None = None, **others: object
             ) -> dict[str, str]:
    """Scope -> hashed subject for the scopes given (an empty or missing one is not limited); ``others`` name
    further scopes (``klass=12``: the class with id 12).

    >>> sorted(subjects(JOIN, "s1", None)), len(subjects(JOIN, "s1", "10.0.0.1")["join:address"])
    (['join:session'], 64)
    >>> list(subjects(CLASS_JOINS, klass=12))
    ['joins:klass']
    """
    given = {"session": session, "address": address, **{k: str(v) for k, v in others.items() if v is not None}}
    return {f"{limit.purpose}:{scope}": hashlib.sha256(f"irlab:{limit.purpose}:{scope}:{value}".encode()).hexdigest()
            for scope, value in given.items() if isinstance(value, str) and value}


def seconds_blocked(connection: Connection, limit: Limit, hashed: Mapping[str, str], now: float) -> float:
    """0 when every subject is within the limit; else how long until the oldest counted event leaves the window."""
    wait = 0.0
    for scope, subject in hashed.items():
        where = ((rate_events.c.scope == scope) & (rate_events.c.subject == subject)
                 & (rate_events.c.at > now - limit.window))
        count, oldest = connection.execute(select(func.count(), func.min(rate_events.c.at)).where(where)).one()
        if count >= limit.attempts:
            wait = max(wait, oldest + limit.window - now)
    return wait


def record(connection: Connection, limit: Limit, hashed: Mapping[str, str], now: float) -> None:
    """Log one event for every subject, and forget this limit's events older than its window."""
    connection.execute(delete(rate_events).where(rate_events.c.scope.like(f"{limit.purpose}:%")
                                                 & (rate_events.c.at <= now - limit.window)))
    if hashed:
        connection.execute(insert(rate_events), [{"scope": scope, "subject": subject, "at": now}
                                                   for scope, subject in hashed.items()])


def wait_text(seconds: float) -> str:
    """The wait in words: seconds under a minute, else rounded up to minutes.

    >>> wait_text(4.2), wait_text(30), wait_text(61), wait_text(600)
    ('5 seconds', '30 seconds', '2 minutes', '10 minutes')
    """
    if seconds < 60:
        whole = max(1, math.ceil(seconds))
        return f"{whole} second{'s' if whole != 1 else ''}"
    minutes = math.ceil(seconds / 60)
    return f"{minutes} minute{'s' if minutes != 1 else ''}"
