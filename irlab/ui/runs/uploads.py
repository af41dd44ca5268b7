"""Uploading qrels and runs: each file read once, with progress, within the session's budgets, checked on the server.

The budgets (:mod:`irlab.ui.shell.budgets`): each file at most :data:`MAX_UPLOAD_MB` MB after
unpacking, a session at most ``BUDGETS.session_runs`` runs and ``BUDGETS.session_mb`` MB of
uploads (and the server's own checks per address and process), and no file read when the server
cannot spare the memory it takes (``room_for``). MB is 10^6 bytes everywhere, as the browser counts
it. A run over the budgets is refused and forgotten at once (its bytes freed), its message shown until
the run uploads change; a run whose file was removed or replaced leaves the workspace, and files no
uploader holds any more are dropped from the server's memory.

**After a failover** (the replica holding this session died and the browser reconnected to another
one) the uploaders still show the files, but this process never received them. On the page's next
run (the student's next click: the browser does not ask for one when it reconnects) the page says
which files were lost and shows new, empty uploaders (:func:`_after_failover`), so the student adds
them again; the notice names each lost file until a file of that name is back. When the student's
first move was to add a file again, the uploaders keep it and the old entries (which the notice
tells them to remove).
"""

from __future__ import annotations

import pyarrow as pa
import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from irlab.errors import ValidationError
from irlab.runs.workspace import Workspace, memory_to_read, read_upload
from irlab.ui.kit.markdown import escape_markdown
from irlab.ui.runs.widgets import KEY
from irlab.ui.shell import budgets, session_memory

# Arrow's default allocator keeps freed memory for reuse, so a closed session's columns would stay
# in the server's memory; the C library's allocator hands large blocks back to the system.
pa.set_memory_pool(pa.system_memory_pool())

MAX_UPLOAD_MB = 100
"""The largest file the page reads, in MB (10^6 bytes), after unpacking a .gz (a million-line run is 40-80 MB)."""
MAX_UPLOAD_BYTES = MAX_UPLOAD_MB * budgets.MB
REFUSED = KEY + "refused"
"""Session key: (the run files held when runs were refused, the refusals), shown until the uploads change."""
GENERATION = KEY + "uploaders"
"""Session key: how many times the uploaders were replaced by empty ones after a failover (part of their keys)."""
LOST = KEY + "lost"
"""Session key: the names of the files lost in a failover, shown until each is uploaded again."""
STALE = KEY + "lost.stale"
"""Session key: True while the uploaders still show entries of lost files (they held a new file too)."""


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


def budget_caption() -> str:
    """The page's limits in one sentence (MB = 10^6 bytes)."""
    limits = budgets.BUDGETS
    return (f"Files up to {MAX_UPLOAD_MB} MB each after unpacking (a million-line run is 40–80 MB), plain text or .gz; "
            f"at most {limits.session_runs} runs and {limits.session_mb:,} MB of files in this browser session "
            "(MB = 10^6 bytes). They stay in this session only and are gone when you close the tab.")


def _read(uploaded, kind: str):
    """One uploaded file as a table, or its problem as text (never raises)."""
    if uploaded.size > MAX_UPLOAD_BYTES:
        return (f"{uploaded.name}: the file is {uploaded.size / budgets.MB:,.0f} MB, more than the {MAX_UPLOAD_MB} MB "
                "this page reads")
    needed = memory_to_read(uploaded.size, uploaded.name, MAX_UPLOAD_BYTES)
    refusal = budgets.room_for(needed, f"reading {uploaded.name}")
    if refusal:
        return f"{uploaded.name}: {refusal}"
    with st.status(escape_markdown(f"Reading {uploaded.name} ({uploaded.size / budgets.MB:,.1f} MB)…"),
                   expanded=False) as status:
        try:
            table = read_upload(uploaded.getvalue(), uploaded.name, kind, limit=MAX_UPLOAD_BYTES,
                                mixed_up=f"; put it under {'Runs' if kind == 'qrels' else 'Qrels'}",
                                progress=lambda message: status.update(label=escape_markdown(message) + "…"))
        except ValidationError as error:
            status.update(label=escape_markdown(f"Could not read {uploaded.name}"), state="error")
            return str(error)
        except MemoryError:
            status.update(label=escape_markdown(f"Could not read {uploaded.name}"), state="error")
            return f"{uploaded.name}: not enough memory on the server for this file"
        status.update(label=escape_markdown(f"Read {uploaded.name}: {len(table):,} lines"), state="complete")
    return table


def uploader_key(name: str) -> str:
    """The session key of an uploader (``w.qrels``, ``w.runs``): new ones after each failover (see the module)."""
    generation = st.session_state.get(GENERATION, 0)
    return KEY + name + (f".{generation}" if generation else "")


def uploads() -> list[str]:
    """The two uploaders; returns the problems of files that could not be used (what is loaded stays)."""
    problems = []
    lost_notice = st.container()
    left, right = st.columns(2)
    qrels_file = left.file_uploader("Qrels", type=None, key=uploader_key("w.qrels"), max_upload_size=MAX_UPLOAD_MB,
                                    help="One qrels file: query iteration doc grade per line (.gz accepted).")
    run_files = right.file_uploader("Runs", type=None, accept_multiple_files=True, key=uploader_key("w.runs"),
                                    max_upload_size=MAX_UPLOAD_MB,
                                    help="One or more runs: query Q0 doc rank score tag per line (.gz accepted).")
    ctx = get_script_run_ctx(suppress_warning=True)
    session_id = ctx.session_id if ctx else None
    _after_failover(session_id, qrels_file, run_files or [])
    with lost_notice:
        _lost_notice([f.name for f in [qrels_file, *(run_files or [])] if f is not None])
    st.caption(budget_caption())
    done: dict = st.session_state.setdefault(KEY + "done", {})
    workspace = files_workspace()
    present = {("run", uploaded.file_id) for uploaded in run_files or []}
    if qrels_file is not None:
        present.add(("qrels", qrels_file.file_id))
    for key in [key for key in done if key not in present]:  # removed or replaced: forget it, and its run
        name = done.pop(key)
        if key[0] == "run" and isinstance(name, str):
            workspace = workspace.without_runs([name])
    if qrels_file is None:
        if workspace.qrels is not None:  # the student removed it: the runs stay, waiting for qrels
            workspace = Workspace(None, workspace.runs)
    else:
        workspace, problem = _take(done, qrels_file, "qrels", workspace)
        if problem:
            kept = f" The qrels loaded before ({workspace.qrels.name}) are still used." if workspace.qrels else ""
            problems.append(problem + kept)
    held = sum(f.size for f in [qrels_file, *(run_files or [])] if f is not None and (
        ("qrels" if f is qrels_file else "run"), f.file_id) in done)
    refused = []
    for uploaded in run_files or []:
        key = ("run", uploaded.file_id)
        if key not in done:
            refusal = _over_budget(len(workspace.runs), held, uploaded)
            if refusal:
                refused.append((uploaded.file_id, f"{uploaded.name}: {refusal}"))
                budgets.forget_upload(uploaded)
                continue
            held += uploaded.size
        workspace, problem = _take(done, uploaded, "run", workspace)
        if problem:
            problems.append(problem)
    refused += [("", message) for message in budgets.upload_refusals(session_id)]  # the server's: never stored
    problems += _refusals(refused, run_files or [])
    session_memory.put("runs.files", workspace)
    budgets.drop_unused_uploads(session_id, {key[1] for key in present})
    return problems


def _after_failover(session_id: str | None, qrels_file, run_files: list) -> None:
    """When the uploaders name files this process never received (a failover), remember their names and, if they
    hold nothing else, replace them with empty ones at once (a rerun): the old chips cannot be read any more."""
    lost = budgets.lost_uploads(session_id)
    if not lost:
        return
    budgets.forget_lost(session_id)
    names = list(dict.fromkeys([*st.session_state.get(LOST, []), *lost.values()]))  # qrels first, then the runs
    st.session_state[LOST] = names
    if qrels_file is None and not run_files:
        st.session_state[GENERATION] = st.session_state.get(GENERATION, 0) + 1
        st.session_state.pop(STALE, None)
        st.rerun()
    st.session_state[STALE] = True


def _lost_notice(held: list[str]) -> None:
    """Name the files lost in a failover that are not back yet (a file of the same name uploaded again)."""
    missing = [name for name in st.session_state.get(LOST, []) if name not in held]
    if not missing:
        st.session_state.pop(LOST, None)
        st.session_state.pop(STALE, None)
        return
    several = len(missing) > 1
    listed = ", ".join(missing[:-1]) + (" and " if several else "") + missing[-1]
    stale = (" Remove their old entries (×) first." if several else " Remove its old entry (×) first.") \
        if st.session_state.get(STALE) else ""
    st.warning(escape_markdown(
        f"The server that held your files stopped, and this page moved to another one: {listed} "
        f"{'are' if several else 'is'} no longer here. Add {'them' if several else 'it'} again below; your "
        f"settings are kept.{stale}"), icon=":material/cloud_off:")


def _over_budget(runs_held: int, bytes_held: int, uploaded) -> str | None:
    """Why one more run must be refused (the session's run cap or its bytes), or None."""
    limits = budgets.BUDGETS
    if runs_held >= limits.session_runs:
        return (f"this browser session already holds {runs_held} runs, the most one session may hold on this server; "
                "remove a run first, then add this one again")
    if bytes_held + uploaded.size > limits.session_mb * budgets.MB:
        return (f"with it this browser session would hold {(bytes_held + uploaded.size) / budgets.MB:,.0f} MB of "
                f"files, more than the {limits.session_mb:,} MB one session may hold; remove a file first")
    return None


def _refusals(refused: list[tuple[str, str]], run_files: list) -> list[str]:
    """The refusals to show: this run's, or the last ones while the run uploads have not changed since.

    A refused file is forgotten on the server at once, so on the next run it is no longer among the
    uploads; its message stays until the student adds or removes a run.
    """
    if refused:
        ids = {file_id for file_id, _ in refused}
        messages = [message for _, message in refused]
        st.session_state[REFUSED] = (tuple(sorted(f.file_id for f in run_files if f.file_id not in ids)), messages)
        return messages
    earlier = st.session_state.get(REFUSED)
    if earlier is not None and earlier[0] == tuple(sorted(f.file_id for f in run_files)):
        return earlier[1]
    st.session_state.pop(REFUSED, None)
    return []


def _take(done: dict, uploaded, kind: str, workspace: Workspace) -> tuple[Workspace, str]:
    """Read an upload once (``done`` remembers each file id's name, or its problem); the workspace with it."""
    key = (kind, uploaded.file_id)
    if key not in done:
        result = _read(uploaded, kind)
        if isinstance(result, str):
            done[key] = ("failed", result)  # kept (its message stays while the file is listed)
        elif kind == "qrels":
            done[key] = uploaded.name
            workspace = workspace.with_qrels(result)
        else:
            before = set(workspace.run_names)
            workspace = workspace.with_run(uploaded.name, result)
            done[key] = (set(workspace.run_names) - before).pop()
    outcome = done[key]
    return workspace, outcome[1] if isinstance(outcome, tuple) else ""
