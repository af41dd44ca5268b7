"""The layers of DESIGN section 3: irlab's core never imports Streamlit; pages hold no arithmetic."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORE = [path for path in (ROOT / "irlab").rglob("*.py") if "ui" not in path.relative_to(ROOT / "irlab").parts]


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_core_modules_never_import_streamlit():
    assert len(CORE) > 10
    offenders = [str(p.relative_to(ROOT)) for p in CORE
                 if any(name.split(".")[0] == "streamlit" for name in imported_modules(p))]
    assert not offenders


def test_importing_the_whole_core_loads_no_streamlit():
    modules = sorted(".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__") for p in CORE)
    code = "import sys\n" + "".join(f"import {m}\n" for m in modules) + "print('streamlit' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"


def test_pages_hold_no_arithmetic():
    """Pages render what irlab computes: no arithmetic operators on numbers, no math module."""
    pages = list((ROOT / "pages").glob("*.py")) + [ROOT / "app.py"]
    for page in [p for p in pages if p.exists()]:
        tree = ast.parse(page.read_text())
        assert "math" not in imported_modules(page), page.name
        for node in ast.walk(tree):
            if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Div, ast.FloorDiv, ast.Pow, ast.Mult)):
                raise AssertionError(f"{page.name}:{node.lineno} does arithmetic; move it into irlab")
