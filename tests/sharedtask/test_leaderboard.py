"""The leaderboard gives the results table's numbers (means, intervals, Holm-adjusted p against the baseline)."""

from __future__ import annotations

import numpy as np
import pytest

from irlab.runs.table import results_table
from irlab.sharedtask.leaderboard import leaderboard


@pytest.mark.parametrize("test", ["t", "wilcoxon", "randomisation"])
def test_the_leaderboard_equals_the_results_table(test):
    rng = np.random.default_rng(3)
    topics = [str(t) for t in range(30)]
    values = {f"#{i}": {"AP": rng.random(30), "P@10": rng.random(30)} for i in range(8)}
    values["#0"] = {m: v * 0.5 for m, v in values["#0"].items()}  # the baseline, clearly worse
    board = leaderboard(values, topics, ["AP", "P@10"], baseline="#0", test=test)
    table = results_table(values, topics, baselines=["#0"], test=test, correction="holm")
    for row in board.rows:
        for m in ("AP", "P@10"):
            cell = table.cell(row.entry, m)
            assert row.means[m] == cell.mean and row.intervals[m] == (cell.ci_low, cell.ci_high)
            if row.entry != "#0":
                pair = table.comparison(row.entry, "#0", m)
                assert row.versus[m].p == pair.p and row.versus[m].p_adjusted == pytest.approx(pair.p_adjusted)
                assert row.versus[m].significant == pair.significant
    places = [row.entry for row in board.rows]
    assert places[-1] == "#0" and [r.place for r in board.rows] == sorted(r.place for r in board.rows)


def test_remembered_values_are_used():
    topics = ["1", "2", "3"]
    values = {"#1": {"AP": np.array([0.1, 0.2, 0.3])}, "#2": {"AP": np.array([0.3, 0.2, 0.4])}}
    asked = []
    board = leaderboard(values, topics, ["AP"], baseline="#1",
                        interval=lambda e, m: asked.append(e) or (0.0, 1.0), p_value=lambda e, m: 0.5)
    assert sorted(asked) == ["#1", "#2"] and board.row("#2").intervals["AP"] == (0.0, 1.0)
    assert board.row("#2").versus["AP"].p == 0.5 and not board.row("#2").versus["AP"].significant
