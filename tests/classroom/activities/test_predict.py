"""The kind "predict a number": settings, answers, Practise's check and named mistakes, summaries."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from irlab.classroom.activities import KINDS, kind
from irlab.classroom.activities.base import CLOSED, OPEN, REVEALED, Respondent, RoundAnswers, StoredAnswer
from irlab.classroom.activities.predict import MAX_MAGNITUDE, PREDICT, predict_settings
from irlab.errors import ValidationError
from irlab.walkthrough.chapters import chapter
from irlab.walkthrough.state import DEFAULT_STATE

ME = Respondent(number=1, seed=5)
NDCG3 = PREDICT.settings({"chapter": "ndcg", "params": {"order": "1,2,3,4,5,6,7,8", "k": "3", "rel": "graded"},
                          "number": "nDCG@K"})
RIGHT = 0.376847570173164  # NDCG@3 of the sources' order for "white cat in a box"
JK = 0.4681  # the same with the original Järvelin-Kekäläinen discount (rank 1 undiscounted)


def answered(values, mistakes=None, settings=NDCG3):
    result = []
    for number, value in enumerate(values, start=1):
        verdict = PREDICT.check(settings, value, ME)
        result.append(StoredAnswer(Respondent(number, number), str(value), value, verdict.correct, verdict.mistake,
                                   seconds=float(number)))
    return tuple(result)


def test_the_kind_is_registered():
    assert kind("predict") is PREDICT and list(KINDS)[0] == "predict"


def test_settings_are_stored_canonically():
    assert NDCG3 == {"chapter": "ndcg", "number": "nDCG@K", "tolerance": 0.005,
                     "params": {"order": "1,2,3,4,5,6,7,8", "k": "3", "rel": "graded"}}
    from_link = PREDICT.settings({"link": "https://lab.example.org/ndcg?order=1,2,3,4,5,6,7,8&k=3&rel=graded&present=1",
                                  "number": "nDCG@K"})
    assert from_link == NDCG3
    mine = PREDICT.settings(predict_settings(replace(DEFAULT_STATE, k=3, mode="graded"), chapter("ndcg"), "nDCG@K"))
    assert mine == NDCG3
    counts = PREDICT.settings(predict_settings(DEFAULT_STATE, chapter("actual-vs-predicted"), "FN"))
    assert counts["tolerance"] == 0.0  # whole numbers: exact by default


@pytest.mark.parametrize("raw, problem", [
    ({"chapter": "nope", "params": {}, "number": "MRR"}, "unknown chapter"),
    ({"chapter": "ndcg", "params": {"k": "12"}, "number": "nDCG@K"}, "K must be between 1 and 8"),
    ({"chapter": "ndcg", "params": {"order": "1,1,1"}, "number": "nDCG@K"}, "each of the pictures"),
    ({"chapter": "ndcg", "params": {"evil": "<script>"}, "number": "nDCG@K"}, "unknown setting"),
    ({"chapter": "ndcg", "params": {}, "number": "MRR"}, "shows no number"),
    ({"chapter": "ndcg", "params": {}}, "choose the number"),
    ({"chapter": "ndcg", "params": {}, "number": "nDCG@K", "tolerance": -1}, "tolerance"),
    ({"chapter": "ndcg", "params": {}, "number": "nDCG@K", "tolerance": float("nan")}, "tolerance"),
    ({"chapter": "ndcg", "params": {}, "number": "nDCG@K", "tolerance": True}, "tolerance"),
    ({"chapter": "ndcg", "params": {}, "number": "nDCG@K", "extra": 1}, "unknown setting"),
    ({"link": "https://x.org/runs?order=1", "number": "nDCG@K"}, "not a link to a walkthrough chapter"),
    ({"chapter": "ndcg", "params": {"k": 3}, "number": "nDCG@K"}, "parameters"),
    ("ndcg", "mapping"),
])
def test_bad_settings_are_refused_with_a_reason(raw, problem):
    with pytest.raises(ValidationError, match=problem):
        PREDICT.settings(raw)


def test_the_question_shows_the_state_but_not_the_answer():
    question = PREDICT.question(NDCG3, ME)
    assert question.label == "NDCG@3" and "white cat in a box" in question.prompt
    assert question.params == NDCG3["params"] and question.tolerance == 0.005
    assert [tile["id"] for tile in question.rows[0].tiles] == list("12345678")
    assert "0.3768" not in repr(question)
    three = PREDICT.question(PREDICT.settings(predict_settings(DEFAULT_STATE, chapter("map"), "MAP@K")), ME)
    assert len(three.rows) == 3  # the three queries' rankings


def test_answers_are_read_as_on_practise():
    assert [PREDICT.parse(NDCG3, raw, ME).value for raw in ("0.75", "0,75", "3/4", "75%", 0.75)] == [0.75] * 5
    assert PREDICT.parse(NDCG3, " 0.5\u202e\n", ME).text == "0.5"


@pytest.mark.parametrize("raw", ["nan", "NaN", "inf", "-Infinity", "1e400", "1e7", -2e6, float("inf"),
                                 float("nan"), "", "abc", "1/0", "=1+1", "0x10", None, True, ["0.5"], "9" * 200])
def test_unreadable_or_absurd_answers_are_refused_with_one_line(raw):
    with pytest.raises(ValidationError) as refused:
        PREDICT.parse(NDCG3, raw, ME)
    message = str(refused.value)
    assert message and "\n" not in message and len(message) < 200


@given(st.floats(allow_nan=False, allow_infinity=False, min_value=-MAX_MAGNITUDE, max_value=MAX_MAGNITUDE))
def test_every_finite_number_of_sane_size_is_taken_and_checked(value):
    parsed = PREDICT.parse(NDCG3, value, ME)
    assert parsed.value == value
    verdict = PREDICT.check(NDCG3, parsed.value, ME)
    assert verdict.correct == (abs(value - RIGHT) <= 0.005 + 1e-9)


def test_the_check_names_practises_mistakes():
    assert PREDICT.check(NDCG3, RIGHT, ME).correct is True
    assert PREDICT.check(NDCG3, JK, ME).mistake == "discount-jk"
    assert PREDICT.check(NDCG3, 0.6529, ME).mistake == "idcg-from-retrieved"
    assert PREDICT.check(NDCG3, 0.9, ME).mistake is None
    feedback = PREDICT.feedback(NDCG3, answered([JK])[0])
    assert feedback.correct is False and "Järvelin" in feedback.message and "0.4681" in feedback.message
    recall = PREDICT.settings(predict_settings(replace(DEFAULT_STATE, k=3), chapter("recall-precision"), "Recall@K"))
    assert PREDICT.check(recall, 1 / 3, ME).mistake == "precision-instead-of-recall"  # P@3 = 1/3, R@3 = 0.25


def test_counts_are_checked_without_a_mistake_list():
    fn = PREDICT.settings(predict_settings(DEFAULT_STATE, chapter("actual-vs-predicted"), "FN"))
    assert PREDICT.solution(fn).display_value == "3"
    assert PREDICT.check(fn, 3, ME).correct is True and PREDICT.check(fn, 2, ME).correct is False
    assert PREDICT.feedback(fn, answered([3], settings=fn)[0]).message.startswith("Correct")


def test_summary_before_the_reveal_and_below_three_answers_is_only_a_count():
    values = [RIGHT, JK, 0.9, 0.1]
    summaries = PREDICT.summarise(NDCG3, [RoundAnswers(1, OPEN, answered(values)),
                                          RoundAnswers(2, CLOSED, answered(values)),
                                          RoundAnswers(3, REVEALED, answered(values[:2]))])
    for summary, expected in zip(summaries, (4, 4, 2)):
        assert summary.count == expected
        assert (summary.histogram, summary.within, summary.mistakes, summary.right_value) == (None, None, (), None)
        assert not summary.shown and summary.share_within is None


def test_summary_after_the_reveal():
    values = [RIGHT, 0.3769, 0.38, JK, JK, 0.9, 1e6, -3.0]
    first, second = PREDICT.summarise(NDCG3, [RoundAnswers(1, REVEALED, answered(values)),
                                              RoundAnswers(2, REVEALED, answered([RIGHT] * 3))])
    assert (first.count, first.within, first.share_within) == (8, 3, 3 / 8)
    assert [(m.name, m.count) for m in first.mistakes] == [("discount-jk", 2)]
    assert first.mistakes[0].text.endswith(": 2")
    histogram = first.histogram
    assert histogram.total == 8 and (histogram.below, histogram.above) == (1, 1)
    assert histogram.right_bin.low <= RIGHT < histogram.right_bin.high and histogram.right_bin.count == 3
    assert math.isclose(histogram.right_bin.low + histogram.width / 2, RIGHT)
    assert [b.low for b in first.histogram.bins] == [b.low for b in second.histogram.bins]
    assert second.within == 3


def test_the_solution_is_the_chapters_breakdown_and_a_link():
    solution = PREDICT.solution(NDCG3)
    assert solution.number.breakdown.measure == "NDCG@3" and solution.display_value == "0.3768"
    assert solution.params["k"] == "3" and solution.chapter.slug == "ndcg"
    assert PREDICT.right_cell(NDCG3, ME) == "0.3768"
