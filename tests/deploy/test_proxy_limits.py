"""The proxy's limits on uploads (deploy/nginx_conf.py): per client address, refused at once with a clear status.

nginx runs the generated configuration in front of a stand-in for the app (a small HTTP server
that answers every upload with 204, or holds it until told), so each limit is seen on its own.
"""

from __future__ import annotations

import collections
import contextlib
import http.client
import socket
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.browser import free_port
from tests.deploy.conftest import ROOT, need_nginx, nginx_in_front

sys.path.insert(0, str(ROOT / "deploy"))
from nginx_conf import MAX_BODY_BYTES, UPLOAD_BURST, UPLOAD_RATE, UPLOADS_IN_FLIGHT

pytestmark = pytest.mark.deploy

OTHER_ADDRESS = "127.0.0.2"
"""Another client address on the loopback interface (Linux routes all of 127/8 to it)."""


class StandIn(BaseHTTPRequestHandler):
    """The app's upload endpoint, reduced to its answer: reads the body, answers 204; ``/hold/`` waits first."""

    release = threading.Event()
    arrived = collections.Counter()

    def do_PUT(self) -> None:
        remaining = int(self.headers.get("Content-Length", 0))
        while remaining:
            remaining -= len(self.rfile.read(min(remaining, 1 << 20)))
        StandIn.arrived[self.path.split("/")[3]] += 1
        if "/hold/" in self.path:
            StandIn.release.wait(60)
        self.send_response(204)
        self.end_headers()

    do_DELETE = do_PUT

    def log_message(self, *_) -> None:
        pass


class StandInServer(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 512  # the default backlog of 5 refuses a burst before nginx's limits see it


@contextlib.contextmanager
def _proxy(folder, trusted: tuple[str, ...] = ()):
    """nginx with the generated configuration in front of the stand-in; yields the proxy's port."""
    need_nginx()
    StandIn.release.clear()
    StandIn.arrived.clear()
    app = StandInServer(("127.0.0.1", 0), StandIn)
    threading.Thread(target=app.serve_forever, daemon=True).start()
    try:
        with nginx_in_front(f"127.0.0.1:{app.server_address[1]}", folder, trusted) as port:
            yield port
            StandIn.release.set()
    finally:
        app.shutdown()
        app.server_close()


@pytest.fixture
def proxy(tmp_path):
    with _proxy(tmp_path) as port:
        yield port


def _send(port: int, path: str, *, method: str = "PUT", source: str = "127.0.0.1", body: bytes = b"run",
          forwarded_for: str | None = None) -> tuple:
    """(status, headers, body) of one request from the client address ``source``."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(source, 0))
    try:
        connection.request(method, path, body=body, headers={"X-Forwarded-For": forwarded_for} if forwarded_for else {})
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def test_a_burst_from_one_address_gets_429_for_the_excess_and_others_are_unaffected(proxy):
    started = time.monotonic()
    with ThreadPoolExecutor(16) as pool:
        answers = list(pool.map(lambda i: _send(proxy, f"/_stcore/upload_file/s{i}/f"), range(UPLOAD_BURST + 150)))
    elapsed = time.monotonic() - started
    statuses = collections.Counter(status for status, _, _ in answers)
    assert set(statuses) == {204, 429}
    # the burst passes whole (a class behind one NAT), the excess beyond burst + rate x time is refused
    assert UPLOAD_BURST <= statuses[204] <= UPLOAD_BURST + UPLOAD_RATE * elapsed + 2
    refused = next(answer for answer in answers if answer[0] == 429)
    assert refused[1]["Retry-After"] == "5" and b"too many uploads from your address" in refused[2]
    assert _send(proxy, "/_stcore/upload_file/other/f", source=OTHER_ADDRESS)[0] == 204  # another address
    # no dodging by a header: as another address, these would all pass (a fresh burst); as this one, whose bucket
    # refills at UPLOAD_RATE per second, some are refused (one alone could meet a token that refilled meanwhile)
    with ThreadPoolExecutor(16) as pool:
        dodging = list(pool.map(lambda i: _send(proxy, f"/_stcore/upload_file/f{i}/f", forwarded_for="203.0.113.9")[0],
                                range(2 * UPLOAD_RATE)))
    assert 429 in dodging
    assert _send(proxy, "/_stcore/upload_file/s1/f", method="DELETE", body=b"")[0] == 204  # no body: not counted
    assert _send(proxy, "/_stcore/health", method="GET", body=None)[0] != 429  # only uploads are limited


def test_uploads_in_flight_from_one_address_are_capped(proxy):
    with ThreadPoolExecutor(UPLOADS_IN_FLIGHT) as pool:
        held = [pool.submit(_send, proxy, f"/_stcore/upload_file/hold/f{i}") for i in range(UPLOADS_IN_FLIGHT)]
        deadline = time.monotonic() + 30
        while StandIn.arrived["hold"] < UPLOADS_IN_FLIGHT:
            assert time.monotonic() < deadline, f"only {StandIn.arrived['hold']} uploads reached the app"
            time.sleep(0.05)
        status, headers, _ = _send(proxy, "/_stcore/upload_file/more/f")
        assert status == 429 and headers["Retry-After"] == "5"  # at once, while the others stream
        assert _send(proxy, "/_stcore/upload_file/more/f", source=OTHER_ADDRESS)[0] == 204
        StandIn.release.set()
        assert [future.result()[0] for future in held] == [204] * UPLOADS_IN_FLIGHT


def test_behind_a_trusted_front_proxy_the_limits_count_per_forwarded_client(tmp_path):
    with _proxy(tmp_path, trusted=("127.0.0.1",)) as port, ThreadPoolExecutor(16) as pool:
        answers = list(pool.map(lambda i: _send(port, f"/_stcore/upload_file/s{i}/f", forwarded_for="203.0.113.7"),
                                range(UPLOAD_BURST + 50)))
        assert 429 in {status for status, _, _ in answers}
        assert _send(port, "/_stcore/upload_file/o/f", forwarded_for="203.0.113.8")[0] == 204  # another student
        # a front proxy's chain counts for its last client, already over its burst: a few tokens may have come
        # back while the machine was busy (10 a second), but 20 at once exceed them; as a new client (the first
        # address) all 20 would pass, within a burst of 200
        chained = list(pool.map(lambda i: _send(port, f"/_stcore/upload_file/c{i}/f",
                                                forwarded_for="198.51.100.1, 203.0.113.7"), range(20)))
        assert 429 in {status for status, _, _ in chained}


def _raw_put(port: int, length: int, sent: int) -> str:
    """The status line and body nginx answers to a PUT that announces ``length`` bytes and sends ``sent`` of them."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(f"PUT /_stcore/upload_file/big/f HTTP/1.1\r\nHost: x\r\nContent-Length: {length}\r\n"
                     "Connection: close\r\n\r\n".encode())
        chunk = bytes(1 << 20)
        while sent:
            sent -= sock.send(memoryview(chunk)[:min(sent, len(chunk))])
        answer = b""
        while part := sock.recv(65536):
            answer += part
    return answer.decode(errors="replace")


def test_a_body_over_the_limit_gets_413_at_once_and_one_at_the_limit_passes(proxy):
    refused = _raw_put(proxy, MAX_BODY_BYTES + 1, 0)  # refused on the header: no byte of the body is read
    assert refused.startswith("HTTP/1.1 413 ") and "at most 100 MB (MB = 10^6 bytes)" in refused
    assert _raw_put(proxy, MAX_BODY_BYTES, MAX_BODY_BYTES).startswith("HTTP/1.1 204 ")


def test_no_app_behind_the_proxy_is_a_clear_502_not_a_hang(tmp_path):
    with nginx_in_front(f"127.0.0.1:{free_port()}", tmp_path) as port:  # nothing listens there
        status, headers, body = _send(port, "/", method="GET", body=None)
    assert status == 502 and headers["Retry-After"] == "5" and b"starting or restarting" in body
