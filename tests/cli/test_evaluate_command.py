"""``python -m irlab evaluate``: trec_eval's own expected outputs through the command line, its flags,
its formats, and every kind of bad input (one line naming the file and line, exit status 2).
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import subprocess
import sys
from functools import partial
from pathlib import Path

import pytest

from irlab.cli import main
from irlab.metrics.registry import supported_trec_names
from tests.cli.conftest import run_command

ROOT = Path(__file__).resolve().parents[2]

# trec_eval's Makefile (its quicktest): the arguments of each of its 15 commands and the expected output
COMMANDS = [
    (["qrels.test", "results.test"], "out.test"),
    (["qrels.test.with-comments", "results.test"], "out.test"),
    (["qrels.comment.test", "results.comment.test"], "out.comment.test"),
    (["-m", "all_trec", "qrels.test", "results.test"], "out.test.a"),
    (["-m", "all_trec", "-q", "qrels.test", "results.test"], "out.test.aq"),
    (["-m", "all_trec", "-q", "-c", "qrels.test", "results.trunc"], "out.test.aqc"),
    (["-m", "all_trec", "-q", "-c", "-M100", "qrels.test", "results.trunc"], "out.test.aqcM"),
    (["-m", "all_trec", "-mrelstring.20", "-q", "-l2", "qrels.rel_level", "results.test"], "out.test.aql"),
    (["-m", "all_prefs", "-q", "-R", "prefs", "prefs.test", "prefs.results.test"], "out.test.prefs"),
    (["-m", "all_prefs", "-q", "-R", "prefs", "prefs.comment.test", "prefs.results.test"], "out.test.prefs"),
    (["-m", "all_prefs", "-q", "-R", "qrels_prefs", "qrels.test", "results.test"], "out.test.qrels_prefs"),
    (["-m", "qrels_jg", "-q", "-R", "qrels_jg", "qrels.123", "results.test"], "out.test.qrels_jg"),
    (["-m", "qrels_jg", "-q", "-R", "qrels_jg", "qrels.comments.123", "results.test"], "out.test.qrels_jg"),
    (["-q", "-miprec_at_recall..10,.20,.25,.75,.50", "-m", "P.5,7,3", "-m", "recall.20,2000", "-m",
      "Rprec_mult.5.0,0.2,0.35", "-mutility.2,-1,0,0", "-m", "11pt_avg..25,.5,.75", "-mndcg.1=3,2=9,4=4.5",
      "-mndcg_cut.10,20,23.4", "-msuccess.2,5,20", "qrels.test", "results.test"], "out.test.meas_params"),
    (["-q", "-m", "all_trec", "-Z", "zscores_file", "qrels.test", "results.test"], "out.test.aqZ"),
]
FILES = {"qrels.test", "qrels.test.with-comments", "qrels.comment.test", "qrels.rel_level", "qrels.123",
         "qrels.comments.123", "results.test", "results.trunc", "results.comment.test", "prefs.test",
         "prefs.comment.test", "prefs.results.test", "zscores_file"}


run_cli = partial(run_command, "evaluate")
"""Run ``python -m irlab evaluate args...`` in this process: (exit status, stdout, stderr)."""


@pytest.mark.parametrize("number", range(len(COMMANDS)), ids=lambda n: f"{n + 1}-{COMMANDS[n][1]}")
def test_the_command_line_prints_what_trec_eval_prints_byte_for_byte(number, trec_eval_test, capsys):
    """trec_eval 10.0's own test folder: all 15 commands of its Makefile, each output identical to the byte."""
    args, expected = COMMANDS[number]
    status, out, err = run_cli([str(trec_eval_test / a) if a in FILES else a for a in args], capsys)
    assert (status, err) == (0, "")
    assert out.encode() == (trec_eval_test / expected).read_bytes()


@pytest.fixture
def small(tmp_path) -> tuple[Path, Path, Path]:
    """A qrels file and two runs over two queries (ties, a missing query in run b)."""
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q1 0 d1 2\nq1 0 d2 0\nq1 0 d3 1\nq2 0 d4 1\nq2 0 d5 0\n")
    a = tmp_path / "a.txt"
    a.write_text("q1 Q0 d1 1 2.0 sysA\nq1 Q0 d9 2 1.0 sysA\nq1 Q0 d3 3 1.0 sysA\n"
                 "q2 Q0 d5 1 3 sysA\nq2 Q0 d4 2 2 sysA\n")
    b = tmp_path / "b.txt"
    b.write_text("q1 Q0 d2 1 5 sysB\nq1 Q0 d3 2 4 sysB\n")
    return qrels, a, b


def values(text: str) -> dict[tuple[str, str], str]:
    return {(m.strip(), q): v for m, q, v in (line.split("\t") for line in text.splitlines() if line)}


def test_default_output_has_trec_evals_default_measures_and_runid(small, capsys):
    qrels, a, _ = small
    status, out, _ = run_cli([str(qrels), str(a)], capsys)
    names = [line.split("\t")[0].strip() for line in out.splitlines()]
    assert status == 0 and names[:6] == ["runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map"]
    assert names[-1] == "P_1000" and len(names) == 30
    got = values(out)
    assert got[("runid", "all")] == "sysA" and got[("num_q", "all")] == "2" and got[("num_ret", "all")] == "5"
    # q1: ranking d1 (2), d9, d3 (1) with d9 and d3 tied at 1.0: d9 > d3 as strings, so d9 first
    assert got[("P_5", "all")] == f"{(2 / 5 + 1 / 5) / 2:.4f}"


def test_per_query_no_summary_and_missing_queries(small, capsys):
    qrels, a, b = small
    status, out, _ = run_cli(["-q", "-n", "-m", "num_ret", "-m", "map", str(qrels), str(a)], capsys)
    assert status == 0 and "all" not in out and {q for _, q in values(out)} == {"q1", "q2"}
    status, out, err = run_cli(["-q", "-n", "-m", "map", str(qrels), str(b)], capsys)  # b misses q2: trec_eval 10
    assert status == 4 and out == "" and "does not rank 1 of the 2 judged topics (q2)" in err and "-c" in err
    status, out, _ = run_cli(["-q", "-c", "-m", "num_ret", "-m", "map", str(qrels), str(b)], capsys)
    got = values(out)
    assert got[("num_ret", "q2")] == "0" and got[("map", "q2")] == "0.0000" and got[("num_ret", "all")] == "2"


def test_nothing_to_print_writes_no_byte_as_trec_eval(small, capsys):
    qrels, a, _ = small
    for args in (["-n"], ["-m", "relstring"], ["-n", "-m", "map", "-m", "P.5"]):
        status, out, err = run_cli([*args, str(qrels), str(a)], capsys)
        assert status == 0 and out == "" and err == "", args  # not even a newline
    status, out, _ = run_cli(["-q", "-n", "-m", "relstring", str(qrels), str(a)], capsys)
    assert out == "relstring             \tq1\t'2-1'\nrelstring             \tq2\t'01'\n"


def test_depth_0_evaluates_empty_rankings_as_trec_eval_does(small, capsys):
    qrels, a, _ = small
    status, out, _ = run_cli(["-M", "0", "-q", "-m", "num_ret", "-m", "num_rel", "-m", "map", "-m",
                              "iprec_at_recall.0", str(qrels), str(a)], capsys)
    got = values(out)
    assert status == 0 and got[("num_ret", "all")] == "0" and got[("num_rel", "all")] == "3"
    assert got[("map", "q1")] == "0.0000" and got[("iprec_at_recall_0.00", "q1")] == "  -nan"  # 0/0, as trec_eval


def test_several_runs_give_one_table_each(small, capsys):
    qrels, a, b = small
    status, out, _ = run_cli(["-c", "-m", "map", str(qrels), str(a), str(b)], capsys)
    tables = out.strip().split("\n\n")
    assert status == 0 and len(tables) == 2
    assert "sysA" not in tables[1] and values(tables[0])[("map", "all")] != values(tables[1])[("map", "all")]


def test_json_and_csv_hold_the_same_numbers_as_the_trec_output(small, capsys):
    qrels, a, _ = small
    args = ["-q", "-m", "ndcg_cut.5", "-m", "nDCG(gain='exponential')@5", "-m", "P@2", str(qrels), str(a)]
    _, trec, _ = run_cli(args, capsys)
    _, as_json, _ = run_cli(["--format", "json", *args], capsys)
    _, as_csv, _ = run_cli(["--format", "csv", *args], capsys)
    expected = values(trec)
    [run] = json.loads(as_json)
    assert run["runid"] == "sysA" and run["queries"] == ["q1", "q2"]
    for measure, value in run["summary"].items():
        assert f"{value:.4f}" == expected[(measure, "all")]
    for measure, per_query in run["per_query"].items():
        for query, value in per_query.items():
            assert f"{value:.4f}" == expected[(measure, query)]
    rows = list(csv.DictReader(io.StringIO(as_csv)))
    assert {(r["measure"], r["query"]): f"{float(r['value']):.4f}" for r in rows} == expected
    assert "nDCG(gain='exponential')@5" in run["summary"] and "P_2" in run["summary"]


def test_gzip_files_and_standard_input(small, capsys, monkeypatch):
    qrels, a, _ = small
    zipped = qrels.with_suffix(".gz")
    zipped.write_bytes(gzip.compress(qrels.read_bytes()))
    run_zipped = a.with_suffix(".txt.gz")
    run_zipped.write_bytes(gzip.compress(a.read_bytes()))
    _, plain, _ = run_cli([str(qrels), str(a)], capsys)
    status, out, _ = run_cli([str(zipped), str(run_zipped)], capsys)
    assert status == 0 and out == plain
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(a.read_bytes())))
    status, out, _ = run_cli([str(qrels), "-"], capsys)
    assert status == 0 and out == plain


@pytest.mark.parametrize("layout", ["tabs", "crlf", "spaces", "indent", "extra", "shuffled", "exponent"])
def test_any_white_space_layout_gives_trec_evals_numbers(layout, trec_eval_test, tmp_path, capsys):
    lines = (trec_eval_test / "results.test").read_text().splitlines()
    fields = [line.split() for line in lines]
    changed = {
        "tabs": ["\t".join(f) for f in fields],
        "crlf": [line + "\r" for line in lines],
        "spaces": ["   ".join(f) for f in fields],
        "indent": ["  " + line + " " for line in lines],
        "extra": [line + " more fields" for line in lines],
        "shuffled": sorted(lines, key=lambda line: hash(line) % 997),
        "exponent": [" ".join([*f[:4], f"{float(f[4]):e}", *f[5:]]) for f in fields],
    }[layout]
    run = tmp_path / "run.txt"
    run.write_text("\n".join(changed) + "\n")
    status, out, _ = run_cli(["-q", str(trec_eval_test / "qrels.test"), str(run)], capsys)
    assert status == 0
    expected = (trec_eval_test / "out.test").read_text().splitlines()
    summary = [line for line in out.splitlines() if "\tall\t" in line]
    assert summary == expected


def test_help_lists_the_flags_and_every_supported_measure(capsys):
    with pytest.raises(SystemExit):
        main(["evaluate", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    for flag in ("-q", "-c", "-l N", "-M N", "-J", "-n", "-m MEASURE", "--format"):
        assert flag in out
    for name in supported_trec_names():
        assert name in out
    assert "all_trec" in out and "nDCG@10" in out


GOOD_QRELS = "q1 0 d1 1\nq1 0 d2 0\n"
GOOD_RUN = "q1 Q0 d1 1 2.5 r\nq1 Q0 d2 2 1.5 r\n"

BAD_INPUT = {
    "run line with 5 fields": (GOOD_QRELS, "q1 Q0 d1 1 2.5 r\nq1 Q0 d2 2 1.5\n", [],
                               "run.txt:2: a run line has 6 fields"),
    "qrels line with 3 fields": ("q1 0 d1 1\nq1 d2 0\n", GOOD_RUN, [], "qrels.txt:2: a qrels line has 4 fields"),
    "qrels line with 5 fields": ("q1 0 d1 1 extra\n", GOOD_RUN, [], "qrels.txt:1: a qrels line has 4 fields"),
    "score that is not a number": (GOOD_QRELS, "q1 Q0 d1 1 high r\n", [], "run.txt:1: the score (5th field) must be"),
    "score nan": (GOOD_QRELS, "q1 Q0 d1 1 0.5 r\nq1 Q0 d2 2 nan r\n", [], "run.txt:2: the score"),
    "grade that is not whole": ("q1 0 d1 1.5\n", GOOD_RUN, [], "qrels.txt:1: the grade must be a whole number"),
    "grade that is a word": ("q1 0 d1 1\n# note\nq1 0 d2 yes\n", GOOD_RUN, [], "qrels.txt:3: the grade"),
    "document twice in a query": (GOOD_QRELS, GOOD_RUN + "q1 Q0 d1 3 0.5 r\n", [],
                                  "run.txt:3: document 'd1' appears twice for query 'q1' (lines 1 and 3)"),
    "judged twice": ("q1 0 d1 1\nq1 0 d1 0\n", GOOD_RUN, [], "qrels.txt:2: document 'd1' is judged twice"),
    "empty run": (GOOD_QRELS, "", [], "run.txt: the file is empty"),
    "blank run": (GOOD_QRELS, "\n  \n\n", [], "run.txt: the file is empty"),
    "comments only": (GOOD_QRELS, "# nothing here\n", [], "run.txt: the file has no run lines"),
    "no judged query": (GOOD_QRELS, "q7 Q0 d1 1 2.5 r\n", [], "no query has both judgments and a ranking"),
    "binary garbage": (GOOD_QRELS, b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", [], "run.txt: this is not a text file"),
    "not UTF-8": (GOOD_QRELS, b"q1 Q0 d\xe9 1 2.5 r\n", [], "run.txt:1: the line is not UTF-8 text"),
    "unknown measure": (GOOD_QRELS, GOOD_RUN, ["-m", "NDKG@5"], "unknown measure 'NDKG@5'"),
    "zero cutoff": (GOOD_QRELS, GOOD_RUN, ["-m", "P.0"], "-m P.0: cutoffs must be whole numbers >= 1"),
    "negative depth": (GOOD_QRELS, GOOD_RUN, ["-M-1"], "-M must be 0 or more (trec_eval 10.0 crashes"),
    "relevance level 0": (GOOD_QRELS, GOOD_RUN, ["-l", "0"], "relevance level must be a whole number of at least 1"),
}


@pytest.mark.parametrize("case", sorted(BAD_INPUT))
def test_bad_input_is_one_line_naming_the_file_and_line(case, tmp_path, capsys):
    qrels_text, run_text, args, message = BAD_INPUT[case]
    qrels, run = tmp_path / "qrels.txt", tmp_path / "run.txt"
    for path, text in ((qrels, qrels_text), (run, run_text)):
        path.write_bytes(text if isinstance(text, bytes) else text.encode())
    status, out, err = run_cli([*args, str(qrels), str(run)], capsys)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("error: ") and "Traceback" not in err
    assert message in err.replace(str(tmp_path) + "/", ""), err


def test_a_file_over_the_limit_is_refused_before_it_is_read(tmp_path, capsys):
    qrels, huge = tmp_path / "qrels.txt", tmp_path / "huge.txt"
    qrels.write_text(GOOD_QRELS)
    with huge.open("wb") as handle:  # a sparse 2 GB file: no disk space used, and it is never read
        handle.truncate(2 << 30)
    status, _, err = run_cli([str(qrels), str(huge)], capsys)
    assert status == 2 and "2,147 MB, more than the 1,000 MB IR Lab reads" in err


def test_a_gzip_bomb_is_stopped_at_the_limit(tmp_path, capsys):
    qrels, bomb = tmp_path / "qrels.txt", tmp_path / "bomb.txt.gz"
    qrels.write_text(GOOD_QRELS)
    bomb.write_bytes(gzip.compress(b"q1 Q0 d1 1 2.5 r\n" * (3 << 16)))  # 3.2 MB unpacked, a few KB packed
    status, _, err = run_cli(["--max-size", "1", str(qrels), str(bomb)], capsys)
    assert status == 2 and "unpacks to more than the 1 MB IR Lab reads" in err
    broken = tmp_path / "broken.gz"
    broken.write_bytes(gzip.compress(GOOD_RUN.encode())[:-12])
    status, _, err = run_cli([str(qrels), str(broken)], capsys)
    assert status == 2 and "not a readable gzip file" in err


def test_a_missing_file_is_one_line(tmp_path, capsys):
    status, _, err = run_cli([str(tmp_path / "nope.txt"), str(tmp_path / "run.txt")], capsys)
    assert status == 2 and err.startswith("error: ") and "nope.txt" in err and "No such file" in err


def test_the_module_runs_as_a_program_without_a_traceback(tmp_path):
    qrels, run = tmp_path / "qrels.txt", tmp_path / "run.txt"
    qrels.write_text(GOOD_QRELS)
    run.write_text("q1 Q0 d1 1 2.5\n")
    result = subprocess.run([sys.executable, "-m", "irlab", "evaluate", str(qrels), str(run)], cwd=ROOT,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("error: ") and "run.txt:1:" in result.stderr and "Traceback" not in result.stderr
