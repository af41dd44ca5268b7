"""Classes of hostile exercise files, each closed: what validates can be answered, exported and read back."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from irlab.errors import ValidationError
from irlab.exercises import dump_exercise, exercise_from_dict, exercise_notebook, parse_exercise
from irlab.exercises.builder.sharing import EXPORTS
from irlab.exercises.format.exercise_file import MAX_FILE_BYTES
from irlab.exercises.format.schema import MAX_LABEL_LENGTH

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("measure", ["nDCG(gains={1: 1e308, 3: 1e308})@2", "DCG(gains={1: 1e300})@2",
                                     "nDCG(gains={1: 1e7})@2", "nDCG(gains={10000000: 1})@2"])
def test_huge_gains_are_refused_with_the_field(small_dict, measure):
    small_dict["questions"][0]["measure"] = measure
    with pytest.raises(ValidationError) as error:
        exercise_from_dict(small_dict)
    assert error.value.path == "questions[0].measure" and "1e+06" in error.value.message


def test_large_but_allowed_gains_are_answered_and_exported(small_dict):
    small_dict["questions"][0]["measure"] = "DCG(gains={1: 1000000, 3: 1000000})@2"
    exercise = exercise_from_dict(small_dict)
    for export in EXPORTS:
        assert export.make(exercise)


@pytest.mark.parametrize("field, value", [
    (("items", 0, "label"), "Doc\x00A"), (("title",), "Week\x073"), (("items", 1, "label"), "two\nlines"),
    (("queries", 0, "text"), "q\x1b[31m"), (("systems", 0, "name"), "s\u2028s"),
])
def test_control_characters_in_labels_are_refused(small_dict, field, value):
    target = small_dict
    for key in field[:-1]:
        target = target[key]
    target[field[-1]] = value
    with pytest.raises(ValidationError, match="control characters"):
        exercise_from_dict(small_dict)


def test_line_breaks_stay_allowed_where_text_has_paragraphs(small_dict):
    small_dict["instructions"] = "Line one.\n\nLine\ttwo."
    small_dict["questions"][0]["prompt"] = "First\nsecond"
    assert exercise_from_dict(small_dict).instructions == "Line one.\n\nLine\ttwo."
    small_dict["instructions"] = "NUL \x00 here"
    with pytest.raises(ValidationError, match="U\\+0000"):
        exercise_from_dict(small_dict)


def test_ids_with_backticks_and_html_stay_code_in_notebook_markdown(small_dict):
    evil = "a`<img src=x onerror=alert(1)>`"
    small_dict["questions"][0]["id"] = evil
    small_dict["systems"][0]["id"] = "``s<b>``"
    small_dict["questions"][0]["system"] = small_dict["questions"][1]["system"] = "``s<b>``"
    exercise = exercise_from_dict(small_dict)
    renderer = MarkdownIt("commonmark")
    for solutions in (False, True):
        notebook = exercise_notebook(exercise, solutions=solutions)
        for cell in notebook["cells"]:
            if cell["cell_type"] == "markdown":
                html = renderer.render("".join(cell["source"]))
                assert "<img" not in html and "<b>" not in html, html


def _big(small_dict: dict, label_length: int) -> dict:
    document = copy.deepcopy(small_dict)
    items = [{"id": f"i{n}", "label": "x" * label_length} for n in range(200)]
    document["items"] = items
    document["systems"][0]["rankings"] = {"q1": [i["id"] for i in items], "q2": [i["id"] for i in items[:50]]}
    document["queries"][0]["judgments"] = {f"i{n}": n % 4 for n in range(200)}
    document["queries"][1]["judgments"] = {f"i{n}": n % 2 for n in range(100)}
    return document


def test_a_file_at_the_size_limit_reads_back_unchanged(small_dict):
    # labels long enough that the compact file is just under the limit, the indented one over it
    length = MAX_LABEL_LENGTH
    document = _big(small_dict, length)
    compact = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
    assert len(compact) < MAX_FILE_BYTES, len(compact)
    exercise = parse_exercise(compact)
    written = dump_exercise(exercise)
    assert len(written.encode()) <= MAX_FILE_BYTES
    assert parse_exercise(written) == exercise
    for export in EXPORTS:  # the Share tab's files, built from the written copy
        assert export.make(parse_exercise(written))


def test_the_cli_refuses_a_hostile_file_in_one_line(tmp_path, small_dict):
    small_dict["questions"][0]["measure"] = "nDCG(gains={1: 1e308})@2"
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(small_dict))
    done = subprocess.run([sys.executable, "-m", "irlab", "exercise", "validate", str(path)], capture_output=True,
                          text=True, cwd=ROOT)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "questions[0].measure" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, '{"title": ' + "[" * 100_000 + "]" * 100_000 + "}",
                                  '{"a":' * 30_000 + "1" + "}" * 30_000, "[" * 100_000])
def test_the_cli_refuses_deeply_nested_json_as_malformed(tmp_path, text):
    """Issue 21: a file nested 100,000 arrays deep stopped the command with a RecursionError (exit status 3)."""
    path = tmp_path / "deep.json"
    path.write_text(text)
    done = subprocess.run([sys.executable, "-m", "irlab", "exercise", "validate", str(path)], capture_output=True,
                          text=True, cwd=ROOT, timeout=120)  # a guard against a hang, not a timing check
    assert (done.returncode, done.stderr) == (2, f"error: {path}: not an exercise file: nested deeper than 64 levels\n")


def test_the_work_of_an_answer_key_is_bounded():
    items = [{"id": f"d{n}", "label": f"D{n}"} for n in range(200)]
    queries = [{"id": f"q{i}", "scale": "binary", "judgments": {"d0": 1}} for i in range(30)]
    systems = [{"id": "s", "rankings": {f"q{i}": [item["id"] for item in items] for i in range(30)}}]
    questions = [{"id": f"x{k}", "measure": "AP", "query": "mean", "system": "s"} for k in range(20)]
    document = {"schema_version": 1, "title": "t", "items": items, "queries": queries, "systems": systems,
                "questions": questions}
    with pytest.raises(ValidationError) as error:
        exercise_from_dict(document)
    assert error.value.path == "questions[16]" and "100,000" in error.value.message  # 17 x 30 x 200 > 100,000
    document["questions"] = questions[:16]
    assert len(exercise_from_dict(document).questions) == 16
