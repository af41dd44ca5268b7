"""What one session, one client address and one process may hold on a shared server, and a guard that refuses
large work before memory runs out.

A classroom server is shared by every student on it: one session that uploads ten 100 MB files, one
machine that opens eight sessions and fills each, or a request for a comparison that needs more memory
than the machine has, must get a clear refusal while everyone else goes on. Every limit here is enforced
on the server:

* **Uploads** (:func:`install_upload_budget`). Streamlit keeps every uploaded file in memory until its
  session ends. Each file passes through :class:`UploadGuard` before Streamlit stores it: a session
  holds at most :attr:`Budgets.session_files` files and :attr:`Budgets.session_mb` MB, all the sessions
  of one **client address** (:mod:`irlab.ui.shell.client`: the real client behind deploy/run-local's
  nginx, an IPv6 client by its /64) at most :attr:`Budgets.address_mb` MB, the whole process at most
  :attr:`Budgets.server_mb` MB; anything more is refused with HTTP 413 and a sentence saying why. A raw
  PUT to the upload endpoint meets the same check as the widget. Streamlit's uploader shows only "status
  code 413" on the file, so the page shows the sentence (:func:`upload_refusals`).
* **Files no widget holds are dropped.** A file that no uploader on a page has taken within
  :attr:`Budgets.claim_seconds` of arriving (a raw PUT from a script, or an upload whose page never
  ran again) is removed, so sessions that only upload cannot pin the server's memory; a page that
  knows every uploader it shows drops the rest of its session's files (:func:`drop_unused_uploads`).
* **Lost files are named** (:func:`lost_uploads`): after a failover (the replica that held a session's
  files died, the browser reconnected to another one) the uploaders still show the old files, which
  this process never received; the page can say which ones and take them again.
* **Large work** (reading a run into columns, comparing many runs): :func:`room_for` says whether the
  machine has the memory for it, keeping :attr:`Budgets.reserve_mb` MB free, so the page can refuse
  with a message instead of the operating system killing the replica.

MB here is always 10^6 bytes. Settings come from the environment (``IRLAB_SESSION_MB`` and so on, see
:meth:`Budgets.from_environment`). The defaults are sized for the documented server (README, "Deploying
for a class": 2 cores, 8 GB, two replicas): two processes hold at most 2 x 1,500 MB of uploaded bytes,
which leaves the rest for the columns read from them (about four times a run's size, each read refused
by :func:`room_for` when it does not fit), the processes and the system; one address at most a third
of a process's uploads, so one machine with many tabs leaves two thirds for everyone else. A class
behind one NAT address shares that third: set ``IRLAB_ADDRESS_MB`` as high as ``IRLAB_SERVER_UPLOADS_MB``
there.
"""

from __future__ import annotations

import os
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from irlab.runs.trec import MB
from irlab.ui.shell.client import address_group, session_client_address


@dataclass(frozen=True)
class Budgets:
    """The limits of one server process (see the module docstring)."""

    session_mb: int = 400
    session_files: int = 25
    session_runs: int = 20
    address_mb: int = 500
    server_mb: int = 1500
    reserve_mb: int = 400
    claim_seconds: int = 300

    @classmethod
    def from_environment(cls, environ: dict[str, str] | None = None) -> Budgets:
        """The limits set by ``IRLAB_SESSION_MB``, ``IRLAB_SESSION_FILES``, ``IRLAB_SESSION_RUNS``,
        ``IRLAB_ADDRESS_MB``, ``IRLAB_SERVER_UPLOADS_MB``, ``IRLAB_MEMORY_RESERVE_MB`` and
        ``IRLAB_UPLOAD_CLAIM_SECONDS`` (whole numbers), the defaults otherwise.

        >>> Budgets.from_environment({"IRLAB_SESSION_RUNS": "5"}).session_runs
        5
        >>> Budgets.from_environment({"IRLAB_SESSION_RUNS": "five"}).session_runs  # not a number: the default
        20
        """
        environ = os.environ if environ is None else environ
        names = {"session_mb": "IRLAB_SESSION_MB", "session_files": "IRLAB_SESSION_FILES",
                 "session_runs": "IRLAB_SESSION_RUNS", "address_mb": "IRLAB_ADDRESS_MB",
                 "server_mb": "IRLAB_SERVER_UPLOADS_MB", "reserve_mb": "IRLAB_MEMORY_RESERVE_MB",
                 "claim_seconds": "IRLAB_UPLOAD_CLAIM_SECONDS"}
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


def _mb(count: int) -> str:
    """Bytes as MB (10^6) for a sentence: one decimal below 10 MB, where rounding would hide the difference.

    >>> _mb(1_700_000), _mb(350_000_000)
    ('1.7', '350')
    """
    return f"{count / MB:,.1f}" if count < 10 * MB else f"{count / MB:,.0f}"


def upload_refusal(session_bytes: int, session_files: int, server_bytes: int, new_bytes: int, *,
                   replaces: bool = False, budgets: Budgets = BUDGETS, address_bytes: int = 0) -> str | None:
    """Why a new upload of ``new_bytes`` must be refused, or None when it fits.

    ``session_bytes``/``session_files``: what the session holds now; ``address_bytes``: what every session of
    the same client address holds (this one included); ``server_bytes``: what every session holds.

    >>> upload_refusal(350 * MB, 3, 1000 * MB, 60 * MB, budgets=Budgets(session_mb=400))[:44]
    'This browser session already holds 350 MB of'
    >>> upload_refusal(100 * MB, 1, 900 * MB, 60 * MB, address_bytes=480 * MB)[:46]
    'Browser sessions from your network address alr'
    >>> upload_refusal(0, 0, 0, 60 * MB) is None
    True
    """
    if not replaces and session_files + 1 > budgets.session_files:
        return (f"This browser session already holds {session_files} files, the most one session may hold; "
                "remove one first.")
    if session_bytes + new_bytes > budgets.session_mb * MB:
        return (f"This browser session already holds {_mb(session_bytes)} MB of uploaded files; with this one "
                f"it would be more than {budgets.session_mb:,} MB. Remove a file first.")
    if address_bytes + new_bytes > budgets.address_mb * MB:
        return (f"Browser sessions from your network address already hold {_mb(address_bytes)} MB of uploaded "
                f"files on this server, and one address may hold {budgets.address_mb:,} MB: remove files you no "
                "longer need (closing a tab frees its files), or try again in a few minutes.")
    if server_bytes + new_bytes > budgets.server_mb * MB:
        return "The server is holding as many uploaded files as it can right now; try again in a few minutes."
    return None


class UploadGuard:
    """The upload budgets of one process, around Streamlit's uploaded-file manager (see the module's text).

    It keeps, per session: its client address group (read when its first file arrives: the
    websocket's address, see :mod:`irlab.ui.shell.client`), the files waiting for a widget to take
    them (since when), the ids of every file this process stored for it, and the files its widgets
    name that this process never had (lost). ``clock`` is ``time.monotonic`` except in tests.
    """

    def __init__(self, manager, budgets: Budgets = BUDGETS, clock: Callable[[], float] = time.monotonic,
                 address_of: Callable[[str], str | None] | None = None):
        self.manager, self.budgets, self.clock = manager, budgets, clock
        self.address_of = address_of or (lambda session: address_group(session_client_address(session)))
        self.addresses: dict[str, str | None] = {}
        self.waiting: dict[tuple[str, str], float] = {}
        self.stored: dict[str, set[str]] = defaultdict(set)
        self.lost: dict[str, dict[str, str]] = defaultdict(dict)
        self.refused: dict[str, list[str]] = defaultdict(list)
        self.reruns: dict[str, float] = {}
        self.lock = threading.Lock()
        self._add, self._get = manager.add_file, manager.get_files
        self._remove, self._remove_session = manager.remove_file, manager.remove_session_files

    def install(self) -> None:
        """Put the checks in front of the manager's methods (its upload endpoint and widgets call these)."""
        self.manager.add_file, self.manager.get_files = self.add_file, self.get_files
        self.manager.remove_session_files = self.remove_session_files

    def refusal(self, session_id: str, file_id: str, size: int) -> str | None:
        """Why this file must not be stored for this session now, or None."""
        with self.lock:
            if session_id not in self.addresses:
                self.addresses[session_id] = self.address_of(session_id)
            address = self.addresses[session_id]
            same = [session for session, group in self.addresses.items() if address is not None and group == address]
        with self.manager._lock:
            held = dict(self.manager.file_storage.get(session_id, {}))
            server_bytes = self.manager._total_bytes
            address_bytes = sum(len(record.data) for session in same
                                for record in self.manager.file_storage.get(session, {}).values())
        session_bytes = sum(len(record.data) for record in held.values())
        if file_id in held:  # the same file again: it replaces itself
            replaced = len(held[file_id].data)
            session_bytes, address_bytes, server_bytes = (session_bytes - replaced, address_bytes - replaced,
                                                          server_bytes - replaced)
        return upload_refusal(session_bytes, len(held), server_bytes, size, replaces=file_id in held,
                              budgets=self.budgets, address_bytes=address_bytes if address is not None else 0)

    def add_file(self, session_id: str, file) -> None:  # file: Streamlit's UploadedFileRec
        """Store the file, or refuse it with HTTP 413 and the reason (after dropping files no widget took)."""
        from starlette.exceptions import HTTPException

        self.sweep()
        refusal = self.refusal(session_id, file.file_id, len(file.data))
        if refusal:
            with self.lock:
                self.refused[session_id] = [*self.refused[session_id][-9:], f"{file.name}: {refusal}"]
            self.rerun(session_id)
            raise HTTPException(status_code=413, detail=refusal)
        self._add(session_id, file)
        with self.lock:
            self.waiting[(session_id, file.file_id)] = self.clock()
            self.stored[session_id].add(file.file_id)

    def rerun(self, session_id: str) -> None:
        """Run the session's page again (at most once a second), so it shows a refusal the uploader cannot: the
        browser asks for no run after a failed upload. Called on the server's event loop, as a browser's own
        request is; where Streamlit's session manager is not what this knows, the page says it on its next run."""
        now = self.clock()
        with self.lock:
            if now - self.reruns.get(session_id, -1e9) < 1.0:
                return
            self.reruns[session_id] = now
        from streamlit.runtime import Runtime

        try:  # as Streamlit reruns a session when its script file changes: with the session's last client state
            info = Runtime.instance()._session_mgr.get_active_session_info(session_id)
            state = getattr(info.session, "_client_state", None) if info is not None else None
            if state is not None and state.page_script_hash:
                info.session.request_rerun(state)
        except Exception:  # noqa: BLE001 - a convenience: the refusal itself stands either way
            return

    def get_files(self, session_id: str, file_ids):
        """A widget takes its files: they no longer wait to be dropped."""
        with self.lock:
            for file_id in file_ids:
                self.waiting.pop((session_id, file_id), None)
        return self._get(session_id, file_ids)

    def remove_session_files(self, session_id: str) -> None:
        """The session ended: forget it (Streamlit frees its files)."""
        self._remove_session(session_id)
        with self.lock:
            self.addresses.pop(session_id, None)
            self.stored.pop(session_id, None)
            self.lost.pop(session_id, None)
            self.refused.pop(session_id, None)
            self.reruns.pop(session_id, None)
            for key in [key for key in self.waiting if key[0] == session_id]:
                del self.waiting[key]

    def sweep(self) -> int:
        """Drop every file that no widget took within ``claim_seconds`` of arriving; how many were dropped."""
        now = self.clock()
        with self.lock:
            expired = [key for key, since in self.waiting.items() if now - since > self.budgets.claim_seconds]
            for key in expired:
                del self.waiting[key]
        for session_id, file_id in expired:
            self._remove(session_id, file_id)
        return len(expired)

    def note_widget_files(self, session_id: str, files: Iterable[tuple[str, str]], present: set[str]) -> None:
        """A widget names ``files`` (id, name); those not ``present`` that this process never stored are lost."""
        with self.lock:
            for file_id, name in files:
                if file_id not in present and file_id not in self.stored.get(session_id, ()):
                    self.lost[session_id][file_id] = name


_installed = threading.Lock()
_guard: UploadGuard | None = None


def install_upload_budget(budgets: Budgets = BUDGETS) -> bool:
    """Check every upload against the budgets before Streamlit stores it (once per process; True if installed).

    Streamlit stores an upload with ``uploaded_file_mgr.add_file``, called by its upload endpoint for
    widgets and raw requests alike, and a widget reads its files with ``get_files``; the guard wraps
    both methods of the running server's manager, and a refusal becomes the endpoint's HTTP 413 with
    the reason. It also watches what file uploaders name (to find lost files).
    """
    global _guard
    with _installed:
        if _guard is not None:
            return True
        from streamlit.runtime import Runtime

        if not Runtime.exists():
            return False
        manager = Runtime.instance().uploaded_file_mgr
        if not all(hasattr(manager, name) for name in ("file_storage", "add_file", "get_files", "_lock",
                                                        "_total_bytes", "remove_session_files")):
            return False  # not the in-memory manager this guard knows
        guard = UploadGuard(manager, budgets)
        guard.install()
        _watch_uploaders(guard)
        _guard = guard
        return True


def _watch_uploaders(guard: UploadGuard) -> None:
    """Note the files each file uploader names that the session does not have (Streamlit drops them silently)."""
    from streamlit.elements.widgets import file_uploader
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    original = file_uploader._get_upload_files

    def get_upload_files(widget_value):
        files = original(widget_value)
        ctx = get_script_run_ctx(suppress_warning=True)
        if ctx is not None and widget_value is not None:
            present = {getattr(file, "file_id", None) for file in files if hasattr(file, "size")}
            guard.note_widget_files(ctx.session_id, ((info.file_id, info.name)
                                                     for info in widget_value.uploaded_file_info), present)
        return files

    file_uploader._get_upload_files = get_upload_files


def lost_uploads(session_id: str | None, file_ids: Iterable[str] | None = None) -> dict[str, str]:
    """The files (id: name) this session's uploaders name that this process never received (a failover), of
    ``file_ids`` when given."""
    if _guard is None or session_id is None:
        return {}
    with _guard.lock:
        lost = dict(_guard.lost.get(session_id, {}))
    return lost if file_ids is None else {file_id: lost[file_id] for file_id in file_ids if file_id in lost}


def upload_refusals(session_id: str | None) -> list[str]:
    """The uploads the server refused for this session since the last call (``name: why``), to show on the page."""
    if _guard is None or session_id is None:
        return []
    with _guard.lock:
        return _guard.refused.pop(session_id, [])


def forget_lost(session_id: str | None) -> None:
    """The page has said which files were lost (and shows new, empty uploaders): stop naming them."""
    if _guard is not None and session_id is not None:
        with _guard.lock:
            _guard.lost.pop(session_id, None)


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
