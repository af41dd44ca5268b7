"""/class and /join under AppTest, by role: a lecturer with the key, with a wrong key, without a class; a student
from the link, with a bad code, with no code; predict -> reveal -> revote; names, CSV, going back, deleting.

Each test has a store of its own (``class_db``); one flow also runs on PostgreSQL.
"""

from __future__ import annotations

import csv
import io
from dataclasses import replace

import pytest

from irlab.classroom import ClassStore
from irlab.classroom.activities import KINDS
from irlab.classroom.lecturer import LINK_GONE
from irlab.classroom.refusals import NotAccepting
from irlab.classroom.store import NO_CLASS
from irlab.classroom.student import MAX_CHANGES, SEAT_GONE
from irlab.ui.classroom.kinds import PAGES
from irlab.ui.classroom.links import WALKTHROUGH_STATE
from irlab.ui.walkthrough.state import STATE
from irlab.walkthrough.state import DEFAULT_STATE
from tests.ui.classroom.conftest import Lecturer, Student, plain, said

NDCG_AT_2 = "0.3869"  # the sources' example: the default state's NDCG@2
NDCG = "nDCG@K"


def test_every_activity_kind_has_its_pages_and_the_walkthrough_key_is_the_walkthroughs():
    assert set(PAGES) == set(KINDS)
    assert WALKTHROUGH_STATE == STATE


# --- the lecturer ------------------------------------------------------------------------------------------------

def test_without_a_class_the_page_offers_to_start_one(class_db):
    at = Lecturer().at
    assert [b.label for b in at.main.button] == ["Start a class"]
    assert not at.get("bidi_component") and "Class " not in " ".join(h.value for h in at.sidebar.header)


def test_starting_a_class_puts_its_code_and_key_in_the_link_and_shows_how_to_join(lecturer):
    code, key = lecturer.code, lecturer.key
    assert len(code) == 6 and len(key) >= 40
    header = next(m.value for m in lecturer.at.main.markdown if "irl-join" in m.value)
    assert code in header and f"/join?code={code}" in header
    assert lecturer.counts() == {"Students joined": "0"}
    # the key is never on the projector: only in the sidebar's closed expander, with the sentence that says what it is
    assert all(key not in str(e.value) for e in lecturer.at.main.markdown)
    assert all(key not in str(b) for b in lecturer.region())
    assert any(key in c.value for c in lecturer.at.sidebar.code)
    assert "Whoever has this link runs the class" in " ".join(m.value for m in lecturer.at.sidebar.markdown)


def test_a_wrong_key_shows_nothing_of_the_class_and_reads_like_an_ended_one(lecturer):
    wrong = lecturer.key[:-2] + ("AA" if not lecturer.key.endswith("AA") else "BB")
    other = Lecturer({"code": lecturer.code, "key": wrong})
    ended = Lecturer({"code": "ABCDEF" if lecturer.code != "ABCDEF" else "BCDEFG", "key": lecturer.key})
    assert said(other.at, "info") == said(ended.at, "info") == [LINK_GONE]  # the link tells no live class apart
    assert not other.at.get("bidi_component") and not other.at.sidebar.code
    assert [b.label for b in other.at.main.button] == ["Start a class"]


def test_a_code_without_a_key_or_an_ended_class_offers_a_new_class(lecturer):
    no_key = Lecturer({"code": lecturer.code})
    assert "carries no lecturer key" in said(no_key.at, "warning")[0]
    assert [b.label for b in no_key.at.main.button] == ["Start a class"]
    ended = Lecturer({"code": "ABCDEF" if lecturer.code != "ABCDEF" else "BCDEFG", "key": lecturer.key})
    assert "has ended" in said(ended.at, "info")[0] and "Start a class" in [b.label for b in ended.at.main.button]


def test_the_lecturer_link_survives_a_trip_through_the_sidebar(lecturer):
    code, key = lecturer.code, lecturer.key
    lecturer.at.switch_page("pages/05_ndcg.py").run()
    lecturer.at.switch_page("pages/class.py").run()  # the sidebar's link carries no parameters
    assert (lecturer.code, lecturer.key) == (code, key) and lecturer.counts() == {"Students joined": "0"}


# --- a student ----------------------------------------------------------------------------------------------------

def test_join_without_a_code_asks_for_one_and_a_malformed_code_is_refused_before_the_store(class_db):
    student = Student()
    assert [t.label for t in student.at.text_input] == ["Join code", "Nickname (optional)"]
    student.join("ABC0E", "Ann")
    assert "a join code has 6 characters" in said(student.at, "error")[0] and student.token is None
    with ClassStore(class_db)._context.engine.connect() as connection:  # a typo is not a guess: nothing counted
        assert connection.exec_driver_sql("select count(*) from rate_limit_events").scalar() == 0


def test_an_unknown_code_is_refused_and_guessing_is_limited(lecturer):
    student = Student()
    other = "ABCDEF" if lecturer.code != "ABCDEF" else "BCDEFG"
    student.join(other)
    assert said(student.at, "error")[0] == NO_CLASS
    for _ in range(9):
        student.join(other)
    student.join(lecturer.code)  # even the right code, once this session has guessed ten times
    assert "Too many wrong codes" in said(student.at, "error")[0] and student.token is None


def test_a_student_joins_from_the_link_waits_and_keeps_their_identity_on_reload(lecturer, student_of):
    student = student_of(lecturer, "Ann")
    assert student.token and "you are student 1 (Ann)" in student.text()
    assert "Waiting for the lecturer" in said(student.at, "info")[0]
    assert lecturer.run().counts()["Students joined"] == "1"
    again = Student({"code": lecturer.code, "student": student.token})  # a reload, or another replica
    assert "you are student 1 (Ann)" in again.text() and again.token == student.token
    damaged = Student({"code": lecturer.code, "student": "x" * 22})
    assert said(damaged.at, "info") == [SEAT_GONE]
    assert damaged.at.text_input(key="irl-join-code").value == lecturer.code


def test_predict_reveal_and_revote_from_both_sides(lecturer, student_of):
    students = [student_of(lecturer, name) for name in ("Ann", "Bob", "")]
    lecturer.add(number=NDCG)
    assert lecturer.controls() == ["Close answers", "Reveal", "Hide the question"]
    prompt = next(b for b in lecturer.region() if b["key"] == "prompt")["text"]
    assert prompt.startswith("What is NDCG@2")
    for student, answer in zip(students, ("0.39", "0,3869", "0.47")):
        student.run().answer(answer)
        assert student.receipt.startswith("Answer received: ")
    students[0].answer("0.3869")
    assert students[0].receipt.startswith("Answer changed to 0.3869")
    assert students[0].form()["stored_text"] == "0.3869"  # the page's form says which answer counts
    assert lecturer.run().counts() == {"Students joined": "3", "Answers, round 1": "3"}
    assert not any(b["kind"] == "chart" for b in lecturer.region())  # nothing distributional before the reveal

    lecturer.control("Reveal")
    blocks = lecturer.region()
    assert any(b["kind"] == "chart" for b in blocks)
    assert next(b for b in blocks if b["key"] == "answer")["text"] == f"The right answer: NDCG@2 = {NDCG_AT_2}"
    assert next(b for b in blocks if b["key"] == "round-1-within")["text"].startswith("2 of 3")
    assert any(b["kind"] == "formulas" and b["key"] == "breakdown" for b in blocks)
    right, wrong = students[1].run(), students[2].run()
    assert said(right.at, "success")[0].startswith("Correct") and not right.can_answer()
    assert said(wrong.at, "error")[0].startswith("Not quite") and NDCG_AT_2 in wrong.text()

    lecturer.control("Revote")
    assert lecturer.counts()["Answers, round 2"] == "0"
    wrong.run().answer("0.3869")
    lecturer.run().control("Reveal")
    rounds = [b for b in lecturer.region() if b["kind"] == "details" and b["key"].startswith("round-")]
    assert [r["summary"] for r in rounds] == ["Round 1: 3 answers (revealed)", "Round 2: 1 answer (revealed)"]
    assert "shows from 3 answers on" in next(b for b in lecturer.region() if b["key"] == "round-2-none")["text"]


def test_a_closed_round_takes_no_answer_and_says_so(lecturer, student_of):
    student = student_of(lecturer)
    lecturer.add(number=NDCG)
    student.run()
    lecturer.control("Close answers")
    assert lecturer.controls() == ["Reveal", "Revote: open round 2", "Hide the question"]
    assert [b["text"] for b in lecturer.region() if b["key"] == "closed"] == ["Answers are closed."]  # the room sees it
    student.answer("0.5")  # typed before the page noticed the round closed
    assert (student.status, student.receipt) == (409, "This round is closed: answers are no longer taken.")
    assert lecturer.run().counts()["Answers, round 1"] == "0"
    assert "Answers are closed" in student.run().at.info[0].value and not student.can_answer()


def test_hostile_answers_are_refused_with_a_line_and_break_nothing(lecturer, student_of):
    student, other = student_of(lecturer), student_of(lecturer)
    lecturer.add(number=NDCG)
    other.run().answer("0.5")
    student.run()
    for hostile in ("nan", "inf", "-1e999", "1e400", "1e9", "<script>alert(1)</script>", "=1+1", "9" * 999,
                    ["0.5"], {"0": 1}, None, True):
        student.answer(hostile)
        assert student.status == 422 and "\n" not in student.receipt and student.receipt, hostile
        assert not student.at.exception
    assert lecturer.run().counts()["Answers, round 1"] == "1"
    lecturer.control("Reveal")
    assert said(other.run().at, "error")[0].startswith("Not quite")


def test_nicknames_are_plain_text_and_off_the_projector_until_turned_on(lecturer, student_of):
    hostile = "<img src=x onerror=alert(1)> **bold** [x](javascript:alert(1)) =1+1"
    student = student_of(lecturer, hostile)
    assert "<img src=x" in student.text()  # shown as the characters typed
    assert "\\<img src\\=x" in student.at.caption[0].value  # because the Markdown escapes them
    lecturer.run()
    assert not any(b["key"] == "names" for b in lecturer.region())
    lecturer.at.sidebar.toggle(key="irl-names").set_value(True)
    names = next(b for b in lecturer.run().region() if b["key"] == "names")
    assert names["text"].startswith("<img src=x")  # the region sets it as text, never as HTML


def test_the_walkthrough_as_it_stands_or_a_pasted_link_sets_the_question(lecturer):
    lecturer.at.session_state[STATE] = replace(DEFAULT_STATE, k=3)  # the lecturer moved K to 3 in a chapter
    lecturer.add(chapter="Recall", number="Precision@K")
    assert "@3 of this ranking" in next(b for b in lecturer.region() if b["key"] == "prompt")["text"]
    lecturer.add(link="http://lab.example.org/ndcg?order=2,1,3,4,5,6,7,8&k=4&rel=graded", number=NDCG)
    assert next(b for b in lecturer.region() if b["key"] == "which")["text"].startswith("NDCG@4")
    lecturer.at.sidebar.radio(key="irl-add-predict.source").set_value("A walkthrough link").run()
    lecturer.at.sidebar.text_input(key="irl-add-predict.link").set_value("http://x/ndcg?k=99").run()
    assert "k='99' was ignored" in plain(lecturer.at.sidebar.warning[0].value)
    assert lecturer.at.sidebar.button(key="irl-add-show").disabled


def test_going_back_to_an_earlier_question_keeps_its_rounds(lecturer, student_of):
    student = student_of(lecturer)
    lecturer.add(number=NDCG)
    student.run().answer("0.39")
    lecturer.add(number="CG@K")
    assert next(b for b in lecturer.region() if b["key"] == "which")["lead"] == "Question 2 of 2:"
    pick = lecturer.at.sidebar.selectbox(key="irl-question-pick")
    assert pick.options[0].startswith("1. NDCG@2") and pick.options[1].endswith("on the projector")
    pick.select_index(0).run()
    lecturer.at.sidebar.button(key="irl-show-question").click()
    lecturer.run()
    assert next(b for b in lecturer.region() if b["key"] == "which")["lead"] == "Question 1 of 2:"
    assert lecturer.counts()["Answers, round 1"] == "1"
    assert student.run().form()["stored_text"] == "0.39"


def test_hide_the_question_shows_students_the_waiting_screen(lecturer, student_of):
    student = student_of(lecturer)
    lecturer.add(number=NDCG)
    lecturer.control("Hide the question")
    assert "Waiting for the lecturer" in student.run().at.info[0].value
    assert any(b["key"] == "waiting" for b in lecturer.region())


def test_all_answers_download_as_csv_with_formulas_neutralised(lecturer, student_of, downloads):
    student = student_of(lecturer, "=HYPERLINK(evil)")
    lecturer.add(number=NDCG)
    student.run().answer("0.39")
    lecturer.run()
    rows = list(csv.DictReader(io.StringIO(downloads["Download all answers (CSV)"]["data"])))
    assert [(r["round"], r["student"], r["nickname"], r["answer"], r["right"]) for r in rows] == [
        ("1", "student 1", "'=HYPERLINK(evil)", "0.39", "yes")]


def test_deleting_the_class_ends_it_for_everyone(lecturer, student_of):
    student = student_of(lecturer)
    lecturer.at.sidebar.button(key="irl-delete").click()
    lecturer.run()
    assert "deleted" in said(lecturer.at, "success")[0] and lecturer.code is None
    assert [b.label for b in lecturer.at.main.button] == ["Start a class"]
    ended = student.run()
    assert "has ended" in said(ended.at, "info")[0] and ended.token is None


@pytest.mark.parametrize("store", ["postgresql"])
def test_the_pages_run_a_round_on_postgresql(store, pg_class_db, student_of):
    lecturer = Lecturer().start()
    student = student_of(lecturer, "Ann")
    lecturer.add(number=NDCG)
    student.run().answer("0.3869")
    assert student.receipt.startswith("Answer received")
    assert lecturer.run().counts() == {"Students joined": "1", "Answers, round 1": "1"}
    lecturer.control("Reveal")
    assert said(student.run().at, "success")[0].startswith("Correct")


def test_ten_thousand_answers_from_one_script_leave_one_row_and_the_others_answers(lecturer, student_of, class_db):
    honest, script = student_of(lecturer, "Ann"), student_of(lecturer, "bot")
    lecturer.add(number=NDCG)
    honest.run().answer("0.3869")
    seat = ClassStore(class_db).student(lecturer.code, script.token)  # what the script's own session calls
    round_id = seat.view().activity.round_id
    refused = 0
    for n in range(10_000):
        try:
            seat.answer(round_id, f"0.{n:04d}")
        except NotAccepting:
            refused += 1
    assert refused == 10_000 - MAX_CHANGES - 1  # the first answer and its 50 changes, then one line each
    script.run().answer("0.5")
    assert f"changed this answer {MAX_CHANGES} times" in script.receipt and script.status == 409
    assert lecturer.run().counts() == {"Students joined": "2", "Answers, round 1": "2"}
    lecturer.control("Reveal")
    assert said(honest.run().at, "success")[0].startswith("Correct")


def _feed_path(node, path: tuple[int, ...] = ()) -> tuple[int, ...] | None:
    """Where the page's first class feed is drawn (its delta path): the projector fragment's place."""
    for index, child in getattr(node, "children", {}).items():
        if getattr(child, "type", "") == "bidi_component" and child.proto.component_name == "irlab.classfeed":
            return (*path, index)
        if (found := _feed_path(child, (*path, index))) is not None:
            return found
    return None


def test_the_projector_keeps_its_place_whatever_comes_and_goes_above_it(lecturer):
    """A notice, the first-question hint and the round controls come and go above the projector; the projector's
    fragment stays where it is (a fragment elsewhere is another fragment, and a full run cut short by a rerun left
    the old one on the page: two feeds, one with old counts)."""
    places = [_feed_path(lecturer.at.main)]  # no question yet: the hint, no round controls
    lecturer.add(number=NDCG)  # a notice, the round controls
    places.append(_feed_path(lecturer.at.main))
    places.append(_feed_path(lecturer.run().at.main))  # the notice is gone
    lecturer.control("Hide the question")
    places.append(_feed_path(lecturer.at.main))
    assert places[0] is not None and len(set(places)) == 1, places
