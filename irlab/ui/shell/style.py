"""Page styling: a few base rules on every page (``base.css``), and presentation mode's larger type (``present.css``).

Only our own constant CSS goes through ``st.html`` (style-only HTML is not rendered as content).
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

HERE = Path(__file__).parent
BASE_CSS = "<style>\n" + (HERE / "base.css").read_text(encoding="utf-8") + "</style>"
PRESENT_CSS = "<style>\n" + (HERE / "present.css").read_text(encoding="utf-8") + "</style>"


def apply_style(present: bool) -> None:
    """Inject the presentation rules when ``present`` (the base rules come with the navigation, on every page)."""
    if present:
        st.html(PRESENT_CSS)
