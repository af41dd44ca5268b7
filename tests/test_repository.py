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
    for path in [*ROOT.glob("irlab/**/*.py"), *ROOT.glob("pages/*.py"), ROOT / "app.py"]:
        assert not reference.search(path.read_text()), path
    uses = [str(p.relative_to(ROOT)) for p in ROOT.glob("tests/**/*.py")
            if p.name != "test_repository.py" and reference.search(p.read_text())]
    assert uses == ["tests/conftest.py"]  # the trec_eval_test fixture, which skips when the folder is missing
