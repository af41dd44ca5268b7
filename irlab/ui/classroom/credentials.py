"""Who this browser is in a class: the lecturer's code and key, or a student's code and token.

Both live in two places: the session (so a trip to a chapter and back through the sidebar, whose
links carry no parameters, keeps them) and the page's link (so a reload, or the reconnection to
another replica after one died, keeps them: the new session starts from the link). The link wins
when it names a class; the session fills in when the link names none, or the same class without the
secret. Nothing here checks a secret: the store does, on every call.

* lecturer: ``/class?code=CODE&key=KEY&s=STORE`` (:data:`LECTURER` in the session);
* student: ``/join?code=CODE&student=TOKEN&s=STORE`` (:data:`STUDENT`).

``s`` is the id of the store the class was started in (:attr:`irlab.classroom.ClassStore.store_id`): a
replica that opens another store says so (:func:`other_store`) instead of "no such class".

A student's browser also keeps their seat in a cookie (``irlab_seat_CODE``, HttpOnly, set by the class's
event stream, :mod:`irlab.ui.classroom.feed`): another tab of the same browser, opened from the QR code's
link, finds the same seat (:func:`seat_in_browser`), so one browser is one student.
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

LECTURER = "irlab.class.lecturer"
STUDENT = "irlab.class.student"
CODE, KEY, TOKEN, STORE = "code", "key", "student", "s"
"""The link's parameters."""
SEAT_COOKIE = "irlab_seat_"
"""The seat cookie's name is this and the class's code (irlab/ui/classroom/feed.py sets it)."""
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


def link_store() -> str:
    """The store id the page's link names ("" if none)."""
    value = _param(STORE).strip()
    return value if value.isalnum() and len(value) <= 16 else ""


def other_store(store_id: str) -> str | None:
    """The store id the link names when it is not ``store_id`` (the class was started in another store), else None."""
    named = link_store()
    return named if named and store_id and named != store_id else None


def _keep(credentials: Credentials, kept_at: str, secret_param: str, store_id: str) -> None:
    st.session_state[kept_at] = credentials
    wanted = {CODE: credentials.code, secret_param: credentials.secret, **({STORE: store_id} if store_id else {})}
    if st.query_params.to_dict() != wanted:  # writing the same link again would add a history entry
        st.query_params.from_dict(wanted)


def keep_lecturer(credentials: Credentials, store_id: str = "") -> None:
    """Remember the lecturer's class in the session and in the link."""
    _keep(credentials, LECTURER, KEY, store_id)


def keep_student(credentials: Credentials, store_id: str = "") -> None:
    """Remember the student's seat in the session and in the link."""
    _keep(credentials, STUDENT, TOKEN, store_id)


def seat_in_browser(code: str) -> Credentials | None:
    """The seat this browser keeps for the class ``code`` in its cookie (another tab joined it), if any; the store
    checks the token as for any link."""
    if not code or st.context.cookies is None:
        return None
    token = st.context.cookies.get(f"{SEAT_COOKIE}{code}")
    return Credentials(code, token) if isinstance(token, str) and 0 < len(token) <= MAX_PARAM else None


def forget_lecturer() -> None:
    """Forget the lecturer's class (deleted or ended): the session's copy and the link's."""
    st.session_state.pop(LECTURER, None)
    st.query_params.clear()


def forget_student(keep_code: bool = False) -> None:
    """Forget the student's seat; with ``keep_code`` the link keeps the class's code (to join it again)."""
    st.session_state.pop(STUDENT, None)
    code, store = link_code(), link_store()
    st.query_params.from_dict({CODE: code, **({STORE: store} if store else {})} if keep_code and code else {})
