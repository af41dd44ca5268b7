"""Two roles, kept apart: nothing a student holds reaches a lecturer action, and no view carries a secret."""

from __future__ import annotations

import ast
from pathlib import Path

from irlab.classroom.activities.predict import predict_settings
from irlab.classroom.lecturer import LecturerDesk
from irlab.classroom.student import StudentSeat
from irlab.walkthrough.chapters import chapter
from irlab.walkthrough.state import DEFAULT_STATE

CLASSROOM = Path(__file__).resolve().parents[2] / "irlab" / "classroom"


def public(cls) -> set[str]:
    return {name for name in dir(cls) if not name.startswith("_")}


def test_a_seat_has_no_lecturer_action():
    actions = public(LecturerDesk) - {"check"}
    assert {"reveal", "reopen", "show", "delete_class", "export_csv", "projector", "set_show_names"} <= actions
    assert not actions & public(StudentSeat)


def test_the_student_side_never_imports_the_lecturer_side():
    tree = ast.parse((CLASSROOM / "student.py").read_text())
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert "irlab.classroom.lecturer" not in imported and "irlab.classroom.store" not in imported


def test_no_record_or_repr_carries_a_key_or_token(store):
    new = store.start_class()
    desk = store.lecturer(new.code, new.key)
    desk.show(desk.add_activity("predict", predict_settings(DEFAULT_STATE, chapter("ndcg"), "nDCG@K")).id)
    seat = store.join(new.code, nickname="Ann")
    seat.answer(seat.view().activity.round_id, "0.4")
    desk.reveal()
    shown = " ".join(repr(x) for x in (desk, seat, desk.projector(), seat.view(), store.versions(new.code)))
    assert new.key not in shown and seat.token not in shown
    assert new.code in repr(desk)
