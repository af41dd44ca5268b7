"""KaTeX in the browser beside MathML from the server: the cost of drawing a chapter's formulas after a move.

    python bench/formula_engines.py [--repeat 30]

Issue 26 asks to pick, by measurement, how the live region draws its formulas: KaTeX served from our
own assets (the KaTeX pinned in irlab/ui/components/package-lock.json, installed by `npm ci` there;
the LaTeX typeset in the browser) or MathML made on the server
(latex2mathml, which Chromium lays out natively). Both draw the NDCG chapter's formula lines for each K
from 1 to 8 in turn, in one headless Chromium, as a move does: only the lines whose LaTeX changed are
drawn again. The table gives the browser's main-thread time per move (CDP TaskDuration), normal and with
the CPU slowed 4x, and the server's time to make the MathML. Not a test: timings depend on the machine.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from irlab.explain.breakdown import display_latex  # noqa: E402
from irlab.walkthrough.chapters import chapter  # noqa: E402
from irlab.walkthrough.chapters.ndcg import ndcg_view  # noqa: E402
from irlab.walkthrough.state import DEFAULT_STATE  # noqa: E402
from tests.browser import chromium  # noqa: E402

KATEX = ROOT / "irlab" / "ui" / "components" / "node_modules" / "katex" / "dist"

PAGE = """<!doctype html><html><head><meta charset="utf-8"><link rel="stylesheet" href="katex.min.css">
<script src="katex.min.js"></script></head><body><div id="box"></div><script>
const box = document.getElementById("box"), cache = new Map(), nodes = [];
window.drawKatex = (lines) => lines.forEach((latex, i) => {
  if (!nodes[i]) { nodes[i] = document.createElement("div"); box.append(nodes[i]); }
  if (nodes[i].dataset.latex === latex) return;
  let markup = cache.get(latex);
  if (markup === undefined) {
    markup = katex.renderToString(latex, {displayMode: true, throwOnError: false});
    cache.set(latex, markup);
  }
  nodes[i].innerHTML = markup; nodes[i].dataset.latex = latex; });
window.drawMathml = (lines) => lines.forEach(([latex, mathml], i) => {
  if (!nodes[i]) { nodes[i] = document.createElement("div"); box.append(nodes[i]); }
  if (nodes[i].dataset.latex === latex) return;
  const parsed = new DOMParser().parseFromString(mathml, "application/xml").documentElement;
  nodes[i].replaceChildren(document.importNode(parsed, true)); nodes[i].dataset.latex = latex; });
window.settle = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
</script></body></html>"""


def formula_sets() -> list[list[str]]:
    """The NDCG chapter's formula lines at K = 1..8 (graded)."""
    sets = []
    for k in range(1, 9):
        view = ndcg_view(replace(DEFAULT_STATE, k=k, mode="graded"), chapter("ndcg"))
        sets.append([line for b in (view.cg, view.ndcg, view.ndcg.parts["DCG"], view.ndcg.parts["IDCG"])
                     for line in display_latex(b)])
    return sets


def task_ms(cdp) -> float:
    metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    return metrics["TaskDuration"] * 1000


def measure(page, cdp, engine: str, sets: list, repeat: int) -> list[float]:
    costs = []
    for _ in range(repeat):
        for lines in sets:
            before = task_ms(cdp)
            page.evaluate(f"(lines) => {{ window.{engine}(lines); return window.settle(); }}", lines)
            costs.append(task_ms(cdp) - before)
    return costs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    import latex2mathml.converter

    sets = formula_sets()
    started = time.perf_counter()
    mathml_sets = [[(line, latex2mathml.converter.convert(line, display="block")) for line in lines] for lines in sets]
    server_ms = (time.perf_counter() - started) * 1000 / len(sets)
    page_file = KATEX / "_formula_bench.html"
    page_file.write_text(PAGE)
    rows = []
    try:
        with chromium() as browser:
            for slowdown in (1, 4):
                for engine, payload in (("drawKatex", sets), ("drawMathml", mathml_sets)):
                    page = browser.new_page()
                    cdp = page.context.new_cdp_session(page)
                    cdp.send("Performance.enable")
                    cdp.send("Emulation.setCPUThrottlingRate", {"rate": slowdown})
                    page.goto(page_file.as_uri())
                    page.wait_for_function("() => window.katex")
                    page.evaluate(f"(lines) => window.{engine}(lines)", payload[0])  # first draw: fonts, parser warm
                    costs = measure(page, cdp, engine, payload, args.repeat)
                    rows.append((engine.removeprefix("draw"), slowdown, statistics.median(costs),
                                 sorted(costs)[int(0.95 * (len(costs) - 1))]))
                    page.close()
    finally:
        page_file.unlink()
    print(f"MathML made on the server: {server_ms:.2f} ms per move (12 lines, no cache)\n")
    print("| engine | CPU | main thread per move, median | p95 |")
    print("|---|---|---|---|")
    for engine, slowdown, median, p95 in rows:
        print(f"| {engine} | {'normal' if slowdown == 1 else f'{slowdown}x slower'} | {median:.1f} ms | {p95:.1f} ms |")
    print(json.dumps({"lines_per_move": len(sets[0])}))


if __name__ == "__main__":
    main()
