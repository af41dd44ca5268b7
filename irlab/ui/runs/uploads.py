"""Uploading qrels and runs: each file read once, with progress and a size limit checked here, on the server."""

from __future__ import annotations

import pyarrow as pa
import streamlit as st

from irlab.errors import ValidationError
from irlab.runs.workspace import Workspace, read_upload
from irlab.ui.runs.widgets import KEY
from irlab.ui.shell import session_memory

# Arrow's default allocator keeps freed memory for reuse, so a closed session's columns would stay
# in the server's memory; the C library's allocator hands large blocks back to the system.
pa.set_memory_pool(pa.system_memory_pool())

MAX_UPLOAD_MB = 100
"""The largest file the page reads, after unpacking a .gz (a million-line run is 40-80 MB)."""


def sample_workspace() -> Workspace:
    workspace = session_memory.get("runs.sample")
    if workspace is None:
        workspace = Workspace.sample()
        session_memory.put("runs.sample", workspace)
    return workspace


def files_workspace() -> Workspace:
    """The student's files: held outside session_state so a closed tab's columns are freed (see session_memory)."""
    workspace = session_memory.get("runs.files")
    if workspace is None:
        workspace = Workspace(None)
        session_memory.put("runs.files", workspace)
    return workspace


def _read(uploaded, kind: str):
    """One uploaded file as a table, or its problem as text (never raises)."""
    if uploaded.size > MAX_UPLOAD_MB << 20:
        return f"{uploaded.name}: the file is {uploaded.size / 2**20:,.0f} MB, more than the {MAX_UPLOAD_MB} MB this page reads"
    with st.status(f"Reading {uploaded.name} ({uploaded.size / 2**20:,.1f} MB)…", expanded=False) as status:
        try:
            table = read_upload(uploaded.getvalue(), uploaded.name, kind, limit=MAX_UPLOAD_MB << 20,
                                mixed_up=f"; put it under {'Runs' if kind == 'qrels' else 'Qrels'}",
                                progress=lambda message: status.update(label=message + "…"))
        except ValidationError as error:
            status.update(label=f"Could not read {uploaded.name}", state="error")
            return str(error)
        except MemoryError:
            status.update(label=f"Could not read {uploaded.name}", state="error")
            return f"{uploaded.name}: not enough memory on the server for this file"
        status.update(label=f"Read {uploaded.name}: {len(table):,} lines", state="complete")
    return table


def uploads() -> list[str]:
    """The two uploaders; returns the problems of files that could not be used (what is loaded stays)."""
    problems = []
    left, right = st.columns(2)
    qrels_file = left.file_uploader("Qrels", type=None, key=KEY + "w.qrels", max_upload_size=MAX_UPLOAD_MB,
                                    help="One qrels file: query iteration doc grade per line (.gz accepted).")
    run_files = right.file_uploader("Runs", type=None, accept_multiple_files=True, key=KEY + "w.runs",
                                    max_upload_size=MAX_UPLOAD_MB,
                                    help="One or more runs: query Q0 doc rank score tag per line (.gz accepted).")
    st.caption(f"Files up to {MAX_UPLOAD_MB} MB each after unpacking (a million-line run is 40–80 MB), plain text or "
               ".gz. They stay in this browser session only and are gone when you close the tab.")
    done: dict = st.session_state.setdefault(KEY + "done", {})
    workspace = files_workspace()
    if qrels_file is None:
        if workspace.qrels is not None:  # the student removed it: the runs stay, waiting for qrels
            workspace = Workspace(None, workspace.runs)
    else:
        workspace, problem = _take(done, qrels_file, "qrels", workspace)
        if problem:
            kept = f" The qrels loaded before ({workspace.qrels.name}) are still used." if workspace.qrels else ""
            problems.append(problem + kept)
    present = {("run", uploaded.file_id) for uploaded in run_files or []}
    gone = [key for key in done if key[0] == "run" and key not in present]
    removed = [done.pop(key) for key in gone]  # first, so a file uploaded again keeps its name
    workspace = workspace.without_runs(name for name in removed if isinstance(name, str))
    for uploaded in run_files or []:
        workspace, problem = _take(done, uploaded, "run", workspace)
        if problem:
            problems.append(problem)
    session_memory.put("runs.files", workspace)
    return problems


def _take(done: dict, uploaded, kind: str, workspace: Workspace) -> tuple[Workspace, str]:
    """Read an upload once (``done`` remembers each file id's name, or its problem); the workspace with it."""
    key = (kind, uploaded.file_id)
    if key not in done:
        result = _read(uploaded, kind)
        if isinstance(result, str):
            done[key] = ("failed", result)
        elif kind == "qrels":
            done[key] = uploaded.name
            workspace = workspace.with_qrels(result)
        else:
            before = set(workspace.run_names)
            workspace = workspace.with_run(uploaded.name, result)
            done[key] = (set(workspace.run_names) - before).pop()
    outcome = done[key]
    return workspace, outcome[1] if isinstance(outcome, tuple) else ""
