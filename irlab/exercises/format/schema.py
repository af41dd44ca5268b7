"""The exercise file's shape, declared once: a JSON Schema (draft 2020-12) and the limits it states.

This schema is the only statement of the shape: fields, types, required fields, lengths, counts,
ranges, enums and the text rules (ids without surrounding spaces, no control characters).
:mod:`irlab.exercises.format.schema_check` applies it to every file IR Lab reads and words each problem;
:mod:`irlab.exercises.format.exercise_file` adds only the rules that need the whole file (an item that does not
exist, K past the end of a ranking, a question nobody can answer). A published copy is
docs/exercise-schema.json (a test keeps it current); ``python -m irlab exercise schema`` prints it.

Annotations the checker's messages use: ``title`` names a value as a noun ("an item", "a grade"),
``examples`` shows what to write, and ``errorMessage`` (the keyword VS Code's JSON editor shows too)
replaces the sentence for the two rules that tie ``max_grade`` to the scale.

**Control characters** are one rule, :data:`CONTROL_IN_LINE` (titles, labels, names, ids, measures)
and :data:`CONTROL_IN_TEXT` (instructions and prompts, which may hold line breaks and tabs): C0 and
C1 controls and DEL, the line and paragraph separators, the invisible characters that reorder or hide
text (bidirectional embeddings, overrides and isolates, the zero-width space, the byte order mark),
and unpaired surrogates (they cannot be written as UTF-8). Joiners (U+200C, U+200D: emoji and
several scripts need them) and the left-to-right and right-to-left marks stay allowed.

>>> import re
>>> [bool(re.search(CONTROL_IN_LINE, text)) for text in ("Doc A", "two\\nlines", "\\u202eevil", "👩\\u200d💻")]
[False, True, True, False]
>>> bool(re.search(CONTROL_IN_TEXT, "Line one.\\n\\n\\tLine two."))
False
"""

from __future__ import annotations

import json
from typing import Any

from irlab.exercises.model import SCHEMA_VERSION
from irlab.scenarios.art import PICTURES

SCHEMA_ID = "https://irlab.example/schemas/exercise-1.json"

MAX_ITEMS = 200
MAX_QUERIES = 100
MAX_SYSTEMS = 20
MAX_QUESTIONS = 200
MAX_GRADE = 20
"""Limits on counts and on the top of a graded scale; larger exercises are refused with a message."""

MAX_DEPTH = 64
"""JSON nested deeper than this is not an exercise file (a valid one nests 5 levels: systems, a system, its
rankings, a ranking); the limit is checked without recursion, before anything else walks the value."""

MAX_ID_LENGTH = 64
MAX_LABEL_LENGTH = 300
MAX_TITLE_LENGTH = 200
MAX_PROMPT_LENGTH = 2_000
MAX_INSTRUCTIONS_LENGTH = 20_000
MAX_MEASURE_LENGTH = 200
MAX_TOLERANCE = 0.1
MAX_SEED = 2**63 - 1

_HIDDEN = r"\u007f-\u009f\u2028\u2029\u200b\u202a-\u202e\u2066-\u2069\ufeff\ud800-\udfff"
CONTROL_IN_LINE = r"[\u0000-\u001f" + _HIDDEN + "]"
"""A character one-line text must not hold (a regular expression, the same in Python and ECMAScript)."""
CONTROL_IN_TEXT = r"[\u0000-\u0008\u000b\u000c\u000e-\u001f" + _HIDDEN + "]"
"""The same for text with paragraphs: line feed, carriage return and tab are allowed."""

NOT_BLANK = r"\S"
ID_SHAPE = r"^\S(.*\S)?$"
PATTERN_WORDS = {NOT_BLANK: "must not be empty",
                 ID_SHAPE: "must be non-empty text without spaces at either end",
                 CONTROL_IN_LINE: "control characters",
                 CONTROL_IN_TEXT: "control characters"}
"""Each ``pattern`` of the schema in words, for the checker's messages: what a text must be, or (under
``not``) what it must not hold."""


def _no_control(characters: str) -> dict[str, Any]:
    """``not``: text holding one of ``characters`` (the ``type`` keeps ``not`` from refusing a number outright)."""
    return {"not": {"type": "string", "pattern": characters}}


def _text(max_length: int, *, empty: bool = False, paragraphs: bool = False,
          description: str = "") -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "string"}
    if not empty:
        schema.update(minLength=1, pattern=NOT_BLANK)
    schema.update(maxLength=max_length, **_no_control(CONTROL_IN_TEXT if paragraphs else CONTROL_IN_LINE))
    if description:
        schema["description"] = description
    return schema


def _identifier(description: str) -> dict[str, Any]:
    return {"title": "an id", "type": "string", "minLength": 1, **_no_control(CONTROL_IN_LINE), "pattern": ID_SHAPE,
            "maxLength": MAX_ID_LENGTH, "examples": ["1", "q1"],
            "description": description + " Text without surrounding spaces or control characters."}


def _reference(description: str) -> dict[str, Any]:
    """An id that refers to an entry elsewhere (whether it exists is checked by IR Lab's code)."""
    return {"type": "string", "description": description}


def _when_scale(scale: str, then: dict[str, Any]) -> dict[str, Any]:
    """``then`` applies to a query whose scale is ``scale`` (and not to one without a scale or with another)."""
    return {"if": {"required": ["scale"], "properties": {"scale": {"const": scale}}}, "then": then}


def exercise_schema() -> dict[str, Any]:
    """The exercise format (schema_version 1) as a JSON Schema."""
    grade = {"title": "a grade", "type": "integer", "minimum": 0, "maximum": MAX_GRADE}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "an IR Lab exercise",
        "description": "Items, queries with relevance judgments, systems' rankings, and questions about measures. "
                       "Cross-field rules (ids that exist, K within each ranking, answerable questions) are checked "
                       "by IR Lab itself.",
        "type": "object",
        "additionalProperties": False,
        "required": ["schema_version", "title", "items", "queries", "systems", "questions"],
        "properties": {
            "schema_version": {"const": SCHEMA_VERSION},
            "title": _text(MAX_TITLE_LENGTH, description="The exercise's title."),
            "instructions": _text(MAX_INSTRUCTIONS_LENGTH, empty=True, paragraphs=True,
                                  description="Plain text for students; paragraphs separated by blank lines."),
            "seed": {"type": "integer", "minimum": 0, "maximum": MAX_SEED,
                     "description": "The variant seed (set by IR Lab when it writes a variant)."},
            "tolerance": {"type": "number", "exclusiveMinimum": 0, "maximum": MAX_TOLERANCE,
                          "description": "How far an answer may be from the exact value (absolute)."},
            "items": {"type": "array", "minItems": 1, "maxItems": MAX_ITEMS, "items": {
                "title": "an item", "type": "object", "additionalProperties": False, "required": ["id", "label"],
                "properties": {"id": _identifier("An item id, unique in the exercise."),
                               "label": _text(MAX_LABEL_LENGTH),
                               "picture": {"title": "a picture", "enum": list(PICTURES),
                                           "description": "A built-in picture."}}}},
            "queries": {"type": "array", "minItems": 1, "maxItems": MAX_QUERIES, "items": {
                "title": "a query", "type": "object", "additionalProperties": False,
                "required": ["id", "scale", "judgments"],
                "properties": {
                    "id": _identifier("A query id, unique in the exercise; not \"mean\"."),
                    "text": _text(MAX_LABEL_LENGTH, empty=True),
                    "scale": {"enum": ["binary", "graded"]},
                    "max_grade": {"type": "integer", "minimum": 1, "maximum": MAX_GRADE,
                                  "description": "The top of a graded scale (required when graded)."},
                    "judgments": {"type": "object", "additionalProperties": grade, "examples": [{"1": 2, "4": 1}],
                                  "description": "Item id -> grade; unlisted items have grade 0. At least one "
                                                 "grade is 1 or more."}},
                "allOf": [_when_scale("graded", {
                    "required": ["max_grade"],
                    "errorMessage": "missing field 'max_grade': graded judgments need the top of their scale, "
                                    "e.g. \"max_grade\": 3"}),
                          _when_scale("binary", {"properties": {"max_grade": {
                              "const": 1, "errorMessage": "binary judgments have max_grade 1; leave it out or use "
                                                          "\"scale\": \"graded\""}}})]}},
            "systems": {"type": "array", "minItems": 1, "maxItems": MAX_SYSTEMS, "items": {
                "title": "a system", "type": "object", "additionalProperties": False, "required": ["id", "rankings"],
                "properties": {
                    "id": _identifier("A system id, unique in the exercise."),
                    "name": _text(MAX_LABEL_LENGTH, empty=True),
                    "rankings": {"type": "object", "examples": [{"q1": ["3", "1", "2"]}], "additionalProperties": {
                        "title": "a ranking", "type": "array", "minItems": 1, "maxItems": MAX_ITEMS,
                        "uniqueItems": True,
                        "items": {"title": "an item id", "type": "string", "examples": ["3"]}},
                        "description": "Query id -> item ids, best first; every query is ranked."}}}},
            "questions": {"type": "array", "minItems": 1, "maxItems": MAX_QUESTIONS, "items": {
                "title": "a question", "type": "object", "additionalProperties": False,
                "required": ["id", "measure", "query", "system"],
                "properties": {
                    "id": _identifier("A question id, unique in the exercise."),
                    "measure": _text(MAX_MEASURE_LENGTH,
                                     description="A measure IR Lab can teach, e.g. \"nDCG@5\" or \"AP\"."),
                    "query": _reference("A query id, or \"mean\" for the mean over queries."),
                    "system": _reference("A system id."),
                    "prompt": _text(MAX_PROMPT_LENGTH, empty=True, paragraphs=True),
                    "mean_over": {"type": "array", "minItems": 1, "maxItems": MAX_QUERIES, "uniqueItems": True,
                                  "items": {"title": "a query id", "type": "string"},
                                  "description": "Only with \"query\": \"mean\": the queries averaged."}}}},
        },
    }


def schema_text() -> str:
    """The schema as indented JSON text (what ``exercise schema`` prints and docs/ publishes)."""
    return json.dumps(exercise_schema(), indent=2, ensure_ascii=False) + "\n"


def schema_fields() -> list[tuple[str, str, str, str]]:
    """Every field of the format as (path, required or optional, what it holds, what it means): the reference
    the builder shows, read from the schema itself.

    >>> rows = schema_fields()
    >>> rows[0][:3], [r[0] for r in rows if r[0].startswith("items[]")]
    (('schema_version', 'required', '1'), ['items[].id', 'items[].label', 'items[].picture'])
    """
    rows: list[tuple[str, str, str, str]] = []

    def walk(schema: dict[str, Any], prefix: str) -> None:
        required = set(schema.get("required", ()))
        for name, field in schema.get("properties", {}).items():
            path = f"{prefix}{name}"
            rows.append((path, "required" if name in required else "optional", _holds(field),
                         field.get("description", "")))
            if field.get("type") == "array" and isinstance(field.get("items"), dict) and "properties" in field["items"]:
                walk(field["items"], f"{path}[].")

    walk(exercise_schema(), "")
    return rows


def _holds(field: dict[str, Any]) -> str:
    if "const" in field:
        return json.dumps(field["const"])
    if "enum" in field:
        return " or ".join(json.dumps(v) for v in field["enum"][:4]) + (" …" if len(field["enum"]) > 4 else "")
    kind = field.get("type")
    if kind == "string":
        return f"text, up to {field['maxLength']} characters" if "maxLength" in field else "text"
    if kind == "integer":
        return f"whole number {field.get('minimum', '')}–{field.get('maximum', '')}".replace("–)", ")")
    if kind == "number":
        return f"number above {field.get('exclusiveMinimum', field.get('minimum'))}, at most {field.get('maximum')}"
    if kind == "array":
        return f"list of {field.get('minItems', 0)}–{field.get('maxItems', '')}"
    if kind == "object":
        return "object"
    return ""
