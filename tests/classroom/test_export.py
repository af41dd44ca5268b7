"""All answers as CSV: the columns a lecturer reads, and no cell a spreadsheet would run as a formula."""

from __future__ import annotations

import csv
import io

from hypothesis import given
from hypothesis import strategies as st

from irlab.classroom.activities.predict import predict_settings
from irlab.classroom.export import COLUMNS, neutralise
from irlab.walkthrough.chapters import chapter
from irlab.walkthrough.state import DEFAULT_STATE


@given(st.text(max_size=40))
def test_no_neutralised_cell_starts_a_formula(text):
    cell = neutralise(text)
    assert not cell.startswith(("=", "+", "-", "@", "\t", "\r"))
    assert cell in (text, "'" + text)


def test_the_export_has_one_row_per_answer_and_round_and_neutralised_cells(store, clock):
    new = store.start_class()
    desk = store.lecturer(new.code, new.key)
    ndcg = desk.add_activity("predict", predict_settings(DEFAULT_STATE, chapter("ndcg"), "nDCG@K"))
    fn = desk.add_activity("predict", predict_settings(DEFAULT_STATE, chapter("actual-vs-predicted"), "FN"))
    hostile = [store.join(new.code, nickname=name) for name in
               ('=HYPERLINK("http://evil.example","x")', "@SUM(A1)", "+1", "-cmd", "Ann, \"the\" <b>best</b>")]
    quiet = store.join(new.code)
    desk.show(ndcg.id)
    clock.advance(12.5)
    for seat, answer in zip([*hostile, quiet], ["-0.5", "+0.3869", "0.5", "3/4", "0,3869", "38.69%"]):
        seat.answer(seat.view().activity.round_id, answer)
    desk.reveal()
    desk.reopen()
    quiet.answer(quiet.view().activity.round_id, "0.39")
    desk.show(fn.id)
    hostile[0].answer(hostile[0].view().activity.round_id, "3")

    table = list(csv.reader(io.StringIO(desk.export_csv())))
    assert tuple(table[0]) == COLUMNS
    body = [dict(zip(COLUMNS, row)) for row in table[1:]]
    assert len(body) == 6 + 1 + 1
    for row in body:
        assert all(not cell.startswith(("=", "+", "-", "@", "\t", "\r")) for cell in row.values())
    first = body[0]
    assert (first["activity"], first["round"], first["student"], first["answer"], first["right answer"],
            first["right"]) == ("1", "1", "student 1", "'-0.5", "0.3869", "no")
    assert first["nickname"] == "'=HYPERLINK(\"http://evil.example\",\"x\")"
    assert first["question"] == "NDCG@2 \u00b7 CG, DCG, IDCG and NDCG@K" and first["kind"] == "Predict a number"
    assert first["seconds to answer"] == "12.5" and first["changes"] == "0"
    by_student = {row["student"]: row for row in body if row["round"] == "1" and row["activity"] == "1"}
    assert by_student["student 3"]["named mistake"].startswith("original Järvelin")
    assert by_student["student 5"]["nickname"] == 'Ann, "the" <b>best</b>' and by_student["student 5"]["right"] == "yes"
    assert by_student["student 6"]["nickname"] == "" and by_student["student 6"]["answer"] == "38.69%"
    revote = [row for row in body if row["round"] == "2"]
    assert [(r["student"], r["answer"], r["right"]) for r in revote] == [("student 6", "0.39", "yes")]
    counts = [row for row in body if row["activity"] == "2"]
    assert [(r["question"], r["answer"], r["right answer"], r["right"]) for r in counts] == [
        ("FN@2 \u00b7 Actual vs predicted", "3", "3", "yes")]


def test_long_exercise_and_choice_answers_are_whole_in_the_csv_and_cut_between_parts_elsewhere(store):
    """An exercise's answers (one per question) and a multiple choice are written whole into the CSV; the short
    text kept for lists and receipts is cut after a whole part, never in the middle of one."""
    new = store.start_class()
    desk = store.lecturer(new.code, new.key)
    exercise = desk.add_activity("exercise", {"builtin": "ndcg-exercise"})
    desk.show(exercise.id)
    seat = store.join(new.code)
    view = seat.view().activity
    typed = {question: f"0.{n:04d}123456789" for n, (question, _) in enumerate(view.question.questions, start=1)}
    receipt = seat.answer(view.round_id, typed)
    whole = "; ".join(f"{question}: {text}" for question, text in typed.items())
    assert len(whole) > 100 and len(receipt.text) <= 100
    assert receipt.text.endswith(" \u2026") and whole.startswith(receipt.text[:-2])  # cut after a whole answer
    assert receipt.text[:-2].rsplit("; ", 1)[-1] in [f"{q}: {t}" for q, t in typed.items()]
    choice = desk.add_activity("choice", {"concept": "grows-with-k"})
    desk.show(choice.id)
    chose = seat.answer(seat.view().activity.round_id, ["recall", "precision", "ndcg", "dcg"])
    rows = {row["kind"]: row for row in csv.DictReader(io.StringIO(desk.export_csv()))}
    assert rows["An exercise"]["answer"] == whole
    assert rows["Which is it"]["answer"] == "Recall@K; Precision@K; NDCG@K; DCG@K" == chose.text
