"""What the browser loads by URL, and what the components may not compute."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from irlab.scenarios.art import PICTURES, picture_svg
from irlab.ui import served, shortcuts, share

UI = Path(served.__file__).parent


@pytest.mark.parametrize("key", sorted(PICTURES))
def test_each_served_picture_is_the_art_modules_current_picture(key):
    served_file = served.PICTURE_DIR / f"{key}.svg"
    assert served_file.read_text(encoding="utf-8") == picture_svg(key), \
        "pictures changed: run `python -m irlab.ui.served` to write them again"


def test_nothing_else_is_served_from_the_picture_folder():
    assert {path.stem for path in served.PICTURE_DIR.iterdir()} == set(PICTURES)


def test_plotly_js_is_served_from_the_installed_plotly_package():
    assert (served.PLOTLY_DIR / "plotly.min.js").stat().st_size > 1_000_000
    assert served.plotly_js_url().endswith("/component/irlab.ui.served.plotly_js/plotly.min.js")


def test_a_picture_url_names_only_known_pictures():
    with pytest.raises(KeyError):
        served.picture_url("../../etc/passwd")
    assert served.picture_url("") == ""


def _browser_code() -> dict[str, str]:
    code = {path.name: path.read_text(encoding="utf-8") for path in [*UI.glob("*.js"), *UI.glob("assets/*.js")]}
    code["shortcuts.py"] = shortcuts._JS
    code["share.py"] = share._JS
    return code


# What metric arithmetic would look like in the browser: logarithms (DCG), the TP/FP/FN/TN rule,
# sums and divisions over relevance or grades, reciprocal ranks.
ARITHMETIC = [r"Math\.log", r"log2", r"classFor", r"\? *\"(TP|FP|FN|TN)\"", r"relevance\s*[/*+]",
              r"grades?\[[^\]]*\]\s*[/*+]", r"1\s*/\s*rank", r"\.reduce\("]


@pytest.mark.parametrize("pattern", ARITHMETIC)
def test_the_browser_code_computes_no_metric(pattern):
    found = {name: re.findall(pattern, text) for name, text in _browser_code().items()}
    assert not any(found.values()), f"metric arithmetic in browser code: {found}"


def test_the_patterns_would_catch_the_old_tile_rule():
    old_rule = 'function classFor(r, returned) { if (r > 0) return returned ? "TP" : "FN"; }'
    assert any(re.search(pattern, old_rule) for pattern in ARITHMETIC)
