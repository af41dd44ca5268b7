"""One watcher per replica: it notices when the store changed and tells the pages that follow a class, at once.

Streamlit cannot push to a session, so a live page used to ask the store every two seconds, a
script run each time (a quarter of a core for 100 students doing nothing). Now the pages listen:
each page opens an event stream (the app's route, :mod:`irlab.ui.classroom.feed`) that follows one
class through this process's :class:`ClassWatcher`, and the page reruns only when its class changed.
The watcher is the only thing that asks the store, and it asks once for all the classes followed
through this process:

* **SQLite** (one machine): every :data:`TICK_SECONDS` it reads ``PRAGMA data_version`` on a
  connection of its own, which changes when any other connection committed (this replica's or
  another's); only then does it read the pulses (:mod:`irlab.classroom.pulse`).
* **PostgreSQL** (several machines): it ``LISTEN``\\ s on :data:`irlab.classroom.rows.CHANNEL`, which
  every change of a class notifies with the class's code when it commits, and reads the pulses of the
  classes named.

Either way it also reads every followed class's pulse every :data:`REFRESH_SECONDS` (a notification
lost while the connection was down), when a class is first followed, when a round's timer runs out
(the views show it closed at once) and, :data:`~irlab.classroom.rows.TIMER_GRACE` later, it writes the
round closed (:meth:`~irlab.classroom.ClassStore.close_due`: every replica may; the first one does it).
A listener is told only when its class's pulse changed, and a student's page only when its side of it
did (a classmate's answer wakes the projector, not 500 phones). It also says how many students follow
each class through this replica (:mod:`irlab.classroom.presence`), so the lecturer sees who does not.

When the store fails, the listeners are told once (``trouble``: one line) and the watcher tries
again, a little later each time; the error goes to the log once a minute (:mod:`irlab.classroom.logbook`).
Listeners are called on the watcher's thread and must return quickly (the event stream hands the
update to its event loop).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import socket
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError

from irlab.classroom import presence
from irlab.classroom.logbook import first_line, store_error
from irlab.classroom.pulse import Pulse
from irlab.classroom.rows import CHANNEL, TIMER_GRACE
from irlab.classroom.store import ClassStore

TICK_SECONDS = 0.1
"""How often the SQLite watcher looks at the store's change counter (PostgreSQL wakes on its notifications)."""
COALESCE_SECONDS = 0.05
"""After a notification, how long the PostgreSQL watcher gathers more before it reads (a class of 500 answering)."""
REFRESH_SECONDS = 5.0
"""Every followed class's pulse is read this often even when nothing was noticed."""
PRESENCE_SECONDS = 10.0
"""How often a replica repeats who follows through it (sooner, at most every 2 s, when it changed)."""
RETRY_SECONDS = (0.5, 1.0, 2.0, 5.0)
"""Waits before the watcher tries a failing store again (the last one repeats)."""


@dataclass(frozen=True)
class Update:
    """What a listener is told: the class's pulse, or that the class is gone (``pulse`` None, ``trouble`` None), or
    that the store is not answering (``trouble``: one line for the page; ``pulse`` the last one known)."""

    pulse: Pulse | None
    trouble: str | None = None


Listener = Callable[[Update], None]


@dataclass(eq=False)
class _Follower:
    listener: Listener
    seat: int | None  # the student's number; None for the lecturer's projector


@dataclass
class _Class:
    followers: list[_Follower] = field(default_factory=list)
    pulse: Pulse | None = None
    told: bool = False


def replica_name() -> str:
    """This process's name in the presence table: host, process id and a few random characters."""
    return f"{socket.gethostname()[:20]}-{os.getpid()}-{secrets.token_hex(3)}"[:40]


class ClassWatcher:
    """This process's watcher of ``store`` (see the module's text); :meth:`start` it once, then :meth:`follow`."""

    def __init__(self, store: ClassStore, *, replica: str | None = None, tick: float = TICK_SECONDS,
                 refresh: float = REFRESH_SECONDS) -> None:
        self.store, self.replica, self.tick, self.refresh = store, replica or replica_name(), tick, refresh
        self._classes: dict[str, _Class] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self._trouble: str | None = None
        self._closing: dict[str, float] = {}  # code -> the timer's end already written closed
        self._published: tuple[dict[int, int], float] = ({}, -1e9)

    # --- following ---------------------------------------------------------------------------------------------------

    def follow(self, code: str, listener: Listener, *, seat: int | None = None) -> Callable[[], None]:
        """Tell ``listener`` about class ``code`` from now on (first its pulse as it is now); returns the function
        that stops it. ``seat``: the student's number (their page counts as following), None for a projector."""
        follower = _Follower(listener, seat)
        with self._lock:
            watched = self._classes.setdefault(code, _Class())
            watched.followers.append(follower)
            told, known, trouble = watched.told, watched.pulse, self._trouble
        if told or trouble is not None:
            listener(Update(known, trouble))
        self._wake.set()  # read the new class's pulse (and say who follows) now

        def unfollow() -> None:
            with self._lock:
                current = self._classes.get(code)
                if current is not None and follower in current.followers:
                    current.followers.remove(follower)
                    if not current.followers:
                        del self._classes[code]
            self._wake.set()

        return unfollow

    def following(self) -> dict[str, int]:
        """Code -> how many pages follow it through this process (the tests and the benchmark read this)."""
        with self._lock:
            return {code: len(c.followers) for code, c in self._classes.items()}

    # --- the thread -------------------------------------------------------------------------------------------------

    def start(self) -> ClassWatcher:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="irlab-class-watcher", daemon=True)
            self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)
        with contextlib.suppress(SQLAlchemyError, OSError):
            presence.publish(self.store.engine, self.replica, {}, self.store.clock())

    def _run(self) -> None:
        failures = 0
        source: _Changes | None = None
        last_read = -1e9  # time.monotonic() of the last full read (the store's clock is for timers only)
        while not self._stop.is_set():
            try:
                if source is None:
                    source = _changes_of(self.store)
                    last_read = -1e9  # everything again: notifications may have been missed
                changed = source.wait(self._timeout())
                if self._stop.is_set():
                    break
                now, tick = self.store.clock(), time.monotonic()
                full = changed is ALL or tick - last_read >= self.refresh
                self._read(changed, now, full=full)
                if full:
                    last_read = tick
                self._close_due(now)
                self._publish(now, tick)
                failures = 0
                self._clear_trouble()
            except (SQLAlchemyError, OSError, sqlite3.Error) as error:
                store_error(error, "the class watcher")
                self._tell_trouble("The class store is not answering; trying again.")
                if source is not None:
                    with contextlib.suppress(Exception):
                        source.close()
                source = None
                self._stop.wait(RETRY_SECONDS[min(failures, len(RETRY_SECONDS) - 1)])
                failures += 1
            except Exception as error:  # noqa: BLE001 - the watcher must outlive anything, and say it
                store_error(error, "the class watcher (unexpected)")
                self._stop.wait(RETRY_SECONDS[-1])
        if source is not None:
            source.close()

    def _timeout(self) -> float:
        """How long to wait for a change: a tick, or less when a round's timer ends sooner."""
        if self._wake.is_set():
            self._wake.clear()
            return 0.0
        now = self.store.clock()
        wait = self.tick
        with self._lock:
            for watched in self._classes.values():
                current = watched.pulse.round if watched.pulse is not None else None
                if current is not None and current.state == "open" and current.closes_at is not None:
                    wait = min(wait, max(0.0, current.closes_at - now))
                elif current is not None and current.closes_at is not None and current.state == "closed" \
                        and self._closing.get(watched.pulse.code) != current.closes_at:
                    wait = min(wait, max(0.0, current.closes_at + TIMER_GRACE - now))
        return wait

    def _read(self, changed: object, now: float, *, full: bool) -> None:
        with self._lock:
            codes = [code for code, watched in self._classes.items()
                     if full or changed is ALL or not watched.told or code in changed  # type: ignore[operator]
                     or _timer_due(watched.pulse, now)]
        if not codes:
            return
        pulses = self.store.pulses(codes)
        tell: list[tuple[list[_Follower], Update]] = []
        with self._lock:
            for code in codes:
                watched = self._classes.get(code)
                if watched is None:
                    continue
                pulse = pulses.get(code)
                if watched.told and pulse == watched.pulse:
                    continue
                before, watched.pulse, was_told = watched.pulse, pulse, watched.told
                watched.told = True
                students_too = not was_told or _student_side(before) != _student_side(pulse)
                # a classmate's answer changes only the projector's side: 500 phones are not woken for it
                tell.append(([f for f in watched.followers if students_too or f.seat is None], Update(pulse)))
        for followers, update in tell:
            for follower in followers:
                follower.listener(update)

    def _close_due(self, now: float) -> None:
        """Write closed the rounds whose timer ran out more than the grace ago (once per timer per replica)."""
        with self._lock:
            due = [(code, w.pulse.round.closes_at) for code, w in self._classes.items()
                   if w.pulse is not None and w.pulse.round is not None and w.pulse.round.closes_at is not None
                   and w.pulse.round.state == "closed" and now >= w.pulse.round.closes_at + TIMER_GRACE
                   and self._closing.get(code) != w.pulse.round.closes_at]
        for code, ends in due:
            self.store.close_due(code)
            self._closing[code] = ends

    def _publish(self, now: float, tick: float) -> None:
        """Say who follows each class through this replica: when it changed (at most every 2 s), else every 10 s
        (``tick``: monotonic seconds; ``now``: the store's clock, written with the counts)."""
        with self._lock:
            counts = {w.pulse.class_id: len({f.seat for f in w.followers if f.seat is not None})
                      for w in self._classes.values() if w.pulse is not None}
        last, at = self._published
        if (counts == last and tick - at < PRESENCE_SECONDS) or (counts != last and tick - at < 2.0) \
                or (not counts and not last):
            return
        presence.publish(self.store.engine, self.replica, counts, now)
        self._published = (counts, tick)

    def _tell_trouble(self, trouble: str) -> None:
        with self._lock:
            if self._trouble == trouble:
                return
            self._trouble = trouble
            tell = [(list(w.followers), Update(w.pulse, trouble)) for w in self._classes.values()]
        for followers, update in tell:
            for follower in followers:
                follower.listener(update)

    def _clear_trouble(self) -> None:
        with self._lock:
            if self._trouble is None:
                return
            self._trouble = None
            tell = [(list(w.followers), Update(w.pulse)) for w in self._classes.values() if w.told]
        for followers, update in tell:
            for follower in followers:
                follower.listener(update)


def _student_side(pulse: Pulse | None) -> dict | None:
    """What a student's page is told of ``pulse`` (None: the class is gone)."""
    return None if pulse is None else pulse.student_message()


def _timer_due(pulse: Pulse | None, now: float) -> bool:
    """Whether the round's timer ran out since the pulse was read (it still said open)."""
    current = pulse.round if pulse is not None else None
    return (current is not None and current.state == "open" and current.closes_at is not None
            and now >= current.closes_at)


# --- noticing changes -----------------------------------------------------------------------------------------------

ALL = object()
"""A change somewhere in the store (SQLite cannot say which class)."""


class _Changes:
    def wait(self, timeout: float) -> object:
        """Wait up to ``timeout`` s; :data:`ALL`, the set of codes notified, or an empty set."""
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError


class _SqliteChanges(_Changes):
    """``PRAGMA data_version`` on a connection of the watcher's own: it changes when another connection commits."""

    def __init__(self, path: str) -> None:
        self.connection = sqlite3.connect(path, timeout=5, isolation_level=None, check_same_thread=False)
        self.version = self._version()

    def _version(self) -> int:
        return self.connection.execute("PRAGMA data_version").fetchone()[0]

    def wait(self, timeout: float) -> object:
        if timeout > 0:
            time.sleep(timeout)
        version = self._version()
        if version == self.version:
            return set()
        self.version = version
        return ALL

    def close(self) -> None:
        self.connection.close()


class _PostgresChanges(_Changes):
    """``LISTEN`` on the classes' channel, on a connection of the watcher's own."""

    def __init__(self, url: str) -> None:
        import psycopg

        conninfo = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
        self.connection = psycopg.connect(conninfo, autocommit=True, connect_timeout=5)
        self.connection.execute(f"LISTEN {CHANNEL}")

    def wait(self, timeout: float) -> object:
        import psycopg

        try:
            first = list(self.connection.notifies(timeout=timeout, stop_after=1)) if timeout > 0 else []
            more = list(self.connection.notifies(timeout=COALESCE_SECONDS if first else 0.001))
        except psycopg.Error as error:
            raise OSError(first_line(error)) from error
        return {note.payload for note in first + more}

    def close(self) -> None:
        self.connection.close()


def _changes_of(store: ClassStore) -> _Changes:
    url = store.engine.url
    if url.get_backend_name() == "sqlite":
        return _SqliteChanges(url.database)
    return _PostgresChanges(url.render_as_string(hide_password=False))
