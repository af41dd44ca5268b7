"""Curves across runs (irlab.runs.charts) and the workspace's API for the runs page: interpolated
precision-recall for every run, the sorted per-topic difference, coverage and the results table."""

from __future__ import annotations

import numpy as np
import pytest

from irlab.runs.charts import (
    ELEVEN_POINTS,
    describe_precision_recall,
    difference_spec,
    precision_recall_curve,
    precision_recall_spec,
)
from irlab.runs.significance import BudgetExceeded
from irlab.runs.trec import parse_qrels, parse_run
from irlab.runs.workspace import Options, Workspace


@pytest.fixture(scope="module")
def sample() -> Workspace:
    return Workspace.sample()


def test_every_runs_curve_is_trec_evals_iprec_at_recall(sample):
    curves = sample.precision_recall(sample.run_names)
    assert [c.run for c in curves] == list(sample.run_names)
    for curve in curves:
        assert curve.recall == ELEVEN_POINTS
        for level, precision in zip(curve.recall, curve.precision):
            assert precision == sample.mean(curve.run, f"IPrec@{level}")
        assert all(a >= b for a, b in zip(curve.precision, curve.precision[1:]))  # interpolated: never rises
    spec = precision_recall_spec(curves)
    assert len(spec["data"]) == 3
    assert len({t["marker"]["symbol"] for t in spec["data"]}) == 3  # not colour alone: shapes and dashes differ
    assert len({t["line"]["dash"] for t in spec["data"]}) == 3
    assert spec["data"][0]["y"] == list(curves[0].precision)
    assert describe_precision_recall(curves).startswith("Interpolated precision at recall 0, 0.5 and 1: bm25-tuned ")


def test_a_run_name_cannot_act_in_the_hover_template():
    curve = precision_recall_curve("<b>%{y}</b>", [0.5] * 11)
    hover = precision_recall_spec([curve])["data"][0]["hovertemplate"]
    assert "<b>" not in hover and "%{y}</b>" not in hover and "&lt;b&gt;&#37;{y}" in hover
    with pytest.raises(ValueError, match="one precision per recall level"):
        precision_recall_curve("r", [0.5] * 3)


def test_the_sorted_difference_of_any_pair_hatches_losses(sample):
    c = sample.compare("bm25", "bm25-tuned", "AP")
    bar = difference_spec(c)["data"][0]
    assert bar["y"] == sorted(bar["y"])
    losses = [shape for shape, y in zip(bar["marker"]["pattern"]["shape"], bar["y"]) if y < -1e-12]
    assert losses and set(losses) == {"/"}


def test_the_workspace_counts_every_judged_topic_and_says_what_is_missed():
    qrels = parse_qrels(b"1 0 a 1\n2 0 b 1\n3 0 c 1\n")
    ws = Workspace(qrels, {"all": parse_run(b"1 Q0 a 1 1 r\n2 Q0 b 1 1 r\n3 Q0 x 1 1 r\n", "all"),
                           "some": parse_run(b"1 Q0 a 1 1 s\n2 Q0 b 1 1 s\n", "some")})
    assert ws.summary(["AP"])[1]["AP"] == pytest.approx(2 / 3) and ws.summary(["AP"])[1]["queries"] == 3
    assert ws.summary(["AP"], Options(complete=False))[1]["AP"] == 1.0
    c = ws.coverage("some", ["AP"])
    assert c.missed == ("3",) and c.means["AP"] == (pytest.approx(2 / 3), 1.0)
    table = ws.results_table(["all", "some"], ["AP"])
    assert len(table.queries) == 3 and table.coverage["some"].missed == ("3",)
    assert table.cell("some", "AP").mean == pytest.approx(2 / 3)


def test_every_pair_of_many_runs_is_bounded_in_time():
    rng = np.random.default_rng(0)
    topics = [str(t) for t in range(300)]
    qrels = parse_qrels("".join(f"{t} 0 d{d} {int(rng.integers(0, 2))}\n" for t in topics for d in range(20)).encode())
    runs = {}
    for r in range(30):
        lines = [f"{t} Q0 d{d} {i + 1} {20 - i} r{r}" for t in topics for i, d in enumerate(rng.permutation(20))]
        runs[f"r{r}"] = parse_run(("\n".join(lines) + "\n").encode(), f"r{r}")
    ws = Workspace(qrels, runs)
    with pytest.raises(BudgetExceeded, match=r"every pair of 30 runs \(435 pairs, 300 topics\)"):
        ws.compare_all(ws.run_names, "AP", budget=0.2)


def test_run_and_topic_names_cannot_act_as_markup_in_the_difference_chart(sample):
    from dataclasses import replace

    c = replace(sample.compare("bm25", "bm25-tuned", "AP"), run_a="<b>a</b>", run_b="<i>%{y}</i>",
                queries=tuple(f"<u>{q}</u>" for q in sample.compare("bm25", "bm25-tuned", "AP").queries))
    spec = difference_spec(c)
    texts = [spec["layout"]["title"]["text"], spec["layout"]["yaxis"]["title"]["text"], spec["data"][0]["name"],
             spec["data"][0]["hovertemplate"], *(a["text"] for a in spec["layout"]["annotations"]),
             *spec["data"][0]["x"]]
    assert not any(tag in text for text in texts for tag in ("<b>", "<i>", "<u>", "%{y}</i>"))
    assert "&lt;b&gt;a&lt;/b&gt;" in spec["layout"]["title"]["text"]
