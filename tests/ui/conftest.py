"""Fixtures for the real-browser tests: one app server and one headless Chromium per test session.

Without Chromium the browser tests are skipped with the reason, except in CI (``CI=true``),
where a missing browser is an error: CI installs it (``apt-get install -y chromium``).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bench.browser import CHROMIUM, chromium, metrics_of, running_app, wait_for_app  # noqa: E402

# Streamlit's own console noise, not our code's: a direct link to a subpage first probes
# /<page>/_stcore/health and host-config, which answer 404 (streamlit/streamlit#7074).
KNOWN_STREAMLIT_NOISE = ("Failed to load resource: the server responded with a status of 404",)


def _need_chromium() -> None:
    if Path(CHROMIUM).exists():
        return
    reason = f"Chromium not found at {CHROMIUM}; install it with `apt-get install -y chromium` (Debian/Ubuntu)"
    if os.environ.get("CI", "").lower() in ("1", "true"):
        pytest.fail(reason)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def app_url() -> Iterator[str]:
    _need_chromium()
    with running_app() as url:
        yield url


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    _need_chromium()
    with chromium() as launched:
        yield launched


class BrowserPage:
    """A Playwright page on the app that records console errors from our code."""

    def __init__(self, page, base_url: str) -> None:
        self.page = page
        self.base_url = base_url
        self.errors: list[str] = []
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.errors.append(f"pageerror: {error}"))

    def _console(self, message) -> None:
        if message.type == "error" and not any(noise in message.text for noise in KNOWN_STREAMLIT_NOISE):
            self.errors.append(message.text)

    def open(self, path: str = "") -> BrowserPage:
        self.page.goto(f"{self.base_url}/{path.lstrip('/')}")
        wait_for_app(self.page)
        return self

    def metrics(self) -> dict[str, str]:
        """Every headline metric on the page: label -> shown value."""
        return metrics_of(self.page)

    def metric(self, label: str, timeout: float = 10_000) -> str:
        """The value shown under the headline metric labelled exactly ``label`` (waits for it)."""
        self.page.wait_for_function(
            """label => Array.from(document.querySelectorAll('[data-testid="stMetricLabel"]'))
                          .some(l => l.innerText.trim() === label)""", arg=label, timeout=timeout)
        return self.metrics()[label]

    def wait_for_metric(self, label: str, value: str, timeout: float = 10_000) -> None:
        """Wait until a headline metric labelled exactly ``label`` shows ``value``."""
        self.page.wait_for_function(
            """([label, value]) => Array.from(document.querySelectorAll('[data-testid="stMetric"]')).some(m => {
                   const l = m.querySelector('[data-testid="stMetricLabel"]');
                   const v = m.querySelector('[data-testid="stMetricValue"]');
                   return l && v && l.innerText.trim() === label && v.innerText.trim() === value; })""",
            arg=[label, value], timeout=timeout)


@pytest.fixture
def app_page(browser, app_url) -> Iterator[BrowserPage]:
    """A fresh browser page (laptop size) on the app; fails the test if our code logged errors."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = BrowserPage(context.new_page(), app_url)
    yield page
    context.close()
    assert not page.errors, page.errors
