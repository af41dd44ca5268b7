"""The class store's tables, and the schema version the app creates and upgrades itself.

========================  ========================================================================
table                     one row per
========================  ========================================================================
``irlab_class_schema``    the store: the schema version of its tables and the store's id (one row)
``classes``               class: join code, the lecturer key's hash, ``show_names``, the activity
                          shown now, two version counters (:class:`irlab.classroom.records.Versions`),
                          whether joining is locked, the timer of the rounds it opens, when anything
                          last happened
``students``              student who joined: number in the class (the anonymous id), the token's
                          hash, nickname
``activities``            activity of a class, in the lecturer's order: kind and settings (JSON),
                          whether the projector shows the answers before the reveal
``rounds``                round of an activity (1, 2, ... : vote, revote): open, closed or revealed,
                          and when its timer closes it
``answers``               student and round (one answer per student per round; a new one replaces
                          the old): text as typed, parsed value (JSON), the verdict, the id the
                          phone gave the send that stored it
``rate_limit_events``     failed join, join or started class (rate limits across replicas): scope,
                          hashed subject, time
``presence``              replica and class: how many of the class's students follow it live through
                          that replica (:mod:`irlab.classroom.presence`), and when it said so
========================  ========================================================================

Times are seconds since the epoch (UTC) as floating point numbers: the same on every database and
cheap to compare. Secrets are stored as SHA-256 hashes only.

**The store's id.** A store gets a random id when it is created (:func:`store_id`): links carry it, so
a replica that opens another store than the one a class was started in says so, instead of "no such
class" (replicas that should share one store but do not).

**Versions.** A new store is created at :data:`SCHEMA_VERSION` and stamped with it. A store at
an older version is brought up by :data:`MIGRATIONS`, in order, each in the same transaction as
its new version number; a store at a newer version than this code knows is refused (an old
replica must not write to a newer schema). Creating or upgrading is safe from several processes
at once: on SQLite the transaction starts with ``BEGIN IMMEDIATE`` (one writer at a time), on
PostgreSQL it first takes a transaction-level advisory lock; the second process then finds the
work done. Each process checks a URL once (:func:`ensure_schema`).

**Changing the tables.** Edit the tables below (so a new store is created in the new shape), add
a migration that brings a store of the previous version to it, and raise
:data:`SCHEMA_VERSION`.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
    func,
    select,
    text,
)

from irlab.classroom.database import is_sqlite, writing
from irlab.errors import ValidationError

SCHEMA_VERSION = 2
"""The schema version this code creates and writes."""

CODE_LENGTH = 6
HASH_LENGTH = 64  # a SHA-256 as hex
NICKNAME_LENGTH = 40
ANSWER_TEXT_LENGTH = 100
KIND_LENGTH = 32
STATE_LENGTH = 12
SCOPE_LENGTH = 16
MISTAKE_LENGTH = 64
SEND_ID_LENGTH = 40
REPLICA_LENGTH = 40
STORE_ID_LENGTH = 16

metadata = MetaData()

schema_table = Table(
    "irlab_class_schema", metadata,
    Column("version", Integer, nullable=False),
    Column("store_id", String(STORE_ID_LENGTH), nullable=True),  # version 2
)

classes = Table(
    "classes", metadata,
    Column("id", Integer, primary_key=True),
    Column("code", String(CODE_LENGTH), nullable=False, unique=True),
    Column("key_hash", String(HASH_LENGTH), nullable=False),
    Column("show_names", Boolean, nullable=False, default=False),
    Column("current_activity_id", Integer, nullable=True),  # no foreign key: activities point here already
    Column("student_version", Integer, nullable=False, default=1),  # what a student's view shows changed
    Column("projector_version", Integer, nullable=False, default=1),  # anything else the projector shows changed
    Column("joining_locked", Boolean, nullable=False, default=False, server_default=false()),  # version 2
    Column("timer_seconds", Integer, nullable=True),  # version 2: the timer of the rounds it opens (None: no timer)
    Column("created_at", Float, nullable=False),
    Column("last_activity_at", Float, nullable=False, index=True),
)

students = Table(
    "students", metadata,
    Column("id", Integer, primary_key=True),
    Column("class_id", Integer, ForeignKey("classes.id", ondelete="CASCADE"), nullable=False),
    Column("number", Integer, nullable=False),
    Column("token_hash", String(HASH_LENGTH), nullable=False, unique=True),
    Column("nickname", String(NICKNAME_LENGTH), nullable=True),
    Column("joined_at", Float, nullable=False),
    UniqueConstraint("class_id", "number"),
)

activities = Table(
    "activities", metadata,
    Column("id", Integer, primary_key=True),
    Column("class_id", Integer, ForeignKey("classes.id", ondelete="CASCADE"), nullable=False),
    Column("position", Integer, nullable=False),
    Column("kind", String(KIND_LENGTH), nullable=False),
    Column("settings", Text, nullable=False),
    Column("live_results", Boolean, nullable=False, default=False, server_default=false()),  # version 2
    Column("created_at", Float, nullable=False),
    UniqueConstraint("class_id", "position"),
)

rounds = Table(
    "rounds", metadata,
    Column("id", Integer, primary_key=True),
    Column("activity_id", Integer, ForeignKey("activities.id", ondelete="CASCADE"), nullable=False),
    Column("number", Integer, nullable=False),
    Column("state", String(STATE_LENGTH), nullable=False),
    Column("opened_at", Float, nullable=False),
    Column("closed_at", Float, nullable=True),
    Column("revealed_at", Float, nullable=True),
    Column("closes_at", Float, nullable=True),  # version 2: the timer's end (None: no timer)
    UniqueConstraint("activity_id", "number"),
)

answers = Table(
    "answers", metadata,
    Column("id", Integer, primary_key=True),
    Column("round_id", Integer, ForeignKey("rounds.id", ondelete="CASCADE"), nullable=False),
    Column("student_id", Integer, ForeignKey("students.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("text", String(ANSWER_TEXT_LENGTH), nullable=False),
    Column("value", Text, nullable=False),  # the parsed answer as JSON (a number, a list of ids, ...)
    Column("correct", Boolean, nullable=True),  # None: the kind cannot say
    Column("mistake", String(MISTAKE_LENGTH), nullable=True),  # a named mistake's name
    Column("detail", Text, nullable=True),  # the kind's own verdict detail as JSON
    Column("first_at", Float, nullable=False),
    Column("answered_at", Float, nullable=False),
    Column("revisions", Integer, nullable=False, default=0),  # how often the student changed it
    Column("send_id", String(SEND_ID_LENGTH), nullable=True),  # version 2: the send that stored it (the phone's id)
    UniqueConstraint("round_id", "student_id"),
)

rate_events = Table(
    "rate_limit_events", metadata,
    Column("id", Integer, primary_key=True),
    Column("scope", String(SCOPE_LENGTH), nullable=False),
    Column("subject", String(HASH_LENGTH), nullable=False),
    Column("at", Float, nullable=False, index=True),
    Index("rate_limit_events_subject", "scope", "subject", "at"),
)

presence = Table(  # version 2
    "presence", metadata,
    Column("replica", String(REPLICA_LENGTH), primary_key=True),
    Column("class_id", Integer, ForeignKey("classes.id", ondelete="CASCADE"), primary_key=True),
    Column("students", Integer, nullable=False),
    Column("updated_at", Float, nullable=False),
)


@dataclass(frozen=True)
class Migration:
    """Brings a store from ``version - 1`` to ``version``."""

    version: int
    description: str
    apply: Callable[[Connection], None]


def new_store_id() -> str:
    """A random id for a new store: 8 hex digits (links carry it; a clash of two stores is one in four billion)."""
    return secrets.token_hex(4)


def _version_2(connection: Connection) -> None:
    """The live class's third part (issue 34): the store's id, the timer, locking, live results, the send id of an
    answer, and who follows a class through which replica."""
    false_ = "0" if connection.dialect.name == "sqlite" else "false"
    for statement in (
            f"ALTER TABLE irlab_class_schema ADD COLUMN store_id VARCHAR({STORE_ID_LENGTH})",
            f"ALTER TABLE classes ADD COLUMN joining_locked BOOLEAN NOT NULL DEFAULT {false_}",
            "ALTER TABLE classes ADD COLUMN timer_seconds INTEGER",
            f"ALTER TABLE activities ADD COLUMN live_results BOOLEAN NOT NULL DEFAULT {false_}",
            "ALTER TABLE rounds ADD COLUMN closes_at FLOAT",
            f"ALTER TABLE answers ADD COLUMN send_id VARCHAR({SEND_ID_LENGTH})"):
        connection.execute(text(statement))
    connection.execute(text("UPDATE irlab_class_schema SET store_id = :id"), {"id": new_store_id()})
    presence.create(connection, checkfirst=True)


MIGRATIONS: tuple[Migration, ...] = (
    Migration(2, "the store's id, timers, locked joining, live results, send ids, presence", _version_2),
)
"""Every migration after version 1, in order."""

_ADVISORY_LOCK = 0x1A1AB_C1A55
"""PostgreSQL advisory lock key held while the schema is created or upgraded."""

_READY: dict[str, str] = {}
"""URL -> the store's id, for every store this process has checked."""
_READY_LOCK = threading.Lock()


def ensure_schema(engine: Engine, migrations: Sequence[Migration] = MIGRATIONS,
                  latest: int = SCHEMA_VERSION) -> str:
    """Create or upgrade the store behind ``engine`` (once per URL and process); the store's id."""
    key = engine.url.render_as_string(hide_password=False)
    with _READY_LOCK:
        if key in _READY:
            return _READY[key]
    migrate(engine, migrations, latest)
    found = store_id(engine)
    with _READY_LOCK:
        _READY[key] = found
    return found


def forget_schema(engine: Engine) -> None:
    """Check the store's schema again on the next :func:`ensure_schema` (tests)."""
    with _READY_LOCK:
        _READY.pop(engine.url.render_as_string(hide_password=False), None)


def store_id(engine: Engine) -> str:
    """The id the store was given when it was created (or upgraded to version 2)."""
    with engine.connect() as connection:
        found = connection.execute(select(schema_table.c.store_id)).scalar()
    return found or ""


def migrate(engine: Engine, migrations: Sequence[Migration] = MIGRATIONS, latest: int = SCHEMA_VERSION) -> int:
    """Create the tables at ``latest`` or apply the migrations the store lacks; the store's version after it."""
    with writing(engine) as connection:
        if not is_sqlite(engine):
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _ADVISORY_LOCK})
        schema_table.create(connection, checkfirst=True)
        version = connection.execute(select(func.max(schema_table.c.version))).scalar()
        if version is None:
            metadata.create_all(connection, checkfirst=True)
            connection.execute(schema_table.insert().values(version=latest, store_id=new_store_id()))
            return latest
        if version > latest:
            raise ValidationError(f"the class store's schema is version {version}, newer than this IR Lab knows "
                                  f"({latest}); update IR Lab on every replica")
        for migration in sorted(migrations, key=lambda m: m.version):
            if version < migration.version <= latest:
                migration.apply(connection)
                connection.execute(schema_table.update().values(version=migration.version))
                version = migration.version
        return version
