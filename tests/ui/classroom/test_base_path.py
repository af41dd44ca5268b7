"""The app under a base path (``--server.baseUrlPath irlab``): the class's routes and the shared task's are served
there, where the pages and the command line ask for them (Streamlit mounts an ``st.App``'s routes at the root only:
``/irlab/_irlab/class/answer`` used to be Streamlit's page, not our route), never under another base path; a class
runs there in Chromium, its phone's answer and the projector's counts going through ``/irlab/_irlab/class/...``.
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from irlab.classroom import ClassStore
from irlab.classroom.database import forget_engine
from irlab.ui.classroom.feed import ANSWER_PATH, EVENTS_PATH
from tests.browser import need_chromium, running_app
from tests.ui.classroom.test_browser_class import TIMEOUT, Browsers, answer, join, start_class, wait_for_count
from tests.ui.classroom.test_routes import a_question, first_event

BASE = "irlab"


@pytest.fixture(scope="module")
def under_base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, ClassStore]]:
    """The app under the base path, on a class store of its own: (its URL with the base path, the store)."""
    url = f"sqlite:///{Path(tmp_path_factory.mktemp('base')) / 'classes.sqlite'}"
    with running_app(env={"IRLAB_CLASS_DB": url}, base_path=BASE) as served:
        assert served.endswith(f"/{BASE}")
        yield served, ClassStore(url)
    forget_engine(url)


def request(url: str, body: bytes | None = None, headers: dict | None = None) -> tuple[int, str, bytes]:
    """(status, content type, body) of a GET (or a POST of ``body``)."""
    sent = urllib.request.Request(url, data=body, method="POST" if body is not None else "GET",
                                  headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(sent, timeout=30) as answer_:
            return answer_.status, answer_.headers.get("content-type", ""), answer_.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("content-type", ""), error.read()


def test_the_class_routes_answer_under_the_base_path_and_not_under_another(under_base):
    url, store = under_base
    new, seat, round_id = a_question(store)
    sent = json.dumps({"code": new.code, "student": seat.token, "round": round_id, "answer": "0.39",
                       "send": "phoneAAAA-1"}).encode()
    status, kind, body = request(f"{url}{ANSWER_PATH}", sent)
    assert status == 200 and kind.startswith("application/json"), (status, kind, body[:80])
    assert json.loads(body)["message"].startswith("Answer received: 0.39")
    assert first_event(url, f"code={new.code}&student={seat.token}")[0] == "pulse"  # /irlab/_irlab/class/events
    root = url.removesuffix(f"/{BASE}")
    status, _, body = request(f"{root}/elsewhere{ANSWER_PATH}", sent)
    assert status == 404 and b"another base path" in body
    status, _, _ = request(f"{root}/elsewhere{EVENTS_PATH}?code={new.code}&student={seat.token}")
    assert status == 404
    assert store.lecturer(new.code, new.key).projector().current.rounds[0].answers == 1  # counted once


def test_the_task_routes_answer_under_the_base_path(under_base):
    """What ``irlab task leaderboard --server http://host/irlab`` asks for: the route's JSON refusal (no such task),
    not Streamlit's page."""
    url, _ = under_base
    status, kind, body = request(f"{url}/api/tasks/ABCDEF/leaderboard", headers={"Authorization": "Bearer " + "x" * 22})
    assert status == 403 and kind.startswith("application/json") and json.loads(body)["error"], (status, kind)
    root = url.removesuffix(f"/{BASE}")
    assert request(f"{root}/elsewhere/api/tasks/ABCDEF/leaderboard")[0] == 404


@pytest.mark.browser
def test_a_class_runs_under_the_base_path(browser, under_base):
    need_chromium()
    url, _ = under_base
    browsers = Browsers(browser, url)
    try:
        lecturer, code = start_class(browsers)
        phone = join(browsers, code, phone=True)
        wait_for_count(lecturer, "Students joined", "1")  # the projector's stream: /irlab/_irlab/class/events
        lecturer.get_by_role("button", name="Add and show").click()
        expect(phone.get_by_test_id("irl-send")).to_be_visible(timeout=TIMEOUT)
        posted: list[str] = []
        phone.on("request", lambda sent: posted.append(sent.url) if sent.method == "POST" else None)
        answer(phone, "4", phone=True)
        wait_for_count(lecturer, "Answers, round 1", "1")
        assert [u for u in posted if u.endswith(ANSWER_PATH)] == [f"{url}{ANSWER_PATH}"], posted
        assert re.search(rf"/{BASE}/join\?code={code}", lecturer.get_by_test_id("irl-join-link").inner_text())
    finally:
        browsers.close()
    assert not browsers.errors, browsers.errors
