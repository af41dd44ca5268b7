"""The box each submission's code runs in, layer by layer: what holds on any Linux (basic), and what needs
namespaces or a cgroup (skipped where this machine has neither). Plain Python commands, no kernel: fast."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from irlab.exercises.grading.sandbox import (
    BASIC,
    TIMED_OUT,
    BoxLimits,
    Isolation,
    detect_isolation,
    run_in_box,
    visible_paths,
)

HERE = detect_isolation()
LAYERS = [pytest.param(BASIC, id="basic"), pytest.param(HERE, id="this-machine")]
needs_files = pytest.mark.skipif(not HERE.files, reason="a box cannot have a file system of its own here")
SHARED_FILES = [pytest.param(BASIC, id="basic"),
                pytest.param(replace(HERE, files=False), id="this-machine-shared-files")]
"""Where a process in the box can write a file the test reads (a box with a file system of its own cannot)."""
needs_namespaces = pytest.mark.skipif(not HERE.namespaces, reason="unshare is not available here")
needs_cgroup = pytest.mark.skipif(not HERE.cgroup, reason="no writable cgroup (memory and pids) here")


def _python(code: str, isolation: Isolation, **limits) -> tuple[dict, object]:
    run = run_in_box([sys.executable, "-I", "-c", code], b"", BoxLimits(**{"wall_seconds": 20, **limits}), isolation)
    lines = run.stdout.decode().strip().splitlines()
    return (json.loads(lines[-1]) if lines and lines[-1].startswith("{") else {}), run


@pytest.mark.parametrize("isolation", LAYERS)
def test_a_box_has_no_environment_no_capabilities_and_a_folder_of_its_own(isolation, monkeypatch):
    monkeypatch.setenv("IRLAB_TEST_SECRET", "lecturer-secret")
    seen, _ = _python("""import json, os
status = dict(line.split(':\\t', 1) for line in open('/proc/self/status').read().splitlines() if ':\\t' in line)
print(json.dumps({"env": sorted(os.environ), "caps": [status['CapEff'], status['CapBnd'], status['CapInh']],
                  "nnp": status['NoNewPrivs'], "cwd": os.getcwd(), "home": os.environ['HOME']}))""", isolation)
    assert "IRLAB_TEST_SECRET" not in seen["env"] and set(seen["env"]) <= {
        "PATH", "LANG", "HOME", "TMPDIR", "PYTHONDONTWRITEBYTECODE", "PYTHONNOUSERSITE", "JUPYTER_PLATFORM_DIRS",
        "MPLBACKEND", "PYTEST_DISABLE_PLUGIN_AUTOLOAD"}
    assert seen["caps"] == ["0000000000000000"] * 3 and seen["nnp"] == "1"
    assert seen["home"].startswith(seen["cwd"]) and Path(seen["cwd"]).name.startswith("irlab-box-")
    assert not Path(seen["cwd"]).exists()  # removed with the box


@pytest.mark.parametrize("isolation", SHARED_FILES)
def test_a_detached_process_is_killed_before_the_box_returns(isolation, tmp_path):
    marker = tmp_path / "alive.txt"
    daemon = (f"import os, time\nif os.fork(): os._exit(0)\nos.setsid()\nif os.fork(): os._exit(0)\n"
              f"while True:\n    open({str(marker)!r}, 'a').write(repr(time.time()) + '\\n')\n    time.sleep(0.05)\n")
    _, run = _python(f"import subprocess, sys, time\nsubprocess.Popen([sys.executable, '-c', {daemon!r}], "
                     "start_new_session=True)\ntime.sleep(0.5)\nprint('{}')", isolation)
    returned = time.time()
    time.sleep(0.5)
    stamps = [float(line) for line in marker.read_text().split()]
    assert stamps and max(stamps) < returned and run.status == 0


@pytest.mark.parametrize("isolation", LAYERS)
def test_the_wall_clock_ends_a_loop_in_c_that_ignores_signals(isolation):
    started = time.monotonic()
    _, run = _python("import signal\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\nsum(range(10**12))", isolation,
                     wall_seconds=1.5)
    assert run.status == TIMED_OUT and time.monotonic() - started < 12


@pytest.mark.parametrize("isolation", LAYERS)
def test_output_is_capped_and_the_address_space_is_limited(isolation):
    _, run = _python("import sys\nsys.stdout.write('x' * 10_000_000)\ntry:\n    bytearray(3 * 2**30)\n"
                     "except MemoryError:\n    sys.stderr.write('MemoryError')", isolation, memory_mb=1024)
    assert len(run.stdout) == 4 * 2**20 and run.stderr.endswith(b"MemoryError")


GRADER = """import os, sys
from irlab.exercises.grading.sandbox import BASIC, BoxLimits, protect_grader, run_in_box
PROBE = '''import sys
try:
    open(f"/proc/{sys.argv[1]}/environ", "rb").read()
    print("read")
except OSError:
    print("refused")
'''
if sys.argv[1] == "protected":
    protect_grader()
run = run_in_box([sys.executable, "-I", "-c", PROBE, str(os.getpid())], b"", BoxLimits(wall_seconds=20), BASIC)
print(run.stdout.decode().strip())
"""


# As root, the box cannot read it anyway: its permitted capabilities (none) are not a superset of the
# grader's, and the kernel then asks for CAP_SYS_PTRACE. As another user, only non-dumpable protects.
@pytest.mark.parametrize("grader, seen", [("protected", "refused"),
                                          ("as it was", "refused" if os.geteuid() == 0 else "read")])
def test_a_box_without_namespaces_cannot_read_a_protected_graders_environment(tmp_path, grader, seen):
    script = tmp_path / "grader.py"
    script.write_text(GRADER)
    # a grader of its own (this test process stays dumpable), with a secret in its environment
    done = subprocess.run([sys.executable, str(script), grader], capture_output=True, text=True, timeout=60,
                          cwd=Path(__file__).resolve().parents[2], env={**os.environ, "IRLAB_TEST_SECRET": "x"})
    assert done.stdout.strip() == seen, done.stderr


@needs_namespaces
def test_namespaces_hide_every_other_process_and_the_network():
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    port = listener.getsockname()[1]
    seen, _ = _python(f"""import json, os, socket
pids = sorted(int(p) for p in os.listdir('/proc') if p.isdigit())
try:
    socket.create_connection(('127.0.0.1', {port}), timeout=2).close()
    network = 'reached the grader'
except OSError:
    network = 'no route out'
killed = []
for pid in pids:
    try:
        os.kill(pid, 0)
        killed.append(pid)
    except OSError:
        pass
print(json.dumps({{"pids": pids, "ppid": os.getppid(), "network": network, "signalled": killed}}))""", HERE)
    listener.close()
    assert seen["pids"][0] == 1 and len(seen["pids"]) <= 3 and os.getpid() not in seen["pids"]
    assert seen["network"] == "no route out"


@needs_cgroup
def test_one_memory_limit_for_all_the_boxes_processes(tmp_path):
    done = tmp_path / "done.txt"
    # a hog says "done" only once it has held its 300 MB for a while: where the kernel enforces the limit
    # late (gVisor counts a moment after the pages are touched), the one it kills never says it
    hog = f"import time\nb = b'x' * (300 * 2**20)\ntime.sleep(2)\nopen({str(done)!r}, 'a').write('done\\n')"
    _, run = _python(f"import subprocess, sys\nprocs = [subprocess.Popen([sys.executable, '-c', {hog!r}]) "
                     "for _ in range(3)]\nfor p in procs:\n    p.wait()\nprint('{}')", replace(HERE, files=False),
                     memory_mb=700)
    finished = done.read_text().count("done") if done.exists() else 0
    assert finished < 3 and run.oom_kills >= 1
    assert run.peak_memory_mb is not None and run.peak_memory_mb <= 700


@needs_cgroup
def test_one_task_limit_for_all_the_boxes_processes(tmp_path):
    seen, run = _python("""import json, os, time
count = 0
while count < 5000:
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        time.sleep(60)
        os._exit(0)
    count += 1
print(json.dumps({"count": count}))""", HERE, processes=40)
    assert 0 < seen["count"] < 40 and run.peak_tasks is not None and run.peak_tasks <= 40


def test_detection_says_what_this_machine_allows():
    text = HERE.describe()
    assert text.startswith("process group, subreaper, empty environment")
    assert ("namespaces (unshare)" in text) == HERE.namespaces and ("cgroup v" in text) == bool(HERE.cgroup)
    assert ("a read-only file system of its own" in text) == HERE.files
    assert "without namespaces, a file system of its own or a cgroup" in BASIC.describe()
    assert "WITHOUT A FILE SYSTEM OF ITS OWN a submission reads and writes every file" in BASIC.describe()


FILES_PROBE = """import ctypes, json, os, sys
seen = {"uid": os.getuid(), "root": sorted(os.listdir("/")), "dev": sorted(os.listdir("/dev")),
        "tmp": os.listdir("/tmp"), "cwd": os.getcwd()}
def attempt(name, action):
    try:
        action()
        seen[name] = "done"
    except OSError as error:
        seen[name] = type(error).__name__
def write(path):
    with open(path, "a") as handle:
        handle.write("")
attempt("read the grader's file", lambda: open(sys.argv[1]).read())
attempt("write the grader's file", lambda: write(sys.argv[1]))
attempt("write Python's library", lambda: write(os.path.join(sys.argv[2], "irlab-probe.pth")))
attempt("write /etc/passwd", lambda: write("/etc/passwd"))
attempt("write a kernel setting", lambda: write("/proc/sys/vm/swappiness"))
attempt("read PID 1's environment", lambda: open("/proc/1/environ").read())
attempt("write its own folder", lambda: write("own.txt"))
attempt("write /tmp", lambda: write("/tmp/own.txt"))
attempt("write /dev/shm", lambda: write("/dev/shm/own.txt"))
attempt("symlink to the grader's file", lambda: (os.symlink(sys.argv[1], "link"), open("link").read()))
libc = ctypes.CDLL(None, use_errno=True)
seen["remount /usr writable"] = libc.mount(None, b"/usr", None, 32 | 4096, None)  # MS_REMOUNT | MS_BIND
seen["disk"] = os.statvfs("/tmp").f_blocks * os.statvfs("/tmp").f_frsize // 2**20
print(json.dumps(seen))
"""


@needs_files
def test_a_box_with_a_file_system_of_its_own_writes_only_its_folder(tmp_path):
    grader_file = tmp_path / "gradebook.csv"
    grader_file.write_text("secret grades\n")
    site = next(path for path in sys.path if path.endswith("site-packages"))
    run = run_in_box([sys.executable, "-I", "-c", FILES_PROBE, str(grader_file), site], b"",
                     BoxLimits(wall_seconds=20, disk_mb=64), HERE)
    seen = json.loads(run.stdout.decode().strip().splitlines()[-1])
    assert seen["read the grader's file"] == seen["write the grader's file"] == "FileNotFoundError"
    assert seen["symlink to the grader's file"] == "FileNotFoundError"
    for refused in ("write Python's library", "write /etc/passwd", "write a kernel setting"):
        assert seen[refused] in ("PermissionError", "OSError"), (refused, seen[refused])  # EACCES or EROFS
    assert seen["read PID 1's environment"] == "PermissionError"
    assert seen["write its own folder"] == seen["write /tmp"] == seen["write /dev/shm"] == "done"
    assert seen["remount /usr writable"] == -1
    # its /tmp holds its own folder, and the mount points of this Python when it lives under /tmp (a CI clone's venv)
    python_in_tmp = {Path(path).parts[2] for path in [*visible_paths(), *map(os.path.realpath, visible_paths())]
                     if Path(path).parts[:2] == ("/", "tmp") and len(Path(path).parts) > 2}
    assert set(seen["tmp"]) == {Path(seen["cwd"]).name} | python_in_tmp and seen["disk"] == 64
    assert set(seen["dev"]) == {"null", "zero", "full", "random", "urandom", "fd", "stdin", "stdout", "stderr", "shm"}
    # the root holds what a box needs and nothing else: no grader's folder unless Python lives in it
    needed = {"proc", "dev", "tmp"} | {path.strip("/").split("/")[0] for path in visible_paths()}
    assert needed <= set(seen["root"]) <= needed | {os.path.realpath(path).strip("/").split("/")[0]
                                                    for path in visible_paths()}
    assert grader_file.read_text() == "secret grades\n"
    if os.geteuid() == 0:
        assert seen["uid"] == 65534  # nobody: owns no file of this machine
