"""The runs page under AppTest: trec_eval's numbers, one query explained, comparisons, uploads and bad files."""

from __future__ import annotations

import gzip
import re

import pytest

from irlab import evaluate
from irlab.runs.trec import read_qrels_text, read_run_text
from irlab.runs.workspace import DEFAULT_MEASURES, Workspace

QRELS = "q1 0 a 2\nq1 0 b 0\nq1 0 c 1\nq1 0 z 1\nq2 0 d 1\nq2 0 e 0\nq3 0 f 1\nq3 0 g 2\n"
RUN_A = "q1 Q0 a 1 3 A\nq1 Q0 x 2 2 A\nq1 Q0 c 3 1 A\nq2 Q0 e 1 5 A\nq2 Q0 d 2 4 A\nq3 Q0 g 1 2 A\n"
RUN_B = "q1 Q0 c 1 3 B\nq1 Q0 a 2 2 B\nq2 Q0 d 1 5 B\nq3 Q0 h 1 2 B\nq3 Q0 f 2 1 B\n"
EVIL = "<img/src=x/onerror=alert(1)>"  # no spaces: TREC ids are one field
TAB = "irlab.runs.w.tab"


def _upload(at, qrels: str | bytes | None, runs: list[tuple[str, str | bytes]]):
    at.radio(key="irlab.runs.w.source").set_value("My files").run()
    if qrels is not None:
        data = qrels.encode() if isinstance(qrels, str) else qrels
        at.file_uploader(key="irlab.runs.w.qrels").set_value(("qrels.txt", data, "text/plain")).run()
    if runs:
        at.file_uploader(key="irlab.runs.w.runs").set_value(
            [(name, text.encode() if isinstance(text, str) else text, "text/plain") for name, text in runs]).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _summary(at) -> dict[str, dict[str, float]]:
    frame = at.dataframe[0].value
    return {row["run"]: {m: row[m] for m in DEFAULT_MEASURES} for _, row in frame.iterrows()}


def test_opens_on_the_labelled_sample_with_trec_eval_numbers(open_page):
    at = open_page("runs")
    assert any("Simulated data" in i.body for i in at.info)
    expected = Workspace.sample().summary(list(DEFAULT_MEASURES))
    assert _summary(at) == {row["run"]: {m: row[m] for m in DEFAULT_MEASURES} for row in expected}


def test_uploaded_runs_summary_equals_irlab_evaluate(open_page):
    at = _upload(open_page("runs"), QRELS, [("a.txt", RUN_A), ("b.txt.gz", gzip.compress(RUN_B.encode()))])
    shown = _summary(at)
    assert list(shown) == ["a.txt", "b.txt.gz"]
    for name, text in (("a.txt", RUN_A), ("b.txt.gz", RUN_B)):
        expected = evaluate(read_qrels_text(QRELS), read_run_text(text), list(DEFAULT_MEASURES),
                            missing_queries="ignore")
        assert shown[name] == pytest.approx(expected, abs=0, rel=0)


def test_query_view_value_equals_the_per_query_value(open_page):
    at = _upload(open_page("runs"), QRELS, [("a.txt", RUN_A), ("b.txt", RUN_B)])
    at.session_state[TAB] = "Per query"
    at.run()
    per_query = evaluate(read_qrels_text(QRELS), read_run_text(RUN_A), "AP", per_query=True,
                         missing_queries="ignore")["AP"]
    for query in ("q1", "q2", "q3"):
        at.selectbox(key="irlab.runs.w.query").set_value(query).run()
        shown = {m.label: m.value for m in at.metric}
        assert shown["AP"] == f"{per_query[query]:.4f}"
    assert any("Relevant, never retrieved" in m.value for m in at.markdown)
    frame = at.dataframe[0].value
    assert list(frame["query"]) == ["q1", "q2", "q3"]
    assert frame["difference"].tolist() == pytest.approx(
        [frame["b.txt"][i] - frame["a.txt"][i] for i in range(3)])


def test_the_tiles_come_with_the_runs_scores_and_the_tie_rule(open_page):
    """Issue 37: the file's rank 1 was not the page's, with no score and no word on trec_eval's tie rule."""
    tied = "q1 Q0 a 1 2.5 T\nq1 Q0 c 2 2.5 T\nq1 Q0 z 3 2.5 T\nq1 Q0 b 4 0.125 T\nq2 Q0 d 1 1 T\nq3 Q0 f 1 1 T\n"
    at = _upload(open_page("runs"), QRELS, [("tied.txt", tied)])
    at.session_state[TAB] = "Per query"
    at.run()
    at.selectbox(key="irlab.runs.w.query").set_value("q1").run()
    assert any("by score, highest first; documents with equal scores by document id" in c.value for c in at.caption)
    scores = next(e for e in at.expander if "scores of these 4" in e.label)
    assert "some are tied" in scores.label
    table = scores.markdown[0].value
    rows = [line.replace("\\", "").split(" | ") for line in table.splitlines()[2:]]  # as shown: escapes gone
    # the file ranks a, c, z first; trec_eval: equal scores by id, the later id first: z, c, a
    assert [row[1] for row in rows] == ["z", "c", "a", "b"]
    assert [row[2] for row in rows] == ["2.5 (tied)"] * 3 + ["0.125"]


def test_changing_k_changes_the_measure(open_page):
    at = open_page("runs", {"run": "bm25", "query": "405", "measure": "nDCG@10", "k": "5"})
    shown = {m.label: m.value for m in at.metric}
    ws = Workspace.sample()
    q = ws.judged("bm25").queries.index("405")
    assert shown["nDCG@5"] == f"{ws.values('bm25', 'nDCG@5')[q]:.4f}"
    assert at.query_params["k"] == ["5"] or at.query_params["k"] == "5"


def test_compare_tab_shows_tests_and_verdict(open_page):
    at = open_page("runs", {"a": "tfidf-baseline", "b": "bm25"})
    labels = {m.label: m.value for m in at.metric}
    c = Workspace.sample().compare("tfidf-baseline", "bm25", "AP")
    assert labels["Mean difference B − A"] == f"{c.mean_difference:+.4f}"
    assert labels["B wins / ties / losses"] == f"{c.wins} / {c.ties} / {c.losses}"
    text = " ".join(m.value for m in at.markdown)
    assert "Wilcoxon" in text and "statistically significant" in text and "Holm" in text


@pytest.mark.parametrize("runs, message", [
    ([("qrels-by-mistake.txt", QRELS)], "looks like a qrels file"),
    ([("bad.txt", "q1 Q0 a 1 high A\n")], "bad.txt:1"),
    ([("twice.txt", "q1 Q0 a 1 1 A\nq1 Q0 a 2 0.5 A\n")], "appears twice"),
    ([("picture.png", b"\x89PNG\r\n\x1a\n\x00\x00\x00")], "not a text file"),
])
def test_bad_runs_give_a_message_and_keep_what_is_loaded(open_page, runs, message):
    at = _upload(open_page("runs"), QRELS, [("a.txt", RUN_A)])
    before = _summary(at)
    at.file_uploader(key="irlab.runs.w.runs").set_value(
        [("a.txt", RUN_A.encode(), "text/plain")] + [(n, t.encode() if isinstance(t, str) else t, "text/plain")
                                                      for n, t in runs]).run()
    assert not at.exception
    assert any(message in e.body.replace("\\", "") for e in at.error), [e.body for e in at.error]
    assert _summary(at) == before


def test_bad_qrels_keeps_the_previous_qrels(open_page):
    at = _upload(open_page("runs"), QRELS, [("a.txt", RUN_A)])
    before = _summary(at)
    at.file_uploader(key="irlab.runs.w.qrels").set_value(("run-by-mistake.txt", RUN_A.encode(), "text/plain")).run()
    assert any("looks like a run file" in e.body.replace("\\", "") and "still used" in e.body for e in at.error)
    assert _summary(at) == before


def test_a_run_for_other_topics_is_named(open_page):
    at = _upload(open_page("runs"), QRELS, [("a.txt", RUN_A), ("other.txt", "t9 Q0 a 1 1 X\n")])
    assert any("other.txt ranks no query" in w.body.replace("\\", "") for w in at.warning)
    assert list(_summary(at)) == ["a.txt"]


def test_evil_ids_are_text(open_page):
    qrels = QRELS + f"q1 0 {EVIL} 1\n"
    run = RUN_A + f"q1 Q0 {EVIL} 4 0.5 A\n"
    at = _upload(open_page("runs"), qrels, [(f"{EVIL}.txt", run)])
    at.session_state[TAB] = "Per query"
    at.run()
    assert not at.exception
    markdown = " ".join(m.value for m in at.markdown)
    assert markdown.count("\\<img") >= 2  # the run's name and the document, in the rank table
    assert re.search(r"(?<!\\)<img", markdown) is None  # every < escaped: Markdown shows it as text


def test_hostile_link_gives_notices_not_errors(open_page):
    at = open_page("runs", {"k": "１０", "run": "nope", "zzz": "1", "measure": "Bogus@3"})
    notices = " ".join(w.body for w in at.warning)
    assert "digits 0\\-9" in notices and "zzz" in notices and "Bogus" in notices


def test_the_per_query_table_has_every_run_and_the_difference(open_page):
    at = open_page("runs", {"run": "bm25", "measure": "AP"})
    frame = at.dataframe[0].value
    assert list(frame.columns) == ["query", "bm25", "bm25-tuned", "tfidf-baseline", "difference"]
    ws = Workspace.sample()
    assert frame["difference"].tolist() == pytest.approx((frame["bm25-tuned"] - frame["bm25"]).tolist())
    assert frame["bm25"].tolist() == pytest.approx(list(ws.values("bm25", "AP")))
