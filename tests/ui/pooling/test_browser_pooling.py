"""The pooling lab in real headless Chromium: on a phone (390x844, touch) a tap judges a pooled document and the
count follows, nothing scrolls sideways; on a projector the tau chart is drawn. Screenshots with IRLAB_SCREENSHOTS."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser import LAPTOP, PHONE, PROJECTOR, need_chromium, running_app, wait_for_app

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[3]
TIMEOUT = 90_000


@pytest.fixture(scope="module")
def app_url():
    need_chromium()
    with running_app() as url:
        yield url


def _shot(page: Page, name: str) -> None:
    if os.environ.get("IRLAB_SCREENSHOTS"):
        wait_for_app(page, timeout=TIMEOUT)
        (ROOT / "screenshots").mkdir(exist_ok=True)
        page.screenshot(path=str(ROOT / "screenshots" / f"pooling-{name}.png"))


def _serious(page: Page) -> list[str]:
    """axe-core's serious and critical violations (none allowed)."""
    axe = pytest.importorskip("axe_playwright_python.sync_playwright")
    violations = axe.Axe().run(page).response["violations"]
    return [f"{v['id']}: {v['nodes'][0]['target']}" for v in violations if v["impact"] in ("serious", "critical")]


def _judged(page: Page) -> str:
    metric = page.locator('[data-testid="stMetric"]').filter(has_text="Judged on this page")
    return metric.locator('[data-testid="stMetricValue"]').inner_text()


def test_a_tap_judges_a_pooled_document_on_a_phone(browser, app_url):
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        page.goto(f"{app_url}/pooling")
        wait_for_app(page, timeout=TIMEOUT)
        expect(page.get_by_text("Documents to judge")).to_be_visible(timeout=TIMEOUT)
        page.get_by_role("tab", name="Judge", exact=True).tap()
        assert _judged(page) == "0"
        page.get_by_role("button", name="2 · highly relevant").tap()
        expect(page.locator('[data-testid="stMetric"]').filter(has_text="Judged on this page")
               .locator('[data-testid="stMetricValue"]')).to_have_text("1", timeout=TIMEOUT)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"] + 1
        _shot(page, "phone-judge")
        assert _serious(page) == []
    finally:
        context.close()


@pytest.mark.parametrize("viewport, name", [(PROJECTOR, "projector"), (LAPTOP, "laptop")])
def test_the_tau_chart_is_drawn(browser, app_url, viewport, name):
    context = browser.new_context(viewport=viewport)
    try:
        page = context.new_page()
        page.goto(f"{app_url}/pooling")
        wait_for_app(page, timeout=TIMEOUT)
        page.get_by_role("tab", name="How the ranking moves").click()
        expect(page.locator(".js-plotly-plot").first).to_be_visible(timeout=TIMEOUT)
        expect(page.get_by_text("The reference ranking")).to_be_visible()
        _shot(page, name)
        assert _serious(page) == []
    finally:
        context.close()
