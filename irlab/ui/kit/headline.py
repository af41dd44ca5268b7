"""The headline numbers of a view: each an ``st.metric`` with its change since the learner's previous move."""

from __future__ import annotations

import re
from collections.abc import Sequence

import streamlit as st

from irlab.walkthrough.views import Headline, with_changes


def headline(items: Sequence[Headline]) -> None:
    """The headline values as ``st.metric``, labelled with the measure and K (e.g. ``Recall@2``), each with its
    change since the learner's previous move (an arrow and a signed number, so colour is not the only sign)."""
    key = "irlab.headline." + "|".join(re.sub(r"@\d+", "", item.label) for item in items)
    items = with_changes(items, st.session_state.get(key))
    st.session_state[key] = [item.value for item in items]
    # one horizontal container, not columns: a column is an element of its own, and every element costs the
    # browser a render on each move
    with st.container(horizontal=True, gap="small"):
        for item in items:
            still = item.change == 0
            st.metric(item.label, item.display, delta=item.change_display, help=item.help or None, border=True,
                      width="stretch", delta_color="off" if still else "normal", delta_arrow="off" if still else "auto")
