"""The live class's own routes in the running app (``streamlit run app.py``): the event stream and the answer route
with what a hostile client sends, each refusal one line with a clear status, and the limits that keep one script
from costing the server for everyone.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from irlab.classroom import ClassStore
from irlab.classroom.activities.predict import predict_settings
from irlab.classroom.database import forget_engine
from irlab.ui.classroom.feed import (
    ANSWER_PATH,
    EVENTS_PATH,
    MAX_BODY,
    SENDS_PER_SEAT,
    STREAMS_PER_PAGE,
    TOO_FAST,
    TOO_MANY_STREAMS,
)
from irlab.walkthrough.chapters import chapter
from irlab.walkthrough.state import DEFAULT_STATE
from tests.browser import running_app


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, ClassStore]]:
    """The app on a class store of its own: (its URL, the store)."""
    url = f"sqlite:///{Path(tmp_path_factory.mktemp('routes')) / 'classes.sqlite'}"
    with running_app(env={"IRLAB_CLASS_DB": url}) as base:
        yield base, ClassStore(url)
    forget_engine(url)


def post(base: str, body: bytes, headers: dict | None = None) -> tuple[int, dict]:
    request = urllib.request.Request(f"{base}{ANSWER_PATH}", data=body, method="POST",
                                     headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def first_event(base: str, query: str) -> tuple[str, dict]:
    """The first event (name, data) a stream sends."""
    with urllib.request.urlopen(f"{base}{EVENTS_PATH}?{query}", timeout=30) as stream:
        name = ""
        while True:
            line = stream.readline().decode().rstrip("\n")
            if line.startswith("event: "):
                name = line[7:]
            elif line.startswith("data: "):
                return name, json.loads(line[6:])


def a_question(store: ClassStore):
    new = store.start_class()
    desk = store.lecturer(new.code, new.key)
    desk.show(desk.add_activity("predict", predict_settings(DEFAULT_STATE, chapter("ndcg"), "nDCG@K")).id)
    seat = store.join(new.code)
    return new, seat, seat.view().activity.round_id


def test_malformed_oversized_and_cross_site_answers_are_refused_in_one_line(served):
    base, store = served
    new, seat, round_id = a_question(store)
    good = {"code": new.code, "student": seat.token, "round": round_id, "answer": "0.39", "send": "phoneAAAA-1"}
    for body, status in ((b"{not json", 400), (json.dumps({**good, "round": "1"}).encode(), 400),
                         (json.dumps([1, 2]).encode(), 400), (b"x" * (MAX_BODY + 1), 413),
                         (json.dumps({**good, "answer": "<script>"}).encode(), 422),
                         (json.dumps({**good, "student": "x" * 22}).encode(), 404)):
        got, reply = post(base, body)
        assert got == status and reply["ok"] is False and reply["message"] and "\n" not in reply["message"], body[:40]
    got, reply = post(base, json.dumps(good).encode(), {"Origin": "http://evil.example"})
    assert got == 403 and reply["message"] == "Answers are sent from the class's own page."
    got, reply = post(base, json.dumps(good).encode())
    assert got == 200 and reply["message"].startswith("Answer received: 0.39")
    assert store.lecturer(new.code, new.key).projector().current.rounds[0].answers == 1


def test_one_seat_cannot_flood_the_answer_route(served):
    base, store = served
    new, seat, round_id = a_question(store)
    statuses = []
    for n in range(SENDS_PER_SEAT + 5):  # as fast as a script can: the same answer, counted once
        got, reply = post(base, json.dumps({"code": new.code, "student": seat.token, "round": round_id,
                                            "answer": "0.5", "send": f"scriptAAA-{n + 1}"}).encode())
        statuses.append(got)
    assert statuses[:SENDS_PER_SEAT] == [200] * SENDS_PER_SEAT and set(statuses[SENDS_PER_SEAT:]) == {429}
    assert reply["message"] == TOO_FAST
    other = store.join(new.code)  # a classmate is not held up
    got, _ = post(base, json.dumps({"code": new.code, "student": other.token, "round": round_id,
                                    "answer": "0.4"}).encode())
    assert got == 200


def test_a_stream_for_an_unknown_or_foreign_link_says_the_same_and_a_seat_holds_few_streams(served):
    base, store = served
    new, seat, _ = a_question(store)
    other = store.start_class()
    unknown = first_event(base, f"code=ABCDEF&student={seat.token}")
    foreign = first_event(base, f"code={other.code}&student={seat.token}")
    assert unknown == foreign and unknown[0] == "gone"  # nothing tells a live code from a dead one
    held = [urllib.request.urlopen(f"{base}{EVENTS_PATH}?code={new.code}&student={seat.token}", timeout=30)
            for _ in range(STREAMS_PER_PAGE)]
    try:
        for stream in held:  # each is open and following
            while not stream.readline().startswith(b"event: pulse"):
                pass
        assert first_event(base, f"code={new.code}&student={seat.token}") == (
            "trouble", {"message": TOO_MANY_STREAMS})
    finally:
        for stream in held:
            stream.close()
    deadline = time.monotonic() + 30  # closed tabs give their place back
    while first_event(base, f"code={new.code}&student={seat.token}")[0] != "pulse":
        assert time.monotonic() < deadline
        time.sleep(0.5)
