"""deploy/run-local: N app processes behind nginx with sticky sessions, one class store, stopped cleanly by a signal."""

from __future__ import annotations

import doctest
import re
import signal
import socket
import subprocess
import sys
import urllib.request
import uuid
from pathlib import Path

import pytest

from irlab.classroom import ClassStore
from irlab.ui.classroom.feed import ANSWER_PATH, EVENTS_PATH
from tests.browser import wait_for_app
from tests.deploy.conftest import (
    NGINX,
    ROOT,
    RUN_LOCAL,
    answered_by,
    load_script,
    need_nginx,
    request,
    route_cookie,
    run_local,
)

pytestmark = pytest.mark.deploy


def _run_local_module():
    return load_script(RUN_LOCAL)


def _get(url: str, cookie: str | None = None) -> tuple[int, dict[str, str]]:
    status, headers, _ = request(url, cookie=cookie)
    return status, headers


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> str:
    return f"sqlite:///{tmp_path_factory.mktemp('store')}/classes.sqlite"


@pytest.fixture(scope="module")
def cluster(store):
    """run-local with 2 replicas sharing one SQLite class store."""
    with run_local("--class-db", store) as running:
        yield running


def test_health_and_sticky_sessions_over_both_replicas(cluster):
    status, headers = _get(f"{cluster.url}/_stcore/health")
    assert status == 200
    name = route_cookie(headers)
    assert name in ("r1", "r2")  # the cookie names the replica that answered
    replicas = {answered_by(_get(f"{cluster.url}/_stcore/health", name)[1]) for _ in range(10)}
    assert replicas == {answered_by(headers)}  # one browser, one replica
    spread = {answered_by(_get(f"{cluster.url}/_stcore/health")[1]) for _ in range(40)}
    assert len(spread) == 2  # new browsers reach both replicas
    for forged in ("nonsense", uuid.uuid4().hex, "r3", "r1; Path=/x"):  # a cookie naming no replica is a newcomer's
        status, headers = _get(f"{cluster.url}/_stcore/health", forged)
        assert status == 200 and route_cookie(headers) in ("r1", "r2")


def test_the_websocket_upgrade_sets_the_cookie_of_the_replica_that_took_it(cluster):
    """The 101 response names its replica too: a browser whose websocket reconnected elsewhere follows it."""
    from websockets.sync.client import connect

    with urllib.request.urlopen(f"{cluster.url}/_stcore/health", timeout=10) as response:
        cookies = response.headers.get_all("Set-Cookie")
    xsrf = next(re.match(r"_streamlit_xsrf=([^;]+)", cookie).group(1) for cookie in cookies
                if cookie.startswith("_streamlit_xsrf="))
    for name in ("r1", "r2", "unknown"):
        with connect(f"ws://{cluster.url.removeprefix('http://')}/_stcore/stream", subprotocols=["streamlit", xsrf],
                     additional_headers={"Cookie": f"irlab_route={name}; _streamlit_xsrf={xsrf}",
                                         "Origin": cluster.url}, open_timeout=20) as websocket:
            response = websocket.response
        assert response.status_code == 101
        named = route_cookie({"set-cookie": response.headers["Set-Cookie"]})
        assert named == name or (name == "unknown" and named in ("r1", "r2"))
        assert cluster.port_of(named) == int(response.headers["X-IRLab-Replica"].rsplit(":", 1)[1])


def test_every_replica_gets_the_same_class_store(cluster, store):
    assert f"class store (IRLAB_CLASS_DB) of every replica: {store}" in cluster.output()
    # each replica says which store it opened, once, at start: the same id (a replica on another store would not)
    opened = cluster.wait_for_output(r"\[app-2\] .*\[irlab\] class store: (\S+) \(store (\w+), sqlite\)", 60)
    first = re.search(r"\[app-1\] .*\[irlab\] class store: (\S+) \(store (\w+), sqlite\)", cluster.output())
    assert first and first.groups() == opened.groups() == (store, ClassStore(store).store_id)
    assert len(re.findall(r"\[irlab\] class store: ", cluster.output())) == 2
    pids = cluster.replica_pids()
    assert len(pids) == 2
    for pid in pids.values():
        environ = dict(entry.split(b"=", 1) for entry in Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
                       if b"=" in entry)
        assert environ[b"IRLAB_CLASS_DB"].decode() == store


def test_a_class_event_stream_passes_through_the_proxy_at_once_and_sets_the_seat_cookie(cluster, store):
    classes = ClassStore(store)
    new = classes.start_class()
    seat = classes.join(new.code)
    query = f"code={new.code}&student={seat.token}&s={classes.store_id}"
    with urllib.request.urlopen(f"{cluster.url}{EVENTS_PATH}?{query}", timeout=30) as stream:
        assert stream.headers["Content-Type"].startswith("text/event-stream")
        assert f"irlab_seat_{new.code}={seat.token}" in "".join(stream.headers.get_all("Set-Cookie"))
        lines = [stream.readline() for _ in range(4)]  # the first event arrives while the stream stays open
        assert lines[2] == b"event: pulse\n" and b'"student":' in lines[3]
        classes.lecturer(new.code, new.key).stand_by()  # a change reaches the open stream, unbuffered
        while (line := stream.readline()) != b"event: pulse\n":
            assert line in (b"\n",) or line.startswith((b"data:", b"event: beat")), line
        assert b'"student":2' in stream.readline()


def test_a_page_runs_through_the_proxy_websocket_included(cluster, browser):
    url = cluster.url
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(f"{url}/ndcg")
    wait_for_app(page)  # the page's script ran: the websocket session works through nginx
    assert "NDCG" in page.inner_text("h1")
    page.close()


def test_an_upload_of_several_megabytes_is_not_refused_by_the_proxy(cluster):
    status, _, body = request(f"{cluster.url}/_stcore/upload_file/no-session/no-file", method="PUT",
                              data=b"x" * (2 << 20))
    # the app answers for itself (no such session: 403, or 502 when it closes before the body is through)
    assert status != 413 and b"100 MB" not in body


def test_a_body_over_the_limit_is_refused_with_413_before_it_is_sent(cluster):
    port = int(cluster.url.rsplit(":", 1)[1])
    sys.path.insert(0, str(ROOT / "deploy"))
    from nginx_conf import MAX_BODY_BYTES

    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(f"PUT /_stcore/upload_file/s/f HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {MAX_BODY_BYTES + 1}"
                     "\r\nContent-Type: multipart/form-data; boundary=x\r\n\r\n".encode())
        answer = sock.recv(4096).decode()  # at once: not one byte of the body was sent
    assert answer.startswith("HTTP/1.1 413 ")
    assert "at most 100 MB (MB = 10^6 bytes)" in answer


def test_sigterm_stops_everything_and_cleans_up(cluster):
    url, process, lines = cluster.url, cluster.process, cluster.lines
    port = int(url.rsplit(":", 1)[1])
    replica_ports = set(cluster.replica_pids())
    assert len(replica_ports) == 2
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
    (["--class-db", "mysql://irlab@db/irlab"], "--class-db: the class store runs on SQLite"),
    (["--class-db", "sqlite://"], "--class-db: a class store must be a file"),
])
def test_bad_arguments_are_refused_before_anything_starts(argv, message):
    done = subprocess.run([sys.executable, str(RUN_LOCAL), *argv], capture_output=True, text=True, cwd=ROOT,
                          timeout=30)
    assert done.returncode == 2 and message in done.stderr


def test_a_busy_port_is_refused():
    need_nginx()
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = subprocess.run([sys.executable, str(RUN_LOCAL), "--port", str(port)], capture_output=True, text=True,
                              cwd=ROOT, timeout=30)
    assert done.returncode == 2 and "in use" in done.stderr


def test_the_proxy_limit_is_the_pages_limit():
    sys.path.insert(0, str(ROOT / "deploy"))
    from nginx_conf import MAX_UPLOAD_BYTES, MAX_UPLOAD_MB

    from irlab.ui.runs.uploads import MAX_UPLOAD_MB as PAGE_LIMIT

    assert MAX_UPLOAD_MB == PAGE_LIMIT and MAX_UPLOAD_BYTES == 100_000_000


def test_the_generated_config_passes_nginx_t(tmp_path):
    need_nginx()
    sys.path.insert(0, str(ROOT / "deploy"))
    from nginx_conf import render

    local = tmp_path / "local.conf"
    local.write_text(render(["127.0.0.1:1", "127.0.0.1:2", "127.0.0.1:3"], listen="127.0.0.1:4", prefix=str(tmp_path)))
    done = subprocess.run([NGINX, "-t", "-p", str(tmp_path), "-c", str(local)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_the_proxy_and_the_app_agree_on_the_class_routes_paths():
    sys.path.insert(0, str(ROOT / "deploy"))
    from nginx_conf import ANSWER_PATH as PROXY_ANSWER
    from nginx_conf import EVENTS_PATH as PROXY_EVENTS

    assert (PROXY_EVENTS, PROXY_ANSWER) == (EVENTS_PATH, ANSWER_PATH)


def test_on_the_network_the_replicas_are_told_the_address_students_open(tmp_path, monkeypatch):
    module = _run_local_module()
    monkeypatch.delenv("IRLAB_PUBLIC_URL", raising=False)
    assert module.public_url("127.0.0.1", 8080) == ""  # this machine only: a proxy in front decides
    found = module.network_address()
    assert module.public_url("0.0.0.0", 8080) == (f"http://{found}:8080" if found else "")
    monkeypatch.setenv("IRLAB_PUBLIC_URL", "https://irlab.example.org")
    assert module.public_url("0.0.0.0", 8080) == "https://irlab.example.org"
    if found is None:
        pytest.skip("this machine has no network address besides loopback")
    monkeypatch.delenv("IRLAB_PUBLIC_URL")
    with run_local("--class-db", f"sqlite:///{tmp_path / 'classes.sqlite'}", "--host", "0.0.0.0",
                   replicas=1) as served:
        assert f"students open http://{found}:" in served.output()
        pid = next(iter(served.replica_pids().values()))
        environ = Path(f"/proc/{pid}/environ").read_bytes()
        assert f"IRLAB_PUBLIC_URL=http://{found}:".encode() in environ
        with urllib.request.urlopen(f"http://{found}:{served.url.rsplit(':', 1)[1]}/_stcore/health", timeout=10) as r:
            assert r.status == 200  # phones reach it on the network


def test_the_class_store_is_the_option_else_the_variable_else_one_file_per_user(monkeypatch, tmp_path):
    module = _run_local_module()
    monkeypatch.delenv("IRLAB_CLASS_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", "/srv/data")
    assert module.class_store(None) == "sqlite:////srv/data/irlab/classes.sqlite"
    monkeypatch.setenv("IRLAB_CLASS_DB", "postgresql://irlab:s3cret@db.example.org/irlab")
    url = module.class_store(None)
    assert url == "postgresql+psycopg://irlab:s3cret@db.example.org/irlab"  # the replicas get the password ...
    assert "s3cret" not in module.shown(url)  # ... the terminal does not
    monkeypatch.chdir(tmp_path)  # a relative file is the caller's, not the repository's (the replicas' folder)
    assert module.class_store("sqlite:///classes.sqlite") == f"sqlite:///{tmp_path}/classes.sqlite"


def test_run_locals_doctests_pass():
    result = doctest.testmod(_run_local_module())
    assert result.attempted > 0 and result.failed == 0
