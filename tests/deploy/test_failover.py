"""A replica killed mid-upload: the browser fails over, and its next upload works without a reload.

Streamlit's upload is a ``PUT /_stcore/upload_file/<session>/<file>`` that only the replica holding
the browser's websocket session accepts. Before the cookie named the replica that answered, the
browser's websocket reconnected to the other replica while its uploads went back to the killed one
once it had restarted: "AxiosError: Request failed with status code 400" until a reload.
"""

from __future__ import annotations

import os
import signal
import time

import pytest

from tests.browser import healthy, wait_for_app
from tests.deploy.conftest import request, run_local

pytestmark = [pytest.mark.deploy, pytest.mark.browser]

FAIL_TIMEOUT = 10
"""nginx's default ``fail_timeout``: how long a replica that refused a connection is left alone."""


def _run_file(path, lines: int, tag: str) -> None:
    path.write_text("".join(f"q{i % 50} Q0 d{i} {i // 50 + 1} {1 / (i + 1):.6f} {tag}\n" for i in range(lines)))


def _route(context) -> str:
    return next(cookie["value"] for cookie in context.cookies() if cookie["name"] == "irlab_route")


def _upload(page, path) -> None:
    page.get_by_test_id("stFileUploaderDropzoneInput").nth(1).set_input_files(str(path))


def _read_notice(page, path, lines: int, timeout: float = 60_000) -> None:
    """Wait until the runs page says it read ``path`` (the upload reached the session's replica)."""
    page.get_by_text(f"Read {path.name}: {lines:,} lines").wait_for(timeout=timeout)


def test_a_replica_killed_mid_upload_the_next_upload_works_without_a_reload(browser, tmp_path):
    first, big, after = tmp_path / "first.txt", tmp_path / "big.txt", tmp_path / "after.txt"
    _run_file(first, 2_000, "first")
    _run_file(big, 1_000_000, "big")  # about 30 MB
    _run_file(after, 3_000, "after")
    with run_local("--class-db", f"sqlite:///{tmp_path}/classes.sqlite") as cluster:
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        uploads: list[tuple[str, int]] = []
        page.on("response", lambda r: uploads.append((r.url, r.status)) if r.request.method == "PUT" else None)
        # a PUT cut off by the kill ends as nginx's 502, as a failed request (the connection dropped first), or not
        # at all (the page dropped it when its websocket reconnected)
        page.on("requestfailed", lambda r: uploads.append((r.url, 0)) if r.method == "PUT" else None)
        # the link keeps "My files" on: a new session (after the failover) takes the source from the link
        page.goto(f"{cluster.url}/runs?source=files")
        wait_for_app(page)
        _upload(page, first)
        _read_notice(page, first, 2_000)
        served = _route(context)
        port = cluster.port_of(served)
        victim = cluster.replica_pids()[port]

        printed = len(cluster.lines)
        # the big file goes up at 10 MB/s (Chromium's network emulation), so it is still on its way when its replica
        # dies, however fast this machine is
        network = context.new_cdp_session(page)
        network.send("Network.enable")
        network.send("Network.emulateNetworkConditions", {"offline": False, "latency": 0, "downloadThroughput": -1,
                                                          "uploadThroughput": 10_000_000})
        with page.expect_request(lambda r: r.method == "PUT") as killed_upload:
            _upload(page, big)
        time.sleep(0.5)
        os.kill(victim, signal.SIGKILL)
        network.send("Network.emulateNetworkConditions", {"offline": False, "latency": 0, "downloadThroughput": -1,
                                                          "uploadThroughput": -1})
        # the page's websocket reconnects at once, through the cookie's group: to the replica that is left
        deadline = time.monotonic() + 20
        while _route(context) == served:
            assert time.monotonic() < deadline, "the browser never reached the other replica"
            time.sleep(0.1)
        took_over = _route(context)

        # run-local restarts the killed one on its port; nginx tries it again once its fail_timeout is over
        cluster.wait_for_output(r"app-\d exited with status -9; restarting it", timeout=30, after=printed)
        deadline = time.monotonic() + 60
        while not healthy(f"http://127.0.0.1:{port}"):
            assert time.monotonic() < deadline, "the killed replica did not come back"
            time.sleep(0.5)
        time.sleep(FAIL_TIMEOUT + 1)
        assert cluster.replica_pids()[port] != victim
        wait_for_app(page)

        _upload(page, after)  # no reload
        _read_notice(page, after, 3_000)
        chips = page.get_by_test_id("stFileChip")
        assert "AxiosError" not in chips.filter(has_text=after.name).inner_text()
        assert _route(context) == took_over  # the cookie stayed with the replica holding the websocket
        # the kill cut the big upload off: nginx's 502, a failed request, or (when the page dropped it as its
        # websocket reconnected) no outcome at all; never stored
        assert not [status for url, status in uploads if url == killed_upload.value.url and status != 0 and
                    status != 502], uploads
        assert [status for url, status in uploads if url != killed_upload.value.url] == [204, 204]
        context.close()


def test_a_crash_looping_replica_is_stopped_alone_while_the_other_serves(tmp_path):
    with run_local("--class-db", f"sqlite:///{tmp_path}/classes.sqlite") as cluster:
        pids = cluster.replica_pids()
        looping, steady = sorted(pids)
        steady_pid = pids[steady]
        killed = None
        for death in range(6):
            deadline = time.monotonic() + 30
            while (pid := cluster.replica_pids().get(looping)) in (None, killed):
                assert time.monotonic() < deadline, f"run-local did not restart the replica after death {death}"
                time.sleep(0.1)
            killed = pid
            os.kill(killed, signal.SIGKILL)
        cluster.wait_for_output(r"app-\d died more than 5 times within a minute; it stays stopped", timeout=30)
        time.sleep(2)  # run-local polls twice a second: it would have restarted it by now
        assert cluster.process.poll() is None
        assert cluster.replica_pids() == {steady: steady_pid}  # the other replica was never touched
        for _ in range(10):  # every browser, old cookie or new, is served by the replica that is left
            for cookie in (None, "r1", "r2", "nonsense"):
                status, headers, _ = request(f"{cluster.url}/_stcore/health", cookie=cookie)
                assert status == 200 and headers["x-irlab-replica"].endswith(f":{steady}")

