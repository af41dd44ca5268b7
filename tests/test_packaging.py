"""IR Lab is a real package: declared dependencies with minimums, a lock CI installs from, the `irlab` command."""

from __future__ import annotations

import fnmatch
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
LOCK = (ROOT / "requirements.lock").read_text()


def declared() -> list[Requirement]:
    return [Requirement(r) for r in PROJECT["dependencies"] + PROJECT["optional-dependencies"]["test"]]


def locked() -> dict[str, list[Version]]:
    pins: dict[str, list[Version]] = {}
    for name, version in re.findall(r"^([A-Za-z0-9_.\-]+)==([^\s;]+)", LOCK, flags=re.M):
        pins.setdefault(name.lower().replace("_", "-"), []).append(Version(version))
    return pins


def test_every_dependency_has_a_minimum_version():
    for requirement in declared():
        assert any(spec.operator == ">=" for spec in requirement.specifier), f"{requirement} has no minimum"


def test_every_dependency_is_locked_within_its_range():
    pins = locked()
    for requirement in declared():
        versions = pins.get(requirement.name.lower())
        assert versions, f"{requirement.name} is not in requirements.lock: re-lock (README, 'Dependencies')"
        assert all(requirement.specifier.contains(v) for v in versions), (requirement, versions)


def test_the_lock_names_its_command_and_the_readme_gives_the_same():
    command = re.search(r"^#\s+(uv pip compile .*)$", LOCK, flags=re.M).group(1)
    assert command.startswith("uv pip compile pyproject.toml --all-extras --universal")
    assert command in (ROOT / "README.md").read_text()


def test_the_requirements_files_install_the_package_from_the_lock():
    def lines(name: str) -> list[str]:
        return [line for line in (ROOT / name).read_text().splitlines() if line and not line.startswith("#")]

    assert lines("requirements.txt") == ["-c requirements.lock", "-e ."]
    assert lines("requirements-dev.txt") == ["-c requirements.lock", "-e .[test]"]


def test_package_data_covers_every_file_the_package_reads():
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["irlab"]
    data = [p for p in (ROOT / "irlab").rglob("*") if p.is_file() and p.suffix not in (".py", ".pyc")
            and "__pycache__" not in p.parts and "node_modules" not in p.parts]  # npm's dev tools, not read
    assert data, "expected the tile component's JS/CSS and the exercise JSON files"
    for path in data:
        relative = path.relative_to(ROOT / "irlab").as_posix()
        matches = (fnmatch.fnmatch(relative, p) or fnmatch.fnmatch(path.name, p.split("/")[-1]) for p in patterns)
        assert any(matches), relative


def test_the_console_script_is_python_m_irlab():
    script = shutil.which("irlab", path=str(Path(sys.executable).parent))
    if script is None:
        if os.environ.get("CI") == "true":
            pytest.fail("the irlab command is not installed: pip install -r requirements-dev.txt installs it")
        pytest.skip("irlab is not installed in this environment (pip install -e .)")
    same = [sys.executable, "-m", "irlab"]
    for argv in (["exercise", "validate", "builtin:ndcg-exercise"], ["evaluate", "--help"]):
        assert subprocess.run([script, *argv], capture_output=True, text=True, cwd=ROOT).stdout == \
            subprocess.run([*same, *argv], capture_output=True, text=True, cwd=ROOT).stdout
    bad = subprocess.run([script, "evaluate", "missing-qrels.txt", "missing-run.txt"], capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.startswith("error: ") and bad.stderr.count("\n") == 1
