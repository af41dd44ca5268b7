"""The predict-then-reveal quiz: seeded questions, values from irlab's measures, verdicts and scores."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import irlab
from irlab.errors import ValidationError
from irlab.scenarios.cats_in_boxes import BINARY_QUERIES, CATS_IN_BOXES, WHITE_CAT_IN_A_BOX
from irlab.walkthrough.quiz import (
    METRICS,
    N_PICTURES,
    TOLERANCES,
    Tally,
    make_question,
    next_seed,
    query_for,
    ranking_for,
    record,
    reveal,
    score_rows,
    total,
)

SEEDS = st.integers(min_value=0, max_value=10**9)
KS = st.integers(min_value=1, max_value=N_PICTURES)

PLAIN = {  # the quiz's metric -> irlab's plain function
    "P": lambda r, j, k: irlab.precision_at_k(r, j, k),
    "R": lambda r, j, k: irlab.recall_at_k(r, j, k),
    "RR": lambda r, j, k: irlab.reciprocal_rank(r, j),
    "AP": lambda r, j, k: irlab.average_precision(r, j, k),
    "DCG": lambda r, j, k: irlab.dcg_at_k(r, j, k),
    "nDCG": lambda r, j, k: irlab.ndcg_at_k(r, j, k),
}


@given(SEEDS)
def test_a_seed_gives_the_same_permutation_of_the_eight_pictures(seed):
    assert ranking_for(seed) == ranking_for(seed)
    assert sorted(ranking_for(seed)) == sorted(CATS_IN_BOXES.item_ids)


def test_different_seeds_give_different_rankings():
    assert len({ranking_for(seed) for seed in range(50)}) > 45


@given(SEEDS, st.sampled_from(sorted(METRICS)), KS)
def test_the_value_is_irlabs_measure(seed, metric, k):
    question = make_question(seed, metric, k)
    expected = PLAIN[metric](list(question.ranking), question.judgments, k)
    assert question.breakdown.value == pytest.approx(expected, abs=1e-12)
    assert question.query.id in (BINARY_QUERIES if not METRICS[metric].graded else (WHITE_CAT_IN_A_BOX,))


def test_binary_query_depends_on_the_seed_only():
    assert query_for(11, "P") == query_for(11, "AP") == query_for(11, "RR")
    assert {query_for(seed, "P").id for seed in range(40)} == set(BINARY_QUERIES)


def test_metrics_without_k_ignore_it_and_k_is_checked():
    assert make_question(5, "RR", 3).k is None and make_question(5, "RR", 3).measure == "RR"
    for bad in (0, 9, 2.5, True, None):
        with pytest.raises(ValidationError):
            make_question(5, "P", bad)
    with pytest.raises(ValidationError, match="unknown quiz metric"):
        make_question(5, "MAP", 3)


@given(SEEDS, st.sampled_from(sorted(METRICS)), KS, st.sampled_from(TOLERANCES))
def test_reveal_checks_the_prediction_against_the_tolerance(seed, metric, k, tolerance):
    question = make_question(seed, metric, k)
    value = question.breakdown.value
    assert reveal(question, value, tolerance).within
    assert reveal(question, f"{value + tolerance * 0.9:.12f}", tolerance).within
    assert not reveal(question, value + tolerance * 1.5, tolerance).within
    assert reveal(question, "nonsense", tolerance).within is None


def test_predictions_are_read_like_exercise_answers():
    question = make_question(7, "P", 3)  # 2 of the top 3 are relevant
    for text in ("0.6667", "0,6667", "2/3", "66.67%"):
        assert reveal(question, text).within, text
    result = reveal(question, "0.5")
    assert not result.within and "the value is 0.6667" in result.message and "0.5" in result.message


def test_scores_count_per_metric_and_in_total():
    scores = record({}, "P", True)
    scores = record(scores, "P", False)
    scores = record(scores, "nDCG", None)  # unreadable: attempted, not correct
    assert scores == {"P": Tally(1, 2), "nDCG": Tally(0, 1)}
    assert total(scores) == Tally(1, 3)
    assert score_rows(scores) == [["Precision@K", "1", "2"], ["nDCG@K (graded)", "0", "1"]]
    assert record({}, "P", True) == {"P": Tally(1, 1)}  # pure: returns a new mapping


def test_next_seed_walks_a_fixed_sequence():
    seeds = [7]
    for _ in range(20):
        seeds.append(next_seed(seeds[-1]))
    assert len(set(seeds)) == len(seeds)
    assert seeds[1] == next_seed(7)


def test_badges_show_rank_judgment_and_cutoff():
    question = make_question(7, "nDCG", 2)
    badges = question.badges()
    assert len(badges) == N_PICTURES
    assert badges[0].startswith("1 · grade ") and badges[0].endswith("top 2") and "top" not in badges[2]
    assert "white cat in a box" in question.prompt and "nDCG@2" in question.prompt
