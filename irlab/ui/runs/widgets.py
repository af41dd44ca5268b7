"""The runs page's shared pieces: its session keys, the link's one-time choices, select boxes that keep their
value, and how numbers are written."""

from __future__ import annotations

import math
from collections.abc import Sequence

import streamlit as st

from irlab.errors import ValidationError
from irlab.metrics.measure_names import parse_measure
from irlab.runs.linkstate import parse_link
from irlab.runs.workspace import DEFAULT_MEASURES

KEY = "irlab.runs."
"""The prefix of every session key of the runs page."""
SOURCE_LABELS = {"sample": "Sample collection (simulated)", "files": "My files"}
WHERE = {"measure": "among the measures picked above", "query": "a query of this run with judgments"}
"""Where a link's value was looked for, for its notice (runs and queries: in the loaded files)."""


def adopt_link() -> None:
    """On the session's first run, set the widgets from the link (once: afterwards the widgets lead)."""
    if st.session_state.get(KEY + "link_read"):
        return
    st.session_state[KEY + "link_read"] = True
    view, notices = parse_link(dict(st.query_params))
    st.session_state[KEY + "notices"] = notices
    st.session_state[KEY + "w.source"] = SOURCE_LABELS[view.source]
    for name in ("run", "query", "a", "b"):
        if getattr(view, name) is not None:
            st.session_state[KEY + "link." + name] = getattr(view, name)
    if view.measure is not None:
        try:
            measure = str(parse_measure(view.measure))
        except ValidationError as error:
            notices.append(f"The link's measure is not one IR Lab knows ({error.message}); it was ignored.")
        else:
            st.session_state[KEY + "link.measure"] = measure
            # a measure the student typed in stays in the picker, so the link opens on it (not on the first one)
            picked = st.session_state.setdefault(KEY + "w.measures", list(DEFAULT_MEASURES))
            if measure not in picked:
                picked.append(measure)
    if view.k is not None:
        st.session_state[KEY + "link.k"] = view.k
    if view.a is not None or view.b is not None:
        st.session_state[KEY + "w.tab"] = "Compare runs"
    elif view.query is not None or view.run is not None:
        st.session_state[KEY + "w.tab"] = "Per query"


def from_link(name: str, options: Sequence[str]) -> str | None:
    """The link's choice for ``name`` if it is one of ``options`` (consumed: it applies once)."""
    wanted = st.session_state.pop(KEY + "link." + name, None)
    if wanted is None:
        return None
    if wanted in options:
        return wanted
    st.session_state.setdefault(KEY + "notices", []).append(
        f"The link's {name} ({wanted[:60]!r}) is not {WHERE.get(name, 'in the loaded files')}; the first one is "
        "shown instead.")
    return None


def choose(label: str, options: Sequence[str], key: str, *, link: str | None = None, index: int = 0,
            container=st, help: str | None = None) -> str:
    """A select box whose value survives reruns, follows the link once, and falls back when options change."""
    full = KEY + "w." + key
    linked = from_link(link, options) if link else None
    if linked is not None:
        st.session_state[full] = linked
    if st.session_state.get(full) not in options:
        st.session_state[full] = options[min(index, len(options) - 1)]
    return container.selectbox(label, options, key=full, help=help)


def measure_help(measure: str) -> str:
    family = parse_measure(measure).definition
    return f"{family.label}. {family.help}".strip()


def value_text(value) -> str:
    if isinstance(value, float):
        return "—" if math.isnan(value) else f"{value:.4f}"
    return str(value)


def score_text(score: float) -> str:
    """A run's score as the shortest text that reads back as the same number: two scores that look equal are."""
    return "—" if math.isnan(score) else repr(float(score))


def signed(value: float, digits: int = 4) -> str:
    return "—" if math.isnan(value) else f"{value:+.{digits}f}"


def plain(value: float) -> str:
    return "—" if math.isnan(value) else f"{value:g}"


def some(ids: Sequence[str]) -> str:
    shown = ", ".join(ids[:3])
    return shown + (f" and {len(ids) - 3} more" if len(ids) > 3 else "")
