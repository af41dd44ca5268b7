"""What the browser loads by URL (one way: the components' asset folder), and what browser code may not compute."""

from __future__ import annotations

import re
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

from irlab.ui import components
from irlab.ui.components import chart, pictures

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize("name", sorted(pictures.expected_files()))
def test_each_served_picture_is_the_art_modules_current_picture(name):
    served = pictures.FOLDER / name
    assert served.read_text(encoding="utf-8") == pictures.expected_files()[name], \
        "pictures changed: run `python -m irlab.ui.components.pictures` to write them again"


def test_nothing_else_is_in_the_picture_folder():
    on_disk = {path.name for path in pictures.FOLDER.iterdir() if path.suffix == ".svg"}
    assert on_disk == set(pictures.expected_files())


def test_a_picture_url_names_only_known_pictures():
    with pytest.raises(KeyError):
        pictures.picture_url("../../etc/passwd")
    assert pictures.picture_url("") == ""
    assert pictures.picture_url("document").endswith("/irlab.pictures/pictures/document.svg")


def test_every_component_is_declared_with_the_components_folder_as_its_assets():
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["streamlit"]["component"]["components"]
    folders = {path.name for path in components.ROOT.iterdir() if path.is_dir() and (path / "__init__.py").exists()}
    assert {entry["name"] for entry in declared} == folders
    assert {entry["asset_dir"] for entry in declared} == {"ui/components"}


def test_plotly_js_is_the_installed_packages_file_copied_beside_the_chart():
    copied = chart.vendor_plotly_js()
    assert copied.read_bytes() == chart.PLOTLY_JS.read_bytes()
    assert copied.is_relative_to(components.ROOT)


def test_a_stale_plotly_copy_is_replaced(tmp_path):
    target = tmp_path / "vendor" / "plotly.min.js"
    target.parent.mkdir()
    target.write_text("old")
    chart.vendor_plotly_js(target=target)
    assert target.stat().st_size == chart.PLOTLY_JS.stat().st_size


def test_processes_copying_plotly_at_the_same_moment_all_succeed(tmp_path):
    """pytest's workers (or two replicas) import the chart at once; a shared partial file made one fail."""
    target = tmp_path / "vendor" / "plotly.min.js"
    # Each process imports first, then copies at the agreed moment, so the copies overlap.
    script = ("import sys, time, pathlib; from irlab.ui.components import chart; "
              "time.sleep(max(0, float(sys.argv[2]) - time.time())); "
              "chart.vendor_plotly_js(target=pathlib.Path(sys.argv[1]))")
    moment = str(time.time() + 4)
    starts = [subprocess.Popen([sys.executable, "-c", script, str(target), moment], cwd=ROOT,
                               stderr=subprocess.PIPE) for _ in range(6)]
    errors = [process.communicate()[1].decode() for process in starts]
    assert [process.returncode for process in starts] == [0] * 6, errors
    assert target.read_bytes() == chart.PLOTLY_JS.read_bytes()
    assert target.stat().st_mode == chart.PLOTLY_JS.stat().st_mode
    assert sorted(path.name for path in target.parent.iterdir()) == ["plotly.min.js"]


CODE_IN_STRINGS = re.compile(r"export default function|addEventListener\(|\{\s*[a-z-]+\s*:[^{}]*;\s*\}")
"""JavaScript (a module's entry point, a listener) or a CSS rule (``{ property: value; }``)."""


def test_no_code_or_styles_in_python_strings():
    """A component's code and styles are files: no Python module under irlab/ui holds JavaScript or CSS text."""
    offenders = [str(path.relative_to(ROOT)) for path in (ROOT / "irlab" / "ui").rglob("*.py")
                 if CODE_IN_STRINGS.search(path.read_text(encoding="utf-8"))]
    assert not offenders


def test_the_check_would_catch_the_old_inline_components():
    old_share = '_CSS = """\n.irl-share { display: flex; flex-direction: column; gap: .35rem; }\n"""'
    old_shortcuts = '_JS = """\nexport default function () { document.addEventListener("keydown", onKey, true); }"""'
    assert CODE_IN_STRINGS.search(old_share) and CODE_IN_STRINGS.search(old_shortcuts)


def _browser_code() -> dict[str, str]:
    return {str(path.relative_to(components.ROOT)): path.read_text(encoding="utf-8")
            for path in components.ROOT.rglob("*.js")
            if "vendor" not in path.parts and "node_modules" not in path.parts}


# What metric arithmetic would look like in the browser: logarithms (DCG), the TP/FP/FN/TN rule,
# sums and divisions over relevance or grades, reciprocal ranks.
ARITHMETIC = [r"Math\.log", r"log2", r"classFor", r"\? *\"(TP|FP|FN|TN)\"", r"relevance\s*[/*+]",
              r"grades?\[[^\]]*\]\s*[/*+]", r"1\s*/\s*rank", r"\.reduce\("]


def test_the_browser_code_is_all_read():
    assert {"tiles/tiles.js", "chart/chart.js", "share/share.js", "shortcuts/shortcuts.js"} <= set(_browser_code())


@pytest.mark.parametrize("pattern", ARITHMETIC)
def test_the_browser_code_computes_no_metric(pattern):
    found = {name: re.findall(pattern, text) for name, text in _browser_code().items()}
    assert not any(found.values()), f"metric arithmetic in browser code: {found}"


def test_the_patterns_would_catch_the_old_tile_rule():
    old_rule = 'function classFor(r, returned) { if (r > 0) return returned ? "TP" : "FN"; }'
    assert any(re.search(pattern, old_rule) for pattern in ARITHMETIC)
