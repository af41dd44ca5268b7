"""/class and /join under AppTest for the kinds of issue 24, by role: order the pictures, which is it, an exercise.

Each test has a store of its own (``class_db``); the helpers are tests/ui/classroom/conftest.py's.
"""

from __future__ import annotations

import csv
import io
import json

import pytest

from irlab.classroom import ClassStore
from irlab.errors import ValidationError
from irlab.exercises import answer_key
from tests.ui.classroom.conftest import plain, said

BEST = "2,5,4,7,8,3,6,1"  # "white cat in a box" by grade: the best order for NDCG@K


def figure(block: dict) -> dict:
    """A chart block's Plotly figure (the region's data carries it as an object, once as JSON text)."""
    found = block["figure"]
    return json.loads(found) if isinstance(found, str) else found


def test_order_the_pictures_from_both_sides(lecturer, student_of, class_db):
    students = [student_of(lecturer) for _ in range(3)]
    lecturer.add_kind("order", goal="best-ndcg")
    assert next(b for b in lecturer.region() if b["key"] == "prompt")["text"].startswith("Drag the pictures")
    first = students[0].run()
    assert [e.proto.component_name for e in first.at.get("bidi_component")] == [
        "irlab.classfeed", "irlab.tiles", "irlab.classanswer"]
    assert first.form()["form"] == {"kind": "order", "label": "Your order", "tiles": first.form()["form"]["tiles"],
                                    "send": "Send this order"}
    for student, order in zip(students, (BEST, "2,1,3,4,5,6,7,8", BEST)):
        student.run().send_order(order)
        assert student.receipt.startswith(f"Answer received: {order}")
    first.send_order("1,1,2,3,4,5,6,7")  # not an order: refused, and the one it had stays
    assert first.status == 422 and "Picture 1 is in the order twice" in first.receipt
    assert first.form()["stored_text"] == BEST
    seat = ClassStore(class_db).student(lecturer.code, first.token)  # a script calling the store directly
    round_id = seat.view().activity.round_id
    for hostile, problem in (("1,1,2,3,4,5,6,7", "Picture 1 is in the order twice"),
                             ("1,2,3,4,5,6,7,x", "There is no picture 'x'"), (["<b>"] * 8, "no picture '<b>'")):
        with pytest.raises(ValidationError, match=problem):
            seat.answer(round_id, hostile)
    assert lecturer.run().counts() == {"Students joined": "3", "Answers, round 1": "3"}
    assert not any(b["kind"] == "chart" for b in lecturer.region())  # nothing distributional before the reveal

    lecturer.control("Reveal")
    blocks = {b["key"]: b for b in lecturer.region()}
    assert blocks["round-1-met"]["text"] == "2 of 3 (67%)"
    heat = figure(blocks["round-1-heat"])["data"][0]
    assert heat["type"] == "heatmap" and heat["z"][1][0] == 3  # picture 2 at rank 1 in all three orders
    assert blocks["round-1-heat"]["alt"].startswith("Where 3 orders put each picture: 1 White cat mostly")
    assert blocks["round-1-best"]["text"] == "2, 5, 4, 7, 8, 3, 6, 1 (2 \u00d7)"
    assert blocks["answer"]["text"] == "An order that meets the goal: 2, 5, 4, 7, 8, 3, 6, 1"
    links = [(b.proto.label, b.proto.url) for b in lecturer.at.get("link_button")]
    assert links == [("Round 1: open the best and most common order in the walkthrough",
                      "/ndcg?order=2%2C5%2C4%2C7%2C8%2C3%2C6%2C1&k=2&rel=graded")]
    assert said(students[0].run().at, "success")[0].startswith("Goal met: NDCG@2 = 1")
    assert said(students[1].run().at, "error")[0].startswith("Not yet:")


def _choose(student, options: list[str]) -> None:
    """Pick ``options`` among the student's option buttons (the form offers them), then Send."""
    offered = [o["id"] for o in student.form()["form"]["options"]]
    assert set(options) <= set(offered), offered
    student.answer(options)


def test_which_is_it_about_a_state_from_both_sides(lecturer, student_of):
    students = [student_of(lecturer) for _ in range(3)]
    lecturer.add_kind("choice", source="A walkthrough link",
                      link="http://lab.example.org/actual-vs-predicted?order=1,2,3,4,5,6,7,8&k=4",
                      **{"about.actual-vs-predicted": "class:FN"})
    assert next(b for b in lecturer.region() if b["key"] == "prompt")["text"] == \
        "Which pictures are false negatives (FN) at K = 4?"
    for student, chosen in zip(students, (["5", "7"], ["1", "3"], ["5", "7"])):
        _choose(student.run(), chosen)
        assert student.receipt.startswith("Answer received:")
    blocks = {b["key"]: b for b in lecturer.run().region()}
    assert "round-1-shares" not in blocks and blocks["round-1-none"]["text"] == "Hidden until the reveal."
    assert blocks["hidden"]["text"] == "The class's answers stay hidden until you reveal them."
    lecturer.at.toggle(key="irl-live-results").set_value(True)  # the lecturer shows them live
    blocks = {b["key"]: b for b in lecturer.run().region()}
    shares = figure(blocks["round-1-shares"])["data"][0]
    assert dict(zip(shares["y"], shares["x"]))["5 Another white cat in a box"] == 2  # live, before the reveal
    assert "round-1-right" not in blocks and "answer" not in blocks  # which is right shows only after the reveal
    lecturer.control("Reveal")
    blocks = {b["key"]: b for b in lecturer.region()}
    assert blocks["round-1-right"]["text"] == "2 of 3 (67%)"
    assert blocks["answer"]["text"] == "The right answer: 5 Another white cat in a box; 7 Another dark cat in a box"
    assert blocks["round-1-mistakes"]["cells"] == [["chose the false positives (FP) instead", "1"]]
    assert said(students[0].run().at, "success")[0].startswith("Right: 5 Another white cat")
    assert "chose the false positives (FP) instead" in said(students[1].run().at, "error")[0]


def test_which_is_it_from_the_concept_bank(lecturer, student_of):
    student, other = student_of(lecturer), student_of(lecturer)
    lecturer.add_kind("choice", what="A concept question", concept="mrr")
    _choose(student.run(), ["reciprocal"])
    _choose(other.run(), ["mean"])
    rounds = [b for b in lecturer.run().region() if b["kind"] == "details" and b["key"] == "round-1"]
    assert [r["summary"] for r in rounds] == ["Round 1: 2 answers (open)"]  # two answers: the round shows, counted
    lecturer.control("Reveal")
    assert said(student.run().at, "error")[0].startswith("Not quite: you chose 1 / the mean rank")


def _send_exercise(student, answers: dict[str, str]) -> None:
    boxes = [box["id"] for box in student.form()["form"]["boxes"]]
    assert set(answers) <= set(boxes), boxes
    student.answer(answers)


def test_an_exercise_in_class_with_variants_rates_and_the_gradebook(lecturer, student_of, class_db, downloads):
    students = [student_of(lecturer) for _ in range(3)]
    lecturer.add_kind("exercise", builtin="ndcg-exercise")
    assert next(b for b in lecturer.region() if b["key"] == "prompt")["text"] == "Exercise: NDCG calculation"
    store = ClassStore(class_db)
    variants = []
    for student in students:
        question = store.student(lecturer.code, student.run().token).view().activity.question
        variants.append(question)
        assert f"NDCG calculation** \u00b7 your variant {question.seed}" in plain(student.text())  # the space kept
    assert len({v.seed for v in variants}) == 3  # each student their own seed
    for number, (student, variant) in enumerate(zip(students, variants)):
        key = {entry.question.id: f"{entry.value:.4f}" for entry in answer_key(variant.exercise)}
        if number == 2:
            key = {"ndcg5-q1": "0.1"}  # one wrong answer, nothing else
        _send_exercise(student, key)
        assert student.receipt.startswith("Answer received:")
    lecturer.at.toggle(key="irl-live-results").set_value(True)  # rates live (hidden until the reveal by default)
    blocks = {b["key"]: b for b in lecturer.run().region()}
    rates = figure(blocks["round-1-rates"])["data"][0]
    assert rates["y"][0] == "ndcg5-q1: 2 of 3 right" and rates["x"][0] == 67  # live, before any reveal
    assert rates["y"][1] == "ndcg10-q1: 2 of 2 right"
    assert blocks["round-1-rates"]["alt"].startswith("Right answers per question: ndcg5-q1 2 of 3; ndcg10-q1 2 of 2")
    rows = list(csv.DictReader(io.StringIO(downloads["Download the gradebook, round 1 (CSV)"]["data"])))
    assert [(r["student"], r["kind"], r["seed"], r["total"]) for r in rows] == [
        (f"student {n + 1}", "class", str(variants[n].seed), total) for n, total in enumerate(("6", "6", "0"))]
    lecturer.control("Reveal")
    assert said(students[0].run().at, "success")[0] == "6 of 6 right."
    assert said(students[2].run().at, "error")[0].startswith("Not quite")
    key = {entry.question.id: entry.breakdown.display_value for entry in answer_key(variants[2].exercise)}
    assert key["ndcg5-q1"] in students[2].text()  # after the reveal: the answer key of the student's own variant


def test_class_analytics_show_as_charts_and_csv_on_the_lecturers_page(lecturer, student_of, downloads):
    students = [student_of(lecturer) for _ in range(2)]
    lecturer.add_kind("choice", what="A concept question", concept="mrr")
    _choose(students[0].run(), ["mean"])
    _choose(students[1].run(), ["best"])
    lecturer.run()
    assert "Download the analytics (CSV)" not in downloads  # off until asked: never projected by accident
    lecturer.at.toggle(key="irl-analytics").set_value(True)
    lecturer.run()
    charts = {e.proto.component_name: e for e in lecturer.at.get("bidi_component")}
    assert "irlab.chart" in charts
    rows = list(csv.DictReader(io.StringIO(downloads["Download the analytics (CSV)"]["data"])))
    assert [(r["activity"], r["round"], r["answers"], r["right"], r["share right"]) for r in rows] == [
        ("1", "1", "2", "1", "0.500")]
