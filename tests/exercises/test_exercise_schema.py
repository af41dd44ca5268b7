"""The exercise format as a JSON Schema: published, printed, valid for every shipped example, every problem listed."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from irlab.errors import ValidationError
from irlab.exercises import BUILTIN_NAMES, exercise_from_dict
from irlab.exercises.examples import builtin_text
from irlab.exercises.schema import exercise_problems, exercise_schema, schema_problems, schema_text

ROOT = Path(__file__).resolve().parents[2]


def test_the_schema_is_a_valid_json_schema_and_the_published_copy_is_current():
    Draft202012Validator.check_schema(exercise_schema())
    assert (ROOT / "docs" / "exercise-schema.json").read_text() == schema_text(), \
        "regenerate: python -m irlab exercise schema > docs/exercise-schema.json"


@pytest.mark.parametrize("name", BUILTIN_NAMES)
def test_every_shipped_example_is_valid(name):
    assert schema_problems(json.loads(builtin_text(name))) == []


def test_a_malformed_file_gets_every_problem_with_its_path(small_dict):
    bad = copy.deepcopy(small_dict)
    bad["title"] = 7
    bad["items"][1]["label"] = "x" * 400
    bad["queries"][0]["scale"] = "stars"
    bad["queries"][1]["judgments"]["c"] = -1
    del bad["systems"][0]["rankings"]
    bad["questions"][0]["extra"] = True
    problems = dict(exercise_problems(bad))
    assert problems == {
        "title": "must be text, got 7",
        "items[1].label": "is too long: 400 characters; at most 300 are allowed",
        "queries[0].scale": 'must be one of "binary", "graded"',
        "queries[1].judgments['c']": "is out of range: -1 (minimum 0)",
        "systems[0]": "missing field 'rankings'",
        "questions[0]": "unknown field 'extra'",
    }


def test_cross_field_problems_come_after_the_shape_is_right(small_dict):
    small_dict["questions"][0]["measure"] = "nDCG@9"
    [(path, message)] = exercise_problems(small_dict)
    assert path == "questions[0].measure" and "past the end of the ranking" in message


JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 30) | st.text(max_size=6),
                    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children,
                                                                                       max_size=4), max_leaves=15)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_the_schema_never_refuses_what_the_reader_accepts(small_exercise_document, data):
    document = copy.deepcopy(small_exercise_document)
    key = data.draw(st.sampled_from(sorted(document)))
    document[key] = data.draw(JSON) if data.draw(st.booleans()) else document[key]
    try:
        exercise_from_dict(document)
    except ValidationError:
        return
    assert schema_problems(document) == []


def test_the_cli_prints_the_schema_and_lists_every_problem(tmp_path, small_dict):
    printed = subprocess.run([sys.executable, "-m", "irlab", "exercise", "schema"], capture_output=True, text=True,
                             cwd=ROOT)
    assert printed.returncode == 0 and json.loads(printed.stdout) == exercise_schema()
    small_dict["title"] = ""
    small_dict["items"][0]["colour"] = "red"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(small_dict))
    done = subprocess.run([sys.executable, "-m", "irlab", "exercise", "validate", str(path)], capture_output=True,
                          text=True, cwd=ROOT)
    lines = done.stderr.splitlines()
    assert done.returncode == 2 and len(lines) == 2
    assert "items[0]: unknown field 'colour'" in lines[0] and "title: must not be empty" in lines[1]
