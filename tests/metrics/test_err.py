"""ERR (expected reciprocal rank) equals ir_measures' ERR, which runs gdeval.pl, the TREC Web track's script.

Oracle: ir_measures (a test dependency) on its own test cases and on trec_eval's test run, to the 5 decimals
gdeval prints (4 in the command line's output). The definitions agree where gdeval answers: grades up to 4 (it
refuses others; so do we, under its mapping), queries with a relevant document (gdeval leaves the others out; we
score them 0 and count them, trec_eval's convention), and K given (gdeval needs one).
"""

from __future__ import annotations

import shutil

import pytest

from irlab.errors import ValidationError
from irlab.metrics.conventions import CONVENTIONS, default_variant
from irlab.metrics.err import explain_err_at_k
from irlab.metrics.measure_names import parse_measure
from irlab.runs.evaluate import evaluate_tables
from irlab.runs.trec import parse_qrels, parse_run, read_qrels_file, read_run_file
from tests.cli.conftest import run_command

# ir_measures' test_ERR in test_gdeval.py of its tests folder (github.com/terrierteam/ir_measures): its qrels, its
# run, and the values it expects from gdeval (5 decimals, as gdeval prints them).
IR_MEASURES_QRELS = b"""0 0 D0 0
0 0 D1 1
0 0 D2 1
0 0 D3 2
0 0 D4 0
1 0 D0 1
1 0 D3 2
1 0 D5 2
"""
IR_MEASURES_RUN = b"""0 0 D0 1 0.8 run
0 0 D2 2 0.7 run
0 0 D1 3 0.3 run
0 0 D3 4 0.4 run
0 0 D4 5 0.1 run
1 0 D1 1 0.8 run
1 0 D3 2 0.7 run
1 0 D4 3 0.3 run
1 0 D2 4 0.4 run
"""
IR_MEASURES_EXPECTED = {"ERR@20": ({"0": 0.10175, "1": 0.09375}, 0.09775),
                        "ERR@2": ({"0": 0.03125, "1": 0.09375}, 0.0625)}


def _ours(qrels, run, name: str) -> tuple[dict[str, float], float]:
    evaluation = evaluate_tables(qrels, run, {name: parse_measure(name)}, complete=False)
    return dict(zip(evaluation.queries, evaluation.per_query[name].tolist())), evaluation.summary[name]


@pytest.mark.parametrize("name", sorted(IR_MEASURES_EXPECTED))
def test_ir_measures_own_test_cases(name):
    per_query, mean = IR_MEASURES_EXPECTED[name]
    ours, our_mean = _ours(parse_qrels(IR_MEASURES_QRELS), parse_run(IR_MEASURES_RUN), name)
    assert {query: round(value, 5) for query, value in ours.items()} == per_query
    assert round(our_mean, 5) == mean


def test_the_first_case_by_hand():
    """Query 0 ranks D0 (0), D2 (1), D3 (2), D1 (1), D4 (0) by score (the rank column is ignored):
    R = 0, 1/16, 3/16, 1/16, 0; ERR = (1/16)/2 + (3/16)(15/16)/3 + (1/16)(15/16)(13/16)/4."""
    expected = (1 / 16) / 2 + (3 / 16) * (15 / 16) / 3 + (1 / 16) * (15 / 16) * (13 / 16) / 4
    explained = explain_err_at_k(["D0", "D2", "D3", "D1", "D4"], {"D0": 0, "D1": 1, "D2": 1, "D3": 2, "D4": 0}, 20)
    assert explained.value == pytest.approx(expected, abs=1e-15) and round(expected, 5) == 0.10175
    assert [row["reach"] for row in explained.rows][:4] == [1.0, 1.0, 15 / 16, 15 / 16 * 13 / 16]
    assert explained.plugged_text.startswith(
        "ERR@20 ≈ (0.0625 * 1) / 2 + (0.1875 * 0.9375) / 3 + (0.0625 * 0.7617) / 4")


def _gdeval():
    ir_measures = pytest.importorskip("ir_measures", reason="ir_measures is the ERR oracle (pip install -e .[test])")
    if shutil.which("perl") is None:
        pytest.skip("ir_measures computes ERR with gdeval.pl, which needs perl")
    return ir_measures


@pytest.mark.parametrize("qrels", ["qrels.test", "qrels.rel_level"])
@pytest.mark.parametrize("k", [1, 5, 10, 20, 100, 1000])
def test_trec_evals_test_run_equals_ir_measures(qrels, k, trec_eval_test):
    """Binary qrels (qrels.test) and grades 0-4 with -1 (qrels.rel_level): every query gdeval scores, to 5 decimals,
    and the mean over them."""
    ir_measures = _gdeval()
    name = f"ERR@{k}"
    theirs = {m.query_id: m.value for m in ir_measures.gdeval.iter_calc(
        [ir_measures.parse_measure(name)], ir_measures.read_trec_qrels(str(trec_eval_test / qrels)),
        ir_measures.read_trec_run(str(trec_eval_test / "results.test")))}
    ours, mean = _ours(read_qrels_file(trec_eval_test / qrels), read_run_file(trec_eval_test / "results.test"), name)
    assert theirs and {query: round(ours[query], 5) for query in theirs} == theirs
    assert round(mean, 4) == round(sum(theirs.values()) / len(theirs), 4)  # every test query has relevant documents


def test_the_command_line_prints_ir_measures_values(trec_eval_test, capsys):
    ir_measures = _gdeval()
    qrels, run = trec_eval_test / "qrels.rel_level", trec_eval_test / "results.test"
    status, out, err = run_command("evaluate", ["-q", "-m", "ERR@20", str(qrels), str(run)], capsys)
    assert status == 0 and not err
    printed = {line.split()[1]: float(line.split()[2]) for line in out.splitlines()}
    theirs = {m.query_id: m.value for m in ir_measures.gdeval.iter_calc(
        [ir_measures.ERR @ 20], ir_measures.read_trec_qrels(str(qrels)), ir_measures.read_trec_run(str(run)))}
    assert {query: printed[query] for query in theirs} == {query: round(value, 4) for query, value in theirs.items()}


def test_random_collections_equal_ir_measures():
    """Grades -1..4, ties, unjudged documents, several K: gdeval's ERR for every query it scores."""
    import random

    ir_measures = _gdeval()
    rng = random.Random(36)
    qrels_lines, run_lines = [], []
    for query in range(1, 13):
        docs = [f"d{i}" for i in range(rng.randint(3, 30))]
        for doc in rng.sample(docs, rng.randint(1, len(docs))):
            qrels_lines.append(f"{query} 0 {doc} {rng.choice([-1, 0, 0, 1, 2, 3, 4])}")
        for rank, doc in enumerate(rng.sample(docs, rng.randint(1, len(docs))), start=1):
            run_lines.append(f"{query} Q0 {doc} {rank} {rng.choice([1.0, 0.5, rng.random()])} r")
    qrels_text, run_text = "\n".join(qrels_lines) + "\n", "\n".join(run_lines) + "\n"
    for k in (1, 3, 10, 50):
        name = f"ERR@{k}"
        theirs = {m.query_id: m.value for m in ir_measures.gdeval.iter_calc(
            [ir_measures.parse_measure(name)], ir_measures.read_trec_qrels(qrels_text),
            ir_measures.read_trec_run(run_text))}
        ours, _ = _ours(parse_qrels(qrels_text.encode()), parse_run(run_text.encode()), name)
        assert {query: round(ours[query], 5) for query in theirs} == theirs, k


def test_the_grade_mapping_is_a_named_convention():
    assert default_variant("err_grades") == "gdeval"
    assert [variant.name for variant in CONVENTIONS["err_grades"]] == ["gdeval", "query-max"]
    binary = {"a": 0, "b": 1}
    assert explain_err_at_k(["a", "b"], binary).value == (1 / 16) / 2  # gdeval: R(1) = 1/16
    assert explain_err_at_k(["a", "b"], binary, grades="query-max").value == 0.25  # R(1) = 1/2


def test_a_grade_above_four_is_refused_under_gdevals_mapping():
    with pytest.raises(ValidationError, match="grades up to 4"):
        explain_err_at_k(["a"], {"a": 5})
    assert explain_err_at_k(["a"], {"a": 5}, grades="query-max").value == 31 / 32
    with pytest.raises(ValidationError, match="grades up to 4"):
        _ours(parse_qrels(b"1 0 a 5\n"), parse_run(b"1 Q0 a 1 1 r\n"), "ERR@5")


def test_no_relevant_document_scores_zero_and_counts():
    ours, mean = _ours(parse_qrels(b"1 0 a 1\n2 0 b 0\n"), parse_run(b"1 Q0 a 1 1 r\n2 Q0 b 1 1 r\n"), "ERR@5")
    assert ours == {"1": 1 / 16, "2": 0.0} and mean == 1 / 32  # rank 1: R(1) = 1/16, divided by 1
