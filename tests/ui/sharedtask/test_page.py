"""The shared task page under AppTest: a lecturer's and a student's views, and what a student must not see."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from irlab.runs.simulate import simulate
from irlab.sharedtask.store import TaskStore

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def task(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'classes.sqlite'}"
    monkeypatch.setenv("IRLAB_CLASS_DB", url)
    found = simulate(topics=10, systems={"good": 1.0, "bm25": 0.5}, depth=30, seed=2)
    qrels = ("\n".join(found.qrels_lines()) + "\n").encode()
    runs = {n: ("\n".join(found.run_lines(n)) + "\n").encode() for n in found.runs}
    store = TaskStore(url)
    new = store.create({"title": "Mini TREC <b>bold</b>", "measures": ["AP", "nDCG@10"],
                        "deadline": time.time() + 3600, "roster": ["ann", "bob"]}, qrels, "q.txt",
                       baseline=runs["bm25"])
    store.seat(new.code, new.tokens["ann"]).submit(runs["good"], "good.run")
    return store, new


def _open(params: dict) -> AppTest:
    at = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=60)
    at.run()
    for name, value in params.items():
        at.query_params[name] = value
    at.switch_page("pages/task.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_a_student_sees_their_run_and_the_primary_measure_only(task):
    _, new = task
    at = _open({"task": new.code, "student": new.tokens["ann"]})
    mine = at.dataframe[0].value
    assert mine["file"].tolist() == ["good.run"] and "AP" in mine.columns and "nDCG@10" not in mine.columns
    board = at.dataframe[1].value
    assert board["name"].tolist()[0] == "Student 1 (you)"
    assert not any("nDCG" in c for c in board.columns) and "(p " not in " ".join(board["AP vs baseline"])
    assert list(board.columns)[:4] == ["place", "name", "AP", "AP vs baseline"]  # what a phone's width shows
    assert any("1 of 3" in c.value or "2 of 3" in c.value for c in at.caption)
    assert not [b for b in at.get("download_button") if "qrels" in b.label]


def test_the_lecturer_sees_every_measure_and_p_values(task):
    _, new = task
    at = _open({"task": new.code, "key": new.key})
    board = next(d.value for d in at.dataframe if "place" in d.value.columns)
    assert {"nDCG@10 [95% interval]", "AP vs baseline"} <= set(board.columns)
    assert any("(p 0." in mark or "(p 1." in mark for mark in board["AP vs baseline"])  # the Holm-adjusted p
    students = next(d.value for d in at.dataframe if "roster name" in d.value.columns)
    assert set(students["roster name"]) == {"ann", "bob", "baseline"}
    assert any(m.label == "Runs scored" and m.value == "2" for m in at.metric)


def test_a_wrong_token_shows_nothing_of_the_task(task):
    _, new = task
    at = _open({"task": new.code, "student": "x" * 22})
    assert not at.dataframe
    assert any("not valid" in w.value for w in at.warning)
    assert all("Mini TREC" not in m.value for m in at.markdown)


def test_the_create_form_is_there_without_a_link(task):
    at = _open({})
    assert any(b.label == "Create the task" for b in at.get("form_submit_button")) or at.button
    assert any("Create a task" in s.value for s in at.subheader)


def test_a_class_student_joins_the_task_with_the_class_code(tmp_path, monkeypatch):
    from irlab.classroom import ClassStore

    url = f"sqlite:///{tmp_path / 'classes.sqlite'}"
    monkeypatch.setenv("IRLAB_CLASS_DB", url)
    started = ClassStore(url).start_class()
    found = simulate(topics=5, systems={"a": 1.0}, depth=10, seed=3)
    new = TaskStore(url).create({"title": "In class", "measures": ["AP"], "deadline": time.time() + 3600,
                                 "enrolment": "class", "class_code": started.code},
                                ("\n".join(found.qrels_lines()) + "\n").encode(), "q.txt", class_key=started.key)
    at = _open({"task": new.code})
    at.text_input(key="irl-task-enter-code").input(started.code.lower())
    at.text_input(key="irl-task-enter-name").input("Dee")
    at.get("form_submit_button")[0].click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("you are **Dee**" in m.value for m in at.markdown)
    assert at.query_params["student"]
    wrong = _open({"task": new.code})
    wrong.text_input(key="irl-task-enter-code").input("ZZZZZZ")
    wrong.get("form_submit_button")[0].click().run()
    assert wrong.error and not any("you are" in m.value for m in wrong.markdown)
