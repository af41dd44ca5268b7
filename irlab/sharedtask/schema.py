"""The shared tasks' tables, in the class store's database, with a schema version of their own.

=========================  ===========================================================================
table                      one row per
=========================  ===========================================================================
``irlab_task_schema``      the tables' schema version (one row)
``shared_tasks``           task: code, the lecturer key's hash, its settings (JSON), the hidden qrels
                           (gzip), the deadline, what is released, a version counter, when it goes
``task_participants``      student (or the lecturer's baseline): number, the token's hash, the roster
                           name (the lecturer's eyes only), the nickname shown on the leaderboard
``task_submissions``       submitted run: its number for the student, state, digest, means and
                           per-topic values (numpy bytes), the public findings, the kept top documents
``task_pools``             task whose pool the class judges: depth, judges per document, the seed of
                           the shares, the pooled documents' texts (gzip JSON, optional)
``task_judgments``         student and pooled document: the grade they gave
=========================  ===========================================================================

Rate limits use the class store's ``rate_limit_events`` (:mod:`irlab.classroom.ratelimit`): the class's
tables are created first (:class:`irlab.classroom.ClassStore`). These tables evolve on their own
version (:data:`SCHEMA_VERSION`, created by :func:`ensure_task_schema` under the same lock rules as the
class's: ``BEGIN IMMEDIATE`` on SQLite, an advisory lock on PostgreSQL), so the two never wait for each
other's migrations. Secrets are kept as SHA-256 hashes only.
"""

from __future__ import annotations

import threading

from sqlalchemy import (
    Boolean,
    Column,
    Engine,
    Float,
    ForeignKey,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    func,
    inspect,
    select,
    text,
)

from irlab.classroom.database import is_sqlite, writing
from irlab.errors import ValidationError

SCHEMA_VERSION = 3
"""1: tasks, participants, submissions; 2: the class judges the pool (task_pools, task_judgments); 3: each
submission keeps its intervals and p-values once computed (``stats``)."""
CODE_LENGTH = 6
HASH_LENGTH = 64
NAME_LENGTH = 80
STATE_LENGTH = 12

metadata = MetaData()

task_schema = Table("irlab_task_schema", metadata, Column("version", Integer, nullable=False))

tasks = Table(
    "shared_tasks", metadata,
    Column("id", Integer, primary_key=True),
    Column("code", String(CODE_LENGTH), nullable=False, unique=True),
    Column("key_hash", String(HASH_LENGTH), nullable=False),
    Column("settings", Text, nullable=False),  # JSON: title, measures, limits, enrolment, topics' texts
    Column("qrels", LargeBinary, nullable=False),  # the hidden qrels file, gzip
    Column("deadline", Float, nullable=False),
    Column("released", Text, nullable=False),  # JSON list of what the lecturer released
    Column("version", Integer, nullable=False, default=1),  # anything a page shows changed
    Column("created_at", Float, nullable=False),
    Column("keep_until", Float, nullable=False, index=True),
)

participants = Table(
    "task_participants", metadata,
    Column("id", Integer, primary_key=True),
    Column("task_id", Integer, ForeignKey("shared_tasks.id", ondelete="CASCADE"), nullable=False),
    Column("number", Integer, nullable=False),
    Column("token_hash", String(HASH_LENGTH), nullable=False),
    Column("label", String(NAME_LENGTH), nullable=True),  # the roster's name: the lecturer sees it, nobody else
    Column("nickname", String(NAME_LENGTH), nullable=True),  # shown on the leaderboard (None: "Student n")
    Column("baseline", Boolean, nullable=False, default=False),
    Column("joined_at", Float, nullable=False),
    UniqueConstraint("task_id", "number"),
    UniqueConstraint("task_id", "token_hash"),
)

submissions = Table(
    "task_submissions", metadata,
    Column("id", Integer, primary_key=True),
    Column("task_id", Integer, ForeignKey("shared_tasks.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("participant_id", Integer, ForeignKey("task_participants.id", ondelete="CASCADE"), nullable=False),
    Column("number", Integer, nullable=False),
    Column("state", String(STATE_LENGTH), nullable=False),  # scoring (a slot held) or scored
    Column("name", String(NAME_LENGTH), nullable=False),
    Column("runid", String(NAME_LENGTH), nullable=True),
    Column("digest", String(HASH_LENGTH), nullable=True),
    Column("lines", Integer, nullable=True),
    Column("means", Text, nullable=True),  # JSON {measure: mean}
    Column("per_topic", LargeBinary, nullable=True),  # float64, measures x topics, in the task's order
    Column("findings", Text, nullable=True),  # JSON: the public findings
    Column("pool", LargeBinary, nullable=True),  # gzip "topic doc" lines: the top documents kept
    Column("pool_depth", Integer, nullable=True),
    Column("stats", Text, nullable=True),  # JSON: intervals and p-values against a baseline run, once computed
    Column("submitted_at", Float, nullable=False),
    UniqueConstraint("participant_id", "number"),
)

pools = Table(
    "task_pools", metadata,
    Column("task_id", Integer, ForeignKey("shared_tasks.id", ondelete="CASCADE"), primary_key=True),
    Column("depth", Integer, nullable=False),
    Column("overlap", Integer, nullable=False),
    Column("seed", Integer, nullable=False),
    Column("items", LargeBinary, nullable=False),  # gzip JSON [[topic, doc], ...]: the pool, in its order
    Column("texts", LargeBinary, nullable=True),  # gzip JSON {doc: text} of the pooled documents
    Column("opened_at", Float, nullable=False),
)

judgments = Table(
    "task_judgments", metadata,
    Column("id", Integer, primary_key=True),
    Column("task_id", Integer, ForeignKey("shared_tasks.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("participant_id", Integer, ForeignKey("task_participants.id", ondelete="CASCADE"), nullable=False),
    Column("topic", String(NAME_LENGTH), nullable=False),
    Column("doc", String(200), nullable=False),
    Column("grade", Integer, nullable=False),
    Column("judged_at", Float, nullable=False),
    UniqueConstraint("participant_id", "topic", "doc"),
)

_LOCK_KEY = 0x7A5C_5EED
_READY: set[str] = set()
_READY_LOCK = threading.Lock()


def ensure_task_schema(engine: Engine) -> None:
    """Create the task tables at :data:`SCHEMA_VERSION` (once per URL and process); a newer store is refused."""
    key = engine.url.render_as_string(hide_password=False)
    with _READY_LOCK:
        if key in _READY:
            return
    with writing(engine) as connection:
        if not is_sqlite(engine):
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _LOCK_KEY})
        task_schema.create(connection, checkfirst=True)
        version = connection.execute(select(func.max(task_schema.c.version))).scalar()
        if version is None:
            metadata.create_all(connection, checkfirst=True)
            connection.execute(task_schema.insert().values(version=SCHEMA_VERSION))
        elif version > SCHEMA_VERSION:
            raise ValidationError(f"the shared tasks' tables are version {version}, newer than this IR Lab knows "
                                  f"({SCHEMA_VERSION}); update IR Lab on every replica")
        elif version < SCHEMA_VERSION:
            metadata.create_all(connection, checkfirst=True)  # 1 -> 2: two new tables
            columns = {c["name"] for c in inspect(connection).get_columns("task_submissions")}
            if "stats" not in columns:  # 2 -> 3: a column of the submissions
                connection.execute(text("ALTER TABLE task_submissions ADD COLUMN stats TEXT"))
            connection.execute(task_schema.update().values(version=SCHEMA_VERSION))
    with _READY_LOCK:
        _READY.add(key)
