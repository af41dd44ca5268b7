"""In Chromium: a change of K costs no Streamlit run; the settled K reaches the server by one small request per pause
(irlab/ui/walkthrough/settle.py), and everything that reads the K afterwards has it: the link, Back and Forward, a
reload, the next tile move. Under a base path the request goes there; when the route does not know the session
(another replica), the K goes by a message, as before.

A Streamlit run is counted by the frames the page sends on Streamlit's websocket (each is a BackMsg: a run, a
component's value, ...).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from irlab.ui.walkthrough.settle import SETTLE_PATH
from tests.browser import drag_tile, wait_for_app

pytestmark = pytest.mark.browser

K_SLIDER = '[data-testid="irl-k-input"]'


class Watched:
    """What a page sends: the frames on Streamlit's websocket and the settle requests (with their statuses)."""

    def __init__(self, page) -> None:
        self.frames = 0
        self.posts: list[str] = []
        self.statuses: list[int] = []
        page.on("websocket", lambda socket: socket.on("framesent", self._frame))
        page.on("request", lambda request: self.posts.append(request.url) if SETTLE_PATH in request.url else None)
        page.on("response", lambda response: self.statuses.append(response.status)
                if SETTLE_PATH in response.url else None)

    def _frame(self, _payload) -> None:
        self.frames += 1


def _headline(slug: str, k: int, order: list[str] | None = None) -> dict[str, str]:
    """What irlab computes for the chapter's headline numbers at ``k`` (the main row in ``order``)."""
    from irlab.walkthrough.chapters import chapter
    from irlab.walkthrough.state import DEFAULT_STATE
    from irlab.walkthrough.views import chapter_view

    state = replace(DEFAULT_STATE.with_preset(chapter(slug)), k=k)
    if order is not None:
        state = replace(state, order=tuple(order))
    return {h.label: h.display for h in chapter_view(state, chapter(slug)).headline}


def _to_k_form(page) -> None:
    """The learner comes to the K slider (a focus): the region asks for its K form, one run; wait for it."""
    page.locator(K_SLIDER).focus()
    page.wait_for_function("() => window.__irlRegionStats.kForms >= 1")
    wait_for_app(page)


def _settle(page, watched: Watched, presses: str, k: int) -> None:
    """Press ``presses`` on the focused K slider, then pause: wait until the request settling K = ``k`` is answered."""
    answered = len(watched.statuses)
    with page.expect_response(lambda response: SETTLE_PATH in response.url):
        for key in presses.split():
            page.keyboard.press(key)
    page.wait_for_function("(k) => window.location.search.includes(`k=${k}`)", arg=k)
    assert len(watched.statuses) == answered + 1


def test_a_k_change_makes_no_run_and_the_settled_k_is_posted_once_per_pause(app_page):
    """NDCG: three presses of ArrowRight (K 2 -> 5), a pause, one more (K 6), a pause: each K is drawn at once; each
    pause posts its K once (204) and puts its link into the address bar; the page sends Streamlit nothing, and the
    region gets no answer."""
    watched = Watched(app_page.page)
    app_page.open("ndcg")
    app_page.metric("NDCG@2")
    _to_k_form(app_page.page)
    frames, updates = watched.frames, app_page.page.evaluate("window.__irlRegionStats.updates")
    _settle(app_page.page, watched, "ArrowRight ArrowRight ArrowRight", 5)
    assert app_page.metrics() == _headline("ndcg", 5)
    _settle(app_page.page, watched, "ArrowRight", 6)
    assert app_page.metrics() == _headline("ndcg", 6)
    assert watched.statuses == [204, 204] and len(watched.posts) == 2
    assert watched.frames == frames  # no run, no component value: nothing went to Streamlit
    stats = app_page.page.evaluate("window.__irlRegionStats")
    assert stats["updates"] == updates and stats["settled"] == 2


def test_back_and_forward_after_settled_ks_and_undo_steps_through_them(app_page):
    """NDCG: K settled at 4, then 6 (no run); Back shows K = 4 (numbers, slider, link), Back again K = 2, Forward K = 4;
    then Undo goes back to K = 2 (the K = 4 the server learned by Back is one step of the undo history)."""
    watched = Watched(app_page.page)
    app_page.open("ndcg")
    app_page.metric("NDCG@2")
    _to_k_form(app_page.page)
    _settle(app_page.page, watched, "ArrowRight ArrowRight", 4)
    _settle(app_page.page, watched, "ArrowRight ArrowRight", 6)
    for go, k in ((app_page.page.go_back, 4), (app_page.page.go_back, 2), (app_page.page.go_forward, 4)):
        go()
        app_page.wait_for_metric(f"NDCG@{k}", _headline("ndcg", k)[f"NDCG@{k}"])
        app_page.page.wait_for_function("([sel, k]) => document.querySelector(sel).getAttribute('aria-valuetext') "
                                        "=== `K = ${k}`", arg=[K_SLIDER, k])
        assert f"k={k}" in app_page.page.evaluate("window.location.search")
    wait_for_app(app_page.page)
    app_page.page.get_by_role("button", name="Undo").click()
    app_page.wait_for_metric("NDCG@2", _headline("ndcg", 2)["NDCG@2"])


def test_a_reload_keeps_the_settled_k(app_page):
    """Recall & precision: K settled at 5 with no run; a reload (a new session, from the link) opens at K = 5."""
    watched = Watched(app_page.page)
    app_page.open("recall-precision")
    app_page.metric("Recall@2")
    _to_k_form(app_page.page)
    _settle(app_page.page, watched, "ArrowRight ArrowRight ArrowRight", 5)
    app_page.page.reload()
    wait_for_app(app_page.page)
    app_page.metric("Recall@5")
    assert app_page.metrics() == _headline("recall-precision", 5)
    assert app_page.page.locator(K_SLIDER).get_attribute("aria-valuetext") == "K = 5"


def test_a_tile_move_right_after_a_settled_k_is_made_at_that_k(app_page):
    """NDCG: K settled at 5 (no run), then a tile dragged to rank 1: the numbers are NDCG@5's of the new order, and the
    link the move's run writes says k=5 (the run took the settled K first)."""
    watched = Watched(app_page.page)
    app_page.open("ndcg")
    app_page.metric("NDCG@2")
    _to_k_form(app_page.page)
    _settle(app_page.page, watched, "ArrowRight ArrowRight ArrowRight", 5)
    tiles = app_page.tiles()
    drag_tile(app_page.page, tiles.nth(2), tiles.nth(0), after=False)
    order = ["3", "1", "2", "4", "5", "6", "7", "8"]
    app_page.wait_for_order(order)
    expected = _headline("ndcg", 5, order)
    app_page.wait_for_metric("NDCG@5", expected["NDCG@5"])
    app_page.page.wait_for_function("() => /order=3/.test(decodeURIComponent(window.location.search))")
    wait_for_app(app_page.page)
    assert app_page.metrics() == expected
    assert "k=5" in app_page.page.evaluate("window.location.search")


def test_a_route_that_does_not_know_the_session_falls_back_to_a_message(app_page):
    """The settle request answered 404 (the request reached another replica, or a restarted one): the K goes to the
    server by a message, one run, and the link still says it."""
    app_page.page.route(f"**{SETTLE_PATH}", lambda route: route.fulfill(status=404))
    watched = Watched(app_page.page)
    app_page.open("ndcg")
    app_page.metric("NDCG@2")
    _to_k_form(app_page.page)
    updates = app_page.page.evaluate("window.__irlRegionStats.updates")
    frames = watched.frames
    _settle(app_page.page, watched, "ArrowRight ArrowRight", 4)
    app_page.page.wait_for_function("(n) => window.__irlRegionStats.updates > n", arg=updates)
    assert watched.statuses == [404] and watched.frames > frames
    wait_for_app(app_page.page)
    app_page.page.reload()
    wait_for_app(app_page.page)
    app_page.metric("NDCG@4")


def test_under_a_base_path_the_settled_k_is_posted_there(browser, start_app):
    """The app under server.baseUrlPath "irlab": the settle request goes to /irlab/_irlab/region/settle and is taken
    (204), with no run."""
    with start_app(base_path="irlab") as url:
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        page = context.new_page()
        watched = Watched(page)
        page.goto(f"{url}/ndcg")
        wait_for_app(page)
        _to_k_form(page)
        frames = watched.frames
        _settle(page, watched, "ArrowRight ArrowRight", 4)
        assert watched.statuses == [204] and watched.posts[0].endswith(f"/irlab{SETTLE_PATH}")
        assert watched.frames == frames
        context.close()
