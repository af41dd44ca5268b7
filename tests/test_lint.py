"""The whole repository passes ``ruff check`` with the rules in pyproject.toml."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(importlib.util.find_spec("ruff") is None,
                    reason="ruff is not installed (pip install -r requirements-dev.txt)")
def test_ruff_check_reports_nothing():
    # --no-cache: a test run leaves no .ruff_cache behind; --quiet: a clean run prints nothing at all
    result = subprocess.run([sys.executable, "-m", "ruff", "check", ".", "--no-cache", "--quiet",
                             "--output-format", "concise"],
                            cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.stdout == "" and result.stderr == "", result.stdout + result.stderr
    assert result.returncode == 0
