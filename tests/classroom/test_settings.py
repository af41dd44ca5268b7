"""IRLAB_CLASS_DB and IRLAB_CLASS_RETENTION_HOURS: read, checked, never echoing a password."""

from __future__ import annotations

import pytest

from irlab.classroom.settings import check_url, database_url, default_database_path, retention_hours
from irlab.errors import ValidationError


def test_the_default_is_one_sqlite_file_per_user(monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))
    assert database_url({}) == f"sqlite:///{tmp_path}/.local/share/irlab/classes.sqlite"
    assert str(default_database_path({"XDG_DATA_HOME": "relative/path"})).startswith(str(tmp_path))
    assert database_url({"XDG_DATA_HOME": "/srv/data"}) == "sqlite:////srv/data/irlab/classes.sqlite"


def test_postgresql_urls_use_psycopg():
    assert check_url("postgresql://u:secret@db:5432/irlab") == "postgresql+psycopg://u:secret@db:5432/irlab"
    assert check_url("postgresql+psycopg://u@db/irlab") == "postgresql+psycopg://u@db/irlab"


@pytest.mark.parametrize("url", ["mysql://u:secret@db/x", "postgresql+psycopg2://u:secret@db/x", "sqlite://",
                                 "sqlite:///:memory:", "not a url", "oracle://u:secret@x"])
def test_other_urls_are_refused_without_their_password(url):
    with pytest.raises(ValidationError) as refused:
        check_url(url)
    assert "secret" not in str(refused.value) and str(refused.value).startswith("IRLAB_CLASS_DB")


@pytest.mark.parametrize("hours", ["0", "-1", "nan", "inf", "abc", "100000"])
def test_a_bad_retention_is_refused(hours):
    with pytest.raises(ValidationError, match="IRLAB_CLASS_RETENTION_HOURS"):
        retention_hours({"IRLAB_CLASS_RETENTION_HOURS": hours})


def test_retention_defaults_to_a_day():
    assert retention_hours({}) == 24 and retention_hours({"IRLAB_CLASS_RETENTION_HOURS": " 0.25 "}) == 0.25
