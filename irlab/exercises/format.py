"""The exercise file format (JSON, ``schema_version`` 1): read, validate, write.

The format is documented in ``docs/exercise-format.md``. Reading checks everything and raises
:class:`irlab.errors.ValidationError` whose message names the field path and the problem,
e.g. ``questions[2].measure: unknown measure 'NDKG@5'; valid measures: ...``. Writing gives
canonical JSON (fixed key order, two-space indent, UTF-8, final newline), so
``dump_exercise(parse_exercise(text))`` is stable and ``parse_exercise(dump_exercise(ex)) == ex``.

Conventions:

* ids (items, queries, systems, questions) are non-empty texts without surrounding spaces;
  ``"mean"`` is reserved (a question's ``query`` uses it for the mean over queries);
* labels, titles, instructions and prompts are plain text: they may hold ``<script>`` or
  Markdown, which every renderer of IR Lab shows escaped, never as markup;
* measures are written with irlab's names (:mod:`irlab.metrics.registry`) and stored in irlab's
  canonical spelling (``ndcg_cut_5`` is stored as ``nDCG@5``);
* a question's K must lie in 1..N, N being the length of each ranking it is asked about.

>>> ex = parse_exercise('''{"schema_version": 1, "title": "Tiny",
...   "items": [{"id": "a", "label": "Doc <b>A</b>"}, {"id": "b", "label": "Doc B"}],
...   "queries": [{"id": "q", "scale": "binary", "judgments": {"b": 1}}],
...   "systems": [{"id": "s", "rankings": {"q": ["a", "b"]}}],
...   "questions": [{"id": "p1", "measure": "precision@1", "query": "q", "system": "s"}]}''')
>>> ex.items[0].label, ex.questions[0].measure, ex.tolerance
('Doc <b>A</b>', 'P@1', 0.005)
>>> parse_exercise(dump_exercise(ex)) == ex
True
>>> parse_exercise('{"schema_version": 1, "title": "x", "items": [], "queries": [], "systems": [], "questions": []}')
Traceback (most recent call last):
...
irlab.errors.ValidationError: items: the exercise needs at least 1 item
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterator
from os import PathLike
from pathlib import Path
from typing import Any

from irlab.data.judgments import Judgments
from irlab.errors import ValidationError
from irlab.exercises.model import (DEFAULT_TOLERANCE, MEAN, SCHEMA_VERSION, Exercise, ExerciseItem, ExerciseQuery,
                                   ExerciseSystem, FrozenMapping, Question)
from irlab.metrics.registry import FAMILIES, TEACHING_ORDER, parse_measure
from irlab.scenarios.art import PICTURES

MAX_FILE_BYTES = 256 * 1024
"""Exercise files above this size are refused before parsing (256 KB)."""

MAX_ITEMS = 200
MAX_QUERIES = 100
MAX_SYSTEMS = 20
MAX_QUESTIONS = 200
MAX_GRADE = 20
"""Limits on counts and on the top of a graded scale; larger exercises are refused with a message."""

MAX_ID_LENGTH = 64
MAX_LABEL_LENGTH = 300
MAX_TITLE_LENGTH = 200
MAX_PROMPT_LENGTH = 2_000
MAX_INSTRUCTIONS_LENGTH = 20_000
MAX_MEASURE_LENGTH = 200
MAX_TOLERANCE = 0.1
MAX_RANKED_ITEMS_ASKED = 100_000
"""Ranked items all questions together ask about (a mean over Q queries of N items counts Q × N): the work
of one answer key. A file at every other limit could ask for 2.4 million, 20 s of computing per load."""

_TOP_FIELDS = ("schema_version", "title", "instructions", "seed", "tolerance", "items", "queries", "systems",
               "questions")
_TOP_REQUIRED = ("schema_version", "title", "items", "queries", "systems", "questions")


# ---------------------------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------------------------

def parse_exercise(text: str | bytes) -> Exercise:
    """Read an exercise from JSON text (or UTF-8 bytes); see the module docstring.

    Refuses input over :data:`MAX_FILE_BYTES`, invalid JSON (with line and column), duplicate
    keys, NaN/Infinity, and anything :func:`exercise_from_dict` refuses.
    """
    raw = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else bytes(text)
    check_size(len(raw))
    try:
        decoded = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ValidationError(f"the file is not UTF-8 text (byte {error.start} cannot be read)") from None
    try:
        data = json.loads(decoded, object_pairs_hook=_no_duplicate_keys, parse_constant=_no_constants)
    except json.JSONDecodeError as error:
        raise ValidationError(f"not valid JSON: {error.msg} (line {error.lineno}, column {error.colno})") from None
    except RecursionError:
        raise ValidationError("not a usable exercise: the JSON is nested too deeply") from None
    except ValueError as error:  # a number too long to convert, a duplicate key, NaN
        raise ValidationError(f"not valid JSON: {error}") from None
    return exercise_from_dict(data)


def read_exercise(path: str | PathLike[str]) -> Exercise:
    """Read an exercise file; the size is checked before the file is read.

    A missing or unreadable file raises :class:`ValidationError` too, naming the path.
    """
    path = Path(path)
    try:
        size = path.stat().st_size
        check_size(size)
        raw = path.read_bytes()
    except ValidationError as error:
        raise ValidationError(error.message, path=str(path)) from None
    except OSError as error:
        raise ValidationError(f"cannot read the file: {error.strerror or error}", path=str(path)) from None
    try:
        return parse_exercise(raw)
    except ValidationError as error:
        raise ValidationError(str(error), path=str(path)) from None


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


def exercise_from_dict(data: Any) -> Exercise:
    """Validate a parsed JSON value and build the :class:`Exercise`.

    Any JSON value is accepted as input: anything that is not a valid exercise raises
    :class:`ValidationError` with the field path and the problem.
    """
    top = _object(data, None, _TOP_FIELDS, _TOP_REQUIRED, what="an exercise")
    version = top["schema_version"]
    if isinstance(version, bool) or not isinstance(version, int) or version != SCHEMA_VERSION:
        raise ValidationError(f"unsupported version {_show(version)}; this version of IR Lab reads "
                              f"schema_version {SCHEMA_VERSION}", path="schema_version")
    title = _text(top["title"], "title", max_length=MAX_TITLE_LENGTH)
    instructions = _text(top.get("instructions", ""), "instructions", max_length=MAX_INSTRUCTIONS_LENGTH,
                         allow_empty=True, multiline=True)
    seed = _seed(top.get("seed"))
    tolerance = _tolerance(top.get("tolerance", DEFAULT_TOLERANCE))
    items = _items(top["items"])
    item_ids = {item.id for item in items}
    queries = _queries(top["queries"], item_ids)
    query_ids = [query.id for query in queries]
    systems = _systems(top["systems"], query_ids, item_ids)
    exercise = Exercise(title=title, instructions=instructions, seed=seed, tolerance=tolerance, items=items,
                        queries=queries, systems=systems, questions=())
    questions = _questions(top["questions"], exercise)
    return Exercise(title=title, instructions=instructions, seed=seed, tolerance=tolerance, items=items,
                    queries=queries, systems=systems, questions=questions)


def validate_exercise(exercise: Exercise) -> Exercise:
    """Check an exercise built in code (e.g. by the app's builder) exactly as a file is checked."""
    return exercise_from_dict(json.loads(json.dumps(exercise_to_dict(exercise))))


def _items(value: Any) -> tuple[ExerciseItem, ...]:
    items = []
    for path, fields, item_id in _entries_with_ids(value, "items", "item", "an item", ("id", "label", "picture"),
                                                   ("id", "label"), MAX_ITEMS):
        label = _text(fields["label"], f"{path}.label", max_length=MAX_LABEL_LENGTH)
        picture = fields.get("picture")
        if picture is not None:
            if not isinstance(picture, str) or picture not in PICTURES:
                raise ValidationError(f"unknown picture {_show(picture)}; the built-in pictures are: "
                                      + ", ".join(PICTURES), path=f"{path}.picture")
        items.append(ExerciseItem(id=item_id, label=label, picture=picture))
    return tuple(items)


def _queries(value: Any, item_ids: set[str]) -> tuple[ExerciseQuery, ...]:
    queries = []
    for path, fields, query_id in _entries_with_ids(value, "queries", "query", "a query",
                                                    ("id", "text", "scale", "max_grade", "judgments"),
                                                    ("id", "scale", "judgments"), MAX_QUERIES):
        if query_id == MEAN:
            raise ValidationError(f"{MEAN!r} is reserved for questions about the mean over queries; "
                                  "choose another query id", path=f"{path}.id")
        text = _text(fields.get("text", ""), f"{path}.text", max_length=MAX_LABEL_LENGTH, allow_empty=True)
        scale = fields["scale"]
        if scale not in ("binary", "graded"):
            raise ValidationError(f"scale must be \"binary\" or \"graded\", got {_show(scale)}", path=f"{path}.scale")
        if scale == "graded":
            if "max_grade" not in fields:
                raise ValidationError("missing field 'max_grade': graded judgments need the top of their scale, "
                                      "e.g. \"max_grade\": 3", path=path)
            max_grade = _int(fields["max_grade"], f"{path}.max_grade", minimum=1, maximum=MAX_GRADE)
        else:
            max_grade = 1
            if "max_grade" in fields and (isinstance(fields["max_grade"], bool) or fields["max_grade"] != 1):
                raise ValidationError(f"binary judgments have max_grade 1, got {_show(fields['max_grade'])}; "
                                      "leave it out or use \"scale\": \"graded\"", path=f"{path}.max_grade")
        grades = _judgments(fields["judgments"], f"{path}.judgments", item_ids, scale, max_grade)
        queries.append(ExerciseQuery(id=query_id, text=text,
                                     judgments=Judgments(grades, scale=scale, max_grade=max_grade)))
    return tuple(queries)


def _judgments(value: Any, path: str, item_ids: set[str], scale: str, max_grade: int) -> dict[str, int]:
    if not isinstance(value, dict):
        raise ValidationError(f"judgments must be an object mapping item ids to grades, got {_kind(value)}", path=path)
    grades = {}
    for item, grade in value.items():
        where = f"{path}[{item!r}]"
        if item not in item_ids:
            raise ValidationError(f"unknown item {item!r}; the items are: {_some(item_ids)}", path=where)
        if isinstance(grade, bool) or not isinstance(grade, (int, float)) or \
                (isinstance(grade, float) and not grade.is_integer()):
            raise ValidationError(f"a grade must be a whole number, got {_show(grade)}", path=where)
        grade = int(grade)
        if grade < 0:
            raise ValidationError(f"a grade cannot be negative, got {grade}", path=where)
        if grade > max_grade:
            problem = (f"binary judgments use grades 0 and 1 only, got {grade}" if scale == "binary"
                       else f"grade {grade} is above max_grade ({max_grade})")
            raise ValidationError(problem, path=where)
        grades[item] = grade
    if not any(grades.values()):
        raise ValidationError("no item has a grade of 1 or more, so every measure would be 0; "
                              "judge at least one item relevant", path=path)
    return grades


def _systems(value: Any, query_ids: list[str], item_ids: set[str]) -> tuple[ExerciseSystem, ...]:
    systems = []
    for path, fields, system_id in _entries_with_ids(value, "systems", "system", "a system",
                                                     ("id", "name", "rankings"), ("id", "rankings"), MAX_SYSTEMS):
        name = _text(fields.get("name", ""), f"{path}.name", max_length=MAX_LABEL_LENGTH, allow_empty=True)
        rankings_value = fields["rankings"]
        if not isinstance(rankings_value, dict):
            raise ValidationError(f"rankings must be an object mapping query ids to lists of item ids, got "
                                  f"{_kind(rankings_value)}", path=f"{path}.rankings")
        for query in rankings_value:
            if query not in query_ids:
                raise ValidationError(f"unknown query {query!r}; the queries are: {_some(query_ids)}",
                                      path=f"{path}.rankings[{query!r}]")
        rankings = {}
        for query in query_ids:
            if query not in rankings_value:
                raise ValidationError(f"no ranking for query {query!r}; every system ranks every query",
                                      path=f"{path}.rankings")
            rankings[query] = _ranking(rankings_value[query], f"{path}.rankings[{query!r}]", item_ids)
        systems.append(ExerciseSystem(id=system_id, name=name, rankings=FrozenMapping(rankings)))
    return tuple(systems)


def _ranking(value: Any, path: str, item_ids: set[str]) -> tuple[str, ...]:
    entries = _list(value, path, what="ranked item", minimum=1, maximum=MAX_ITEMS)
    first_rank: dict[str, int] = {}
    for rank, item in enumerate(entries, start=1):
        where = f"{path}[{rank - 1}]"
        if not isinstance(item, str):
            raise ValidationError(f"a ranking lists item ids (texts such as \"3\"), got {_show(item)}", path=where)
        if item not in item_ids:
            raise ValidationError(f"unknown item {item!r} at rank {rank}; the items are: {_some(item_ids)}",
                                  path=where)
        if item in first_rank:
            raise ValidationError(f"item {item!r} appears twice in the ranking (ranks {first_rank[item]} and {rank})",
                                  path=where)
        first_rank[item] = rank
    return tuple(entries)


def _questions(value: Any, exercise: Exercise) -> tuple[Question, ...]:
    query_ids = [query.id for query in exercise.queries]
    system_ids = [system.id for system in exercise.systems]
    questions = []
    asked = 0
    for path, fields, question_id in _entries_with_ids(value, "questions", "question", "a question",
                                                       ("id", "measure", "query", "system", "prompt", "mean_over"),
                                                       ("id", "measure", "query", "system"), MAX_QUESTIONS):
        measure_text = _text(fields["measure"], f"{path}.measure", max_length=MAX_MEASURE_LENGTH)
        try:
            measure = parse_measure(measure_text, families=TEACHING_ORDER)  # the measures exercises can teach
        except ValidationError as error:
            raise ValidationError(error.message, path=f"{path}.measure") from None
        query = fields["query"]
        if query != MEAN and query not in query_ids:
            raise ValidationError(f"unknown query {_show(query)}; use a query id ({_some(query_ids)}) or \"mean\"",
                                  path=f"{path}.query")
        system = fields["system"]
        if system not in system_ids:
            raise ValidationError(f"unknown system {_show(system)}; the systems are: {_some(system_ids)}",
                                  path=f"{path}.system")
        prompt = _text(fields.get("prompt", ""), f"{path}.prompt", max_length=MAX_PROMPT_LENGTH, allow_empty=True,
                       multiline=True)
        mean_over = _mean_over(fields.get("mean_over"), f"{path}.mean_over", query, query_ids)
        question = Question(id=question_id, measure=str(measure), query=query, system=system, prompt=prompt,
                            mean_over=mean_over)
        _check_measure_fits(question, exercise, f"{path}.measure")
        system = exercise.system(system)
        asked += sum(len(system.rankings[q]) for q in exercise.question_queries(question))
        if asked > MAX_RANKED_ITEMS_ASKED:
            raise ValidationError(f"the questions up to this one ask about {asked:,} ranked items in all; at most "
                                  f"{MAX_RANKED_ITEMS_ASKED:,} are allowed (ask for means over fewer queries, or "
                                  "use shorter rankings)", path=path)
        _check_answerable(question, exercise, f"{path}.measure")
        questions.append(question)
    return tuple(questions)


def _mean_over(value: Any, path: str, query: str, query_ids: list[str]) -> tuple[str, ...] | None:
    if value is None:
        return None
    if query != MEAN:
        raise ValidationError("mean_over is only allowed when query is \"mean\"", path=path)
    entries = _list(value, path, what="query id", minimum=1, maximum=MAX_QUERIES)
    for index, entry in enumerate(entries):
        if entry not in query_ids:
            raise ValidationError(f"unknown query {_show(entry)}; the queries are: {_some(query_ids)}",
                                  path=f"{path}[{index}]")
        if entry in entries[:index]:
            raise ValidationError(f"query {entry!r} is listed twice", path=f"{path}[{index}]")
    return tuple(entries)


def _check_answerable(question: Question, exercise: Exercise, path: str) -> None:
    """Compute the question's answer now: what validates can be answered, exported, previewed and practised."""
    from irlab.exercises.questions import explain_question  # not at import: questions reads the model only

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
            raise ValidationError(f"K = {measure.cutoff} is past the end of the ranking: system {system.id!r} ranks "
                                  f"{len(ranking)} item{'s' if len(ranking) != 1 else ''} for query {query_id!r}; use K between 1 and "
                                  f"{len(ranking)}",
                                  path=path)
        top = exercise.query(query_id).max_grade
        if measure.relevance_level is not None and measure.relevance_level > top:
            raise ValidationError(f"rel={measure.relevance_level} is above the top grade ({top}) of query "
                                  f"{query_id!r}, so no item would count as relevant", path=path)
        if "rel" in FAMILIES[measure.family].params:
            level = measure.relevance_level or 1
            if not exercise.query(query_id).judgments.relevant_items(level):
                raise ValidationError(f"no item of query {query_id!r} has a grade of {level} or more, so "
                                      f"{question.measure} would be 0 whatever the ranking", path=path)


# ---------------------------------------------------------------------------------------------
# Small typed readers: each checks one JSON value and names its path in the message
# ---------------------------------------------------------------------------------------------

def _kind(value: Any) -> str:
    """A JSON value's type in words."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"{'true' if value else 'false'}"
    if isinstance(value, (int, float)):
        return f"the number {_show(value)}"
    if isinstance(value, str):
        return f"the text {_show(value)}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _show(value: Any, limit: int = 40) -> str:
    """A short repr for messages (long texts are cut)."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _some(ids: Any, limit: int = 12) -> str:
    ordered = sorted(ids) if isinstance(ids, set) else list(ids)
    shown = ", ".join(repr(i) for i in ordered[:limit])
    return shown + (f", ... ({len(ordered)} in all)" if len(ordered) > limit else "")


def _object(value: Any, path: str | None, allowed: tuple[str, ...], required: tuple[str, ...], *,
            what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValidationError(f"{what} must be a JSON object {{...}}, got {_kind(value)}", path=path)
    for key in value:
        if key not in allowed:
            raise ValidationError(f"unknown field {_show(key)}; the fields of {what} are: " + ", ".join(allowed),
                                  path=path)
    for key in required:
        if key not in value:
            raise ValidationError(f"missing field {key!r} ({what} needs: {', '.join(required)})", path=path)
    return value


def _entries_with_ids(value: Any, name: str, what: str, article: str, keys: tuple[str, ...],
                      required: tuple[str, ...], maximum: int) -> Iterator[tuple[str, dict[str, Any], str]]:
    """Each object of the list ``name`` as (path, fields, id), refusing an id used twice."""
    seen: set[str] = set()
    for index, entry in enumerate(_list(value, name, what=what, minimum=1, maximum=maximum)):
        path = f"{name}[{index}]"
        fields = _object(entry, path, keys, required, what=article)
        entry_id = _identifier(fields["id"], f"{path}.id")
        if entry_id in seen:
            raise ValidationError(f"{what} id {entry_id!r} is used twice", path=f"{path}.id")
        seen.add(entry_id)
        yield path, fields, entry_id


def _list(value: Any, path: str, *, what: str, minimum: int, maximum: int) -> list[Any]:
    if not isinstance(value, list):
        raise ValidationError(f"must be a list, got {_kind(value)}", path=path)
    if len(value) < minimum:
        noun = "the exercise needs" if "[" not in path else "needs"
        raise ValidationError(f"{noun} at least {minimum} {what}", path=path)
    if len(value) > maximum:
        raise ValidationError(f"too many entries: {len(value)}; at most {maximum} are allowed", path=path)
    return value


def _text(value: Any, path: str, *, max_length: int, allow_empty: bool = False, multiline: bool = False) -> str:
    if not isinstance(value, str):
        raise ValidationError(f"must be text, got {_kind(value)}", path=path)
    allowed = "\n\t\r" if multiline else ""
    bad = next((char for char in value if not char.isprintable() and char not in allowed and char != " "), None)
    if bad is not None:  # NUL and other control characters would travel into every export
        raise ValidationError(f"must not hold control characters such as U+{ord(bad):04X}"
                              + ("" if multiline else " (a line break, a tab or a NUL)"), path=path)
    if not allow_empty and not value.strip():
        raise ValidationError("must not be empty", path=path)
    if len(value) > max_length:
        raise ValidationError(f"is too long: {len(value)} characters; at most {max_length} are allowed", path=path)
    return value


def _identifier(value: Any, path: str) -> str:
    if not isinstance(value, str):
        raise ValidationError(f"an id must be text such as \"1\" or \"q1\", got {_kind(value)}", path=path)
    if not value or value != value.strip() or any(not char.isprintable() for char in value):
        raise ValidationError(f"an id must be non-empty, printable text without surrounding spaces, got {_show(value)}",
                              path=path)
    if len(value) > MAX_ID_LENGTH:
        raise ValidationError(f"an id may have at most {MAX_ID_LENGTH} characters, got {len(value)}", path=path)
    return value


def _int(value: Any, path: str, *, minimum: int, maximum: int) -> int:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValidationError(f"must be a whole number, got {_kind(value)}", path=path)
    if not minimum <= value <= maximum:
        raise ValidationError(f"must be between {minimum} and {maximum}, got {value}", path=path)
    return value


def _seed(value: Any) -> int | None:
    if value is None:
        return None
    return _int(value, "seed", minimum=0, maximum=2**63 - 1)


def _tolerance(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValidationError(f"must be a number, got {_kind(value)}", path="tolerance")
    if not 0 < value <= MAX_TOLERANCE:
        raise ValidationError(f"must be above 0 and at most {MAX_TOLERANCE}, got {value}", path="tolerance")
    return float(value)


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

