"""Starting ``deploy/run-local`` for the deploy tests, and finding the processes and replicas it started."""

from __future__ import annotations

import contextlib
import importlib.machinery
import importlib.util
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.browser import free_port, healthy

ROOT = Path(__file__).resolve().parents[2]
RUN_LOCAL = ROOT / "deploy" / "run-local"
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if os.access("/usr/sbin/nginx", os.X_OK) else None)


def load_script(path: Path):
    """A script of deploy/ without a .py suffix (run-local, proxy-entrypoint) as a module, for its functions."""
    loader = importlib.machinery.SourceFileLoader(path.name.replace("-", "_"), str(path))
    spec = importlib.util.spec_from_loader(loader.name, loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def need_nginx() -> None:
    """Skip without Debian's nginx, with the reason; under CI (``CI=true``) fail instead."""
    if NGINX is None:
        if os.environ.get("CI") == "true":
            pytest.fail("nginx is missing: .ci/run installs it (apt-get install -y nginx)")
        pytest.skip("nginx is not installed (apt-get install -y nginx)")


@contextlib.contextmanager
def nginx_in_front(upstream: str, folder: Path, trusted: tuple[str, ...] = ()) -> Iterator[int]:
    """nginx with deploy/nginx_conf.py's configuration for ``upstream`` (``host:port``), its files in ``folder``, on
    a free port once it accepts connections; yields the port."""
    need_nginx()
    sys.path.insert(0, str(ROOT / "deploy"))
    from nginx_conf import render

    port = free_port()
    config = folder / "nginx.conf"
    config.write_text(render([upstream], listen=f"127.0.0.1:{port}", prefix=str(folder), trusted_proxies=trusted))
    nginx = subprocess.Popen([NGINX, "-p", str(folder), "-c", str(config)], stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while True:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            assert time.monotonic() < deadline and nginx.poll() is None, "nginx did not start"
            time.sleep(0.05)
        yield port
    finally:
        nginx.terminate()
        nginx.wait(timeout=10)


def request(url: str, *, cookie: str | None = None, method: str = "GET", data: bytes | None = None,
            timeout: float = 20) -> tuple[int, dict[str, str], bytes]:
    """(status, headers with lower-case names, body) of one request; an HTTP error status is an answer too."""
    headers = {"Cookie": f"irlab_route={cookie}"} if cookie else {}
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=data, method=method, headers=headers),
                                    timeout=timeout) as response:
            return response.status, {k.lower(): v for k, v in response.headers.items()}, response.read()
    except urllib.error.HTTPError as error:
        return error.code, {k.lower(): v for k, v in error.headers.items()}, error.read()


def route_cookie(headers: dict[str, str]) -> str | None:
    """The value of ``irlab_route`` that a response sets, if any."""
    found = re.search(r"irlab_route=([^;]+)", headers.get("set-cookie", ""))
    return found.group(1) if found else None


def answered_by(headers: dict[str, str]) -> str:
    """The replica address that answered (``X-IRLab-Replica`` lists every address tried, the last answered)."""
    return headers["x-irlab-replica"].split(",")[-1].strip()


@dataclass
class Cluster:
    """A running ``deploy/run-local``: its URL, its process and every line it printed so far."""

    url: str
    process: subprocess.Popen
    lines: list[str] = field(default_factory=list)

    def output(self) -> str:
        return "".join(self.lines)

    def wait_for_output(self, pattern: str, timeout: float, after: int = 0) -> re.Match:
        """The first match of ``pattern`` in the lines printed from line ``after`` on, waiting up to ``timeout`` s."""
        deadline = time.monotonic() + timeout
        while True:
            found = re.search(pattern, "".join(self.lines[after:]))
            if found:
                return found
            if time.monotonic() > deadline:
                pytest.fail(f"run-local never printed {pattern!r}:\n" + "".join(self.lines[-40:]))
            time.sleep(0.2)

    def replica_pids(self) -> dict[int, int]:
        """Port -> pid of each app process run-local has running now (its children running streamlit)."""
        found = {}
        for task in Path(f"/proc/{self.process.pid}/task").iterdir():
            with contextlib.suppress(OSError):
                for pid in (task / "children").read_text().split():
                    argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
                    if b"streamlit" in argv and b"--server.port" in argv:
                        found[int(argv[argv.index(b"--server.port") + 1])] = int(pid)
        return found

    def port_of(self, name: str) -> int:
        """The local port of the replica that the cookie value ``name`` routes to (while it is up)."""
        return int(answered_by(request(f"{self.url}/_stcore/health", cookie=name)[1]).rsplit(":", 1)[1])


@contextlib.contextmanager
def run_local(*argv: str, replicas: int = 2, timeout: float = 90) -> Iterator[Cluster]:
    """``deploy/run-local --replicas N --port <free>`` plus ``argv``, until it serves; killed (group) afterwards."""
    need_nginx()
    port = free_port()
    process = subprocess.Popen([sys.executable, str(RUN_LOCAL), "--replicas", str(replicas), "--port", str(port),
                                *argv], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               start_new_session=True)
    cluster = Cluster(f"http://127.0.0.1:{port}", process)
    threading.Thread(target=lambda: cluster.lines.extend(process.stdout), daemon=True).start()
    try:
        deadline = time.monotonic() + timeout
        while not any(line.startswith("IR Lab: http://") for line in cluster.lines) or not healthy(cluster.url):
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail("run-local did not start:\n" + cluster.output()[-3000:])
            time.sleep(0.2)
        yield cluster
    finally:
        if process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)  # run-local stops its children (their own groups)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
