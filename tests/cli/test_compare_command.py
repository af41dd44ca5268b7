"""python -m irlab compare: the results table of irlab.runs.table from files, its formats and options,
every judged topic counted, and 10,000 topics under a 1 GB address-space limit."""

from __future__ import annotations

import csv
import io
import json
import resource
import subprocess
import sys
from functools import partial
from pathlib import Path

import numpy as np
import pytest
from markdown_it import MarkdownIt

from irlab.runs.compare import compare
from irlab.runs.simulate import simulate
from irlab.runs.table import results_table
from irlab.runs.trec import read_qrels_file, read_run_file
from irlab.runs.workspace import Workspace
from tests.cli.conftest import run_command

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> tuple[Path, Path, Path, Path]:
    folder = tmp_path_factory.mktemp("compare")
    collection = simulate(topics=30, systems={"good": 1.0, "poor": 0.3, "mid": 0.6}, depth=30)
    qrels = folder / "qrels.txt"
    qrels.write_text("\n".join(collection.qrels_lines()) + "\n")
    runs = []
    for name in ("good", "poor", "mid"):
        lines = collection.run_lines(name)
        if name == "poor":  # misses two judged topics
            lines = [line for line in lines if line.split()[0] not in ("401", "402")]
        path = folder / f"{name}.txt"
        path.write_text("\n".join(lines) + "\n")
        runs.append(path)
    return qrels, *runs


run_cli = partial(run_command, "compare")
"""Run ``python -m irlab compare args...`` in this process: (exit status, stdout, stderr)."""


def test_the_table_equals_the_workspaces_on_every_judged_topic(files, capsys):
    qrels, good, poor, mid = files
    status, out, _ = run_cli(["--format", "json", "-m", "AP", "-m", "ndcg_cut_10", *map(str, files)], capsys)
    assert status == 0
    document = json.loads(out)
    ws = Workspace(read_qrels_file(qrels))
    for path in (good, poor, mid):
        ws = ws.with_run(path.name, read_run_file(path))
    table = ws.results_table([good.name, poor.name, mid.name], ["AP", "nDCG@10"])
    assert document["topics"] == 30 == len(table.queries)  # every judged topic, poor's two missed ones as 0
    for row in document["rows"]:
        cell = table.cell(row["run"], row["measure"])
        assert row["mean"] == cell.mean and (row["ci_low"], row["ci_high"]) == (cell.ci_low, cell.ci_high)
        if row["compared_with"]:
            pair = table.comparison(row["run"], row["compared_with"], row["measure"])
            assert row["p"] == pair.p and row["wins"] == pair.wins and row["p_adjusted"] == pair.p_adjusted
    assert document["coverage"]["poor.txt"]["missed"] == ["401", "402"]
    means = document["coverage"]["poor.txt"]["means"]["AP"]
    assert means["all_judged"] < means["ranked_only"]


def test_text_names_the_missing_topics_explains_the_table_and_details_two_runs(files, capsys):
    qrels, good, poor, _ = files
    status, out, _ = run_cli([str(qrels), str(good), str(poor)], capsys)
    assert status == 0
    assert "baseline a (good.txt)" in out and "paired t-test, Holm's correction" in out
    assert "poor.txt ranks 28 of the 30 judged topics; the 2 it misses (401, 402) count 0: AP " in out
    assert "How to read this table" in out and "Significance is not importance" in out
    assert "Run B against run A" in out and "randomisation test   p = " in out and "effect size d = " in out
    # the verdict quotes the p-value of the test the table's header names (issue 37: it quoted the randomisation
    # test's under a header naming the t-test)
    t_p = next(line for line in out.splitlines() if line.startswith("  paired t-test")).split("p = ")[1]
    assert f"(paired t-test, p = {t_p})" in out and "(randomisation test, p = " not in out
    _, wilcoxon, _ = run_cli(["--test", "wilcoxon", str(qrels), str(good), str(poor)], capsys)
    w_p = next(line for line in wilcoxon.splitlines() if line.startswith("  Wilcoxon")).split("p = ")[1]
    assert "Wilcoxon signed-rank test, Holm's correction" in wilcoxon
    assert f"(Wilcoxon signed-rank test, p = {w_p})" in wilcoxon
    _, ranked, _ = run_cli(["--ranked-only", str(qrels), str(good), str(poor)], capsys)
    assert "over 28 topics" in ranked and "count 0" not in ranked and "(401, 402) are left out here" in ranked


def test_baselines_tests_corrections_and_formats(files, capsys):
    qrels, good, poor, mid = files
    args = ["--baseline", "mid.txt", "--baseline", str(poor), "--test", "randomisation", "--correction", "bh",
            "--format", "csv", "--measure", "P@10", str(qrels), str(good), str(poor), str(mid)]
    status, out, _ = run_cli(args, capsys)
    rows = list(csv.DictReader(io.StringIO(out)))
    assert status == 0
    assert {(r["run"], r["compared_with"]) for r in rows if r["compared_with"]} == {
        ("good.txt", "mid.txt"), ("poor.txt", "mid.txt"), ("good.txt", "poor.txt"), ("mid.txt", "poor.txt")}
    status, out, _ = run_cli(["--all-pairs", "--test", "tukey", "--format", "latex", *map(str, files)], capsys)
    assert status == 0 and "\\begin{tabular}{llrrr}" in out and "\\toprule" in out and "Tukey" in out
    status, out, _ = run_cli(["--format", "markdown", *map(str, files)], capsys)
    html = MarkdownIt("commonmark").enable("table").render(out)
    # the table (a header and 3 runs), then wins / ties / losses against the baseline (a header and 2 runs)
    assert status == 0 and html.count("<tr>") == 4 + 3 and "How to read this table" not in html
    assert "Runs have letters" in html and "Wins / ties / losses against a" in html


def test_per_query_values_are_written_for_every_run(files, tmp_path, capsys):
    target = tmp_path / "per-query.csv"
    status, _, _ = run_cli(["--per-query", str(target), "-m", "AP", *map(str, files)], capsys)
    rows = list(csv.DictReader(io.StringIO(target.read_text())))
    assert status == 0 and len(rows) == 3 * 30
    poor = {r["query"]: float(r["value"]) for r in rows if r["run"] == "poor.txt"}
    assert poor["401"] == 0.0 and poor["402"] == 0.0


def test_two_runs_detail_equals_irlab_runs_compare(files, capsys):
    qrels, good, poor, _ = files
    status, out, _ = run_cli(["-m", "AP", str(qrels), str(good), str(poor)], capsys)
    ws = Workspace(read_qrels_file(qrels)).with_run("good.txt", read_run_file(good)).with_run(
        "poor.txt", read_run_file(poor))
    c = ws.compare("good.txt", "poor.txt", "AP")
    assert f"B - A {c.mean_difference:+.4f}" in out and f"B wins {c.wins}, ties {c.ties}, loses {c.losses}" in out


def test_bad_input_is_one_line(files):
    qrels, good, poor, _ = files
    for args, message in [([str(good), str(qrels), str(poor)], "looks like a run file"),
                          ([str(qrels), str(good)], "at least two runs"),
                          ([str(qrels), str(qrels), str(good)], "looks like a qrels file"),
                          (["-m", "GMAP", str(qrels), str(good), str(poor)], "GMAP is not the mean"),
                          (["--baseline", "nope.txt", str(qrels), str(good), str(poor)], "--baseline 'nope.txt'"),
                          (["-m", "P@10000000000", str(qrels), str(good), str(poor)], "larger than 1,000,000,000"),
                          (["--test", "sign", str(qrels), str(good), str(poor)], "invalid choice")]:
        done = subprocess.run([sys.executable, "-m", "irlab", "compare", *args], capture_output=True, text=True,
                              cwd=ROOT)
        assert done.returncode == 2 and done.stderr.count("\n") == 1, (args, done.stderr)
        assert message in done.stderr and "Traceback" not in done.stderr, (args, done.stderr)


def test_a_budget_too_small_for_the_comparisons_says_so(files):
    done = subprocess.run([sys.executable, "-m", "irlab", "compare", "--all-pairs", "--test", "randomisation",
                           "--budget", "0.001", *map(str, files)], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 2 and "computing time, more than the 0.001 s one request may take" in done.stderr


def _limit_address_space() -> None:
    gigabyte = 1 << 30
    resource.setrlimit(resource.RLIMIT_AS, (gigabyte, gigabyte))


def test_ten_thousand_topics_fit_in_one_gigabyte(tmp_path):
    """Issue 21: compare once peaked at 6.4 GB on 10,000 topics (the randomisation test's index arrays)."""
    rng = np.random.default_rng(7)
    topics = [str(t) for t in range(10_000)]
    (tmp_path / "qrels.txt").write_text("".join(f"{t} 0 d{d} {int(rng.integers(0, 3))}\n" for t in topics
                                                for d in range(5)))
    for name, skill in (("a", 0.0), ("b", 0.3)):
        lines = []
        for t in topics:
            order = rng.permutation(8) if rng.random() > skill else np.arange(8)
            lines += [f"{t} Q0 d{d} {r} {8 - r} {name}\n" for r, d in enumerate(order, start=1)]
        (tmp_path / f"{name}.txt").write_text("".join(lines))
    done = subprocess.run([sys.executable, "-m", "irlab", "compare", "--test", "randomisation", "--format", "csv",
                           "-m", "AP", "-m", "nDCG@10", "-m", "RR",
                           *(str(tmp_path / name) for name in ("qrels.txt", "a.txt", "b.txt"))],
                          capture_output=True, text=True, cwd=ROOT, preexec_fn=_limit_address_space, timeout=600)
    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader(io.StringIO(done.stdout)))
    compared = [r for r in rows if r["compared_with"]]
    assert len(compared) == 3 and all(r["significant"] == "True" and r["marker"] == "▲a" for r in compared)


def test_the_table_is_the_same_from_the_core(files, capsys):
    qrels, good, poor, _ = files
    status, out, _ = run_cli(["--format", "json", "-m", "AP", str(qrels), str(good), str(poor)], capsys)
    ws = Workspace(read_qrels_file(qrels)).with_run("good.txt", read_run_file(good)).with_run(
        "poor.txt", read_run_file(poor))
    queries = ws.queries(["good.txt", "poor.txt"])
    a, b = np.array(ws.values("good.txt", "AP")), np.array(ws.values("poor.txt", "AP"))
    direct = results_table({"good.txt": {"AP": a}, "poor.txt": {"AP": b}}, queries)
    row = next(r for r in json.loads(out)["rows"] if r["run"] == "poor.txt")
    assert status == 0 and row["p"] == direct.comparison("poor.txt", "good.txt", "AP").p
    assert row["difference"] == pytest.approx(compare(a, b, queries).mean_difference)  # poor − good
