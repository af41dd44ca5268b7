"""Large per-session objects (a runs workspace holding a million-line run) that are freed when the session ends.

Why not ``st.session_state``: Streamlit keeps a closed tab's session for reconnection
(``server.disconnectedSessionTTL``, 120 s by default) in a cache that drops it only lazily, without
shutting it down, and the session's objects then wait for a full garbage collection (which this app
does not run after every rerun: ``runner.postScriptGC = false``). A closed tab's 200 MB of columns and
its uploaded files could stay in the server's memory for the rest of a lecture. Here the objects
live in a registry keyed by session id; a sweeper thread drops those of sessions that have been
gone for longer than the reconnection window, and the session's uploaded files with them, so
the memory goes back at once (numpy's and Arrow's buffers are freed by reference counting).

Outside a Streamlit server (AppTest, bare mode) there is no session id to follow: the objects live
in ``st.session_state``.
"""

from __future__ import annotations

import contextlib
import ctypes
import threading
import time
from typing import Any

import streamlit as st
from streamlit import config
from streamlit.runtime import Runtime
from streamlit.runtime.scriptrunner import get_script_run_ctx

SWEEP_SECONDS = 10.0
"""How often the sweeper looks for ended sessions."""

_held: dict[tuple[str, str], Any] = {}
_gone_since: dict[str, float] = {}
_lock = threading.Lock()
_sweeper: threading.Thread | None = None


def _session_id() -> str | None:
    """This run's session id when a server's runtime knows it (not under AppTest, whose session it does not)."""
    ctx = get_script_run_ctx(suppress_warning=True)
    # `is True`: AppTest replaces the runtime with a mock whose answers are truthy mocks
    if ctx is None or not Runtime.exists() or Runtime.instance().is_active_session(ctx.session_id) is not True:
        return None
    return ctx.session_id


def get(name: str, default: Any = None) -> Any:
    """The object this session holds under ``name`` (``default`` if none)."""
    session = _session_id()
    if session is not None:
        with _lock:
            if (session, name) in _held:
                return _held[(session, name)]
    return st.session_state.get("irlab.held." + name, default)


def put(name: str, value: Any) -> None:
    """Hold ``value`` under ``name`` for this session until the session ends."""
    session = _session_id()
    if session is None:
        st.session_state["irlab.held." + name] = value
        return
    st.session_state.pop("irlab.held." + name, None)
    with _lock:
        _held[(session, name)] = value
    _start_sweeper()


def held_sessions() -> set[str]:
    """The sessions holding something (for tests and the benchmark)."""
    with _lock:
        return {session for session, _ in _held}


def sweep(now: float | None = None) -> list[str]:
    """Drop what ended sessions hold (gone longer than the reconnection window); returns their ids."""
    if not Runtime.exists():
        return []
    runtime = Runtime.instance()
    now = time.monotonic() if now is None else now
    window = float(config.get_option("server.disconnectedSessionTTL"))
    dropped = []
    for session in held_sessions():
        if runtime.is_active_session(session):
            _gone_since.pop(session, None)
            continue
        since = _gone_since.setdefault(session, now)
        if now - since <= window:
            continue  # the tab may reconnect (a network blip): keep its files
        with _lock:
            for key in [key for key in _held if key[0] == session]:
                del _held[key]
        _gone_since.pop(session, None)
        runtime.uploaded_file_mgr.remove_session_files(session)  # thread-safe in Streamlit's manager
        dropped.append(session)
    if dropped:
        _give_back_memory()
    return dropped


def _give_back_memory() -> None:
    """Ask the C library to return freed heap to the system (glibc keeps it for reuse otherwise)."""
    with contextlib.suppress(OSError, AttributeError):  # not glibc: the memory is still reused by the next session
        ctypes.CDLL("libc.so.6").malloc_trim(0)


def _start_sweeper() -> None:
    global _sweeper
    with _lock:
        if _sweeper is not None and _sweeper.is_alive():
            return
        _sweeper = threading.Thread(target=_sweep_forever, name="irlab-session-sweeper", daemon=True)
        _sweeper.start()


def _sweep_forever() -> None:
    while True:
        time.sleep(SWEEP_SECONDS)
        with contextlib.suppress(Exception):  # never let the sweeper die; it retries next time
            sweep()
