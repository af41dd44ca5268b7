"""The class store of this process, and who is asking: the browser session and the client's address.

:class:`~irlab.classroom.ClassStore` is a handle on the database named by ``IRLAB_CLASS_DB`` and keeps
no class state (its engine is made once per URL and process), so a page makes one per run: about
a tenth of a millisecond. A wrong setting is a :class:`~irlab.errors.ValidationError` naming the
variable, which the pages show as one line.

The join and start limits of the store count per browser session and per client address. Behind
``deploy/run-local`` the app sees nginx's address (127.0.0.1) for everyone, so the address is the
last entry of ``X-Forwarded-For``, which nginx appends; that header is trusted only from a proxy on
this machine, since anyone else can send one.
"""

from __future__ import annotations

import ipaddress

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from irlab.classroom import ClassStore

PROJECTOR_POLL_SECONDS = 1.5
"""How often the projector asks the store whether the class changed (issue 23: 1-2 s)."""
STUDENT_POLL_SECONDS = 2.0
"""How often a student's page asks. Every poll is a Streamlit fragment run, about 8 ms of a server's CPU of
which the store's read is under one (bench/class_load.py), so 200 waiting students cost about a core at 1.5 s
and three quarters of one at 2 s; a student sees the lecturer's move at most 2 s late."""


def class_store() -> ClassStore:
    """The store named by ``IRLAB_CLASS_DB`` (else the per-user SQLite file); ValidationError for a bad setting."""
    return ClassStore()


def session_id() -> str | None:
    """This browser session's id (a new one after a reload or a failover: a session, not a person)."""
    context = get_script_run_ctx(suppress_warning=True)
    return context.session_id if context is not None else None


def client_address() -> str | None:
    """The client's address as the join limit should count it (see the module's text), or None when unknown."""
    peer = st.context.ip_address
    forwarded = st.context.headers.get("X-Forwarded-For") if st.context.headers else None
    return address_behind_proxy(peer, forwarded)


def address_behind_proxy(peer: str | None, forwarded: str | None) -> str | None:
    """``peer``, or the last ``X-Forwarded-For`` entry when ``peer`` is a proxy on this machine.

    >>> address_behind_proxy("127.0.0.1", "203.0.113.9, 10.1.2.3")
    '10.1.2.3'
    >>> address_behind_proxy("198.51.100.7", "10.1.2.3"), address_behind_proxy("127.0.0.1", None)
    ('198.51.100.7', '127.0.0.1')
    """
    if not peer:
        return None
    try:
        local = ipaddress.ip_address(peer).is_loopback
    except ValueError:
        return peer
    last = forwarded.split(",")[-1].strip() if forwarded and local else ""
    return last[:64] or peer
