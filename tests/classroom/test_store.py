"""The class store end to end on SQLite and on PostgreSQL: classes, joining, activities, rounds, answers."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from irlab.classroom import ClassStore
from irlab.classroom.activities.predict import predict_settings
from irlab.classroom.database import engine_for, reading
from irlab.classroom.refusals import AccessDenied, ClassNotFound, NotAccepting
from irlab.classroom.schema import answers, classes, students
from irlab.classroom.student import MAX_CHANGES
from irlab.classroom.tokens import CODE_ALPHABET, digest
from irlab.errors import ValidationError
from irlab.walkthrough.chapters import chapter
from irlab.walkthrough.state import DEFAULT_STATE

NDCG = predict_settings(DEFAULT_STATE, chapter("ndcg"), "nDCG@K")  # NDCG@2 = 0.3869 (the sources' example)
RECALL = predict_settings(DEFAULT_STATE, chapter("recall-precision"), "Recall@K")  # Recall@2 = 0.25


def count(store: ClassStore, table) -> int:
    with reading(store._context.engine) as connection:
        return connection.execute(select(func.count()).select_from(table)).scalar_one()


def class_with_activity(store: ClassStore, settings=NDCG):
    new = store.start_class()
    desk = store.lecturer(new.code, new.key)
    info = desk.add_activity("predict", settings)
    return new, desk, info


def test_a_new_class_has_a_code_of_the_alphabet_and_stores_only_the_keys_hash(store):
    new = store.start_class()
    assert len(new.code) == 6 and set(new.code) <= set(CODE_ALPHABET)
    assert new.join_path == f"/join?code={new.code}" and new.key in new.lecturer_path
    with reading(store._context.engine) as connection:
        row = connection.execute(select(classes).where(classes.c.code == new.code)).one()
    assert row.key_hash == digest(new.key) and new.key not in row
    assert row.show_names is False


def test_the_lecturer_needs_the_right_key_for_every_action(store):
    new = store.start_class()
    other = store.start_class()
    refusals = []
    for code, key in ((new.code, new.key[:-1] + ("A" if new.key[-1] != "A" else "B")), (new.code, "<script>"),
                      ("ABCDEF" if new.code != "ABCDEF" else "BCDEFG", new.key),
                      (other.code, new.key)):  # one class's key never runs another
        with pytest.raises(ClassNotFound) as refused:
            store.lecturer(code, key)
        refusals.append(str(refused.value))
    assert len(set(refusals)) == 1  # a wrong key and an unknown code read the same: the link tells nothing
    desk = store.lecturer(new.code, new.key)
    desk._key = "x" * 43  # a desk whose key stopped matching: every action checks again
    for action in (lambda: desk.add_activity("predict", NDCG), desk.reveal, desk.projector, desk.export_csv,
                   desk.delete_class, lambda: desk.set_show_names(True), lambda: desk.set_timer(30),
                   lambda: desk.set_joining_locked(True), lambda: desk.set_live_results(True)):
        with pytest.raises(ClassNotFound):
            action()


def test_a_student_keeps_their_identity_through_their_token(store):
    new = store.start_class()
    seat = store.join(new.code.lower()[:3] + "-" + new.code.lower()[3:], nickname="  Ann  ")
    again = store.student(new.code, seat.token)
    view = again.view()
    assert (view.number, view.nickname, view.activity) == (1, "Ann", None)
    refusals = []
    other = store.start_class()
    for code, token in ((new.code, seat.token[:-2] + "xx"), (other.code, seat.token),  # nobody in another class
                        ("ABCDEF" if new.code != "ABCDEF" else "BCDEFG", seat.token)):
        with pytest.raises(ClassNotFound) as refused:
            store.student(code, token)
        refusals.append(str(refused.value))
    assert len(set(refusals)) == 1  # a foreign token and an unknown code read the same
    with pytest.raises(AccessDenied):  # not a token at all: nothing about any class in the answer
        store.student(new.code, "<script>")
    with reading(store._context.engine) as connection:
        assert connection.execute(select(students.c.token_hash)).scalar_one() == digest(seat.token)


def test_students_are_numbered_in_joining_order(store):
    new = store.start_class()
    numbers = [store.join(new.code).view().number for _ in range(4)]
    assert numbers == [1, 2, 3, 4]
    assert store.lecturer(new.code, new.key).projector().students == 4


def test_predict_reveal_revote(store):
    new, desk, info = class_with_activity(store)
    seats = [store.join(new.code) for _ in range(4)]
    assert seats[0].view().activity is None  # nothing shown yet: "waiting for the lecturer"
    desk.show(info.id)
    activity = seats[0].view().activity
    assert (activity.state, activity.round_number, activity.answer, activity.feedback) == ("open", 1, None, None)
    assert "NDCG@2" in activity.question.prompt and activity.question.rows
    for seat, answer in zip(seats, ["0.3869", "0,39", "0.5", "3/4"]):
        seat.answer(seat.view().activity.round_id, answer)
    current = desk.projector().current
    assert current.summaries[0].count == 4 and not current.summaries[0].shown  # counts only before the reveal
    assert current.solution is None and seats[0].view().activity.solution is None

    desk.reveal()
    current = desk.projector().current
    first = current.summaries[0]
    assert (first.count, first.within, first.share_within) == (4, 2, 0.5)
    assert [(m.name, m.count) for m in first.mistakes] == [("discount-jk", 1)]  # 0.5 = NDCG@2 with the J-K discount
    assert first.histogram.right_bin.count == 2 and first.histogram.total == 4
    assert current.solution.display_value == "0.3869"
    mine = seats[2].view().activity
    assert mine.feedback.correct is False and "Järvelin" in mine.feedback.message
    assert seats[0].view().activity.feedback.correct is True
    with pytest.raises(NotAccepting):
        seats[0].answer(mine.round_id, "0.4")

    desk.reopen()
    second = seats[2].view().activity
    assert (second.round_number, second.state, second.answer) == (2, "open", None)
    with pytest.raises(NotAccepting):  # the old round takes nothing any more
        seats[2].answer(mine.round_id, "0.3869")
    for seat in seats[:3]:
        seat.answer(second.round_id, "0.387")
    desk.reveal()
    rounds = desk.projector().current.summaries
    assert [(s.round, s.count, s.within) for s in rounds] == [(1, 4, 2), (2, 3, 3)]
    assert [b.low for b in rounds[0].histogram.bins] == [b.low for b in rounds[1].histogram.bins]  # one scale


def test_one_answer_per_student_and_round_a_new_one_replaces_the_old(store):
    new, desk, info = class_with_activity(store)
    desk.show(info.id)
    seat = store.join(new.code)
    round_id = seat.view().activity.round_id
    assert seat.answer(round_id, "0.1").replaced is False
    receipt = seat.answer(round_id, "0.3869")
    assert receipt.replaced is True and "0.3869" in receipt.message
    assert count(store, answers) == 1
    assert seat.view().activity.answer == "0.3869"
    desk.reveal()
    assert desk.projector().current.rounds[0].answers == 1


def test_an_answer_to_a_question_the_lecturer_left_is_refused(store):
    new, desk, first = class_with_activity(store)
    second = desk.add_activity("predict", RECALL)
    seat = store.join(new.code)
    desk.show(first.id)
    seen = seat.view().activity.round_id
    desk.show(second.id)
    with pytest.raises(NotAccepting):
        seat.answer(seen, "0.25")
    desk.stand_by()
    assert seat.view().activity is None
    with pytest.raises(NotAccepting):
        seat.answer(seen, "0.25")
    for bad_round in (None, "1", True, 10**9):
        with pytest.raises(NotAccepting):
            seat.answer(bad_round, "0.25")
    assert count(store, answers) == 0


def test_going_back_to_an_earlier_activity_keeps_its_rounds(store):
    new, desk, first = class_with_activity(store)
    second = desk.add_activity("predict", RECALL)
    seat = store.join(new.code)
    desk.show(first.id)
    seat.answer(seat.view().activity.round_id, "0.3869")
    desk.reveal()
    desk.show(second.id)
    assert seat.view().activity.activity_id == second.id
    desk.show(first.id)  # back: round 1 as it was, revealed, with the student's answer and feedback
    back = seat.view().activity
    assert (back.activity_id, back.round_number, back.state, back.answer) == (first.id, 1, "revealed", "0.3869")
    assert back.feedback.correct is True
    listed = desk.projector().activities
    assert [(a.position, a.state, a.current) for a in listed] == [(1, "revealed", True), (2, "open", False)]
    assert desk.report(second.id).info.id == second.id


def test_close_then_reopen_is_a_revote_before_the_reveal(store):
    new, desk, info = class_with_activity(store)
    seats = [store.join(new.code) for _ in range(3)]
    desk.show(info.id)
    for seat in seats:
        seat.answer(seat.view().activity.round_id, "0.5")
    desk.close()
    assert seats[0].view().activity.state == "closed" and seats[0].view().activity.solution is None
    with pytest.raises(ValidationError):
        desk.close()
    desk.reopen()
    for seat in seats:
        seat.answer(seat.view().activity.round_id, "0.3869")
    assert desk.projector().current.summaries[0].histogram is None  # nothing shown before the reveal
    desk.reveal()
    summaries = desk.projector().current.summaries
    assert [(s.state, s.within) for s in summaries] == [("revealed", 0), ("revealed", 3)]


def test_lecturer_actions_refuse_what_makes_no_sense(store):
    new, desk, info = class_with_activity(store)
    for action in (desk.reveal, desk.reopen, desk.close):  # nothing shown yet
        with pytest.raises(ValidationError):
            action()
    with pytest.raises(ValidationError):
        desk.show(info.id + 1000)
    other = store.start_class()
    other_info = store.lecturer(other.code, other.key).add_activity("predict", NDCG)
    with pytest.raises(ValidationError):  # another class's activity is not this class's
        desk.show(other_info.id)
    with pytest.raises(ValidationError):
        desk.add_activity("poll", {})
    with pytest.raises(ValidationError):
        desk.add_activity("predict", {"chapter": "ndcg", "params": {"order": "1,2,3"}, "number": "nDCG@K"})
    desk.show(info.id)
    desk.reveal()
    with pytest.raises(ValidationError):
        desk.reveal()


def test_versions_tell_the_student_view_from_the_projector(store):
    new, desk, info = class_with_activity(store)
    seat = store.join(new.code)
    other = store.join(new.code)
    before = store.versions(new.code)
    desk.show(info.id)
    shown = store.versions(new.code)
    assert shown.student > before.student and shown.projector > before.projector
    other.answer(other.view().activity.round_id, "0.4")  # a classmate's answer: only the projector changes
    answered = store.versions(new.code)
    assert answered.student == shown.student and answered.projector > shown.projector
    assert seat.version() == answered.student == desk.versions().student
    desk.set_show_names(True)
    assert store.versions(new.code).student == answered.student
    desk.reveal()
    assert store.versions(new.code).student > answered.student
    assert store.versions("ABCDE0") is None and store.versions("<b>") is None


def test_names_are_shown_only_when_the_lecturer_turns_them_on(store):
    new = store.start_class()
    desk = store.lecturer(new.code, new.key)
    store.join(new.code, nickname="<b>Ann</b>")
    store.join(new.code)
    store.join(new.code, nickname="Lee\u202e")
    assert desk.projector().names == () and desk.projector().show_names is False
    desk.set_show_names(True)
    assert desk.projector().names == ("<b>Ann</b>", "Lee")  # plain text, as typed but cleaned; anonymous left out


def test_a_student_can_rename_themselves(store):
    new = store.start_class()
    seat = store.join(new.code, nickname="Ann")
    assert seat.rename("  Bo\x00b ") == "Bob" and seat.view().nickname == "Bob"
    assert seat.rename("") is None and seat.view().nickname is None


def test_unreadable_answers_are_refused_and_nothing_is_stored(store):
    new, desk, info = class_with_activity(store)
    desk.show(info.id)
    seat = store.join(new.code)
    round_id = seat.view().activity.round_id
    for bad in ("nan", "inf", "-inf", "1e400", "1e300", "abc", "", "1/0", "<script>", "0.5" * 100, None, [0.5],
                float("nan"), float("inf"), True):
        with pytest.raises(ValidationError) as refused:
            seat.answer(round_id, bad)
        assert "\n" not in str(refused.value) and len(str(refused.value)) < 200
    assert count(store, answers) == 0


def test_hundreds_of_answers_from_one_token_stay_one_row(store):
    """A script changing its answer: the first 1 + MAX_CHANGES are taken (each replacing the last), then changes
    are refused and the stored answer sent again is acknowledged without a write; one row stays. (10,000 sends
    behave the same, measured by hand: one row.)"""
    new, desk, info = class_with_activity(store)
    desk.show(info.id)
    seat = store.join(new.code)
    classmates = [store.join(new.code) for _ in range(2)]
    round_id = seat.view().activity.round_id
    refused = unchanged = 0
    for i in range(300):
        try:
            unchanged += seat.answer(round_id, f"{i % 7 / 10}").unchanged
        except NotAccepting:
            refused += 1
    assert refused + unchanged == 300 - 1 - MAX_CHANGES and refused > unchanged > 0
    with reading(store._context.engine) as connection:
        assert connection.execute(select(answers.c.revisions)).scalar_one() == MAX_CHANGES
    for mate in classmates:  # the class goes on: others still answer
        mate.answer(round_id, "0.3869")
    assert count(store, answers) == 3
    assert seat.view().activity.answer == f"{MAX_CHANGES % 7 / 10}"
    desk.reveal()
    summary = desk.projector().current.summaries[0]
    assert summary.count == 3 and summary.within == 2


def test_fewer_than_three_answers_show_nothing_distributional(store):
    new, desk, info = class_with_activity(store)
    desk.show(info.id)
    for answer in ("0.3869", "0.5"):
        seat = store.join(new.code)
        seat.answer(seat.view().activity.round_id, answer)
    desk.reveal()
    summary = desk.projector().current.summaries[0]
    assert (summary.count, summary.histogram, summary.within, summary.mistakes) == (2, None, None, ())


def test_deleting_a_class_deletes_everything_in_it(store):
    new, desk, info = class_with_activity(store)
    desk.show(info.id)
    seat = store.join(new.code)
    seat.answer(seat.view().activity.round_id, "0.3")
    kept = store.start_class()
    store.join(kept.code)
    desk.delete_class()
    with pytest.raises(ClassNotFound):
        seat.view()
    with pytest.raises(ClassNotFound):
        store.lecturer(new.code, new.key)
    assert store.versions(new.code) is None
    assert (count(store, classes), count(store, students), count(store, answers)) == (1, 1, 0)


def test_the_store_reads_its_url_from_the_environment(sqlite_url, tmp_path):
    store = ClassStore(environ={"IRLAB_CLASS_DB": sqlite_url, "IRLAB_CLASS_RETENTION_HOURS": "2"})
    assert store.backend == "sqlite" and store._context.retention_seconds == 7200
    default = ClassStore(environ={"XDG_DATA_HOME": str(tmp_path / "xdg")})
    assert (tmp_path / "xdg" / "irlab" / "classes.sqlite").is_file() and default.backend == "sqlite"


def test_sqlite_connections_use_wal_a_busy_timeout_and_foreign_keys(sqlite_url):
    ClassStore(sqlite_url)
    with engine_for(sqlite_url).connect() as connection:
        pragma = {name: connection.exec_driver_sql(f"PRAGMA {name}").scalar()
                  for name in ("journal_mode", "busy_timeout", "foreign_keys")}
    assert pragma == {"journal_mode": "wal", "busy_timeout": 15000, "foreign_keys": 1}
