"""The repository keeps its promises: the README's commands are the ones CI runs, and it stands alone."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def readme_commands() -> list[str]:
    blocks = re.findall(r"```bash\n(.*?)```", (ROOT / "README.md").read_text(), flags=re.S)
    return [block.strip() for block in blocks]


def test_readme_states_the_two_commands():
    commands = readme_commands()
    assert commands[0] == "pip install -r requirements.txt && streamlit run app.py"
    assert commands[1] == "pip install -r requirements-dev.txt && python -m pytest"


def test_ci_runs_the_readmes_test_command():
    ci = (ROOT / ".ci" / "run").read_text()
    assert readme_commands()[1] in ci.splitlines()
    assert "chromium" in ci and "nginx" in ci and "apt-get install -y $missing" in ci


def test_the_repository_never_needs_the_shared_folder():
    """Golden numbers are copied into tests/; only the trec_eval conformance test may look next door."""
    reference = re.compile(r"""\.\./shared|/shared/|["']shared["']""")
    for path in [*ROOT.glob("irlab/**/*.py"), *ROOT.glob("pages/*.py"), ROOT / "app.py", ROOT / "streamlit_app.py"]:
        assert not reference.search(path.read_text()), path
    uses = [str(p.relative_to(ROOT)) for p in ROOT.glob("tests/**/*.py")
            if p.name != "test_repository.py" and reference.search(p.read_text())]
    assert uses == ["tests/conftest.py"]  # the trec_eval_test fixture, which skips when the folder is missing


# --- every path a comment, docstring or document names exists ----------------------------------------------------

NAMED_PATH = re.compile(r"(?<![\w/.\-])((?:irlab|tests|bench|docs|deploy|pages|\.ci|\.streamlit)/[\w./\-]*\w)")
NAMED_MODULE = re.compile(r":(?:mod|func|class|data|meth|attr|exc):`~?(irlab(?:\.\w+)+)`")
"""A cross-reference in a docstring (``:mod:`irlab.ui.components```); session keys like "irlab.builder.draft" are
strings, not references."""
WRITTEN_BY_TOOLS = ("bench/results", "irlab/ui/components/chart/vendor", "irlab/ui/components/node_modules")
"""Folders that benchmarks or the app write and git ignores."""
TEXT_SUFFIXES = {".py", ".md", ".js", ".css", ".toml", ".txt", ".yaml", ".yml", ".conf", ".json", ".cfg", ""}


def tracked_text_files() -> list[Path]:
    """The repository's text files, tracked or new (untracked and not ignored), without any virtual environment a
    developer made inside the checkout under another name than .venv or venv (a folder with a pyvenv.cfg)."""
    import subprocess

    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout.split()
    environments = {path.parent for path in map(ROOT.joinpath, listed) if path.name == "pyvenv.cfg"}
    return [ROOT / name for name in listed if (ROOT / name).suffix in TEXT_SUFFIXES and (ROOT / name).is_file()
            and not environments.intersection((ROOT / name).parents)]


def test_a_virtual_environment_under_another_name_is_not_the_repository(tmp_path):
    """Issue 36: a venv in the checkout named env/ or .venv-3.12/ (git does not ignore it) made the path checks read
    thousands of installed files and fail on their docstrings."""
    import shutil
    import subprocess
    import venv

    environment = ROOT / "env-test-repository"
    try:
        venv.EnvBuilder(with_pip=False).create(environment)
        (environment / "lib" / "stray.py").write_text('"""Names irlab/no/such/file.py."""\n')
        assert subprocess.run(["git", "status", "--porcelain", "--", environment.name], cwd=ROOT, capture_output=True,
                              text=True, check=True).stdout, "the environment is untracked and not ignored"
        assert not [path for path in tracked_text_files() if environment in path.parents]
    finally:
        shutil.rmtree(environment, ignore_errors=True)


def module_exists(dotted: str) -> bool:
    """Whether ``irlab.a.b`` (or ``irlab.a.b.name``, a name inside a module) names a module of the package."""
    parts = dotted.split(".")
    for end in range(len(parts), 0, -1):
        base = ROOT.joinpath(*parts[:end])
        module = base.with_suffix(".py") if base.with_suffix(".py").is_file() else base / "__init__.py"
        if module.is_file():
            rest = parts[end:]
            # a name inside the module: defined or imported there (one level deep is enough to catch renames)
            return not rest or re.search(rf"\b{re.escape(rest[0])}\b", module.read_text(encoding="utf-8")) is not None
    return False


def named_paths(text: str) -> set[str]:
    return {p for p in NAMED_PATH.findall(text) if not p.startswith(WRITTEN_BY_TOOLS)}


def test_every_named_path_and_module_exists():
    missing = []
    for path in tracked_text_files():
        if path == Path(__file__):  # its own examples of stale names
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        missing += [f"{path.relative_to(ROOT)}: {p}" for p in sorted(named_paths(text)) if not (ROOT / p).exists()]
        missing += [f"{path.relative_to(ROOT)}: {m}" for m in sorted(set(NAMED_MODULE.findall(text)))
                    if not module_exists(m)]
    assert not missing, "\n".join(missing)


def test_the_path_check_catches_a_stale_name():
    assert named_paths("see irlab/ui/served.py and tests/test_chapters.py.") == {"irlab/ui/served.py",
                                                                                 "tests/test_chapters.py"}
    assert not module_exists("irlab.ui.served") and module_exists("irlab.ui.components.tiles.ranking_tiles")
    assert module_exists("irlab.evaluate") and not module_exists("irlab.ui.render.try_this")
    assert NAMED_MODULE.findall("a key 'irlab.builder.draft', and :func:`~irlab.ui.kit.formulas.breakdown`") == [
        "irlab.ui.kit.formulas.breakdown"]
