"""Per-session objects are dropped, with the session's uploaded files, once the session has ended."""

from __future__ import annotations

import pytest

from irlab.ui.shell import session_memory


class FakeRuntime:
    def __init__(self) -> None:
        self.active: set[str] = set()
        self.removed: list[str] = []
        self.uploaded_file_mgr = self

    def is_active_session(self, session: str) -> bool:
        return session in self.active

    def remove_session_files(self, session: str) -> None:
        self.removed.append(session)


@pytest.fixture
def runtime(monkeypatch):
    fake = FakeRuntime()
    monkeypatch.setattr(session_memory.Runtime, "exists", classmethod(lambda cls: True))
    monkeypatch.setattr(session_memory.Runtime, "instance", classmethod(lambda cls: fake))
    monkeypatch.setattr(session_memory, "_start_sweeper", lambda: None)
    monkeypatch.setattr(session_memory.config, "get_option", lambda name: 5)
    monkeypatch.setattr(session_memory, "_held", {})
    monkeypatch.setattr(session_memory, "_gone_since", {})
    return fake


def hold(monkeypatch, session: str, value: object) -> None:
    """``put`` as session ``session`` would, while it is active."""
    monkeypatch.setattr(session_memory, "_session_id", lambda: session)
    session_memory.put("runs", value)


def test_objects_of_an_active_session_are_held_per_session(runtime, monkeypatch):
    runtime.active = {"s1", "s2"}
    hold(monkeypatch, "s1", "one")
    hold(monkeypatch, "s2", "two")
    assert session_memory.get("runs") == "two" and session_memory.held_sessions() == {"s1", "s2"}


def test_an_ended_session_is_dropped_after_the_reconnection_window(runtime, monkeypatch):
    hold(monkeypatch, "alive", "A")
    hold(monkeypatch, "gone", "B")
    runtime.active = {"alive"}
    assert session_memory.sweep(now=100.0) == []          # gone, but it may still reconnect
    assert session_memory.sweep(now=104.0) == []
    assert session_memory.sweep(now=106.0) == ["gone"]    # more than 5 s gone: dropped
    assert session_memory.held_sessions() == {"alive"} and runtime.removed == ["gone"]
    monkeypatch.setattr(session_memory, "_session_id", lambda: "alive")
    assert session_memory.get("runs") == "A"


def test_a_session_that_reconnects_in_time_keeps_its_objects(runtime, monkeypatch):
    hold(monkeypatch, "s", "kept")
    assert session_memory.sweep(now=10.0) == []
    runtime.active = {"s"}
    assert session_memory.sweep(now=30.0) == []
    runtime.active = set()
    assert session_memory.sweep(now=31.0) == []  # the clock starts again from its last disconnect
    assert session_memory.held_sessions() == {"s"}


def test_without_a_server_objects_live_in_session_state(monkeypatch):
    monkeypatch.setattr(session_memory.Runtime, "exists", classmethod(lambda cls: False))
    assert session_memory.sweep() == []
