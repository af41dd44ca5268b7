"""Connections to the class store: one SQLAlchemy engine per URL per process, and its transactions.

Every replica of the app opens the same database; nothing about a class is kept in a process.
An engine is a pool of connections (a process resource, not class state), made once per URL
and process by :func:`engine_for`.

SQLite (one machine, several processes): every connection turns on foreign keys (so deleting a
class deletes its students, activities and answers), WAL mode (readers never wait for the one
writer), ``synchronous=NORMAL`` (safe with WAL: a crash of the app loses nothing committed) and
a busy timeout (a writer waits up to :data:`BUSY_TIMEOUT_SECONDS` for another instead of
failing). A write transaction starts with ``BEGIN IMMEDIATE``: it takes the write lock first,
so two processes that read and then write never deadlock (a deferred transaction that reads
first fails with "database is locked" when it later tries to write while another holds the lock,
whatever the busy timeout). Reads start with ``BEGIN`` (deferred): one consistent snapshot.

PostgreSQL (several machines): the default isolation (read committed); a connection checked out
of the pool is pinged first, so a restarted server costs a retry, not an error. Writes to one
class serialise on the class's row (see :mod:`irlab.classroom.store`).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import make_url

BUSY_TIMEOUT_SECONDS = 15.0
"""How long a SQLite writer waits for another process's write to finish (a write takes about a millisecond)."""

_WRITE = "irlab_write"
"""The execution option that marks a write transaction (``BEGIN IMMEDIATE`` on SQLite)."""

_ENGINES: dict[str, Engine] = {}
_ENGINES_LOCK = threading.Lock()


def engine_for(url: str) -> Engine:
    """The engine of ``url`` in this process, made on first use.

    ``url`` is checked first (:func:`irlab.classroom.settings.check_url`).
    """
    with _ENGINES_LOCK:
        engine = _ENGINES.get(url)
        if engine is None:
            engine = _ENGINES[url] = _make_engine(url)
        return engine


def forget_engine(url: str) -> None:
    """Close the pooled connections of ``url`` in this process (tests drop their databases after this)."""
    with _ENGINES_LOCK:
        engine = _ENGINES.pop(url, None)
    if engine is not None:
        engine.dispose()


def is_sqlite(engine: Engine) -> bool:
    """Whether ``engine`` talks to SQLite."""
    return engine.dialect.name == "sqlite"


def _make_engine(url: str) -> Engine:
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return create_engine(url, pool_pre_ping=True, pool_size=5, max_overflow=10)
    Path(parsed.database).parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    engine = create_engine(url, connect_args={"timeout": BUSY_TIMEOUT_SECONDS})

    @event.listens_for(engine, "connect")
    def _configure(dbapi_connection, _record) -> None:
        dbapi_connection.isolation_level = None  # the driver's own BEGIN is replaced by _begin below
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_SECONDS * 1000)}")
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA synchronous = NORMAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection: Connection) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE" if connection.get_execution_options().get(_WRITE) else "BEGIN")

    return engine


@contextmanager
def writing(engine: Engine) -> Iterator[Connection]:
    """A write transaction: committed when the block ends, rolled back when it raises."""
    with engine.connect() as connection:
        connection.execution_options(**{_WRITE: True})
        with connection.begin():
            yield connection


@contextmanager
def reading(engine: Engine) -> Iterator[Connection]:
    """A read-only transaction: one consistent snapshot of the store."""
    with engine.connect() as connection, connection.begin():
        yield connection
