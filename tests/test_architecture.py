"""The layers of docs/architecture.md, checked: imports point downward only.

irlab's packages form a stack (lowest first). A module may import its own package and any
package below its own; packages on the same level are independent of each other. Only
``irlab.ui`` (and the pages above it) may import Streamlit; nothing imports ``pages``; pages
hold no arithmetic. Inside two packages the same holds for their parts: irlab/ui by product,
irlab/exercises by concern. No module of irlab takes part in an import circle.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
IRLAB = ROOT / "irlab"

LAYERS: tuple[frozenset[str], ...] = tuple(frozenset(level) for level in (
    {"errors"},                  # the one exception type every layer raises
    {"explain"},                 # formula trees and breakdowns
    {"data"},                    # validated judgments, rankings, scenarios
    {"metrics", "scenarios"},    # the metrics and their registry | the cats-in-boxes data and pictures
    {"runs"},                    # TREC files into columns, batch evaluation, comparison
    {"exercises"},               # exercises: questions, file format, exports, builder, grading
    {"walkthrough"},             # the learner's state, chapter views, URL state, charts, quiz
    {"classroom"},               # classes, activities and answers in a database (the live class)
    {"sharedtask"},              # a class's shared task: hidden qrels, submissions, the leaderboard
    {"ui"},                      # the Streamlit layer
    {"cli"},                     # the command line
    {"__main__"},                # python -m irlab
))
LEVEL = {package: number for number, level in enumerate(LAYERS) for package in level}
FACADE = "__init__"
"""``irlab/__init__.py`` re-exports the public API for users; no irlab module imports it."""


def package_of(path: Path) -> str:
    """The first component under irlab/: ``metrics`` for irlab/metrics/dcg.py, ``errors`` for irlab/errors.py."""
    return path.relative_to(IRLAB).with_suffix("").parts[0]


def imported_modules(path: Path) -> set[str]:
    """Every module an import statement in ``path`` names (relative imports resolved against irlab)."""
    tree = ast.parse(path.read_text())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                raise AssertionError(f"{path}: use absolute imports (from irlab.x import y)")
            if node.module == "irlab":  # from irlab import charts -> irlab.charts
                names.update(f"irlab.{alias.name}" for alias in node.names)
            elif node.module:
                names.add(node.module)
    return names


def irlab_targets(path: Path) -> set[str]:
    """The irlab packages ``path`` imports (``metrics`` for irlab.metrics.dcg; ``__init__`` for bare irlab)."""
    targets = set()
    for name in imported_modules(path):
        parts = name.split(".")
        if parts[0] == "irlab":
            targets.add(parts[1] if len(parts) > 1 else FACADE)
    return targets


MODULES = sorted(p for p in IRLAB.rglob("*.py") if p != IRLAB / "__init__.py")


def test_every_package_has_a_layer():
    assert len(MODULES) > 30
    unplaced = {package_of(p) for p in MODULES} - set(LEVEL)
    assert not unplaced, f"put these packages on a layer in LAYERS and docs/architecture.md: {unplaced}"


def violation(own: str, target: str) -> str | None:
    """Why package ``own`` may not import package ``target``, or None when it may."""
    if target == own:
        return None
    if target == FACADE:
        return f"{own} imports the irlab facade; import the module that defines the name"
    if target not in LEVEL:
        return f"{own} imports irlab.{target}, which is on no layer"
    if LEVEL[target] >= LEVEL[own]:
        return f"{own} (layer {LEVEL[own]}) imports irlab.{target} (layer {LEVEL[target]}): imports point downward only"
    return None


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_imports_point_downward(path):
    problems = [problem for target in irlab_targets(path) if (problem := violation(package_of(path), target))]
    assert not problems, f"{path.relative_to(ROOT)}: {problems}"


def test_the_layer_check_catches_what_the_issue_names(tmp_path):
    """The contract itself can fail: explain importing metrics, data importing metrics, core importing ui,
    sibling packages importing each other, anything importing the facade."""
    assert violation("explain", "metrics") and violation("explain", "data")
    assert violation("data", "metrics") and violation("data", "scenarios")
    assert violation("metrics", "ui") and violation("exercises", "ui") and violation("walkthrough", "ui")
    assert violation("metrics", "scenarios") and violation("scenarios", "metrics")
    assert violation("exercises", FACADE) and violation("runs", "cli")
    assert violation("metrics", "data") is None and violation("ui", "walkthrough") is None
    probe = tmp_path / "probe.py"
    probe.write_text("from irlab.metrics.dcg import dcg_at_k\nimport irlab.ui.render\nfrom irlab import charts\n")
    assert irlab_targets(probe) == {"metrics", "ui", "charts"}


def test_only_the_ui_layer_imports_streamlit():
    below_ui = [p for p in MODULES if LEVEL[package_of(p)] < LEVEL["ui"] or package_of(p) in ("cli", "__main__")]
    offenders = [str(p.relative_to(ROOT)) for p in below_ui
                 if any(name.split(".")[0] == "streamlit" for name in imported_modules(p))]
    assert not offenders


def test_importing_the_whole_core_loads_no_streamlit():
    core = [p for p in MODULES if package_of(p) != "ui"]
    modules = sorted(".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__") for p in core)
    code = "import sys\n" + "".join(f"import {m}\n" for m in modules) + "print('streamlit' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"


def test_nothing_imports_pages():
    everything = [*IRLAB.rglob("*.py"), *(ROOT / "pages").glob("*.py"), ROOT / "app.py", ROOT / "streamlit_app.py",
                  *(ROOT / "tests").rglob("*.py"), *(ROOT / "bench").rglob("*.py")]
    offenders = [str(p.relative_to(ROOT)) for p in everything
                 if any(name.split(".")[0] == "pages" for name in imported_modules(p))]
    assert not offenders


def test_pages_hold_no_arithmetic():
    """Pages render what irlab computes: no arithmetic operators on numbers, no math module."""
    pages = list((ROOT / "pages").glob("*.py")) + [ROOT / "app.py", ROOT / "streamlit_app.py"]
    for page in [p for p in pages if p.exists()]:
        tree = ast.parse(page.read_text())
        assert "math" not in imported_modules(page), page.name
        for node in ast.walk(tree):
            if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Div, ast.FloorDiv, ast.Pow, ast.Mult)):
                raise AssertionError(f"{page.name}:{node.lineno} does arithmetic; move it into irlab")


# --- the Streamlit layer by product ---------------------------------------------------------------------------------

UI = IRLAB / "ui"
UI_LEVELS = {"components": 0, "kit": 1, "shell": 2, "walkthrough": 3, "exercises": 3, "runs": 3, "classroom": 3,
             "pooling": 3, "sharedtask": 3}
"""irlab/ui's folders, lowest first: a component knows only components; the kit, components; the shell, the kit
and components; a product (same level as its siblings) the shell, the kit and components, never another product."""


def ui_folder_of(path: Path) -> str | None:
    """``kit`` for irlab/ui/kit/formulas.py; None for irlab/ui/__init__.py."""
    parts = path.relative_to(UI).parts
    return parts[0] if len(parts) > 1 else None


def ui_targets(path: Path) -> set[str]:
    """The irlab/ui folders ``path`` imports (``components`` for ``irlab.ui.components.tiles``)."""
    targets = set()
    for name in imported_modules(path):
        parts = name.split(".")
        if parts[:2] == ["irlab", "ui"]:
            if len(parts) < 3:
                raise AssertionError(f"{path}: import from irlab.ui's folders, not irlab.ui itself")
            targets.add(parts[2])
    return targets


def ui_violation(own: str, target: str) -> str | None:
    """Why irlab/ui/``own`` may not import irlab/ui/``target``, or None when it may."""
    if target == own:
        return None
    if target not in UI_LEVELS:
        return f"ui/{own} imports ui/{target}, which is on no level of UI_LEVELS"
    if UI_LEVELS[target] >= UI_LEVELS[own]:
        kind = "a sibling product" if UI_LEVELS[own] == UI_LEVELS[target] == 3 else f"ui/{target}"
        return f"ui/{own} imports {kind}: imports point downward (components < kit < shell < products)"
    return None


UI_MODULES = sorted(p for p in UI.rglob("*.py") if ui_folder_of(p) is not None)


def test_every_ui_module_sits_in_a_known_folder():
    assert {ui_folder_of(p) for p in UI_MODULES} <= set(UI_LEVELS)
    assert [p.name for p in UI.glob("*.py")] == ["__init__.py"], "irlab/ui holds folders only"


@pytest.mark.parametrize("path", UI_MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_ui_folders_import_downward_and_never_a_sibling_product(path):
    own = ui_folder_of(path)
    problems = [problem for target in ui_targets(path) if (problem := ui_violation(own, target))]
    assert not problems, f"{path.relative_to(ROOT)}: {problems}"


def test_the_ui_rules_catch_what_the_issue_names():
    assert ui_violation("runs", "exercises") and ui_violation("walkthrough", "runs")  # sibling products
    assert ui_violation("kit", "walkthrough") and ui_violation("components", "walkthrough")  # the kit knows no product
    assert ui_violation("components", "kit") and ui_violation("shell", "exercises")
    assert ui_violation("runs", "kit") is None and ui_violation("walkthrough", "components") is None


def test_a_component_is_a_folder_with_its_code_and_styles_as_files():
    components = UI / "components"
    for folder in (p for p in components.iterdir() if p.is_dir() and (p / "__init__.py").exists()):
        declared = re.findall(r'declare\(\s*"(\w+)",\s*js="([^"]+)"(?:,\s*css="([^"]+)")?',
                              (folder / "__init__.py").read_text())
        for name, js, css in declared:
            assert name == folder.name, f"{folder.name} declares component {name!r}"
            assert (components / js).is_file() and js.startswith(folder.name + "/")
            assert not css or (components / css).is_file()


# --- irlab/exercises by concern -------------------------------------------------------------------------------------

EXERCISES = IRLAB / "exercises"
EXERCISE_LEVELS = {"model": 0, "questions": 1, "format": 2, "exports": 3, "builder": 4, "grading": 4}
"""irlab/exercises' parts, lowest first: ``model.py`` (an exercise's types, at the package's root); ``questions/``
(in words, computed by irlab, answers checked, named mistakes); ``format/`` (the file, which validates a question by
computing it); ``exports/`` (notebooks, worksheets, answer keys, variants); ``builder/`` and ``grading/``, siblings
that never import each other. A part imports its own and lower parts; none imports the facade, ``__init__.py``."""


def exercise_part_of(path: Path) -> str | None:
    """``questions`` for irlab/exercises/questions/answers.py, ``model`` for irlab/exercises/model.py; None for the
    facade, irlab/exercises/__init__.py."""
    parts = path.relative_to(EXERCISES).with_suffix("").parts
    return None if parts == ("__init__",) else parts[0]


def exercise_targets(path: Path) -> set[str]:
    """The parts of irlab/exercises ``path`` imports (``grading`` for ``irlab.exercises.grading.sandbox``;
    ``__init__`` for ``from irlab.exercises import X``, the facade)."""
    targets = set()
    for name in imported_modules(path):
        parts = name.split(".")
        if parts[:2] == ["irlab", "exercises"]:
            targets.add(parts[2] if len(parts) > 2 else FACADE)
    return targets


def exercise_violation(own: str, target: str) -> str | None:
    """Why irlab/exercises/``own`` may not import irlab/exercises/``target``, or None when it may."""
    if target == own:
        return None
    if target == FACADE:
        return f"exercises/{own} imports the facade irlab.exercises; import the module that defines the name"
    if target not in EXERCISE_LEVELS:
        return f"exercises/{own} imports exercises/{target}, which is on no level of EXERCISE_LEVELS"
    if EXERCISE_LEVELS[target] >= EXERCISE_LEVELS[own]:
        kind = "its sibling" if EXERCISE_LEVELS[target] == EXERCISE_LEVELS[own] else "a part above it"
        return (f"exercises/{own} imports {kind}, exercises/{target}: imports point downward "
                "(model < questions < format < exports < builder, grading)")
    return None


EXERCISE_MODULES = sorted(p for p in EXERCISES.rglob("*.py") if exercise_part_of(p) is not None)


def test_every_exercises_module_sits_in_a_known_part():
    assert {exercise_part_of(p) for p in EXERCISE_MODULES} == set(EXERCISE_LEVELS)
    assert sorted(p.name for p in EXERCISES.glob("*.py")) == ["__init__.py", "model.py"], (
        "irlab/exercises holds its facade, its types (model.py) and folders by concern")


@pytest.mark.parametrize("path", EXERCISE_MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_exercises_parts_import_downward_and_never_a_sibling(path):
    own = exercise_part_of(path)
    problems = [problem for target in exercise_targets(path) if (problem := exercise_violation(own, target))]
    assert not problems, f"{path.relative_to(ROOT)}: {problems}"


def test_the_exercises_rules_catch_what_the_issue_names():
    assert exercise_violation("grading", "builder") and exercise_violation("builder", "grading")  # siblings
    assert exercise_violation("format", "exports") and exercise_violation("questions", "format")  # upward
    assert exercise_violation("model", "questions") and exercise_violation("exports", "grading")
    assert exercise_violation("builder", FACADE)  # drafts.py and sharing.py imported the facade
    assert exercise_violation("grading", "exports") is None and exercise_violation("format", "questions") is None


# --- no import circles ------------------------------------------------------------------------------------------------

def module_name(path: Path) -> str:
    """``irlab.exercises.grading.grader`` for irlab/exercises/grading/grader.py; ``irlab.exercises`` for its
    ``__init__.py``."""
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


def imported_irlab_modules(path: Path, known: set[str]) -> set[str]:
    """The modules of irlab (among ``known``) that an import statement in ``path`` names, wherever it stands (a
    function's body, ``if TYPE_CHECKING:``): ``from irlab.a import b`` names irlab.a.b when that is a module."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.update(f"{node.module}.{alias.name}" if f"{node.module}.{alias.name}" in known else node.module
                         for alias in node.names)
    return names & known


def import_circle(graph: dict[str, set[str]]) -> list[str] | None:
    """One circle of ``graph`` (module -> the modules it imports), first module repeated at its end; None if none."""
    try:
        TopologicalSorter(graph).prepare()
    except CycleError as error:
        return error.args[1]
    return None


def test_no_module_of_irlab_is_in_an_import_circle():
    """A circle works only in the order Python happens to import it (the gradebook <-> grader circle hid behind
    ``if TYPE_CHECKING``; measure_names <-> registry behind a module __getattr__)."""
    paths = [*MODULES, IRLAB / "__init__.py"]
    known = {module_name(p) for p in paths}
    graph = {module_name(p): imported_irlab_modules(p, known) - {module_name(p)} for p in paths}
    assert len(graph) > 100 and sum(map(len, graph.values())) > 300
    circle = import_circle(graph)
    assert circle is None, "an import circle: " + " -> ".join(circle or [])


def test_the_circle_check_finds_the_circle_the_issue_names(tmp_path):
    probe = tmp_path / "gradebook.py"
    probe.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from irlab.exercises import grader\n"
                     "def f():\n    from irlab.exercises.grader import Submission\n")
    known = {"irlab.exercises", "irlab.exercises.grader", "irlab.exercises.gradebook"}
    assert imported_irlab_modules(probe, known) == {"irlab.exercises.grader"}
    graph = {"irlab.exercises.gradebook": {"irlab.exercises.grader"},
             "irlab.exercises.grader": {"irlab.exercises.gradebook"}}
    assert sorted(set(import_circle(graph) or [])) == ["irlab.exercises.gradebook", "irlab.exercises.grader"]
    assert import_circle({"a": {"b"}, "b": {"c"}, "c": set()}) is None
