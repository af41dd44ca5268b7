"""The exercise builder's draft: an editable, possibly invalid exercise, and the edits made to it.

A *draft* is a JSON-ready dict in the exercise file's shape
(:func:`irlab.exercises.format.exercise_file.exercise_to_dict`), so every draft can be validated exactly as a file
is (:func:`check_draft`). The builder shows a
draft as tables (:func:`table_rows`) and applies the edits of a table as a *delta* in the shape
Streamlit's data editor reports (``{"edited_rows": {row: {column: value}}, "added_rows": [...],
"deleted_rows": [...]}``) with :func:`apply_edit`. Renaming an id renames every reference to it
(a renamed item keeps its grades and ranks; a renamed query keeps its rankings and questions),
and deleting an item removes it from judgments and rankings, so the draft never silently loses
work. Every function returns a new draft and leaves its argument unchanged.

>>> from irlab.exercises import builtin_exercise
>>> draft = draft_of(builtin_exercise("ndcg-exercise"))
>>> draft = apply_edit(draft, "items", {"edited_rows": {0: {"id": "d1"}}})
>>> draft["queries"][0]["judgments"]["d1"], draft["systems"][0]["rankings"]["q1"][:2]
(2, ['2', 'd1'])
>>> exercise, problems = check_draft(apply_edit(draft, "questions", {"edited_rows": {1: {"measure": "nDCG@12"}}}))
>>> exercise is None, problems[0].section, problems[0].location
(True, 'questions', 'question 2 (ndcg10-q1) · measure')
>>> problems[0].message  # doctest: +ELLIPSIS
"K = 12 is past the end of the ranking: system 'system' ranks 10 items for query 'q1'; ..."
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from irlab.errors import ValidationError
from irlab.exercises.format.exercise_file import build_exercise, check_shape, exercise_to_dict
from irlab.exercises.model import MEAN, SCHEMA_VERSION, Exercise  # noqa: F401 (MEAN: doctests)
from irlab.metrics.measure_names import parse_measure

Draft = dict[str, Any]

SECTIONS = ("about", "items", "queries", "systems", "questions")
"""Where a problem is shown: the exercise's fields, items, queries and judgments, systems and
rankings, questions."""

TABLES = ("items", "queries", "judgments", "systems", "rankings", "questions")
"""The editable tables of a draft."""

MAX_QUESTION_PROBLEMS = 30
_PATH = re.compile(r"^(items|queries|systems|questions)\[(\d+)\](?:\.(.*))?$")
_KINDS = {"items": "item", "queries": "query", "systems": "system", "questions": "question"}


@dataclass(frozen=True)
class Problem:
    """One validation problem of a draft: the section it belongs to, its field path and message."""

    section: str
    path: str | None
    message: str
    location: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message


# ---------------------------------------------------------------------------------------------
# Making drafts and checking them
# ---------------------------------------------------------------------------------------------

def draft_of(exercise: Exercise) -> Draft:
    """The exercise as a draft (every optional field present, so the builder can edit it).

    >>> from irlab.exercises import builtin_exercise
    >>> sorted(draft_of(builtin_exercise("ndcg-exercise")))[:4]
    ['instructions', 'items', 'queries', 'questions']
    """
    data = copy.deepcopy(exercise_to_dict(exercise))
    data.setdefault("instructions", "")
    data.setdefault("seed", None)
    return data


def blank_draft() -> Draft:
    """A small valid starting point: five documents, one query, one system, one question.

    >>> check_draft(blank_draft())[1]
    []
    """
    ids = [str(i) for i in range(1, 6)]
    return {"schema_version": SCHEMA_VERSION, "title": "My exercise", "instructions": "", "seed": None,
            "tolerance": 0.005, "items": [{"id": i, "label": f"Document {i}"} for i in ids],
            "queries": [{"id": "q1", "text": "my query", "scale": "binary", "judgments": {"1": 1, "3": 1}}],
            "systems": [{"id": "system", "name": "System A", "rankings": {"q1": ids}}],
            "questions": [{"id": "p3-q1", "measure": "P@3", "query": "q1", "system": "system"}]}


def file_data(draft: Draft) -> dict[str, Any]:
    """The draft as an exercise file's dict: unset optional fields left out."""
    data = {key: value for key, value in draft.items() if value is not None}
    if data.get("instructions") == "":
        del data["instructions"]
    return data


def check_draft(draft: Draft) -> tuple[Exercise | None, list[Problem]]:
    """Validate the draft: the exercise when valid, else None, and every problem found.

    Problems of the shape (fields, types, lengths, counts) are all reported at once, from the format's
    JSON Schema (:mod:`irlab.exercises.format.schema`), exactly as a file's are. Then the cross-field checks stop
    at the first problem they meet; problems of independent questions are all reported (each question is
    checked without the others that failed).

    >>> draft = blank_draft()
    >>> draft["questions"] += [{"id": "a", "measure": "P@9", "query": "q1", "system": "system"},
    ...                        {"id": "b", "measure": "XYZ", "query": "q1", "system": "system"}]
    >>> [p.path for p in check_draft(draft)[1]]
    ['questions[1].measure', 'questions[2].measure']
    """
    data = file_data(draft)
    shape = check_shape(data)  # every problem of the shape at once (the JSON Schema)
    if shape:
        return None, [_problem(draft, problem.path, problem.message) for problem in shape]
    problems: list[Problem] = []
    indices = list(range(len(data["questions"])))
    for _ in range(MAX_QUESTION_PROBLEMS):
        try:
            exercise = build_exercise(data)
        except ValidationError as error:
            path = error.path
            match = _PATH.match(path or "")
            if match and match.group(1) == "questions" and int(match.group(2)) < len(indices):
                position = int(match.group(2))
                original = indices.pop(position)
                path = f"questions[{original}]" + (f".{match.group(3)}" if match.group(3) else "")
                problems.append(_problem(draft, path, error.message))
                data = {**data, "questions": [q for i, q in enumerate(data["questions"]) if i != position]}
                if indices:
                    continue
                return None, problems
            problems.append(_problem(draft, path, error.message))
            return None, problems
        return (exercise, []) if not problems else (None, problems)
    return None, problems


def _problem(draft: Draft, path: str | None, message: str) -> Problem:
    match = _PATH.match(path or "")
    if match is None:
        head = (path or "").split("[")[0].split(".")[0]
        section = head if head in SECTIONS else "about"
        return Problem(section, path, message, head or "the exercise")
    table, index, rest = match.group(1), int(match.group(2)), match.group(3)
    entries = draft.get(table) or []
    entry = entries[index] if index < len(entries) and isinstance(entries[index], Mapping) else {}
    name = f" ({entry['id']})" if isinstance(entry.get("id"), str) and entry.get("id") else ""
    location = f"{_KINDS[table]} {index + 1}{name}" + (f" · {rest}" if rest else "")
    return Problem(table, path, message, location)


def problems_in(problems: Iterable[Problem], section: str) -> list[Problem]:
    """The problems shown with ``section``."""
    return [problem for problem in problems if problem.section == section]


# ---------------------------------------------------------------------------------------------
# Tables
# ---------------------------------------------------------------------------------------------

def judgment_columns(draft: Draft) -> list[tuple[str, str]]:
    """(column name, query id) of the judgments table: one column per query, named by position."""
    return [(f"q{index}", str(query.get("id", ""))) for index, query in enumerate(draft["queries"])]


def table_rows(draft: Draft, table: str) -> list[dict[str, Any]]:
    """The rows the builder shows for ``table`` (one of :data:`TABLES`).

    >>> draft = blank_draft()
    >>> table_rows(draft, "judgments")[:2]
    [{'item': '1', 'label': 'Document 1', 'q0': 1}, {'item': '2', 'label': 'Document 2', 'q0': None}]
    >>> table_rows(draft, "rankings")
    [{'system': 'system', 'query': 'q1', 'ranking': '1, 2, 3, 4, 5'}]
    """
    if table == "items":
        return [{"id": item["id"], "label": item["label"], "picture": item.get("picture")} for item in draft["items"]]
    if table == "queries":
        return [{"id": q["id"], "text": q.get("text", ""), "scale": q["scale"],
                 "max_grade": q.get("max_grade") if q["scale"] == "graded" else None} for q in draft["queries"]]
    if table == "judgments":
        columns = judgment_columns(draft)
        return [{"item": item["id"], "label": item["label"],
                 **{column: draft["queries"][i]["judgments"].get(item["id"]) for i, (column, _) in enumerate(columns)}}
                for item in draft["items"]]
    if table == "systems":
        return [{"id": system["id"], "name": system.get("name", "")} for system in draft["systems"]]
    if table == "rankings":
        return [{"system": system["id"], "query": query["id"],
                 "ranking": ", ".join(system["rankings"].get(query["id"], []))}
                for system in draft["systems"] for query in draft["queries"]]
    if table == "questions":
        return [{"id": q["id"], "measure": q["measure"], "query": q["query"], "system": q["system"],
                 "prompt": q.get("prompt", ""), "mean_over": ", ".join(q["mean_over"]) if q.get("mean_over") else ""}
                for q in draft["questions"]]
    raise ValueError(f"unknown table {table!r}; the tables are: {', '.join(TABLES)}")


def parse_id_list(text: Any) -> list[str]:
    """Item or query ids typed as text: separated by commas (or spaces when there is no comma).

    >>> parse_id_list("2, 1,3"), parse_id_list("2 1 3"), parse_id_list(None)
    (['2', '1', '3'], ['2', '1', '3'], [])
    """
    text = "" if text is None else str(text)
    parts = text.split(",") if "," in text else text.split()
    return [part.strip() for part in parts if part.strip()]


# ---------------------------------------------------------------------------------------------
# Edits
# ---------------------------------------------------------------------------------------------

def has_edits(delta: Any) -> bool:
    """Whether a data-editor state holds any edit."""
    return isinstance(delta, Mapping) and any(delta.get(key) for key in ("edited_rows", "added_rows", "deleted_rows"))


def apply_edit(draft: Draft, table: str, delta: Mapping[str, Any]) -> Draft:
    """The draft after the edits ``delta`` of ``table`` (edited cells, then deleted rows, then added rows).

    >>> draft = apply_edit(blank_draft(), "queries", {"added_rows": [{"text": "second"}]})
    >>> draft["queries"][1], draft["systems"][0]["rankings"]["q2"]
    ({'id': 'q2', 'text': 'second', 'scale': 'binary', 'judgments': {}}, ['1', '2', '3', '4', '5'])
    >>> apply_edit(draft, "queries", {"deleted_rows": [1]}) == blank_draft()
    True
    """
    if table not in TABLES:
        raise ValueError(f"unknown table {table!r}; the tables are: {', '.join(TABLES)}")
    draft = copy.deepcopy(draft)
    size = _table_size(draft, table)
    for row, changes in sorted((delta.get("edited_rows") or {}).items(), key=lambda pair: int(pair[0])):
        if 0 <= int(row) < size and isinstance(changes, Mapping):
            _EDIT[table](draft, int(row), dict(changes))
    deleted = sorted({int(row) for row in delta.get("deleted_rows") or [] if 0 <= int(row) < size}, reverse=True)
    if deleted and table in _DELETE:
        for row in deleted:
            _DELETE[table](draft, row)
    for values in delta.get("added_rows") or []:
        if table in _ADD and isinstance(values, Mapping):
            _ADD[table](draft, dict(values))
    return draft


def _table_size(draft: Draft, table: str) -> int:
    """How many rows ``table`` shows (edits of other rows are ignored)."""
    if table == "judgments":
        return len(draft["items"])
    if table == "rankings":
        return len(draft["systems"]) * len(draft["queries"])
    return len(draft[table])


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def _number(value: Any) -> Any:
    """A number from a table cell: whole floats become ints; anything else is kept for validation to report."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _free_id(taken: Iterable[str], prefix: str, start: int = 1) -> str:
    """The first ``prefix{n}`` not taken."""
    taken = set(taken)
    n = start
    while f"{prefix}{n}" in taken:
        n += 1
    return f"{prefix}{n}"


def _ids(entries: Sequence[Mapping[str, Any]]) -> list[str]:
    return [str(entry.get("id")) for entry in entries]


def _rename_item(draft: Draft, old: str, new: str) -> None:
    for query in draft["queries"]:
        judgments = query["judgments"]
        if old in judgments and new not in judgments:
            query["judgments"] = {new if key == old else key: grade for key, grade in judgments.items()}
    for system in draft["systems"]:
        for query_id, ranking in system["rankings"].items():
            system["rankings"][query_id] = [new if item == old else item for item in ranking]


def _edit_item(draft: Draft, row: int, changes: dict[str, Any]) -> None:
    item = draft["items"][row]
    if "id" in changes:
        new = _text(changes["id"]).strip()
        if item["id"] not in _ids(draft["items"][:row] + draft["items"][row + 1:]):
            _rename_item(draft, item["id"], new)
        item["id"] = new
    if "label" in changes:
        item["label"] = _text(changes["label"])
    if "picture" in changes:
        if changes["picture"]:
            item["picture"] = changes["picture"]
        else:
            item.pop("picture", None)


def _delete_item(draft: Draft, row: int) -> None:
    item_id = draft["items"].pop(row)["id"]
    if item_id in _ids(draft["items"]):
        return  # a duplicate id: its references belong to the other item too
    for query in draft["queries"]:
        query["judgments"].pop(item_id, None)
    for system in draft["systems"]:
        for query_id, ranking in system["rankings"].items():
            system["rankings"][query_id] = [item for item in ranking if item != item_id]


def _add_item(draft: Draft, values: dict[str, Any]) -> None:
    item_id = _text(values.get("id")).strip() or _free_id(_ids(draft["items"]), "", start=len(draft["items"]) + 1)
    item = {"id": item_id, "label": _text(values.get("label")) or f"Document {item_id}"}
    if values.get("picture"):
        item["picture"] = values["picture"]
    draft["items"].append(item)


def _edit_query(draft: Draft, row: int, changes: dict[str, Any]) -> None:
    query = draft["queries"][row]
    if "id" in changes:
        old, new = query["id"], _text(changes["id"]).strip()
        if old not in _ids(draft["queries"][:row] + draft["queries"][row + 1:]):
            for system in draft["systems"]:
                if old in system["rankings"] and new not in system["rankings"]:
                    system["rankings"] = {new if key == old else key: ranking
                                          for key, ranking in system["rankings"].items()}
            for question in draft["questions"]:
                if question.get("query") == old:
                    question["query"] = new
                if question.get("mean_over"):
                    question["mean_over"] = [new if q == old else q for q in question["mean_over"]]
        query["id"] = new
    if "text" in changes:
        query["text"] = _text(changes["text"])
    if "scale" in changes:
        query["scale"] = changes["scale"]
    if "max_grade" in changes:
        query["max_grade"] = _number(changes["max_grade"])
    _tidy_scale(query)


def _tidy_scale(query: dict[str, Any]) -> None:
    """Binary queries hold no max_grade; a query made graded gets a scale that fits its grades."""
    if query.get("scale") == "binary":
        query.pop("max_grade", None)
    elif query.get("scale") == "graded" and query.get("max_grade") is None:
        grades = [g for g in query["judgments"].values() if isinstance(g, int)]
        query["max_grade"] = max([3, *grades])
    if "max_grade" in query and query["max_grade"] is None:
        del query["max_grade"]


def _delete_query(draft: Draft, row: int) -> None:
    query_id = draft["queries"].pop(row)["id"]
    if query_id not in _ids(draft["queries"]):
        for system in draft["systems"]:
            system["rankings"].pop(query_id, None)


def _add_query(draft: Draft, values: dict[str, Any]) -> None:
    query_id = _text(values.get("id")).strip() or _free_id(_ids(draft["queries"]), "q")
    query = {"id": query_id, "text": _text(values.get("text")), "scale": values.get("scale") or "binary",
             "max_grade": _number(values.get("max_grade")), "judgments": {}}
    _tidy_scale(query)
    draft["queries"].append(query)
    for system in draft["systems"]:
        system["rankings"].setdefault(query_id, _ids(draft["items"]))


def _edit_judgment(draft: Draft, row: int, changes: dict[str, Any]) -> None:
    item_id = draft["items"][row]["id"]
    for column, value in changes.items():
        if not (column.startswith("q") and column[1:].isdigit()) or int(column[1:]) >= len(draft["queries"]):
            continue
        judgments = draft["queries"][int(column[1:])]["judgments"]
        if value is None or value == "":
            judgments.pop(item_id, None)
        else:
            judgments[item_id] = _number(value)


def _edit_system(draft: Draft, row: int, changes: dict[str, Any]) -> None:
    system = draft["systems"][row]
    if "id" in changes:
        old, new = system["id"], _text(changes["id"]).strip()
        if old not in _ids(draft["systems"][:row] + draft["systems"][row + 1:]):
            for question in draft["questions"]:
                if question.get("system") == old:
                    question["system"] = new
        system["id"] = new
    if "name" in changes:
        system["name"] = _text(changes["name"])


def _delete_system(draft: Draft, row: int) -> None:
    draft["systems"].pop(row)


def _add_system(draft: Draft, values: dict[str, Any]) -> None:
    system_id = _text(values.get("id")).strip() or _free_id(_ids(draft["systems"]), "system-", start=2)
    draft["systems"].append({"id": system_id, "name": _text(values.get("name")),
                             "rankings": {query["id"]: _ids(draft["items"]) for query in draft["queries"]}})


def _edit_ranking(draft: Draft, row: int, changes: dict[str, Any]) -> None:
    if "ranking" not in changes:
        return
    per_system = len(draft["queries"])
    system = draft["systems"][row // per_system]
    system["rankings"][draft["queries"][row % per_system]["id"]] = parse_id_list(changes["ranking"])


def _edit_question(draft: Draft, row: int, changes: dict[str, Any]) -> None:
    question = draft["questions"][row]
    for field in ("id", "measure", "query", "system", "prompt"):
        if field in changes:
            question[field] = _text(changes[field]).strip() if field != "prompt" else _text(changes[field])
    if "mean_over" in changes:
        ids = parse_id_list(changes["mean_over"])
        if ids:
            question["mean_over"] = ids
        else:
            question.pop("mean_over", None)
    if not question.get("prompt"):
        question.pop("prompt", None)


def _delete_question(draft: Draft, row: int) -> None:
    draft["questions"].pop(row)


def _add_question(draft: Draft, values: dict[str, Any]) -> None:
    query = _text(values.get("query")) or (draft["queries"][0]["id"] if draft["queries"] else "")
    system = _text(values.get("system")) or (draft["systems"][0]["id"] if draft["systems"] else "")
    measure = _text(values.get("measure")) or "P@1"
    draft["questions"].append({"id": "", "measure": measure, "query": query, "system": system})
    _edit_question(draft, len(draft["questions"]) - 1, {k: v for k, v in values.items() if v is not None})
    if not draft["questions"][-1]["id"]:
        draft["questions"][-1]["id"] = question_id(draft, measure, query)


_EDIT = {"items": _edit_item, "queries": _edit_query, "judgments": _edit_judgment, "systems": _edit_system,
         "rankings": _edit_ranking, "questions": _edit_question}
_DELETE = {"items": _delete_item, "queries": _delete_query, "systems": _delete_system, "questions": _delete_question}
_ADD = {"items": _add_item, "queries": _add_query, "systems": _add_system, "questions": _add_question}


def set_field(draft: Draft, name: str, value: Any) -> Draft:
    """The draft with one of the exercise's own fields (title, instructions, seed, tolerance) set."""
    if name not in ("title", "instructions", "seed", "tolerance"):
        raise ValueError(f"{name!r} is not a field of the exercise itself")
    return {**copy.deepcopy(draft), name: _number(value) if name == "seed" else value}


def set_ranking(draft: Draft, system_index: int, query_id: str, order: Sequence[str]) -> Draft:
    """The draft with one system's ranking of one query replaced (e.g. after a drag of the tiles)."""
    draft = copy.deepcopy(draft)
    draft["systems"][system_index]["rankings"][query_id] = [str(item) for item in order]
    return draft


# ---------------------------------------------------------------------------------------------
# New questions and file names
# ---------------------------------------------------------------------------------------------

def question_id(draft: Draft, measure: str, query: str) -> str:
    """A readable, unused question id such as ``ndcg5-q1``.

    >>> question_id(blank_draft(), "P@3", "q1"), question_id(blank_draft(), "AP(rel=2)", "mean")
    ('p3-q1-2', 'ap-mean')
    """
    try:
        parsed = parse_measure(measure)
        head = f"{parsed.family.lower()}{parsed.cutoff or ''}"
    except ValidationError:
        head = "question"
    base = re.sub(r"[^a-z0-9-]+", "-", f"{head}-{query}".lower()).strip("-")[:50] or "question"
    taken = set(_ids(draft["questions"]))
    return base if base not in taken else _free_id(taken, f"{base}-", start=2)


def add_question(draft: Draft, measure: str, query: str, system: str, prompt: str = "") -> Draft:
    """The draft with a question appended (its id made up from the measure and query).

    >>> add_question(blank_draft(), "nDCG@3", MEAN, "system")["questions"][-1]
    {'id': 'ndcg3-mean', 'measure': 'nDCG@3', 'query': 'mean', 'system': 'system'}
    """
    return apply_edit(draft, "questions", {"added_rows": [{"measure": measure, "query": query, "system": system,
                                                           "prompt": prompt or None}]})


def file_stem(title: Any) -> str:
    """A file name stem from an exercise title.

    >>> file_stem("NDCG calculation: week 3!"), file_stem("<b>"), file_stem("???"), file_stem("Übung 2")
    ('ndcg-calculation-week-3', 'b', 'exercise', 'übung-2')
    """
    stem = re.sub(r"[^\w]+", "-", str(title).lower()).strip("-_")[:60].strip("-_")
    return stem or "exercise"
