"""The class store's tables, and the schema version the app creates and upgrades itself.

========================  ========================================================================
table                     one row per
========================  ========================================================================
``irlab_class_schema``    the store: the schema version of its tables (one row)
``classes``               class: join code, the lecturer key's hash, ``show_names``, the activity
                          shown now, two version counters (:class:`irlab.classroom.records.Versions`),
                          when anything last happened
``students``              student who joined: number in the class (the anonymous id), the token's
                          hash, nickname
``activities``            activity of a class, in the lecturer's order: kind and settings (JSON)
``rounds``                round of an activity (1, 2, ... : vote, revote): open, closed or revealed
``answers``               student and round (one answer per student per round; a new one replaces
                          the old): text as typed, parsed value (JSON), the verdict
``rate_limit_events``     failed join or started class (rate limits across replicas): scope, hashed
                          subject, time
========================  ========================================================================

Times are seconds since the epoch (UTC) as floating point numbers: the same on every database and
cheap to compare. Secrets are stored as SHA-256 hashes only.

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
    func,
    select,
    text,
)

from irlab.classroom.database import is_sqlite, writing
from irlab.errors import ValidationError

SCHEMA_VERSION = 1
"""The schema version this code creates and writes."""

CODE_LENGTH = 6
HASH_LENGTH = 64  # a SHA-256 as hex
NICKNAME_LENGTH = 40
ANSWER_TEXT_LENGTH = 100
KIND_LENGTH = 32
STATE_LENGTH = 12
SCOPE_LENGTH = 16
MISTAKE_LENGTH = 64

metadata = MetaData()

schema_table = Table(
    "irlab_class_schema", metadata,
    Column("version", Integer, nullable=False),
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


@dataclass(frozen=True)
class Migration:
    """Brings a store from ``version - 1`` to ``version``."""

    version: int
    description: str
    apply: Callable[[Connection], None]


MIGRATIONS: tuple[Migration, ...] = ()
"""Every migration after version 1, in order (none yet: version 1 is the first schema)."""

_ADVISORY_LOCK = 0x1A1AB_C1A55
"""PostgreSQL advisory lock key held while the schema is created or upgraded."""

_READY: set[str] = set()
_READY_LOCK = threading.Lock()


def ensure_schema(engine: Engine, migrations: Sequence[Migration] = MIGRATIONS,
                  latest: int = SCHEMA_VERSION) -> None:
    """Create or upgrade the store behind ``engine`` (once per URL and process)."""
    key = engine.url.render_as_string(hide_password=False)
    with _READY_LOCK:
        if key in _READY:
            return
    migrate(engine, migrations, latest)
    with _READY_LOCK:
        _READY.add(key)


def forget_schema(engine: Engine) -> None:
    """Check the store's schema again on the next :func:`ensure_schema` (tests)."""
    with _READY_LOCK:
        _READY.discard(engine.url.render_as_string(hide_password=False))


def migrate(engine: Engine, migrations: Sequence[Migration] = MIGRATIONS, latest: int = SCHEMA_VERSION) -> int:
    """Create the tables at ``latest`` or apply the migrations the store lacks; the store's version after it."""
    with writing(engine) as connection:
        if not is_sqlite(engine):
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _ADVISORY_LOCK})
        schema_table.create(connection, checkfirst=True)
        version = connection.execute(select(func.max(schema_table.c.version))).scalar()
        if version is None:
            metadata.create_all(connection, checkfirst=True)
            connection.execute(schema_table.insert().values(version=latest))
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
