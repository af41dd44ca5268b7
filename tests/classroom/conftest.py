"""Fixtures of the class store's tests: a store on a fresh SQLite file, and on a throwaway PostgreSQL server.

``store`` runs a test once on SQLite and once on PostgreSQL (the same tests on both databases).
The PostgreSQL server is Debian's (``/usr/lib/postgresql/<version>/bin``), started once per
test session in a temporary folder on a free port, listening on 127.0.0.1 only, with trust
authentication for the user ``irlab``; each test gets a database of its own. PostgreSQL refuses
to run as root, so as root the server runs as the ``postgres`` user (``runuser``). Without the
binaries the PostgreSQL runs are skipped with the reason, except under ``CI=true``, where they
fail (CI installs ``postgresql``).
"""

from __future__ import annotations

import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from irlab.classroom import ClassStore
from irlab.classroom.database import forget_engine

PG_ROOT = Path("/usr/lib/postgresql")
PG_USER = "irlab"


class Clock:
    """A clock the test moves by hand (seconds since the epoch)."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def pg_bin() -> Path | None:
    """The newest PostgreSQL's bin folder, or None."""
    found = sorted(PG_ROOT.glob("*/bin/initdb"), key=lambda p: int(p.parent.parent.name) if
                   p.parent.parent.name.isdigit() else 0)
    return found[-1].parent if found else None


def need_postgres() -> Path:
    """PostgreSQL's bin folder; skip the test without it (fail under CI=true)."""
    folder = pg_bin()
    if folder is not None:
        return folder
    reason = (f"PostgreSQL's server binaries are not in {PG_ROOT}/*/bin; "
              "install them with `apt-get install -y postgresql`")
    if os.environ.get("CI", "").lower() in ("1", "true"):
        pytest.fail(reason)
    pytest.skip(reason)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _as_server_user(command: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """A throwaway PostgreSQL server: the URL of its server (without a database name)."""
    folder = need_postgres()
    data = Path(tempfile.mkdtemp(prefix="irlab-pg-"))
    if os.geteuid() == 0:
        shutil.chown(data, "postgres", "postgres")
    port = free_port()
    run = {"check": True, "capture_output": True, "text": True}
    subprocess.run(_as_server_user([str(folder / "initdb"), "-D", str(data / "db"), "-A", "trust", "-U", PG_USER,
                                    "--no-sync"]), **run)
    options = f"-p {port} -k {data} -c listen_addresses=127.0.0.1 -c fsync=off"
    subprocess.run(_as_server_user([str(folder / "pg_ctl"), "-D", str(data / "db"), "-o", options,
                                    "-l", str(data / "server.log"), "-w", "start"]), **run)
    try:
        yield f"postgresql+psycopg://{PG_USER}@127.0.0.1:{port}"
    finally:
        subprocess.run(_as_server_user([str(folder / "pg_ctl"), "-D", str(data / "db"), "-m", "immediate", "stop"]),
                       capture_output=True)
        shutil.rmtree(data, ignore_errors=True)


_DATABASES = itertools.count(1)


@pytest.fixture
def postgres_url(postgres_server: str) -> Iterator[str]:
    """A new, empty database on the throwaway server."""
    name = f"irlab_test_{os.getpid()}_{next(_DATABASES)}"
    admin = create_engine(f"{postgres_server}/postgres", isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    url = f"{postgres_server}/{name}"
    try:
        yield url
    finally:
        forget_engine(url)
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture
def sqlite_url(tmp_path: Path) -> Iterator[str]:
    """A SQLite file in the test's own folder."""
    url = f"sqlite:///{tmp_path / 'classes.sqlite'}"
    yield url
    forget_engine(url)


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest) -> str:
    """The URL of an empty store: once on SQLite, once on PostgreSQL."""
    return request.getfixturevalue("sqlite_url" if request.param == "sqlite" else "postgres_url")


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def store(database_url: str, clock: Clock) -> ClassStore:
    """A store on an empty database (both backends), with a clock the test moves."""
    return ClassStore(database_url, retention_hours=24, clock=clock)
