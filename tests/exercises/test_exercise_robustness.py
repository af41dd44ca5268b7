"""Malformed exercise files: each gives a ValidationError naming the field and the problem, nothing else.

Also property tests: any JSON value, and any mutation of a valid exercise, either loads as a
valid exercise (whose answer key and answer sheet then work) or raises ValidationError.
"""

from __future__ import annotations

import copy
import json
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from irlab.errors import ValidationError
from irlab.exercises import (
    answer_key,
    dump_exercise,
    exercise_from_dict,
    exercise_notebook,
    exercise_to_dict,
    parse_exercise,
    read_exercise,
)
from irlab.exercises.builder.sharing import EXPORTS
from irlab.exercises.format.examples import builtin_text
from irlab.exercises.format.exercise_file import MAX_FILE_BYTES
from irlab.exercises.format.schema import MAX_ITEMS


def _set(path: str, value):
    """A mutation setting ``path`` (dotted, list indices as numbers) to ``value``."""
    def mutate(data):
        *parents, last = path.split(".")
        target = data
        for key in parents:
            target = target[int(key)] if isinstance(target, list) else target[key]
        target[int(last) if isinstance(target, list) else last] = value
    return mutate


def _delete(path: str):
    def mutate(data):
        *parents, last = path.split(".")
        target = data
        for key in parents:
            target = target[int(key)] if isinstance(target, list) else target[key]
        del target[int(last) if isinstance(target, list) else last]
    return mutate


CASES = [
    # (name, mutation of the small exercise, the words the message must hold)
    ("schema_version missing", _delete("schema_version"), "missing field 'schema_version'"),
    ("schema_version unsupported", _set("schema_version", 2), "schema_version: unsupported version 2"),
    ("schema_version as text", _set("schema_version", "1"), "schema_version: unsupported version '1'"),
    ("title missing", _delete("title"), "missing field 'title'"),
    ("title not text", _set("title", 5), "title: must be text, got the number 5"),
    ("title empty", _set("title", "  "), "title: must not be empty"),
    ("unknown top-level field", _set("judgements", {}), "unknown field 'judgements'"),
    ("items not a list", _set("items", {"a": 1}), "items: must be a list, got an object"),
    ("empty items", _set("items", []), "items: the exercise needs at least 1 item"),
    ("item not an object", _set("items.0", "a"), "items[0]: an item must be a JSON object"),
    ("item id not text", _set("items.0.id", 1), "items[0].id: an id must be text"),
    ("item id with spaces", _set("items.0.id", " a"), "items[0].id: an id must be non-empty"),
    ("duplicate item id", _set("items.1.id", "a"), "items[1].id: item id 'a' is used twice"),
    ("label missing", _delete("items.0.label"), "items[0]: missing field 'label'"),
    ("unknown picture", _set("items.0.picture", "unicorn"), "items[0].picture: unknown picture 'unicorn'"),
    ("unknown scale", _set("queries.0.scale", "stars"),
     "queries[0].scale: must be \"binary\" or \"graded\", got the text 'stars'"),
    ("graded without max_grade", _delete("queries.0.max_grade"), "queries[0]: missing field 'max_grade'"),
    ("max_grade fractional", _set("queries.0.max_grade", 2.5), "queries[0].max_grade: must be a whole number"),
    ("binary with max_grade 3", _set("queries.1.max_grade", 3),
     "queries[1].max_grade: binary judgments have max_grade 1"),
    ("negative grade", _set("queries.0.judgments.a", -1),
     "queries[0].judgments['a']: a grade must be between 0 and 20, got -1"),
    ("grade above the top of any scale", _set("queries.0.judgments.a", 21),
     "queries[0].judgments['a']: a grade must be between 0 and 20, got 21"),
    ("fractional grade", _set("queries.0.judgments.a", 1.5),
     "queries[0].judgments['a']: a grade must be a whole number, got the number 1.5"),
    ("grade as text", _set("queries.0.judgments.a", "3"), "a grade must be a whole number, got the text '3'"),
    ("grade as boolean", _set("queries.0.judgments.a", True), "a grade must be a whole number, got true"),
    ("grade above max_grade", _set("queries.0.judgments.a", 5),
     "queries[0].judgments['a']: grade 5 is above max_grade (3)"),
    ("binary grade 2", _set("queries.1.judgments.c", 2),
     "queries[1].judgments['c']: binary judgments use grades 0 and 1 only"),
    ("judgment of an unknown item", _set("queries.0.judgments.9", 1), "queries[0].judgments['9']: unknown item '9'"),
    ("no relevant item", _set("queries.1.judgments.c", 0), "queries[1].judgments: no item has a grade of 1 or more"),
    ("duplicate query id", _set("queries.1.id", "q1"), "queries[1].id: query id 'q1' is used twice"),
    ("query called mean", _set("queries.1.id", "mean"), "queries[1].id: 'mean' is reserved"),
    ("ranking repeats an item", _set("systems.0.rankings.q1", ["b", "a", "b"]),
     "systems[0].rankings['q1'][2]: item id 'b' appears twice in the ranking (positions 1 and 3)"),
    ("unknown item in a ranking", _set("systems.0.rankings.q2", ["a", "z"]),
     "systems[0].rankings['q2'][1]: unknown item 'z' at rank 2"),
    ("ranking of numbers", _set("systems.0.rankings.q2", [1, 2]),
     "systems[0].rankings['q2'][0]: an item id must be text such as \"3\", got the number 1"),
    ("rankings not an object", _set("systems.0.rankings", [["a"]]),
     "systems[0].rankings: must be a JSON object {...} such as {\"q1\": [\"3\", \"1\", \"2\"]}, got a list"),
    ("empty ranking", _set("systems.0.rankings.q2", []), "systems[0].rankings['q2']: needs at least 1 item id"),
    ("missing ranking", _delete("systems.0.rankings.q2"), "systems[0].rankings: no ranking for query 'q2'"),
    ("ranking of an unknown query", _set("systems.0.rankings.q9", ["a"]),
     "systems[0].rankings['q9']: unknown query 'q9'"),
    ("duplicate system id", lambda d: d["systems"].append(copy.deepcopy(d["systems"][0])),
     "systems[1].id: system id 's' is used twice"),
    ("K of 0", _set("questions.0.measure", "nDCG@0"),
     "questions[0].measure: K must be a whole number of at least 1, got 0"),
    ("K past N", _set("questions.0.measure", "P@4"), "questions[0].measure: K = 4 is past the end of the ranking"),
    ("K past N in a mean", _set("questions.1.measure", "RR@3"), "for query 'q2'; use K between 1 and 2"),
    ("unknown measure", _set("questions.0.measure", "NDKG@5"),
     "questions[0].measure: unknown measure 'NDKG@5'; valid measures: P@k, R@k"),
    ("measure with a wrong parameter", _set("questions.0.measure", "nDCG(rel=2)@2"),
     "questions[0].measure: nDCG does not take the parameter 'rel'"),
    ("measure without its cutoff", _set("questions.0.measure", "P"), "questions[0].measure: P needs a cutoff"),
    ("rel above the scale", _set("questions.0.measure", "P(rel=4)@2"),
     "rel=4 is above the top grade (3) of query 'q1'"),
    ("unknown query in a question", _set("questions.0.query", "q9"), "questions[0].query: unknown query 'q9'"),
    ("unknown system in a question", _set("questions.0.system", "t"), "questions[0].system: unknown system 't'"),
    ("duplicate question id", _set("questions.1.id", "n2"), "questions[1].id: question id 'n2' is used twice"),
    ("no questions", _set("questions", []), "questions: the exercise needs at least 1 question"),
    ("mean_over without mean", _set("questions.0.mean_over", ["q1"]),
     "questions[0].mean_over: mean_over is only allowed"),
    ("mean_over of an unknown query", _set("questions.1.mean_over", ["q1", "q7"]),
     "questions[1].mean_over[1]: unknown query 'q7'"),
    ("tolerance zero", _set("tolerance", 0), "tolerance: must be above 0"),
    ("tolerance as text", _set("tolerance", "0.01"), "tolerance: must be a number"),
    ("negative seed", _set("seed", -3), "seed: must be between 0"),
    ("too many items", _set("items", [{"id": str(i), "label": "x"} for i in range(MAX_ITEMS + 1)]),
     "items: too many entries: 201; at most 200 are allowed"),
    ("label too long", _set("items.1.label", "x" * 301), "items[1].label: is too long: 301 characters; at most 300"),
    ("id too long", _set("items.0.id", "a" * 65), "items[0].id: an id is too long: 65 characters; at most 64"),
    ("empty id", _set("items.0.id", ""), "items[0].id: an id must not be empty"),
    ("line break in an id", _set("items.0.id", "a\nb"),
     "items[0].id: an id must not hold control characters such as U+000A (a line break)"),
    ("right-to-left override in a label", _set("items.0.label", "\u202eevil"),
     "items[0].label: must not hold control characters such as U+202E (right-to-left override)"),
    ("unpaired surrogate in a title", _set("title", "a\ud800"),
     "title: must not hold control characters such as U+D800"),
    ("NUL in instructions", _set("instructions", "a\x00"),
     "instructions: must not hold control characters such as U+0000 (a NUL)"),
    ("unknown field of an item", _set("items.0.colour", "red"),
     "items[0]: unknown field 'colour'; the fields of an item are: id, label, picture"),
    ("mean_over repeats a query", _set("questions.1.mean_over", ["q1", "q1"]),
     "questions[1].mean_over[1]: query id 'q1' appears twice in the list (positions 1 and 2)"),
    ("question's system not text", _set("questions.0.system", 5),
     "questions[0].system: must be text, got the number 5"),
]


@pytest.mark.parametrize("name, mutate, message", CASES, ids=[case[0] for case in CASES])
def test_malformed_exercise_gives_a_clear_message(name, mutate, message, small_dict):
    data = small_dict
    mutate(data)
    with pytest.raises(ValidationError) as error:
        parse_exercise(json.dumps(data))
    assert message in str(error.value)
    assert "\n" not in str(error.value), "one line, so the CLI prints one line"


RAW_CASES = [
    ("invalid JSON", "{", "not valid JSON: Expecting property name enclosed in double quotes (line 1, column 2)"),
    ("trailing garbage", '{"a": 1} x', "not valid JSON: Extra data"),
    ("top-level list", "[]", "an IR Lab exercise must be a JSON object {...}, got a list"),
    ("top-level text", '"hello"', "an IR Lab exercise must be a JSON object {...}, got the text 'hello'"),
    ("top-level null", "null", "got null"),
    ("duplicate keys", '{"title": "a", "title": "b"}', "the key 'title' appears twice in one object"),
    ("NaN", '{"tolerance": NaN}', "NaN is not a number JSON allows"),
    ("deep nesting", "[" * 100_000 + "]" * 100_000, "not an exercise file: nested deeper than 64 levels"),
    ("deep objects", '{"a": ' * 65 + "1" + "}" * 65, "not an exercise file: nested deeper than 64 levels"),
    ("deep and unterminated", "[" * 100_000, "not an exercise file: nested deeper than 64 levels"),
    ("64 levels are only JSON", "[" * 64 + "]" * 64, "an IR Lab exercise must be a JSON object {...}, got a list"),
    ("brackets in texts do not nest", '{"title": "' + "[" * 1000 + '"}', "missing field 'schema_version'"),
    ("huge number", '{"seed": ' + "9" * 5000 + "}", "not valid JSON"),
    ("empty file", "", "not valid JSON: Expecting value (line 1, column 1)"),
]


@pytest.mark.parametrize("name, text, message", RAW_CASES, ids=[case[0] for case in RAW_CASES])
def test_malformed_json_gives_a_clear_message(name, text, message):
    with pytest.raises(ValidationError) as error:
        parse_exercise(text)
    assert message in str(error.value)


def test_invalid_utf8_gives_a_clear_message():
    with pytest.raises(ValidationError, match="the file is not UTF-8 text"):
        parse_exercise(b'{"title": "\xff"}')


def test_files_over_the_size_limit_are_refused_before_reading(tmp_path, small_dict):
    data = small_dict
    data["instructions"] = "x" * MAX_FILE_BYTES
    path = tmp_path / "big.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ValidationError) as error:
        read_exercise(path)
    assert str(error.value).startswith(f"{path}: the file is too large:")
    assert "at most 262144 bytes (256 KB)" in str(error.value)
    with pytest.raises(ValidationError, match="too large"):
        parse_exercise(json.dumps(data))


def test_a_missing_file_names_the_path(tmp_path):
    with pytest.raises(ValidationError, match="nope.json: cannot read the file"):
        read_exercise(tmp_path / "nope.json")


def test_errors_inside_a_file_name_the_file_and_the_field(tmp_path, small_dict):
    data = small_dict
    data["questions"][0]["measure"] = "NDKG@5"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ValidationError) as error:
        read_exercise(path)
    assert str(error.value).startswith(f"{path}: questions[0].measure: unknown measure 'NDKG@5'")


# ---------------------------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8)
    | st.sampled_from(["a", "b", "q1", "mean", "s", "nDCG@2", "P@1", "binary", "graded", 1, 0, 3]),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(
        st.sampled_from(["id", "label", "judgments", "rankings", "measure", "query", "system", "scale", "a", "q1",
                         "max_grade", "items", "title"]) | st.text(max_size=5), children, max_size=4),
    max_leaves=20)


def _loads_or_refuses(data) -> str:
    """"valid" or "refused"; a valid exercise must work all the way through (validation is a promise), and a
    refusal must be one ValidationError whose message is one line."""
    try:
        exercise = exercise_from_dict(data)
    except ValidationError as error:
        assert error.message and "\n" not in str(error)
        return "refused"
    assert exercise_from_dict(exercise_to_dict(exercise)) == exercise
    assert parse_exercise(dump_exercise(exercise)) == exercise
    key = answer_key(exercise)
    assert len(key) == len(exercise.questions) and all(math.isfinite(entry.value) for entry in key)
    for export in EXPORTS:
        assert export.make(exercise)
    return "valid"


def _verdict(read) -> object:
    try:
        return read()
    except ValidationError as error:
        return str(error)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(JSON)
def test_any_json_value_loads_or_raises_validation_error(value):
    assert _loads_or_refuses(value) == "refused"  # random JSON is never an exercise
    try:
        text = json.dumps(value, allow_nan=False)
    except ValueError:  # an infinity: no JSON text holds it (and exercise_from_dict refused it above)
        return
    # the text and the value it holds get the same verdict and the same message
    assert _verdict(lambda: parse_exercise(text)) == _verdict(lambda: exercise_from_dict(value))


def _paths(value, prefix=()):
    """Every (path) to a node of a JSON value."""
    yield prefix
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _paths(child, prefix + (key,))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from _paths(child, prefix + (index,))


BUILTINS = [json.loads(builtin_text("cats-in-boxes")), json.loads(builtin_text("ndcg-exercise"))]


def _mutate(document, data) -> None:
    """Replace, delete, duplicate or swap one node of ``document``."""
    paths = [path for path in _paths(document) if path]
    path = data.draw(st.sampled_from(paths))
    parent = document
    for key in path[:-1]:
        parent = parent[key]
    operation = data.draw(st.sampled_from(["replace", "delete", "duplicate", "swap"]))
    if operation == "replace":
        parent[path[-1]] = data.draw(JSON)
    elif operation == "delete":
        del parent[path[-1]]
    elif operation == "swap" and isinstance(parent, list):  # often keeps the exercise valid (two ranks swapped)
        other = data.draw(st.integers(0, len(parent) - 1))
        parent[path[-1]], parent[other] = parent[other], parent[path[-1]]
    elif isinstance(parent, list):
        parent.insert(path[-1], copy.deepcopy(parent[path[-1]]))
    else:
        parent[f"{path[-1]}2"] = copy.deepcopy(parent[path[-1]])


def test_any_mutation_of_a_valid_exercise_loads_or_raises_validation_error(small_exercise_document):
    outcomes = []

    @settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.data())
    def mutated(data):
        document = copy.deepcopy(data.draw(st.sampled_from([small_exercise_document, *BUILTINS])))
        for _ in range(data.draw(st.integers(1, 3))):
            _mutate(document, data)
        outcomes.append(_loads_or_refuses(document))

    mutated()
    assert {"valid", "refused"} <= set(outcomes), "both outcomes are exercised"


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(BUILTINS), st.integers(0, 7), st.integers(0, 7))
def test_swapping_two_ranks_keeps_a_valid_exercise_valid(base, first, second):
    document = copy.deepcopy(base)
    ranking = next(iter(document["systems"][0]["rankings"].values()))
    ranking[first], ranking[second] = ranking[second], ranking[first]
    exercise = exercise_from_dict(document)
    exercise_notebook(exercise, solutions=True)
