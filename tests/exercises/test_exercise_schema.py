"""The exercise file's shape, declared once as a JSON Schema: published, applied by our checker exactly as the
reference validator (jsonschema) applies it, worded per keyword, and the one rule for control characters."""

from __future__ import annotations

import copy
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from irlab.errors import ValidationError
from irlab.exercises import BUILTIN_NAMES, dump_exercise, exercise_from_dict, exercise_to_dict, parse_exercise
from irlab.exercises.format.examples import builtin_text
from irlab.exercises.format.exercise_file import exercise_problems
from irlab.exercises.format.schema import CONTROL_IN_LINE, CONTROL_IN_TEXT, exercise_schema, schema_text
from irlab.exercises.format.schema_check import (
    KEYWORDS,
    SENTENCES,
    Failure,
    check,
    compile_schema,
    exercise_schema_node,
    unknown_keywords,
)

ROOT = Path(__file__).resolve().parents[2]
PUBLISHED = ROOT / "docs" / "exercise-schema.json"
REFERENCE = Draft202012Validator(exercise_schema())


def test_the_schema_is_a_valid_json_schema_and_the_published_copy_is_current():
    Draft202012Validator.check_schema(exercise_schema())
    assert PUBLISHED.read_text() == schema_text(), \
        "regenerate: python -m irlab exercise schema > docs/exercise-schema.json"


def test_the_checker_applies_every_keyword_of_the_schema_and_words_every_failure():
    assert unknown_keywords(exercise_schema()) == set()
    assert set(SENTENCES) == set(KEYWORDS) - {"allOf", "if"}  # those two fail through their subschemas' keywords
    with pytest.raises(ValueError, match="format"):
        compile_schema({"type": "string", "format": "email"})  # a rule the schema would state and nobody check


@pytest.mark.parametrize("name", BUILTIN_NAMES)
def test_every_shipped_example_is_valid(name):
    document = json.loads(builtin_text(name))
    assert list(REFERENCE.iter_errors(document)) == [] and exercise_problems(document) == []


def test_a_malformed_file_gets_every_problem_with_its_path_in_the_files_order(small_dict):
    bad = copy.deepcopy(small_dict)
    bad["title"] = 7
    bad["items"][1]["label"] = "x" * 400
    bad["queries"][0]["scale"] = "stars"
    bad["queries"][1]["judgments"]["c"] = -1
    del bad["systems"][0]["rankings"]
    bad["questions"][0]["extra"] = True
    assert [(problem.path, problem.message) for problem in exercise_problems(bad)] == [
        ("title", "must be text, got the number 7"),
        ("items[1].label", "is too long: 400 characters; at most 300 are allowed"),
        ("queries[0].scale", "must be \"binary\" or \"graded\", got the text 'stars'"),
        ("queries[1].judgments['c']", "a grade must be between 0 and 20, got -1"),
        ("systems[0]", "missing field 'rankings' (a system needs: id, rankings)"),
        ("questions[0]", "unknown field 'extra'; the fields of a question are: id, measure, query, system, prompt, "
                         "mean_over"),
    ]


def test_cross_field_problems_come_after_the_shape_is_right(small_dict):
    small_dict["questions"][0]["measure"] = "nDCG@9"
    [problem] = exercise_problems(small_dict)
    assert problem.path == "questions[0].measure" and "past the end of the ranking" in problem.message


@pytest.mark.parametrize("mutate, path, message", [
    (lambda d: d["queries"][0].pop("max_grade"), "queries[0]",
     "missing field 'max_grade': graded judgments need the top of their scale, e.g. \"max_grade\": 3"),
    (lambda d: d["queries"][1].update(max_grade=3), "queries[1].max_grade",
     "binary judgments have max_grade 1; leave it out or use \"scale\": \"graded\""),
    (lambda d: d["queries"][1].update(max_grade=1), None, None),  # binary with max_grade 1 is fine
])
def test_the_scale_rules_are_schema_conditions_with_their_own_message(small_dict, mutate, path, message):
    mutate(small_dict)
    problems = exercise_problems(small_dict)
    assert [(p.path, p.message) for p in problems] == ([(path, message)] if message else [])
    assert bool(list(REFERENCE.iter_errors(small_dict))) == bool(message)


# --- our checker and the reference validator agree -----------------------------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 30) | st.floats(-1, 1) | st.text(max_size=6)
    | st.sampled_from(["a", "q1", "mean", "graded", "binary", "white-cat", "", " x", "a\nb", "\u202e"]),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(
        st.sampled_from(["id", "label", "scale", "max_grade", "judgments", "rankings", "picture", "a", "q1"])
        | st.text(max_size=5), children, max_size=4),
    max_leaves=15)


EDGES = st.sampled_from(["", " ", "a ", "x" * 65, "x" * 301, "x" * 2001, "a\x00", "a\tb", "\u2028", "\ud800", "ok",
                         -1, 0, 0.5, 1.0, 2.5, 20, 21, 2**63, 0.1, 0.2, True, [str(i) for i in range(201)]]
                        ).map(copy.deepcopy)
"""Values at the edges of the schema's lengths, ranges, counts and text rules."""


def _reference_failures(document) -> set[tuple]:
    return {(tuple(error.absolute_path), error.validator) for error in REFERENCE.iter_errors(document)}


def _our_failures(document) -> set[tuple]:
    failures: list[Failure] = []
    check(exercise_schema_node(), document, None, failures)
    # a repeated entry is reported where it repeats; the reference names the list
    return {(failure.path[:-1] if failure.keyword == "uniqueItems" else failure.path, failure.keyword)
            for failure in failures}


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_the_checker_finds_exactly_what_jsonschema_finds(small_exercise_document, data):
    document = copy.deepcopy(data.draw(st.sampled_from([small_exercise_document,
                                                        *[json.loads(builtin_text(n)) for n in BUILTIN_NAMES]])))
    for _ in range(data.draw(st.integers(0, 3))):
        nodes = [document]
        parents = []
        while nodes:  # every (container, key) of the document
            node = nodes.pop()
            keys = list(node) if isinstance(node, dict) else range(len(node)) if isinstance(node, list) else []
            parents += [(node, key) for key in keys]
            nodes += [node[key] for key in keys]
        if not parents:
            break
        parent, key = data.draw(st.sampled_from(parents))
        if data.draw(st.booleans()):
            parent[key] = data.draw(JSON | EDGES)
        else:
            del parent[key]
    assert _our_failures(document) == _reference_failures(document)


# --- every valid file parses and round-trips; one broken rule gives one message naming the field ----------------

ID_CHARACTERS = st.sampled_from(list("abcqxyz0123456789-_.<>&`'\" é猫👩💻\u200d\u200c"))
TEXT_CHARACTERS = st.characters(codec="utf-8").filter(lambda c: not re.search(CONTROL_IN_TEXT, c))
IDS = st.text(ID_CHARACTERS, min_size=1, max_size=6).filter(lambda s: s == s.strip() and s != "mean")
LABELS = st.text(TEXT_CHARACTERS.filter(lambda c: not re.search(CONTROL_IN_LINE, c)), min_size=1,
                 max_size=12).filter(str.strip)
MEASURES = ["P@{k}", "R@{k}", "RR", "RR@{k}", "AP", "AP@{k}", "nDCG", "nDCG@{k}", "Success@{k}", "DCG@{k}", "Rprec",
            "nDCG(discount='jarvelin-kekalainen')@{k}"]


@st.composite
def valid_documents(draw) -> dict:
    """An exercise file that satisfies the schema and every cross-field rule."""
    item_ids = draw(st.lists(IDS, min_size=1, max_size=6, unique=True))
    items = [{"id": i, "label": draw(LABELS)} for i in item_ids]
    queries = []
    for query_id in draw(st.lists(IDS, min_size=1, max_size=3, unique=True)):
        top = draw(st.integers(1, 4))
        judged = draw(st.lists(st.sampled_from(item_ids), min_size=1, unique=True))
        grades = {i: draw(st.integers(0, top)) for i in judged}
        grades[judged[0]] = draw(st.integers(1, top))  # one relevant item
        query = {"id": query_id, "scale": "graded" if top > 1 else "binary", "judgments": grades}
        queries.append(query | ({"max_grade": top} if top > 1 else {}))
    query_ids = [q["id"] for q in queries]
    systems = [{"id": system_id,
                "rankings": {q: draw(st.permutations(item_ids))[:draw(st.integers(1, len(item_ids)))]
                             for q in query_ids}}
               for system_id in draw(st.lists(IDS, min_size=1, max_size=2, unique=True))]
    questions = []
    for question_id in draw(st.lists(IDS, min_size=1, max_size=4, unique=True)):
        system = draw(st.sampled_from(systems))
        query = draw(st.sampled_from([*query_ids, "mean"]))
        over = draw(st.lists(st.sampled_from(query_ids), min_size=1, unique=True)) if query == "mean" else None
        asked = over or (query_ids if query == "mean" else [query])
        k = draw(st.integers(1, min(len(system["rankings"][q]) for q in asked)))
        question = {"id": question_id, "measure": draw(st.sampled_from(MEASURES)).format(k=k), "query": query,
                    "system": system["id"]}
        questions.append(question | ({"mean_over": over} if over else {}))
    document = {"schema_version": 1, "title": draw(LABELS), "items": items, "queries": queries, "systems": systems,
                "questions": questions}
    if draw(st.booleans()):
        document["instructions"] = draw(st.text(TEXT_CHARACTERS, max_size=30))
    if draw(st.booleans()):
        document["seed"] = draw(st.integers(0, 2**63 - 1))
    return document


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(valid_documents())
def test_every_valid_file_parses_and_round_trips(document):
    assert list(REFERENCE.iter_errors(document)) == [] and exercise_problems(document) == []
    exercise = parse_exercise(json.dumps(document, ensure_ascii=False))
    assert [(i.id, i.label) for i in exercise.items] == [(i["id"], i["label"]) for i in document["items"]]
    assert [dict(q.judgments) for q in exercise.queries] == [q["judgments"] for q in document["queries"]]
    assert [{q: list(r) for q, r in s.rankings.items()} for s in exercise.systems] == \
        [s["rankings"] for s in document["systems"]]
    assert exercise.instructions == document.get("instructions", "") and exercise.seed == document.get("seed")
    text = dump_exercise(exercise)
    assert parse_exercise(text) == exercise and dump_exercise(parse_exercise(text)) == text
    assert exercise_from_dict(exercise_to_dict(exercise)) == exercise


def _first(entries: list, data) -> int:
    return data.draw(st.integers(0, len(entries) - 1))


def _label_with_control(d, data):
    i = _first(d["items"], data)
    d["items"][i]["label"] += data.draw(st.sampled_from(["\x00", "\n", "\t", "\x1b", "\u2028", "\u202e", "\ud800"]))
    return f"items[{i}].label"


def _label_too_long(d, data):
    i = _first(d["items"], data)
    d["items"][i]["label"] = "x" * 301
    return f"items[{i}].label"


def _unknown_field(d, data):
    i = _first(d["queries"], data)
    d["queries"][i]["judgements"] = {}
    return f"queries[{i}]"


def _id_not_text(d, data):
    i = _first(d["questions"], data)
    d["questions"][i]["id"] = data.draw(st.sampled_from([5, None, [], True]))
    return f"questions[{i}].id"


def _duplicate_item_id(d, data):
    if len(d["items"]) < 2:
        d["items"].append({"id": d["items"][0]["id"], "label": "again"})
        return "items[1].id"
    d["items"][1]["id"] = d["items"][0]["id"]
    return "items[1].id"


def _grade_above_the_scale(d, data):
    i = _first(d["queries"], data)
    query = d["queries"][i]
    item = next(iter(query["judgments"]))
    query["judgments"][item] = query.get("max_grade", 1) + 1
    return f"queries[{i}].judgments[{item!r}]"


def _unknown_item_ranked(d, data):
    system = d["systems"][0]
    query = data.draw(st.sampled_from(sorted(system["rankings"])))
    rank = _first(system["rankings"][query], data)
    system["rankings"][query][rank] = "not-an-item-id-at-all"
    return f"systems[0].rankings[{query!r}][{rank}]"


def _unknown_system_asked(d, data):
    i = _first(d["questions"], data)
    d["questions"][i]["system"] = "not-a-system-id-at-all"
    return f"questions[{i}].system"


def _k_past_the_end(d, data):
    i = _first(d["questions"], data)
    d["questions"][i]["measure"] = "P@201"
    return f"questions[{i}].measure"


def _unknown_measure(d, data):
    i = _first(d["questions"], data)
    d["questions"][i]["measure"] = "NDKG@5"
    return f"questions[{i}].measure"


BREAK_ONE_RULE = [_label_with_control, _label_too_long, _unknown_field, _id_not_text, _duplicate_item_id,
                  _grade_above_the_scale, _unknown_item_ranked, _unknown_system_asked, _k_past_the_end,
                  _unknown_measure]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(valid_documents(), st.sampled_from(BREAK_ONE_RULE), st.data())
def test_breaking_one_rule_gives_one_message_naming_the_field(document, break_rule, data):
    path = break_rule(document, data)
    [problem] = exercise_problems(document)
    assert problem.path == path and problem.message and "\n" not in problem.message
    with pytest.raises(ValidationError) as error:
        parse_exercise(json.dumps(document))  # ASCII: an unpaired surrogate travels as the escape \ud800
    assert str(error.value) == str(problem)


# --- control characters: one rule, the same in the schema, the reader and an editor ------------------------------

EVERY_CHARACTER_NAMED = sorted({*range(0x250), *range(0x2000, 0x2070), *range(0xD7F0, 0xE010), 0xFEFF, 0xFFFD,
                                0x1F469})
"""Every C0 and C1 control, Latin, the general punctuation block (spaces, joiners, separators, bidirectional
controls), every surrogate with its neighbours, the byte order mark, an emoji."""
SAMPLE = [code for code in EVERY_CHARACTER_NAMED if code < 0xA1 or 0x2000 <= code < 0x2070 or code > 0xE000
          or code in (0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xE000)]
"""The same without most surrogates, for the checks that load a whole exercise per character."""


def _published_patterns() -> dict[str, str]:
    """The two control-character patterns as the published schema states them."""
    published = json.loads(PUBLISHED.read_text())
    return {"line": published["properties"]["title"]["not"]["pattern"],
            "text": published["properties"]["instructions"]["not"]["pattern"]}


def _reader_refuses(small_dict, field: str, text: str) -> bool:
    document = copy.deepcopy(small_dict)
    document[field] = text
    try:
        exercise_from_dict(document)
    except ValidationError as error:
        assert error.path == field and "control characters" in error.message, error
        return True
    return False


def test_the_control_character_rule_is_the_same_in_the_schema_and_the_reader(small_dict):
    patterns = _published_patterns()
    assert patterns == {"line": CONTROL_IN_LINE, "text": CONTROL_IN_TEXT}
    for field, kind in (("title", "line"), ("instructions", "text")):
        for code in SAMPLE:
            text = f"a{chr(code)}b"
            by_pattern = bool(re.search(patterns[kind], text))
            by_reference = any(e.validator == "not" for e in REFERENCE.iter_errors({**small_dict, field: text}))
            assert by_pattern == by_reference == _reader_refuses(small_dict, field, text), (field, hex(code))
    assert _reader_refuses(small_dict, "title", "tab\there") and not _reader_refuses(small_dict, "instructions", "a\tb")


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node (an editor's ECMAScript regular expressions)")
def test_an_editor_applies_the_published_control_character_rule_the_same_way():
    patterns = _published_patterns()
    script = ("const [patterns, codes] = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
              "const verdict = (p) => codes.map((c) => new RegExp(p, 'u').test('a' + String.fromCodePoint(c) + 'b'));"
              "process.stdout.write(JSON.stringify([verdict(patterns.line), verdict(patterns.text)]));")
    done = subprocess.run(["node", "-e", script], input=json.dumps([patterns, EVERY_CHARACTER_NAMED]),
                          capture_output=True, text=True, timeout=60, check=True)
    in_line, in_text = json.loads(done.stdout)
    assert in_line == [bool(re.search(CONTROL_IN_LINE, f"a{chr(c)}b")) for c in EVERY_CHARACTER_NAMED]
    assert in_text == [bool(re.search(CONTROL_IN_TEXT, f"a{chr(c)}b")) for c in EVERY_CHARACTER_NAMED]
    # C0, DEL, C1, the two separators, the zero-width space, nine bidirectional controls, the byte order mark and
    # the 2,048 surrogates: the sample holds every character the rule names
    assert in_line.count(True) == 32 + 1 + 32 + 2 + 1 + 9 + 1 + 2048
    assert in_text.count(True) == in_line.count(True) - 3  # tab, line feed and carriage return


# --- the command line ------------------------------------------------------------------------------------------------

def test_the_cli_prints_the_schema_and_lists_every_problem(tmp_path, small_dict):
    printed = subprocess.run([sys.executable, "-m", "irlab", "exercise", "schema"], capture_output=True, text=True,
                             cwd=ROOT)
    assert printed.returncode == 0 and json.loads(printed.stdout) == exercise_schema()
    small_dict["title"] = ""
    small_dict["items"][0]["colour"] = "red"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(small_dict))
    done = subprocess.run([sys.executable, "-m", "irlab", "exercise", "validate", str(path)], capture_output=True,
                          text=True, cwd=ROOT)
    lines = done.stderr.splitlines()
    assert done.returncode == 2 and len(lines) == 2
    assert "title: must not be empty" in lines[0] and "items[0]: unknown field 'colour'" in lines[1]
