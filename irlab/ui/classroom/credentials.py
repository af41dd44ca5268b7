"""Who this browser is in a class: the lecturer's code and key, or a student's code and token.

Both live in two places: the session (so a trip to a chapter and back through the sidebar, whose
links carry no parameters, keeps them) and the page's link (so a reload, or the reconnection to
another replica after one died, keeps them: the new session starts from the link). The link wins
when it names a class; the session fills in when the link names none, or the same class without the
secret. Nothing here checks a secret: the store does, on every call.

* lecturer: ``/class?code=CODE&key=KEY`` (:data:`LECTURER` in the session);
* student: ``/join?code=CODE&student=TOKEN`` (:data:`STUDENT`).
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

LECTURER = "irlab.class.lecturer"
STUDENT = "irlab.class.student"
CODE, KEY, TOKEN = "code", "key", "student"
"""The link's parameters."""
MAX_PARAM = 200
"""Longer parameter values are no code, key or token of ours (the store refuses them; they are not kept)."""


@dataclass(frozen=True)
class Credentials:
    """A class's join code (as the link or the store spells it) and a secret: the lecturer key or a student token.

    ``repr`` hides the secret (a session's state can end up in a log)."""

    code: str
    secret: str

    def __repr__(self) -> str:
        return f"Credentials(code={self.code!r})"


def _param(name: str) -> str:
    value = st.query_params.get(name, "")
    return value if isinstance(value, str) and len(value) <= MAX_PARAM else ""


def link_code() -> str:
    """The join code the page's link names ("" if none), as the link spells it."""
    return _param(CODE).strip()


def _from(secret_param: str, kept_at: str) -> Credentials | None:
    code, secret = link_code(), _param(secret_param)
    if code and secret:
        return Credentials(code, secret)
    kept = st.session_state.get(kept_at)
    if isinstance(kept, Credentials) and (not code or code == kept.code):
        return kept
    return None


def lecturer() -> Credentials | None:
    """The lecturer's code and key from the link, else from the session (same class or no class in the link)."""
    return _from(KEY, LECTURER)


def student() -> Credentials | None:
    """The student's code and token from the link, else from the session (same class or no class in the link)."""
    return _from(TOKEN, STUDENT)


def _keep(credentials: Credentials, kept_at: str, secret_param: str) -> None:
    st.session_state[kept_at] = credentials
    wanted = {CODE: credentials.code, secret_param: credentials.secret}
    if st.query_params.to_dict() != wanted:  # writing the same link again would add a history entry
        st.query_params.from_dict(wanted)


def keep_lecturer(credentials: Credentials) -> None:
    """Remember the lecturer's class in the session and in the link."""
    _keep(credentials, LECTURER, KEY)


def keep_student(credentials: Credentials) -> None:
    """Remember the student's seat in the session and in the link."""
    _keep(credentials, STUDENT, TOKEN)


def forget_lecturer() -> None:
    """Forget the lecturer's class (deleted or ended): the session's copy and the link's."""
    st.session_state.pop(LECTURER, None)
    st.query_params.clear()


def forget_student(keep_code: bool = False) -> None:
    """Forget the student's seat; with ``keep_code`` the link keeps the class's code (to join it again)."""
    st.session_state.pop(STUDENT, None)
    code = link_code()
    st.query_params.from_dict({CODE: code} if keep_code and code else {})
