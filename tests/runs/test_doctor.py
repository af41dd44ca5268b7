"""The run doctor (irlab.runs.doctor) on crafted runs, one per finding, and the coverage of a run
(irlab.runs.coverage): what missed topics do to the mean."""

from __future__ import annotations

import gzip
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from irlab.cli import main
from irlab.metrics.measure_names import parse_measure
from irlab.runs.coverage import coverage
from irlab.runs.doctor import Finding, doctor
from irlab.runs.evaluate import evaluate_tables
from irlab.runs.trec import parse_qrels, parse_run, rank_run, run_block

ROOT = Path(__file__).resolve().parents[2]
QRELS = parse_qrels("".join(f"{t} 0 d{d} {int(d < 3)}\n" for t in (1, 2, 3) for d in range(12)).encode())
"""Three topics, twelve judged documents each, d0-d2 relevant (binary grades)."""


def clean_lines(topics=(1, 2, 3), depth=12) -> list[str]:
    return [f"{t} Q0 d{d} {d + 1} {100 - d} clean" for t in topics for d in range(depth)]


def examine(lines: list[str], qrels=QRELS, **options) -> dict[str, Finding]:
    block = run_block(("\n".join(lines) + "\n").encode(), "run.txt", ranks=True)
    return {f.check: f for f in doctor(qrels, {"run.txt": block}, **options) if f.run == "run.txt"}


def test_a_clean_run_has_no_finding():
    found = examine(clean_lines())
    assert set(found) == {"missing-topics", "unjudged-topics", "ties", "ranks", "duplicates", "depth", "judged-at-10"}
    assert all(f.ok for f in found.values()), [f.what for f in found.values() if not f.ok]
    assert found["judged-at-10"].what.startswith("run.txt has Judged@10 = 100.0%")


def test_missing_topics_with_the_mean_with_and_without_them():
    finding = examine(clean_lines(topics=(1, 2)))["missing-topics"]
    assert finding.count == 1 and finding.what == "run.txt misses 1 of the 3 judged topics (3)"
    assert "MAP 0.6667 over all 3, 1.0000 over the 2 it ranks" in finding.why and "-c" in finding.todo


def test_topics_without_judgments():
    finding = examine(clean_lines() + ["7 Q0 d1 1 1 clean", "08 Q0 d1 1 1 clean"])["unjudged-topics"]
    assert finding.count == 2 and "(08, 7)" in finding.what and "leading zeros" in finding.todo


def test_ties_across_the_cutoff_and_why_document_ids_decide():
    lines = clean_lines()
    lines[9] = "1 Q0 d9 10 91.5 clean"  # d9 and d10 tie at ranks 10 and 11 of topic 1
    lines[10] = "1 Q0 d10 11 91.5 clean"
    finding = examine(lines)["ties"]
    assert finding.count == 1 and "across rank 10 in 1 topic (1)" in finding.what
    assert "renaming documents changes P@10" in finding.why and "trec_eval#22" in finding.why
    assert examine(lines, cutoff=5)["ties"].ok


def test_ranks_that_disagree_with_scores():
    lines = [f"1 Q0 d{d} {d + 1} {d} clean" for d in range(12)] + clean_lines(topics=(2, 3))  # ascending scores
    finding = examine(lines)["ranks"]
    assert finding.count == 1
    assert "in 1 topic (1): 11 lines are ranked before a line with a higher score" in finding.what
    assert "ignores the rank column" in finding.why
    lines = clean_lines()
    lines[0] = "1 Q0 d0 first 100 clean"  # a rank that is not a number
    assert examine(lines)["ranks"].count == 1


def test_deeper_than_a_thousand_documents():
    lines = clean_lines() + [f"2 Q0 x{d} {d + 13} {-d} clean" for d in range(995)]
    finding = examine(lines)["depth"]
    assert finding.count == 1 and "more than 1,000 documents in 1 topic (2)" in finding.what
    assert "-M 1000" in finding.todo


def test_unjudged_documents_in_the_top_ten():
    lines = [f"{t} Q0 new{d} {d + 1} {100 - d} clean" for t in (1, 2, 3) for d in range(5)] + clean_lines()
    finding = examine(lines)["judged-at-10"]
    assert finding.count == 15 and "Judged@10 = 50.0%" in finding.what and "bpref" in finding.todo


def test_the_same_document_twice():
    lines = clean_lines() + ["2 Q0 d4 13 0.5 clean", "3 Q0 d1 13 0.5 clean", "3 Q0 d2 14 0.4 clean"]
    found = examine(lines)
    assert found["duplicates"].count == 2 and "3 lines too many" in found["duplicates"].what
    assert found["missing-topics"].ok and found["ranks"].ok  # the first line of each document is kept


def test_graded_qrels_read_as_binary_and_topics_without_relevant_documents():
    qrels = parse_qrels(b"1 0 a 4\n1 0 b 1\n1 0 c 2\n2 0 d 0\n2 0 e 0\n3 0 f 1\n")
    found = {f.check: f for f in doctor(qrels, {}) if f.run is None}
    assert found["graded-as-binary"].count == 2 and "grade documents up to 4" in found["graded-as-binary"].what
    assert "-l 2" in found["graded-as-binary"].todo
    assert found["no-relevant"].count == 1 and "(2)" in found["no-relevant"].what
    assert {f.check: f for f in doctor(qrels, {}, relevance_level=2)}["graded-as-binary"].ok
    assert all(f.ok for f in doctor(QRELS, {}))


def test_a_file_is_read_topic_by_topic_with_its_ranks_and_a_table_without_them(tmp_path):
    lines = [f"1 Q0 d{d} {d + 1} {d} r" for d in range(12)] + clean_lines(topics=(2,))
    path = tmp_path / "run.txt.gz"
    path.write_bytes(gzip.compress(("\n".join(lines) + "\n").encode()))
    from_file = {f.check: f for f in doctor(QRELS, {"f": path}, block_bytes=64)}
    assert from_file["ranks"].count == 1 and from_file["missing-topics"].count == 1
    table = parse_run(("\n".join(lines) + "\n").encode(), "t")
    from_table = {f.check: f for f in doctor(QRELS, {"t": table})}
    assert "ranks" not in from_table and "duplicates" not in from_table  # checked when the table was read
    assert from_table["missing-topics"].what == "t misses 1 of the 3 judged topics (3)"
    assert from_file["missing-topics"].what == "f misses 1 of the 3 judged topics (3)"


@st.composite
def doctored_runs(draw) -> tuple[list[str], bool]:
    """(run lines with every kind of finding, whether its topics come in byte order): ties, equal scores, ranks
    against the scores or not numbers, documents twice, topics the qrels do not judge, judged topics missed,
    rankings deeper than the test's depth, topics in any order."""
    lines = []
    for topic in draw(st.lists(st.sampled_from(["1", "2", "3", "4", "10", "x"]), unique=True, min_size=1)):
        docs = draw(st.lists(st.sampled_from([f"d{d}" for d in range(14)] + ["new", "zz"]), max_size=16))
        for rank, doc in enumerate(docs, start=1):
            score = draw(st.sampled_from([100 - rank, 100 - rank, 5.0, 2.5, 0.0, -0.0, -1.5]))
            shown = draw(st.sampled_from([str(rank), str(rank), str(17 - rank), "7", "first"]))
            lines.append(f"{topic} Q0 {doc} {shown} {score} tag")
    in_order = draw(st.booleans())  # topics in byte order, as the ranked run lists them
    lines = sorted(lines, key=lambda line: line.split()[0]) if in_order else draw(st.permutations(lines))
    return lines, in_order


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(run=doctored_runs(), cutoff=st.sampled_from([2, 10]), depth=st.sampled_from([3, 1_000]),
       level=st.sampled_from([1, 2]))
def test_the_doctor_on_a_ranked_run_equals_the_doctor_on_the_file(tmp_path, run, cutoff, depth, level):
    """What a shared task gives the doctor (the run ranked once for scoring, with its rank column) finds what the
    file, read topic by topic or whole, finds: the same findings, word for word."""
    lines, in_order = run
    if not lines:
        return
    qrels = parse_qrels(b"".join(f"{t} 0 d{d} {d % 4 - (d == 13)}\n".encode() for t in (1, 2, 3, 4) for d in range(14)))
    text = ("\n".join(lines) + "\n").encode()
    path = tmp_path / "run.txt"
    path.write_bytes(text)
    options = {"cutoff": cutoff, "depth": depth, "relevance_level": level}
    block = run_block(text, "run.txt", ranks=True)
    ranked = rank_run("run.txt", block, repeats="keep first")
    expected = doctor(qrels, {"run.txt": ranked}, **options)
    assert doctor(qrels, {"run.txt": block}, **options) == expected
    if in_order:  # a file is read a few topics at a time: its findings list topics in the file's order
        assert doctor(qrels, {"run.txt": path}, block_bytes=32, **options) == expected
        assert doctor(qrels, {"run.txt": path}, **options) == expected
    if not len(ranked.repeats):  # what the scorer ranks: a document twice is refused, so here never twice
        scored = rank_run("run.txt", block)
        assert doctor(qrels, {"run.txt": scored}, **options) == expected
        table = parse_run(text, "run.txt")  # the table every measure is computed on
        assert scored.table.query_ids == table.query_ids and scored.table.offsets.tolist() == table.offsets.tolist()
        assert scored.table.docs.equals(table.docs) and scored.table.scores.tolist() == table.scores.tolist()


def test_topics_without_a_judgment_find_what_a_join_would():
    """The doctor does not join a run with qrels that judge nothing (a shared task's public topics): it finds what
    qrels judging only documents the run never ranks, as not relevant, give."""
    lines = clean_lines(topics=(1, 3)) + ["9 Q0 d1 1 1 clean"]
    block = run_block(("\n".join(lines) + "\n").encode(), "run.txt", ranks=True)
    from irlab.sharedtask.scoring import topics_only

    nothing = doctor(topics_only(["1", "2", "3"]), {"run.txt": block})
    elsewhere = doctor(parse_qrels(b"1 0 other 0\n2 0 other 0\n3 0 other 0\n"), {"run.txt": block})
    assert [f for f in nothing if f.run] == [f for f in elsewhere if f.run]
    assert {f.check: f for f in nothing}["judged-at-10"].what == (
        "run.txt has Judged@10 = 0.0%: 20 documents in the top 10 of its topics without a judgment")


def test_each_finding_is_one_line():
    finding = examine(clean_lines(topics=(1,)))["missing-topics"]
    assert "\n" not in finding.line() and finding.line().startswith("run.txt misses 2 of the 3 judged topics")
    assert "Why it matters: " in finding.line() and "What to do: " in finding.line()


def test_coverage_gives_each_mean_with_and_without_the_missed_topics():
    qrels = parse_qrels(b"1 0 a 1\n2 0 b 1\n3 0 c 1\n4 0 d 1\n")
    run = parse_run(b"1 Q0 a 1 2 r\n1 Q0 x 2 1 r\n2 Q0 y 1 2 r\n2 Q0 b 2 1 r\n9 Q0 a 1 1 r\n", "r")
    measures = {"AP": parse_measure("AP"), "GMAP": parse_measure("GMAP"), "NumQ": parse_measure("NumQ")}
    for complete in (True, False):
        c = coverage(evaluate_tables(qrels, run, measures, complete=complete))
        assert c.judged == 4 and c.ranked == 2 and c.missed == ("3", "4") and c.unjudged == 1
        assert c.means["AP"] == (pytest.approx(0.375), pytest.approx(0.75)) and "NumQ" not in c.means
        assert c.means["GMAP"][0] < c.means["GMAP"][1]
    assert coverage(evaluate_tables(qrels, run, measures)).sentence(["AP"]) == (
        "r ranks 2 of the 4 judged topics; the 2 it misses (3, 4) count 0: AP 0.3750 over all 4, 0.7500 over the "
        "2 it ranks.")


def test_the_doctor_command(tmp_path, capsys):
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("".join(f"{t} 0 d{d} {int(d < 3)}\n" for t in (1, 2, 3) for d in range(12)))
    run = tmp_path / "run.txt"
    run.write_text("\n".join(clean_lines(topics=(1, 2))) + "\n")
    assert main(["doctor", str(qrels), str(run)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"{run} misses 1 of the 3 judged topics (3). Why it matters:")
    assert out[-1] == "1 finding in 1 run and the qrels" and sum(line.startswith("ok: ") for line in out) == 8
    clean = tmp_path / "clean.txt"
    clean.write_text("\n".join(clean_lines()) + "\n")
    assert main(["doctor", str(qrels), str(clean)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "nothing found"
    swapped = subprocess.run([sys.executable, "-m", "irlab", "doctor", str(run), str(qrels)], capture_output=True,
                             text=True, cwd=ROOT)
    assert swapped.returncode == 2 and "looks like a run file" in swapped.stderr and "Traceback" not in swapped.stderr
