"""The command line: python -m irlab exercise validate | key | export | variants | link."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from irlab.cli import main
from irlab.exercises import exercise_from_link, make_variant

ROOT = Path(__file__).resolve().parents[2]


def run_module(*args: str) -> subprocess.CompletedProcess:
    """``python -m irlab ARGS`` in a fresh process, as a lecturer would run it."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "irlab", *args], capture_output=True, text=True, cwd=ROOT, env=env,
                          timeout=60)


def run(capsys, *args: str) -> tuple[int, str, str]:
    """The command line in this process (fast): exit status, stdout, stderr."""
    try:
        status = main(list(args))
    except SystemExit as exit_:
        status = exit_.code
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_validate_a_good_and_a_bad_file_as_a_real_process(tmp_path):
    good = run_module("exercise", "validate", "builtin:ndcg-exercise")
    assert good.returncode == 0 and good.stderr == ""
    assert good.stdout == "ok: builtin:ndcg-exercise: 'NDCG calculation', 10 items, 3 queries, 1 system, 6 questions\n"
    bad_file = tmp_path / "bad.json"
    data = json.loads((ROOT / "irlab/exercises/format/examples/ndcg-exercise.json").read_text())
    data["questions"][2]["measure"] = "NDKG@5"
    bad_file.write_text(json.dumps(data))
    bad = run_module("exercise", "validate", str(bad_file))
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr
    assert bad.stderr.startswith(f"error: {bad_file}: questions[2].measure: unknown measure 'NDKG@5'; valid measures:")


@pytest.mark.parametrize("args, message", [
    (["exercise", "validate", "missing.json"], "error: missing.json: cannot read the file"),
    (["exercise", "validate", "builtin:nope"], "error: unknown built-in exercise 'nope'; the built-in exercises are"),
    (["exercise", "export", "builtin:ndcg-exercise", "--format", "pdf"], "error: argument --format: invalid choice"),
    (["exercise", "export", "builtin:ndcg-exercise"], "the following arguments are required: --format"),
    (["exercise", "export", "builtin:ndcg-exercise", "--format", "csv", "--html"],
     "error: --html applies to --format worksheet and answers only"),
    (["exercise", "export", "builtin:ndcg-exercise", "--format", "worksheet", "--solutions"],
     "error: --solutions applies to --format notebook only"),
    (["exercise", "export", "builtin:ndcg-exercise", "--format", "csv", "--seed", "-1"], "a seed is a whole number"),
    (["exercise", "variants", "builtin:ndcg-exercise", "--format", "csv", "--count", "0", "-o", "x"],
     "the count is a whole number from 1 to 1000"),
    (["exercise", "frobnicate"], "error: argument ACTION: invalid choice: 'frobnicate'"),
    ([], "the following arguments are required: COMMAND"),
])
def test_bad_input_prints_one_line_and_exits_2(capsys, args, message):
    status, out, err = run(capsys, *args)
    assert status == 2 and out == ""
    assert err.startswith(message) or message in err
    assert err.count("\n") == 1 and err.startswith("error: ")


def test_a_broken_file_gives_one_line_even_for_invalid_json(capsys, tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{"schema_version": 1,')
    status, _, err = run(capsys, "exercise", "validate", str(path))
    assert status == 2 and err == f"error: {path}: not valid JSON: Expecting property name enclosed in double quotes " \
                                  "(line 1, column 22)\n"


def test_key_prints_the_answers_and_of_a_variant(capsys, ndcg):
    status, out, _ = run(capsys, "exercise", "key", "builtin:ndcg-exercise")
    assert status == 0
    lines = out.splitlines()
    assert lines[0].split() == ["question", "query", "system", "measure", "answer"]
    assert [line.split()[-1] for line in lines[1:]] == ["0.7992", "0.7992", "0.5493", "0.7055", "0.908", "0.9486"]
    status, out, _ = run(capsys, "exercise", "key", "builtin:ndcg-exercise", "--seed", "7")
    from irlab.exercises import answer_key
    assert [line.split()[-1] for line in out.splitlines()[1:]] == [
        b.display_value for _, b in answer_key(make_variant(ndcg, 7))]


@pytest.mark.parametrize("fmt, options, suffix, check", [
    ("notebook", [], ".ipynb", lambda text: "NotImplementedError" in text),
    ("notebook", ["--solutions"], ".ipynb", lambda text: "NotImplementedError" not in text),
    ("worksheet", [], ".md", lambda text: text.startswith("# Cats in boxes") and "**Answer:**" in text),
    ("worksheet", ["--html"], ".txt", lambda text: text.startswith("<!DOCTYPE html>")),
    ("worksheet", [], ".html", lambda text: text.startswith("<!DOCTYPE html>")),
    ("answers", [], ".md", lambda text: "0.5667" in text and "# Answer key: Cats in boxes" in text),
    ("answers", ["--html"], ".html", lambda text: "0.5667" in text and "<table>" in text),
    ("answers", ["--markdown"], ".html", lambda text: text.startswith("# Answer key")),
    ("csv", [], ".csv", lambda text: text.startswith("question_id,seed,query,system,measure,answer\n")),
])
def test_export_each_format(capsys, tmp_path, fmt, options, suffix, check):
    out_path = tmp_path / f"out{suffix}"
    status, out, err = run(capsys, "exercise", "export", "builtin:cats-in-boxes", "--format", fmt, *options,
                           "-o", str(out_path))
    assert status == 0 and err == f"wrote {out_path}\n"
    text = out_path.read_text(encoding="utf-8")
    assert check(text)
    if fmt == "notebook":
        nbformat.validate(nbformat.reads(text, as_version=4))


def test_export_to_stdout_and_of_a_seeded_variant(capsys, ndcg):
    status, out, _ = run(capsys, "exercise", "export", "builtin:ndcg-exercise", "--format", "csv", "--seed", "3")
    rows = list(csv.DictReader(out.splitlines()))
    assert status == 0 and {row["seed"] for row in rows} == {"3"}
    from irlab.exercises import answer_key
    assert [float(r["answer"]) for r in rows] == [b.value for _, b in answer_key(make_variant(ndcg, 3))]


def test_export_into_a_missing_folder_is_one_line(capsys, tmp_path):
    status, _, err = run(capsys, "exercise", "export", "builtin:cats-in-boxes", "--format", "csv",
                         "-o", str(tmp_path / "no" / "such" / "x.csv"))
    assert status == 2 and err.count("\n") == 1 and "No such file or directory" in err


def test_variants_write_files_and_print_progress(tmp_path):
    folder = tmp_path / "variants"
    result = run_module("exercise", "variants", "builtin:ndcg-exercise", "--count", "12", "--format", "notebook",
                        "--solutions", "-o", str(folder))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == f"[ 1/12] seed 1 -> {folder / 'ndcg-exercise-seed001-solutions.ipynb'}"
    assert lines[2] == f"[ 3/12] seed 3 -> {folder / 'ndcg-exercise-seed003-solutions.ipynb'}"
    assert lines[11] == f"[12/12] seed 12 -> {folder / 'ndcg-exercise-seed012-solutions.ipynb'}"
    assert lines[12] == f"answer key of all 12 variants -> {folder / 'ndcg-exercise-answer-key.csv'}"
    notebooks = sorted(folder.glob("*.ipynb"))
    assert len(notebooks) == 12 and len({path.read_text() for path in notebooks}) == 12
    rows = list(csv.DictReader((folder / "ndcg-exercise-answer-key.csv").read_text().splitlines()))
    assert len(rows) == 12 * 6 and sorted({int(r["seed"]) for r in rows}) == list(range(1, 13))


def test_variants_of_worksheets_with_a_first_seed(capsys, tmp_path):
    status, out, _ = run(capsys, "exercise", "variants", "builtin:cats-in-boxes", "--count", "2", "--first-seed", "40",
                         "--format", "answers", "--html", "-o", str(tmp_path))
    assert status == 0 and "[1/2] seed 40 ->" in out and "[2/2] seed 41 ->" in out
    assert (tmp_path / "cats-in-boxes-seed040-answers.html").read_text().startswith("<!DOCTYPE html>")


def test_link_prints_a_link_that_loads(capsys, cats):
    status, out, _ = run(capsys, "exercise", "link", "builtin:cats-in-boxes")
    assert status == 0 and exercise_from_link(out.strip()) == cats


def test_help_names_the_commands_the_builtins_and_the_docs(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["exercise", "--help"])
    out = capsys.readouterr().out
    assert exit_.value.code == 0
    for word in ("validate", "key", "export", "variants", "link", "builtin:ndcg-exercise", "docs/exercise-format.md"):
        assert word in out


def test_importing_the_main_module_runs_nothing():
    result = subprocess.run([sys.executable, "-c", "import irlab.__main__"], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0 and result.stdout == result.stderr == ""
