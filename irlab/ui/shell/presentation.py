"""Presentation mode, as the shell sees it: whether this session is presenting (a projector).

The walkthrough keeps presentation mode in the learner's state (it is part of a link, ``present=1``,
and of the undo history); the shell needs it before any page runs, to fold the sidebar away and
enlarge the type. The walkthrough tells the shell with :func:`set_presenting`; on a session's first
run the link decides.
"""

from __future__ import annotations

import streamlit as st

PRESENTING = "irlab.shell.presenting"


def presenting() -> bool:
    """Whether this session presents: what the walkthrough last said, else what the link says."""
    if PRESENTING not in st.session_state:
        st.session_state[PRESENTING] = st.query_params.get("present") in ("1", "true")
    return bool(st.session_state[PRESENTING])


def set_presenting(present: bool) -> None:
    """The walkthrough's state changed presentation mode (a switch, an undo, a link)."""
    st.session_state[PRESENTING] = bool(present)
