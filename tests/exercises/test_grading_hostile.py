"""Hostile submissions, graded by the command a lecturer runs: each gets exactly the row it deserves, and none
reaches the grader, the gradebook, another submission or the lecturer's environment.

One ``grade`` call grades the whole hostile class (several notebooks at a time), once with every layer this
machine allows (namespaces and a cgroup here) and once with only the basic layers every Linux machine has
(``--sandbox basic``), so docs/grading.md can say which claim holds where. The notebooks are made here, from
IR Lab's own export, with one cell added or one function changed.
"""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest

from irlab.exercises import answer_key, builtin_exercise, exercise_notebook, make_variant, notebook_text
from irlab.exercises.format.exercise_file import fingerprint
from irlab.exercises.grading.grader import answers_file
from irlab.exercises.grading.roster import file_stem, roster_csv
from irlab.exercises.grading.sandbox import detect_isolation

pytest.importorskip("nbclient")
ROOT = Path(__file__).resolve().parents[2]
EXERCISE = builtin_exercise("ndcg-exercise")
MARKER = "IRLAB-LECTURER-SECRET-5a1f"
"""A value in the grader's environment (as a lecturer's shell might hold a token): it must reach no output."""
PROCESSES = 64
EXPECTED = {entry.question.id: round(entry.value, 4) for entry in answer_key(EXERCISE)}
ESCAPE_NAME = "\x1b[2J\x1b]0;owned\x07clear\u202egnp.json"
FORMULA_NAME = '=HYPERLINK("evil.example","x").json'


def _with_cell(notebook, source: str, at: int = 4):
    notebook.cells.insert(at, nbformat.v4.new_code_cell(source))
    return notebook


def _untouched_with(source: str):
    return _with_cell(exercise_notebook(EXERCISE), source)


def _solved_with(source: str):
    return _with_cell(exercise_notebook(EXERCISE, solutions=True), source)


def _function_cell(notebook, change):
    for cell in notebook.cells:
        if cell.cell_type == "code" and "def ndcg(" in cell.source:
            cell.source = change(cell.source)
    return notebook


FORGE_JSON = f"""import json as _json
EXPECTED = {EXPECTED!r}  # pasted from the check cells
_original = _json.dumps
def _forged(obj, *args, **kwargs):
    if isinstance(obj, dict) and ("error" in obj or "missing" in obj or "question" in obj):
        question = obj.get("question")
        obj = {{"question": question, "value": EXPECTED.get(question, 0.7992)}} if question else {{"value": 0.7992}}
    return _original(obj, *args, **kwargs)
_json.dumps = _forged
"""

FORGE_PRINT = f"""import builtins
EXPECTED = {EXPECTED!r}
def print(*args, **kwargs):
    for question, value in EXPECTED.items():
        builtins.__dict__['print']('IRLAB-GRADE {{"question": "%s", "value": %r}}' % (question, value), **kwargs)
builtins.print = print
"""

FORGE_RESULT = f"""import json, os, signal
EXPECTED = {EXPECTED!r}
lines = "".join("IRLAB-GRADE " + json.dumps({{"question": q, "value": v}}) + "\\n" for q, v in EXPECTED.items())
for path in ("result.json", os.path.expanduser("~/result.json")):
    with open(path, "w") as out:
        json.dump({{"grading_output": lines, "checks_raised": [], "values": EXPECTED}}, out)
killed = os.kill(os.getppid(), signal.SIGKILL)  # the kernel's parent here; the evaluation's driver later
"""


def _environ_probe(leak: Path) -> str:
    """Read every /proc/*/environ the box can; keep only our variable's value (never anyone else's variables)."""
    return f"""import os
def _scan():
    readable, found, own = 0, [], False
    for pid in os.listdir('/proc'):
        if pid.isdigit():
            try:
                with open(f'/proc/{{pid}}/environ', 'rb') as handle:
                    variables = handle.read().decode(errors='replace').split('\\0')
            except OSError:
                continue
            readable += 1
            own = own or 'PYTEST_DISABLE_PLUGIN_AUTOLOAD=1' in variables
            found += [v for v in variables if v.startswith('IRLAB_TEST_LECTURER_TOKEN=')]
    return readable, found, own
_readable, _found, _own = _scan()
_written = open({str(leak)!r}, 'a').write(f'{{_readable}} readable, own box seen: {{_own}}\\n' + '\\n'.join(_found))
"""


def _daemon(marker: Path, gradebook: Path) -> str:
    daemon = (f"import os, time\nif os.fork(): os._exit(0)\nos.setsid()\nif os.fork(): os._exit(0)\n"
              f"end = time.time() + 30\nwhile time.time() < end:\n"
              f"    with open({str(marker)!r}, 'a') as out: out.write(repr(time.time()) + '\\n')\n"
              f"    try:\n        with open({str(gradebook)!r}, 'a') as out: out.write('forged.ipynb,,notebook,,graded,"
              f"1,,1,,1,,1,,1,,1,,6,6,,\\n')\n    except OSError: pass\n    time.sleep(0.1)\n")
    return (f"import subprocess, sys\n_daemon = subprocess.Popen([sys.executable, '-c', {daemon!r}], "
            "start_new_session=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n")


def _many_children(count_file: Path) -> str:
    return f"""import os, time
def _spawn():
    count = 0
    while count < 5000:
        try:
            pid = os.fork()
        except OSError:
            break
        if pid == 0:
            time.sleep(120)
            os._exit(0)
        count += 1
    with open({str(count_file)!r}, 'w') as out:
        out.write(str(count))
_spawn()
"""


KILL_EVERYTHING = """import os, signal
def _kill_all():
    killed = 0
    for pid in os.listdir('/proc'):
        if pid.isdigit() and int(pid) != os.getpid():
            try:
                os.kill(int(pid), signal.SIGKILL)
                killed += 1
            except OSError:
                pass
    return killed
_killed = _kill_all()
"""


def _relabelled():
    """A seed-7 notebook relabelled as variant 3 (seed and fingerprint), by student ann (the roster says 7)."""
    notebook = exercise_notebook(make_variant(EXERCISE, 7), solutions=True, student="ann")
    notebook.metadata["irlab"]["seed"] = 3
    notebook.metadata["irlab"]["exercise"] = fingerprint(make_variant(EXERCISE, 3))
    return notebook


def _answers(variant, student=None):
    return answers_file(variant, {e.question.id: f"{e.value:.4f}" for e in answer_key(variant)}, student)


def _write_class(folder: Path, out: Path, *, everything: bool) -> None:
    """The hostile class; ``everything`` adds what only namespaces and a roster can judge."""
    def write(name: str, notebook) -> None:
        (folder / name).write_text(notebook_text(notebook))

    write("forge-json-dumps.ipynb", _untouched_with(FORGE_JSON))
    write("forge-result-json-kill-parent.ipynb", _untouched_with(FORGE_RESULT))
    raise_found = "    ### BEGIN SOLUTION\n    raise RuntimeError(' | '.join(_scan()[1])[:250])\n"
    write("environ.ipynb", _function_cell(_solved_with(_environ_probe(out / "leak.txt")),
                                          lambda source: source.replace("    ### BEGIN SOLUTION\n", raise_found)))
    write("detached.ipynb", _solved_with(_daemon(out / "daemon.txt", out / "gradebook.csv")))
    if everything or os.geteuid() != 0:  # Linux never limits the processes of uid 0 by RLIMIT_NPROC
        write("many-children.ipynb", _solved_with(_many_children(out / "children.txt")))
    if not everything:
        return
    write("forge-print.ipynb", _untouched_with(FORGE_PRINT))
    write("kill-everything.ipynb", _solved_with(KILL_EVERYTHING))
    write("c-level-slow-cell.ipynb", _solved_with("slow = sum(range(10**12))"))
    unclosed = "    ### BEGIN SOLUTION\n    x = (\n"
    write("syntax-error.ipynb", _function_cell(exercise_notebook(EXERCISE, solutions=True),
                                               lambda source: source.replace("    ### BEGIN SOLUTION\n", unclosed)))
    write("name-error.ipynb", _function_cell(exercise_notebook(EXERCISE, solutions=True),
                                             lambda source: "@cache\n" + source))
    write("import-error.ipynb", _function_cell(exercise_notebook(EXERCISE, solutions=True),
                                               lambda source: "import numpyy\n" + source.replace(
                                                   "math.log2(rank)", "numpyy.log2(rank)")))
    write("relabelled-by-ann.ipynb", _relabelled())
    write("bob.ipynb", exercise_notebook(make_variant(EXERCISE, 3), solutions=True, student="bob"))
    (folder / "bob-copy.json").write_text(_answers(make_variant(EXERCISE, 3), "bob"))
    (folder / FORMULA_NAME).write_text(_answers(EXERCISE, "=1+2"))
    (folder / ESCAPE_NAME).write_text(_answers(EXERCISE))


def _grade(folder: Path, out: Path, *extra: str) -> tuple[subprocess.CompletedProcess, float]:
    env = {**os.environ, "IRLAB_TEST_LECTURER_TOKEN": MARKER}
    done = subprocess.run(
        [sys.executable, "-m", "irlab", "exercise", "grade", "builtin:ndcg-exercise", str(folder), "-o",
         str(out / "gradebook.csv"), "--feedback", str(out / "feedback"), "--jobs", "4", "--cell-timeout", "4",
         "--call-timeout", "4", "--timeout", "60", "--processes", str(PROCESSES), *extra],
        capture_output=True, text=True, cwd=ROOT, timeout=600, env=env)
    return done, time.time()


def _rows(out: Path) -> dict[str, dict[str, str]]:
    with (out / "gradebook.csv").open(newline="") as handle:
        return {row["file"]: row for row in csv.DictReader(handle)}


def _points(row: dict[str, str]) -> list[str]:
    return [row[f"{q.id} points"] for q in EXERCISE.questions]


def _problems(row: dict[str, str]) -> list[str]:
    return [row[f"{q.id} mistake"] for q in EXERCISE.questions]


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """The whole hostile class, every layer this machine allows, with a roster (ann: 7, bob: 3)."""
    if not detect_isolation().namespaces:
        pytest.skip("namespaces (unshare) are not available here")
    folder, out = tmp_path_factory.mktemp("hostile"), tmp_path_factory.mktemp("out")
    _write_class(folder, out, everything=True)
    (out / "roster.csv").write_text(roster_csv({"ann": 7, "bob": 3}))
    done, ended = _grade(folder, out, "--roster", str(out / "roster.csv"))
    time.sleep(1.5)  # a survivor would write again within 0.1 s
    return done, ended, out


@pytest.fixture(scope="module")
def graded_basic(tmp_path_factory):
    """The hostile notebooks the basic layers must hold against, with ``--sandbox basic``."""
    folder, out = tmp_path_factory.mktemp("hostile-basic"), tmp_path_factory.mktemp("out-basic")
    _write_class(folder, out, everything=False)
    done, ended = _grade(folder, out, "--sandbox", "basic", "--jobs", "1")
    time.sleep(1.5)
    return done, ended, out


@pytest.fixture(params=["auto", "basic"])
def each_run(request, graded, graded_basic):
    return graded if request.param == "auto" else graded_basic


def _observed(out: Path, name: str) -> str | None:
    """What a hostile notebook wrote to the test's folder: nothing where the box has a file system of its own
    (it cannot see the folder at all), so there only what the gradebook shows is checked."""
    path = out / name
    sealed = detect_isolation().files and out.name.startswith("out") and not out.name.startswith("out-basic")
    if sealed:
        assert not path.exists(), f"{name}: a box with a file system of its own wrote outside its folder"
        return None
    return path.read_text()


def test_the_command_ends_well_and_says_which_layers_it_used(graded, graded_basic):
    for (done, _, _), layers in ((graded, "namespaces (unshare)"), (graded_basic, "without namespaces")):
        assert done.returncode == 0, done.stderr[-2000:]
        assert layers in done.stderr.splitlines()[0]
        assert "Traceback" not in done.stderr


def test_forged_output_gives_the_untouched_notebook_its_zero(each_run):
    _, _, out = each_run
    rows = _rows(out)
    for name in {"forge-json-dumps.ipynb", "forge-print.ipynb"} & set(rows):
        assert rows[name]["status"] == "graded" and rows[name]["total"] == "0", rows[name]
        assert all(p.startswith("NotImplementedError: the function is not written yet") for p in _problems(rows[name]))
    forged = rows["forge-result-json-kill-parent.ipynb"]
    assert forged["status"] == "graded" and forged["total"] == "0" and set(_points(forged)) == {"0"}
    assert "the evaluation did not finish" in forged["notebook errors"]  # it killed its own evaluation, nothing else


def test_the_graders_environment_reaches_no_output(each_run):
    done, _, out = each_run
    leak = _observed(out, "leak.txt")
    if leak is not None:
        assert "readable, own box seen: True" in leak  # the probe ran, and could read its own box's environment
    outputs = [leak or "", done.stdout, done.stderr, (out / "gradebook.csv").read_text()]
    outputs += [path.read_text() for path in (out / "feedback").iterdir()]
    assert not any(MARKER in text for text in outputs)
    row = _rows(out)["environ.ipynb"]
    assert row["total"] == "0" and all(p.startswith("RuntimeError (cell 14, line ") for p in _problems(row)), row


def test_a_detached_process_is_gone_before_the_gradebook_is_written(each_run):
    _, ended, out = each_run
    daemon = _observed(out, "daemon.txt")
    if daemon is not None:  # (with a file system of its own: test_grading_sandbox.py shows the kill)
        stamps = [float(line) for line in daemon.split()]
        assert stamps and max(stamps) < ended  # it ran, and nothing of it outlived the grade command
    rows = _rows(out)
    assert "forged.ipynb" not in rows and rows["detached.ipynb"]["total"] == "6"


def test_many_children_are_bounded_by_the_process_limit(each_run):
    _, _, out = each_run
    if not (out / "gradebook.csv").read_text().count("many-children.ipynb"):
        pytest.skip("as root, only a cgroup limits processes (the kernel exempts uid 0 from RLIMIT_NPROC)")
    count = _observed(out, "children.txt")
    if count is not None:  # (with a file system of its own: test_grading_sandbox.py shows the task limit)
        assert 0 < int(count) <= PROCESSES
    assert _rows(out)["many-children.ipynb"]["total"] == "6"


def test_a_notebook_that_kills_everything_it_sees_costs_only_itself(graded):
    done, _, out = graded
    rows = _rows(out)
    assert rows["kill-everything.ipynb"]["status"] == "graded" and rows["kill-everything.ipynb"]["total"] == "0"
    assert rows["bob.ipynb"]["total"] == "6" and len(rows) == 16


def test_a_c_level_slow_cell_costs_only_itself(graded):
    row = _rows(graded[2])["c-level-slow-cell.ipynb"]
    assert row["total"] == "6", row
    assert "cell 5 took longer than 4 s and ignored the interrupt: the kernel was restarted" in row["notebook errors"]


def test_syntax_name_and_import_errors_are_named_once_and_per_question(graded):
    rows = _rows(graded[2])
    syntax = rows["syntax-error.ipynb"]
    assert syntax["notebook errors"] == "SyntaxError in cell 13, line 20: '(' was never closed"
    assert set(_problems(syntax)) == {"ndcg is not defined (see cell 13)"}
    name = rows["name-error.ipynb"]
    assert name["notebook errors"] == "NameError in cell 13, line 1: name 'cache' is not defined"
    assert set(_problems(name)) == {"ndcg is not defined (see cell 13)"}
    imported = rows["import-error.ipynb"]
    assert imported["notebook errors"] == "ModuleNotFoundError in cell 13, line 1: No module named 'numpyy'"
    assert all(p.startswith("NameError: name 'numpyy' is not defined (cell 13, line ") for p in _problems(imported))


def test_the_roster_grades_the_students_own_variant_and_flags_the_rest(graded):
    rows = _rows(graded[2])
    ann = rows["relabelled-by-ann.ipynb"]
    assert (ann["student"], ann["seed"], ann["total"]) == ("ann", "7", "6")
    assert ann["roster"] == "seed 3 is not ann's: the roster says 7 (graded as variant 7)"
    assert rows["bob.ipynb"]["roster"] == "student bob also submitted bob-copy.json"
    assert rows["bob-copy.json"]["roster"] == "student bob also submitted bob.ipynb"
    assert rows["forge-print.ipynb"]["roster"] == "no student id in the submission"


def test_names_cannot_inject_formulas_or_terminal_escapes(graded):
    done, _, out = graded
    text = (out / "gradebook.csv").read_text()
    for forbidden in ("\x1b", "\x07", "\u202e"):
        assert forbidden not in text and forbidden not in done.stderr and forbidden not in done.stdout
        assert not any(forbidden in path.name or forbidden in path.read_text() for path in (out / "feedback").iterdir())
    rows = _rows(out)
    formula = rows["'" + FORMULA_NAME]
    assert formula["student"] == "'=1+2" and formula["total"] == "6"
    assert rows["[2J]0;ownedcleargnp.json"]["total"] == "6"
    assert "[2J]0;ownedcleargnp.json" in done.stderr  # the progress line, printable
    for row in rows.values():
        assert not any(cell.startswith(("=", "+", "-", "@", "\t", "\r")) for cell in row.values())


def test_feedback_files_name_each_mistake_and_render_as_text(graded):
    from markdown_it import MarkdownIt

    out = graded[2]
    files = {path.name: path.read_text() for path in (out / "feedback").iterdir()}
    assert len(files) == 16
    syntax = files["syntax-error.md"]
    assert "SyntaxError in cell 13, line 20" in syntax and "ndcg is not defined (see cell 13)" in syntax
    html = MarkdownIt("commonmark").render(files[file_stem(FORMULA_NAME[:-5]) + ".md"])
    assert "<a " not in html and "=HYPERLINK" in html
    assert json.dumps(EXPECTED["ndcg5-q1"]) not in files["forge-print.md"]  # expected values are not handed back
