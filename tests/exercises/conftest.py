"""Fixtures for the exercise tests: the shipped examples, a small valid exercise, an evil one."""

from __future__ import annotations

import copy
import json

import pytest

from irlab.exercises import builtin_exercise, exercise_from_dict

SMALL = {
    "schema_version": 1,
    "title": "Small",
    "items": [{"id": "a", "label": "Doc A"}, {"id": "b", "label": "Doc B"}, {"id": "c", "label": "Doc C"}],
    "queries": [
        {"id": "q1", "scale": "graded", "max_grade": 3, "judgments": {"a": 3, "b": 1}},
        {"id": "q2", "scale": "binary", "judgments": {"c": 1}},
    ],
    "systems": [{"id": "s", "rankings": {"q1": ["b", "a", "c"], "q2": ["a", "c"]}}],
    "questions": [
        {"id": "n2", "measure": "nDCG@2", "query": "q1", "system": "s"},
        {"id": "mrr", "measure": "RR", "query": "mean", "system": "s"},
    ],
}
"""A valid exercise small enough to mutate by hand in tests."""

EVIL_LABEL = "<script>alert(1)</script>"

EVIL = {
    "schema_version": 1,
    "title": "Evil <b>title</b> & [link](http://evil.example)",
    "instructions": "Read <img src=x onerror=alert(1)> carefully.\n\n# Not a heading\n$x$ and `code`",
    "items": [{"id": "1", "label": EVIL_LABEL}, {"id": "2", "label": "[click me](javascript:alert(1)) **bold**"},
              {"id": "3", "label": "O'Brien \"quoted\" \\ back"}],
    "queries": [{"id": "q<1>", "text": "<i>query</i>", "scale": "binary", "judgments": {"1": 1, "3": 1}}],
    "systems": [{"id": "s&s", "name": "<b>sys</b>", "rankings": {"q<1>": ["2", "1", "3"]}}],
    "questions": [{"id": "p2", "measure": "P@2", "query": "q<1>", "system": "s&s",
                   "prompt": "<script>alert('prompt')</script>"},
                  {"id": "ap", "measure": "AP", "query": "q<1>", "system": "s&s"}],
}
"""Labels, titles, ids and prompts holding HTML, Markdown and script: they load fine as text."""


@pytest.fixture
def small_dict() -> dict:
    """A fresh copy of the small valid exercise, to mutate."""
    return copy.deepcopy(SMALL)


@pytest.fixture(scope="session")
def small_exercise_document() -> dict:
    """The small valid exercise as a JSON document (do not mutate: copy it)."""
    return SMALL


@pytest.fixture(scope="session")
def evil_label() -> str:
    """The script-bearing item label of the evil exercise."""
    return EVIL_LABEL


@pytest.fixture(scope="session")
def cats():
    return builtin_exercise("cats-in-boxes")


@pytest.fixture(scope="session")
def ndcg():
    return builtin_exercise("ndcg-exercise")


@pytest.fixture(scope="session")
def evil():
    return exercise_from_dict(json.loads(json.dumps(EVIL)))
