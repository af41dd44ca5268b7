"""Fixtures of the shared task's tests: a task store on SQLite and on PostgreSQL (the class store's fixtures),
a clock the test moves, and a small hidden collection with a few students' runs."""

from __future__ import annotations

import pytest

from irlab.classroom.database import forget_engine
from irlab.runs.simulate import simulate
from irlab.sharedtask.store import TaskStore
from tests.classroom import conftest as classroom

# the class store's fixtures, shared: a clock, and each test on SQLite and on PostgreSQL
Clock, clock, database_url = classroom.Clock, classroom.clock, classroom.database_url
postgres_server, postgres_url, sqlite_url = classroom.postgres_server, classroom.postgres_url, classroom.sqlite_url

DAY = 86_400.0


@pytest.fixture
def tasks(database_url: str, clock: Clock) -> TaskStore:
    store = TaskStore(database_url, clock=clock)
    yield store
    forget_engine(database_url)


@pytest.fixture(scope="session")
def collection():
    """A hidden qrels and five systems' runs (20 topics, 50 documents each)."""
    found = simulate(topics=20, systems={f"s{i}": q for i, q in enumerate((1.0, 0.8, 0.6, 0.4, 0.2))}, depth=50,
                     seed=11)
    qrels = ("\n".join(found.qrels_lines()) + "\n").encode()
    runs = {name: ("\n".join(found.run_lines(name)) + "\n").encode() for name in found.runs}
    return qrels, runs


def settings(clock: Clock, **changes) -> dict:
    base = {"title": "Mini TREC", "measures": ["AP", "nDCG@10", "P@10"], "deadline": clock.now + 7 * DAY,
            "roster": ["ann", "bob", "cy"], "max_submissions": 3}
    return base | changes
