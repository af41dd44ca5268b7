"""The first process of a grading box: it sets the box up, runs one command in it, and ends every process in it.

    python -I -S box_init.py CONFIG_JSON

Started by :mod:`irlab.exercises.sandbox` and run as a script with the standard library only (``-S``:
not even site-packages), so nothing a submission could have changed is imported. It runs in two
stages, both in this file:

* **enter** (started by the grader, outside any namespace): moves itself into the box's cgroups
  (``cgroups``: their ``cgroup.procs`` files), so every process it starts is counted there; asks
  the kernel for SIGKILL when the grader dies; then either runs **inside** itself, or, with
  ``unshare`` set, execs that command line (``unshare --pid --fork --kill-child --mount-proc --net
  ...``), which starts this file again as **inside**, as PID 1 of a new PID namespace.
* **inside**: becomes a child subreaper (every orphaned descendant, also one that called
  ``setsid``, is re-parented to this process instead of to the machine's init), brings the
  loopback interface up in a new network namespace (the kernel and its client talk over it),
  mounts a size-limited tmpfs on the box folder in a new mount namespace, sets the resource
  limits (address space, CPU seconds, file size, processes, no core files), makes itself
  non-dumpable (a process of the same user cannot read its memory, file descriptors or
  environment through ``/proc``), empties the capability bounding, inheritable and ambient sets and
  sets ``no_new_privs`` (what it starts has no capabilities, even as root, and cannot gain any),
  then starts the command with the box's environment and waits for it, at most
  ``wall_seconds``. When the command ends (or the time is up) it kills every descendant left,
  reaps them, and exits with the command's status (124 when the time was up; 128 + N when a
  signal N ended it).

As PID 1 of a PID namespace, no process in the box can kill it (the kernel drops SIGKILL and
SIGSTOP sent from inside, and it ignores the rest), and when it exits the kernel kills whatever
is left in the namespace and waits for it.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import fcntl
import json
import os
import resource
import signal
import socket
import struct
import sys
import time

TIMED_OUT = 124
"""The exit status when the command ran out of wall-clock time (as coreutils' ``timeout``)."""

_PR_SET_PDEATHSIG = 1
_PR_SET_DUMPABLE = 4
_PR_CAPBSET_DROP = 24
_PR_SET_CHILD_SUBREAPER = 36
_PR_SET_NO_NEW_PRIVS = 38
_PR_CAP_AMBIENT = 47
_PR_CAP_AMBIENT_CLEAR_ALL = 4
_MS_NOSUID, _MS_NODEV = 2, 4
_SIOCGIFFLAGS, _SIOCSIFFLAGS, _IFF_UP = 0x8913, 0x8914, 0x1

_libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)


def _prctl(option: int, value: int) -> bool:
    return _libc.prctl(option, ctypes.c_ulong(value), 0, 0, 0) == 0


def enter(config: dict) -> None:
    """Outside: join the cgroups, die with the grader, then go inside (directly or through ``unshare``)."""
    _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    for procs in config["cgroups"]:
        with open(procs, "w") as handle:
            handle.write(str(os.getpid()))
    if config["unshare"]:
        inside = {**config, "stage": "inside"}
        command = [*config["unshare"], sys.executable, "-I", "-S", os.path.abspath(__file__), json.dumps(inside)]
        os.execve(command[0], command, dict(os.environ))
    sys.exit(run_inside(config))


def _loopback_up() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        request = struct.pack("16sH14x", b"lo", 0)
        flags = struct.unpack("16sH14x", fcntl.ioctl(sock, _SIOCGIFFLAGS, request))[1]
        fcntl.ioctl(sock, _SIOCSIFFLAGS, struct.pack("16sH14x", b"lo", flags | _IFF_UP))


def _mount_tmpfs(folder: str, megabytes: int) -> None:
    options = f"size={megabytes}m,mode=0700".encode()
    if _libc.mount(b"tmpfs", folder.encode(), b"tmpfs", _MS_NOSUID | _MS_NODEV, options) != 0:
        raise OSError(ctypes.get_errno(), f"cannot mount a tmpfs on {folder}")
    for sub in ("home", "tmp"):
        os.mkdir(os.path.join(folder, sub), 0o700)


def _limit(config: dict) -> None:
    memory = config["memory_mb"] * 2**20
    file_size = config["file_mb"] * 2**20
    cpu = config["cpu_seconds"]
    limits = [(resource.RLIMIT_AS, memory), (resource.RLIMIT_FSIZE, file_size), (resource.RLIMIT_CPU, cpu),
              (resource.RLIMIT_CORE, 0)]
    if config["nproc"] is not None:  # without a cgroup's task limit
        limits.append((resource.RLIMIT_NPROC, config["nproc"]))
    for which, value in limits:
        resource.setrlimit(which, (value, value))


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]


def _drop_capabilities() -> None:
    """Empty the bounding, ambient and inheritable sets and set no_new_privs.

    This process keeps its own effective capabilities (it still has to kill and reap); whatever it
    execs gets none: at exec, the new permitted set comes from the bounding set (empty) and the
    inheritable and ambient sets (empty), also for uid 0.
    """
    with open("/proc/sys/kernel/cap_last_cap") as handle:
        last = int(handle.read())
    for capability in range(last + 1):
        _prctl(_PR_CAPBSET_DROP, capability)
    _libc.prctl(_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    header, data = _CapHeader(0x20080522, 0), (_CapData * 2)()
    if _libc.capget(ctypes.byref(header), data) == 0:
        for half in data:
            half.inheritable = 0
        _libc.capset(ctypes.byref(header), data)
    if not _prctl(_PR_SET_NO_NEW_PRIVS, 1):
        raise OSError(ctypes.get_errno(), "cannot set no_new_privs")


def _children() -> list[int]:
    """This process's children, from /proc (orphans re-parented to it included)."""
    me, found = os.getpid(), []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as handle:
                stat = handle.read()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2:].split()  # after the command name, which may hold anything
        if len(fields) > 1 and int(fields[1]) == me:
            found.append(int(name))
    return found


def _reap() -> None:
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def end_every_process(seconds: float = 10.0) -> None:
    """Kill every descendant and reap it, until none is left (or ``seconds`` have passed).

    As a subreaper this process inherits every orphan, so what a killed process had started comes
    back here and is killed in the next round.
    """
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        children = _children()
        if not children:
            _reap()
            return
        for pid in children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.01)
        _reap()


def run_inside(config: dict) -> int:
    """Set the box up, run the command for at most ``wall_seconds``, end every process, return its status."""
    _prctl(_PR_SET_CHILD_SUBREAPER, 1)
    _prctl(_PR_SET_DUMPABLE, 0)
    namespaced = os.getpid() == 1
    if namespaced:
        _loopback_up()
        _mount_tmpfs(config["folder"], config["disk_mb"])
    folder = config["folder"]
    env = {**config["env"], "HOME": os.path.join(folder, "home"), "TMPDIR": os.path.join(folder, "tmp")}
    deadline = time.monotonic() + config["wall_seconds"]
    _drop_capabilities()
    child = os.fork()
    if child == 0:
        try:
            _limit(config)
            os.chdir(folder)
            os.closerange(3, 65536)
            os.execve(config["command"][0], config["command"], env)
        finally:
            os._exit(127)
    timed_out = False

    def on_alarm(*_: object) -> None:
        nonlocal timed_out
        if time.monotonic() >= deadline - 0.05:  # a SIGALRM sent from inside the box changes nothing
            timed_out = True
            os.kill(child, signal.SIGKILL)
        else:
            signal.setitimer(signal.ITIMER_REAL, max(0.01, deadline - time.monotonic()))

    def on_stop(*_: object) -> None:  # the grader asks to stop (or died): end everything now
        end_every_process()
        os._exit(TIMED_OUT)

    signal.signal(signal.SIGALRM, on_alarm)
    signal.signal(signal.SIGTERM, signal.SIG_IGN if namespaced else on_stop)
    if not namespaced:
        _prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    signal.setitimer(signal.ITIMER_REAL, config["wall_seconds"])
    status = 0
    while True:
        try:
            pid, status = os.waitpid(-1, 0)
        except ChildProcessError:
            break
        if pid == child:
            break
    signal.setitimer(signal.ITIMER_REAL, 0)
    end_every_process()
    if timed_out:
        return TIMED_OUT
    return 128 + os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)


if __name__ == "__main__":
    settings = json.loads(sys.argv[1])
    if settings["stage"] == "enter":
        enter(settings)
    else:
        sys.exit(run_inside(settings))
