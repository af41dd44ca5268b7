"""Latency of a real mouse drag in headless Chromium: drop -> numbers updated, drop -> charts updated.

    python bench/drag_latency.py [--drags 20]

Starts the app, opens a chapter, and drags one tile back and forth. For each drop it measures
(in the page, with performance.now()) the time until every headline number shows the value irlab
computes for the new order, and until the first chart holds the new curve. Goals on the 2-core
CI machine: numbers median <= 100 ms and p95 <= 200 ms; charts median <= 200 ms.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.browser import LAPTOP, chromium, drag_tile, running_app, wait_for_app  # noqa: E402
from irlab.walkthrough.chapters import chapter  # noqa: E402
from irlab.walkthrough.state import DEFAULT_STATE  # noqa: E402
from irlab.walkthrough.views import ndcg_view, recall_precision_view  # noqa: E402

WATCH_JS = """([metrics, curve]) => {
  const lat = window.__lat = {t0: null, text: null, chart: null};
  window.addEventListener('drop', () => { lat.t0 = performance.now(); }, {capture: true, once: true});
  const metricsShown = () => Object.entries(metrics).every(([label, value]) =>
      Array.from(document.querySelectorAll('[data-testid="stMetric"]')).some(m =>
          m.querySelector('[data-testid="stMetricLabel"]').innerText.trim() === label &&
          m.querySelector('[data-testid="stMetricValue"]').innerText.trim() === value));
  const chartShown = () => { const plot = document.querySelector('.js-plotly-plot');
      return !!(plot && plot.data && plot.data[0] && plot.data[0].y.length === curve.length &&
                plot.data[0].y.every((y, i) => Math.abs(y - curve[i]) < 1e-9)); };
  const tick = () => {
    if (lat.t0 !== null) {
      if (lat.text === null && metricsShown()) lat.text = performance.now() - lat.t0;
      if (lat.chart === null && chartShown()) lat.chart = performance.now() - lat.t0;
    }
    if (lat.text === null || lat.chart === null) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}"""

SCENES = {
    "2. recall & precision (K=1)": ("recall-precision?k=1", "recall-precision", recall_precision_view, 1, 3, 0,
                                    "Recall"),
    "5. NDCG (K=2)": ("ndcg", "ndcg", ndcg_view, 2, 1, 0, "DCG"),
}


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def run_scene(browser, url: str, scene: tuple, drags: int) -> tuple[list[float], list[float]]:
    path, slug, view_of, k, moved_from, moved_to, first_curve = scene
    from dataclasses import replace

    page = browser.new_page(viewport=LAPTOP)
    page.goto(f"{url}/{path}")
    wait_for_app(page)
    page.wait_for_selector('[data-testid="irl-tile"]')
    page.wait_for_timeout(1000)
    order = list(DEFAULT_STATE.order)
    text, chart = [], []
    for index in range(drags):
        source, target = (moved_from, moved_to) if index % 2 == 0 else (moved_to, moved_from)
        item = order.pop(source)
        order.insert(target, item)
        view = view_of(replace(DEFAULT_STATE, order=tuple(order), k=k), chapter(slug))
        metrics = {h.label: h.display for h in view.headline}
        curve = view.curves[first_curve].values
        page.evaluate(WATCH_JS, [metrics, curve])
        tiles = page.locator('[data-testid="irl-tile"]')
        drag_tile(page, tiles.nth(source), tiles.nth(target), after=target > source)
        page.wait_for_function("() => window.__lat.text !== null && window.__lat.chart !== null", timeout=15_000)
        result = page.evaluate("window.__lat")
        text.append(result["text"])
        chart.append(result["chart"])
        page.wait_for_timeout(300)
    page.close()
    return text, chart


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--drags", type=int, default=20)
    args = parser.parse_args()
    with running_app() as url, chromium() as browser:
        print(f"Real mouse drags in headless Chromium, {args.drags} per page (ms from drop)")
        print(f"{'page':30s} {'numbers median':>15s} {'p95':>7s} {'charts median':>14s} {'p95':>7s}")
        for name, scene in SCENES.items():
            text, chart = run_scene(browser, url, scene, args.drags)
            print(f"{name:30s} {statistics.median(text):15.0f} {percentile(text, 0.95):7.0f} "
                  f"{statistics.median(chart):14.0f} {percentile(chart, 0.95):7.0f}", flush=True)


if __name__ == "__main__":
    main()
