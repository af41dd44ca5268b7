"""The shared task's store: roles, limits, the deadline, releases, and the leaderboard's values (trec_eval's)."""

from __future__ import annotations

import gzip
import threading

import numpy as np
import pytest
import pytrec_eval

from irlab.classroom import ClassStore
from irlab.classroom.refusals import AccessDenied, ClassNotFound, RateLimited
from irlab.errors import ValidationError
from irlab.runs.trec import read_qrels_text, read_run_text
from irlab.sharedtask.disclosure import probe_bits
from irlab.sharedtask.store import FAILED, NOT_YOURS, TaskStore
from tests.sharedtask.conftest import DAY, settings

ORACLE = {"AP": "map", "nDCG@10": "ndcg_cut_10", "P@10": "P_10"}


def _new(tasks, clock, collection, **changes):
    qrels, runs = collection
    return tasks.create(settings(clock, **changes), qrels, "qrels.txt", baseline=runs["s3"])


def test_a_student_sees_only_the_primary_measure_their_own_runs_and_no_qrels_before_the_deadline(
        tasks, clock, collection):
    _, runs = collection
    new = _new(tasks, clock, collection)
    ann, bob = tasks.seat(new.code, new.tokens["ann"]), tasks.seat(new.code, new.tokens["bob"])
    receipt = ann.submit(runs["s0"], "good.txt")
    assert set(receipt.means) == {"AP"} and receipt.per_topic is None
    bob.submit(runs["s4"], "weak.txt")
    view = ann.view()
    assert view.shown_measures == ("AP",) and [s.name for s in view.submissions] == ["good.txt"]
    assert all(set(entry.means) == {"AP"} and entry.p_values is None for entry in view.board)
    assert [e.name for e in view.board] == ["Student 1", "baseline", "Student 2"]  # best first, anonymous
    assert [e.mine for e in view.board] == [True, False, False]
    assert [e.run for e in view.board] == ["good.txt (#1)", "baseline (#1)", "submission 1"]  # not bob's file name
    assert all(f.check in {"missing-topics", "unjudged-topics", "ties", "ranks", "duplicates", "depth"}
               for f in receipt.findings)
    with pytest.raises(AccessDenied):
        ann.qrels()
    desk = tasks.desk(new.code, new.key)
    full = desk.view()
    assert full.shown_measures == ("AP", "nDCG@10", "P@10") and len(full.submissions) == 3
    assert all(s.per_topic is not None for s in full.submissions)
    assert full.board[0].p_values is not None and full.board[0].versus["AP"] in "▲▼="


def test_leaderboard_values_equal_trec_evals(tasks, clock, collection):
    qrels, runs = collection
    new = _new(tasks, clock, collection)
    for name, system in (("ann", "s0"), ("bob", "s1"), ("cy", "s2")):
        tasks.seat(new.code, new.tokens[name]).submit(runs[system], f"{system}.txt")
    evaluator = pytrec_eval.RelevanceEvaluator(read_qrels_text(qrels.decode()), set(ORACLE.values()))
    board = tasks.desk(new.code, new.key).view().board
    assert len(board) == 4
    for entry in board:
        system = entry.run.split(".txt")[0] if not entry.baseline else "s3"
        per_query = evaluator.evaluate(read_run_text(runs[system].decode()))
        for ours, theirs in ORACLE.items():
            expected = np.mean([per_query[q][theirs] for q in sorted(per_query)])
            assert entry.means[ours] == pytest.approx(expected, abs=1e-12)
            assert f"{entry.means[ours]:.4f}" == f"{expected:.4f}"


def test_limits_are_enforced_by_the_store(tasks, clock, collection):
    qrels, runs = collection
    new = _new(tasks, clock, collection, max_submissions=2)
    ann = tasks.seat(new.code, new.tokens["ann"])
    ann.submit(runs["s0"], "a.txt")
    with pytest.raises(ValidationError, match="same as your submission 1"):
        ann.submit(gzip.compress(runs["s0"]), "again.txt.gz")  # the same text, packed: not scored again
    with pytest.raises(ValidationError):
        ann.submit(b"not a run at all\n", "bad.txt")  # refused for its format: costs nothing
    ann.submit(runs["s1"], "b.txt")
    with pytest.raises(ValidationError, match="all 2 submissions"):
        ann.submit(runs["s2"], "c.txt")
    assert [s.number for s in ann.view().submissions] == [1, 2]


def test_a_script_sending_broken_runs_is_stopped(tasks, clock, collection):
    new = _new(tasks, clock, collection)
    ann = tasks.seat(new.code, new.tokens["ann"])
    for i in range(FAILED.attempts):
        with pytest.raises(ValidationError):
            ann.submit(f"broken {i}\n".encode(), "x.txt")
    with pytest.raises(RateLimited):
        ann.submit(collection[1]["s0"], "good.txt")
    clock.advance(FAILED.window + 1)
    assert ann.submit(collection[1]["s0"], "good.txt").state == "scored"


def test_the_deadline_is_the_servers_and_releases_wait_for_it(tasks, clock, collection):
    _, runs = collection
    new = _new(tasks, clock, collection)
    ann = tasks.seat(new.code, new.tokens["ann"])
    ann.submit(runs["s0"], "a.txt")
    desk = tasks.desk(new.code, new.key)
    with pytest.raises(ValidationError, match="before the deadline"):
        desk.release(["qrels", "per_topic"])
    clock.advance(7 * DAY)
    with pytest.raises(ValidationError, match="deadline has passed"):
        ann.submit(runs["s1"], "late.txt")
    assert ann.view().submissions[0].per_topic is None and ann.view().shown_measures == ("AP",)
    desk.release(["per_topic"])
    mine = ann.view().submissions[0]
    assert mine.per_topic is not None and set(mine.per_topic) == {"AP"}
    with pytest.raises(AccessDenied):
        ann.qrels()
    desk.release(["qrels", "measures"])
    assert ann.qrels() == collection[0] and ann.view().shown_measures == ("AP", "nDCG@10", "P@10")
    with pytest.raises(ValidationError):
        desk.release(["everything"])


def test_nobody_gets_in_with_a_wrong_or_borrowed_token(tasks, clock, collection):
    new = _new(tasks, clock, collection)
    other = _new(tasks, clock, collection)
    for code, token in ((new.code, "x" * 22), (other.code, new.tokens["ann"]), ("ABCDEF", new.tokens["ann"]),
                        (new.code, new.key), (new.code, "a b"), (None, None), (new.code, "<script>")):
        with pytest.raises(AccessDenied) as refused:
            tasks.seat(code, token)
        assert str(refused.value) == NOT_YOURS  # the same words whatever was wrong
    with pytest.raises(AccessDenied):
        tasks.desk(new.code, new.tokens["ann"])
    assert "tokens" not in repr(new) and new.key not in repr(tasks.desk(new.code, new.key))


def test_two_uploads_at_once_cannot_both_take_the_last_slot(tasks, clock, collection):
    _, runs = collection
    new = _new(tasks, clock, collection, max_submissions=1)
    results = []

    def send(system: str) -> None:
        try:
            results.append(tasks.seat(new.code, new.tokens["ann"]).submit(runs[system], f"{system}.txt").state)
        except ValidationError as error:
            results.append(str(error))

    threads = [threading.Thread(target=send, args=(s,)) for s in ("s0", "s1", "s2")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results.count("scored") == 1 and len(tasks.desk(new.code, new.key).view().submissions) == 2  # + baseline


@pytest.mark.parametrize("data, message", [
    (gzip.compress(b"1 Q0 d 1 1 r\n" * 200_000), "unpacks to more than"),
    (b"\x00\x01binary", "not a text file"),
    (b"9999 Q0 d1 1 1.0 r\n", "none of the task's 20 topics"),
    (b"401 Q0 d1 1 1.0 r\n401 Q0 d1 2 0.5 r\n", "twice"),
    (b"401 Q0 d1 1 NaN r\n", "score"),
])
def test_hostile_runs_are_refused_with_a_message_about_the_file_only(tasks, clock, collection, data, message):
    new = _new(tasks, clock, collection, max_run_mb=1)
    ann = tasks.seat(new.code, new.tokens["ann"])
    with pytest.raises(ValidationError, match=message) as refused:
        ann.submit(data, "<img src=x onerror=alert(1)>.txt")
    assert "qrels" not in str(refused.value).lower()
    assert ann.view().submissions == ()


def test_a_script_bearing_name_is_stored_as_plain_text(tasks, clock, collection):
    _, runs = collection
    new = _new(tasks, clock, collection)
    ann = tasks.seat(new.code, new.tokens["ann"])
    ann.rename("<b>Ann</b>\u202e\x00")
    receipt = ann.submit(runs["s0"].replace(b" s0\n", b" <script>x</script>\n"), "=cmd|' /C calc'!A0.txt")
    board = ann.view().board
    assert board[0].name == "<b>Ann</b>"  # text: the page shows it as text, never HTML
    assert receipt.runid == "<script>x</script>"
    csv = tasks.desk(new.code, new.key).export_csv()
    assert "'=cmd" in csv  # a spreadsheet does not run it


def test_students_of_a_class_enter_with_their_class_seat(tasks, clock, collection, database_url):
    classes = ClassStore(database_url, clock=clock)
    started = classes.start_class()
    seat = classes.join(started.code, nickname="Dee")
    qrels, runs = collection
    new = tasks.create(settings(clock, enrolment="class", class_code=started.code, roster=[]), qrels, "q.txt",
                       class_key=started.key)
    mine = tasks.enrol(new.code, started.code, seat.token, "Dee")
    assert tasks.enrol(new.code, started.code, seat.token).view().me == "Dee"  # the same seat again
    mine.submit(runs["s1"], "dee.txt")
    assert tasks.seat(new.code, seat.token).view().submissions[0].name == "dee.txt"
    other = classes.start_class()
    stranger = classes.join(other.code)
    with pytest.raises(AccessDenied):
        tasks.enrol(new.code, other.code, stranger.token)
    with pytest.raises((AccessDenied, ClassNotFound)):
        tasks.create(settings(clock, enrolment="class", class_code=started.code, roster=[]), qrels, "q.txt",
                     class_key=other.key)  # only the class's own lecturer


def test_creating_tasks_is_rate_limited_and_settings_are_checked(tasks, clock, collection):
    qrels, _ = collection
    for bad in ({"measures": ["relstring"]}, {"deadline": clock.now - 1}, {"roster": []},
                {"roster": ["ann", "ann"]}, {"max_submissions": 21}, {"title": "x" * 200}):
        with pytest.raises(ValidationError):
            tasks.create(settings(clock, **bad), qrels, "q.txt")
    with pytest.raises(ValidationError):
        tasks.create(settings(clock), b"not qrels\n", "q.txt")
    for _ in range(20):
        tasks.create(settings(clock), qrels, "q.txt", session="s1")
    with pytest.raises(RateLimited):
        tasks.create(settings(clock), qrels, "q.txt", session="s1")


def test_the_probe_bound_grows_with_submissions_and_measures():
    assert probe_bits(submissions=3, measures=1) < probe_bits(submissions=3, measures=3) < probe_bits(
        submissions=20, measures=3)


def test_a_task_ends_after_its_keeping_time(tasks, clock, collection):
    new = _new(tasks, clock, collection, keep_days=1)
    clock.advance(8 * DAY + 1)
    assert tasks.version(new.code) is None
    with pytest.raises(AccessDenied):
        tasks.seat(new.code, new.tokens["ann"])
    assert tasks.purge_expired() >= 1


def test_pooled_runs_give_the_pooling_lab_each_students_best_top_documents(tasks, clock, collection):
    _, runs = collection
    new = _new(tasks, clock, collection)
    tasks.seat(new.code, new.tokens["ann"]).submit(runs["s0"], "a.txt")
    pooled = tasks.desk(new.code, new.key).pooled_runs()
    assert len(pooled) == 2
    original = read_run_text(runs["s0"].decode())
    table = next(run for name, run in pooled.items() if name.startswith("Student 1"))
    topic = table.query_ids[0]
    ranked = sorted(original[topic], key=lambda d: (-original[topic][d], [-ord(c) for c in d]))
    assert table.ranking(topic)[:10] == sorted(sorted(original[topic], reverse=True),
                                               key=lambda d: -original[topic][d])[:10]
    assert len(ranked) == len(table.ranking(topic))


def test_store_sizes_are_bounded(tasks, clock, collection):
    new = _new(tasks, clock, collection)
    with pytest.raises(ValidationError, match="unpacks to more than"):
        tasks.create(settings(clock), gzip.compress(b"1 0 d 1\n" * 15_000_000), "huge.gz")
    assert isinstance(TaskStore, type) and new.code


def test_a_store_at_version_1_gets_the_judging_tables(tmp_path):
    from sqlalchemy import create_engine, inspect, text

    from irlab.sharedtask import schema

    url = f"sqlite:///{tmp_path / 'old.sqlite'}"
    old = create_engine(url)
    with old.begin() as connection:
        for table in (schema.task_schema, schema.tasks, schema.participants):
            table.create(connection)
        columns = ", ".join(f"{c.name} {c.type.compile(old.dialect)}" for c in schema.submissions.columns
                            if c.name != "stats")  # version 1's shape
        connection.execute(text(f"CREATE TABLE task_submissions ({columns})"))
        connection.execute(text("INSERT INTO irlab_task_schema (version) VALUES (1)"))
    old.dispose()
    TaskStore(url)
    names = set(inspect(create_engine(url)).get_table_names())
    assert {"task_pools", "task_judgments"} <= names
    assert "stats" in {c["name"] for c in inspect(create_engine(url)).get_columns("task_submissions")}
    with create_engine(url).connect() as connection:
        assert connection.execute(text("SELECT version FROM irlab_task_schema")).scalar() == schema.SCHEMA_VERSION


def test_intervals_and_p_values_are_computed_once_and_kept_in_the_store(tasks, clock, collection, monkeypatch):
    from irlab.sharedtask import store as task_store

    _, runs = collection
    new = _new(tasks, clock, collection)
    tasks.seat(new.code, new.tokens["ann"]).submit(runs["s0"], "a.txt")
    first = tasks.desk(new.code, new.key).view().board
    task_store._BOARDS.clear()
    task_store._FIXED.clear()  # a new process: nothing remembered but the store

    def refuse(*args, **kwargs):
        raise AssertionError("computed again")

    monkeypatch.setattr(task_store, "bootstrap_interval", refuse)
    monkeypatch.setattr(task_store, "paired_p", refuse)
    again = tasks.desk(new.code, new.key).view().board
    assert [(e.means, e.intervals, e.p_values) for e in again] == [(e.means, e.intervals, e.p_values) for e in first]


def test_a_submission_keeps_every_measures_interval_so_the_lecturers_first_view_computes_none(
        tasks, clock, collection, monkeypatch):
    from irlab.runs.significance import bootstrap_interval
    from irlab.sharedtask import store as task_store

    _, runs = collection
    new = _new(tasks, clock, collection)
    receipt = tasks.seat(new.code, new.tokens["ann"]).submit(runs["s0"], "a.txt")
    assert set(receipt.intervals) == {"AP"}  # the student is shown the primary measure only
    task_store._BOARDS.clear()
    task_store._FIXED.clear()  # a new process: nothing remembered but the store

    def refuse(*args, **kwargs):
        raise AssertionError("an interval computed when the lecturer looked")

    monkeypatch.setattr(task_store, "bootstrap_interval", refuse)
    view = tasks.desk(new.code, new.key).view()
    mine = next(s for s in view.submissions if s.name == "a.txt")
    assert set(mine.intervals) == {"AP", "nDCG@10", "P@10"}
    for measure, values in mine.per_topic.items():  # the same interval as computed from the per-topic values
        assert mine.intervals[measure] == bootstrap_interval(values)
