"""Shared fixtures: the golden values of the walkthrough, and where trec_eval's test data lives."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"
TREC_EVAL_TEST = Path(__file__).resolve().parents[2] / "shared" / "trec_eval_test"
"""trec_eval's own test files, present in CI next to the repository (never copied into it)."""


@pytest.fixture(scope="session")
def golden() -> dict:
    """Every number of the cats-in-boxes walkthrough, exact to 4 decimals (a copy of the reference)."""
    return json.loads((DATA / "cats_in_boxes.json").read_text())
