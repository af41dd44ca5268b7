"""trec_eval's -Z: z-scores per query and measure, summed up as each measure is, and bad z-score files.

The printed output is checked against trec_eval 10.0 in tests/cli/test_trec_eval_10.py (recorded)
and bench/trec_eval_diff.py (random files against the binary).
"""

from __future__ import annotations

import math

import pytest

from irlab.errors import ValidationError
from irlab.metrics.measure_names import trec_measure_set
from irlab.runs.evaluate import evaluate_tables, qrels_from_mapping, run_from_mapping
from irlab.runs.report import trec_text
from irlab.runs.zscores import MISSING, parse_zscores, standardised

QRELS = {"q1": {"a": 1, "b": 0, "c": 2}, "q2": {"d": 1}, "q3": {"e": 0}}
RUN = {"q1": ["a", "x", "c"], "q2": ["x", "d"]}


def evaluation(names: list[str], complete: bool = True):
    measures = {m.trec_name: m for m in trec_measure_set(names)}
    return evaluate_tables(qrels_from_mapping(QRELS), run_from_mapping(RUN, runid="r"), measures, complete=complete)


def test_each_value_becomes_its_z_score_and_the_summary_sums_them_up():
    raw = evaluation(["map", "num_ret", "gm_map", "num_q", "runid"])
    z = standardised(raw, parse_zscores(b"q1 map 0.5 0.25\nq2 map 0.4 0\nq3 map 0 0\nq1 num_ret 1 2\n"
                                        b"q2 num_ret 2 0\nq1 gm_map -1 2\nq2 gm_map -1 2\nq3 gm_map 0 1\n"))
    ap = raw.per_query["map"].tolist()
    assert z.per_query["map"].tolist() == [(ap[0] - 0.5) / 0.25, MISSING, 0.0]  # sd 0: 0 if equal, else missing
    assert z.summary["map"] == ((ap[0] - 0.5) / 0.25 + MISSING + 0.0) / 3
    assert z.per_query["num_ret"].tolist() == [1.0, 0.0, MISSING]  # q3 has no num_ret line
    assert z.summary["num_ret"] == 1.0 + 0.0 + MISSING  # a sum, as the count is summed
    logs = [math.log(max(v, 0.00001)) for v in ap]
    zs = [(logs[0] + 1) / 2, (logs[1] + 1) / 2, logs[2]]
    assert z.summary["gm_map"] == math.exp((zs[0] + zs[1] + zs[2]) / 3)
    assert z.summary["num_q"] == 3 and z.summary["runid"] == "r" and z.zscored
    text = trec_text([z], per_query=True)
    assert "Zmap                   \tq2\t-1000000.0000\n" in text and "Znum_q                 \tall\t3.0000\n" in text
    assert "runid                 \tall\tr\n" in text


def test_with_c_num_rel_is_still_the_relevant_documents_judged():
    z = standardised(evaluation(["num_rel"], complete=True), parse_zscores(b"q1 num_rel 0 1\n"))
    assert z.summary["num_rel"] == 3 and z.per_query["num_rel"].tolist() == [2.0, MISSING, MISSING]


BAD = {
    b"q1 map 0.5\n": "z.txt:1: a z-score line has 4 fields (query measure mean stddev), this one has 3",
    b"q1 map 0.5 x\n": "z.txt:1: the mean and standard deviation must be numbers",
    b"q1 map 0.5 -1\n": "z.txt:1: the mean must be a number and the standard deviation a number >= 0",
    b"q1 map 0.5 0.1\n# c\nq1 map 0.4 0.1\n": "z.txt:3: query 'q1' and measure 'map' are given twice (lines 1 and 3)",
    b"# only a comment\n": "z.txt: the file has no z-score lines",
}


@pytest.mark.parametrize("data", sorted(BAD))
def test_bad_zscore_files_name_the_line(data):
    with pytest.raises(ValidationError) as error:
        parse_zscores(data, "z.txt")
    assert BAD[data] in str(error.value)
