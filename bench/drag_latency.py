"""Lecture-hall latency: every chapter beside a bare Streamlit page, in one headless Chromium with the same flags.

    python bench/drag_latency.py [--changes 20] [--drags 20] [--starts 5] [--chapters ndcg,map]

The **bare page** is one ``st.slider("K", 1, 8)`` and one ``st.metric`` (see ``bench/k_change_cost.py``). For
the bare page and every chapter it measures, in the page with ``performance.now()``:

* **K change**: ArrowRight / ArrowLeft on the focused K slider -> the headline number names the new K (a chapter
  draws it from the screens at the other K that focusing the slider asked for, or that the last K change brought;
  a change before they arrived waits for the server, and shows in the p95);
* **main-thread time per change**: Chrome DevTools Protocol ``Performance.getMetrics`` ``TaskDuration`` after
  the page has settled minus before the key press (or the drop);
* **drop -> numbers**: a real mouse drag of a tile to rank 1 (and back), from the release (``pointerup``) until every
  headline number shows what irlab computes for the new order (a chapter draws it from the tile's moves that the
  press asked for, the mouse going straight from the tile's centre down as ``tests.browser.drag_tile`` does; a drop
  before they arrived waits for the server, and shows in the p95); the tile is the highest-ranked one whose move
  changes every headline number it can (a move inside the top K would leave Recall@K as it was, and a number
  that does not change would be "shown" at once);
* **drop -> charts**: from the same drop until every chart on the page holds new data;
* **the drag gesture alone**: main-thread time of the same mouse drag put back on its own place (no change, no
  run): what a drop costs before any number is drawn (the lifted tile following 10 pointer moves);
* **cold start**: a new browser context opens the page; navigation start -> first headline number shown. A chapter
  is opened by its link (``/ndcg``), the bare page at ``/``; Streamlit's page opened by a link first asks the server
  for its health under the link's path (``/ndcg/_stcore/health``), is refused, and waits 100 ms before asking at
  ``/`` (its frontend's base-path probe). So the bare page is also opened by its link, as one page of a two-page
  app (``/bare``), and the last column gives the ratio to that: the same page, opened the way a chapter is.

``--baseline COMMIT`` also serves the app as it was at ``COMMIT`` (its files, from ``git archive``, with this
environment's packages) and measures each chapter there right before the same chapter here, in the same run: a
before/after that the machine's load moves both ways (the ratios to the bare page alone move with it).

Medians, p95 and ratios to the bare page go in a Markdown table. Issue 10's targets: main-thread time per change
<= 2.0x the bare page's, K change shown <= 1.2x, drop -> numbers p50 <= 80 ms and p95 <= 150 ms, drop -> charts
p50 <= 120 ms, cold start <= 1.5x. Not a test: timings depend on the machine and on what else it runs.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.k_change_cost import BARE, percentile, received, slowed_page, task_seconds  # noqa: E402
from bench.k_change_cost import measure as k_changes  # noqa: E402
from bench.runs_page import server  # noqa: E402
from irlab.walkthrough.chapters import CHAPTERS, chapter  # noqa: E402
from irlab.walkthrough.state import DEFAULT_STATE  # noqa: E402
from tests.browser import LAPTOP, METRICS_JS, chromium, drag_tile, running_app, wait_for_app  # noqa: E402

VIEWS = {c.slug: c.view if c.slug != "conventions" else None for c in CHAPTERS}
"""Each chapter's view, for the headline numbers a drop must show (Conventions has a table, no headline)."""

WATCH_DROP = """([metrics]) => {
  const charts = () => Array.from(document.querySelectorAll('.js-plotly-plot'))
      .map(plot => JSON.stringify((plot.data || []).map(trace => [trace.x, trace.y])));
  const before = charts();
  const lat = window.__lat = {t0: null, text: null, chart: null};
  // the drop: HTML5 drag and drop's 'drop' (the tiles before issue 24) or the pointer's release (now)
  const dropped = () => { if (lat.t0 === null) lat.t0 = performance.now(); };
  for (const type of ['drop', 'pointerup']) window.addEventListener(type, dropped, {capture: true, once: true});
  const metricsShown = () => { const shown = (METRICS)(); return Object.entries(metrics).every(([label, value]) =>
      shown[label] === value); };
  const chartsShown = () => { const now = charts(); return now.every((chart, i) => chart !== before[i]); };
  const tick = () => {
    if (lat.t0 !== null) {
      if (lat.text === null && metricsShown()) lat.text = performance.now() - lat.t0;
      if (lat.chart === null && chartsShown()) lat.chart = performance.now() - lat.t0;
      if (performance.now() - lat.t0 > 10000) { lat.text ??= -1; lat.chart ??= -1; }
    }
    if (lat.text === null || lat.chart === null) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}""".replace("(METRICS)", f"({METRICS_JS})")

FIRST_NUMBER = """(selector) => new Promise(resolve => {
  const tick = () => document.querySelector(selector) ? resolve(performance.now()) : requestAnimationFrame(tick);
  tick();
})"""
K_IN_HEADLINE = ("recall-precision", "map", "ndcg")
"""Chapters whose headline names K (``Recall@2``): a K change shows there. The others' headline has no K."""


def headline(slug: str, state, order) -> dict[str, str]:
    """The headline numbers ``slug`` shows for ``order``: label -> shown value ({} for Conventions)."""
    view = VIEWS[slug]
    return {} if view is None else {h.label: h.display for h in view(replace(state, order=tuple(order)),
                                                                      chapter(slug)).headline}


def moving_tile(slug: str, state) -> int:
    """The rank (0-based) of the tile to drag to rank 1: the one whose move changes the most headline numbers."""
    now = headline(slug, state, state.order)

    def changed(source: int) -> int:
        order = list(state.order)
        order.insert(0, order.pop(source))
        after = headline(slug, state, order)
        return sum(after[label] != value for label, value in now.items())

    return max(range(1, len(state.order)), key=lambda source: (changed(source), -source))


def drops(browser, url: str, slug: str, count: int, rate: float = 1, kb: list[float] | None = None
          ) -> tuple[list[float], list[float], list[float], list[float]]:
    """Drag a tile to rank 1 and back, ``count`` times: drop -> numbers, -> charts, main-thread ms; and the main-thread
    ms of the same drag put back on its own place (three times)."""
    page, cdp = slowed_page(browser, rate)
    page.goto(f"{url}/{slug}")
    wait_for_app(page, timeout=60_000)
    page.wait_for_selector('[data-testid="irl-tile"]', timeout=30_000 * rate)  # a slowed, busy page draws late
    time.sleep(1.5 * rate)
    state = DEFAULT_STATE.with_preset(chapter(slug))
    order = list(state.order)
    moving = moving_tile(slug, state)
    text, chart, busy, gesture = [], [], [], []
    kb = kb if kb is not None else []
    for _ in range(3):
        tile = page.locator('[data-testid="irl-list"]').first.locator('[data-testid="irl-tile"]').nth(moving)
        before = task_seconds(cdp)
        drag_tile(page, tile, tile, after=True)
        time.sleep(0.8 * rate)
        gesture.append((task_seconds(cdp) - before) * 1000)
    for index in range(count):
        source, target = (moving, 0) if index % 2 == 0 else (0, moving)
        order.insert(target, order.pop(source))
        metrics = headline(slug, state, order)
        page.evaluate(WATCH_DROP, [metrics])
        row = page.locator('[data-testid="irl-list"]').first.locator('[data-testid="irl-tile"]')
        before, bytes_before = task_seconds(cdp), received(cdp)
        drag_tile(page, row.nth(source), row.nth(target), after=target > source)
        page.wait_for_function("() => window.__lat.text !== null && window.__lat.chart !== null", timeout=15_000)
        result = page.evaluate("window.__lat")
        if result["text"] < 0 or result["chart"] < 0:
            raise RuntimeError(f"{slug}: the drop was not shown within 10 s ({metrics})")
        time.sleep(0.8 * rate)  # let the rest of the rerun settle before reading the main thread's time
        busy.append((task_seconds(cdp) - before) * 1000)
        kb.append((received(cdp) - bytes_before) / 1024)
        text.append(result["text"])
        chart.append(result["chart"])
    page.close()
    return text, chart, busy, gesture


NUMBER = '[data-testid="stMetricValue"], [data-testid="irl-metric-value"]'


BARE_BY_LINK = """
import streamlit as st


def bare():
""" + "".join(f"    {line}\n" for line in BARE.strip().splitlines() if not line.startswith("import")) + """

def other():
    st.write("Another page")


st.navigation([st.Page(other, title="Other", default=True), st.Page(bare, title="Bare", url_path="bare")]).run()
"""
"""The bare page as the page ``/bare`` of a two-page app: opened by its link as a chapter is (``/ndcg``)."""


def cold_starts(browser, url: str, count: int, selector: str = NUMBER, rate: float = 1) -> list[float]:
    """Navigation start -> the first headline number (``selector``), each in a new browser context (nothing cached)."""
    times = []
    for _ in range(count):
        context = browser.new_context(viewport=LAPTOP)
        page = context.new_page()
        if rate != 1:
            context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": rate})
        page.goto(url)
        times.append(page.evaluate(FIRST_NUMBER, selector))
        context.close()
    return times


def _cell(values: list[float] | None, bare: float | None = None) -> str:
    if not values:
        return "| – | – |" if bare is None else "| – | – | – |"
    median = statistics.median(values)
    cells = f"| {median:.0f} | {percentile(values, .95):.0f} |"
    return cells if bare is None else cells + f" {median / bare:.2f}x |"


@contextlib.contextmanager
def app_at(commit: str, timeout: float = 90.0) -> Iterator[str]:
    """Serve the app as it was at ``commit`` (its committed files, unpacked from ``git archive`` into a temporary
    folder; this environment's packages) on localhost; yield its URL, stop it afterwards."""
    with tempfile.TemporaryDirectory() as folder:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", commit], check=True,
                                 capture_output=True).stdout
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(folder, filter="data")
        with running_app(timeout=timeout, folder=Path(folder)) as url:
            yield url


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--changes", type=int, default=20, help="K changes per page")
    parser.add_argument("--drags", type=int, default=20, help="tile drops per chapter")
    parser.add_argument("--starts", type=int, default=5, help="cold starts per page")
    parser.add_argument("--chapters", default=",".join(VIEWS), help="chapter slugs, comma-separated")
    parser.add_argument("--rates", default="1,4", help="CPU slow-down rates, comma-separated (4: a cheap laptop)")
    parser.add_argument("--baseline", default=None, help="a commit whose app is measured beside this one's")
    args = parser.parse_args()
    for rate in (float(r) for r in args.rates.split(",")):
        report(measure_all(args, rate), args, rate)


def measure_all(args, rate: float) -> dict[str, dict[str, list[float]]]:
    """Every page's figures with the CPU ``rate`` times slower."""
    rows: dict[str, dict[str, list[float]]] = {}
    with chromium() as browser:
        with tempfile.TemporaryDirectory() as folder:
            script = Path(folder) / "bare.py"
            script.write_text(BARE)
            with server(script, 5) as (url, _):
                shown, busy = k_changes(browser, url, args.changes, "bare", rate)
                rows["bare page"] = {"k": shown, "k_busy": busy,
                                     "cold": cold_starts(browser, url, args.starts, rate=rate)}
            script.write_text(BARE_BY_LINK)
            with server(script, 5) as (url, _):
                rows["bare page by its link"] = {"k": [], "k_busy": [],
                                                 "cold": cold_starts(browser, f"{url}/bare", args.starts, rate=rate)}
        with contextlib.ExitStack() as apps:
            # the baseline's chapter right before this tree's: what loads the machine meanwhile falls on both
            served = ([(f" @ {args.baseline}", apps.enter_context(app_at(args.baseline)))] if args.baseline else [])
            served.append(("", apps.enter_context(running_app())))
            for slug in args.chapters.split(","):
                for suffix, url in served:
                    rows[slug + suffix] = measure_chapter(browser, url, slug, args, rate)
                    print(f"measured {slug}{suffix} at CPU x{rate:g}", file=sys.stderr, flush=True)
    return rows


def measure_chapter(browser, url: str, slug: str, args, rate: float) -> dict[str, list[float]]:
    """One chapter's figures (the app at ``url``) with the CPU ``rate`` times slower."""
    k_kb: list[float] = []
    drop_kb: list[float] = []
    shown, busy = (k_changes(browser, f"{url}/{slug}", args.changes, slug, rate, k_kb)
                   if slug in K_IN_HEADLINE else ([], []))
    text, chart, drop_busy, gesture = drops(browser, url, slug, args.drags, rate, drop_kb)
    has_charts = any(c > 0 for c in chart) and slug in ("recall-precision", "map", "ndcg", "conventions")
    return {"k": shown, "k_busy": busy, "k_kb": k_kb, "drop_kb": drop_kb, "drop_text": text if VIEWS[slug] else [],
            "drop_chart": chart if has_charts else [], "drop_busy": drop_busy, "gesture": gesture,
            "cold": cold_starts(browser, f"{url}/{slug}", args.starts, "table td" if VIEWS[slug] is None else NUMBER,
                                rate)}


def report(rows: dict[str, dict[str, list[float]]], args, rate: float) -> None:
    bare = rows["bare page"]
    bare_k, bare_busy, bare_cold = (statistics.median(bare[name]) for name in ("k", "k_busy", "cold"))
    linked_cold = statistics.median(rows["bare page by its link"]["cold"])
    print(f"\nCPU {'normal' if rate == 1 else f'slowed {rate:g}x'}. "
          f"Headless Chromium {LAPTOP['width']}x{LAPTOP['height']}; {args.changes} K changes, {args.drags} drops, "
          f"{args.starts} cold starts per page; ms, median | p95 | ratio to the bare page\n")
    print("| page | K change → number | p95 | ratio | main thread per K change | p95 | ratio "
          "| drop → numbers | p95 | drop → charts | p95 | main thread per drop | p95 | ratio "
          "| of it, the drag gesture alone | p95 | ratio | cold start | p95 | ratio "
          "| ratio to the bare page by its link |")
    print("|---" * 21 + "|")
    for name, row in rows.items():
        print(f"| {name} " + _cell(row["k"], bare_k) + _cell(row["k_busy"], bare_busy)[1:]
              + _cell(row.get("drop_text"))[1:] + _cell(row.get("drop_chart"))[1:]
              + _cell(row.get("drop_busy"), bare_busy)[1:] + _cell(row.get("gesture"), bare_busy)[1:]
              + _cell(row["cold"], bare_cold)[1:] + f" {statistics.median(row['cold']) / linked_cold:.2f}x |")
    print("\nKB the page received per interaction (its websockets, CDP Network.webSocketFrameReceived), median:\n")
    print("| page | per K change (the settled K's run included) | per drop (the tile's moves asked included) |")
    print("|---|---|---|")
    for name, row in rows.items():
        if row.get("k_kb") or row.get("drop_kb"):
            cells = [f"{statistics.median(row[n]):.1f}" if row.get(n) else "–" for n in ("k_kb", "drop_kb")]
            print(f"| {name} | {cells[0]} | {cells[1]} |")


if __name__ == "__main__":
    main()
