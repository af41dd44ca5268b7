"""Where the class store lives and how long it keeps a class: two environment variables.

==============================  ===================================================================
variable                        meaning
==============================  ===================================================================
``IRLAB_CLASS_DB``              a SQLAlchemy URL: ``sqlite:////srv/irlab/classes.sqlite`` (one
                                machine) or ``postgresql+psycopg://user:password@host/db``
                                (several machines; ``postgresql://`` means the same). Unset: one
                                SQLite file, ``$XDG_DATA_HOME/irlab/classes.sqlite``, else
                                ``~/.local/share/irlab/classes.sqlite``, which every replica
                                started by the same user on one machine shares.
``IRLAB_CLASS_RETENTION_HOURS`` hours a class is kept after its last activity (default 24).
==============================  ===================================================================

A wrong setting is a :class:`~irlab.errors.ValidationError` naming the variable (never the
password of a URL).

>>> database_url({"XDG_DATA_HOME": "/data"})
'sqlite:////data/irlab/classes.sqlite'
>>> database_url({"IRLAB_CLASS_DB": "postgresql://irlab@db.example.org/irlab"})
'postgresql+psycopg://irlab@db.example.org/irlab'
>>> retention_hours({}), retention_hours({"IRLAB_CLASS_RETENTION_HOURS": "1.5"})
(24.0, 1.5)
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from pathlib import Path

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from irlab.errors import ValidationError

DATABASE_VARIABLE = "IRLAB_CLASS_DB"
RETENTION_VARIABLE = "IRLAB_CLASS_RETENTION_HOURS"
DEFAULT_RETENTION_HOURS = 24.0
MAX_RETENTION_HOURS = 24.0 * 366
"""A class is kept at most a year after its last activity (a longer setting is refused as a typo)."""
DEFAULT_FILE = Path("irlab") / "classes.sqlite"


def default_database_path(environ: Mapping[str, str] = os.environ) -> Path:
    """The SQLite file used when ``IRLAB_CLASS_DB`` is unset: under ``$XDG_DATA_HOME``, else ``~/.local/share``.

    >>> str(default_database_path({"XDG_DATA_HOME": "/data"}))
    '/data/irlab/classes.sqlite'
    """
    base = environ.get("XDG_DATA_HOME") or ""
    root = Path(base) if base.startswith("/") else Path.home() / ".local" / "share"  # XDG: relative paths are invalid
    return root / DEFAULT_FILE


def database_url(environ: Mapping[str, str] = os.environ) -> str:
    """The class store's SQLAlchemy URL from the environment (checked, with the driver IR Lab installs).

    >>> database_url({"IRLAB_CLASS_DB": "mysql://x/y"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    irlab.errors.ValidationError: IRLAB_CLASS_DB: the class store runs on SQLite (...) or PostgreSQL (...), not 'mysql'
    """
    raw = environ.get(DATABASE_VARIABLE, "").strip()
    if not raw:
        return f"sqlite:///{default_database_path(environ)}"
    return check_url(raw)


def check_url(raw: str) -> str:
    """``raw`` as a URL the store can open: SQLite on a file, or PostgreSQL through psycopg 3."""
    try:
        url = make_url(raw)
    except ArgumentError:
        raise ValidationError("it is not a database URL such as sqlite:////path/classes.sqlite or "
                              "postgresql+psycopg://user@host/db", path=DATABASE_VARIABLE) from None
    backend, _, driver = url.drivername.partition("+")
    if backend == "postgresql" and driver in ("", "psycopg"):
        return url.set(drivername="postgresql+psycopg").render_as_string(hide_password=False)
    if backend == "sqlite" and driver in ("", "pysqlite"):
        if not url.database or url.database == ":memory:" or url.database.startswith("file::memory:"):
            raise ValidationError("a class store must be a file (sqlite:////path/classes.sqlite) that every "
                                  "replica can open, not an in-memory database", path=DATABASE_VARIABLE)
        return url.render_as_string(hide_password=False)
    raise ValidationError(f"the class store runs on SQLite (sqlite:///path) or PostgreSQL "
                          f"(postgresql+psycopg://...), not {url.drivername!r}", path=DATABASE_VARIABLE)


def retention_hours(environ: Mapping[str, str] = os.environ) -> float:
    """Hours a class is kept after its last activity: ``IRLAB_CLASS_RETENTION_HOURS``, default 24.

    >>> retention_hours({"IRLAB_CLASS_RETENTION_HOURS": "0"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    irlab.errors.ValidationError: IRLAB_CLASS_RETENTION_HOURS: it must be a number of hours above 0 ..., got '0'
    """
    raw = environ.get(RETENTION_VARIABLE, "").strip()
    if not raw:
        return DEFAULT_RETENTION_HOURS
    try:
        hours = float(raw)
    except ValueError:
        hours = math.nan
    if not 0 < hours <= MAX_RETENTION_HOURS:  # False for NaN too
        raise ValidationError(f"it must be a number of hours above 0 and at most {MAX_RETENTION_HOURS:g}, "
                              f"got {raw[:20]!r}", path=RETENTION_VARIABLE)
    return hours
