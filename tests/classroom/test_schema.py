"""The store's schema: created at the current version, upgraded by ordered migrations, never downgraded."""

from __future__ import annotations

import pytest
from sqlalchemy import inspect, select, text

from irlab.classroom.database import engine_for, reading, writing
from irlab.classroom.schema import (
    SCHEMA_VERSION,
    Migration,
    ensure_schema,
    forget_schema,
    metadata,
    migrate,
    schema_table,
)
from irlab.errors import ValidationError


def versions(engine) -> list[int]:
    with reading(engine) as connection:
        return list(connection.execute(select(schema_table.c.version)).scalars())


def test_a_new_store_has_every_table_at_the_current_version(database_url):
    engine = engine_for(database_url)
    assert migrate(engine) == SCHEMA_VERSION
    assert set(metadata.tables) <= set(inspect(engine).get_table_names())
    assert migrate(engine) == SCHEMA_VERSION and versions(engine) == [SCHEMA_VERSION]  # twice: nothing changes


def test_migrations_run_in_order_once(database_url):
    engine = engine_for(database_url)
    migrate(engine, (), latest=1)
    applied = []

    def add_notes(connection):
        applied.append(2)
        connection.execute(text("CREATE TABLE class_notes (id INTEGER PRIMARY KEY, note TEXT)"))

    def add_index(connection):
        applied.append(3)
        connection.execute(text("CREATE INDEX class_notes_note ON class_notes (note)"))

    later = (Migration(3, "index the notes", add_index), Migration(2, "notes", add_notes))
    assert migrate(engine, later, latest=3) == 3
    assert migrate(engine, later, latest=3) == 3
    assert applied == [2, 3] and versions(engine) == [3]
    assert "class_notes" in inspect(engine).get_table_names()


def test_a_store_newer_than_this_code_is_refused(database_url):
    engine = engine_for(database_url)
    migrate(engine)
    with writing(engine) as connection:
        connection.execute(schema_table.update().values(version=SCHEMA_VERSION + 1))
    with pytest.raises(ValidationError, match="newer than this IR Lab knows"):
        migrate(engine)
    forget_schema(engine)
    with pytest.raises(ValidationError):
        ensure_schema(engine)


V2_COLUMNS = {"irlab_class_schema": "store_id", "classes": ("joining_locked", "timer_seconds"),
              "activities": "live_results", "rounds": "closes_at", "answers": "send_id"}


def test_a_version_1_store_is_upgraded_with_its_classes_kept(database_url):
    """A store made by the first release (no store id, timers, locking, live results, send ids or presence) gets
    them, and its classes stay as they were."""
    engine = engine_for(database_url)
    migrate(engine)
    with writing(engine) as connection:  # back to version 1's shape
        connection.execute(text("DROP TABLE presence"))
        for table, columns in V2_COLUMNS.items():
            for column in (columns,) if isinstance(columns, str) else columns:
                connection.execute(text(f"ALTER TABLE {table} DROP COLUMN {column}"))
        connection.execute(text("UPDATE irlab_class_schema SET version = 1"))
        connection.execute(text("INSERT INTO classes (code, key_hash, show_names, student_version, projector_version, "
                                "created_at, last_activity_at) VALUES ('ABCDEF', 'h', false, 3, 4, 1.0, 2.0)"))
    forget_schema(engine)
    assert migrate(engine) == SCHEMA_VERSION == 2
    with reading(engine) as connection:
        row = connection.execute(text("SELECT code, student_version, joining_locked, timer_seconds FROM classes")).one()
        store = connection.execute(select(schema_table.c.store_id)).scalar_one()
    assert tuple(row) == ("ABCDEF", 3, False, None) and len(store) == 8
    assert "presence" in inspect(engine).get_table_names()
    assert ensure_schema(engine) == store
