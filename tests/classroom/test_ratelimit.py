"""Joining is rate-limited against guessing codes, per session and per address, counted in the store."""

from __future__ import annotations

import pytest

from irlab.classroom import ratelimit
from irlab.classroom.refusals import ClassNotFound, RateLimited
from irlab.errors import ValidationError


def wrong_code(right: str) -> str:
    return "ABCDEF" if right != "ABCDEF" else "BCDEFG"


def test_ten_wrong_codes_block_the_session_even_for_the_right_code(store, clock):
    new = store.start_class()
    for _ in range(ratelimit.JOIN.attempts):
        with pytest.raises(ClassNotFound):
            store.join(wrong_code(new.code), session="s1")
    with pytest.raises(RateLimited, match="10 minutes") as blocked:
        store.join(new.code, session="s1")
    assert 0 < blocked.value.seconds <= ratelimit.JOIN.window
    assert store.join(new.code, session="s2").view().number == 1  # another session is not blocked
    clock.advance(ratelimit.JOIN.window + 1)
    assert store.join(new.code, session="s1").view().number == 2  # the window has passed


def test_the_address_is_limited_across_sessions(store):
    new = store.start_class()
    for i in range(ratelimit.JOIN.attempts):
        with pytest.raises(ValidationError):  # text that is no code counts too
            store.join("not a code" if i % 2 else wrong_code(new.code), session=f"s{i}", address="10.0.0.7")
    with pytest.raises(RateLimited):
        store.join(new.code, session="fresh", address="10.0.0.7")
    store.join(new.code, session="fresh", address="10.0.0.8")


def test_right_codes_are_never_counted(store):
    new = store.start_class()
    for _ in range(3 * ratelimit.JOIN.attempts):
        store.join(new.code, session="s", address="10.0.0.1")


def test_the_limit_holds_across_stores_on_one_database(database_url, clock):
    """Two replicas (two stores on the same database) share the count."""
    from irlab.classroom import ClassStore

    first, second = (ClassStore(database_url, clock=clock) for _ in range(2))
    new = first.start_class()
    for i in range(ratelimit.JOIN.attempts):
        with pytest.raises(ClassNotFound):
            (first if i % 2 else second).join(wrong_code(new.code), address="10.0.0.9")
    with pytest.raises(RateLimited):
        first.join(new.code, address="10.0.0.9")


def test_starting_classes_is_limited_per_address(store, clock):
    for _ in range(ratelimit.START.attempts):
        store.start_class(address="10.1.1.1")
    with pytest.raises(RateLimited):
        store.start_class(address="10.1.1.1")
    store.start_class(address="10.1.1.2")
    clock.advance(ratelimit.START.window + 1)
    store.start_class(address="10.1.1.1")


def test_addresses_are_stored_as_hashes_only(store):
    from sqlalchemy import select

    from irlab.classroom.database import reading
    from irlab.classroom.schema import rate_events

    with pytest.raises(ClassNotFound):
        store.join("ABCDEF", session="my-session", address="192.0.2.55")
    with reading(store._context.engine) as connection:
        stored = [tuple(row) for row in connection.execute(select(rate_events.c.scope, rate_events.c.subject))]
    assert sorted(scope for scope, _ in stored) == ["join:address", "join:session"]
    assert all("192.0.2.55" not in subject and "my-session" not in subject for _, subject in stored)
