"""A class pushed through ``deploy/run-local --replicas 2`` in real Chromium, on SQLite and on PostgreSQL: phones on
both replicas, the projector on one, one replica killed mid-question.

Every replica opens the same class store (``--class-db``) and has its own watcher (SQLite's change counter,
PostgreSQL's LISTEN/NOTIFY): what a phone on one replica does reaches the projector on the other by push. A
replica that dies takes its phones' websockets and event streams with it; nginx sends them to the other one
(or to the dead one once run-local restarted it), whose new session finds the same student from the link: no
reload, Streamlit's developer dialog never shows, an answer sent meanwhile is kept on the phone and counted once
when it arrives, and no answer is lost.
"""

from __future__ import annotations

import os
import re
import signal
import time

import pytest
from playwright.sync_api import expect
from sqlalchemy import create_engine, text

from tests.browser import PHONE, PROJECTOR, wait_for_app
from tests.deploy.conftest import run_local
from tests.ui.classroom.test_browser_class import TIMEOUT, answer, answer_box, press, wait_for_count

pytestmark = [pytest.mark.deploy, pytest.mark.browser]

CONNECTION_DIALOG = """() => Array.from(document.querySelectorAll('[data-testid="stDialog"]'))
  .filter(d => d.offsetParent !== null || getComputedStyle(d).display !== 'none').length"""


def _page(browser, url: str, path: str, *, route: str, viewport=PHONE):
    phone = viewport is PHONE
    context = browser.new_context(viewport=viewport, has_touch=phone, is_mobile=phone)
    context.add_cookies([{"name": "irlab_route", "value": route, "url": url}])  # nginx's: which replica serves it
    page = context.new_page()
    sockets = SOCKETS.setdefault(page, [])
    page.on("websocket", lambda socket: sockets.append(socket))
    page.goto(f"{url}/{path}")
    wait_for_app(page)
    return page


SOCKETS: dict = {}
"""Each page's websockets, in the order the browser opened them."""


def _wait_for_reconnection(page, opened_before: int, timeout: float = 90) -> None:
    """Wait until the page's websocket has reconnected (a new socket, still open) after its replica died."""
    deadline = time.monotonic() + timeout
    sockets = SOCKETS[page]
    while len(sockets) <= opened_before or sockets[-1].is_closed():
        assert time.monotonic() < deadline, "the browser never reconnected"
        page.wait_for_timeout(100)  # lets Playwright deliver the page's events


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_phones_on_both_replicas_follow_by_push_and_lose_nothing_when_one_dies(backend, browser, tmp_path, request):
    url = (f"sqlite:///{tmp_path / 'classes.sqlite'}" if backend == "sqlite"
           else request.getfixturevalue("postgres_url"))
    with run_local("--class-db", url) as cluster:
        lecturer = _page(browser, cluster.url, "class", route="r2", viewport=PROJECTOR)
        lecturer.get_by_role("button", name="Start a class").click()
        code = lecturer.get_by_test_id("irl-code")
        expect(code).to_have_text(re.compile(r"^\w{6}$"), timeout=TIMEOUT)
        routes = ["r1", "r2", "r1", "r2"]
        phones = [_page(browser, cluster.url, f"join?code={code.inner_text().strip()}", route=r) for r in routes]
        for phone in phones:
            phone.get_by_role("button", name="Join", exact=True).tap()
            expect(phone.get_by_text("Waiting for the lecturer")).to_be_visible(timeout=TIMEOUT)
        wait_for_count(lecturer, "Students joined", "4")
        lecturer.get_by_role("button", name="Add and show").click()
        for number, phone in enumerate(phones):  # pushed to the phones of both replicas
            expect(phone.get_by_test_id("irl-send")).to_be_visible(timeout=TIMEOUT)
            answer(phone, str(number), phone=True)
        wait_for_count(lecturer, "Answers, round 1", "4")  # phones on r1, projector on r2: counted by push

        victim = cluster.replica_pids()[cluster.port_of("r1")]
        opened = {phone: len(SOCKETS[phone]) for phone in phones}
        os.kill(victim, signal.SIGKILL)  # mid-question: the round is open, two phones were on it
        moved = [phone for phone, route in zip(phones, routes) if route == "r1"]
        answer_box(moved[0]).fill("0.5")  # sent at once, while its replica is gone: kept, then counted once
        moved[0].get_by_test_id("irl-send").tap()
        for phone in moved:
            _wait_for_reconnection(phone, opened[phone])
            expect(phone.get_by_test_id("irl-send")).to_be_visible(timeout=TIMEOUT)  # back without a reload
            assert phone.evaluate(CONNECTION_DIALOG) == 0  # Streamlit's developer dialog never showed
            expect(phone.get_by_test_id("irl-connection")).to_be_hidden(timeout=TIMEOUT)
        expect(moved[0].get_by_test_id("irl-receipt")).to_have_text(re.compile(r"^Answer (changed to|received:) 0\.5"),
                                                                    timeout=TIMEOUT)
        answer(moved[1], "2.5", phone=True)
        wait_for_count(lecturer, "Answers, round 1", "4")

        press(lecturer, "Reveal")
        for phone in phones:
            expect(phone.get_by_text(re.compile(r"^(Correct|Not quite)"))).to_be_visible(timeout=TIMEOUT)
        engine = create_engine(url)
        with engine.connect() as connection:
            stored = sorted(connection.execute(text("select text from answers")).scalars())
            revisions = sorted(connection.execute(text("select revisions from answers")).scalars())
        engine.dispose()
        assert stored == ["0.5", "1", "2.5", "3"] and revisions == [0, 0, 1, 1]  # every last answer, each once
        for page in [lecturer, *phones]:
            SOCKETS.pop(page, None)
            page.context.close()
