"""The exercise file format (JSON, ``schema_version`` 1): read, validate, write.

The format is documented in ``docs/exercise-format.md``. Reading checks a file in three steps and raises
:class:`irlab.errors.ValidationError` whose message names the field path and the problem, e.g.
``questions[2].measure: unknown measure 'NDKG@5'; valid measures: ...``:

1. the JSON text (:func:`read_json`): size, UTF-8, nesting depth (scanned without recursion), syntax,
   duplicate keys, NaN and Infinity;
2. the shape: the JSON Schema of :mod:`irlab.exercises.format.schema`, the one declaration of fields, types,
   lengths, counts, ranges and text rules, applied by :mod:`irlab.exercises.format.schema_check`;
3. the rules that need the whole file, the only rules written here: ids unique in their list, ``"mean"``
   reserved, judgments and rankings naming known items and queries, every query ranked, grades within
   their query's scale, a relevant item per query, questions naming known queries and systems, measure
   names that parse, K within each ranking, ``rel`` on the scale, and every answer computable within a
   budget (:data:`MAX_RANKED_ITEMS_ASKED`).

Writing gives canonical JSON (fixed key order, two-space indent, UTF-8, final newline), so
``dump_exercise(parse_exercise(text))`` is stable and ``parse_exercise(dump_exercise(ex)) == ex``.

Conventions:

* ids (items, queries, systems, questions) are non-empty texts without surrounding spaces;
  ``"mean"`` is reserved (a question's ``query`` uses it for the mean over queries);
* labels, titles, instructions and prompts are plain text: they may hold ``<script>`` or
  Markdown, which every renderer of IR Lab shows escaped, never as markup;
* measures are written with irlab's names (:mod:`irlab.metrics.registry`) and stored in irlab's
  canonical spelling (``ndcg_cut_5`` is stored as ``nDCG@5``);
* a question's K must lie in 1..N, N being the length of each ranking it is asked about.

>>> ex = parse_exercise(\'\'\'{"schema_version": 1, "title": "Tiny",
...   "items": [{"id": "a", "label": "Doc <b>A</b>"}, {"id": "b", "label": "Doc B"}],
...   "queries": [{"id": "q", "scale": "binary", "judgments": {"b": 1}}],
...   "systems": [{"id": "s", "rankings": {"q": ["a", "b"]}}],
...   "questions": [{"id": "p1", "measure": "precision@1", "query": "q", "system": "s"}]}\'\'\')
>>> ex.items[0].label, ex.questions[0].measure, ex.tolerance
('Doc <b>A</b>', 'P@1', 0.005)
>>> parse_exercise(dump_exercise(ex)) == ex
True
>>> parse_exercise('{"schema_version": 1, "title": "x", "items": [], "queries": [], "systems": [], "questions": []}')
Traceback (most recent call last):
...
irlab.errors.ValidationError: items: the exercise needs at least 1 item
>>> parse_exercise("[" * 100_000 + "]" * 100_000)
Traceback (most recent call last):
...
irlab.errors.ValidationError: not an exercise file: nested deeper than 64 levels
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from itertools import accumulate
from os import PathLike
from pathlib import Path
from typing import Any

from irlab.data.judgments import Judgments
from irlab.errors import ValidationError
from irlab.exercises.format.schema import MAX_DEPTH
from irlab.exercises.format.schema_check import brief, nesting_depth, shape_problems, too_deep_message
from irlab.exercises.model import (
    DEFAULT_TOLERANCE,
    MEAN,
    SCHEMA_VERSION,
    Exercise,
    ExerciseItem,
    ExerciseQuery,
    ExerciseSystem,
    FrozenMapping,
    Question,
)
from irlab.exercises.questions.explain import explain_question
from irlab.metrics.measure_names import parse_measure
from irlab.metrics.registry import FAMILIES, TEACHING_ORDER

MAX_FILE_BYTES = 256 * 1024
"""Exercise files above this size are refused before parsing (256 KB)."""

MAX_RANKED_ITEMS_ASKED = 100_000
"""Ranked items all questions together ask about (a mean over Q queries of N items counts Q × N): the work
of one answer key. A file at every other limit could ask for 2.4 million, 20 s of computing per load."""


# ---------------------------------------------------------------------------------------------
# Reading: the JSON text
# ---------------------------------------------------------------------------------------------

def parse_exercise(text: str | bytes) -> Exercise:
    """Read an exercise from JSON text (or UTF-8 bytes); see the module docstring."""
    return exercise_from_dict(read_json(text))


def read_json(text: str | bytes) -> Any:
    """The JSON value of an exercise file's text, or a :class:`ValidationError` saying why it is none.

    Refuses input over :data:`MAX_FILE_BYTES`, text that is not UTF-8, JSON nested deeper than
    :data:`~irlab.exercises.format.schema.MAX_DEPTH` levels (before parsing, so no parser can recurse that deep),
    invalid JSON (with line and column), duplicate keys, NaN and Infinity.

    >>> read_json('{"a": [1, 2]}'), read_json(b'\\xef\\xbb\\xbf[]')
    ({'a': [1, 2]}, [])
    >>> read_json('{"a": 1, "a": 2}')
    Traceback (most recent call last):
    ...
    irlab.errors.ValidationError: not valid JSON: the key 'a' appears twice in one object
    """
    raw = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else bytes(text)
    check_size(len(raw))
    try:
        decoded = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ValidationError(f"the file is not UTF-8 text (byte {error.start} cannot be read)") from None
    if json_depth(decoded) > MAX_DEPTH:
        raise ValidationError(too_deep_message())
    try:
        return json.loads(decoded, object_pairs_hook=_no_duplicate_keys, parse_constant=_no_constants)
    except json.JSONDecodeError as error:
        raise ValidationError(f"not valid JSON: {error.msg} (line {error.lineno}, column {error.colno})") from None
    except ValueError as error:  # a number too long to convert, a duplicate key, NaN
        raise ValidationError(f"not valid JSON: {error}") from None


_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?', re.S)
"""A JSON string (or an unterminated one, to the end): one way to match each character, so linear time."""
_BRACKET = re.compile(r"[\[\]{}]")


def json_depth(text: str) -> int:
    """How deeply the brackets of JSON text nest, brackets inside strings not counted (a loop, not recursion).

    >>> json_depth('{"a": [1, {"b": "[[[["}]}'), json_depth("[" * 100_000), json_depth("7")
    (3, 100000, 0)
    """
    steps = [1 if bracket in "[{" else -1 for bracket in _BRACKET.findall(_STRING.sub("", text))]
    return max(accumulate(steps), default=0)


def read_exercise(path: str | PathLike[str]) -> Exercise:
    """Read an exercise file; the size is checked before the file is read.

    A missing or unreadable file raises :class:`ValidationError` too, naming the path.
    """
    data = read_exercise_json(path)
    try:
        return exercise_from_dict(data)
    except ValidationError as error:
        raise ValidationError(str(error), path=str(path)) from None


def read_exercise_json(path: str | PathLike[str]) -> Any:
    """The JSON value of an exercise file (:func:`read_json`); errors name the path."""
    path = Path(path)
    try:
        check_size(path.stat().st_size)
        raw = path.read_bytes()
        return read_json(raw)
    except ValidationError as error:
        raise ValidationError(error.message, path=str(path)) from None
    except OSError as error:
        raise ValidationError(f"cannot read the file: {error.strerror or error}", path=str(path)) from None


def check_size(size: int) -> None:
    """Refuse input larger than :data:`MAX_FILE_BYTES`.

    >>> check_size(300_000)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    irlab.errors.ValidationError: the file is too large: 300000 bytes; ... at most 262144 bytes (256 KB)
    """
    if size > MAX_FILE_BYTES:
        raise ValidationError(f"the file is too large: {size} bytes; an exercise file may have at most "
                              f"{MAX_FILE_BYTES} bytes ({MAX_FILE_BYTES // 1024} KB)")


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise ValueError(f"the key {key!r} appears twice in one object")
        result[key] = value
    return result


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


# ---------------------------------------------------------------------------------------------
# Reading: the shape, then the rules that need the whole file
# ---------------------------------------------------------------------------------------------

def exercise_from_dict(data: Any) -> Exercise:
    """Validate a parsed JSON value and build the :class:`Exercise`.

    Any JSON value is accepted as input: anything that is not a valid exercise raises
    :class:`ValidationError` with the field path and the problem (the first one in the file).
    """
    problems = check_shape(data)
    if problems:
        raise problems[0]
    return build_exercise(data)


def exercise_problems(data: Any) -> list[ValidationError]:
    """Every problem of the shape at once, in the file's order; if the shape is right, the first problem of
    the rules that need the whole file; [] for a valid exercise.

    >>> [str(p) for p in exercise_problems({"schema_version": 1, "title": "", "items": [{"id": 3}]})]
    ["missing field 'queries' (an IR Lab exercise needs: schema_version, title, items, queries, systems, questions)", \
'title: must not be empty', "items[0]: missing field 'label' (an item needs: id, label)", \
'items[0].id: an id must be text such as "1" or "q1", got the number 3']
    """
    problems = check_shape(data)
    if problems:
        return problems
    try:
        build_exercise(data)
    except ValidationError as error:
        return [error]
    return []


def validate_exercise(exercise: Exercise) -> Exercise:
    """Check an exercise built in code (e.g. by the app's builder) exactly as a file is checked."""
    return exercise_from_dict(json.loads(json.dumps(exercise_to_dict(exercise))))


def check_shape(data: Any) -> list[ValidationError]:
    """Every problem of the shape (nesting depth, version, the JSON Schema), in the file's order. The version
    comes first: a file of another version is not judged by this one's schema (the rest would be noise)."""
    if nesting_depth(data) > MAX_DEPTH:
        return [ValidationError(too_deep_message())]
    if isinstance(data, dict) and "schema_version" in data:
        version = data["schema_version"]
        if type(version) is not int or version != SCHEMA_VERSION:
            return [ValidationError(f"unsupported version {brief(version)}; this version of IR Lab reads "
                                    f"schema_version {SCHEMA_VERSION}", path="schema_version")]
    return shape_problems(data)


def build_exercise(data: dict[str, Any]) -> Exercise:
    """The exercise of a value whose shape :func:`check_shape` found right, checking the rules that need the
    whole file (in the order of the file's sections; the first problem found is raised)."""
    items = tuple(ExerciseItem(id=item["id"], label=item["label"], picture=item.get("picture"))
                  for item in data["items"])
    _unique_ids(data["items"], "items", "item")
    item_ids = {item.id for item in items}
    queries = _queries(data["queries"], item_ids)
    query_ids = [query.id for query in queries]
    systems = _systems(data["systems"], query_ids, item_ids)
    seed = data.get("seed")
    common = {"title": data["title"], "instructions": data.get("instructions", ""),
              "seed": None if seed is None else int(seed), "tolerance": float(data.get("tolerance", DEFAULT_TOLERANCE)),
              "items": items, "queries": queries, "systems": systems}
    questions = _questions(data["questions"], Exercise(**common, questions=()))
    return Exercise(**common, questions=questions)


def _unique_ids(entries: list[dict[str, Any]], name: str, what: str) -> None:
    seen: set[str] = set()
    for index, entry in enumerate(entries):
        if entry["id"] in seen:
            raise ValidationError(f"{what} id {entry['id']!r} is used twice", path=f"{name}[{index}].id")
        seen.add(entry["id"])


def _queries(entries: list[dict[str, Any]], item_ids: set[str]) -> tuple[ExerciseQuery, ...]:
    _unique_ids(entries, "queries", "query")
    queries = []
    for index, fields in enumerate(entries):
        path = f"queries[{index}]"
        if fields["id"] == MEAN:
            raise ValidationError(f"{MEAN!r} is reserved for questions about the mean over queries; "
                                  "choose another query id", path=f"{path}.id")
        scale = fields["scale"]
        max_grade = int(fields["max_grade"]) if scale == "graded" else 1
        grades = _judgments(fields["judgments"], f"{path}.judgments", item_ids, scale, max_grade)
        queries.append(ExerciseQuery(id=fields["id"], text=fields.get("text", ""),
                                     judgments=Judgments(grades, scale=scale, max_grade=max_grade)))
    return tuple(queries)


def _judgments(value: dict[str, Any], path: str, item_ids: set[str], scale: str, max_grade: int) -> dict[str, int]:
    grades = {}
    for item, grade in value.items():
        where = f"{path}[{item!r}]"
        if item not in item_ids:
            raise ValidationError(f"unknown item {item!r}; the items are: {_some(item_ids)}", path=where)
        grade = int(grade)
        if grade > max_grade:
            problem = (f"binary judgments use grades 0 and 1 only, got {grade}" if scale == "binary"
                       else f"grade {grade} is above max_grade ({max_grade})")
            raise ValidationError(problem, path=where)
        grades[item] = grade
    if not any(grades.values()):
        raise ValidationError("no item has a grade of 1 or more, so every measure would be 0; "
                              "judge at least one item relevant", path=path)
    return grades


def _systems(entries: list[dict[str, Any]], query_ids: list[str], item_ids: set[str]) -> tuple[ExerciseSystem, ...]:
    _unique_ids(entries, "systems", "system")
    systems = []
    for index, fields in enumerate(entries):
        path = f"systems[{index}].rankings"
        given = fields["rankings"]
        for query in given:
            if query not in query_ids:
                raise ValidationError(f"unknown query {query!r}; the queries are: {_some(query_ids)}",
                                      path=f"{path}[{query!r}]")
        rankings = {}
        for query in query_ids:
            if query not in given:
                raise ValidationError(f"no ranking for query {query!r}; every system ranks every query", path=path)
            rankings[query] = _ranking(given[query], f"{path}[{query!r}]", item_ids)
        systems.append(ExerciseSystem(id=fields["id"], name=fields.get("name", ""), rankings=FrozenMapping(rankings)))
    return tuple(systems)


def _ranking(entries: list[str], path: str, item_ids: set[str]) -> tuple[str, ...]:
    for rank, item in enumerate(entries, start=1):
        if item not in item_ids:
            raise ValidationError(f"unknown item {item!r} at rank {rank}; the items are: {_some(item_ids)}",
                                  path=f"{path}[{rank - 1}]")
    return tuple(entries)


def _questions(entries: list[dict[str, Any]], exercise: Exercise) -> tuple[Question, ...]:
    _unique_ids(entries, "questions", "question")
    query_ids = [query.id for query in exercise.queries]
    system_ids = [system.id for system in exercise.systems]
    questions = []
    asked = 0
    for index, fields in enumerate(entries):
        path = f"questions[{index}]"
        try:
            measure = parse_measure(fields["measure"], families=TEACHING_ORDER)  # the measures exercises can teach
        except ValidationError as error:
            raise ValidationError(error.message, path=f"{path}.measure") from None
        query = fields["query"]
        if query != MEAN and query not in query_ids:
            raise ValidationError(f"unknown query {brief(query)}; use a query id ({_some(query_ids)}) or \"mean\"",
                                  path=f"{path}.query")
        system = fields["system"]
        if system not in system_ids:
            raise ValidationError(f"unknown system {brief(system)}; the systems are: {_some(system_ids)}",
                                  path=f"{path}.system")
        mean_over = _mean_over(fields.get("mean_over"), f"{path}.mean_over", query, query_ids)
        question = Question(id=fields["id"], measure=str(measure), query=query, system=system,
                            prompt=fields.get("prompt", ""), mean_over=mean_over)
        _check_measure_fits(question, exercise, f"{path}.measure")
        asked += sum(len(exercise.system(system).rankings[q]) for q in exercise.question_queries(question))
        if asked > MAX_RANKED_ITEMS_ASKED:
            raise ValidationError(f"the questions up to this one ask about {asked:,} ranked items in all; at most "
                                  f"{MAX_RANKED_ITEMS_ASKED:,} are allowed (ask for means over fewer queries, or "
                                  "use shorter rankings)", path=path)
        _check_answerable(question, exercise, f"{path}.measure")
        questions.append(question)
    return tuple(questions)


def _mean_over(value: list[str] | None, path: str, query: str, query_ids: list[str]) -> tuple[str, ...] | None:
    if value is None:
        return None
    if query != MEAN:
        raise ValidationError("mean_over is only allowed when query is \"mean\"", path=path)
    for index, entry in enumerate(value):
        if entry not in query_ids:
            raise ValidationError(f"unknown query {brief(entry)}; the queries are: {_some(query_ids)}",
                                  path=f"{path}[{index}]")
    return tuple(value)


def _check_answerable(question: Question, exercise: Exercise, path: str) -> None:
    """Compute the question's answer now: what validates can be answered, exported, previewed and practised."""
    try:
        value = explain_question(exercise, question).value
    except (ArithmeticError, ValueError) as error:
        raise ValidationError(f"{question.measure} cannot be computed for this data ({error})", path=path) from None
    if not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValidationError(f"{question.measure} gives {value!r} for this data, not a number a student can type",
                              path=path)


def _check_measure_fits(question: Question, exercise: Exercise, path: str) -> None:
    """K must lie in 1..N for every ranking asked about; ``rel`` must be reachable on the scale."""
    measure = question.parsed
    system = exercise.system(question.system)
    for query_id in exercise.question_queries(question):
        ranking = system.rankings[query_id]
        if measure.cutoff is not None and measure.cutoff > len(ranking):
            items = f"{len(ranking)} item{'s' if len(ranking) != 1 else ''}"
            raise ValidationError(f"K = {measure.cutoff} is past the end of the ranking: system {system.id!r} ranks "
                                  f"{items} for query {query_id!r}; use K between 1 and {len(ranking)}", path=path)
        top = exercise.query(query_id).max_grade
        if measure.relevance_level is not None and measure.relevance_level > top:
            raise ValidationError(f"rel={measure.relevance_level} is above the top grade ({top}) of query "
                                  f"{query_id!r}, so no item would count as relevant", path=path)
        if "rel" in FAMILIES[measure.family].params:
            level = measure.relevance_level or 1
            if not exercise.query(query_id).judgments.relevant_items(level):
                raise ValidationError(f"no item of query {query_id!r} has a grade of {level} or more, so "
                                      f"{question.measure} would be 0 whatever the ranking", path=path)


def _some(ids: Any, limit: int = 12) -> str:
    ordered = sorted(ids) if isinstance(ids, set) else list(ids)
    shown = ", ".join(repr(i) for i in ordered[:limit])
    return shown + (f", ... ({len(ordered)} in all)" if len(ordered) > limit else "")


# ---------------------------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------------------------

def exercise_to_dict(exercise: Exercise) -> dict[str, Any]:
    """The exercise as a JSON-ready dict in canonical key order (optional fields left out when unset)."""
    data: dict[str, Any] = {"schema_version": exercise.schema_version, "title": exercise.title}
    if exercise.instructions:
        data["instructions"] = exercise.instructions
    if exercise.seed is not None:
        data["seed"] = exercise.seed
    data["tolerance"] = exercise.tolerance
    data["items"] = [_drop_empty({"id": item.id, "label": item.label, "picture": item.picture})
                     for item in exercise.items]
    data["queries"] = [_drop_empty({"id": query.id, "text": query.text, "scale": query.scale,
                                    "max_grade": query.max_grade if query.scale == "graded" else None,
                                    "judgments": dict(query.judgments)})
                       for query in exercise.queries]
    data["systems"] = [_drop_empty({"id": system.id, "name": system.name,
                                    "rankings": {query: list(ranking) for query, ranking in system.rankings.items()}})
                       for system in exercise.systems]
    data["questions"] = [_drop_empty({"id": q.id, "measure": q.measure, "query": q.query, "system": q.system,
                                      "prompt": q.prompt,
                                      "mean_over": list(q.mean_over) if q.mean_over is not None else None})
                         for q in exercise.questions]
    return data


def _drop_empty(fields: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in fields.items() if value is not None and value != ""}


INLINE_WIDTH = 100
"""In written files, a list or object of plain values that fits in this many characters stays on one line."""


def dump_exercise(exercise: Exercise) -> str:
    """Canonical JSON text of the exercise: two-space indent, non-ASCII kept, final newline.

    A written file always reads back unchanged: an exercise whose indented text would exceed
    :data:`MAX_FILE_BYTES` is written compact (one line), which is at most the size it was read from.
    Short lists and objects of plain values (a ranking, a judgments object, an item) stay on
    one line, so a file reads like a table and is easy to edit by hand.

    >>> print(_pretty({"a": [1, 2], "b": [{"id": "x"}, {"id": "y"}]}))
    {
      "a": [1, 2],
      "b": [
        {"id": "x"},
        {"id": "y"}
      ]
    }
    """
    text = _pretty(exercise_to_dict(exercise)) + "\n"
    if len(text.encode("utf-8")) > MAX_FILE_BYTES:
        # an exercise near the size limit: its indented form would not read back, its compact form does
        text = compact_json(exercise) + "\n"
    return text


def _pretty(value: Any, indent: str = "") -> str:
    """Deterministic JSON with inline leaves (see :func:`dump_exercise`)."""
    if not isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False)
    children = value.values() if isinstance(value, dict) else value
    inline = json.dumps(value, ensure_ascii=False)
    if not value or (all(not isinstance(child, (dict, list)) for child in children)
                     and len(indent) + len(inline) <= INLINE_WIDTH):
        return inline
    inner = indent + "  "
    if isinstance(value, dict):
        lines = [f"{inner}{json.dumps(key, ensure_ascii=False)}: {_pretty(child, inner)}"
                 for key, child in value.items()]
        return "{\n" + ",\n".join(lines) + f"\n{indent}}}"
    lines = [f"{inner}{_pretty(child, inner)}" for child in value]
    return "[\n" + ",\n".join(lines) + f"\n{indent}]"


def write_exercise(exercise: Exercise, path: str | PathLike[str]) -> None:
    """Write :func:`dump_exercise` to ``path`` (UTF-8)."""
    Path(path).write_text(dump_exercise(exercise), encoding="utf-8")


def fingerprint(exercise: Exercise) -> str:
    """A short hash of the exercise's content (seed included): answers, notebooks and answer files carry it."""
    return hashlib.sha256(dump_exercise(exercise).encode("utf-8")).hexdigest()[:16]


def compact_json(exercise: Exercise) -> str:
    """The exercise as JSON without spaces (for links and hashes); key order as :func:`exercise_to_dict`."""
    return json.dumps(exercise_to_dict(exercise), separators=(",", ":"), ensure_ascii=False)

