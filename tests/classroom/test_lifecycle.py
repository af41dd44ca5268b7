"""Any sequence of lecturer actions and student answers keeps the class consistent (a hypothesis state machine).

A model of the class (which activity is shown, each activity's rounds and their states, the answers)
predicts every outcome: which actions are refused, which answers are taken, what each student sees,
and how many answers each round's summary counts. Runs on SQLite.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from irlab.classroom import ClassStore
from irlab.classroom.activities.predict import predict_settings
from irlab.classroom.database import forget_engine
from irlab.classroom.refusals import NotAccepting
from irlab.errors import ValidationError
from irlab.walkthrough.chapters import chapter
from irlab.walkthrough.state import DEFAULT_STATE

STUDENTS = 3


class ClassMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.folder = Path(tempfile.mkdtemp(prefix="irlab-class-"))
        self.url = f"sqlite:///{self.folder / 'classes.sqlite'}"
        self.store = ClassStore(self.url)
        new = self.store.start_class()
        self.desk = self.store.lecturer(new.code, new.key)
        self.ids = [self.desk.add_activity("predict", predict_settings(DEFAULT_STATE, chapter(slug), number)).id
                    for slug, number in (("ndcg", "nDCG@K"), ("recall-precision", "Recall@K"))]
        self.seats = [self.store.join(new.code) for _ in range(STUDENTS)]
        self.current: int | None = None
        self.rounds: dict[int, list[str]] = {i: [] for i in self.ids}
        self.answers: dict[tuple[int, int], set[int]] = {}  # (activity, round number) -> students who answered
        self.seen_rounds: list[int] = []

    def teardown(self) -> None:
        forget_engine(self.url)
        shutil.rmtree(self.folder, ignore_errors=True)

    def latest(self) -> str | None:
        return self.rounds[self.current][-1] if self.current is not None and self.rounds[self.current] else None

    @rule(which=st.integers(0, 1))
    def show(self, which):
        activity = self.ids[which]
        self.desk.show(activity)
        self.current = activity
        if not self.rounds[activity]:
            self.rounds[activity].append("open")

    @rule()
    def close(self):
        if self.latest() == "open":
            self.desk.close()
            self.rounds[self.current][-1] = "closed"
        else:
            self._refused(self.desk.close)

    @rule()
    def reveal(self):
        if self.current is not None and any(s != "revealed" for s in self.rounds[self.current]):
            self.desk.reveal()
            self.rounds[self.current] = ["revealed"] * len(self.rounds[self.current])
        else:
            self._refused(self.desk.reveal)

    @precondition(lambda self: self.current is None or len(self.rounds[self.current]) < 4)
    @rule()
    def reopen(self):
        if self.current is None:
            self._refused(self.desk.reopen)
            return
        if self.rounds[self.current][-1] == "open":
            self.rounds[self.current][-1] = "closed"
        self.rounds[self.current].append("open")
        self.desk.reopen()

    @rule()
    def stand_by(self):
        self.desk.stand_by()
        self.current = None

    @rule(student=st.integers(0, STUDENTS - 1), value=st.sampled_from(["0.3869", "0.5", "1/4", "2"]),
          stale=st.booleans())
    def answer(self, student, value, stale):
        seat = self.seats[student]
        activity = seat.view().activity
        if stale and self.seen_rounds:
            round_id = self.seen_rounds[0]
        elif activity is not None:
            round_id = activity.round_id
            self.seen_rounds.append(round_id)
        else:
            return
        taken = activity is not None and round_id == activity.round_id and self.latest() == "open"
        if taken:
            seat.answer(round_id, value)
            self.answers.setdefault((self.current, len(self.rounds[self.current])), set()).add(student)
        else:
            try:
                seat.answer(round_id, value)
            except NotAccepting:
                return
            raise AssertionError("an answer to a round that is not open was taken")

    def _refused(self, action):
        try:
            action()
        except ValidationError:
            return
        raise AssertionError("the store allowed an action the model refuses")

    @invariant()
    def students_see_the_model(self):
        view = self.seats[0].view().activity
        if self.current is None:
            assert view is None
        else:
            assert (view.activity_id, view.round_number, view.state) == (
                self.current, len(self.rounds[self.current]), self.rounds[self.current][-1])

    @invariant()
    def summaries_count_one_answer_per_student_and_round(self):
        for activity in self.ids:
            report = self.desk.report(activity)
            counted = [summary.count for summary in report.summaries]
            assert counted == [len(self.answers.get((activity, n), ())) for n in range(1, len(counted) + 1)]
            assert [r.state for r in report.rounds] == self.rounds[activity]


test_any_sequence_of_actions_keeps_the_class_consistent = ClassMachine.TestCase
test_any_sequence_of_actions_keeps_the_class_consistent.settings = settings(
    max_examples=15, stateful_step_count=25, deadline=None)
