"""Fixtures for the page tests: the app under AppTest, and the real app in headless Chromium.

AppTest fixtures: ``open_page`` (the app on a page, optionally opened from a link),
``tile_change`` (a tile component value as the browser sends it), ``shown_metrics`` (every
headline value) and ``downloads`` (what each ``st.download_button`` offers, recorded through
the public ``st`` API).

Browser fixtures: one app server and one headless Chromium per test session; ``app_page`` is a
fresh page on it. Without Chromium the browser tests are skipped with the reason, except in CI
(``CI=true``), where a missing browser is an error: CI installs it (``apt-get install -y chromium``).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from irlab.ui.shell.pages import SECTIONS
from tests.browser import METRICS_JS, drag_tile, metrics_of, need_chromium, running_app, wait_for_app

ROOT = Path(__file__).resolve().parents[2]
PAGES = {entry.url_path or "home": entry.path for entries in SECTIONS.values() for entry in entries}
"""URL path of each page -> its script, as AppTest switches to it."""


# --- AppTest ---------------------------------------------------------------------------------------

# Users see no error details (.streamlit/config.toml); tests must, to say what broke.
st.set_option("client.showErrorDetails", "full")

def _open_page(slug: str, query_params: dict[str, str] | None = None) -> AppTest:
    """The app on page ``slug`` (navigation included), optionally opened from a link."""
    at = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=30)
    for name, value in (query_params or {}).items():
        at.query_params[name] = value
    at.run()
    if slug != "home":
        at.switch_page(PAGES[slug]).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _tile_change(order: str, *, grades: dict[str, int] | None = None, seq: int = 1, row: str = "tiles-main") -> dict:
    """The live region's value as the browser sends it after a move in tile row ``row``."""
    return {"change": {"order": order.split(), "grades": grades, "seq": seq, "action": "drag", "item": None,
                       "row": row}}


REGION = "live-region"
"""The component key of a chapter's live region (irlab/ui/walkthrough/live.py)."""
_SEQ = [0]


def send_message(at: AppTest, kind: str, **fields) -> AppTest:
    """The live region's message ``kind`` as the browser sends it (numbered; no screen named, so the answer is the
    screen whole), then a run. ``send_message(at, "k", k=5)``; ``send_message(at, "control", action="undo")``."""
    _SEQ[0] += 1
    at.session_state[REGION] = {kind: {**fields, "seq": _SEQ[0]}}
    return at.run()


def region_data(at: AppTest) -> dict:
    """The data the chapter's live region received this run."""
    [data] = [json.loads(element.proto.json) for element in at.get("bidi_component")
              if element.proto.component_name == "irlab.region"]
    return data


def region_blocks(at: AppTest) -> list[dict]:
    """The blocks the chapter's live-region component received, nested blocks included, in order."""
    found: list[dict] = []

    def walk(blocks: list[dict]) -> None:
        for block in blocks:
            found.append(block)
            walk(block.get("children", []))

    for element in at.get("bidi_component"):
        if element.proto.component_name == "irlab.region":
            walk(json.loads(element.proto.json)["blocks"])
    return found


def _shown_metrics(at: AppTest) -> dict[str, str]:
    """Every headline value on the page (the live region's numbers, and any ``st.metric``): label -> shown value."""
    shown = {item["label"]: item["value"] for block in region_blocks(at) if block["kind"] == "numbers"
             for item in block["items"]}
    return shown | {m.label: m.value for m in at.metric}


@pytest.fixture(scope="session")
def pages() -> dict[str, str]:
    """URL path of each page -> its script."""
    return dict(PAGES)


@pytest.fixture(scope="session")
def open_page() -> Callable[..., AppTest]:
    """``open_page(slug, query_params=None)``: the app on a page under AppTest, without exceptions."""
    return _open_page


@pytest.fixture(scope="session")
def shown_blocks() -> Callable[[AppTest], list[dict]]:
    """``shown_blocks(at)``: every block of the live region (nested ones too), as the component received them."""
    return region_blocks


@pytest.fixture(scope="session")
def tile_change() -> Callable[..., dict]:
    """``tile_change("2 1 3 ...", grades=None)``: the tile component's value after a move."""
    return _tile_change


@pytest.fixture(scope="session")
def shown_metrics() -> Callable[[AppTest], dict[str, str]]:
    """``shown_metrics(at)``: every headline value on the page, label -> shown value."""
    return _shown_metrics


@pytest.fixture
def downloads(monkeypatch) -> dict[str, dict]:
    """Label -> the keyword arguments of each ``st.download_button`` the page drew (data, file_name, mime).

    AppTest runs the page in this process, so wrapping the public ``st.download_button`` sees
    exactly what the button offers, without reading Streamlit's media storage.
    """
    recorded: dict[str, dict] = {}
    original = st.download_button

    def download_button(label, data=None, *args, **kwargs):
        recorded[label] = {"data": data, **kwargs}
        return original(label, data, *args, **kwargs)

    monkeypatch.setattr(st, "download_button", download_button)
    return recorded


# --- the real browser ------------------------------------------------------------------------------

# Streamlit's own console noise, not our code's: a direct link to a subpage first probes
# /<page>/_stcore/health and host-config, which answer 404 (streamlit/streamlit#7074).
KNOWN_STREAMLIT_NOISE = ("Failed to load resource: the server responded with a status of 404",)


@pytest.fixture(scope="session")
def app_url() -> Iterator[str]:
    need_chromium()
    with running_app() as url:
        yield url


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

    def ready(self) -> None:
        """Wait until the app has finished its run."""
        wait_for_app(self.page)

    def drag(self, source, target, *, after: bool = True) -> None:
        """A real mouse drag of ``source`` onto ``target`` (before it unless ``after``)."""
        drag_tile(self.page, source, target, after=after)

    def tiles(self, row: int = 0):
        """The tiles of tile row ``row`` (a Playwright locator; CSS locators reach into the component's shadow root)."""
        return self.page.locator('[data-testid="irl-list"]').nth(row).locator('[data-testid="irl-tile"]')

    def order(self, row: int = 0) -> list[str]:
        """The item ids tile row ``row`` shows, best first."""
        return [tile.get_attribute("data-item-id") for tile in self.tiles(row).all()]

    def wait_for_order(self, expected: list[str], row: int = 0) -> None:
        """Wait until tile row ``row`` shows ``expected``; on timeout, say what it shows instead."""
        try:
            self.page.wait_for_function(
                """([row, expected]) => {
                       const root = '[data-testid="irl-root"]';
                       const hosts = Array.from(document.querySelectorAll('[data-testid="stBidiComponentIsolated"]'));
                       const shadowed = hosts.map(host => host.shadowRoot && host.shadowRoot.querySelector(root));
                       const list = Array.from(document.querySelectorAll(root)).concat(shadowed.filter(Boolean))[row];
                       return list && list.dataset.order === expected.join(","); }""",
                arg=[row, expected], timeout=10_000)
        except Exception as error:
            raise AssertionError(f"tiles show {self.order(row)}, expected {expected}") from error

    def metrics(self) -> dict[str, str]:
        """Every headline metric on the page: label -> shown value."""
        return metrics_of(self.page)

    def metric(self, label: str, timeout: float = 10_000) -> str:
        """The value shown under the headline number labelled exactly ``label`` (waits for it)."""
        self.page.wait_for_function(f"label => Object.keys(({METRICS_JS})()).includes(label)", arg=label,
                                    timeout=timeout)
        return self.metrics()[label]

    def wait_for_metric(self, label: str, value: str, timeout: float = 10_000) -> None:
        """Wait until the headline number labelled exactly ``label`` shows ``value``."""
        self.page.wait_for_function(f"([label, value]) => ({METRICS_JS})()[label] === value", arg=[label, value],
                                    timeout=timeout)


@contextlib.contextmanager
def laptop_page(browser, url: str) -> Iterator[BrowserPage]:
    """A fresh browser page (laptop size) on the app at ``url``; fails the test if our code logged errors."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = BrowserPage(context.new_page(), url)
    yield page
    context.close()
    assert not page.errors, page.errors


@pytest.fixture
def app_page(browser, app_url) -> Iterator[BrowserPage]:
    """A fresh browser page (laptop size) on the app; fails the test if our code logged errors."""
    with laptop_page(browser, app_url) as page:
        yield page


@pytest.fixture(scope="session")
def start_app() -> Callable:
    """``with start_app() as url:`` a second, fresh app server (e.g. to test a first visit)."""
    return running_app


@pytest.fixture(scope="session")
def wait_until_ready() -> Callable:
    """``wait_until_ready(page)``: wait until the app in a Playwright page has finished its run."""
    return wait_for_app


@pytest.fixture(scope="session")
def page_metrics() -> Callable:
    """``page_metrics(page)``: every headline metric of a Playwright page, label -> shown value."""
    return metrics_of
