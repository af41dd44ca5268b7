"""The live class's styles (``classroom.css``) and its one-line messages."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from irlab.ui.kit.markdown import escape_markdown

CSS = "<style>\n" + Path(__file__).with_name("classroom.css").read_text(encoding="utf-8") + "</style>"
ICONS = {"success": ":material/check_circle:", "warning": ":material/info:", "error": ":material/error:"}


def class_style() -> None:
    """The class pages' rules (only our own constant CSS goes through ``st.html``)."""
    st.html(CSS)


def show_notice(notice: tuple[str, str] | None) -> None:
    """A message from the last action, as plain text: ``(kind, text)`` with kind success, warning or error."""
    if notice is None:
        return
    kind, text = notice
    show = {"success": st.success, "warning": st.warning}.get(kind, st.error)
    show(escape_markdown(text), icon=ICONS.get(kind, ICONS["error"]))
