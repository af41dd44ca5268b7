"""Cards that are links: a bordered box with a page's title, icon and one line, where a click anywhere opens it.

Streamlit's ``st.page_link`` keeps the session (a plain ``<a href>`` would reload the app and start a
new one); its link is stretched over the card by ``cards.css``, so the whole card is the link, with
hover and keyboard focus shown on the card.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import streamlit as st

from irlab.ui.shell.pages import PageEntry

CARDS_CSS = "<style>\n" + Path(__file__).with_name("cards.css").read_text(encoding="utf-8") + "</style>"


def cards(entries: Sequence[PageEntry], *, per_row: int = 3, lines: Sequence[str] | None = None) -> None:
    """``entries`` as cards, ``per_row`` to a row so they line up; ``lines`` replaces each card's own blurb."""
    st.html(CARDS_CSS)
    for start in range(0, len(entries), per_row):
        row = entries[start:start + per_row]
        for index, (column, entry) in enumerate(zip(st.columns(per_row), row), start):
            key = "irl-card-" + (entry.url_path or "home")  # the class st-key-irl-card-... that cards.css styles
            with column.container(border=True, height="stretch", key=key):
                st.page_link(entry.path, label=entry.title, icon=entry.icon)
                st.caption(lines[index] if lines else entry.blurb)
