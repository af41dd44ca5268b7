"""The class store of this process, and who is asking: the browser session and the client's address.

:class:`~irlab.classroom.ClassStore` is a handle on the database named by ``IRLAB_CLASS_DB`` and keeps
no class state (its engine is made once per URL and process), so a page makes one per run: about
a tenth of a millisecond. A wrong setting is a :class:`~irlab.errors.ValidationError` naming the
variable, which the pages show as one line.

The join and start limits of the store count per browser session and per client address: the
student's machine, whatever proxies stand in front of the app (:mod:`irlab.ui.shell.client`: the
websocket's peer, or ``X-Forwarded-For``'s right-most entry not added by a trusted proxy when the
peer is one), counted by its /64 for IPv6.

A page that meets a store error says so in one line and logs it (at most a line a minute per
process: :func:`store_trouble`).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from streamlit.runtime.scriptrunner import get_script_run_ctx

from irlab.classroom import ClassStore
from irlab.classroom.logbook import store_error
from irlab.ui.shell.client import address_group
from irlab.ui.shell.client import client_address as shell_client_address

CLASS_RUNS_AT_ONCE = 4
"""Runs of class pages (a student's screen, the projector) a process draws at the same time; the others wait their
turn without holding the interpreter. When a question opens, 250 phones per replica rerun within 1.5 s: left to
themselves, 250 threads share the interpreter (one at a time, 5 ms each), and an answer arriving meanwhile, whose
route needs the interpreter a dozen times, waits seconds for it; in turns it waits for four."""
_RUNS = threading.BoundedSemaphore(CLASS_RUNS_AT_ONCE)
_HELD = threading.local()


@contextmanager
def class_run_turn() -> Iterator[None]:
    """Draw a class page's run in turn (see :data:`CLASS_RUNS_AT_ONCE`); a run that has its turn keeps it for what it
    draws inside (the page's fragment, run with the page)."""
    if getattr(_HELD, "depth", 0):
        _HELD.depth += 1
        try:
            yield
        finally:
            _HELD.depth -= 1
        return
    with _RUNS:
        _HELD.depth = 1
        try:
            yield
        finally:
            _HELD.depth = 0


def class_store() -> ClassStore:
    """The store named by ``IRLAB_CLASS_DB`` (else the per-user SQLite file); ValidationError for a bad setting."""
    return ClassStore()


def session_id() -> str | None:
    """This browser session's id (a new one after a reload or a failover: a session, not a person)."""
    context = get_script_run_ctx(suppress_warning=True)
    return context.session_id if context is not None else None


def client_address() -> str | None:
    """The client's address as the join and start limits count it, or None when unknown (no browser session)."""
    return address_group(shell_client_address())


def store_trouble(error: BaseException, where: str) -> None:
    """Log a store error a page met (``where``: "a student's page", ...), at most a line a minute per process."""
    store_error(error, where)
