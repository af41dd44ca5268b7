"""What one session may hold on a shared server, and a guard that refuses large work before memory runs out.

A classroom server is shared by every student on it: one session that uploads ten 100 MB files, or
asks for a comparison that needs more memory than the machine has, must get a clear refusal while
everyone else goes on. Every limit here is enforced on the server:

* **Uploads**: Streamlit keeps every uploaded file in memory until its session ends. Each file
  passes through :func:`install_upload_budget`'s check before Streamlit stores it: a session holds at
  most :attr:`Budgets.session_files` files and :attr:`Budgets.session_mb` MB, the whole process at most
  :attr:`Budgets.server_mb` MB; anything more is refused with HTTP 413 and a sentence saying why (the
  uploader shows it). A raw PUT to the upload endpoint meets the same check as the widget.
* **Large work** (reading a run into columns, comparing many runs): :func:`room_for` says whether the
  machine has the memory for it, keeping :attr:`Budgets.reserve_mb` MB free, so the page can refuse
  with a message instead of the operating system killing the replica.

MB here is always 10^6 bytes. Settings come from the environment (``IRLAB_SESSION_MB`` and so on, see
:meth:`Budgets.from_environment`); the defaults suit a 2-core, 8 GB classroom server.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from pathlib import Path

from irlab.runs.trec import MB


@dataclass(frozen=True)
class Budgets:
    """The limits of one server process (see the module docstring)."""

    session_mb: int = 400
    session_files: int = 25
    session_runs: int = 20
    server_mb: int = 3000
    reserve_mb: int = 400

    @classmethod
    def from_environment(cls, environ: dict[str, str] | None = None) -> Budgets:
        """The limits set by ``IRLAB_SESSION_MB``, ``IRLAB_SESSION_FILES``, ``IRLAB_SESSION_RUNS``,
        ``IRLAB_SERVER_UPLOADS_MB`` and ``IRLAB_MEMORY_RESERVE_MB`` (whole numbers), the defaults otherwise.

        >>> Budgets.from_environment({"IRLAB_SESSION_RUNS": "5"}).session_runs
        5
        >>> Budgets.from_environment({"IRLAB_SESSION_RUNS": "five"}).session_runs  # not a number: the default
        20
        """
        environ = os.environ if environ is None else environ
        names = {"session_mb": "IRLAB_SESSION_MB", "session_files": "IRLAB_SESSION_FILES",
                 "session_runs": "IRLAB_SESSION_RUNS", "server_mb": "IRLAB_SERVER_UPLOADS_MB",
                 "reserve_mb": "IRLAB_MEMORY_RESERVE_MB"}
        values = {}
        for field_name, variable in names.items():
            text = environ.get(variable, "").strip()
            if text.isdigit() and int(text) > 0:
                values[field_name] = int(text)
        return cls(**values)

    def describe(self) -> str:
        """The limits in one sentence, for the page."""
        return (f"This server keeps at most {self.session_runs} runs and {self.session_mb:,} MB of uploaded files "
                f"per browser session (MB = 1,000,000 bytes).")


BUDGETS = Budgets.from_environment()


def upload_refusal(session_bytes: int, session_files: int, server_bytes: int, new_bytes: int, *,
                   replaces: bool = False, budgets: Budgets = BUDGETS) -> str | None:
    """Why a new upload of ``new_bytes`` must be refused, or None when it fits.

    ``session_bytes``/``session_files``: what the session holds now; ``server_bytes``: what every session holds.

    >>> upload_refusal(350 * MB, 3, 1000 * MB, 60 * MB, budgets=Budgets(session_mb=400))[:44]
    'This browser session already holds 350 MB of'
    >>> upload_refusal(0, 0, 0, 60 * MB) is None
    True
    """
    if not replaces and session_files + 1 > budgets.session_files:
        return (f"This browser session already holds {session_files} files, the most one session may hold; "
                "remove one first.")
    if session_bytes + new_bytes > budgets.session_mb * MB:
        return (f"This browser session already holds {session_bytes / MB:,.0f} MB of uploaded files; with this one "
                f"it would be more than {budgets.session_mb:,} MB. Remove a file first.")
    if server_bytes + new_bytes > budgets.server_mb * MB:
        return "The server is holding as many uploaded files as it can right now; try again in a few minutes."
    return None


_installed = threading.Lock()
_done = False


def install_upload_budget(budgets: Budgets = BUDGETS) -> bool:
    """Check every upload against the budgets before Streamlit stores it (once per process; True if installed).

    Streamlit stores an upload with ``uploaded_file_mgr.add_file``, called by its upload endpoint for
    widgets and raw requests alike; this wraps that method of the running server's manager, and a
    refusal becomes the endpoint's HTTP 413 with the reason.
    """
    global _done
    with _installed:
        if _done:
            return True
        from streamlit.runtime import Runtime

        if not Runtime.exists():
            return False
        manager = Runtime.instance().uploaded_file_mgr
        if not hasattr(manager, "file_storage") or not hasattr(manager, "add_file"):
            return False  # not the in-memory manager this check knows
        original = manager.add_file

        def add_file(session_id: str, file) -> None:  # file: Streamlit's UploadedFileRec
            from starlette.exceptions import HTTPException

            with manager._lock:
                held = dict(manager.file_storage.get(session_id, {}))
                server_bytes = manager._total_bytes
            refusal = upload_refusal(sum(len(rec.data) for rec in held.values()), len(held), server_bytes,
                                     len(file.data), replaces=file.file_id in held, budgets=budgets)
            if refusal:
                raise HTTPException(status_code=413, detail=refusal)
            original(session_id, file)

        manager.add_file = add_file
        _done = True
        return True


def drop_unused_uploads(session_id: str | None, in_use: set[str]) -> int:
    """Free the files this session uploaded that no uploader on the page holds (a replaced file, a raw PUT).

    Returns the number of files dropped. Called by a page that knows every uploader it shows.
    """
    if session_id is None:
        return 0
    from streamlit.runtime import Runtime

    if not Runtime.exists():
        return 0
    manager = Runtime.instance().uploaded_file_mgr
    storage = getattr(manager, "file_storage", {})
    unused = [file_id for file_id in list(storage.get(session_id, {})) if file_id not in in_use]
    for file_id in unused:
        manager.remove_file(session_id, file_id)
    return len(unused)


def forget_upload(uploaded) -> None:  # Streamlit's UploadedFile
    """Free a refused upload's bytes now (the uploader's own size limit is checked only in the browser)."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx(suppress_warning=True)
    file_id = getattr(uploaded, "file_id", None)
    if ctx is None or file_id is None:
        return
    from streamlit.runtime import Runtime

    if Runtime.exists():
        Runtime.instance().uploaded_file_mgr.remove_file(ctx.session_id, file_id)


def available_bytes(meminfo: Path = Path("/proc/meminfo"), cgroup: Path = Path("/sys/fs/cgroup")) -> int | None:
    """How much memory this process can still take: the machine's available memory, or less when a cgroup
    limit (a container, ``systemd-run -p MemoryMax``) is nearer; None where neither can be read."""
    available = None
    try:
        for line in meminfo.read_text().splitlines():
            if line.startswith("MemAvailable:"):
                available = int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        limit = (cgroup / "memory.max").read_text().strip()
        used = int((cgroup / "memory.current").read_text().strip())
        if limit.isdigit():
            left = int(limit) - used
            available = left if available is None else min(available, left)
    except (OSError, ValueError):
        pass
    return available


def room_for(needed_bytes: int, what: str, budgets: Budgets = BUDGETS, available: int | None = None) -> str | None:
    """A sentence refusing ``what`` when it needs more memory than the server can spare now, or None.

    >>> room_for(2_000 * MB, "comparing these runs", Budgets(reserve_mb=400), available=1_000 * MB)[:38]
    'The server cannot spare 2,000 MB for c'
    >>> room_for(100 * MB, "reading run.txt", available=1_000 * MB) is None
    True
    """
    available = available_bytes() if available is None else available
    if available is None or needed_bytes + budgets.reserve_mb * MB <= available:
        return None
    return (f"The server cannot spare {needed_bytes / MB:,.0f} MB for {what} right now (it keeps "
            f"{budgets.reserve_mb:,} MB free for everyone's pages). Try a smaller file or fewer runs, or again later.")
