"""trec_eval 10.0's rule on judged topics a run does not rank, through ``python -m irlab evaluate``.

trec_eval 10.0 (its CHANGELOG: "-c mode now prints out skipped queries in -q mode") stops with
exit status 4 and "trec_eval: result qid '2' not found in qrels" when a judged topic has no
results and -c is not given; with -c the topic counts, each measure computed on an empty
ranking, and -q prints it. The expected outputs below were printed by trec_eval 10.0 built from
usnistgov/trec_eval on these files; when a trec_eval binary is at hand ($TREC_EVAL, the PATH, or
../trec_eval_src/trec_eval) the last test compares with it directly on random collections.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
from functools import partial
from pathlib import Path

import pytest

from tests.cli.conftest import run_command

ROOT = Path(__file__).resolve().parents[2]
QRELS = "1 0 a 1\n1 0 b 0\n1 0 c 2\n2 0 d 1\n2 0 e 1\n3 0 f 1\n3 0 g 0\n"
RUN = "1 Q0 a 1 3.0 sys\n1 Q0 x 2 2.0 sys\n1 Q0 c 3 1.0 sys\n3 Q0 g 1 2.0 sys\n3 Q0 f 2 1.0 sys\n9 Q0 a 1 1.0 sys\n"
"""Topic 2 is judged and not ranked; topic 9 is ranked and not judged."""

TREC_EVAL_10 = {  # arguments -> (exit status, stdout) as trec_eval 10.0 printed them
    ("-c", "-m", "map", "-m", "num_q"): (0, "num_q                 \tall\t3\nmap                   \tall\t0.4444\n"),
    ("-q", "-c", "-m", "map", "-m", "num_ret", "-m", "P.5", "-m", "recip_rank"): (0, """\
num_ret               \t1\t3
map                   \t1\t0.8333
recip_rank            \t1\t1.0000
P_5                   \t1\t0.4000
num_ret               \t2\t0
map                   \t2\t0.0000
recip_rank            \t2\t0.0000
P_5                   \t2\t0.0000
num_ret               \t3\t2
map                   \t3\t0.5000
recip_rank            \t3\t0.5000
P_5                   \t3\t0.2000
num_ret               \tall\t5
map                   \tall\t0.4444
recip_rank            \tall\t0.5000
P_5                   \tall\t0.2000
"""),
    ("-m", "map", "-m", "num_q"): (4, ""),
    ("-q", "-m", "map"): (4, ""),  # trec_eval also prints topic 1's line before it stops; IR Lab prints nothing
}


@pytest.fixture
def files(tmp_path) -> tuple[Path, Path]:
    qrels, run = tmp_path / "qrels.txt", tmp_path / "run.txt"
    qrels.write_text(QRELS)
    run.write_text(RUN)
    return qrels, run


run_cli = partial(run_command, "evaluate")
"""Run ``python -m irlab evaluate args...`` in this process: (exit status, stdout, stderr)."""


@pytest.mark.parametrize("args", sorted(TREC_EVAL_10))
def test_the_output_and_exit_status_of_trec_eval_10(args, files, capsys):
    status, out, err = run_cli([*args, *map(str, files)], capsys)
    assert (status, out) == TREC_EVAL_10[args]
    if status == 4:
        assert err.count("\n") == 1 and err.startswith("error: ")
        assert "run.txt does not rank 1 of the 3 judged topics (2)" in err
        assert "exit status 4" in err and "Add -c to count them as 0" in err
    else:
        assert err == ""


def test_several_runs_name_each_run_that_misses_topics(files, tmp_path, capsys):
    qrels, run = files
    full = tmp_path / "full.txt"
    full.write_text(RUN + "2 Q0 d 1 1.0 sys\n")
    other = tmp_path / "other.txt"
    other.write_text("1 Q0 a 1 1 o\n")
    status, out, err = run_cli(["-m", "map", str(qrels), str(run), str(full), str(other)], capsys)
    assert status == 4 and out == ""
    assert "run.txt does not rank 1 of the 3 judged topics (2); " in err and "full.txt" not in err
    assert "other.txt does not rank 2 of the 3 judged topics (2, 3)" in err


def test_as_a_program_the_exit_status_is_4_without_a_traceback(files):
    done = subprocess.run([sys.executable, "-m", "irlab", "evaluate", *map(str, files)], capture_output=True,
                          text=True, cwd=ROOT)
    assert done.returncode == 4 and done.stdout == "" and "Traceback" not in done.stderr


def _trec_eval() -> str | None:
    for candidate in (os.environ.get("TREC_EVAL"), shutil.which("trec_eval"),
                      str(ROOT.parent / "trec_eval_src" / "trec_eval")):
        if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return candidate
    return None


@pytest.mark.skipif(_trec_eval() is None, reason="no trec_eval binary here (CI has none; the table above holds "
                                                  "its outputs)")
@pytest.mark.parametrize("seed", range(12))
def test_against_the_trec_eval_binary_on_random_collections(seed, tmp_path, capsys):
    rng = random.Random(seed)
    qrels, run = [], []
    for topic in range(rng.randint(2, 8)):
        docs = [f"d{i}" for i in range(rng.randint(2, 15))]
        judged = rng.sample(docs, rng.randint(1, len(docs)))
        qrels += [f"{topic} 0 {d} {rng.choice([0, 0, 1, 2, 3, -1])}" for d in judged]
        if topic and rng.random() < 0.3:
            continue  # the run misses this judged topic (never the first: a run must share a topic)
        run += [f"{topic} Q0 {d} {r} {rng.choice([1, 2, 3, 2.5])} tag" for r, d in
                enumerate(rng.sample(docs, rng.randint(1, len(docs))), start=1)]
    run.append("99 Q0 d1 1 1 tag")
    (tmp_path / "q.txt").write_text("\n".join(qrels) + "\n")
    (tmp_path / "r.txt").write_text("\n".join(run) + "\n")
    for flags in (["-c", "-q", "-m", "all_trec"], ["-q", "-m", "official"], ["-c", "-M", "3", "-m", "all_trec"],
                  ["-c", "-J", "-q", "-m", "official"], ["-c", "-l", "2", "-m", "all_trec"]):
        args = [*flags, str(tmp_path / "q.txt"), str(tmp_path / "r.txt")]
        theirs = subprocess.run([_trec_eval(), *args], capture_output=True, text=True)
        status, out, _ = run_cli(args, capsys)
        assert status == theirs.returncode, flags
        if status == 0:
            assert out == theirs.stdout, flags
