"""In Chromium, on a server that never draws screens ahead (``IRLAB_AHEAD_BUSY=0``: what a replica busy with a class
of students each moving their own way does): no K form and no tile's moves come, and every K change and every drop
still shows what irlab computes, each by a run, as before screens were drawn ahead.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.browser import drag_tile, need_chromium, running_app, wait_for_app
from tests.ui.conftest import BrowserPage, laptop_page
from tests.ui.walkthrough.test_browser_settle import K_SLIDER, _headline

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def spent_url() -> Iterator[str]:
    need_chromium()
    with running_app(env={"IRLAB_AHEAD_BUSY": "0"}) as url:
        yield url


@pytest.fixture
def spent_page(browser, spent_url) -> Iterator[BrowserPage]:
    with laptop_page(browser, spent_url) as page:
        yield page


def test_without_screens_drawn_ahead_k_changes_and_drops_are_drawn_by_runs(spent_page):
    """NDCG: the learner comes to K (the region asks for the K form; the answer says the server is busy), presses
    ArrowRight twice: NDCG@4's numbers, by the server; then drags picture 3 to rank 1: the new order's numbers at
    K = 4. The region received no K form and no tile's moves, and drew nothing ahead."""
    spent_page.open("ndcg")
    spent_page.metric("NDCG@2")
    page = spent_page.page
    page.locator(K_SLIDER).focus()
    page.keyboard.press("ArrowRight")
    spent_page.wait_for_metric("NDCG@3", _headline("ndcg", 3)["NDCG@3"])
    page.keyboard.press("ArrowRight")
    spent_page.wait_for_metric("NDCG@4", _headline("ndcg", 4)["NDCG@4"])
    wait_for_app(page)
    assert spent_page.metrics() == _headline("ndcg", 4)
    tiles = spent_page.tiles()
    drag_tile(page, tiles.nth(2), tiles.nth(0), after=False)
    order = ["3", "1", "2", "4", "5", "6", "7", "8"]
    spent_page.wait_for_order(order)
    expected = _headline("ndcg", 4, order)
    spent_page.wait_for_metric("NDCG@4", expected["NDCG@4"])
    wait_for_app(page)
    assert spent_page.metrics() == expected
    stats = page.evaluate("window.__irlRegionStats")
    assert stats["kForms"] == 0 and stats["moveScreens"] == 0 and stats["moved"] == 0 and stats["otherK"] == 0
    assert stats["busy"] >= 1  # the answer to the first ask said so: the region then asked nothing ahead for a while
