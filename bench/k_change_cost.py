"""What one K change costs the browser: main-thread time (CDP) and keydown → number shown, beside a bare page.

    python bench/k_change_cost.py [--changes 20]

Both pages run in the same headless Chromium with the same flags, one after the other:

* the **bare page**: one ``st.slider("K", 1, 8)`` and one ``st.metric`` showing ``P@K``, nothing else;
* IR Lab's chapters whose headline names K (Recall/Precision, MAP, NDCG), with their sidebar K slider.

For each change the K slider is focused and ArrowRight / ArrowLeft pressed (alternately). Measured:
**keydown → number shown** (in the page, ``performance.now()``: until a headline label reads ``@<new K>``),
and the **main-thread time** the change cost the browser: Chrome DevTools Protocol ``Performance.getMetrics``,
``TaskDuration`` after the page has settled minus before the key press. The table gives medians, p95 and the
ratio to the bare page. This is the baseline issue 10 asks to cut (targets: main-thread time ≤ 2.0x the bare
page's, K change shown ≤ 1.2x). Not a test: timings depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.runs_page import server  # noqa: E402
from tests.browser import LAPTOP, chromium, running_app, wait_for_app  # noqa: E402

BARE = """
import streamlit as st
k = st.slider("K", 1, 8, 2)
st.metric(f"P@{k}", f"{k / 8:.4f}")
"""

SCENES = {"bare page (one slider, one metric)": None, "2. Recall@K and Precision@K": "recall-precision",
          "4. AP@K and MAP@K": "map", "5. CG, DCG, IDCG and NDCG@K": "ndcg"}

WATCH = """(k) => { window.__irlWatch = new Promise(resolve => {
  const t0 = performance.now();
  const shown = () => Array.from(document.querySelectorAll(
      '[data-testid="stMetricLabel"], [data-testid="irl-metric-label"]'))
      .some(l => l.textContent.trim().endsWith('@' + k));
  const tick = () => shown() ? resolve(performance.now() - t0)
      : performance.now() - t0 > 10000 ? resolve(null) : requestAnimationFrame(tick);
  requestAnimationFrame(tick);
}); }"""
"""Starts watching for ``@k`` without waiting (a returned promise would make Playwright wait for it first)."""


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def task_seconds(cdp) -> float:
    return next(m["value"] for m in cdp.send("Performance.getMetrics")["metrics"] if m["name"] == "TaskDuration")


LABELS = '[data-testid="stMetricLabel"], [data-testid="irl-metric-label"]'
"""A headline number's label: Streamlit's ``st.metric`` (the bare page) or the live region's."""


def slowed_page(browser, rate: float):
    """A new page whose CPU runs ``rate`` times slower (CDP ``Emulation.setCPUThrottlingRate``), and its CDP session;
    ``received(cdp)`` is then the bytes its websockets have received so far (CDP ``Network.webSocketFrameReceived``)."""
    page = browser.new_page(viewport=LAPTOP)
    cdp = page.context.new_cdp_session(page)
    cdp.send("Performance.enable")
    cdp.send("Network.enable")
    counted = {"bytes": 0}
    cdp.received = counted

    def frame(event) -> None:
        response = event["response"]
        payload = response.get("payloadData", "")
        counted["bytes"] += len(payload) * 3 // 4 if response.get("opcode") == 2 else len(payload.encode())

    cdp.on("Network.webSocketFrameReceived", frame)
    if rate != 1:
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
    return page, cdp


def received(cdp) -> int:
    """Bytes the page's websockets have received so far (binary frames counted as sent, not as base64)."""
    return cdp.received["bytes"]


K_SLIDER = '[data-testid="irl-k-input"], [data-testid="stSlider"] [role="slider"], [data-testid="stSlider"] input'
"""The K slider: the live region's own (this tree) or Streamlit's (the bare page, and the chapters before)."""


def measure(browser, url: str, changes: int, k_label: str, rate: float = 1,
            kb: list[float] | None = None) -> tuple[list[float], list[float]]:
    """``changes`` K changes on the page at ``url`` with the CPU ``rate`` times slower: (ms shown, main-thread ms);
    the KB the page received per change go into ``kb``."""
    page, cdp = slowed_page(browser, rate)
    page.goto(url)
    thumb = page.locator(K_SLIDER).first
    if k_label == "bare":
        thumb.wait_for()
    else:
        wait_for_app(page)
    time.sleep(1.5 * rate)
    thumb.focus()  # the K slider on both pages (the first slider)
    time.sleep(0.5 * rate)  # the learner comes to the slider: a region asks for its K form
    label = page.locator(LABELS).filter(has_text="@").first.inner_text().strip()
    k = int(label.rsplit("@", 1)[1])
    shown, busy = [], []
    for change in range(changes):
        key, k = ("ArrowRight", k + 1) if (change % 2 == 0 and k < 8) or k == 1 else ("ArrowLeft", k - 1)
        before, bytes_before = task_seconds(cdp), received(cdp)
        page.evaluate(WATCH, k)
        page.keyboard.press(key)
        elapsed = page.evaluate("() => window.__irlWatch")
        if elapsed is None:
            raise RuntimeError(f"{k_label}: K = {k} was not shown within 10 s of {key}")
        shown.append(elapsed)
        time.sleep(0.8 * rate + 0.6)  # the settled K's run (a pause of 0.6 s), its messages, charts and components
        busy.append((task_seconds(cdp) - before) * 1000)
        if kb is not None:
            kb.append((received(cdp) - bytes_before) / 1024)
    page.close()
    return shown, busy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--changes", type=int, default=20)
    args = parser.parse_args()
    rows = {}
    with chromium() as browser:
        with tempfile.TemporaryDirectory() as folder:
            script = Path(folder) / "bare.py"
            script.write_text(BARE)
            with server(script, 5) as (url, _):
                rows["bare page (one slider, one metric)"] = measure(browser, url, args.changes, "bare")
        with running_app() as url:
            for name, slug in SCENES.items():
                if slug is not None:
                    rows[name] = measure(browser, f"{url}/{slug}", args.changes, "K: results returned")
    bare_shown = statistics.median(rows["bare page (one slider, one metric)"][0])
    bare_busy = statistics.median(rows["bare page (one slider, one metric)"][1])
    print(f"\nOne K change (ArrowRight/ArrowLeft on the focused K slider), {args.changes} changes per page, "
          f"headless Chromium {LAPTOP['width']}x{LAPTOP['height']}\n")
    print("| page | keydown → number p50 | p95 | ratio to bare | main-thread ms p50 | p95 | ratio to bare |")
    print("|---|---|---|---|---|---|---|")
    for name, (shown, busy) in rows.items():
        print(f"| {name} | {statistics.median(shown):.0f} ms | {percentile(shown, .95):.0f} ms | "
              f"{statistics.median(shown) / bare_shown:.2f}x | {statistics.median(busy):.0f} | "
              f"{percentile(busy, .95):.0f} | {statistics.median(busy) / bare_busy:.2f}x |")


if __name__ == "__main__":
    main()
