"""Whose address a limit counts, through the real nginx configuration in front of the real app: one student's wrong
codes block their own address, never a classmate's, and a student cannot pass for another address.

* **run-local**: ``deploy/run-local`` itself (nginx on 127.0.0.1, two replicas); students on other loopback
  addresses (127.0.0.2, 127.0.0.3: this machine's, but no proxy's), each wrong code from a new tab (a new
  websocket resets nothing).
* **compose**: the compose proxy's configuration (deploy/proxy-entrypoint's ``write_config``) in front of two
  replicas that listen on this machine's network address, so their peer is the proxy at a non-loopback address,
  as in Docker; with ``IRLAB_TRUSTED_PROXIES`` naming it (what compose.yaml sets) and, to show what that setting
  is for, without it (every student is the proxy: one student's wrong codes lock the class out).

Students join at Streamlit's protocol level (tests/deploy/streamlit_client.py): a browser cannot choose its
source address.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request

import pytest

from irlab.classroom import ClassStore, ratelimit
from irlab.classroom.database import forget_engine
from irlab.ui.classroom.links import network_ip
from tests.browser import free_port
from tests.deploy.conftest import NGINX, ROOT, load_script, need_nginx, run_local
from tests.deploy.streamlit_client import join_as

pytestmark = pytest.mark.deploy

ATTACKER, CLASSMATE = "127.0.0.2", "127.0.0.3"
WRONG = "ABCDEF"
GUESSING = "Too many wrong codes from this device or network"


def _guess_ten_times(base: str, code: str, source: str, forwarded_for: str | None = None) -> None:
    wrong = WRONG if code != WRONG else "BCDEFG"
    for _ in range(ratelimit.JOIN.attempts):  # each from a new tab: a new websocket, a new session
        token, notices = join_as(base, code, source=source, typed=wrong, forwarded_for=forwarded_for)
        assert token is None and notices and "No class is taking students" in notices[0]


def test_behind_run_local_a_students_wrong_codes_block_their_address_only(tmp_path):
    url = f"sqlite:///{tmp_path / 'classes.sqlite'}"
    with run_local("--class-db", url) as cluster:
        code = ClassStore(url).start_class().code
        _guess_ten_times(cluster.url, code, ATTACKER, forwarded_for="198.51.100.1")
        token, notices = join_as(cluster.url, code, source=ATTACKER)
        assert token is None and GUESSING in notices[0]  # even with the right code, from a new tab
        token, notices = join_as(cluster.url, code, source=ATTACKER, forwarded_for="203.0.113.77")
        assert token is None and GUESSING in notices[0]  # a header of its own names no other address
        token, notices = join_as(cluster.url, code, source=CLASSMATE)
        assert token and notices == ["Waiting for the lecturer: the question appears here by itself."]
    forget_engine(url)


@contextlib.contextmanager
def _replicas(address: str, url: str, trusted: str | None, count: int = 2):
    """``count`` app processes listening on ``address`` (free ports), on the class store ``url``; yields their
    ``host:port``."""
    processes, upstreams = [], []
    env = {**os.environ, "IRLAB_CLASS_DB": url}
    env.pop("IRLAB_TRUSTED_PROXIES", None)
    if trusted:
        env["IRLAB_TRUSTED_PROXIES"] = trusted
    try:
        for _ in range(count):
            port = free_port()
            processes.append(subprocess.Popen(
                [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true", "--server.port",
                 str(port), "--server.address", address, "--server.fileWatcherType", "none"], cwd=ROOT, env=env,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True))
            upstreams.append(f"{address}:{port}")
        for upstream in upstreams:
            _wait_healthy(f"http://{upstream}")
        yield upstreams
    finally:
        for process in processes:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
        for process in processes:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=15)


def _wait_healthy(base: str, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while True:
        with contextlib.suppress(OSError), urllib.request.urlopen(f"{base}/_stcore/health", timeout=2) as response:
            if response.status == 200:
                return
        assert time.monotonic() < deadline, f"{base} did not start"
        time.sleep(0.3)


@contextlib.contextmanager
def _compose_proxy(upstreams: list[str], folder):
    """nginx configured as the compose file's proxy (deploy/proxy-entrypoint) for ``upstreams``; yields its URL."""
    entrypoint = load_script(ROOT / "deploy" / "proxy-entrypoint")
    port = free_port()
    stopping = threading.Event()
    supervisor = threading.Thread(target=entrypoint.supervise, args=(
        lambda: list(upstreams), folder, f"127.0.0.1:{port}", NGINX, 1.0, stopping), daemon=True)
    supervisor.start()
    try:
        _wait_healthy(f"http://127.0.0.1:{port}", timeout=30)
        yield f"http://127.0.0.1:{port}"
    finally:
        stopping.set()
        supervisor.join(timeout=30)


@pytest.mark.parametrize("told", [True, False], ids=["trusted-proxy-named", "not-named"])
def test_behind_the_compose_proxy_the_app_counts_the_students_address_once_told_the_proxys(told, tmp_path):
    need_nginx()
    address = network_ip()
    if address is None:
        pytest.skip("this machine has no network address besides loopback: the compose proxy's peer cannot be one")
    url = f"sqlite:///{tmp_path / 'classes.sqlite'}"
    code = ClassStore(url).start_class().code
    with _replicas(address, url, address if told else None) as upstreams, \
            _compose_proxy(upstreams, tmp_path / "proxy") as base:
        _guess_ten_times(base, code, ATTACKER)
        token, notices = join_as(base, code, source=CLASSMATE)
        if told:  # compose.yaml names the proxy: its X-Forwarded-For is believed, each student counts alone
            assert token and not any(GUESSING in n for n in notices)
            token, notices = join_as(base, code, source=ATTACKER, forwarded_for="203.0.113.77")
            assert token is None and GUESSING in notices[0]
        else:  # the proxy's own address for everyone: the classmate pays for the attacker's guesses
            assert token is None and GUESSING in notices[0]
    forget_engine(url)
