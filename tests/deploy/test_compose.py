"""deploy/compose.yaml's pieces that run without Docker: the proxy's entrypoint, and what the files promise.

The entrypoint runs here with Debian's nginx (the image installs the same package) against two
stand-in replicas, with a resolver the test controls in place of Docker's DNS.
"""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from irlab.classroom.settings import check_url
from tests.browser import free_port
from tests.deploy.conftest import NGINX, ROOT, load_script, need_nginx, request, route_cookie

pytestmark = pytest.mark.deploy

DEPLOY = ROOT / "deploy"
ENTRYPOINT = DEPLOY / "proxy-entrypoint"


class Replica(BaseHTTPRequestHandler):
    """A stand-in replica: answers every GET with its own address."""

    def do_GET(self) -> None:
        body = f"{self.server.server_address[0]}:{self.server.server_address[1]}".encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_) -> None:
        pass


@pytest.fixture
def replicas():
    servers = [ThreadingHTTPServer(("127.0.0.1", 0), Replica) for _ in range(2)]
    for server in servers:
        threading.Thread(target=server.serve_forever, daemon=True).start()
    yield [f"127.0.0.1:{server.server_address[1]}" for server in servers]
    for server in servers:
        server.shutdown()
        server.server_close()


def _answer(url: str, cookie: str | None = None) -> tuple[str, str | None]:
    """(the replica that answered, the cookie the proxy set)."""
    status, headers, body = request(url, cookie=cookie)
    assert status == 200
    return body.decode(), route_cookie(headers)


def _eventually(check, timeout: float = 15) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "the proxy never changed"
        time.sleep(0.1)


def test_the_proxy_follows_the_replicas_the_name_resolves_to(replicas, tmp_path):
    need_nginx()
    entrypoint = load_script(ENTRYPOINT)
    first, second = replicas
    resolved = [first]
    port = free_port()
    stopping = threading.Event()
    status = []
    supervisor = threading.Thread(target=lambda: status.append(entrypoint.supervise(
        lambda: list(resolved), tmp_path, f"127.0.0.1:{port}", NGINX, 0.2, stopping)))
    supervisor.start()
    try:
        url = f"http://127.0.0.1:{port}/_stcore/health"
        _eventually(lambda: _can_connect(port))
        answered, cookie = _answer(url)
        assert answered == first and cookie == entrypoint.address_names([first])[0]

        resolved.append(second)  # scaled up: new browsers reach the new replica, old ones stay
        _eventually(lambda: len({_answer(url)[0] for _ in range(6)}) == 2)
        assert {_answer(url, cookie)[0] for _ in range(6)} == {first}

        resolved[:] = [second]  # the first one's container is gone: its browsers move, cookie and all
        _eventually(lambda: _answer(url, cookie)[0] == second)
        assert _answer(url, cookie)[1] == entrypoint.address_names([second])[0]

        resolved.clear()  # nothing resolves (every replica restarting): the last configuration stays
        time.sleep(1)
        assert _answer(url)[0] == second
    finally:
        stopping.set()
        supervisor.join(timeout=30)
    assert status == [0] and not _can_connect(port)  # nginx stopped with it


def _can_connect(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


def test_the_entrypoint_resolves_names_and_refuses_a_bad_app():
    entrypoint = load_script(ENTRYPOINT)
    assert entrypoint.resolve("localhost:8501") == ["127.0.0.1:8501"]
    assert entrypoint.resolve("no-such-replica.invalid:8501") == []
    done = subprocess.run([sys.executable, str(ENTRYPOINT), "--app", "app"], capture_output=True, text=True,
                          timeout=30)
    assert done.returncode == 2 and "--app must be host:port" in done.stderr


def _service(compose: str, name: str) -> str:
    """The text of one service of compose.yaml (up to the next top-level or service key)."""
    found = re.search(rf"^  {name}:\n(.*?)(?=^  \S|^\S)", compose, re.S | re.M)
    assert found, f"compose.yaml has no service {name}"
    return found.group(1)


def test_compose_runs_postgres_as_the_class_store_of_every_replica():
    compose = (DEPLOY / "compose.yaml").read_text()
    postgres = _service(compose, "postgres")
    assert re.search(r"image: postgres:\d+", postgres)  # the official image, a pinned major version
    assert "irlab-classes:/var/lib/postgresql/data" in postgres and re.search(r"^  irlab-classes:", compose, re.M)
    assert "pg_isready -U irlab -d irlab" in postgres
    assert "networks: [store]" in postgres and re.search(r"store:\n    internal: true", compose)  # app only
    app = _service(compose, "app")
    url = re.search(r"IRLAB_CLASS_DB: (.+)$", app, re.M).group(1)
    filled = re.sub(r"\$\{IRLAB_DB_PASSWORD:\?[^}]*\}", "s3cret", url)
    assert check_url(filled) == "postgresql+psycopg://irlab:s3cret@postgres:5432/irlab"
    assert re.search(r"depends_on:\n      postgres:\n        condition: service_healthy", app)  # once it answers


def test_compose_names_its_proxy_as_the_apps_only_trusted_proxy():
    """The app believes X-Forwarded-For from the proxy's fixed address on the network "front", and only from it
    (tests/deploy/test_client_addresses.py shows what happens without it)."""
    compose = (DEPLOY / "compose.yaml").read_text()
    app, proxy = _service(compose, "app"), _service(compose, "proxy")
    trusted = re.search(r"IRLAB_TRUSTED_PROXIES: (.+)$", app, re.M).group(1)
    fixed = re.search(r"ipv4_address: (.+)$", proxy, re.M).group(1)
    assert trusted == fixed == "${IRLAB_PROXY_ADDRESS:-172.31.250.2}"
    subnet = re.search(r"front:\n    ipam:\n      config:\n        - subnet: (.+)$", compose, re.M).group(1)
    assert subnet == "${IRLAB_FRONT_SUBNET:-172.31.250.0/24}"
    assert "networks: [front, store]" in app and "IRLAB_PUBLIC_URL" in app


def test_the_proxy_image_has_what_it_runs():
    dockerfile = (DEPLOY / "Dockerfile.proxy").read_text()
    ignore = (DEPLOY / "Dockerfile.proxy.dockerignore").read_text().split()
    copied = re.search(r"^COPY (.+) \./$", dockerfile, re.M).group(1).split()
    assert set(copied) == {line[1:] for line in ignore if line.startswith("!")}
    assert "nginx" in re.search(r"apt-get install .*", dockerfile).group(0)
    assert '"--app", "app:8501", "--listen", "8080"' in dockerfile
    assert "dockerfile: deploy/Dockerfile.proxy" in _service((DEPLOY / "compose.yaml").read_text(), "proxy")
