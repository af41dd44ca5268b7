"""The exercise builder's state in ``st.session_state``: the draft, the last valid exercise, undo.

Canonical state (namespaced keys): the *draft* (a dict in the file's shape, maybe invalid,
:mod:`irlab.exercises.builder.drafts`), the *last valid exercise* (an :class:`~irlab.exercises.Exercise`), the
draft's problems, and an undo history. Every change goes through :func:`commit`, which
validates the whole draft: a valid draft becomes the last valid exercise; an invalid one keeps
the previous valid exercise, so a bad edit never loses work and downloads stay usable.

The tables are Streamlit data editors whose keys carry a revision number. At the start of a
run :func:`adopt_edits` applies any edits they hold to the draft and bumps the revision, so the
next editors start from the new draft with no pending edits (AppTest drives them by setting
``st.session_state[editor_key(table)]`` to an edit state before ``run()``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import streamlit as st

from irlab.errors import ValidationError
from irlab.exercises import BUILTIN_NAMES, MAX_FILE_BYTES, Exercise, builtin_exercise, parse_exercise
from irlab.exercises.builder.drafts import (
    TABLES,
    Draft,
    Problem,
    apply_edit,
    blank_draft,
    check_draft,
    draft_of,
    has_edits,
    set_field,
    set_ranking,
)
from irlab.ui.components.tiles import unseen_change
from irlab.ui.shell.budgets import forget_upload

DRAFT = "irlab.builder.draft"
VALID = "irlab.builder.valid"
PROBLEMS = "irlab.builder.problems"
HISTORY = "irlab.builder.history"
REVISION = "irlab.builder.revision"
NOTICE = "irlab.builder.notice"
UPLOAD_ERROR = "irlab.builder.upload_error"
UPLOAD_KEY = "irlab.builder.upload"
TILES = "irlab.builder.tiles."
MAX_HISTORY = 50

STARTS = {"cats-in-boxes": "Cats in boxes (the walkthrough: 8 pictures, 4 queries)",
          "ndcg-exercise": "NDCG exercise (the sources' notebook: 10 documents, 3 queries)",
          "blank": "Blank (5 documents, 1 query, 1 question)"}
"""What a lecturer can start from."""


@dataclass(frozen=True)
class Builder:
    """One run's view of the builder state."""

    draft: Draft
    valid: Exercise
    problems: list[Problem]
    revision: int

    @property
    def is_valid(self) -> bool:
        """Whether the draft itself is valid (then it is the exercise ``valid``)."""
        return not self.problems


def start_draft(name: str) -> Draft:
    """The draft of a starting point (a key of :data:`STARTS`)."""
    return blank_draft() if name == "blank" else draft_of(builtin_exercise(name))


def builder() -> Builder:
    """The builder state, made on the session's first visit (from the cats-in-boxes example)."""
    if DRAFT not in st.session_state:
        st.session_state[HISTORY] = []
        st.session_state[REVISION] = 0
        _set(start_draft(BUILTIN_NAMES[0]))
    return Builder(st.session_state[DRAFT], st.session_state[VALID], st.session_state[PROBLEMS],
                   st.session_state[REVISION])


def _set(draft: Draft) -> None:
    exercise, problems = check_draft(draft)
    st.session_state[DRAFT] = draft
    st.session_state[PROBLEMS] = problems
    if exercise is not None:
        st.session_state[VALID] = exercise
    st.session_state[REVISION] = st.session_state.get(REVISION, 0) + 1


def commit(draft: Draft, notice: str | None = None) -> None:
    """Make ``draft`` the current draft (the old one goes on the undo history) and validate it."""
    old = st.session_state.get(DRAFT)
    if old is not None and old == draft:
        return
    if old is not None:
        st.session_state[HISTORY] = (st.session_state.get(HISTORY, []) + [old])[-MAX_HISTORY:]
    _set(draft)
    if notice:
        st.session_state[NOTICE] = notice


def undo() -> None:
    """Back to the draft before the last change."""
    history = st.session_state.get(HISTORY) or []
    if history:
        st.session_state[HISTORY] = history[:-1]
        _set(history[-1])
        st.session_state[NOTICE] = "Undone: the draft is back to what it was before the last change."


def revert_to_valid() -> None:
    """Replace the draft by the last valid exercise (undo can bring the draft back)."""
    commit(draft_of(st.session_state[VALID]), "The draft is back to the last valid version (Undo brings your "
                                              "edits back).")


def start_from(name: str) -> None:
    """Replace the draft by a starting point (undo can bring the old draft back)."""
    commit(start_draft(name), f"Started from: {STARTS[name]}. Undo brings the previous draft back.")


def take_notice() -> str | None:
    """The one-shot notice of the last action."""
    return st.session_state.pop(NOTICE, None)


def editor_key(table: str) -> str:
    """The key of ``table``'s data editor in this revision."""
    return f"irlab.builder.edit.{table}.{st.session_state.get(REVISION, 0)}"


def tiles_key(system_index: int, query_index: int) -> str:
    """The key of the preview tiles of one system's ranking of one query."""
    return f"{TILES}{system_index}.{query_index}"


def adopt_edits() -> None:
    """Apply the edits held by the data editors and the preview tiles (call at the top of the page)."""
    if DRAFT not in st.session_state:
        return
    keys = {table: editor_key(table) for table in TABLES}
    for table, key in keys.items():
        delta = st.session_state.get(key)
        if has_edits(delta):
            commit(apply_edit(st.session_state[DRAFT], table, delta))
    for key in [k for k in st.session_state if isinstance(k, str) and k.startswith(TILES)]:
        change = unseen_change(key)
        if change is None or st.session_state[PROBLEMS] or not isinstance(change.get("order"), list):
            continue  # tiles only reorder a valid draft (they show the last valid exercise)
        system_index, query_index = (int(part) for part in key[len(TILES):].split("."))
        draft = st.session_state[DRAFT]
        if system_index < len(draft["systems"]) and query_index < len(draft["queries"]):
            commit(set_ranking(draft, system_index, draft["queries"][query_index]["id"], change["order"]))


def set_draft_field(name: str, widget_key: str) -> None:
    """Callback of the widgets of the exercise's own fields (title, instructions, seed, tolerance)."""
    commit(set_field(st.session_state[DRAFT], name, st.session_state[widget_key]))


def load_file(name: str, data: bytes) -> bool:
    """Load an uploaded exercise file; on any problem keep the draft and remember the message."""
    try:
        exercise = parse_exercise(data)  # checks the size (MAX_FILE_BYTES) before anything else
    except ValidationError as error:
        st.session_state[UPLOAD_ERROR] = (name, str(error))
        return False
    st.session_state.pop(UPLOAD_ERROR, None)
    commit(draft_of(exercise), f"Loaded \u201c{exercise.title}\u201d from {name}. Undo brings the previous draft back.")
    return True


def on_upload() -> None:
    """Callback of the file uploader."""
    uploaded = st.session_state.get(UPLOAD_KEY)
    if uploaded is None:
        st.session_state.pop(UPLOAD_ERROR, None)
    elif uploaded.size > MAX_FILE_BYTES:  # checked here, on the server: the uploader's limit is the browser's
        st.session_state[UPLOAD_ERROR] = (uploaded.name, f"the file is {uploaded.size:,} bytes; an exercise file "
                                                         f"is at most {MAX_FILE_BYTES:,} bytes")
        forget_upload(uploaded)
    else:
        load_file(uploaded.name, uploaded.getvalue())


def upload_error() -> tuple[str, str] | None:
    """(file name, message) of the last refused file, if the last upload was refused."""
    value = st.session_state.get(UPLOAD_ERROR)
    return value if isinstance(value, tuple) else None


def history_size() -> int:
    """How many changes Undo can take back."""
    history = st.session_state.get(HISTORY)
    return len(history) if isinstance(history, list) else 0


def draft_value(name: str, default: object = None) -> object:
    """A top-level field of the current draft."""
    draft = st.session_state.get(DRAFT)
    return draft.get(name, default) if isinstance(draft, Mapping) else default
