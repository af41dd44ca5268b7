"""What a K change and a move cost one chart: the point at K marked by layout (today) beside marked in its traces.

    python bench/chart_k_change.py [--repeat 10]

A change of K moves the dotted K line and the mark on each curve's point at K. The walkthrough marks that
point with layout: a ring (a shape) and its value (an annotation), see ``value_at_k_marks`` in
irlab/walkthrough/charts.py, so that the traces stay the same and ``Plotly.react`` only moves shapes and
labels. The alternative, the way the charts were drawn before, enlarges the marker at K and sets its value as
trace text: every K change is then a change of the traces, which Plotly recomputes and redraws.

Both are drawn here from the same specs, by the chart component's own code
(irlab/ui/components/chart/chart.js, served with plotly.js from its folder) in a page of their own, normal and
with the CPU slowed 4x: the NDCG chapter's DCG chart at K = 1..8 in turn (K changes), and at K = 3 after eight
moves (new data, which both redraw in full). The chart component gives Plotly last time's object for each trace
that did not change: without that, even the layout-marked chart was fully redrawn on a K change
(``Plotly.react`` takes an array it has not seen for new data), and the two cost the same. The table gives the
main-thread time per change (CDP TaskDuration, until the chart has been redrawn and painted). Not a test:
timings depend on the machine.
"""

from __future__ import annotations

import argparse
import copy
import functools
import http.server
import json
import statistics
import sys
import threading
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.k_change_cost import percentile, task_seconds  # noqa: E402
from irlab.ui.components import ROOT as COMPONENTS  # noqa: E402
from irlab.ui.components.chart import CONFIG, VENDORED  # noqa: E402
from irlab.walkthrough import charts  # noqa: E402
from irlab.walkthrough.chapters import chapter  # noqa: E402
from irlab.walkthrough.chapters.ndcg import ndcg_view  # noqa: E402
from irlab.walkthrough.state import DEFAULT_STATE  # noqa: E402
from tests.browser import LAPTOP, chromium  # noqa: E402

PAGE = """<!doctype html><html><head><meta charset="utf-8"></head><body><div id="parent" style="width: 600px"></div>
<script type="module">
import { createChart } from "/chart/chart.js";
const chart = createChart(document.getElementById("parent"));
const frame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
// chart.js redraws after the next paint (a frame, then a timer); these callbacks are queued after its own, so
// the first frame() ends after Plotly.react has run, the second after the paint that shows it
window.irlDraw = async (figure, config) => {
  chart.update({figure, alt: "a chart", plotly: "/chart/vendor/plotly.min.js", config});
  await frame();
  await frame();
};
window.irlReady = true;
</script></body></html>"""


def marked_by_layout(moves: bool = False) -> list[dict]:
    """The DCG chart at K = 1..8 as the walkthrough draws it, or (``moves``) at K = 3 after each of eight moves."""
    if moves:
        orders = [DEFAULT_STATE.order[i:] + DEFAULT_STATE.order[:i] for i in range(8)]
        return [charts.dcg_spec(ndcg_view(replace(DEFAULT_STATE, k=3, order=order), chapter("ndcg")).curves, 3)
                for order in orders]
    return [charts.dcg_spec(ndcg_view(replace(DEFAULT_STATE, k=k), chapter("ndcg")).curves, k) for k in range(1, 9)]


def marked_in_traces(spec: dict) -> dict:
    """The same chart with the point at K enlarged and labelled in its trace (marker sizes, trace text)."""
    spec = copy.deepcopy(spec)
    layout = spec["layout"]
    k = layout["shapes"][0]["x0"]
    labels = layout["annotations"][1:]
    for trace, label in zip(spec["data"], labels):
        trace["mode"] = "lines+markers+text"
        trace["marker"]["size"] = [16 if x == k else 9 for x in trace["x"]]
        trace["text"] = [label["text"] if x == k else "" for x in trace["x"]]
        trace["textposition"] = f"{'top' if label['yanchor'] == 'bottom' else 'bottom'} " \
                                f"{'left' if label['xanchor'] == 'right' else 'right'}"
        trace["textfont"] = label["font"]
    layout["shapes"], layout["annotations"] = layout["shapes"][:1], layout["annotations"][:1]
    return spec


def serve_components() -> http.server.ThreadingHTTPServer:
    """The components' folder over HTTP on a free port (ES modules do not load from file: URLs), with the page at /."""

    class Handler(http.server.SimpleHTTPRequestHandler):
        def do_GET(self) -> None:
            if self.path != "/":
                return super().do_GET()
            body = PAGE.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                             functools.partial(Handler, directory=str(COMPONENTS)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def measure(browser, url: str, specs: list[dict], rate: float, repeat: int) -> list[float]:
    """Main-thread ms per K change, drawing ``specs`` in turn ``repeat`` times, the CPU ``rate`` times slower."""
    page = browser.new_page(viewport=LAPTOP)
    cdp = page.context.new_cdp_session(page)
    cdp.send("Performance.enable")
    page.goto(url)
    page.wait_for_function("() => window.irlReady")
    figures = [json.dumps(spec) for spec in specs]
    draw = "([figure, config]) => window.irlDraw(figure, config)"
    page.evaluate(draw, [figures[-1], CONFIG])  # the first draw loads plotly.js
    page.wait_for_selector("#parent .main-svg")
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
    costs = []
    for _ in range(repeat):
        for figure in figures:
            before = task_seconds(cdp) * 1000
            page.evaluate(draw, [figure, CONFIG])
            costs.append(task_seconds(cdp) * 1000 - before)
    page.close()
    return costs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=10, help="rounds of K = 1..8")
    args = parser.parse_args()
    variants = {}
    for change, moves in (("K change", False), ("move", True)):
        by_layout = marked_by_layout(moves)
        variants[f"{change}, point at K marked by layout (today)"] = by_layout
        variants[f"{change}, point at K marked in the traces"] = [marked_in_traces(spec) for spec in by_layout]
    VENDORED.exists() or sys.exit("plotly.js is copied beside the chart when irlab.ui.components.chart is imported")
    server = serve_components()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    print("| change, point at K | CPU | main thread per change, median | p95 |")
    print("|---|---|---|---|")
    try:
        with chromium() as browser:
            for rate in (1, 4):
                for name, specs in variants.items():
                    costs = measure(browser, url, specs, rate, args.repeat)
                    print(f"| {name} | {'normal' if rate == 1 else f'{rate}x slower'} | "
                          f"{statistics.median(costs):.1f} ms | {percentile(costs, 0.95):.1f} ms |")
    finally:
        server.shutdown()


if __name__ == "__main__":
    main()
