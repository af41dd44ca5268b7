"""After a failover the runs page says which files were lost and takes them again (issue 35).

The replica holding a browser's session dies; the browser reconnects to the other one (deploy/run-local's
sticky cookie follows it), or to the dead one's restart when that is up first, and gets a new session in a
process that never received the files. Before, the
uploaders kept the old files' chips and the page said only "Upload a qrels file and at least one run",
with no word of what happened; now it names the lost files and shows empty uploaders, and the files
added again are read.
"""

from __future__ import annotations

import os
import signal
import time

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from tests.browser import wait_for_app
from tests.deploy.conftest import run_local

pytestmark = [pytest.mark.deploy, pytest.mark.browser]
LOST_NOTICE = "The server that held your files stopped, and this page moved to another one"


def _route(context) -> str:
    return next(cookie["value"] for cookie in context.cookies() if cookie["name"] == "irlab_route")


def _run(path, tag: str) -> None:
    path.write_text("".join(f"q{i % 5} Q0 d{i} {i // 5 + 1} {1 / (i + 1):.6f} {tag}\n" for i in range(500)))


def test_the_files_a_failover_lost_are_named_and_taken_again(browser, tmp_path):
    qrels, first, second = tmp_path / "qrels.txt", tmp_path / "first.txt", tmp_path / "second.txt"
    qrels.write_text("".join(f"q{q} 0 d{q} 1\n" for q in range(5)))
    _run(first, "first")
    _run(second, "second")
    with run_local("--class-db", f"sqlite:///{tmp_path}/classes.sqlite") as cluster:
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        sockets: list = []
        page.on("websocket", lambda socket: sockets.append(socket))
        page.goto(f"{cluster.url}/runs?source=files")
        wait_for_app(page)
        uploaders = page.get_by_test_id("stFileUploaderDropzoneInput")
        uploaders.nth(0).set_input_files(str(qrels))
        page.get_by_text("Read qrels.txt").wait_for(timeout=60_000)
        uploaders.nth(1).set_input_files([str(first), str(second)])
        page.get_by_text("Read second.txt").wait_for(timeout=60_000)
        wait_for_app(page)
        page.get_by_role("tab", name="Summary").wait_for(timeout=60_000)
        page.wait_for_load_state("networkidle")  # a kill while the browser loads a module of its own breaks the page

        served = _route(context)
        os.kill(cluster.replica_pids()[cluster.port_of(served)], signal.SIGKILL)
        # Streamlit's reconnection backs off between tries (on a loaded CI machine over 30 s once): wait up to 90 s, as
        # tests/ui/classroom/test_browser_replicas.py does. The new socket reaches the other replica through the
        # cookie's group, or the killed one if run-local restarted it first (its restart can beat a slow reconnection):
        # a new process either way, which never received the files
        deadline = time.monotonic() + 90
        opened = len(sockets)
        while len(sockets) == opened or sockets[-1].is_closed():
            assert time.monotonic() < deadline, "the browser never reconnected"
            page.wait_for_timeout(100)

        # the browser asks for no run when it reconnects: the page learns what happened at the student's next move
        # (a click made while the connection is still being set up may be dropped: click until the page has run)
        notice = page.get_by_text(LOST_NOTICE)
        for tab in ("Per query", "Compare runs", "Summary", "Per query", "Compare runs", "Summary"):
            page.get_by_role("tab", name=tab).click()
            try:
                notice.wait_for(timeout=5_000)
                break
            except PlaywrightTimeout:
                continue
        else:
            pytest.fail(f"no notice after the failover ({len(sockets)} websockets opened); the page says: "
                        f"{page.inner_text('body')[-1500:]}\n{cluster.output()[-3000:]}")
        assert "qrels.txt, first.txt and second.txt are no longer here" in notice.inner_text()
        # empty uploaders, not chips of files that are gone (the run that shows the notice may draw the chips a moment
        # before the uploaders are made anew)
        expect(page.get_by_test_id("stFileChip")).to_have_count(0, timeout=30_000)

        uploaders = page.get_by_test_id("stFileUploaderDropzoneInput")
        uploaders.nth(0).set_input_files(str(qrels))
        page.get_by_text("Read qrels.txt").wait_for(timeout=60_000)  # one upload at a time: each reruns the page
        wait_for_app(page)
        uploaders.nth(1).set_input_files(str(first))
        page.get_by_text("Read first.txt").wait_for(timeout=60_000)
        wait_for_app(page)
        assert "second.txt is no longer here" in page.get_by_text(LOST_NOTICE).inner_text()
        page.get_by_role("tab", name="Per query").wait_for(timeout=60_000)  # the numbers are back
        uploaders.nth(1).set_input_files(str(second))
        page.get_by_text("Read second.txt").wait_for(timeout=60_000)
        wait_for_app(page)
        expect(page.get_by_text(LOST_NOTICE)).to_have_count(0, timeout=30_000)  # the last file back: no notice
        context.close()
