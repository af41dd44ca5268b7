"""Seeded variants: deterministic, different per seed, equivalent in structure."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

import pytest

from irlab.errors import ValidationError
from irlab.exercises import answer_key, dump_exercise, exercise_to_dict, make_variant, parse_exercise
from irlab.exercises.exports.variants import content_hash


@pytest.mark.parametrize("name", ["cats", "ndcg"])
def test_same_seed_same_variant_different_seeds_different_rankings(name, request):
    exercise = request.getfixturevalue(name)
    variants = [make_variant(exercise, seed) for seed in range(60)]
    assert [make_variant(exercise, seed) for seed in range(60)] == variants
    assert len({variant.systems for variant in variants}) == 60, "every seed gives different rankings"
    for variant in variants:
        assert variant.systems != exercise.systems


def test_a_variant_is_the_same_exercise_with_other_rankings(cats):
    variant = make_variant(cats, 11)
    assert variant.seed == 11
    assert replace(variant, systems=cats.systems, seed=None) == cats
    for system, original in zip(variant.systems, cats.systems):
        for query, ranking in system.rankings.items():
            assert sorted(ranking) == sorted(original.rankings[query])


def test_variants_keep_answers_computable_and_nonzero_where_the_original_was(ndcg, cats):
    for exercise in (ndcg, cats):
        nonzero = {q.id for q, b in answer_key(exercise) if b.value}
        for seed in range(25):
            key = answer_key(make_variant(exercise, seed))
            assert {q.id for q, b in key if b.value} >= nonzero


def test_variants_round_trip_and_the_seed_is_stored(ndcg):
    variant = make_variant(ndcg, 7)
    assert parse_exercise(dump_exercise(variant)) == variant
    assert exercise_to_dict(variant)["seed"] == 7


def test_variants_never_touch_the_global_random_generator(ndcg):
    random.seed(123)
    expected = random.random()
    random.seed(123)
    make_variant(ndcg, 5)
    assert random.random() == expected


def test_the_seed_depends_on_the_content_not_on_a_stored_seed(ndcg):
    assert content_hash(ndcg) == content_hash(replace(ndcg, seed=99))
    assert make_variant(replace(ndcg, seed=99), 3) == make_variant(ndcg, 3)
    other = replace(ndcg, title="Another title")
    assert make_variant(other, 3).systems != make_variant(ndcg, 3).systems


def test_the_answer_key_of_any_seed(ndcg):
    keys = {seed: [round(b.value, 4) for _, b in answer_key(make_variant(ndcg, seed))] for seed in range(10)}
    assert len({tuple(key) for key in keys.values()}) == 10
    assert all(0 < value <= 1 for value in itertools.chain.from_iterable(keys.values()))


@pytest.mark.parametrize("seed", [-1, 1.5, "3", True, None])
def test_bad_seeds_are_refused(ndcg, seed):
    with pytest.raises(ValidationError, match="a variant seed must be a whole number >= 0"):
        make_variant(ndcg, seed)
