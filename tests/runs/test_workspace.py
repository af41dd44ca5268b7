"""The runs page's workspace: trec_eval's numbers, one query explained with the same number, uploads checked."""

from __future__ import annotations

import gzip

import numpy as np
import pytest

from irlab.errors import ValidationError
from irlab.metrics.measure_names import parse_measure
from irlab.runs.evaluate import evaluate_tables
from irlab.runs.trec import parse_qrels, parse_run
from irlab.runs.workspace import MAX_CACHED, MAX_JOINS, Options, Workspace, measure_at, read_upload

MEASURES = ["AP", "P@10", "nDCG@10", "RR", "R@100", "Bpref", "nDCG", "Rprec", "infAP", "AP@5", "Success@3"]
QRELS = b"q1 0 a 2\nq1 0 b 0\nq1 0 c 1\nq1 0 z 1\nq2 0 d 1\nq2 0 e -1\nq3 0 f 1\n"
RUN = b"q1 Q0 a 1 3 r\nq1 Q0 x 2 2 r\nq1 Q0 c 3 2 r\nq2 Q0 e 1 5 r\nq2 Q0 d 2 4 r\nq9 Q0 a 1 1 r\n"


@pytest.fixture(scope="module")
def sample() -> Workspace:
    return Workspace.sample()


@pytest.mark.parametrize("options", [Options(), Options(relevance_level=2), Options(complete=True)])
def test_summary_is_the_batch_engine(sample, options):
    rows = sample.summary(MEASURES, options)
    assert [r["run"] for r in rows] == ["bm25-tuned", "bm25", "tfidf-baseline"]
    for row in rows:
        expected = evaluate_tables(sample.qrels, sample.runs[row["run"]], {m: parse_measure(m) for m in MEASURES},
                                   relevance_level=options.relevance_level, complete=options.complete)
        assert {m: row[m] for m in MEASURES} == expected.summary


@pytest.mark.parametrize("options", [Options(), Options(relevance_level=2), Options(complete=True)])
def test_every_query_explained_gives_the_per_query_value(options):
    ws = Workspace(parse_qrels(QRELS), {"r": parse_run(RUN, "r")})
    for measure in MEASURES:
        values = ws.values("r", measure, options)
        for q, query in enumerate(ws.judged("r", options).queries):
            view = ws.explain("r", query, measure, options)
            assert view.value == values[q]
            assert view.breakdown.value == pytest.approx(view.value, abs=1e-12), (measure, query)


def test_sample_queries_explained_equal_the_kernel(sample):
    for measure in ("AP", "nDCG@10", "Bpref", "R@100"):
        values = sample.values("bm25", measure)
        for q, query in enumerate(sample.judged("bm25").queries[:15]):
            assert sample.explain("bm25", query, measure).breakdown.value == pytest.approx(values[q], abs=1e-12)


def test_query_view_lists_ranking_missed_and_ideal():
    ws = Workspace(parse_qrels(QRELS), {"r": parse_run(RUN, "r")})
    view = ws.explain("r", "q1", "R@10")
    assert [(d.rank, d.doc, d.grade) for d in view.ranking] == [(1, "a", 2), (2, "x", None), (3, "c", 1)]
    assert view.missed == (("z", 1),) and view.num_rel == 3 and view.retrieved == 3
    assert view.ideal == (("a", 2), ("c", 1), ("z", 1))
    assert view.value == pytest.approx(2 / 3)


def test_what_if_reorders_the_top_and_keeps_the_rest():
    ws = Workspace(parse_qrels(QRELS), {"r": parse_run(RUN, "r")})
    actual = ws.explain("r", "q1", "RR")
    moved = ws.explain("r", "q1", "RR", order=["x", "a"])
    assert actual.value == 1.0 and moved.value == 0.5
    assert [d.doc for d in moved.ranking] == ["x", "a", "c"]


def test_compare_counts_every_judged_query_unless_told_otherwise():
    qrels = parse_qrels(QRELS)
    other = parse_run(b"q1 Q0 c 1 3 s\nq3 Q0 f 1 1 s\n", "s")
    ws = Workspace(qrels, {"r": parse_run(RUN, "r"), "s": other})
    assert ws.compare("r", "s", "AP").queries == ("q1", "q2", "q3")  # as TREC reports: a missed query counts 0
    assert ws.compare("r", "s", "AP", Options(complete=False)).queries == ("q1",)
    with pytest.raises(ValidationError):
        ws.compare("r", "r", "AP")


def test_per_query_rows_and_difference():
    ws = Workspace(parse_qrels(QRELS), {"r": parse_run(RUN, "r"), "s": parse_run(b"q1 Q0 c 1 3 s\n", "s")})
    rows = ws.per_query("P@1", ["r", "s"], Options(complete=False))
    assert rows == [{"query": "q1", "r": 1.0, "s": 1.0, "difference": 0.0},
                    {"query": "q2", "r": 0.0, "s": None, "difference": None}]
    rows = ws.per_query("P@1", ["r", "s"])  # by default a query the run misses counts, as 0
    assert rows[1] == {"query": "q2", "r": 0.0, "s": 0.0, "difference": 0.0}


def test_runs_apart_from_the_qrels_are_named_not_evaluated():
    ws = Workspace(parse_qrels(QRELS), {"r": parse_run(RUN, "r"), "other": parse_run(b"t7 Q0 a 1 1 s\n", "other")})
    assert ws.usable_runs() == ("r",)
    assert [row["run"] for row in ws.summary(["AP"])] == ["r"]


def test_caches_are_bounded(sample):
    for k in range(1, MAX_CACHED + 20):
        sample.values("bm25", f"P@{k}")
    assert len(sample._values) <= MAX_CACHED
    for level in range(1, 4):
        for complete in (False, True):
            for run in sample.run_names:
                sample.judged(run, Options(level, complete))
    assert len(sample._joins) <= MAX_JOINS


def test_with_run_names_duplicates_apart():
    ws = Workspace(parse_qrels(QRELS)).with_run("run.txt", parse_run(RUN)).with_run("run.txt", parse_run(RUN))
    assert ws.run_names == ("run.txt", "run.txt (2)")


def test_measure_at():
    assert str(measure_at("nDCG@10", 3)) == "nDCG@3" and str(measure_at("P_5", 20)) == "P@20"
    assert str(measure_at("Bpref", 3)) == "Bpref"


class TestReadUpload:
    def test_qrels_in_the_runs_slot_is_named(self):
        with pytest.raises(ValidationError, match="looks like a qrels file.*put it under Qrels"):
            read_upload(QRELS, "qrels.txt", "run", limit=1 << 20, mixed_up="; put it under Qrels")

    def test_run_in_the_qrels_slot_is_named(self):
        with pytest.raises(ValidationError, match="looks like a run file"):
            read_upload(RUN, "run.txt", "qrels", limit=1 << 20)

    def test_gzip_is_unpacked_and_progress_reported(self):
        said = []
        table = read_upload(gzip.compress(RUN), "run.gz", "run", limit=1 << 20, progress=said.append)
        assert len(table) == 6 and said[0] == "Unpacking run.gz" and any("Ranking" in s for s in said)

    @pytest.mark.parametrize("data, message", [
        (b"\x89PNG\r\n\x1a\n\x00\x00", "not a text file"),
        (b"", "empty"),
        (b"q1 Q0 a 1 1 r\nq1 Q0 a 2 0.5 r\n", "appears twice"),
        (b"q1 Q0 a 1 high r\n", "run.txt:1"),
        (b"x" * 5000, "more than"),
        (gzip.compress(b"q1 Q0 a 1 1 r\n" * 1000, mtime=0), "unpacks to more than"),
        (b"\x1f\x8b not really gzip", "not a readable gzip file"),
    ])
    def test_bad_files_give_a_message(self, data, message):
        with pytest.raises(ValidationError, match=message):
            read_upload(data, "run.txt", "run", limit=4096)


def test_sample_is_simulated_and_different_in_quality(sample):
    means = {row["run"]: row["AP"] for row in sample.summary(["AP"])}
    assert means["bm25-tuned"] > means["bm25"] > means["tfidf-baseline"]
    assert sample.compare("bm25", "tfidf-baseline", "AP").randomisation_p < 0.05
    assert sample.compare("bm25", "bm25-tuned", "AP").randomisation_p > 0.05
    assert "simulated" in sample.label
    assert np.max(sample.qrels.grades) == 3
