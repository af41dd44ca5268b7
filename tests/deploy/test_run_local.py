"""deploy/run-local: N app processes behind nginx with sticky sessions, stopped cleanly by a signal."""

from __future__ import annotations

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
import uuid
from pathlib import Path

import pytest

from tests.browser import free_port, wait_for_app

ROOT = Path(__file__).resolve().parents[2]
RUN_LOCAL = ROOT / "deploy" / "run-local"
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if os.access("/usr/sbin/nginx", os.X_OK) else None)

pytestmark = pytest.mark.deploy


def _need_nginx() -> None:
    if NGINX is None:
        if os.environ.get("CI") == "true":
            pytest.fail("nginx is missing: .ci/run installs it (apt-get install -y nginx)")
        pytest.skip("nginx is not installed (apt-get install -y nginx)")


def _get(url: str, cookie: str | None = None) -> tuple[int, dict[str, str]]:
    request = urllib.request.Request(url, headers={"Cookie": f"irlab_route={cookie}"} if cookie else {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, {k.lower(): v for k, v in response.headers.items()}
    except urllib.error.HTTPError as error:
        return error.code, {k.lower(): v for k, v in error.headers.items()}


@pytest.fixture(scope="module")
def cluster():
    """run-local with 2 replicas; yields (url, process, output lines)."""
    _need_nginx()
    port = free_port()
    process = subprocess.Popen([sys.executable, str(RUN_LOCAL), "--replicas", "2", "--port", str(port)], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    lines: list[str] = []
    threading.Thread(target=lambda: lines.extend(process.stdout), daemon=True).start()
    deadline = time.monotonic() + 90
    while not any(line.startswith("IR Lab: http://") for line in lines):
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            pytest.fail("run-local did not start:\n" + "".join(lines[-30:]))
        time.sleep(0.2)
    yield f"http://127.0.0.1:{port}", process, lines
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)


def test_health_and_sticky_sessions_over_both_replicas(cluster):
    url, _, _ = cluster
    status, headers = _get(f"{url}/_stcore/health")
    assert status == 200 and "irlab_route=" in headers["set-cookie"]
    cookie = re.search(r"irlab_route=([^;]+)", headers["set-cookie"]).group(1)
    replicas = {_get(f"{url}/_stcore/health", cookie)[1]["x-irlab-replica"] for _ in range(10)}
    assert len(replicas) == 1  # one browser, one replica
    spread = {_get(f"{url}/_stcore/health", uuid.uuid4().hex)[1]["x-irlab-replica"] for _ in range(40)}
    assert len(spread) == 2  # different browsers reach both replicas


def test_a_page_runs_through_the_proxy_websocket_included(cluster, browser):
    url, _, _ = cluster
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(f"{url}/ndcg")
    wait_for_app(page)  # the page's script ran: the websocket session works through nginx
    assert "NDCG" in page.inner_text("h1")
    page.close()


def test_an_upload_of_several_megabytes_is_not_refused_by_the_proxy(cluster):
    url, _, _ = cluster
    request = urllib.request.Request(f"{url}/_stcore/upload_file/no-session/no-file", data=b"x" * (2 << 20),
                                     method="PUT", headers={"Content-Type": "application/octet-stream"})
    try:
        status = urllib.request.urlopen(request, timeout=20).status
    except urllib.error.HTTPError as error:
        status = error.code
    assert status != 413  # nginx's "too large"; the app answers for itself (no such session)


def test_sigterm_stops_everything_and_cleans_up(cluster):
    url, process, lines = cluster
    port = int(url.rsplit(":", 1)[1])
    replica_ports = {int(_get(f"{url}/_stcore/health", uuid.uuid4().hex)[1]["x-irlab-replica"].rsplit(":", 1)[1])
                     for _ in range(40)}
    folder = re.search(r"configuration in (\S+)\)", "".join(lines)).group(1)
    assert Path(folder).is_dir()
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=30) == 0
    for closed in (port, *replica_ports):
        with socket.socket() as sock:
            assert sock.connect_ex(("127.0.0.1", closed)) != 0, f"port {closed} still answers"
    assert not Path(folder).exists()
    leftover = subprocess.run(["pgrep", "-g", str(process.pid)], capture_output=True, text=True).stdout.split()
    assert not leftover


@pytest.mark.parametrize("argv, message", [
    (["--replicas", "0"], "--replicas must be between 1"),
    (["--replicas", "two"], "invalid int value"),
    (["--port", "0"], "--port must be between"),
])
def test_bad_arguments_are_refused_before_anything_starts(argv, message):
    done = subprocess.run([sys.executable, str(RUN_LOCAL), *argv], capture_output=True, text=True, cwd=ROOT,
                          timeout=30)
    assert done.returncode == 2 and message in done.stderr


def test_a_busy_port_is_refused():
    _need_nginx()
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = subprocess.run([sys.executable, str(RUN_LOCAL), "--port", str(port)], capture_output=True, text=True,
                              cwd=ROOT, timeout=30)
    assert done.returncode == 2 and "in use" in done.stderr


def test_the_compose_proxy_config_is_generated_and_current():
    sys.path.insert(0, str(ROOT / "deploy"))
    from nginx_conf import MAX_UPLOAD_MB, compose_config

    assert (ROOT / "deploy" / "nginx.conf").read_text() == compose_config(), \
        "regenerate: python deploy/nginx_conf.py > deploy/nginx.conf"
    from irlab.ui.runs.uploads import MAX_UPLOAD_MB as PAGE_LIMIT

    assert MAX_UPLOAD_MB == PAGE_LIMIT


def test_the_generated_configs_pass_nginx_t(tmp_path):
    _need_nginx()
    sys.path.insert(0, str(ROOT / "deploy"))
    from nginx_conf import compose_config, render

    local = tmp_path / "local.conf"
    local.write_text(render(["127.0.0.1:1", "127.0.0.1:2"], listen="127.0.0.1:3", prefix=str(tmp_path)))
    composed = tmp_path / "compose.conf"
    composed.write_text(f"pid {tmp_path}/c.pid;\n"  # not the system's pid file
                        + compose_config().replace("app:8501", "127.0.0.1:8501"))  # no DNS name "app" here
    for config in (local, composed):
        done = subprocess.run([NGINX, "-t", "-p", str(tmp_path), "-c", str(config)], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
