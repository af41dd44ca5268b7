"""A box for a submission's code: one command, its limits, its own processes, all of them ended before it returns.

:func:`run_in_box` runs a command (the notebook runner, or one evaluation of a student's
function) in a box and returns what it wrote to its standard output: the only way out of the
box is a pipe held by the grader. Every box has, on any Linux (**basic**):

* its own session and process group, a first process (:mod:`irlab.exercises.grading.box_init`) that
  is a child subreaper and kills every descendant when the command ends (also one started with
  ``setsid``), and a wall-clock limit;
* an empty environment (``PATH``, ``LANG`` and a ``HOME`` and ``TMPDIR`` inside the box's own
  temporary folder, which is also its working folder), so no variable of the grader reaches it;
* per-process limits: address space, CPU seconds, file size, no core files, and, without a cgroup, a
  process limit (``RLIMIT_NPROC``: the processes the grader's user already has plus
  :attr:`BoxLimits.processes`, because the kernel counts all of that user's processes, also those
  of other boxes: run one box at a time then);
* no capabilities, and no way to gain any (``no_new_privs``), also when the grader runs as root.

Where the machine allows (found out at run time by :func:`detect_isolation`):

* **namespaces** (``unshare``, as root or through a user namespace): a PID namespace (the box
  sees only its own processes in ``/proc``, cannot signal or trace anything outside, and the
  kernel kills everything in it when its first process ends), a mount namespace (its own
  ``/proc`` with ``/proc/sys`` read-only, a size-limited tmpfs as its folder), a network
  namespace with only loopback (no network), and its own IPC and host name;
* **a file system of its own** (in that mount namespace): a new root holding only what Python
  needs, read-only (:func:`visible_paths`: the system's programs, libraries and settings, and this
  Python with its packages), a ``/dev`` of its own, and a size-limited tmpfs as ``/tmp``, the only
  place it can write. The grader's files, the submissions, the roster, the lecturer's secret and
  your home folder are not there at all. When the grader is root, the box's processes run as the
  user nobody (:data:`NOBODY`), who owns no file of this machine;
* a **cgroup** (v1, or v2 where its controllers are delegated to us): one memory limit for all
  the box's processes together, one task limit (processes and threads), the peak of both, and
  freezing the box to kill it all at once.

Without a file system of its own (no mount namespace), the box reads and writes every file the
grader's user can; the scripts it runs come from the grader's memory anyway
(:mod:`irlab.exercises.grading.box_code`). No layer limits CPU shares. docs/grading.md says which test shows
each claim, and what needs a container.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import functools
import json
import os
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from irlab.exercises.grading.box_code import worker_source

TIMED_OUT = 124
"""The exit status of a box that ran out of wall-clock time (box_init.py's ``TIMED_OUT``, as coreutils' timeout).

The grader never imports box_init.py (nor the other scripts a box runs): importing runs a file's code,
and these files are the ones a submission could have changed (:mod:`irlab.exercises.grading.box_code`)."""
NOBODY = 65534
"""The user a box's processes run as when the grader is root and the box has a file system of its own."""
BOX_ENV = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1",
           "PYTHONNOUSERSITE": "1", "JUPYTER_PLATFORM_DIRS": "1", "MPLBACKEND": "Agg",
           "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
"""The whole environment of a box (``HOME`` and ``TMPDIR`` are added, inside the box's folder)."""
_UNSHARE = ("--pid", "--fork", "--kill-child", "--mount-proc", "--net", "--ipc", "--uts")
_CGROUP_ROOT = Path("/sys/fs/cgroup")


@dataclass(frozen=True)
class BoxLimits:
    """What one box may use.

    ``memory_mb`` bounds each process's address space, and with a cgroup all the box's processes
    together; ``processes`` counts processes and threads (a Jupyter kernel alone has about 10);
    ``file_mb`` bounds each file written, ``disk_mb`` the box's tmpfs (with namespaces).
    """

    wall_seconds: float
    memory_mb: int = 2048
    processes: int = 128
    cpu_seconds: int = 180
    file_mb: int = 64
    disk_mb: int = 256


@dataclass(frozen=True)
class Isolation:
    """The layers a box gets beyond the basic ones: namespaces, a file system of its own (``files``: needs
    namespaces), and a cgroup (``"v1"``, ``"v2"`` or ``""``)."""

    namespaces: bool = False
    cgroup: str = ""
    files: bool = False

    @property
    def uid(self) -> int | None:
        """The user the box's processes run as: nobody when we are root and the box has its own files, else ours."""
        return NOBODY if self.files and os.geteuid() == 0 else None

    def describe(self) -> str:
        """One line for the lecturer: which layers grading uses on this machine."""
        parts = ["process group, subreaper, empty environment, per-process limits, no capabilities, "
                 "grading scripts from the grader's memory"]
        if self.namespaces:
            parts.append("PID, mount, network and IPC namespaces (unshare)")
        if self.files:
            parts.append("a read-only file system of its own (only its folder writable; your files, the grader and "
                         "the other submissions out of sight)" + (", as the user nobody" if self.uid else ""))
        if self.cgroup:
            parts.append(f"cgroup {self.cgroup} (memory and tasks of the whole box)")
        missing = [name for name, there in (("namespaces", self.namespaces), ("a file system of its own", self.files),
                                            ("a cgroup", self.cgroup)) if not there]
        text = "; ".join(parts)
        if missing:
            listed = missing[0] if len(missing) == 1 else ", ".join(missing[:-1]) + " or " + missing[-1]
            text += f"; without {listed} (docs/grading.md says what that leaves open)"
        if not self.files:
            text += ("; WITHOUT A FILE SYSTEM OF ITS OWN a submission reads and writes every file your user can: "
                     "grade in a container (docs/grading.md)")
        return text


BASIC = Isolation()
"""Only the layers every Linux machine has."""


@dataclass(frozen=True)
class BoxRun:
    """What came out of a box: its standard output (capped), the end of its standard error, how it ended.

    ``status`` is the command's exit status (124: out of wall-clock time; 128 + N: ended by signal
    N). ``peak_memory_mb``, ``peak_tasks`` and ``oom_kills`` come from the cgroup (None without one).
    """

    stdout: bytes
    stderr: bytes
    status: int
    peak_memory_mb: float | None = None
    peak_tasks: int | None = None
    oom_kills: int = 0
    left_running: int = 0
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def timed_out(self) -> bool:
        return self.status == TIMED_OUT


# ---------------------------------------------------------------------------------------------
# What this machine allows
# ---------------------------------------------------------------------------------------------

@functools.cache
def detect_isolation() -> Isolation:
    """The layers this machine allows us, tried once per process (a whole box each: well under a second)."""
    namespaces = _namespaces_work(Isolation(namespaces=True))
    files = namespaces and _namespaces_work(Isolation(namespaces=True, files=True))
    return Isolation(namespaces=namespaces, cgroup=_cgroup_version(), files=files)


def visible_paths() -> list[str]:
    """What a box with a file system of its own sees (read-only): the system's programs, libraries and settings,
    and this Python with its standard library and packages (a virtual environment's and the one it is made from).

    Not the folders on ``sys.path`` that are not Python's own (the current folder, an editable
    install's source): a submission has no use for them, and they may hold the grader's files.
    """
    paths = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc"]
    paths += [sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix,
              os.path.dirname(os.path.realpath(sys.executable))]
    paths += package_paths()
    unique: list[str] = []
    for path in paths:
        if path and os.path.isabs(path) and os.path.exists(path) and os.path.abspath(path) != "/" \
                and path not in unique:
            unique.append(path)
    return unique


def _unshare_command() -> list[str] | None:
    path = shutil.which("unshare")
    if path is None:
        return None
    user = [] if os.geteuid() == 0 else ["--user", "--map-root-user"]
    return [path, *user, *_UNSHARE, "--"]


def package_paths() -> list[str]:
    """The folders of installed packages on this Python's path (``site-packages``), for a box that starts Python
    without ``site`` (``-S``: so no ``.pth`` file in them runs code) and puts them on its path itself."""
    return [path for path in sys.path if path.endswith(("site-packages", "dist-packages")) and os.path.isdir(path)]


_PROBE = """import json, os, sys
modules = [name for name in ("nbclient", "ipykernel") if name in sys.argv[1:]]
for name in modules:
    __import__(name)
print("ok")
"""


def _namespaces_work(isolation: Isolation) -> bool:
    """Whether a whole box with these layers (loopback up, mounts made, capabilities dropped) runs Python, with the
    packages grading a notebook needs when they are installed here."""
    if _unshare_command() is None:
        return False
    import importlib.util

    wanted = [name for name in ("nbclient", "ipykernel") if importlib.util.find_spec(name) is not None]
    run = run_in_box([sys.executable, "-I", "-c", _PROBE, *wanted], b"", BoxLimits(wall_seconds=30), isolation)
    return run.status == 0 and run.stdout == b"ok\n"


def _own_cgroup(controller: str) -> Path | None:
    """Our cgroup's folder for a v1 controller, or (``controller == ""``) in the v2 hierarchy."""
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        _, controllers, path = line.split(":", 2)
        if (controller and controller in controllers.split(",")) or (not controller and controllers == ""):
            base = _CGROUP_ROOT / controller if controller else _CGROUP_ROOT
            folder = base / path.lstrip("/")
            return folder if folder.is_dir() else None
    return None


def _v1_parents() -> dict[str, Path] | None:
    parents = {name: _own_cgroup(name) for name in ("memory", "pids")}
    if any(p is None or not (p / "cgroup.procs").exists() for p in parents.values()):
        return None
    freezer = _own_cgroup("freezer")
    if freezer is not None:
        parents["freezer"] = freezer
    return parents  # type: ignore[return-value]


def _v2_parent() -> Path | None:
    parent = _own_cgroup("")
    if parent is None or not (parent / "cgroup.controllers").exists():
        return None
    return parent


def _cgroup_version() -> str:
    for version in ("v1", "v2"):
        try:
            group = _Cgroup.create(version, BoxLimits(wall_seconds=1, memory_mb=64, processes=8))
        except OSError:
            continue
        group.remove()
        return version
    return ""


class _Cgroup:
    """The box's cgroup folders: limits written at creation; kill, peaks and removal at the end."""

    def __init__(self, version: str, folders: dict[str, Path]):
        self.version, self.folders = version, folders

    @classmethod
    def create(cls, version: str, limits: BoxLimits) -> _Cgroup:
        name = f"irlab-box-{uuid.uuid4().hex[:12]}"
        memory = str(limits.memory_mb * 2**20)
        if version == "v1":
            parents = _v1_parents()
            if parents is None:
                raise OSError("no writable cgroup v1 memory and pids hierarchies")
            group = cls(version, {})
            try:
                for controller, parent in parents.items():
                    folder = parent / name
                    folder.mkdir()
                    group.folders[controller] = folder
                memory_folder = group.folders["memory"]
                (memory_folder / "memory.limit_in_bytes").write_text(memory)
                if (memory_folder / "memory.memsw.limit_in_bytes").exists():  # no swapping around the limit
                    (memory_folder / "memory.memsw.limit_in_bytes").write_text(memory)
                (group.folders["pids"] / "pids.max").write_text(str(limits.processes))
            except OSError:
                group.remove()
                raise
            return group
        parent = _v2_parent()
        if parent is None:
            raise OSError("no cgroup v2 hierarchy")
        enabled = set((parent / "cgroup.subtree_control").read_text().split())
        if not {"memory", "pids"} <= enabled:
            raise OSError("memory and pids controllers are not delegated to our cgroup")
        folder = parent / name
        folder.mkdir()
        group = cls(version, {"all": folder})
        try:
            (folder / "memory.max").write_text(memory)
            if (folder / "memory.swap.max").exists():
                (folder / "memory.swap.max").write_text("0")
            (folder / "pids.max").write_text(str(limits.processes))
        except OSError:
            group.remove()
            raise
        return group

    @property
    def procs_files(self) -> list[str]:
        return [str(folder / "cgroup.procs") for folder in self.folders.values()]

    def pids(self) -> set[int]:
        found: set[int] = set()
        for folder in self.folders.values():
            with contextlib.suppress(OSError):
                found.update(int(line) for line in (folder / "cgroup.procs").read_text().split())
        return found

    def kill_all(self, seconds: float = 10.0) -> int:
        """Freeze the box (when we can), kill every process in it, and wait until none is left; how many were."""
        killed: set[int] = set()
        freezer = self.folders.get("freezer")
        all_folder = self.folders.get("all")
        if all_folder is not None and (all_folder / "cgroup.kill").exists():
            killed = self.pids()
            _write(all_folder / "cgroup.kill", "1")
        elif freezer is not None:
            _write(freezer / "freezer.state", "FROZEN")
        deadline = time.monotonic() + seconds
        while (pids := self.pids()) and time.monotonic() < deadline:
            killed |= pids
            for pid in pids:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            if freezer is not None:
                _write(freezer / "freezer.state", "THAWED")  # a frozen process dies only once thawed
            time.sleep(0.01)
        return len(killed)

    def peaks(self) -> tuple[float | None, int | None, int]:
        """Peak memory in MB, peak tasks, and how many processes the memory limit killed."""
        if self.version == "v1":
            memory = _read_int(self.folders["memory"] / "memory.max_usage_in_bytes")
            tasks = _read_int(self.folders["pids"] / "pids.peak")
            oom = _read_key(self.folders["memory"] / "memory.oom_control", "oom_kill")
        else:
            memory = _read_int(self.folders["all"] / "memory.peak")
            tasks = _read_int(self.folders["all"] / "pids.peak")
            oom = _read_key(self.folders["all"] / "memory.events", "oom_kill")
        return (None if memory is None else memory / 2**20), tasks, oom or 0

    def remove(self) -> None:
        for folder in self.folders.values():
            for _ in range(100):  # a killed process leaves its cgroup a moment after it is reaped
                try:
                    folder.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.01)


def _write(path: Path, text: str) -> None:
    with contextlib.suppress(OSError):
        path.write_text(text)


def _read_int(path: Path) -> int | None:
    try:
        return int(path.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def _read_key(path: Path, key: str) -> int | None:
    try:
        for line in path.read_text().splitlines():
            name, _, value = line.partition(" ")
            if name == key:
                return int(value)
    except (OSError, ValueError):
        return None
    return None


# ---------------------------------------------------------------------------------------------
# The grader's side
# ---------------------------------------------------------------------------------------------

_PR_SET_DUMPABLE = 4


def protect_grader() -> None:
    """Make this process non-dumpable: a process of the same user then cannot read its ``/proc`` entries.

    Boxes without a PID namespace can see the grader in ``/proc``; its environment (which may hold a
    lecturer's secrets), memory and open files are then closed to them. It applies to this process
    for the rest of its life (core dumps and debuggers that attach are refused too).
    """
    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    libc.prctl(_PR_SET_DUMPABLE, ctypes.c_ulong(0), 0, 0, 0)


def _user_processes(uid: int | None = None) -> int:
    """How many processes and threads a user (ours by default) runs now (what RLIMIT_NPROC counts)."""
    uid, count = os.getuid() if uid is None else uid, 0
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                if os.stat(f"/proc/{name}").st_uid == uid:
                    count += len(os.listdir(f"/proc/{name}/task"))
            except OSError:
                pass
    return count


def run_in_box(command: Sequence[str], stdin: bytes, limits: BoxLimits, isolation: Isolation | None = None,
               *, max_output: int = 4 * 2**20, env: Mapping[str, str] | None = None) -> BoxRun:
    """Run ``command`` in a new box, feed it ``stdin``, and return its output once every process of the box is gone.

    Never raises for anything the command does; its output beyond ``max_output`` bytes is dropped.
    """
    isolation = detect_isolation() if isolation is None else isolation
    notes: list[str] = []
    folder = Path(tempfile.mkdtemp(prefix="irlab-box-"))
    group = None
    if isolation.cgroup:
        try:
            group = _Cgroup.create(isolation.cgroup, limits)
        except OSError as error:  # e.g. a cgroup folder we could create when probing but not now
            notes.append(f"no cgroup for this box ({error})")
    try:
        for sub in ("home", "tmp"):
            (folder / sub).mkdir(mode=0o700)
        unshare = _unshare_command() if isolation.namespaces else None
        files = bool(unshare) and isolation.files
        uid = isolation.uid if files else None
        source = worker_source("box_init.py")
        config = {"stage": "enter", "cgroups": group.procs_files if group else [], "unshare": unshare,
                  "folder": str(folder), "env": {**BOX_ENV, **(env or {})}, "command": list(command),
                  "wall_seconds": limits.wall_seconds, "memory_mb": limits.memory_mb, "file_mb": limits.file_mb,
                  "disk_mb": limits.disk_mb, "cpu_seconds": limits.cpu_seconds, "source": source,
                  "files": files, "visible": visible_paths() if files else [], "uid": uid,
                  # RLIMIT_NPROC counts every process of the box's user, also other boxes': only without a cgroup
                  "nproc": None if group else _user_processes(uid) + limits.processes}
        process = subprocess.Popen([sys.executable, "-I", "-S", "-c", source, json.dumps(config)],
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   env=dict(BOX_ENV), cwd=folder, start_new_session=True)
        stdout, stderr = _exchange(process, stdin, limits.wall_seconds + 15, max_output)
        try:
            status = process.wait(timeout=limits.wall_seconds + 15)
        except subprocess.TimeoutExpired:
            status = TIMED_OUT
        _stop(process)
        left = 0
        peaks: tuple[float | None, int | None, int] = (None, None, 0)
        if group is not None:
            left = group.kill_all()
            peaks = group.peaks()
        return BoxRun(stdout, stderr, status, *peaks, left_running=left, notes=tuple(notes))
    finally:
        if group is not None:
            group.remove()
        shutil.rmtree(folder, ignore_errors=True)


def _exchange(process: subprocess.Popen, data: bytes, seconds: float, max_output: int) -> tuple[bytes, bytes]:
    """Write ``data`` to the process's stdin and read its stdout and stderr until both close or time is up."""
    assert process.stdin and process.stdout and process.stderr
    outputs: dict[int, bytearray] = {process.stdout.fileno(): bytearray(), process.stderr.fileno(): bytearray()}
    limits = {process.stdout.fileno(): max_output, process.stderr.fileno(): 64 * 2**10}
    pending = memoryview(data)
    stdin_fd = process.stdin.fileno()
    with selectors.DefaultSelector() as selector:
        for stream in (process.stdout, process.stderr):
            os.set_blocking(stream.fileno(), False)
            selector.register(stream.fileno(), selectors.EVENT_READ)
        if pending:
            os.set_blocking(stdin_fd, False)
            selector.register(stdin_fd, selectors.EVENT_WRITE)
        else:
            process.stdin.close()
        deadline = time.monotonic() + seconds
        while selector.get_map() and (left := deadline - time.monotonic()) > 0:
            for key, _ in selector.select(min(left, 1.0)):
                fd = key.fd
                if fd == stdin_fd:
                    try:
                        written = os.write(fd, pending[:65536])
                    except (BrokenPipeError, BlockingIOError) as error:
                        written = 0 if isinstance(error, BlockingIOError) else len(pending)
                    pending = pending[written:]
                    if not pending:
                        selector.unregister(fd)
                        process.stdin.close()
                    continue
                try:
                    chunk = os.read(fd, 65536)
                except BlockingIOError:
                    continue
                if not chunk:
                    selector.unregister(fd)
                    continue
                buffer = outputs[fd]
                room = limits[fd] - len(buffer)
                if fd == process.stderr.fileno():  # keep the end of stderr: the last lines say what went wrong
                    buffer.extend(chunk)
                    del buffer[:max(0, len(buffer) - limits[fd])]
                elif room > 0:
                    buffer.extend(chunk[:room])
    if not process.stdin.closed:
        process.stdin.close()
    return bytes(outputs[process.stdout.fileno()]), bytes(outputs[process.stderr.fileno()])


def _stop(process: subprocess.Popen) -> None:
    """Kill the box's process group (and with it ``unshare``, whose child is then killed by the kernel)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=15)
    for stream in (process.stdout, process.stderr):
        if stream is not None:
            stream.close()
