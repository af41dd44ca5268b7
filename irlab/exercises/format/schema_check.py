"""The exercise schema applied to a JSON value: every problem of its shape, in the file's order, in words.

:func:`shape_problems` walks a value together with the schema of :mod:`irlab.exercises.format.schema` and applies the
keywords that schema uses (:data:`KEYWORDS`) with their JSON Schema (draft 2020-12) meaning. A schema holding any
other keyword is refused when it is compiled, so the published schema can never promise a rule that is not
checked; a property test compares the verdicts with the reference validator, the ``jsonschema`` library
(tests/exercises/test_exercise_schema.py). The walk is our own, not ``jsonschema``'s, because it is several times
faster (bench/exercise_validation.py prints the table) and every upload, link and builder edit is checked.

Each failed keyword becomes one sentence from :data:`SENTENCES`, a table keyed by the keyword, after the field's
path: ``items[1].label: is too long: 400 characters; at most 300 are allowed``. The sentences read the schema's
annotations: ``title`` names the value as a noun ("an id"), ``examples`` shows what to write, and
``errorMessage`` replaces the sentence. One problem is reported per field: the first keyword, in
:data:`KEYWORDS` order, that the field fails.

JSON nested deeper than :data:`~irlab.exercises.format.schema.MAX_DEPTH` levels is refused first, by a scan without
recursion, so nothing after it can exhaust Python's stack.

>>> for problem in shape_problems({"schema_version": 1, "title": " ", "items": [{"id": 3, "label": "A\\x00"}],
...                                "queries": [], "systems": [], "questions": [], "colour": "red"}):
...     print(problem)  # doctest: +ELLIPSIS
unknown field 'colour'; the fields of an IR Lab exercise are: schema_version, title, ...
title: must not be empty
items[0].id: an id must be text such as "1" or "q1", got the number 3
items[0].label: must not hold control characters such as U+0000 (a NUL)
queries: the exercise needs at least 1 query
systems: the exercise needs at least 1 system
questions: the exercise needs at least 1 question
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from irlab.errors import ValidationError
from irlab.exercises.format.schema import MAX_DEPTH, PATTERN_WORDS, exercise_schema

KEYWORDS = ("type", "const", "enum", "additionalProperties", "required", "minItems", "maxItems", "uniqueItems",
            "minLength", "not", "pattern", "maxLength", "minimum", "exclusiveMinimum", "maximum", "allOf", "if")
"""The keywords checked at a value, in the order that decides which problem a field reports."""
STRUCTURE = ("properties", "items", "then", "else")
"""Keywords that hold the schemas of children or branches (applied through the ones above or the walk)."""
ANNOTATIONS = ("$schema", "$id", "title", "description", "examples", "errorMessage")
"""Keywords that check nothing; the sentences read ``title``, ``examples`` and ``errorMessage``."""


class MapKey(str):
    """A key of an object whose keys are data (judgments, rankings): written ``['q1']`` in a path."""

    __slots__ = ()


@dataclass(frozen=True)
class Failure:
    """One keyword of the schema that a value does not satisfy."""

    path: tuple[str | int, ...]
    keyword: str
    schema: dict[str, Any]
    """The (sub)schema holding the keyword: its annotations word the sentence."""
    value: Any
    detail: Any = None
    """What the sentence needs beyond the value: the missing or unknown fields, a repeated entry's positions."""


# ---------------------------------------------------------------------------------------------
# The walk
# ---------------------------------------------------------------------------------------------

def _is_number(value: Any) -> bool:
    """A JSON number: not a boolean; NaN and the infinities are none (JSON cannot write them)."""
    kind = type(value)
    if kind is int:  # the common case first: the walk asks this of every grade
        return True
    if kind is float:
        return math.isfinite(value)
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


_TYPE_TESTS: dict[str, Callable[[Any], bool]] = {
    "string": lambda value: isinstance(value, str),
    "object": lambda value: isinstance(value, dict),
    "array": lambda value: isinstance(value, list),
    "boolean": lambda value: isinstance(value, bool),
    "null": lambda value: value is None,
    "number": _is_number,
    "integer": lambda value: _is_number(value) and (isinstance(value, int) or value.is_integer()),  # 2.0 is one
}


def canonical(value: Any) -> Any:
    """A hashable form under which two JSON values are equal exactly when JSON Schema says so (1 == 1.0, 1 != true).

    >>> canonical(1) == canonical(1.0), canonical(1) == canonical(True), canonical([{"a": 1}]) == canonical([{"a": 1.}])
    (True, False, True)
    """
    if isinstance(value, bool) or value is None:
        return ("literal", value)
    if isinstance(value, (int, float)):
        return ("number", value)
    if isinstance(value, str):
        return ("string", value)
    if isinstance(value, list):
        return ("array", tuple(canonical(entry) for entry in value))
    if isinstance(value, dict):
        return ("object", frozenset((key, canonical(entry)) for key, entry in value.items()))
    return ("other", id(value))


@dataclass
class Node:
    """A schema compiled for the walk: its checks in :data:`KEYWORDS` order and the nodes of its children."""

    schema: dict[str, Any]
    checks: list[tuple[Check, Any]] = field(default_factory=list)
    properties: dict[str, Node] = field(default_factory=dict)
    others: Node | None = None
    """The schema of the values under keys not in ``properties`` (``additionalProperties`` as a schema)."""
    items: Node | None = None
    then: Node | None = None
    otherwise: Node | None = None


Path = tuple | None
"""A value's place, built as the walk goes down: ``(parent path, key or index)``, or ``(parent path, key, MapKey)``
for a key that is data (the key is wrapped only when a failure is reported); None for the whole file."""

Check = Callable[[Node, Any, Any, Path, list[Failure]], None]


def _flat(path: Path) -> tuple[str | int, ...]:
    parts: list[str | int] = []
    while path is not None:
        parts.append(path[1] if len(path) == 2 else path[2](path[1]))
        path = path[0]
    return tuple(reversed(parts))


def _fail(out: list[Failure], node: Node, keyword: str, value: Any, path: Path, detail: Any = None) -> None:
    out.append(Failure(_flat(path), keyword, node.schema, value, detail))


def _type(node, test, value, path, out):
    if not test(value):
        _fail(out, node, "type", value, path)


def _const(node, expected, value, path, out):
    if canonical(value) != expected:
        _fail(out, node, "const", value, path)


def _enum(node, choices, value, path, out):
    if canonical(value) not in choices:
        _fail(out, node, "enum", value, path)


def _additional(node, allowed, value, path, out):
    if allowed is False and isinstance(value, dict):
        extra = [key for key in value if key not in node.properties]
        if extra:
            _fail(out, node, "additionalProperties", value, path, extra)


def _required(node, names, value, path, out):
    if isinstance(value, dict):
        missing = [name for name in names if name not in value]
        if missing:
            _fail(out, node, "required", value, path, missing)


def _min_items(node, limit, value, path, out):
    if isinstance(value, list) and len(value) < limit:
        _fail(out, node, "minItems", value, path)


def _max_items(node, limit, value, path, out):
    if isinstance(value, list) and len(value) > limit:
        _fail(out, node, "maxItems", value, path)


def _unique(node, unique, value, path, out):
    if unique and isinstance(value, list):
        seen: dict[Any, int] = {}
        for position, entry in enumerate(value):
            key = canonical(entry)
            if key in seen:  # reported at the second occurrence, where a reader going down the list meets it
                _fail(out, node, "uniqueItems", value, (path, position), (seen[key], position))
                return
            seen[key] = position


def _min_length(node, limit, value, path, out):
    if isinstance(value, str) and len(value) < limit:
        _fail(out, node, "minLength", value, path)


def _max_length(node, limit, value, path, out):
    if isinstance(value, str) and len(value) > limit:
        _fail(out, node, "maxLength", value, path)


def _pattern(node, pattern, value, path, out):
    if isinstance(value, str) and not pattern.search(value):
        _fail(out, node, "pattern", value, path)


def _not(node, forbidden, value, path, out):
    if valid(forbidden, value):
        _fail(out, node, "not", value, path)


def _minimum(node, limit, value, path, out):
    if _is_number(value) and value < limit:
        _fail(out, node, "minimum", value, path)


def _exclusive_minimum(node, limit, value, path, out):
    if _is_number(value) and value <= limit:
        _fail(out, node, "exclusiveMinimum", value, path)


def _maximum(node, limit, value, path, out):
    if _is_number(value) and value > limit:
        _fail(out, node, "maximum", value, path)


def _all_of(node, parts, value, path, out):
    for part in parts:
        check(part, value, path, out)


def _if(node, condition, value, path, out):
    branch = node.then if valid(condition, value) else node.otherwise
    if branch is not None:
        check(branch, value, path, out)


_APPLY: dict[str, Check] = {
    "type": _type, "const": _const, "enum": _enum, "additionalProperties": _additional, "required": _required,
    "minItems": _min_items, "maxItems": _max_items, "uniqueItems": _unique, "minLength": _min_length, "not": _not,
    "pattern": _pattern, "maxLength": _max_length, "minimum": _minimum, "exclusiveMinimum": _exclusive_minimum,
    "maximum": _maximum, "allOf": _all_of, "if": _if,
}
assert tuple(_APPLY) == KEYWORDS


def compile_schema(schema: dict[str, Any]) -> Node:
    """``schema`` ready for :func:`check`; ValueError if it uses a keyword this module does not apply."""
    unknown = unknown_keywords(schema)
    if unknown:
        raise ValueError(f"the schema uses keywords the checker does not apply: {', '.join(sorted(unknown))}")
    return _compile(schema)


def _compile(schema: dict[str, Any]) -> Node:
    node = Node(schema)
    node.properties = {name: _compile(child) for name, child in schema.get("properties", {}).items()}
    if isinstance(schema.get("additionalProperties"), dict):
        node.others = _compile(schema["additionalProperties"])
    if isinstance(schema.get("items"), dict):
        node.items = _compile(schema["items"])
    node.then = _compile(schema["then"]) if "then" in schema else None
    node.otherwise = _compile(schema["else"]) if "else" in schema else None
    compiled = {"type": _type_test,
                "const": canonical, "enum": lambda choices: {canonical(choice) for choice in choices},
                "pattern": re.compile, "not": _compile, "if": _compile,
                "allOf": lambda parts: [_compile(part) for part in parts]}
    node.checks = [(_APPLY[keyword], compiled.get(keyword, lambda argument: argument)(schema[keyword]))
                   for keyword in KEYWORDS if keyword in schema]
    return node


def _type_test(names: str | list[str]) -> Callable[[Any], bool]:
    if isinstance(names, str):
        return _TYPE_TESTS[names]
    tests = [_TYPE_TESTS[name] for name in names]
    return lambda value: any(test(value) for test in tests)


def check(node: Node, value: Any, path: Path, out: list[Failure]) -> None:
    """Append to ``out`` every keyword of the compiled schema (and of its subschemas) that ``value`` fails, in
    walk order: the value's own keywords, then its children in the order they are written."""
    for apply, argument in node.checks:
        apply(node, argument, value, path, out)
    if isinstance(value, dict):
        properties, others = node.properties, node.others
        for key, child in value.items():
            if key in properties:
                check(properties[key], child, (path, key), out)
            elif others is not None:
                check(others, child, (path, key, MapKey), out)
    elif isinstance(value, list) and node.items is not None:
        entries = node.items
        for index, child in enumerate(value):
            check(entries, child, (path, index), out)


def valid(node: Node, value: Any) -> bool:
    """Whether ``value`` satisfies the compiled schema."""
    out: list[Failure] = []
    check(node, value, None, out)
    return not out


def unknown_keywords(schema: Any) -> set[str]:
    """Keywords in ``schema`` or its subschemas that this module does not apply (an empty set for ours).

    >>> unknown_keywords({"type": "object", "properties": {"a": {"format": "email"}}})
    {'format'}
    """
    found: set[str] = set()
    pending = [schema]
    while pending:
        node = pending.pop()
        if not isinstance(node, dict):
            continue
        found |= set(node) - set(KEYWORDS) - set(STRUCTURE) - set(ANNOTATIONS)
        pending.extend(node.get(keyword) for keyword in ("items", "not", "if", "then", "else", "additionalProperties"))
        pending.extend(node.get("allOf", ()))
        pending.extend(node.get("properties", {}).values())
    return found


@lru_cache(maxsize=1)
def exercise_schema_node() -> Node:
    """The exercise schema, compiled once."""
    return compile_schema(exercise_schema())


# ---------------------------------------------------------------------------------------------
# Depth, without recursion
# ---------------------------------------------------------------------------------------------

def nesting_depth(value: Any, limit: int = MAX_DEPTH) -> int:
    """How deeply lists and objects nest in ``value`` (a scalar is 0, ``[[]]`` is 2), counted up to ``limit + 1``.

    >>> nesting_depth({"a": [1, {"b": []}]}), nesting_depth(7), nesting_depth([[[[]]]], limit=2)
    (4, 0, 3)
    """
    deepest = 0
    pending = [(value, 1)]
    while pending:
        node, depth = pending.pop()
        if isinstance(node, (dict, list)):
            deepest = max(deepest, depth)
            if depth > limit:  # also ends a walk of a list that holds itself
                return depth
            children = node.values() if isinstance(node, dict) else node
            pending.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return deepest


def too_deep_message() -> str:
    """The one message for JSON nested too deeply, wherever it is found (text, link, builder, command line)."""
    return f"not an exercise file: nested deeper than {MAX_DEPTH} levels"


# ---------------------------------------------------------------------------------------------
# Sentences
# ---------------------------------------------------------------------------------------------

def value_words(value: Any) -> str:
    """A JSON value's kind, in words.

    >>> value_words(None), value_words(True), value_words(3), value_words("x"), value_words([]), value_words({})
    ('null', 'true', 'the number 3', "the text 'x'", 'a list', 'an object')
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return f"the number {brief(value)}"
    if isinstance(value, str):
        return f"the text {brief(value)}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def brief(value: Any, limit: int = 40) -> str:
    """A short repr for messages (long texts are cut)."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def field_path(parts: tuple[str | int, ...]) -> str | None:
    """``items[3].label``; keys of id-keyed objects as ``['q1']``; None for the whole file.

    >>> field_path(("queries", 0, "judgments", MapKey("a"))), field_path(())
    ("queries[0].judgments['a']", None)
    """
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        elif isinstance(part, MapKey):
            out += f"[{str(part)!r}]"
        else:
            out += f".{part}" if out else part
    return out or None


def _noun(title: str | None, fallback: str) -> str:
    """"an item" -> "item"."""
    if not title:
        return fallback
    return title.split(" ", 1)[1] if title.split(" ", 1)[0] in ("a", "an", "the") else title


def _lead(failure: Failure) -> str:
    title = failure.schema.get("title")
    return f"{title} " if title else ""


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _either(values: list[Any]) -> str:
    shown = [_json(value) for value in values]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " or " + shown[-1]


_TYPE_WORDS = {"string": "text", "integer": "a whole number", "number": "a number", "array": "a list",
               "object": "a JSON object {...}", "boolean": "true or false", "null": "null"}
_CHARACTER_WORDS = {"\x00": "a NUL", "\t": "a tab", "\n": "a line break", "\r": "a carriage return",
                    "\x1b": "an escape", "\x7f": "a delete"}


def _type_sentence(failure: Failure) -> str:
    wanted = failure.schema["type"]
    words = " or ".join(_TYPE_WORDS[name] for name in ([wanted] if isinstance(wanted, str) else wanted))
    examples = failure.schema.get("examples")
    such_as = f" such as {_either(examples)}" if examples else ""
    return f"{_lead(failure)}must be {words}{such_as}, got {value_words(failure.value)}"


def _enum_sentence(failure: Failure) -> str:
    choices = _either(failure.schema["enum"])
    title = failure.schema.get("title")
    if title:
        return f"unknown {_noun(title, '')} {brief(failure.value)}; use {choices}"
    return f"must be {choices}, got {value_words(failure.value)}"


def _unknown_sentence(failure: Failure) -> str:
    extra = failure.detail
    fields = ", ".join(failure.schema.get("properties", {}))
    owner = failure.schema.get("title") or "this object"
    named = ", ".join(brief(key) for key in extra[:5]) + (", ..." if len(extra) > 5 else "")
    return f"unknown field{'s' if len(extra) > 1 else ''} {named}; the fields of {owner} are: {fields}"


def _required_sentence(failure: Failure) -> str:
    title = failure.schema.get("title")
    needs = f" ({title} needs: {', '.join(failure.schema['required'])})" if title else ""
    return f"missing field {failure.detail[0]!r}{needs}"


def _min_items_sentence(failure: Failure) -> str:
    count = failure.schema["minItems"]
    noun = _noun(failure.schema.get("items", {}).get("title"), "entry") if count == 1 else "entries"
    subject = "the exercise needs" if len(failure.path) == 1 else "needs"  # a top-level list: items, queries...
    return f"{subject} at least {count} {noun}"


def _unique_sentence(failure: Failure) -> str:
    first, second = failure.detail
    noun = _noun(failure.schema.get("items", {}).get("title"), "entry")
    where = _noun(failure.schema.get("title"), "list")
    shown = brief(failure.value[second])
    return f"{noun} {shown} appears twice in the {where} (positions {first + 1} and {second + 1})"


def _not_sentence(failure: Failure) -> str:
    pattern = failure.schema["not"].get("pattern", "")
    found = re.search(pattern, failure.value).group() if pattern and isinstance(failure.value, str) else None
    if found is None or pattern not in PATTERN_WORDS:
        return f"{_lead(failure)}is not allowed here"
    name = _CHARACTER_WORDS.get(found) or unicodedata.name(found, "").lower()
    return (f"{_lead(failure)}must not hold {PATTERN_WORDS[pattern]} such as U+{ord(found):04X}"
            + (f" ({name})" if name else ""))


def _pattern_sentence(failure: Failure) -> str:
    pattern = failure.schema["pattern"]
    words = PATTERN_WORDS.get(pattern, f"must match the pattern {pattern}")
    shown = f", got {brief(failure.value)}" if failure.value.strip() else ""
    return f"{_lead(failure)}{words}{shown}"


def _range_sentence(failure: Failure) -> str:
    schema = failure.schema
    low = (f"above {schema['exclusiveMinimum']}" if "exclusiveMinimum" in schema
           else f"at least {schema['minimum']}" if "minimum" in schema else "")
    high = f"at most {schema['maximum']}" if "maximum" in schema else ""
    if "minimum" in schema and high:
        bounds = f"between {schema['minimum']} and {schema['maximum']}"
    else:
        bounds = " and ".join(part for part in (low, high) if part)
    return f"{_lead(failure)}must be {bounds}, got {brief(failure.value)}"


SENTENCES: dict[str, Callable[[Failure], str]] = {
    "type": _type_sentence,
    "const": lambda f: f"{_lead(f)}must be {_json(f.schema['const'])}, got {value_words(f.value)}",
    "enum": _enum_sentence,
    "additionalProperties": _unknown_sentence,
    "required": _required_sentence,
    "minItems": _min_items_sentence,
    "maxItems": lambda f: f"too many entries: {len(f.value)}; at most {f.schema['maxItems']} are allowed",
    "uniqueItems": _unique_sentence,
    "minLength": lambda f: f"{_lead(f)}must not be empty",
    "not": _not_sentence,
    "pattern": _pattern_sentence,
    "maxLength": lambda f: (f"{_lead(f)}is too long: {len(f.value)} characters; at most {f.schema['maxLength']} "
                            "are allowed"),
    "minimum": _range_sentence,
    "exclusiveMinimum": _range_sentence,
    "maximum": _range_sentence,
}
"""What a failed keyword means, in words (the field's path goes before it). ``allOf`` and ``if`` never fail
themselves: the keywords of their subschemas do."""


def sentence(failure: Failure) -> str:
    """The failure in words: the subschema's ``errorMessage`` if it has one, else the keyword's sentence."""
    return failure.schema.get("errorMessage") or SENTENCES[failure.keyword](failure)


def shape_problems(value: Any) -> list[ValidationError]:
    """Every problem of ``value``'s shape as a :class:`ValidationError` (field path and message), in the order
    the file is written, one per field; [] when the shape is right. Only the rules that need the whole file
    are left (:func:`irlab.exercises.format.exercise_file.exercise_from_dict` checks them)."""
    if nesting_depth(value) > MAX_DEPTH:
        return [ValidationError(too_deep_message())]
    failures: list[Failure] = []
    check(exercise_schema_node(), value, None, failures)
    problems: dict[str | None, ValidationError] = {}
    for failure in failures:
        path = field_path(failure.path)
        if path not in problems:
            problems[path] = ValidationError(sentence(failure), path=path)
    return list(problems.values())
