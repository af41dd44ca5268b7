"""Auto-checked Jupyter notebooks (nbformat v4) for an exercise, in the style of the sources' NDCG notebook.

The notebook has: the title and instructions (escaped Markdown), the questions, the data as
Python literals (``system_rankings``, ``ground_truth``, the item labels via ``repr``), and for
each measure asked its formula (LaTeX from irlab's breakdown), a function, and an ``%%ipytest``
cell whose expected values come from irlab (``pytest.approx`` with the exercise's tolerance).
The student version's functions raise ``NotImplementedError`` (every check fails until they are
written); the solution version holds working plain-Python functions (:mod:`irlab.exercises.exports.codegen`)
and every check passes. The notebook needs only ``pytest`` and ``ipytest``: it never imports irlab.

Document ids that are all whole numbers (``"1"``, ``"10"``) are written as ints, as in the sources.

>>> from irlab.exercises.format.examples import builtin_exercise
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

from irlab.exercises.exports.codegen import (
    MeasureFunction,
    docstring_block,
    function_key,
    function_names,
    measure_function,
)
from irlab.exercises.exports.text import code_span, markdown_paragraphs, markdown_text
from irlab.exercises.format.exercise_file import fingerprint
from irlab.exercises.model import Exercise, Question
from irlab.exercises.questions.explain import explain_question
from irlab.exercises.questions.wording import measure_words, question_wording
from irlab.explain.breakdown import Breakdown
from irlab.metrics.registry import FAMILIES

_WHOLE_NUMBER = re.compile(r"^(0|[1-9][0-9]{0,17})$")


NBGRADER_SCHEMA = 3
"""nbgrader's cell metadata version."""
POINTS_PER_QUESTION = 1


def exercise_notebook(exercise: Exercise, *, solutions: bool = False, student: str | None = None
                      ) -> nbformat.NotebookNode:
    """The exercise as a notebook: the student version, or with ``solutions`` the completed one.

    ``student`` (a roster's student id, see :mod:`irlab.exercises.grading.roster`) is written into the
    metadata and the title, so that ``grade --roster`` can check the variant is that student's.

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
    cells = [_locked(new_markdown_cell(_title(exercise, solutions, student)), "title"),
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
                  "questions": [q.id for q in exercise.questions], **({"student": student} if student else {})},
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


DATA_CELLS = ("setup", "items", "rankings", "ground-truth")
"""The grade ids of IR Lab's own code cells that define data (the grader brings its own copy of them)."""
CHECK_CELL_PREFIX = "check-"
"""The grade ids of the check cells start with this (the grader computes the expected values itself)."""


def grading_preamble(exercise: Exercise) -> str:
    """IR Lab's own setup and data cells as plain Python, for evaluating a student's functions.

    The setup cell without ``ipytest`` (which needs a Jupyter kernel), then ``items``,
    ``system_rankings`` and ``ground_truth`` exactly as the exported notebook defines them: a
    student who changed them in their copy is evaluated on the exercise's.
    """
    numeric = all(_WHOLE_NUMBER.match(item.id) for item in exercise.items)
    setup = (f"import math\nfrom typing import Dict, List, Optional\n\nTOLERANCE = {exercise.tolerance!r}\n")
    return "\n\n".join([setup, _items_code(exercise, numeric), _rankings_code(exercise, numeric),
                          _ground_truth_code(exercise, numeric)]) + "\n"


def data_cell_sources(exercise: Exercise) -> frozenset[str]:
    """The sources of IR Lab's own setup and data cells in the exercise's notebook (``DATA_CELLS``)."""
    numeric = all(_WHOLE_NUMBER.match(item.id) for item in exercise.items)
    return frozenset({_setup_code(exercise), _legacy_setup_code(exercise), _items_code(exercise, numeric),
                      _rankings_code(exercise, numeric), _ground_truth_code(exercise, numeric)})


def grading_calls(exercise: Exercise) -> list[tuple[Question, str, str]]:
    """Each question, the name of the function that answers it, and its calls' arguments as a Python literal.

    One call per query the question averages over: ``(ranking, ground_truth[, k])`` with the
    document ids written as in the notebook (ints when they are all whole numbers).

    >>> from irlab.exercises.format.examples import builtin_exercise
    >>> question, name, calls = grading_calls(builtin_exercise("ndcg-exercise"))[0]
    >>> question.id, name, calls
    ('ndcg5-q1', 'ndcg', '[([2, 1, 3, 4, 5, 6, 10, 7, 9, 8], {4: 3, 1: 2, 2: 1}, 5)]')
    """
    numeric = all(_WHOLE_NUMBER.match(item.id) for item in exercise.items)
    planned = []
    for function, questions in _functions(exercise):
        for question in questions:
            system = exercise.system(question.system)
            k = question.parsed.cutoff if function.takes_k else None
            calls = []
            for query in exercise.question_queries(question):
                ranking = _ranking_literal(system.rankings[query], numeric)
                truth = "{" + ", ".join(f"{_id(item, numeric)}: {grade}"
                                        for item, grade in exercise.query(query).judgments.items()) + "}"
                calls.append(f"({ranking}, {truth}" + ("" if k is None else f", {k!r}") + ")")
            planned.append((question, function.name, "[" + ", ".join(calls) + "]"))
    order = {question.id: index for index, question in enumerate(exercise.questions)}
    return sorted(planned, key=lambda plan: order[plan[0].id])


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


def _title(exercise: Exercise, solutions: bool, student: str | None = None) -> str:
    extra = []
    if exercise.seed is not None:
        extra.append(f"variant {exercise.seed}")
    if student:
        extra.append(f"for {markdown_text(student)}")
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
        wording = question_wording(exercise, question)
        exact = f" (exact name {code_span(wording.exact)})" if wording.exact_differs else ""
        lines.append(f"{number}. {code_span(question.id)}: {markdown_text(wording.text)}{exact}")
    return "\n".join(lines)


def _setup_code(exercise: Exercise) -> str:
    return ("import math\nimport os\nimport tempfile\nfrom typing import Dict, List, Optional\n\n"
            "import ipytest\nimport pytest\n\n"
            "# raise_on_error: a failing check raises in its cell, so graders running the notebook see it;\n"
            "# the report above the error still says which check failed and why.\n"
            "# The checks run with this notebook's own pytest options in any folder: an empty configuration\n"
            "# (a course repository's pyproject.toml may ask for options or plugins this kernel lacks),\n"
            "# no conftest.py, no .pytest_cache folder.\n"
            "_pytest_ini = os.path.join(tempfile.mkdtemp(prefix=\"irlab-pytest-\"), \"pytest.ini\")\n"
            "open(_pytest_ini, \"w\").close()\n"
            "ipytest.autoconfig(raise_on_error=True, addopts=[\"-q\", \"--color=yes\", \"-c\", _pytest_ini, "
            "\"--rootdir\", os.getcwd(),\n"
            "                                                \"--noconftest\", \"-p\", \"no:cacheprovider\"])\n\n"
            f"TOLERANCE = {exercise.tolerance!r}  # a value within this distance of the expected one is correct")


def _legacy_setup_code(exercise: Exercise) -> str:
    """The setup cell of notebooks exported before it set pytest's options (still IR Lab's own when graded)."""
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
        text = f" ({markdown_text(query.text)})" if query.text else ""
        scales.append(f"- {code_span(query.id)}{text}: {scale}")
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
    words = measure_words(function.measure)
    said = f", that is {markdown_text(words)}" if words != str(function.measure) else ""
    lines = [f"### {code_span(function.name)}: {markdown_text(title[0].upper() + title[1:])}", "",
             f"Measure: {code_span(function.measure)}{said}", ""]
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

