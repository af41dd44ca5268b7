"""Every number a chapter shows, asked as a question: the view's value, and Practise's exercise agrees with it."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irlab.classroom.activities.chapter_numbers import chapter_number, offered
from irlab.errors import ValidationError
from irlab.exercises.questions.explain import explain_question
from irlab.walkthrough import views
from irlab.walkthrough.chapters import CHAPTERS, chapter
from irlab.walkthrough.state import DEFAULT_STATE, SCENARIO

IDS = SCENARIO.item_ids
orders = st.permutations(IDS).map(tuple)
states = st.builds(
    lambda order, k, mode, level, returned, grades, white, dark: replace(
        DEFAULT_STATE, order=order, k=k, mode=mode, level=level, returned=returned, grades=grades,
        query_orders={"white-cat": white, "dark-cat": dark}),
    orders, st.integers(1, 8), st.sampled_from(["binary", "graded"]), st.integers(1, 4), st.integers(1, 8),
    st.none() | st.fixed_dictionaries({i: st.integers(0, 4) for i in IDS}), orders, orders)


@settings(max_examples=60, deadline=None)
@given(states)
def test_the_exercise_asks_exactly_the_number_the_chapter_shows(state):
    for chapter_ in CHAPTERS:
        for key, label in offered(state, chapter_):
            number = chapter_number(state, chapter_, key)
            assert number.label == label
            if number.exercise is not None:
                asked = explain_question(number.exercise, number.exercise.questions[0])
                assert asked.value == number.breakdown.value, (chapter_.slug, key)


def test_the_numbers_are_the_views_own():
    state = replace(DEFAULT_STATE, k=3)
    assert chapter_number(state, chapter("ndcg"), "nDCG@K").breakdown == views.chapter_view(state, chapter("ndcg")).ndcg
    rp = views.chapter_view(state, chapter("recall-precision"))
    assert chapter_number(state, chapter("recall-precision"), "Precision@K").breakdown == rp.precision
    mrr = views.chapter_view(state, chapter("mrr"))
    assert chapter_number(state, chapter("mrr"), "MRR").breakdown == mrr.mean
    assert chapter_number(state, chapter("mrr"), "RR:dark-cat").breakdown == mrr.per_query["dark cat"]
    tp = chapter_number(state, chapter("actual-vs-predicted"), "TP")
    assert (tp.label, tp.value, tp.whole_numbers, tp.exercise) == ("TP@3", 1.0, True, None)


def test_the_sources_example_values():
    """The walkthrough's golden numbers (tests/golden/cats_in_boxes.json) through the class's questions."""
    assert chapter_number(DEFAULT_STATE, chapter("recall-precision"), "Recall@K").value == 0.25
    assert round(chapter_number(DEFAULT_STATE, chapter("mrr"), "MRR").value, 4) == 0.5667
    assert round(chapter_number(DEFAULT_STATE, chapter("map"), "AP@K:white-cat").value, 4) == 0.6679
    graded8 = replace(DEFAULT_STATE, k=8, mode="graded")
    assert round(chapter_number(graded8, chapter("ndcg"), "nDCG@K").value, 4) == 0.7283


def test_a_number_the_chapter_does_not_show_is_refused_with_the_choices():
    with pytest.raises(ValidationError, match="Recall@K, Precision@K"):
        chapter_number(DEFAULT_STATE, chapter("recall-precision"), "nDCG@K")


def test_unbounded_numbers_get_a_scale_that_holds_them():
    dcg = chapter_number(replace(DEFAULT_STATE, k=8), chapter("ndcg"), "DCG@K")
    assert dcg.value > 1 and dcg.high >= 2 * dcg.value and dcg.low == 0
