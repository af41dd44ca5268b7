"""The exercise format declared as a JSON Schema, and every problem of a file listed at once.

:func:`exercise_schema` builds the schema (draft 2020-12) from the same limits the reader enforces
(:mod:`irlab.exercises.format`), so the two cannot drift apart: a published copy is in
docs/exercise-schema.json and ``python -m irlab exercise schema`` prints it. The schema states
the shape (fields, types, lengths, counts, ranges); what only the whole file can tell (an item
that does not exist, K past the end of a ranking, a question nobody can answer) is checked in code
by :func:`irlab.exercises.format.exercise_from_dict`.

:func:`exercise_problems` validates with the ``jsonschema`` library and reports every problem of
the shape at once, each with its field path; when the shape is right, the first problem the
cross-field checks find.

>>> problems = exercise_problems({"schema_version": 1, "title": "", "items": [{"id": 3}], "queries": [],
...                               "systems": [], "questions": [], "colour": "red"})
>>> for path, message in problems:
...     print(f"{path}: {message}")
(the exercise): unknown field 'colour'
items[0]: missing field 'label'
items[0].id: must be text, got 3
queries: needs at least 1 entry
questions: needs at least 1 entry
systems: needs at least 1 entry
title: must not be empty
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from irlab.errors import ValidationError
from irlab.exercises import format as fmt
from irlab.exercises.model import SCHEMA_VERSION
from irlab.scenarios.art import PICTURES

SCHEMA_ID = "https://irlab.example/schemas/exercise-1.json"


def _text(max_length: int, *, empty: bool = False, description: str = "") -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "string", "maxLength": max_length}
    if not empty:
        schema["minLength"] = 1
        schema["pattern"] = r"\S"
    if description:
        schema["description"] = description
    return schema


def _identifier(description: str) -> dict[str, Any]:
    return {"type": "string", "minLength": 1, "maxLength": fmt.MAX_ID_LENGTH, "pattern": r"^\S(.*\S)?$",
            "description": description + " Printable text without surrounding spaces."}


def exercise_schema() -> dict[str, Any]:
    """The exercise format (schema_version 1) as a JSON Schema."""
    item_id = _identifier("An item id, unique in the exercise.")
    grade = {"type": "integer", "minimum": 0, "maximum": fmt.MAX_GRADE}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "IR Lab exercise",
        "description": "Items, queries with relevance judgments, systems' rankings, and questions about measures. "
                       "Cross-field rules (ids that exist, K within each ranking, answerable questions) are checked "
                       "by IR Lab itself.",
        "type": "object",
        "required": list(fmt._TOP_REQUIRED),
        "additionalProperties": False,
        "properties": {
            "schema_version": {"const": SCHEMA_VERSION},
            "title": _text(fmt.MAX_TITLE_LENGTH, description="The exercise's title."),
            "instructions": _text(fmt.MAX_INSTRUCTIONS_LENGTH, empty=True,
                                  description="Plain text for students; paragraphs separated by blank lines."),
            "seed": {"type": "integer", "minimum": 0, "maximum": 2**63 - 1,
                     "description": "The variant seed (set by IR Lab when it writes a variant)."},
            "tolerance": {"type": "number", "exclusiveMinimum": 0, "maximum": fmt.MAX_TOLERANCE,
                          "description": "How far an answer may be from the exact value (absolute)."},
            "items": {"type": "array", "minItems": 1, "maxItems": fmt.MAX_ITEMS, "items": {
                "type": "object", "required": ["id", "label"], "additionalProperties": False,
                "properties": {"id": item_id, "label": _text(fmt.MAX_LABEL_LENGTH),
                               "picture": {"enum": list(PICTURES), "description": "A built-in picture."}}}},
            "queries": {"type": "array", "minItems": 1, "maxItems": fmt.MAX_QUERIES, "items": {
                "type": "object", "required": ["id", "scale", "judgments"], "additionalProperties": False,
                "properties": {
                    "id": _identifier("A query id, unique in the exercise; not \"mean\"."),
                    "text": _text(fmt.MAX_LABEL_LENGTH, empty=True),
                    "scale": {"enum": ["binary", "graded"]},
                    "max_grade": {"type": "integer", "minimum": 1, "maximum": fmt.MAX_GRADE,
                                  "description": "The top of a graded scale (required when graded)."},
                    "judgments": {"type": "object", "minProperties": 1, "additionalProperties": grade,
                                  "description": "Item id -> grade; unlisted items have grade 0."}},
                "if": {"properties": {"scale": {"const": "graded"}}},
                "then": {"required": ["max_grade"]}}},
            "systems": {"type": "array", "minItems": 1, "maxItems": fmt.MAX_SYSTEMS, "items": {
                "type": "object", "required": ["id", "rankings"], "additionalProperties": False,
                "properties": {
                    "id": _identifier("A system id, unique in the exercise."),
                    "name": _text(fmt.MAX_LABEL_LENGTH, empty=True),
                    "rankings": {"type": "object", "minProperties": 1, "additionalProperties": {
                        "type": "array", "minItems": 1, "maxItems": fmt.MAX_ITEMS, "uniqueItems": True,
                        "items": {"type": "string"}},
                        "description": "Query id -> item ids, best first; every query is ranked."}}}},
            "questions": {"type": "array", "minItems": 1, "maxItems": fmt.MAX_QUESTIONS, "items": {
                "type": "object", "required": ["id", "measure", "query", "system"], "additionalProperties": False,
                "properties": {
                    "id": _identifier("A question id, unique in the exercise."),
                    "measure": _text(fmt.MAX_MEASURE_LENGTH,
                                     description="A measure IR Lab can teach, e.g. \"nDCG@5\" or \"AP\"."),
                    "query": {"type": "string", "description": "A query id, or \"mean\" for the mean over queries."},
                    "system": {"type": "string"},
                    "prompt": _text(fmt.MAX_PROMPT_LENGTH, empty=True),
                    "mean_over": {"type": "array", "minItems": 1, "maxItems": fmt.MAX_QUERIES, "uniqueItems": True,
                                  "items": {"type": "string"}}}}},
        },
    }


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


@lru_cache(maxsize=1)
def _validator():
    from jsonschema import Draft202012Validator  # imported here: reading a valid file never needs it

    return Draft202012Validator(exercise_schema())


def schema_text() -> str:
    """The schema as indented JSON text (what ``exercise schema`` prints and docs/ publishes)."""
    return json.dumps(exercise_schema(), indent=2, ensure_ascii=False) + "\n"


def _path(parts) -> str:
    """``items[3].label``; keys that are ids (of judgments and rankings) as ``['q1']``, as the reader writes them."""
    out, previous = "", None
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        elif previous in ("judgments", "rankings"):
            out += f"[{part!r}]"
        else:
            out += f".{part}" if out else str(part)
        previous = part
    return out


def _words(error) -> tuple[str, str]:
    """(path, message) of one jsonschema error, in the reader's words."""
    path = _path(error.absolute_path)
    kind, value = error.validator, error.instance
    if kind == "required":
        missing = next((name for name in error.validator_value if name not in (value or {})), "?")
        return path or "(the exercise)", f"missing field {missing!r}"
    if kind == "additionalProperties" and isinstance(value, dict):
        allowed = set(error.schema.get("properties", {}))
        extra = sorted(set(value) - allowed)
        if error.schema.get("properties"):
            return path or "(the exercise)", f"unknown field {extra[0]!r}" if extra else error.message
    if kind == "type":
        wanted = {"string": "text", "integer": "a whole number", "number": "a number", "array": "a list",
                  "object": "an object"}.get(str(error.validator_value), str(error.validator_value))
        return path, f"must be {wanted}, got {json.dumps(value)[:40]}"
    if kind in ("minItems", "minProperties"):
        return path, f"needs at least {error.validator_value} entr{'y' if error.validator_value == 1 else 'ies'}"
    if kind in ("maxItems", "maxProperties"):
        return path, f"too many entries: {len(value)}; at most {error.validator_value} are allowed"
    if kind in ("minLength", "pattern") and isinstance(value, str) and not value.strip():
        return path, "must not be empty"
    if kind == "maxLength":
        return path, f"is too long: {len(value)} characters; at most {error.validator_value} are allowed"
    if kind in ("minimum", "maximum", "exclusiveMinimum"):
        return path, f"is out of range: {json.dumps(value)[:40]} ({kind} {error.validator_value})"
    if kind == "enum":
        return path, f"must be one of {', '.join(json.dumps(v) for v in error.validator_value)}"
    if kind == "const":
        return path, f"must be {json.dumps(error.validator_value)}, got {json.dumps(value)[:40]}"
    if kind == "uniqueItems":
        seen: dict[str, int] = {}
        for position, entry in enumerate(value):
            if entry in seen:
                if "rankings" in path:
                    return path, f"item {entry!r} appears twice in the ranking (ranks {seen[entry] + 1} and {position + 1})"
                return path, f"{entry!r} is listed twice"
            seen[entry] = position
        return path, "lists an entry twice"
    return path, error.message


def schema_problems(data: Any) -> list[tuple[str, str]]:
    """Every problem of the file's shape, as (field path, message), sorted by path."""
    found = {_words(error) for error in _validator().iter_errors(data)}
    return sorted(found)


def exercise_problems(data: Any) -> list[tuple[str, str]]:
    """Every problem of the shape at once; if the shape is right, the first cross-field problem; [] if valid."""
    problems = schema_problems(data)
    if problems:
        return problems
    try:
        fmt.exercise_from_dict(data)
    except ValidationError as error:
        return [(error.path or "(the exercise)", error.message)]
    return []
