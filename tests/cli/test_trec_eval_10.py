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


def evaluate_texts(args: list[str], judgments: str, run: str, folder: Path, capsys) -> tuple[int, str, str]:
    """``irlab evaluate args judgments run`` on these texts written as files (a z-score file's name in ``args``,
    a key of FORMAT_FILES, becomes its file's path)."""
    paths = {}
    for name, text in {**FORMAT_FILES, "judgments": judgments, "run": run}.items():
        paths[name] = folder / name
        paths[name].write_text(text)
    argv = [str(paths[a]) if a in FORMAT_FILES else a for a in args]
    return run_cli([*argv, str(paths["judgments"]), str(paths["run"])], capsys)


@pytest.mark.parametrize("args", sorted(TREC_EVAL_10), ids=" ".join)
def test_prints_what_trec_eval_10_prints(args, tmp_path, capsys):
    assert evaluate_texts(list(args), QRELS, RUN, tmp_path, capsys) == (0, TREC_EVAL_10[args], "")


def test_formats_and_zscores_bad_input_is_one_line(files, tmp_path, capsys):
    qrels, run = files
    status, out, err = run_cli(["-R", "xml", str(qrels), str(run)], capsys)
    assert status == 2 and out == "" and "-R xml: trec_eval 10.0's judgment formats are qrels, qrels_jg, prefs" in err
    status, _, err = run_cli(["-R", "prefs", str(qrels), str(run)], capsys)  # a qrels file given as prefs
    assert status == 2 and "qrels.txt:1: a prefs line has 5 fields" in err and "use -R qrels_prefs" in err
    status, _, err = run_cli(["-R", "qrels_prefs", "-m", "map", str(qrels), str(run)], capsys)
    assert status == 2 and "map needs qrels (-R qrels, the default), not preferences" in err
    status, out, _ = run_cli(["-R", "qrels_prefs", str(qrels), str(run)], capsys)  # the format's own measures
    assert status == 0 and out.startswith("runid                 \tall\tsysA\nnum_q ") and "prefs_simp" in out
    status, _, err = run_cli(["-Z", str(tmp_path / "missing.txt"), str(qrels), str(run)], capsys)
    assert status == 2 and "missing.txt" in err and "No such file" in err
    (tmp_path / "z.txt").write_text("q1 map 0.5\n")
    status, _, err = run_cli(["-Z", str(tmp_path / "z.txt"), str(qrels), str(run)], capsys)
    assert status == 2 and "z.txt:1: a z-score line has 4 fields" in err and err.count("\n") == 1


def test_version_and_flags_it_cannot_honour(files, capsys):
    status, out, _ = run_cli(["--version"], capsys)
    assert status == 0 and "IR Lab" in out and "trec_eval 10.0" in out
    status, out, err = run_cli(["-D", "1", *map(str, files)], capsys)
    assert status == 2 and out == "" and "IR Lab prints no debug trace (trec_eval's -D)" in err
    status, out, _ = run_cli(["-D", "0", "-o", "-m", "P.1", *map(str, files)], capsys)
    assert status == 0 and "P_1" in out
    status, _, err = run_cli(["-T", "xml", *map(str, files)], capsys)
    assert status == 2 and "one results format, trec_results" in err


# -R and -Z: judgments in other formats, and z-scores (each z-score file ends with a query and a measure that sort
# after every other: trec_eval's binary searches read one entry past the end otherwise; docs/measures.md)
PREFS = ('q1 u1 s1 d1 2\n'
         'q1 u1 s1 d2 1\n'
         'q1 u1 s1 d3 0\n'
         'q1 u2 a d2 3\n'
         'q1 u2 a d4 1\n'
         'q1 u2 b d4 2\n'
         'q1 u2 b d1 0.5\n'
         'q2 u1 s d5 1\n'
         'q2 u1 s d6 0\n'
         'q2 u1 s d7 0\n'
         'q2 u1 s d8 0\n')
PREFS_RUN = ('q1 Q0 d4 1 1.0 R\n'
             'q1 Q0 d1 2 1.0 R\n'
             'q1 Q0 d3 3 2.0 R\n'
             'q1 Q0 d9 4 0.5 R\n'
             'q2 Q0 d6 1 3 R\n'
             'q2 Q0 d5 2 2 R\n'
             'q2 Q0 d9 3 1 R\n')
QRELS_JG = ('q1 u1 d1 1\n'
            'q1 u1 d2 0\n'
            'q1 u2 d2 1\n'
            'q1 u2 d3 1\n'
            'q2 0 d5 1\n')
JG_RUN = ('q1 Q0 d2 1 2 R\n'
          'q1 Q0 d1 2 1 R\n'
          'q2 Q0 d5 1 1 R\n'
          'q2 Q0 d1 2 1 R\n')
ZSCORES = ('q1 map 0.4 0.2\n'
           'q1 P_5 0.1 0\n'
           'q2 P_5 0.2 0\n'
           'q1 num_ret 3 1\n'
           'q1 gm_map -2 1\n'
           'q2 gm_map -1 0.5\n'
           'zzz zzz 0 1\n')
GM_ZSCORES = ('q1 gm_map -2 1\n'
              'q2 gm_map -1 0.5\n'
              'q3 gm_map -5 2\n'
              'q1 map 0.5 0.1\n'
              'q2 map 0.5 0.1\n'
              'q3 map 0 0\n'
              'q1 zzz 0 1\n'
              'q2 zzz 0 1\n'
              'q3 zzz 0 1\n'
              'zzz zzz 0 1\n')
TREC_EVAL_10_FORMATS = {  # (arguments, judgments, run) -> stdout, as trec_eval 10.0 printed it
    ('-q -R prefs -m all_prefs', PREFS, PREFS_RUN):
        ('prefs_num_prefs_poss  \tq1\t6\n'
         'prefs_num_prefs_ful   \tq1\t1\n'
         'prefs_num_prefs_ful_ret\tq1\t0\n'
         'prefs_simp            \tq1\t0.1667\n'
         'prefs_pair            \tq1\t0.1000\n'
         'prefs_avgjg           \tq1\t0.1667\n'
         'prefs_avgjg_Rnonrel   \tq1\t0.4500\n'
         'prefs_simp_ret        \tq1\t0.0000\n'
         'prefs_pair_ret        \tq1\t0.0000\n'
         'prefs_avgjg_ret       \tq1\t0.0000\n'
         'prefs_avgjg_Rnonrel_ret\tq1\t0.2857\n'
         'prefs_simp_imp        \tq1\t0.1667\n'
         'prefs_pair_imp        \tq1\t0.1000\n'
         'prefs_avgjg_imp       \tq1\t0.1667\n'
         'prefs_num_prefs_poss  \tq2\t3\n'
         'prefs_num_prefs_ful   \tq2\t2\n'
         'prefs_num_prefs_ful_ret\tq2\t0\n'
         'prefs_simp            \tq2\t0.6667\n'
         'prefs_pair            \tq2\t0.6667\n'
         'prefs_avgjg           \tq2\t0.6667\n'
         'prefs_avgjg_Rnonrel   \tq2\t0.0000\n'
         'prefs_simp_ret        \tq2\t0.0000\n'
         'prefs_pair_ret        \tq2\t0.0000\n'
         'prefs_avgjg_ret       \tq2\t0.0000\n'
         'prefs_avgjg_Rnonrel_ret\tq2\t0.0000\n'
         'prefs_simp_imp        \tq2\t0.6667\n'
         'prefs_pair_imp        \tq2\t0.6667\n'
         'prefs_avgjg_imp       \tq2\t0.6667\n'
         'runid                 \tall\tR\n'
         'num_q                 \tall\t2\n'
         'prefs_num_prefs_poss  \tall\t9\n'
         'prefs_num_prefs_ful   \tall\t3\n'
         'prefs_num_prefs_ful_ret\tall\t0\n'
         'prefs_simp            \tall\t0.4167\n'
         'prefs_pair            \tall\t0.3833\n'
         'prefs_avgjg           \tall\t0.4167\n'
         'prefs_avgjg_Rnonrel   \tall\t0.2250\n'
         'prefs_simp_ret        \tall\t0.0000\n'
         'prefs_pair_ret        \tall\t0.0000\n'
         'prefs_avgjg_ret       \tall\t0.0000\n'
         'prefs_avgjg_Rnonrel_ret\tall\t0.1429\n'
         'prefs_simp_imp        \tall\t0.4167\n'
         'prefs_pair_imp        \tall\t0.3833\n'
         'prefs_avgjg_imp       \tall\t0.4167\n'),
    ('-R prefs -M2 -m prefs_avgjg_Rnonrel -m prefs_pair', PREFS, PREFS_RUN):
        ('prefs_pair            \tall\t0.3833\n'
         'prefs_avgjg_Rnonrel   \tall\t0.1625\n'),
    ('-q -R qrels_prefs -m prefs', QRELS, RUN):
        ('prefs_num_prefs_poss  \tq1\t6\n'
         'prefs_num_prefs_ful   \tq1\t3\n'
         'prefs_num_prefs_ful_ret\tq1\t1\n'
         'prefs_simp            \tq1\t0.5000\n'
         'prefs_pair            \tq1\t0.5000\n'
         'prefs_avgjg           \tq1\t0.5000\n'
         'prefs_num_prefs_poss  \tq2\t1\n'
         'prefs_num_prefs_ful   \tq2\t0\n'
         'prefs_num_prefs_ful_ret\tq2\t0\n'
         'prefs_simp            \tq2\t0.0000\n'
         'prefs_pair            \tq2\t0.0000\n'
         'prefs_avgjg           \tq2\t0.0000\n'
         'prefs_num_prefs_poss  \tq3\t0\n'
         'prefs_num_prefs_ful   \tq3\t0\n'
         'prefs_num_prefs_ful_ret\tq3\t0\n'
         'prefs_simp            \tq3\t0.0000\n'
         'prefs_pair            \tq3\t0.0000\n'
         'prefs_avgjg           \tq3\t0.0000\n'
         'runid                 \tall\tsysA\n'
         'num_q                 \tall\t3\n'
         'prefs_num_prefs_poss  \tall\t7\n'
         'prefs_num_prefs_ful   \tall\t3\n'
         'prefs_num_prefs_ful_ret\tall\t1\n'
         'prefs_simp            \tall\t0.1667\n'
         'prefs_pair            \tall\t0.1667\n'
         'prefs_avgjg           \tall\t0.1667\n'),
    ('-q -R qrels_jg -m map_avgjg -m P_avgjg.1,2 -m Rprec_mult_avgjg.1,2', QRELS_JG, JG_RUN):
        ('map_avgjg             \tq1\t0.5000\n'
         'P_avgjg_1             \tq1\t0.5000\n'
         'P_avgjg_2             \tq1\t0.5000\n'
         'Rprec_mult_avgjg_1.00 \tq1\t0.2500\n'
         'Rprec_mult_avgjg_2.00 \tq1\t0.3750\n'
         'map_avgjg             \tq2\t1.0000\n'
         'P_avgjg_1             \tq2\t1.0000\n'
         'P_avgjg_2             \tq2\t0.5000\n'
         'Rprec_mult_avgjg_1.00 \tq2\t1.0000\n'
         'Rprec_mult_avgjg_2.00 \tq2\t0.5000\n'
         'map_avgjg             \tall\t0.7500\n'
         'P_avgjg_1             \tall\t0.7500\n'
         'P_avgjg_2             \tall\t0.5000\n'
         'Rprec_mult_avgjg_1.00 \tall\t0.6250\n'
         'Rprec_mult_avgjg_2.00 \tall\t0.4375\n'),
    ('-q -Z ZSCORES -m map -m P.5 -m num_ret -m gm_map -m num_q -m relstring.3 -m runid', QRELS, RUN):
        ('Znum_ret               \tq1\t0.0000\n'
         'Zmap                   \tq1\t0.7778\n'
         'ZP_5                   \tq1\t-1000000.0000\n'
         "relstring_3           \tq1\t'2-1'\n"
         'Znum_ret               \tq2\t-1000000.0000\n'
         'Zmap                   \tq2\t-1000000.0000\n'
         'ZP_5                   \tq2\t0.0000\n'
         "relstring_3           \tq2\t'01'\n"
         'Znum_ret               \tq3\t-1000000.0000\n'
         'Zmap                   \tq3\t-1000000.0000\n'
         'ZP_5                   \tq3\t-1000000.0000\n'
         "relstring_3           \tq3\t'0'\n"
         'runid                 \tall\tsysA\n'
         'Znum_q                 \tall\t3.0000\n'
         'Znum_ret               \tall\t-2000000.0000\n'
         'Zmap                   \tall\t-666666.4074\n'
         'Zgm_map                \tall\t0.0000\n'
         'ZP_5                   \tall\t-666666.6667\n'),
    ('-c -Z ZSCORES -m num_rel -m map', QRELS, RUN):
        ('Znum_rel               \tall\t4.0000\n'
         'Zmap                   \tall\t-666666.4074\n'),
    ('-q -Z GM_ZSCORES -m gm_map -m map', QRELS, RUN):
        ('Zmap                   \tq1\t0.5556\n'
         'Zmap                   \tq2\t0.0000\n'
         'Zmap                   \tq3\t0.0000\n'
         'Zmap                   \tall\t0.1852\n'
         'Zgm_map                \tall\t0.6635\n'),
}
FORMAT_FILES = {"ZSCORES": ZSCORES, "GM_ZSCORES": GM_ZSCORES}


@pytest.mark.parametrize("case", list(TREC_EVAL_10_FORMATS), ids=lambda case: case[0])
def test_prints_what_trec_eval_10_prints_for_other_formats_and_zscores(case, tmp_path, capsys):
    args, judgments, run = case
    assert evaluate_texts(args.split(), judgments, run, tmp_path, capsys) == (0, TREC_EVAL_10_FORMATS[case], "")
