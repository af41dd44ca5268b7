"""The runs page in headless Chromium with a million-line run: upload to summary, query and measure switches,
server memory for the session and after it ends.

    python bench/runs_page.py [--queries 1000] [--switches 12] [--ttl 5]

The run is bench/runs.py's simulated collection (1,000 queries × 1,000 documents = 1M lines, about
100 judged documents per query), written once into bench/results/ (git-ignored). One app server is
started with a short ``server.disconnectedSessionTTL`` (``--ttl`` seconds; Streamlit's default keeps a
closed tab's session for 120 s), one Chromium page uploads the qrels and the run and then:

* upload → summary: from the moment the browser's upload request finished to the summary table on
  screen (the server reads, ranks and evaluates the run in that time); also from the file chosen;
* query switches: pick another query with the select box (typed, Enter) until the query view's
  value shows the new query's number; ``--switches`` times, p50 and max;
* measure switches: the same with the measure select box;
* the server's resident memory (VmRSS of the app process): before, with the run loaded, after the
  tab is closed and the session has expired.

A baseline in the same run: switching the select box of a bare Streamlit page (one selectbox, one
metric) the same way, so the page's own cost reads as a difference. Not a test: timings depend on
the machine and its load.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.runs import collection  # noqa: E402
from irlab.ui.shell import session_memory  # noqa: E402
from tests.browser import LAPTOP, chromium, free_port, healthy, wait_for_app  # noqa: E402

BARE_PAGE = """
import streamlit as st
choice = st.selectbox("Query", [str(q) for q in range(401, 451)])
st.metric("Value", choice)
"""


@contextlib.contextmanager
def server(script: Path, ttl: int):
    """``streamlit run script`` on a free port; yields (url, pid)."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(script), "--server.headless", "true", "--server.port", str(port),
         "--server.address", "127.0.0.1", "--server.fileWatcherType", "none",
         "--server.disconnectedSessionTTL", str(ttl), "--server.maxUploadSize", "200"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while not healthy(url):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"streamlit did not start for {script}")
            time.sleep(0.2)
        yield url, process.pid
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=10)


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


METRIC_VALUE_JS = """label => {
    for (const m of document.querySelectorAll('[data-testid="stMetric"]')) {
        const l = m.querySelector('[data-testid="stMetricLabel"]');
        if (l && l.innerText.trim() === label) return m.querySelector('[data-testid="stMetricValue"]').innerText.trim();
    }
    return null;
}"""
"""The shown value of the metric labelled ``label``, or null if there is none (a JavaScript function)."""


def metric_value(page, label: str) -> str | None:
    return page.evaluate(METRIC_VALUE_JS, label)


def pick(page, box: str, option: str) -> None:
    page.get_by_role("combobox", name=box, exact=True).click()
    page.keyboard.type(option)
    page.keyboard.press("Enter")


def timed_switch(page, box: str, option: str, label: str, expected: str) -> float:
    """Seconds from choosing ``option`` to metric ``label`` showing ``expected``."""
    start = time.perf_counter()
    pick(page, box, option)
    shows_value = f"([label, value]) => ({METRIC_VALUE_JS})(label) === value"
    page.wait_for_function(shows_value, arg=[label, expected], timeout=60_000, polling="raf")
    return time.perf_counter() - start


def bare_baseline(browser, switches: int, ttl: int) -> list[float]:
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "bare.py"
        script.write_text(BARE_PAGE)
        with server(script, ttl) as (url, _):
            page = browser.new_page(viewport=LAPTOP)
            page.goto(url)
            page.get_by_role("combobox", name="Query").wait_for()
            times = [timed_switch(page, "Query", str(402 + i), "Value", str(402 + i)) for i in range(switches)]
            page.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=1000)
    parser.add_argument("--switches", type=int, default=12)
    parser.add_argument("--ttl", type=int, default=5)
    args = parser.parse_args()

    from irlab.runs.trec import read_qrels_file, read_run_file
    from irlab.runs.workspace import Workspace

    qrels_path, run_path = collection(args.queries)
    lines = sum(1 for _ in run_path.open("rb"))
    ws = Workspace(read_qrels_file(qrels_path)).with_run(run_path.name, read_run_file(run_path))
    queries = ws.judged(run_path.name).queries
    expected_ap = dict(zip(queries, ws.values(run_path.name, "AP")))
    measure_values = {m: ws.values(run_path.name, m)[0] for m in ("P@10", "nDCG@10", "RR", "AP")}
    del ws

    with chromium() as browser:
        bare = bare_baseline(browser, args.switches, args.ttl)
        with server(ROOT / "app.py", args.ttl) as (url, pid):
            page = browser.new_page(viewport=LAPTOP)
            page.goto(f"{url}/runs")
            wait_for_app(page)
            rss_before = rss_mb(pid)
            page.get_by_role("radio", name="My files").check(force=True)
            wait_for_app(page)
            inputs = page.get_by_test_id("stFileUploaderDropzoneInput")
            inputs.nth(0).set_input_files(str(qrels_path))
            page.get_by_text(f"Read {qrels_path.name}").first.wait_for(timeout=120_000)
            uploaded: list[float] = []
            page.on("requestfinished",
                    lambda r: uploaded.append(time.perf_counter()) if "upload_file" in r.url else None)
            chosen = time.perf_counter()
            inputs.nth(1).set_input_files(str(run_path))
            page.get_by_role("tab", name="Per query").wait_for(timeout=300_000)
            page.locator('[data-testid="stDataFrame"]').first.wait_for(timeout=300_000)
            shown = time.perf_counter()
            upload_end = uploaded[-1] if uploaded else float("nan")
            rss_loaded = rss_mb(pid)

            page.get_by_role("tab", name="Per query").click()
            page.wait_for_function("() => document.querySelectorAll('[data-testid=\"stMetric\"]').length >= 4",
                                   timeout=60_000)
            wait_for_app(page)
            first = metric_value(page, "AP")
            assert first == f"{expected_ap[queries[0]]:.4f}", (first, expected_ap[queries[0]])
            query_times = [timed_switch(page, "Query", q, "AP", f"{expected_ap[q]:.4f}")
                           for q in queries[1:1 + args.switches]]
            wait_for_app(page)
            pick(page, "Query", queries[0])
            page.wait_for_timeout(1500)
            wait_for_app(page)
            measure_times = []
            cycle = ["P@10", "nDCG@10", "RR", "AP"]
            for i in range(args.switches):
                m = cycle[i % len(cycle)]
                measure_times.append(timed_switch(page, "Measure", m, m, f"{measure_values[m]:.4f}"))
                wait_for_app(page)
            rss_session = rss_mb(pid)
            page.close()
            # the session expires after the TTL; the sweeper (every 10 s) drops its workspace and files
            time.sleep(args.ttl + 2 * session_memory.SWEEP_SECONDS + 2)
            rss_after = rss_mb(pid)

    def row(name, times):
        ms = [t * 1000 for t in times]
        return f"| {name} | {len(ms)} | {statistics.median(ms):.0f} | {max(ms):.0f} |"

    print(f"\nRuns page, {lines:,}-line run ({args.queries} queries), "
          f"headless Chromium {LAPTOP['width']}x{LAPTOP['height']}\n")
    print("| interaction | n | p50 ms | max ms |\n|---|---|---|---|")
    print(row("bare Streamlit page: select box → metric (baseline)", bare))
    print(row("runs page: switch query → value shown", query_times))
    print(row("runs page: switch measure → value shown", measure_times))
    print(f"\n| upload → summary | seconds |\n|---|---|\n| file chosen → summary on screen | {shown - chosen:.2f} |"
          f"\n| upload request finished → summary on screen | {shown - upload_end:.2f} |")
    print(f"\n| server memory (VmRSS of the app process) | MB |\n|---|---|"
          f"\n| page open, nothing loaded | {rss_before:.0f} |"
          f"\n| run and qrels loaded, summary shown | {rss_loaded:.0f} |"
          f"\n| after the query and measure switches | {rss_session:.0f} |"
          f"\n| tab closed, session expired ({args.ttl:g} s TTL) | {rss_after:.0f} |"
          f"\n| the session's cost (loaded − before) | {rss_loaded - rss_before:.0f} |")


if __name__ == "__main__":
    main()
