"""Notices (ignored link parameters and the like): one box, shown as inert text."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from irlab.ui.kit.markdown import escape_markdown


def notices(messages: Sequence[str]) -> None:
    """Notices in a container that always exists.

    All of them go into one box (a list when there are several), so a hostile link cannot fill the
    page with warnings. Notices may quote what a link said, so they are shown as inert text.
    """
    box = st.container()
    unique = list(dict.fromkeys(messages))
    if len(unique) == 1:
        box.warning(escape_markdown(unique[0]), icon=":material/info:")
    elif unique:
        box.warning("\n".join(f"- {escape_markdown(message)}" for message in unique), icon=":material/info:")
