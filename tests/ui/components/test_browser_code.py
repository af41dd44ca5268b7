"""The browser code is type-checked and unit-tested: ``tsc`` (JSDoc types, ``strict``) and ``node --test``.

Both tools come from npm, pinned in ``irlab/ui/components/package.json`` and its lock; CI installs them
(``npm ci --prefix irlab/ui/components`` in ``.ci/run``). Without node, npm or the installed packages these
tests are skipped with the reason, except under CI (``CI=true``), where that is an error.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from irlab.ui import components

FOLDER = components.ROOT
TSC = FOLDER / "node_modules" / "typescript" / "bin" / "tsc"


def need_node_tools() -> str:
    """The path of ``node``; skips the calling test (or fails it under CI) when node or the packages are missing."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node and npm and TSC.is_file():
        return node
    if not (node and npm):
        reason = "node and npm are not installed (Debian/Ubuntu: `apt-get install -y npm`)"
    else:
        reason = "the pinned typescript is not installed: run `npm ci --prefix irlab/ui/components`"
    if os.environ.get("CI", "").lower() in ("1", "true"):
        pytest.fail(reason)
    pytest.skip(reason)


def run(argv: list[str], cwd: Path = FOLDER) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=300)


def test_the_browser_code_type_checks():
    """``npx tsc --noEmit -p irlab/ui/components``: every .js there, tests included, under ``strict``."""
    need_node_tools()
    result = run(["npx", "--no-install", "tsc", "--noEmit", "-p", "."])
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_type_check_is_strict_and_reads_javascript(tmp_path):
    """The same settings reject an untyped parameter in a .js file (so a clean run above means something)."""
    node = need_node_tools()
    (tmp_path / "untyped.js").write_text("export function half(x) { return x / 2; }\n")
    (tmp_path / "tsconfig.json").write_text(json.dumps({
        "extends": str(FOLDER / "tsconfig.json"), "include": ["untyped.js"], "compilerOptions": {"types": []}}))
    result = run([node, str(TSC), "--noEmit", "-p", str(tmp_path)], cwd=tmp_path)
    assert result.returncode != 0 and "TS7006" in result.stdout, result.stdout + result.stderr


def test_the_unit_tests_pass():
    """``node --test irlab/ui/components``: the tiles' order, keys and drag geometry, the shortcuts' keys."""
    node = need_node_tools()
    result = run([node, "--test", "."])
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    passed = re.search(r"^# pass (\d+)$", output, flags=re.M)
    assert passed and int(passed.group(1)) >= 30, output  # the runner found the test files
    assert re.search(r"^# fail 0$", output, flags=re.M), output


def test_the_tools_are_pinned_exactly_and_locked():
    package = json.loads((FOLDER / "package.json").read_text())
    lock = json.loads((FOLDER / "package-lock.json").read_text())
    pins = package["devDependencies"]
    assert "typescript" in pins
    for name, version in pins.items():
        assert re.fullmatch(r"\d+\.\d+\.\d+", version), f"{name} {version} is a range, not a pin"
        assert lock["packages"][f"node_modules/{name}"]["version"] == version, name
    assert lock["packages"][""]["devDependencies"] == pins, "package-lock.json is stale: run `npm install` there"


def test_the_browser_tests_hold_a_finger_as_long_as_the_tiles_wait():
    from tests.browser import HOLD_MS

    drag = (FOLDER / "tiles" / "drag.js").read_text()
    assert re.search(rf"^export const HOLD_MS = {HOLD_MS};$", drag, flags=re.M)


def test_no_component_reads_streamlits_page_structure():
    """The live region owns its controls: none of its code (the region, its tiles, charts and shortcuts) finds
    Streamlit's widgets by their test ids or key classes, reads a slider's aria-valuetext, or watches the page."""
    patterns = ("stSlider", ".st-key-", "st-key-${", "aria-valuetext\"]", "attributeFilter", "observe(document.body")
    offenders = []
    for path in [p for folder in ("region", "tiles", "chart", "shortcuts") for p in (FOLDER / folder).glob("*.js")]:
        name = path.relative_to(FOLDER).as_posix()
        text = path.read_text()
        offenders += [f"{name}: {pattern}" for pattern in patterns if pattern in text]
    assert not offenders
