"""Fixtures for the runs tests: trec_eval's own test data, next to the repository.

trec_eval's test files live in ../shared/trec_eval_test (CI has them; they are never copied
into the repository). Set IRLAB_TREC_EVAL_TEST to use another folder. Without them, the tests
that need them are skipped with the reason.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

TREC_EVAL_TEST = Path(os.environ.get("IRLAB_TREC_EVAL_TEST",
                                     Path(__file__).resolve().parents[2].parent / "shared" / "trec_eval_test"))


@pytest.fixture(scope="session")
def trec_eval_test() -> Path:
    """The folder of trec_eval's test data and expected outputs (skips the test when it is missing)."""
    if not (TREC_EVAL_TEST / "qrels.test").exists():
        pytest.skip(f"trec_eval's test data is not at {TREC_EVAL_TEST} (CI provides ../shared/trec_eval_test)")
    return TREC_EVAL_TEST
