"""Class analytics and the new kinds through the store: share right, named mistakes and time to answer per activity
and round (by hand), the CSV, and hostile scripts against the new kinds (no store change for any of them)."""

from __future__ import annotations

import csv
import io

import pytest
from sqlalchemy import select

from irlab.classroom import ClassStore
from irlab.classroom.activities.predict import predict_settings
from irlab.classroom.analytics import COLUMNS
from irlab.classroom.database import reading
from irlab.classroom.refusals import NotAccepting
from irlab.classroom.schema import answers
from irlab.classroom.student import MAX_CHANGES
from irlab.errors import ValidationError
from irlab.walkthrough.chapters import chapter
from irlab.walkthrough.state import DEFAULT_STATE

FN4 = {"chapter": "actual-vs-predicted", "params": {"order": "1,2,3,4,5,6,7,8", "k": "4"}, "about": "class:FN"}


def test_per_activity_and_round_share_right_mistakes_and_time_by_hand(store, clock):
    new = store.start_class()
    desk = store.lecturer(new.code, new.key)
    ndcg = desk.add_activity("predict", predict_settings(DEFAULT_STATE, chapter("ndcg"), "nDCG@K"))
    which = desk.add_activity("choice", FN4)
    seats = [store.join(new.code) for _ in range(4)]
    desk.show(ndcg.id)
    # NDCG@2 of the default state is 0.3869; 0.5 is its value with the JK discount (a named mistake)
    for seat, (after, answer) in zip(seats, [(10, "0.3869"), (20, "0.39"), (30, "0.5"), (40, "0.9")]):
        clock.advance(after - (clock.now - 1_800_000_000.0))
        seat.answer(seat.view().activity.round_id, answer)
    desk.reveal()
    desk.reopen()
    clock.advance(5)
    seats[3].answer(seats[3].view().activity.round_id, "0.3869")
    desk.show(which.id)
    clock.advance(8)
    for seat, chosen in zip(seats[:3], (["5", "7"], ["1", "3"], ["1", "3"])):
        seat.answer(seat.view().activity.round_id, chosen)
    stats = desk.analytics()
    assert [(s.position, s.round, s.answers, s.right) for s in stats] == [(1, 1, 4, 2), (1, 2, 1, 1), (2, 1, 3, 1)]
    first = stats[0]
    assert first.share_right == 0.5 and first.median_seconds == 25.0 and first.p90_seconds == pytest.approx(37.0)
    assert [count for _, count in first.mistakes] == [1] and "Järvelin" in first.mistakes[0][0]
    assert stats[2].mistakes == (("chose the false positives (FP) instead", 2),)
    rows = list(csv.DictReader(io.StringIO(desk.analytics_csv())))
    assert tuple(rows[0]) == COLUMNS
    assert [(r["activity"], r["round"], r["share right"], r["median seconds"]) for r in rows] == [
        ("1", "1", "0.500", "25.0"), ("1", "2", "1.000", "5.0"), ("2", "1", "0.333", "8.0")]


def test_a_script_cannot_flood_the_new_kinds(sqlite_url):
    store = ClassStore(sqlite_url)  # SQLite only: 10,000 calls are the point, not the backend (both share the code)
    new = store.start_class()
    desk = store.lecturer(new.code, new.key)
    honest, script = store.join(new.code), store.join(new.code)
    which = desk.add_activity("choice", FN4)
    desk.show(which.id)
    honest.answer(honest.view().activity.round_id, ["5", "7"])
    round_id = script.view().activity.round_id
    refused = invalid = unchanged = 0
    for n in range(10_000):
        try:  # options that do not exist, and a real one over and over
            unchanged += script.answer(round_id, [f"option-{n}"] if n % 2 else ["5"]).unchanged
        except NotAccepting:
            refused += 1
        except ValidationError:
            invalid += 1
    assert (invalid, unchanged, refused) == (5_000, 4_999, 0)  # the flood of one answer cost its first write only
    with reading(store.engine) as connection:
        assert connection.execute(select(answers.c.revisions).where(answers.c.value == '["5"]')).scalar_one() == 0
    for n in range(200):  # changing it over and over: 50 changes, then refused (or the answer it has: no write)
        try:
            unchanged += script.answer(round_id, ["5"] if n % 2 else ["6"]).unchanged
        except NotAccepting:
            refused += 1
    assert refused + unchanged - 4_999 == 200 - MAX_CHANGES and refused == 75
    report = desk.report(which.id)
    assert report.rounds[0].answers == 2 and report.summaries[0].count == 2
