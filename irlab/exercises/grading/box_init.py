"""The first process of a grading box: it sets the box up, runs one command in it, and ends every process in it.

    python -I -S -c SOURCE CONFIG_JSON

Started by :mod:`irlab.exercises.grading.sandbox` with this file's source as the grader holds it (read and
checked once, :mod:`irlab.exercises.grading.box_code`: a changed file on disk is never run), with the standard
library only (``-S``: not even site-packages), so nothing a submission could have changed is imported.
It runs in two stages, both in this source:

* **enter** (started by the grader, outside any namespace): moves itself into the box's cgroups
  (``cgroups``: their ``cgroup.procs`` files), so every process it starts is counted there; asks
  the kernel for SIGKILL when the grader dies; then either runs **inside** itself, or, with
  ``unshare`` set, execs that command line (``unshare --pid --fork --kill-child --mount-proc --net
  ...``), which starts this source again as **inside**, as PID 1 of a new PID namespace.
* **inside**: becomes a child subreaper (every orphaned descendant, also one that called
  ``setsid``, is re-parented to this process instead of to the machine's init), brings the
  loopback interface up in a new network namespace (the kernel and its client talk over it), and
  in the new mount namespace either gives the box **a file system of its own** (``files``:
  :func:`new_root`, a read-only view of the few folders Python needs and a size-limited tmpfs as
  the only writable place) or mounts a size-limited tmpfs on the box folder; ``/proc/sys`` is
  read-only either way. It sets the resource
  limits (address space, CPU seconds, file size, processes, no core files), makes itself
  non-dumpable (a process of the same user cannot read its memory, file descriptors or
  environment through ``/proc``), empties the capability bounding, inheritable and ambient sets and
  sets ``no_new_privs`` (what it starts has no capabilities, even as root, and cannot gain any),
  then starts the command (as ``uid``, the user nobody, when the grader is root and the box has a
  file system of its own) with the box's environment and waits for it, at most
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
_MS_RDONLY, _MS_NOSUID, _MS_NODEV, _MS_NOEXEC = 1, 2, 4, 8
_MS_REMOUNT, _MS_NOATIME, _MS_NODIRATIME, _MS_BIND, _MS_MOVE, _MS_REC = 32, 1024, 2048, 4096, 8192, 16384
_MS_PRIVATE, _MS_RELATIME, _MNT_DETACH = 1 << 18, 1 << 21, 2
_ST_NOEXEC, _ST_NOATIME, _ST_NODIRATIME, _ST_RELATIME = 8, 1024, 2048, 4096
_MOUNT_ATTR_RDONLY, _MOUNT_ATTR_NOSUID, _MOUNT_ATTR_NODEV = 1, 2, 4
_AT_FDCWD, _AT_RECURSIVE = -100, 0x8000
_SYS_MOUNT_SETATTR = 442  # the same number on every architecture (added after the tables were unified)
_SYS_PIVOT_ROOT = {"x86_64": 155, "aarch64": 41}
_DEVICES = ("null", "zero", "full", "random", "urandom")
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
        command = [*config["unshare"], sys.executable, "-I", "-S", "-c", config["source"], json.dumps(inside)]
        os.execve(command[0], command, dict(os.environ))
    sys.exit(run_inside(config))


def _loopback_up() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        request = struct.pack("16sH14x", b"lo", 0)
        flags = struct.unpack("16sH14x", fcntl.ioctl(sock, _SIOCGIFFLAGS, request))[1]
        fcntl.ioctl(sock, _SIOCSIFFLAGS, struct.pack("16sH14x", b"lo", flags | _IFF_UP))


def _mount(source: str | None, target: str, kind: str | None, flags: int, options: str | None = None) -> None:
    def encoded(text: str | None) -> bytes | None:
        return None if text is None else text.encode()

    if _libc.mount(encoded(source), encoded(target), encoded(kind), ctypes.c_ulong(flags), encoded(options)) != 0:
        error = ctypes.get_errno()
        raise OSError(error, f"cannot mount {kind or source} on {target}: {os.strerror(error)}")


def _mount_tmpfs(folder: str, megabytes: int) -> None:
    _mount("tmpfs", folder, "tmpfs", _MS_NOSUID | _MS_NODEV, f"size={megabytes}m,mode=0700")
    for sub in ("home", "tmp"):
        os.mkdir(os.path.join(folder, sub), 0o700)


def _read_only_proc_sys(proc: str) -> None:
    """Make ``/proc/sys`` read-only: a box running as root without capabilities could otherwise change kernel
    settings of the whole machine (most of them check only the file's mode), e.g. ``/proc/sys/vm/*``."""
    sys_folder = os.path.join(proc, "sys")
    _mount(sys_folder, sys_folder, None, _MS_BIND | _MS_REC)
    _read_only(sys_folder)


class _MountAttr(ctypes.Structure):
    _fields_ = [("attr_set", ctypes.c_uint64), ("attr_clr", ctypes.c_uint64), ("propagation", ctypes.c_uint64),
                ("userns_fd", ctypes.c_uint64)]


def _read_only(target: str) -> None:
    """Make the mount at ``target`` and every mount below it read-only, nosuid and nodev.

    With ``mount_setattr`` (Linux 5.12) in one call; else each mount is remounted, keeping the flags
    it has (a user namespace may not clear them: noexec and the atime flags).
    """
    attributes = _MountAttr(_MOUNT_ATTR_RDONLY | _MOUNT_ATTR_NOSUID | _MOUNT_ATTR_NODEV, 0, 0, 0)
    syscall = _libc.syscall
    syscall.restype = ctypes.c_long
    done = syscall(ctypes.c_long(_SYS_MOUNT_SETATTR), ctypes.c_int(_AT_FDCWD), target.encode(),
                   ctypes.c_uint(_AT_RECURSIVE), ctypes.byref(attributes), ctypes.c_size_t(ctypes.sizeof(attributes)))
    if done == 0:
        return
    with open("/proc/self/mountinfo") as handle:
        points = [line.split()[4].encode().decode("unicode_escape") for line in handle]
    for point in [target] + [p for p in points if p.startswith(target.rstrip("/") + "/")]:
        kept = os.statvfs(point).f_flag
        flags = _MS_BIND | _MS_REMOUNT | _MS_RDONLY | _MS_NOSUID | _MS_NODEV
        for have, keep in ((_ST_NOEXEC, _MS_NOEXEC), (_ST_NOATIME, _MS_NOATIME), (_ST_NODIRATIME, _MS_NODIRATIME),
                           (_ST_RELATIME, _MS_RELATIME)):
            if kept & have:
                flags |= keep
        _mount(None, point, None, flags)


def _make_path(root: str, path: str, visible: set[str]) -> str | None:
    """Make ``path`` (a folder or file of this machine) appear at the same place under ``root``, read-only.

    Every symbolic link on the way is made again under ``root`` (``/lib -> usr/lib``, a virtual
    environment's ``python -> /usr/bin/python3``) and followed; the folder or file itself is bind
    mounted. A path below one that is already visible is there already. Returns the real path.
    """
    current = "/"
    parts = [part for part in path.split("/") if part]
    for index, part in enumerate(parts):
        host = os.path.join(current, part)
        if any(host == seen or host.startswith(seen.rstrip("/") + "/") for seen in visible):
            return None  # inside a folder that is already there (read-only: nothing to make)
        inside = root + host
        if os.path.islink(host):
            if not os.path.lexists(inside):
                os.symlink(os.readlink(host), inside)
            rest = os.path.join(os.path.realpath(host), *parts[index + 1:])
            return _make_path(root, rest, visible)
        if not os.path.exists(host):
            return None
        if index == len(parts) - 1:
            if os.path.isdir(host):
                os.makedirs(inside, mode=0o755, exist_ok=True)
            else:
                with open(inside, "a"):
                    pass
            _mount(host, inside, None, _MS_BIND | _MS_REC)
            _read_only(inside)
            visible.add(host)
            return host
        if not os.path.isdir(inside):
            os.mkdir(inside, 0o755)
        current = host
    return None


def _make_dev(root: str) -> None:
    """A ``/dev`` with only the harmless devices, the usual links, and a small ``/dev/shm``."""
    dev = root + "/dev"
    os.mkdir(dev, 0o755)
    _mount("tmpfs", dev, "tmpfs", _MS_NOSUID | _MS_NOEXEC, "size=64k,mode=0755")
    for name in _DEVICES:
        with open(os.path.join(dev, name), "a"):
            pass
        _mount(f"/dev/{name}", os.path.join(dev, name), None, _MS_BIND)
    for name, target in (("fd", "/proc/self/fd"), ("stdin", "/proc/self/fd/0"), ("stdout", "/proc/self/fd/1"),
                         ("stderr", "/proc/self/fd/2")):
        os.symlink(target, os.path.join(dev, name))
    os.mkdir(os.path.join(dev, "shm"), 0o1777)
    _mount("tmpfs", os.path.join(dev, "shm"), "tmpfs", _MS_NOSUID | _MS_NODEV | _MS_NOEXEC, "size=64m,mode=1777")
    _mount(None, dev, None, _MS_BIND | _MS_REMOUNT | _MS_RDONLY | _MS_NOSUID | _MS_NOEXEC)


def _pivot(root: str) -> None:
    """Make ``root`` the root of this mount namespace and drop the old one (``pivot_root``, else move + chroot)."""
    os.chdir(root)
    number = _SYS_PIVOT_ROOT.get(os.uname().machine)
    if number is not None and _libc.syscall(ctypes.c_long(number), b".", b".") == 0:
        if _libc.umount2(b".", _MNT_DETACH) != 0:  # the old root, now stacked on the new one
            raise OSError(ctypes.get_errno(), "cannot detach the old root")
    else:
        _mount(root, "/", None, _MS_MOVE)
        if _libc.chroot(b".") != 0:
            raise OSError(ctypes.get_errno(), "cannot change the root")
    os.chdir("/")


def new_root(config: dict) -> str:
    """Give this mount namespace a file system of its own; returns the box's folder in it.

    The new root is a tmpfs, read-only once made, holding: the folders in ``config["visible"]``
    (Python, its libraries, the system's programs and settings) bind mounted read-only at their
    own paths; a fresh ``/proc`` of the box's PID namespace with ``/proc/sys`` read-only; a
    ``/dev`` of its own; and ``/tmp``, a tmpfs of ``disk_mb`` MB, the only place the box can write,
    which holds the box's folder (``home`` and ``tmp`` in it). Nothing else of this machine is
    there: not the grader's files, not the submissions, not your home folder.
    """
    os.umask(0o022)
    _mount(None, "/", None, _MS_REC | _MS_PRIVATE)
    root = config["folder"]
    _mount("tmpfs", root, "tmpfs", _MS_NOSUID | _MS_NODEV, "size=4m,mode=0755")
    os.mkdir(root + "/tmp", 0o1777)  # first: a visible folder under /tmp (a virtual environment there) goes on it
    _mount("tmpfs", root + "/tmp", "tmpfs", _MS_NOSUID | _MS_NODEV, f"size={config['disk_mb']}m,mode=1777")
    visible: set[str] = set()
    for path in sorted(config["visible"], key=len):
        if os.path.abspath(path) != "/":
            _make_path(root, os.path.abspath(path), visible)
    os.mkdir(root + "/proc", 0o555)
    _mount("proc", root + "/proc", "proc", _MS_NOSUID | _MS_NODEV | _MS_NOEXEC)
    _read_only_proc_sys(root + "/proc")
    _make_dev(root)
    folder = "/tmp/" + os.path.basename(config["folder"].rstrip("/"))
    uid = config["uid"]
    for path in (folder, folder + "/home", folder + "/tmp"):
        os.mkdir(root + path, 0o700)
        if uid is not None:
            os.chown(root + path, uid, uid)
    _mount(None, root, None, _MS_BIND | _MS_REMOUNT | _MS_RDONLY | _MS_NOSUID | _MS_NODEV)
    _pivot(root)
    return folder


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
    folder = config["folder"]
    uid = None
    if namespaced:
        _loopback_up()
        if config["files"]:
            folder, uid = new_root(config), config["uid"]
        else:
            _mount_tmpfs(folder, config["disk_mb"])
            _read_only_proc_sys("/proc")
    env = {**config["env"], "HOME": os.path.join(folder, "home"), "TMPDIR": os.path.join(folder, "tmp")}
    deadline = time.monotonic() + config["wall_seconds"]
    _drop_capabilities()
    child = os.fork()
    if child == 0:
        try:
            _limit(config)
            if uid is not None:  # the user nobody: owns no file of this machine, and the kernel counts its processes
                os.setgroups([])
                os.setgid(uid)
                os.setuid(uid)
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
