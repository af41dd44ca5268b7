"""How each activity kind is drawn: one :class:`KindPages` per kind of :data:`irlab.classroom.activities.KINDS`.

The store reaches kinds through :func:`irlab.classroom.activities.kind`; the pages reach their drawing
through :func:`pages_of`. So a new kind (issue 24: order the pictures, which is it, an exercise) is a
module in :mod:`irlab.classroom.activities`, a module here like :mod:`irlab.ui.classroom.predict`, and
one line in :data:`PAGES`; the desk, the projector and the student's page stay as they are
(tests/ui/classroom checks that every kind has its pages).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from irlab.classroom.records import ActivityReport, StudentActivity
from irlab.errors import ValidationError
from irlab.ui.classroom import choice, exercise, order, predict


@dataclass(frozen=True)
class KindPages:
    """A kind's drawing, by role.

    * ``settings_form(prefix)``: the lecturer's form; the raw settings, or None while incomplete;
    * ``projector_blocks(report)``: the live region's blocks (JSON) for the activity on the projector;
    * ``student_question(question)``: what a student reads while a round is open or closed;
    * ``answer_form(activity)``: the answer form of an open round, as the answer component draws it (a number,
      options, a box per question, or the order of tiles it draws itself with Streamlit first);
    * ``student_result(activity)``: after the reveal, whether and why the student was right;
    * ``projector_links(report)``: (label, path relative to the app) of links the projector offers below the live
      region (order the pictures: the class's best and most common order in the walkthrough); none by default;
    * ``downloads(report)``: (label, file name, CSV text) the lecturer may download for the activity shown (an
      exercise: its gradebook); none by default.
    """

    settings_form: Callable[[str], dict[str, Any] | None]
    projector_blocks: Callable[[ActivityReport], list[dict[str, Any]]]
    student_question: Callable[[Any], None]
    answer_form: Callable[[StudentActivity], dict[str, Any]]
    student_result: Callable[[StudentActivity], None]
    projector_links: Callable[[ActivityReport], list[tuple[str, str]]] = lambda report: []
    downloads: Callable[[ActivityReport], list[tuple[str, str, str]]] = lambda report: []


PAGES: dict[str, KindPages] = {
    predict.KIND: KindPages(predict.settings_form, predict.projector_blocks, predict.student_question,
                            predict.answer_form, predict.student_result),
    order.KIND: KindPages(order.settings_form, order.projector_blocks, order.student_question, order.answer_form,
                          order.student_result, order.projector_links),
    choice.KIND: KindPages(choice.settings_form, choice.projector_blocks, choice.student_question, choice.answer_form,
                           choice.student_result),
    exercise.KIND: KindPages(exercise.settings_form, exercise.projector_blocks, exercise.student_question,
                             exercise.answer_form, exercise.student_result, downloads=exercise.downloads),
}
"""Every kind's pages by its stored name."""


def pages_of(kind: str) -> KindPages:
    """The pages of ``kind``; ValidationError for a kind this version of the pages cannot draw."""
    if kind not in PAGES:
        raise ValidationError(f"this page cannot show activities of the kind {kind[:32]!r} yet")
    return PAGES[kind]
