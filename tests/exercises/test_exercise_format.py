"""The exercise file format: round trips, canonical output, the shipped examples, the docs' example."""

from __future__ import annotations

import json
import pickle
import re
from pathlib import Path

import pytest

from irlab.errors import ValidationError
from irlab.exercises import (
    BUILTIN_NAMES,
    dump_exercise,
    exercise_from_dict,
    exercise_scenario,
    exercise_to_dict,
    parse_exercise,
    question_rankings,
    read_exercise,
    validate_exercise,
    write_exercise,
)
from irlab.exercises.format.examples import builtin_text, load_exercise_source
from irlab.scenarios.cats_in_boxes import CATS_IN_BOXES

DOCS = Path(__file__).resolve().parents[2] / "docs" / "exercise-format.md"


@pytest.mark.parametrize("name", BUILTIN_NAMES)
def test_every_shipped_example_round_trips_and_is_canonical(name):
    text = builtin_text(name)
    exercise = parse_exercise(text)
    assert parse_exercise(dump_exercise(exercise)) == exercise
    assert dump_exercise(exercise) == text, "the shipped file is in canonical form"
    assert exercise_from_dict(exercise_to_dict(exercise)) == exercise
    assert validate_exercise(exercise) == exercise


def test_dump_is_canonical_whatever_the_input_spelling(small_dict):
    small_dict["questions"][0]["measure"] = "ndcg_cut_2"
    small_dict["queries"][0]["judgments"]["a"] = 3.0
    exercise = exercise_from_dict(small_dict)
    assert exercise.questions[0].measure == "nDCG@2"
    assert exercise.query("q1").judgments["a"] == 3
    text = dump_exercise(exercise)
    assert dump_exercise(parse_exercise(text)) == text
    assert '"measure": "nDCG@2"' in text and "3.0" not in text and text.endswith("}\n")


def test_key_order_and_whitespace_do_not_matter(small_dict):
    reordered = {key: small_dict[key] for key in reversed(list(small_dict))}
    assert parse_exercise(json.dumps(reordered, indent=7)) == parse_exercise(json.dumps(small_dict))


def test_bytes_with_a_byte_order_mark_load(small_dict):
    assert parse_exercise(b"\xef\xbb\xbf" + json.dumps(small_dict).encode()) == exercise_from_dict(small_dict)


def test_files_are_read_and_written(tmp_path, cats):
    path = tmp_path / "cats.json"
    write_exercise(cats, path)
    assert read_exercise(path) == cats
    assert load_exercise_source(str(path)) == cats == load_exercise_source("builtin:cats-in-boxes")


def test_exercises_are_hashable_picklable_and_immutable(cats):
    assert hash(cats) == hash(parse_exercise(dump_exercise(cats)))
    assert pickle.loads(pickle.dumps(cats)) == cats
    with pytest.raises(AttributeError):
        cats.title = "x"  # type: ignore[misc]
    with pytest.raises(TypeError):
        cats.systems[0].rankings["dark-cat"] = ()  # type: ignore[index]


def test_cats_example_is_the_walkthrough_scenario(cats):
    assert [(i.id, i.label, i.picture) for i in cats.items] == [(i.id, i.title, i.picture)
                                                                 for i in CATS_IN_BOXES.items]
    assert [q.id for q in cats.queries] == [q.id for q in CATS_IN_BOXES.queries]
    for query in CATS_IN_BOXES.queries:
        assert cats.query(query.id).judgments == query.judgments
        assert cats.query(query.id).text == query.text
        assert cats.ranking("walkthrough", query.id) == query.default_ranking


def test_ndcg_example_is_the_seed_notebook(ndcg):
    seed_rankings = {"q1": [2, 1, 3, 4, 5, 6, 10, 7, 9, 8], "q2": [1, 2, 9, 4, 5, 6, 7, 8, 3, 10],
                     "q3": [1, 7, 4, 5, 3, 6, 9, 8, 10, 2]}
    seed_truth = {"q1": {4: 3, 1: 2, 2: 1}, "q2": {3: 3, 4: 3, 1: 2, 2: 1, 8: 1},
                  "q3": {1: 3, 4: 3, 7: 2, 5: 2, 6: 1, 8: 1}}
    assert len(ndcg.items) == 10
    for query, ranking in seed_rankings.items():
        assert ndcg.ranking("system", query) == tuple(str(d) for d in ranking)
        assert dict(ndcg.query(query).judgments) == {str(d): g for d, g in seed_truth[query].items()}
        assert ndcg.query(query).max_grade == 3
    assert {q.measure for q in ndcg.questions} == {"nDCG(discount='jarvelin-kekalainen')@5",
                                                   "nDCG(discount='jarvelin-kekalainen')@10"}
    assert "Järvelin–Kekäläinen" in ndcg.instructions and "log2(i)" in ndcg.instructions
    assert "log2(k + 1)" in ndcg.instructions


def test_labels_with_html_markdown_and_script_load_unchanged(evil):
    assert evil.item("1").label == "<script>alert(1)</script>"
    assert evil.item("2").label == "[click me](javascript:alert(1)) **bold**"
    assert evil.title.startswith("Evil <b>title</b>")
    assert parse_exercise(dump_exercise(evil)) == evil


def test_question_rankings_and_scenario_view(cats):
    pairs = question_rankings(cats, cats.question("map8"))
    assert list(pairs) == ["cat-in-a-box", "white-cat", "dark-cat"]
    ranking, judgments = pairs["dark-cat"]
    assert ranking == CATS_IN_BOXES.query("dark-cat").default_ranking and judgments["7"] == 1
    scenario = exercise_scenario(cats)
    assert scenario.item("2").picture == "white-cat-in-box"
    assert scenario.item("2").alt == CATS_IN_BOXES.item("2").alt
    assert scenario.query("white-cat").default_ranking == CATS_IN_BOXES.query("white-cat").default_ranking


def _docs_example() -> dict:
    text = DOCS.read_text(encoding="utf-8")
    return json.loads(re.search(r"```json\n(.*?)\n```", text, re.S).group(1))


def test_the_example_in_the_docs_loads():
    exercise = exercise_from_dict(_docs_example())
    assert exercise.seed == 7 and exercise.question("mrr").is_mean and exercise.item("2").picture


def _unknown_measure(data):
    data["questions"].append({"id": "x", "measure": "NDKG@5", "query": "q1", "system": "bm25"})


def _unknown_item(data):
    data["queries"][0]["judgments"]["9"] = 1


def _repeated_item(data):
    data["systems"][0]["rankings"]["q1"] = ["2", "2"]


def _k_past_the_end(data):
    data["questions"][0]["measure"] = "nDCG@12"


@pytest.mark.parametrize("mutate", [_unknown_measure, _unknown_item, _repeated_item, _k_past_the_end])
def test_the_messages_shown_in_the_docs_are_the_real_ones(mutate):
    data = _docs_example()
    mutate(data)
    with pytest.raises(ValidationError) as error:
        exercise_from_dict(data)
    documented = DOCS.read_text(encoding="utf-8").split("Example messages")[1].split("```")[1].splitlines()
    assert str(error.value) in documented
