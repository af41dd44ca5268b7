"""Exercises as links: round trips, size limit, damaged links."""

from __future__ import annotations

import base64
import copy
import json
import zlib

import pytest

from irlab.errors import ValidationError
from irlab.exercises import BUILTIN_NAMES, builtin_exercise, exercise_from_dict, exercise_from_link, exercise_to_link
from irlab.exercises.format.links import MAX_LINK_CHARS, PREFIX


@pytest.mark.parametrize("name", BUILTIN_NAMES)
def test_links_round_trip(name):
    exercise = builtin_exercise(name)
    link = exercise_to_link(exercise)
    assert link.startswith(PREFIX) and len(link) < MAX_LINK_CHARS
    assert set(link[len(PREFIX):]) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    assert exercise_from_link(link) == exercise
    assert exercise_from_link(f"  https://irlab.example/Practice?mode=x&exercise={link}#top \n") == exercise


def test_evil_labels_survive_a_link(evil):
    assert exercise_from_link(exercise_to_link(evil)) == evil


def test_large_exercises_are_refused_with_a_clear_message(small_dict):
    data = copy.deepcopy(small_dict)
    data["instructions"] = "".join(chr(0x4E00 + (i * 7919) % 20000) for i in range(8000))  # does not compress
    with pytest.raises(ValidationError, match=r"too large for a link: \d+ characters encoded, the limit is 6000"):
        exercise_to_link(exercise_from_dict(data))


def _token(raw: bytes) -> str:
    return PREFIX + base64.urlsafe_b64encode(zlib.compress(raw)).decode().rstrip("=")


@pytest.mark.parametrize("text, message", [
    ("", "not an exercise link"),
    ("hello", "not an exercise link: it should start with 'ex1.'"),
    ("ex1.", "empty"),
    ("ex1.abc$def", "damaged (it holds characters a link never has)"),
    ("ex1.A", "damaged (it is cut short)"),
    ("ex1.AAAA", "damaged (it does not decompress)"),
    ("ex1." + "A" * (MAX_LINK_CHARS + 1), "too long"),
    (_token(b"[1, 2]"), "this exercise link holds an invalid exercise: an IR Lab exercise must be a JSON object"),
    (_token(b"[" * 100_000 + b"]" * 100_000),
     "this exercise link holds an invalid exercise: not an exercise file: nested deeper than 64 levels"),
    (_token(b"{not json"), "this exercise link holds an invalid exercise: not valid JSON"),
    (_token(b" " * 300_000), "holds more than an exercise file may hold"),
])
def test_malformed_links_raise_validation_error(text, message):
    with pytest.raises(ValidationError) as error:
        exercise_from_link(text)
    assert message in str(error.value)


def test_a_truncated_link_is_refused(ndcg):
    link = exercise_to_link(ndcg)
    for cut in (8, len(link) // 2, len(link) - 3):
        with pytest.raises(ValidationError, match="damaged"):
            exercise_from_link(link[:cut])


def test_a_link_of_an_invalid_exercise_names_the_field():
    data = json.loads(json.dumps({"schema_version": 1}))
    with pytest.raises(ValidationError, match="missing field 'title'"):
        exercise_from_link(_token(json.dumps(data).encode()))
