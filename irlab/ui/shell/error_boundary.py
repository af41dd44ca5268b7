"""The page boundary: a page that fails shows one short sentence with an error id, never a traceback.

Streamlit would show the exception with its traceback and the server's file paths (we also set
``client.showErrorDetails = "none"`` for anything that escapes this boundary: callbacks and
fragments). The learner's state lives in the session, so nothing is lost: reloading or opening
another page works. The full traceback goes to the server log under the same id, so a lecturer
can find it when a student reports the id.

Streamlit's own control flow (``st.rerun``, ``st.stop``, ``st.switch_page``) raises
``BaseException`` subclasses, which pass through untouched; so does a fragment's error, which
Streamlit has already reported.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import contextmanager

import streamlit as st
from streamlit.errors import FragmentHandledException
from streamlit.logger import get_logger

LOG = get_logger(__name__)  # Streamlit's logger: the lines land in the server's own log, its format

MESSAGE = ("Something went wrong while drawing this page (error id `{id}`). Your pictures, K, files and settings are "
           "kept: reload the page or open another one. If it happens again, tell your lecturer the error id.")


def new_error_id() -> str:
    """A short random id a student can read out (8 hex digits)."""
    return secrets.token_hex(4)


@contextmanager
def error_boundary(page: str) -> Iterator[None]:
    """Run a page; an unexpected exception becomes :data:`MESSAGE` on screen and a logged traceback."""
    try:
        yield
    except FragmentHandledException:
        raise
    except Exception:
        error_id = new_error_id()
        LOG.exception("error id %s on page %r", error_id, page)
        st.error(MESSAGE.format(id=error_id), icon=":material/error:")
