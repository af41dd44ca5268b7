"""Auto-checked Jupyter notebooks (nbformat v4) for an exercise, in the style of the sources' NDCG notebook.

The notebook has: the title and instructions (escaped Markdown), the questions, the data as
Python literals (``system_rankings``, ``ground_truth``, the item labels via ``repr``), and for
each measure asked its formula (LaTeX from irlab's breakdown), a function, and an ``%%ipytest``
cell whose expected values come from irlab (``pytest.approx`` with the exercise's tolerance).
The student version's functions raise ``NotImplementedError`` (every check fails until they are
written); the solution version holds working plain-Python functions (:mod:`irlab.exercises.codegen`)
and every check passes. The notebook needs only ``pytest`` and ``ipytest``: it never imports irlab.

Document ids that are all whole numbers (``"1"``, ``"10"``) are written as ints, as in the sources.

>>> from irlab.exercises.examples import builtin_exercise
>>> nb = exercise_notebook(builtin_exercise("ndcg-exercise"), solutions=True)
>>> nb.nbformat, [c.cell_type for c in nb.cells][:4]
(4, ['markdown', 'markdown', 'markdown', 'code'])
>>> "def ndcg(ranking: List, ground_truth: Dict, k: Optional[int] = None) -> float:" in notebook_text(nb)
True
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from textwrap import indent

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from irlab.exercises.codegen import MeasureFunction, docstring_block, function_key, function_names, measure_function
from irlab.exercises.format import fingerprint
from irlab.exercises.model import Exercise, Question
from irlab.exercises.questions import describe_question, explain_question
from irlab.exercises.text import code_span, markdown_paragraphs, markdown_text
from irlab.explain.breakdown import Breakdown
from irlab.metrics.registry import FAMILIES

_WHOLE_NUMBER = re.compile(r"^(0|[1-9][0-9]{0,17})$")


NBGRADER_SCHEMA = 3
"""nbgrader's cell metadata version."""
POINTS_PER_QUESTION = 1


def exercise_notebook(exercise: Exercise, *, solutions: bool = False) -> nbformat.NotebookNode:
    """The exercise as a notebook: the student version, or with ``solutions`` the completed one.

    Grader-ready: each question has its own check cell, which raises when the check fails (ipytest's
    ``raise_on_error``), so a headless run (nbclient, ``jupyter nbconvert --execute``, nbgrader) marks
    exactly the failing questions' cells, while a student running it still reads pytest's report of
    which check failed and why. Cells carry nbgrader metadata (stable ids; function cells are
    solution cells, check cells autograded with points, everything else read-only), and the
    solution version marks each function's body with ``### BEGIN SOLUTION`` / ``### END SOLUTION``, so
    nbgrader's ``generate_assignment`` turns it into the student version. The notebook's metadata
    names the exercise (``irlab.exercise``: its fingerprint) and the variant seed, which
    ``python -m irlab exercise grade`` reads.
    """
    numeric = all(_WHOLE_NUMBER.match(item.id) for item in exercise.items)
    functions = _functions(exercise)
    cells = [_locked(new_markdown_cell(_title(exercise, solutions)), "title"),
             _locked(new_markdown_cell(_instructions(exercise)), "instructions"),
             _locked(new_markdown_cell(_questions_markdown(exercise)), "questions"),
             _locked(new_code_cell(_setup_code(exercise)), "setup"),
             _locked(new_markdown_cell("### Items\n\nEach document's id and its label (its title or description)."),
                     "items-heading"),
             _locked(new_code_cell(_items_code(exercise, numeric)), "items"),
             _locked(new_markdown_cell(_rankings_markdown(exercise)), "rankings-heading"),
             _locked(new_code_cell(_rankings_code(exercise, numeric)), "rankings"),
             _locked(new_markdown_cell(_ground_truth_markdown(exercise)), "ground-truth-heading"),
             _locked(new_code_cell(_ground_truth_code(exercise, numeric)), "ground-truth"),
             _locked(new_markdown_cell("## Computing evaluation metrics"), "metrics-heading")]
    for function, questions in functions:
        cells.append(_locked(new_markdown_cell(_formula_markdown(exercise, function, questions)),
                             f"formula-{function.name}"))
        code = _marked_solution(function) if solutions else function.stub
        cells.append(_nbgrader(new_code_cell(code.rstrip()), f"function-{function.name}", solution=True))
        for question in questions:
            cells.append(_locked(new_markdown_cell(
                f"Check of question {code_span(question.id)} (expected value computed by IR Lab)."),
                f"check-heading-{_slug(question.id)}"))
            cells.append(_nbgrader(new_code_cell(_test_code(exercise, function, [question]).rstrip()),
                                   f"check-{_slug(question.id)}", grade=True, points=POINTS_PER_QUESTION))
    for index, cell in enumerate(cells):  # nbformat draws random ids; fixed ones make exports reproducible
        cell.id = f"irlab-{index:03d}"
    notebook = new_notebook(cells=cells, metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
        "language_info": {"name": "python"},
        "irlab": {"format": 1, "exercise": fingerprint(exercise), "seed": exercise.seed,
                  "questions": [q.id for q in exercise.questions]},
    })
    nbformat.validate(notebook)
    return notebook


def _slug(text: str) -> str:
    """An nbgrader grade id from a question id: letters, digits, - and _, plus a short hash when changed."""
    slug = re.sub(r"[^A-Za-z0-9_-]", "-", text)
    return slug if slug == text else f"{slug}-{hashlib.sha1(text.encode()).hexdigest()[:6]}"


def _nbgrader(cell: nbformat.NotebookNode, grade_id: str, *, solution: bool = False, grade: bool = False,
              points: int = 0) -> nbformat.NotebookNode:
    meta = {"grade": grade, "grade_id": grade_id, "locked": not solution, "schema_version": NBGRADER_SCHEMA,
            "solution": solution, "task": False}
    if grade:
        meta["points"] = points
    cell.metadata["nbgrader"] = meta
    return cell


def _locked(cell: nbformat.NotebookNode, grade_id: str) -> nbformat.NotebookNode:
    """A read-only cell for nbgrader (its content is checked unchanged when grading)."""
    return _nbgrader(cell, grade_id)


def _marked_solution(function: MeasureFunction) -> str:
    """The working function with its body between nbgrader's solution markers."""
    body = indent(function.body.strip(), "    ")
    return (f"{function.signature}\n{docstring_block(function.docstring)}\n    ### BEGIN SOLUTION\n{body}\n"
            "    ### END SOLUTION\n")


GRADE_MARK = "IRLAB-GRADE "
"""The prefix of each line the grading cell prints (one JSON object per question)."""


def grading_code(exercise: Exercise, *, call_seconds: int = 10) -> str:
    """A cell that calls the student's functions on every question and prints one JSON line per question.

    Appended to a submitted notebook by ``python -m irlab exercise grade``: it brings its own copy of
    the data (a student who changed ``system_rankings`` is still graded on the exercise's), passes
    copies (a function that changes its input cannot affect the next question), and gives each
    call ``call_seconds`` (an endless loop in one function costs one question, not the notebook).
    """
    numeric = all(_WHOLE_NUMBER.match(item.id) for item in exercise.items)
    several = len(exercise.systems) > 1
    calls = []
    for function, questions in _functions(exercise):
        for question in questions:
            k = question.parsed.cutoff if function.takes_k else None
            calls.append(f"    ({question.id!r}, {function.name!r}, {question.system!r}, "
                         f"{list(exercise.question_queries(question))!r}, {k!r}),")
    ranking = "_irlab_rankings[system][query]" if several else "_irlab_rankings[query]"
    rankings = _rankings_code(exercise, numeric).replace("system_rankings = {", "_irlab_rankings = {", 1)
    truth = _ground_truth_code(exercise, numeric).replace("ground_truth = {", "_irlab_truth = {", 1)
    return f"""import json as _irlab_json
import signal as _irlab_signal

{rankings}
{truth}


def _irlab_timeout(*_):
    raise TimeoutError("the function took longer than {call_seconds} s")


def _irlab_grade(name, system, queries, k):
    _irlab_signal.signal(_irlab_signal.SIGALRM, _irlab_timeout)
    _irlab_signal.alarm({call_seconds})
    try:
        function = globals()[name]
        values = [function(list({ranking}), dict(_irlab_truth[query]), *([] if k is None else [k]))
                  for query in queries]
        return {{"value": float(sum(values) / len(values))}}
    except BaseException as error:  # the student's code: anything may happen
        return {{"error": (type(error).__name__ + ": " + str(error))[:300]}}
    finally:
        _irlab_signal.alarm(0)


for question, name, system, queries, k in [
{chr(10).join(calls)}
]:
    print({GRADE_MARK!r} + _irlab_json.dumps({{"question": question, **_irlab_grade(name, system, queries, k)}}),
          flush=True)
"""


def notebook_text(notebook: nbformat.NotebookNode) -> str:
    """The notebook as ``.ipynb`` JSON text."""
    return nbformat.writes(notebook)


def notebook_functions(exercise: Exercise) -> list[MeasureFunction]:
    """The functions the notebook asks for, in the order of the questions."""
    return [function for function, _ in _functions(exercise)]


def _functions(exercise: Exercise) -> list[tuple[MeasureFunction, list[Question]]]:
    names = function_names(question.parsed for question in exercise.questions)
    grouped: dict[str, list[Question]] = {}
    for question in exercise.questions:
        grouped.setdefault(function_key(question.parsed), []).append(question)
    return [(measure_function(questions[0].parsed, names[key]), questions) for key, questions in grouped.items()]


def _id(item_id: str, numeric: bool) -> str:
    return repr(int(item_id)) if numeric else repr(item_id)


def _title(exercise: Exercise, solutions: bool) -> str:
    extra = []
    if exercise.seed is not None:
        extra.append(f"variant {exercise.seed}")
    if solutions:
        extra.append("solutions")
    suffix = f" ({', '.join(extra)})" if extra else ""
    return f"# {markdown_text(exercise.title)}{suffix}"


def _instructions(exercise: Exercise) -> str:
    text = markdown_paragraphs(exercise.instructions) if exercise.instructions.strip() else ""
    how = ("Complete each function below, then run the test cell after it: the tests pass when your "
           f"values are within {exercise.tolerance:g} of the expected ones. The notebook needs `pytest` and "
           "`ipytest` (`pip install pytest ipytest`).")
    return f"{text}\n\n{how}" if text else how


def _questions_markdown(exercise: Exercise) -> str:
    lines = ["## Questions", ""]
    for number, question in enumerate(exercise.questions, start=1):
        lines.append(f"{number}. {code_span(question.id)}: {markdown_text(describe_question(exercise, question))}")
    return "\n".join(lines)


def _setup_code(exercise: Exercise) -> str:
    return ("import math\nfrom typing import Dict, List, Optional\n\nimport ipytest\nimport pytest\n\n"
            "# raise_on_error: a failing check raises in its cell, so graders running the notebook see it;\n"
            "# the report above the error still says which check failed and why\n"
            "ipytest.autoconfig(raise_on_error=True)\n\n"
            f"TOLERANCE = {exercise.tolerance!r}  # a value within this distance of the expected one is correct")


def _items_code(exercise: Exercise, numeric: bool) -> str:
    lines = ["items = {"]
    lines += [f"    {_id(item.id, numeric)}: {item.label!r}," for item in exercise.items]
    lines.append("}")
    texts = [(query.id, query.text) for query in exercise.queries if query.text]
    if texts:
        lines += ["", "query_texts = {"] + [f"    {qid!r}: {text!r}," for qid, text in texts] + ["}"]
    return "\n".join(lines)


def _rankings_markdown(exercise: Exercise) -> str:
    if len(exercise.systems) == 1:
        return ("### Rankings produced for each query\n\nThe key is the query ID (string), the value is a list of "
                "document IDs, best first.")
    names = ", ".join(code_span(system.id) + (f" ({markdown_text(system.name)})" if system.name else "")
                      for system in exercise.systems)
    return ("### Rankings produced by each system\n\nThe key is the system ID, then the query ID; the value is a list "
            f"of document IDs, best first. The systems: {names}.")


def _ranking_literal(ranking: Iterable[str], numeric: bool) -> str:
    return "[" + ", ".join(_id(item, numeric) for item in ranking) + "]"


def _rankings_code(exercise: Exercise, numeric: bool) -> str:
    if len(exercise.systems) == 1:
        system = exercise.systems[0]
        rows = [f"    {query!r}: {_ranking_literal(ranking, numeric)}," for query, ranking in system.rankings.items()]
        return "system_rankings = {\n" + "\n".join(rows) + "\n}"
    lines = ["system_rankings = {"]
    for system in exercise.systems:
        lines.append(f"    {system.id!r}: {{")
        lines += [f"        {query!r}: {_ranking_literal(ranking, numeric)},"
                  for query, ranking in system.rankings.items()]
        lines.append("    },")
    lines.append("}")
    return "\n".join(lines)


def _ground_truth_markdown(exercise: Exercise) -> str:
    scales = []
    for query in exercise.queries:
        scale = ("binary: 1 relevant, 0 not relevant" if query.scale == "binary"
                 else f"graded from 0 to {query.max_grade}")
        scales.append(f"- {code_span(query.id)}" + (f" ({markdown_text(query.text)})" if query.text else "") + f": {scale}")
    return ("### Ground truth\n\nThe key is the query ID, the value is a dictionary with (document ID, grade) pairs. "
            "Documents not listed here are non-relevant (grade 0).\n\n" + "\n".join(scales))


def _ground_truth_code(exercise: Exercise, numeric: bool) -> str:
    rows = []
    for query in exercise.queries:
        grades = ", ".join(f"{_id(item, numeric)}: {grade}" for item, grade in query.judgments.items())
        rows.append(f"    {query.id!r}: {{{grades}}},")
    return "ground_truth = {\n" + "\n".join(rows) + "\n}"


def _formula_markdown(exercise: Exercise, function: MeasureFunction, questions: list[Question]) -> str:
    """The measure's formula, taken from irlab's breakdown of its first question (and its parts)."""
    breakdown = explain_question(exercise, questions[0])
    per_query = next(iter(breakdown.parts.values())) if questions[0].is_mean else breakdown
    shown: list[Breakdown] = [per_query]
    if function.measure.family == "nDCG":  # NDCG's formula names DCG and IDCG: show theirs too
        shown += list(per_query.parts.values())
    mean = next((explain_question(exercise, q) for q in questions if q.is_mean), None)
    if mean is not None:
        shown.append(mean)
    title = FAMILIES[function.measure.family].description
    lines = [f"### {code_span(function.name)}: {markdown_text(title[0].upper() + title[1:])}", "",
             f"Measure: {code_span(function.measure)}", ""]
    for part in shown:
        lines += [f"$${part.symbolic}$$", "", markdown_text(part.symbolic_text), ""]
    return "\n".join(lines).rstrip()


def _test_code(exercise: Exercise, function: MeasureFunction, questions: list[Question]) -> str:
    several = len(exercise.systems) > 1
    params = ["question"] + (["system"] if several else []) + ["queries"] + (["k"] if function.takes_k else []) \
        + ["expected"]
    cases, ids = [], []
    for question in questions:
        ids.append(repr(question.id))
        value = explain_question(exercise, question).value
        # 4 decimals read like the sources; a tolerance finer than that needs the full value
        expected = round(value, 4) if exercise.tolerance >= 0.001 else value
        values = [repr(question.id)] + ([repr(question.system)] if several else []) \
            + [repr(list(exercise.question_queries(question)))]
        if function.takes_k:
            values.append(repr(question.parsed.cutoff))
        values.append(repr(expected))
        cases.append(f"    ({', '.join(values)}),")
    ranking = "system_rankings[system][query]" if several else "system_rankings[query]"
    call_args = f"{ranking}, ground_truth[query]" + (", k" if function.takes_k else "")
    return ("%%ipytest\n\n"
            f"@pytest.mark.parametrize(\"{', '.join(params)}\", [\n" + "\n".join(cases)
            + f"\n], ids=[{', '.join(ids)}])\n"
            f"def test_{function.name}({', '.join(params)}):\n"
            f"    values = [{function.name}({call_args}) for query in queries]\n"
            "    # one query: its value; several: the mean over the queries\n"
            "    assert sum(values) / len(values) == pytest.approx(expected, abs=TOLERANCE)\n")

