"""The settled K reaches the server by a small request (irlab/ui/walkthrough/settle.py).

The inbox alone (bounds, order), the route on a small Starlette app with what a hostile client sends (each refusal a
status, never a traceback), and in AppTest: the session's next run takes a posted K as the K's own run took it (the
state, the undo history, the link written), in order with the region's messages.
"""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor

import pytest
from starlette.applications import Starlette

from irlab.ui.walkthrough.settle import (
    INBOX,
    KEPT_PER_SESSION,
    MAX_BODY,
    SETTLE_PATH,
    TOKEN,
    Inbox,
    Settled,
    settle_routes,
)
from irlab.walkthrough.chapters import BY_SLUG
from irlab.walkthrough.history import History
from irlab.walkthrough.urlstate import params_from_state

APP = Starlette(routes=settle_routes())


def _request(body: bytes, *, method: str = "POST", path: str = SETTLE_PATH, chunks: int = 1) -> int:
    """``method`` ``path`` with ``body`` (in ``chunks`` pieces) through the route's app: the response's status."""
    sent = []
    size = max(1, -(-len(body) // chunks))
    pieces = [body[i:i + size] for i in range(0, len(body), size)] or [b""]

    async def receive():
        piece = pieces.pop(0) if pieces else b""
        return {"type": "http.request", "body": piece, "more_body": bool(pieces)}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": method, "path": path, "headers": [(b"content-type", b"application/json")],
             "query_string": b"", "root_path": "", "scheme": "http", "server": ("test", 80)}
    # a fresh event loop in a thread of its own (a browser test may have left Playwright's loop running in this one)
    with ThreadPoolExecutor(max_workers=1) as thread:
        thread.submit(asyncio.run, APP(scope, receive, send)).result()
    return sent[0]["status"]


def _post(**fields) -> int:
    return _request(json.dumps(fields).encode())


# --- the inbox ------------------------------------------------------------------------------------------------------


def test_an_inbox_takes_a_sessions_ks_in_order_once():
    inbox = Inbox()
    inbox.register("a")
    assert inbox.post("a", Settled(3, 1, "ndcg")) and inbox.post("a", Settled(5, 2, "ndcg"))
    assert inbox.take("a") == [Settled(3, 1, "ndcg"), Settled(5, 2, "ndcg")]
    assert inbox.take("a") == []


def test_an_inbox_refuses_a_token_no_session_registered():
    inbox = Inbox()
    assert inbox.post("nobody", Settled(3, 1, "ndcg")) is False
    assert inbox.take("nobody") == []


def test_an_inbox_keeps_a_sessions_last_few_ks():
    inbox = Inbox()
    inbox.register("a")
    for n in range(KEPT_PER_SESSION + 5):
        inbox.post("a", Settled(1 + n % 8, n, "ndcg"))
    taken = inbox.take("a")
    assert [settled.n for settled in taken] == list(range(5, KEPT_PER_SESSION + 5))


def test_an_inbox_keeps_a_bounded_number_of_sessions_the_least_recently_registered_go_first():
    inbox = Inbox(sessions=2)
    for token in ("a", "b"):
        inbox.register(token)
    inbox.register("a")  # a run of a: registered again, so b is the oldest
    inbox.register("c")
    assert inbox.post("b", Settled(3, 1, "ndcg")) is False
    assert inbox.post("a", Settled(3, 1, "ndcg")) and inbox.post("c", Settled(3, 1, "ndcg"))


def test_registering_again_keeps_what_waits():
    inbox = Inbox()
    inbox.register("a")
    inbox.post("a", Settled(4, 7, "map"))
    inbox.register("a")
    assert inbox.take("a") == [Settled(4, 7, "map")]


# --- the route --------------------------------------------------------------------------------------------------------


@pytest.fixture
def token():
    INBOX.register("route-test-token")
    yield "route-test-token"
    INBOX.take("route-test-token")


def test_a_settled_k_waits_for_its_session(token):
    assert _post(token=token, k=5, n=3, chapter="ndcg") == 204
    assert INBOX.take(token) == [Settled(5, 3, "ndcg")]


def test_a_token_this_process_does_not_know_is_404_so_the_browser_tells_the_server_by_a_message():
    assert _post(token="another-replicas-token", k=5, n=3, chapter="ndcg") == 404


@pytest.mark.parametrize("fields", [
    {"k": 0}, {"k": 9}, {"k": 2.5}, {"k": "3"}, {"k": True}, {"k": None}, {"k": 1e300},
    {"n": -1}, {"n": 2**60}, {"n": "1"},
    {"chapter": "no-such-chapter"}, {"chapter": 3}, {"chapter": None},
    {"token": ""}, {"token": "x" * 65}, {"token": 7},
])
def test_a_bad_k_chapter_number_or_token_is_400_and_nothing_waits(token, fields):
    assert _post(**({"token": token, "k": 5, "n": 3, "chapter": "ndcg"} | fields)) == 400
    assert INBOX.take(token) == []


@pytest.mark.parametrize("body", [b"", b"not json", b"[1, 2]", b'"text"', b"\xff\xfe",
                                  b'{"token": "route-test-token", "k": NaN, "n": 1, "chapter": "ndcg"}',
                                  b'{"token": "route-test-token", "k": 5, "n": Infinity, "chapter": "ndcg"}'])
def test_a_body_that_is_not_a_settle_request_is_400(token, body):
    assert _request(body) == 400
    assert INBOX.take(token) == []


def test_a_body_longer_than_the_limit_is_413_read_no_further(token):
    body = json.dumps({"token": token, "k": 5, "n": 3, "chapter": "ndcg", "pad": "x" * MAX_BODY}).encode()
    assert _request(body, chunks=8) == 413
    assert INBOX.take(token) == []


def test_only_post_is_served(token):
    assert _request(b"", method="GET") == 405


# --- a session's next run takes it (AppTest) ------------------------------------------------------------------------


NDCG = BY_SLUG["ndcg"]


def _k(at) -> int:
    return at.session_state["irlab.state"].effective_k(NDCG)


def _token_of(at) -> str:
    token = at.session_state[TOKEN]
    assert isinstance(token, str) and len(token) >= 16
    return token


def test_the_next_run_takes_a_posted_k_state_undo_history_and_link(open_page, shown_metrics):
    """NDCG at K = 2: K = 5 posted through the route; the session's next run (any run: here the whole app) is at K = 5,
    one undo step back is K = 2, the numbers are NDCG@5's and the link the server wrote is the K = 5 link."""
    at = open_page("ndcg")
    token = _token_of(at)
    assert _k(at) == 2
    assert INBOX.post(token, Settled(5, 10**6, "ndcg"))
    at.run()
    assert not at.exception
    state = at.session_state["irlab.state"]
    assert state.effective_k(NDCG) == 5
    assert "NDCG@5" in shown_metrics(at)
    history: History = at.session_state["irlab.history"]
    assert history.present.effective_k(NDCG) == 5 and history.undo().present.effective_k(NDCG) == 2
    assert at.session_state["irlab.url_written"] == params_from_state(state, NDCG)
    assert at.query_params.get("k") in (["5"], "5")


def test_a_posted_k_a_later_message_overtook_is_dropped(open_page):
    """A K posted (number 5) reaches the inbox after a message numbered 6 that carried K = 3 was taken: K stays 3."""
    from tests.ui.conftest import send_message
    at = open_page("ndcg")
    token = _token_of(at)
    send_message(at, "kform", k=3, n=6)
    assert _k(at) == 3
    INBOX.post(token, Settled(7, 5, "ndcg"))
    at.run()
    assert _k(at) == 3


def test_a_message_older_than_a_taken_settled_k_does_not_bring_its_k_back(open_page):
    """K = 6 settled (number 8) and taken; a message numbered 7, sent before it, carrying K = 4, arrives after: K stays
    6 (the message is taken, its K is not)."""
    from tests.ui.conftest import send_message
    at = open_page("ndcg")
    token = _token_of(at)
    INBOX.post(token, Settled(6, 8, "ndcg"))
    at.run()
    assert _k(at) == 6
    send_message(at, "kform", k=4, n=7)
    assert _k(at) == 6


def test_under_the_servers_base_path_the_route_answers_and_under_another_it_is_404(token, monkeypatch):
    import streamlit as st
    real = st.get_option
    monkeypatch.setattr(st, "get_option", lambda name: "irlab" if name == "server.baseUrlPath" else real(name))
    body = json.dumps({"token": token, "k": 4, "n": 9, "chapter": "ndcg"}).encode()
    assert _request(body, path=f"/irlab{SETTLE_PATH}") == 204
    assert _request(body, path=f"/other{SETTLE_PATH}") == 404
    assert INBOX.take(token) == [Settled(4, 9, "ndcg")]
