"""Shared fixtures: the golden values of the walkthrough."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="session")
def golden() -> dict:
    """Every number of the cats-in-boxes walkthrough, exact to 4 decimals (a copy of the reference)."""
    return json.loads((DATA / "cats_in_boxes.json").read_text())
