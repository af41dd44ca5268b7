"""A student in real headless Chromium: upload qrels and runs, open a query, read the comparison, export a table."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from irlab import evaluate
from irlab.runs.table_export import table_latex, table_markdown
from irlab.runs.trec import parse_qrels, parse_run, read_qrels_text, read_run_text
from irlab.runs.workspace import Workspace

pytestmark = pytest.mark.browser

EVIL = "<img/src=x/onerror=alert(1)>"
QRELS = ("q1 0 a 2\nq1 0 b 0\nq1 0 c 1\nq1 0 z 1\nq2 0 d 1\nq2 0 e 0\nq3 0 f 1\nq3 0 g 2\n"
         f"q1 0 {EVIL} 1\n")
RUN_A = (f"q1 Q0 a 1 3 A\nq1 Q0 x 2 2 A\nq1 Q0 c 3 1 A\nq1 Q0 {EVIL} 4 0.5 A\n"
         "q2 Q0 e 1 5 A\nq2 Q0 d 2 4 A\nq3 Q0 g 1 2 A\n")
RUN_B = "q1 Q0 c 1 3 B\nq1 Q0 a 2 2 B\nq2 Q0 d 1 5 B\nq3 Q0 h 1 2 B\nq3 Q0 f 2 1 B\n"


def test_upload_open_a_query_and_compare(app_page, tmp_path):
    page = app_page.page
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    files = {}
    for name, text in (("qrels.txt", QRELS), ("runA.txt", RUN_A), ("runB.txt", RUN_B)):
        files[name] = tmp_path / name
        files[name].write_text(text)
    app_page.open("runs")
    page.get_by_role("radio", name="My files").check(force=True)
    app_page.ready()
    inputs = page.get_by_test_id("stFileUploaderDropzoneInput")
    inputs.nth(0).set_input_files(str(files["qrels.txt"]))
    time.sleep(0.5)
    app_page.ready()
    inputs.nth(1).set_input_files([str(files["runA.txt"]), str(files["runB.txt"])])
    page.get_by_role("tab", name="Per query").wait_for(timeout=20_000)
    time.sleep(0.5)
    app_page.ready()

    page.get_by_role("tab", name="Per query").click()
    expected = evaluate(read_qrels_text(QRELS), read_run_text(RUN_A), "AP", per_query=True,
                        missing_queries="ignore")["AP"]
    app_page.wait_for_metric("AP", f"{expected['q1']:.4f}", timeout=20_000)
    # the evil id arrived as text in the tiles (shadow DOM) and in the rank table, and nothing ran
    tiles = page.locator('[data-testid="irl-tile"]')
    assert EVIL in tiles.nth(3).get_attribute("data-item-id")
    page.get_by_text("Rank by rank").click()  # (the run's scores, above it, list the id too: closed without ties)
    rank_table = page.get_by_test_id("stExpander").filter(has_text="Rank by rank")
    assert rank_table.get_by_text(EVIL, exact=False).first.is_visible()
    # pick another query with the select box (keyboard-reachable)
    page.get_by_role("combobox", name="Query").click()
    page.keyboard.type("q3")
    page.keyboard.press("Enter")
    app_page.wait_for_metric("AP", f"{expected['q3']:.4f}", timeout=20_000)

    page.get_by_role("tab", name="Compare runs").click()
    ws = Workspace(parse_qrels(QRELS.encode())).with_run("runA.txt", parse_run(RUN_A.encode())) \
        .with_run("runB.txt", parse_run(RUN_B.encode()))
    c = ws.compare("runA.txt", "runB.txt", "AP")
    app_page.wait_for_metric("B wins / ties / losses", f"{c.wins} / {c.ties} / {c.losses}", timeout=20_000)
    assert app_page.metric("Mean difference B − A") == f"{c.mean_difference:+.4f}"
    assert page.get_by_text("Wilcoxon signed-rank").is_visible()
    page.set_viewport_size({"width": 1280, "height": 800})  # a projector: every metric's label and value whole
    time.sleep(0.3)
    cut = page.evaluate("""() => Array.from(document.querySelectorAll(
        '[data-testid=stMetricValue], [data-testid=stMetricLabel]')).filter(e => e.scrollWidth > e.clientWidth + 1)
        .map(e => e.innerText)""")
    assert not cut, cut
    page.locator(".js-plotly-plot").first.wait_for(timeout=20_000)  # the topic-by-topic chart drew
    assert not dialogs
    assert "/runs" in page.url and "a=runA.txt" in page.url


def _three_runs() -> tuple[str, dict[str, str]]:
    """20 topics, a baseline and a clearly better and a clearly worse run (seeded)."""
    rng = random.Random(7)
    qrels = "".join(f"{q} 0 d{d} {1 if d < 3 else 0}\n" for q in range(1, 21) for d in range(8))
    runs = {}
    for name, skill in (("base.txt", 0.5), ("good.txt", 0.9), ("poor.txt", 0.1)):
        lines = []
        for q in range(1, 21):
            docs = sorted(range(8), key=lambda d: (rng.random() < skill) * (3 - d if d < 3 else -1) * -1 + rng.random())
            lines += [f"{q} Q0 d{d} {r} {8 - r} x" for r, d in enumerate(docs, 1)]
        runs[name] = "\n".join(lines) + "\n"
    return qrels, runs


def test_three_runs_results_table_markers_and_exports(app_page, tmp_path):
    page = app_page.page
    qrels, runs = _three_runs()
    (tmp_path / "qrels.txt").write_text(qrels)
    for name, text in runs.items():
        (tmp_path / name).write_text(text)
    ws = Workspace(parse_qrels(qrels.encode(), "qrels.txt"))
    for name, text in runs.items():
        ws = ws.with_run(name, parse_run(text.encode(), name))
    table = ws.results_table(list(runs), ["AP", "P@10", "nDCG@10"])
    assert any(cell.markers for cell in table.cells.values())

    app_page.open("runs")
    page.get_by_role("radio", name="My files").check(force=True)
    app_page.ready()
    inputs = page.get_by_test_id("stFileUploaderDropzoneInput")
    inputs.nth(0).set_input_files(str(tmp_path / "qrels.txt"))
    time.sleep(0.5)
    app_page.ready()
    inputs.nth(1).set_input_files([str(tmp_path / name) for name in runs])
    page.get_by_role("tab", name="Results table").wait_for(timeout=20_000)
    time.sleep(0.5)
    app_page.ready()
    page.get_by_role("tab", name="Results table").click()
    page.get_by_role("button", name="Compute the table").click()
    page.get_by_text("How to read this table").wait_for(timeout=30_000)
    for cell in table.cells.values():
        for marker in cell.markers:
            assert page.get_by_text(f"{cell.mean:.4f} {marker.text}", exact=False).first.is_visible()

    def download(label: str) -> str:
        with page.expect_download(timeout=20_000) as info:
            page.get_by_test_id("stDownloadButton").filter(has_text=label).get_by_role("button").click()
        return Path(info.value.path()).read_text()

    latex = download("LaTeX")
    assert latex == table_latex(table) and r"\begin{tabular}" in latex and r"\blacktriangle" in latex
    markdown = download("Markdown")
    assert markdown.startswith(table_markdown(table)) and "good.txt" in markdown and "▲a" in markdown
    assert not app_page.errors, app_page.errors
