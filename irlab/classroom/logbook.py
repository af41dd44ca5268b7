"""What a replica says about its class store in the server's log: the store once at start, a store error once a minute.

A class on a store that fails (a full disk, a read-only file, a lock held too long, PostgreSQL
stopped) must leave a line in the log of every replica that meets it, without a line per student:
:func:`store_error` logs the first error at once and then at most one line a minute, counting the
errors in between and naming where each kind happened first. :func:`store_started` logs which
store a replica opened (the URL without its password, the store's id and backend), or why it could
not; two replicas that print different store ids do not share one store.

The lines go to the ``irlab.classroom`` logger; :func:`log_to_stderr` gives IR Lab's loggers a
handler of their own (the app does at start), since Streamlit configures only its own.
"""

from __future__ import annotations

import logging
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable

LOGGER = logging.getLogger("irlab.classroom")
EVERY_SECONDS = 60.0
"""At most one line about store errors per this many seconds (per process)."""


def log_to_stderr() -> None:
    """Give the ``irlab`` loggers a handler that prints to stderr (once; Streamlit sets up only its own loggers)."""
    parent = logging.getLogger("irlab")
    if not any(getattr(handler, "irlab", False) for handler in parent.handlers):
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(asctime)s [irlab] %(message)s"))
        handler.irlab = True  # type: ignore[attr-defined]
        parent.addHandler(handler)
    if parent.level == logging.NOTSET or parent.level > logging.INFO:
        parent.setLevel(logging.INFO)


def first_line(error: BaseException) -> str:
    """The error as one line: its type and the first line of its message (SQLAlchemy adds the statement below).

    >>> first_line(OSError("disk full\\n[SQL: INSERT ...]"))
    'OSError: disk full'
    """
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0][:300] if text else ''}".rstrip(": ")


class ErrorLog:
    """Store errors, logged at most once per :data:`EVERY_SECONDS` (the first at once), with a count of the rest."""

    def __init__(self, logger: logging.Logger = LOGGER, every: float = EVERY_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.logger, self.every, self.clock = logger, every, clock
        self._lock = threading.Lock()
        self._last: float | None = None
        self._pending: Counter[str] = Counter()
        self._example = ""

    def report(self, error: BaseException, where: str) -> bool:
        """Count ``error`` (met in ``where``: "student answer", "projector", ...); whether a line was logged now."""
        now = self.clock()
        with self._lock:
            self._pending[where] += 1
            self._example = self._example or f"{first_line(error)} (in {where})"
            if self._last is not None and now - self._last < self.every:
                return False
            count, places = sum(self._pending.values()), ", ".join(f"{w} {n}" for w, n in self._pending.items())
            example = self._example
            self._last, self._pending, self._example = now, Counter(), ""
        since = "" if count == 1 else f" ({count} errors since the last line: {places})"
        self.logger.error("class store error: %s%s", example, since)
        return True


STORE_ERRORS = ErrorLog()
"""This process's log of store errors."""


def store_error(error: BaseException, where: str) -> None:
    """Log a store error met in ``where`` (at most one line a minute per process)."""
    STORE_ERRORS.report(error, where)


def store_started(description: str | None, error: BaseException | None = None) -> None:
    """Log the store this replica opened at start (``description``: URL, id, backend), or why it could not."""
    if error is None:
        LOGGER.info("class store: %s", description)
    else:
        LOGGER.error("class store could not be opened: %s", first_line(error))
