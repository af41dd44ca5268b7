"""Starting the app and headless Chromium, shared by the browser tests, benchmarks and screenshots.

The app runs as ``streamlit run app.py`` on a free localhost port; Chromium is Debian's
(``apt-get install -y chromium``) driven by Playwright, with the flags this sandbox needs.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("IRLAB_CHROMIUM", shutil.which("chromium") or "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
LAPTOP = {"width": 1280, "height": 800}
PROJECTOR = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}
"""A phone's screen (CSS px); open it with ``has_touch=True, is_mobile=True`` so the page sees a finger."""
HOLD_MS = 250
"""How long a finger holds a tile before it lifts (``HOLD_MS`` in irlab/ui/components/tiles/drag.js)."""


def need_chromium() -> None:
    """Skip the calling test when Chromium is missing, with the reason; under CI (``CI=true``) fail instead."""
    import pytest

    if Path(CHROMIUM).exists():
        return
    reason = f"Chromium not found at {CHROMIUM}; install it with `apt-get install -y chromium` (Debian/Ubuntu)"
    if os.environ.get("CI", "").lower() in ("1", "true"):
        pytest.fail(reason)
    pytest.skip(reason)


def healthy(url: str) -> bool:
    """Whether a Streamlit server (or the proxy in front of it) answers its health check."""
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def running_app(port: int | None = None, timeout: float = 60.0, env: dict[str, str] | None = None,
                base_path: str = "", folder: Path = ROOT) -> Iterator[str]:
    """Serve the app on localhost and yield its base URL; stop the whole process group afterwards.

    ``env``: variables to set for the server (budgets, the class store's URL, ...), on top of this process's.
    ``base_path``: serve it under this path (``server.baseUrlPath``); the URL yielded includes it.
    ``folder``: the app's files (a benchmark serves an older commit's, unpacked elsewhere).
    """
    port = port or free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true", "--server.port", str(port),
         "--server.address", "127.0.0.1", "--server.fileWatcherType", "none", "--server.baseUrlPath", base_path],
        cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
        env={**os.environ, **(env or {})})
    url = f"http://127.0.0.1:{port}" + (f"/{base_path.strip('/')}" if base_path.strip("/") else "")
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                    if response.status == 200:
                        break
            except OSError:
                if process.poll() is not None:
                    raise RuntimeError(f"streamlit exited: {process.stderr.read().decode()[-2000:]}") from None
                if time.monotonic() > deadline:
                    raise TimeoutError(f"the app did not start within {timeout} s") from None
                time.sleep(0.2)
        yield url
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)


@contextlib.contextmanager
def chromium() -> Iterator[object]:
    """A Playwright browser on Debian's Chromium."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def wait_for_app(page, timeout: float = 30_000) -> None:
    """Wait until Streamlit has finished running the page script."""
    page.wait_for_selector('[data-testid="stApp"]', timeout=timeout)
    page.wait_for_function(
        """() => { const s = document.querySelector('[data-testid="stStatusWidget"]');
                   return !s || !s.innerText.toLowerCase().includes('running'); }""", timeout=timeout)
    page.wait_for_selector('[data-testid="stMainBlockContainer"] h1', timeout=timeout)
    # widgets render as skeletons until their code has loaded (seconds on a cold browser)
    page.wait_for_function("""() => !document.querySelector('[data-testid="stSkeleton"]')""", timeout=timeout)


def drag_tile(page, source, target, *, after: bool = True, steps: int = 8) -> None:
    """A real mouse drag of tile ``source`` onto ``target`` (dropped after it, or before).

    The tiles drag with pointer events (irlab/ui/components/tiles/drag.js): a press becomes a drag once
    the pointer moves a few pixels with the button down. The pause after the press lets Chromium handle
    it first, as a hand would.
    """
    source.scroll_into_view_if_needed()
    box, goal = source.bounding_box(), target.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.wait_for_timeout(120)
    page.mouse.move(box["x"] + box["width"] / 2 + 10, box["y"] + box["height"] / 2 + 10, steps=2)
    page.mouse.move(goal["x"] + goal["width"] * (0.8 if after else 0.2), goal["y"] + goal["height"] / 2, steps=steps)
    page.mouse.up()


@contextlib.contextmanager
def finger(page) -> Iterator[Callable[..., None]]:
    """A finger on ``page``: yields ``touch(kind, x=0, y=0, at=None)``, which sends one touch event
    (``touchStart``, ``touchMove``, ``touchEnd``, ``touchCancel``) through the DevTools Protocol (Playwright taps
    but has no touch drag). Chromium turns them into pointer events with pointerType "touch". ``at`` is the
    event's time (seconds since the epoch; default: now), for gestures whose speed matters on a busy machine.
    One gesture, one session: the touch in progress belongs to the session."""
    session = page.context.new_cdp_session(page)

    def touch(kind: str, x: float = 0, y: float = 0, at: float | None = None) -> None:
        points = [] if kind in ("touchEnd", "touchCancel") else [{"x": x, "y": y}]
        event = {"type": kind, "touchPoints": points} | ({} if at is None else {"timestamp": at})
        session.send("Input.dispatchTouchEvent", event)

    try:
        yield touch
    finally:
        session.detach()


def press_and_hold(page, touch: Callable[..., None], x: float, y: float) -> None:
    """Put a finger down at (x, y) on a tile and hold it there until the tile lifts (at least ``HOLD_MS``;
    longer when the page is busy, so a test never moves the finger early and scrolls instead)."""
    touch("touchStart", x, y)
    page.wait_for_timeout(HOLD_MS)
    page.locator(".irl-lifted").wait_for(timeout=10_000)


def touch_drag_tile(page, source, target, *, after: bool = True, steps: int = 10) -> None:
    """A finger's drag of tile ``source`` onto ``target`` (dropped after it, or before): press, hold until the
    tile lifts, move, lift the finger. Both tiles must be on screen (a phone's row scrolls sideways)."""
    source.scroll_into_view_if_needed()
    box, goal = source.bounding_box(), target.bounding_box()
    x0, y0 = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    x1, y1 = goal["x"] + goal["width"] * (0.8 if after else 0.2), goal["y"] + goal["height"] / 2
    with finger(page) as touch:
        press_and_hold(page, touch, x0, y0)
        for step in range(1, steps + 1):
            touch("touchMove", x0 + (x1 - x0) * step / steps, y0 + (y1 - y0) * step / steps)
            page.wait_for_timeout(16)
        touch("touchEnd")


METRICS_JS = """() => Object.fromEntries([
    ...Array.from(document.querySelectorAll('[data-testid="stMetric"]')).map(m => [
        m.querySelector('[data-testid="stMetricLabel"]').innerText.trim(),
        m.querySelector('[data-testid="stMetricValue"]').innerText.trim()]),
    ...Array.from(document.querySelectorAll('[data-testid="irl-metric"]')).map(m => [
        m.querySelector('[data-testid="irl-metric-label"]').textContent.trim(),
        m.querySelector('[data-testid="irl-metric-value"]').textContent.trim()])])"""
"""Every headline number on a page: the live region's (``irl-metric``) and any ``st.metric``, label -> value."""


def metrics_of(page) -> dict[str, str]:
    """Every headline number on a page (the live region's and ``st.metric``): label -> shown value."""
    return page.evaluate(METRICS_JS)
