"""A class through ``deploy/run-local --replicas 2``: students on both replicas, one replica killed mid-activity.

Every replica opens the same class store (``--class-db``), so a student whose replica dies reconnects through
nginx to the other one (or to the dead one once run-local has restarted it, when the browser's reconnection
comes later than the restart), whose new session finds them again from the code and token in their link:
same student, same answer, and their next answer replaces it. No answer is lost (answers in the database = the
answers the students last sent) and the class goes on (the reveal reaches everyone).
"""

from __future__ import annotations

import os
import re
import signal
import sqlite3
import time

import pytest
from playwright.sync_api import expect

from tests.browser import LAPTOP, PROJECTOR, wait_for_app
from tests.deploy.conftest import run_local
from tests.ui.classroom.test_browser_class import TIMEOUT, answer, press, wait_for_count

pytestmark = [pytest.mark.deploy, pytest.mark.browser]


def _page(browser, url: str, path: str, *, route: str | None = None, viewport=LAPTOP):
    context = browser.new_context(viewport=viewport)
    if route is not None:  # nginx's cookie: which replica serves this browser
        context.add_cookies([{"name": "irlab_route", "value": route, "url": url}])
    page = context.new_page()
    sockets = SOCKETS.setdefault(page, [])
    page.on("websocket", lambda socket: sockets.append(socket))
    page.goto(f"{url}/{path}")
    wait_for_app(page)
    return page


SOCKETS: dict = {}
"""Each page's websockets, in the order the browser opened them."""


def _wait_for_reconnection(page, opened_before: int, timeout: float = 90) -> str:
    """Wait until the page's websocket has reconnected (a new socket, still open) after its replica died; the
    replica that took it, by nginx's cookie."""
    deadline = time.monotonic() + timeout
    sockets = SOCKETS[page]
    while len(sockets) <= opened_before or sockets[-1].is_closed():
        assert time.monotonic() < deadline, "the browser never reconnected"
        page.wait_for_timeout(100)  # lets Playwright deliver the page's events
    return next((c["value"] for c in page.context.cookies() if c["name"] == "irlab_route"), "")


def test_students_on_both_replicas_lose_nothing_when_one_replica_dies(browser, tmp_path):
    database = tmp_path / "classes.sqlite"
    with run_local("--class-db", f"sqlite:///{database}") as cluster:
        lecturer = _page(browser, cluster.url, "class", route="r2", viewport=PROJECTOR)
        lecturer.get_by_role("button", name="Start a class").click()
        code = lecturer.get_by_test_id("irl-code")
        expect(code).to_have_text(re.compile(r"^\w{6}$"), timeout=TIMEOUT)
        routes = ["r1", "r2", "r1", "r2"]
        students = [_page(browser, cluster.url, f"join?code={code.inner_text().strip()}", route=r) for r in routes]
        for student in students:
            student.get_by_role("button", name="Join", exact=True).click()
            expect(student.get_by_text("Waiting for the lecturer")).to_be_visible(timeout=TIMEOUT)
        lecturer.get_by_role("button", name="Add and show").click()
        for number, student in enumerate(students):
            expect(student.get_by_role("button", name="Send")).to_be_visible(timeout=TIMEOUT)
            answer(student, str(number))
        wait_for_count(lecturer, "Answers, round 1", "4")

        victim = cluster.replica_pids()[cluster.port_of("r1")]
        opened = {student: len(SOCKETS[student]) for student in students}
        os.kill(victim, signal.SIGKILL)  # mid-activity: the round is open, two students were on it
        for number, (student, route) in enumerate(zip(students, routes)):
            if route == "r1":  # reconnected: the same student, with the answer they sent
                assert _wait_for_reconnection(student, opened[student]) in {"r1", "r2"}
                wait_for_app(student)
                expect(student.get_by_text(f"Your answer in this round: {number}.")).to_be_visible(timeout=TIMEOUT)
                answer(student, f"{number}.5")
        wait_for_count(lecturer, "Answers, round 1", "4")

        press(lecturer, "Reveal")
        for student in students:
            expect(student.get_by_text(re.compile(r"^(Correct|Not quite)"))).to_be_visible(timeout=TIMEOUT)
        expected = sorted(f"{n}.5" if r == "r1" else str(n) for n, r in enumerate(routes))
        with sqlite3.connect(database) as connection:
            stored = sorted(text for (text,) in connection.execute("select text from answers"))
        assert stored == expected
        for page in [lecturer, *students]:
            SOCKETS.pop(page, None)
            page.context.close()
