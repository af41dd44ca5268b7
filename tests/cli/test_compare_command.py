"""python -m irlab compare: the same statistics as irlab.runs.compare, in text, JSON and CSV."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from irlab.cli import main
from irlab.runs.simulate import simulate
from irlab.runs.workspace import Workspace

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> tuple[Path, Path, Path, Path]:
    folder = tmp_path_factory.mktemp("compare")
    collection = simulate(topics=20, systems={"good": 1.0, "poor": 0.3, "mid": 0.6}, depth=30)
    qrels = folder / "qrels.txt"
    qrels.write_text("\n".join(collection.qrels_lines()) + "\n")
    runs = []
    for name in ("good", "poor", "mid"):
        path = folder / f"{name}.txt"
        path.write_text("\n".join(collection.run_lines(name)) + "\n")
        runs.append(path)
    return qrels, *runs


def test_json_equals_the_workspace(files, capsys):
    qrels, good, poor, _ = files
    assert main(["compare", "--format", "json", "-m", "AP", "-m", "ndcg_cut_10", str(qrels), str(good), str(poor)]) == 0
    records = json.loads(capsys.readouterr().out)
    from irlab.runs.trec import read_qrels_file, read_run_file
    ws = Workspace(read_qrels_file(qrels)).with_run(str(good), read_run_file(good)).with_run(str(poor),
                                                                                               read_run_file(poor))
    assert [r["measure"] for r in records] == ["AP", "nDCG@10"]
    for record in records:
        c = ws.compare(str(good), str(poor), record["measure"])
        assert record["mean_difference"] == c.mean_difference and record["t_p"] == c.t_p
        assert record["randomisation_p"] == c.randomisation_p and record["wins"] == c.wins
        assert record["holm_p"] >= record["randomisation_p"]


def test_three_runs_give_every_pair_as_csv(files, capsys):
    qrels, good, poor, mid = files
    assert main(["compare", "--format", "csv", str(qrels), str(good), str(poor), str(mid)]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert len(rows) == 9  # 3 pairs x 3 default measures
    assert {(Path(r["run_a"]).stem, Path(r["run_b"]).stem) for r in rows} == {("good", "poor"), ("good", "mid"),
                                                                              ("poor", "mid")}


def test_text_output_and_errors_are_one_line(files):
    qrels, good, poor, _ = files
    done = subprocess.run([sys.executable, "-m", "irlab", "compare", str(qrels), str(good), str(poor)],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0 and "paired t-test" in done.stdout and "Wilcoxon" in done.stdout
    swapped = subprocess.run([sys.executable, "-m", "irlab", "compare", str(good), str(qrels), str(poor)],
                             capture_output=True, text=True, cwd=ROOT)
    assert swapped.returncode == 2 and swapped.stderr.count("\n") == 1
    assert "looks like a run file" in swapped.stderr and "Traceback" not in swapped.stderr
    one = subprocess.run([sys.executable, "-m", "irlab", "compare", str(qrels), str(good)],
                         capture_output=True, text=True, cwd=ROOT)
    assert one.returncode == 2 and "at least two runs" in one.stderr
