"""What trec_eval 10.0 added and IR Lab once lacked (issue 37): its names, order and flags, byte for byte.

Each expected output below is what trec_eval 10.0 (usnistgov/trec_eval, built from source) printed
for the same files and flags; CI has no trec_eval binary, so the outputs are kept here.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from tests.cli.conftest import run_command

run_cli = partial(run_command, "evaluate")

QRELS = "q1 0 d1 2\nq1 0 d2 0\nq1 0 d3 1\nq1 0 d6 3\nq2 0 d4 1\nq2 0 d5 0\nq3 0 d1 0\n"
RUN = "q1 Q0 d1 1 2.0 sysA\nq1 Q0 d9 2 1.0 sysA\nq1 Q0 d3 3 1.0 sysA\nq2 Q0 d5 1 3 sysA\nq2 Q0 d4 2 2 sysA\n" \
      "q3 Q0 d1 1 1 sysA\n"


def lines(*rows: tuple[str, str, str]) -> str:
    return "".join(f"{name:<22}\t{query}\t{value}\n" for name, query, value in rows)


TREC_EVAL_10 = {  # arguments -> stdout, as trec_eval 10.0 printed it
    # dcg and ideal_dcg print before ndcg (IR Lab printed "DCG" after it, and refused ideal_dcg and yaap)
    ("-q", "-m", "ndcg", "-m", "dcg", "-m", "yaap", "-m", "ideal_dcg"): lines(
        ("dcg", "q1", "2.5000"), ("ideal_dcg", "q1", "4.7619"), ("ndcg", "q1", "0.5250"), ("yaap", "q1", "0.1335"),
        ("dcg", "q2", "0.6309"), ("ideal_dcg", "q2", "1.0000"), ("ndcg", "q2", "0.6309"), ("yaap", "q2", "0.0000"),
        ("dcg", "q3", "0.0000"), ("ideal_dcg", "q3", "0.0000"), ("ndcg", "q3", "0.0000"), ("yaap", "q3", "0.0000"),
        ("dcg", "all", "1.0436"), ("ideal_dcg", "all", "1.9206"), ("ndcg", "all", "0.3853"),
        ("yaap", "all", "0.0445")),
    ("-q", "-l2", "-m", "yaap", "-m", "dcg.1=3,2=9"): lines(
        ("dcg_1=3,2=9", "q1", "10.5000"), ("yaap", "q1", "0.0000"), ("dcg_1=3,2=9", "q2", "1.8928"),
        ("yaap", "q2", "0.0000"), ("dcg_1=3,2=9", "q3", "0.0000"), ("yaap", "q3", "0.0000"),
        ("dcg_1=3,2=9", "all", "4.1309"), ("yaap", "all", "0.0000")),
    # trec_eval's long options are its short ones
    ("--query_eval_wanted", "--measure", "P.1", "--nosummary", "--Max_retrieved_per_topic", "1",
     "--level_for_rel=2", "--Judged_docs_only", "--complete_rel_info_wanted", "--Number_docs_in_coll", "9"): lines(
        ("P_1", "q1", "1.0000"), ("P_1", "q2", "0.0000"), ("P_1", "q3", "0.0000")),
    ("-M0", "-m", "num_ret", "-m", "P.1"): lines(("num_ret", "all", "0"), ("P_1", "all", "0.0000")),
    ("-n",): "",  # nothing to print: not even a newline
}


@pytest.fixture
def files(tmp_path) -> tuple[Path, Path]:
    qrels, run = tmp_path / "qrels.txt", tmp_path / "run.txt"
    qrels.write_text(QRELS)
    run.write_text(RUN)
    return qrels, run


@pytest.mark.parametrize("args", sorted(TREC_EVAL_10), ids=" ".join)
def test_prints_what_trec_eval_10_prints(args, files, capsys):
    status, out, err = run_cli([*args, *map(str, files)], capsys)
    assert (status, err) == (0, "")
    assert out == TREC_EVAL_10[args]


def test_version_and_flags_it_cannot_honour(files, capsys):
    status, out, _ = run_cli(["--version"], capsys)
    assert status == 0 and "IR Lab" in out and "trec_eval 10.0" in out
    status, out, err = run_cli(["-D", "1", *map(str, files)], capsys)
    assert status == 2 and out == "" and "IR Lab prints no debug trace (trec_eval's -D)" in err
    status, out, _ = run_cli(["-D", "0", "-m", "P.1", *map(str, files)], capsys)
    assert status == 0 and "P_1" in out
    status, _, err = run_cli(["-T", "xml", *map(str, files)], capsys)
    assert status == 2 and "one results format, trec_results" in err
