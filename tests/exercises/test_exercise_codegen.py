"""The notebooks' plain-Python solutions agree with irlab on every teachable measure family and variant.

The solution notebook's code cells are run here directly (no Jupyter), then every question is
recomputed with the notebook's own functions and data literals and compared with irlab; and one
notebook of every family's examples runs in a real Jupyter kernel.
"""

from __future__ import annotations

import ast
import random
import re
import subprocess
import sys

import nbformat
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irlab.exercises import answer_key, exercise_from_dict, exercise_notebook, notebook_text
from irlab.exercises.exports.codegen import function_key, function_names
from irlab.metrics.measure_names import parse_measure
from irlab.metrics.registry import families_for_people

MEASURES = [example for family in families_for_people() if family.teaching for example in family.teaching.examples]
"""Every teachable family's examples (its teaching declares them: every named variant, relevance levels, custom gains
with grade 0 gaining too), from the registry: a family added there is checked here."""


def exercise_for(rng: random.Random, numeric_ids: bool, systems: int = 2) -> dict:
    ids = [str(i) for i in range(1, 13)] if numeric_ids else [f"doc-{c}" for c in "abcdefghijkl"]
    queries = []
    for number in range(3):
        grades = {item: rng.choice([0, 0, 1, 2, 3]) for item in rng.sample(ids, 8)}
        grades[rng.choice(list(grades))] = 3  # at least one item at every relevance level used
        queries.append({"id": f"q{number}", "scale": "graded", "max_grade": 3, "judgments": grades})
    rankings = [{"id": f"s{s}", "rankings": {q["id"]: rng.sample(ids, rng.randint(6, 12)) for q in queries}}
                for s in range(systems)]
    questions = []
    for index, measure in enumerate(MEASURES):
        system = f"s{index % systems}"
        questions.append({"id": f"m{index}", "measure": measure, "query": f"q{index % 3}", "system": system})
        questions.append({"id": f"mean{index}", "measure": measure, "query": "mean", "system": system})
    return {"schema_version": 1, "title": "Every measure", "items": [{"id": i, "label": f"<b>{i}</b>"} for i in ids],
            "queries": queries, "systems": rankings, "questions": questions}


def run_solution_cells(notebook) -> dict:
    """Execute the notebook's code cells except the %%ipytest ones and the ipytest setup (every statement that
    names ipytest, however many lines it spans)."""
    namespace: dict = {}
    for cell in notebook.cells:
        if cell.cell_type != "code" or cell.source.startswith("%%"):
            continue
        tree = ast.parse(cell.source)
        tree.body = [node for node in tree.body if "ipytest" not in ast.get_source_segment(cell.source, node)]
        exec(compile(tree, "<notebook>", "exec"), namespace)
    return namespace


def check_against_irlab(data: dict) -> None:
    exercise = exercise_from_dict(data)
    notebook = exercise_notebook(exercise, solutions=True)
    namespace = run_solution_cells(notebook)
    names = function_names(question.parsed for question in exercise.questions)
    numeric = all(item.id.isdigit() for item in exercise.items)
    convert = int if numeric else str
    several = len(exercise.systems) > 1
    for question, breakdown in answer_key(exercise):
        function = namespace[names[function_key(question.parsed)]]
        values = []
        for query in exercise.question_queries(question):
            ranking = (namespace["system_rankings"][question.system][query] if several
                       else namespace["system_rankings"][query])
            assert ranking == [convert(item) for item in exercise.ranking(question.system, query)]
            args = [ranking, namespace["ground_truth"][query]]
            if "k" in function.__code__.co_varnames[:function.__code__.co_argcount]:
                args.append(question.parsed.cutoff)
            values.append(function(*args))
        assert sum(values) / len(values) == pytest.approx(breakdown.value, abs=1e-12), \
            (question.measure, question.query)


@pytest.mark.parametrize("numeric_ids", [True, False])
@pytest.mark.parametrize("seed", range(2))
def test_solutions_agree_with_irlab_on_every_family_and_variant(seed, numeric_ids):
    check_against_irlab(exercise_for(random.Random(seed), numeric_ids))


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10**9), st.booleans(), st.integers(1, 2))
def test_solutions_agree_with_irlab_on_random_data(seed, numeric_ids, systems):
    check_against_irlab(exercise_for(random.Random(seed), numeric_ids, systems))


def test_one_function_per_family_and_parameter_set():
    names = function_names(parse_measure(m) for m in ["nDCG@5", "nDCG@10", "nDCG(discount='jk')@5", "AP@3",
                                                       "AP(rel=2)@3", "P@1"])
    assert list(names.values()) == ["ndcg", "ndcg_jk", "average_precision", "average_precision_rel2", "precision"]


def test_the_student_version_has_stubs_with_docstrings_and_no_solution(ndcg):
    notebook = exercise_notebook(ndcg)
    code = "\n".join(cell.source for cell in notebook.cells if cell.cell_type == "code")
    assert 'raise NotImplementedError("complete ndcg()")' in code
    assert "math.log2" not in code and "import irlab" not in code and "from irlab" not in code
    stub = next(cell.source for cell in notebook.cells if cell.source.startswith("def ndcg("))
    assert "log2(i)" in stub and "Järvelin–Kekäläinen" in stub and "Args:" in stub
    assert 'TOLERANCE = 0.005' in code and "pytest.approx(expected, abs=TOLERANCE)" in code


def test_a_notebook_of_every_teachable_family_runs_in_jupyter_and_every_check_passes(tmp_path):
    """Issue 36: one notebook asks every teachable family's examples (read from the registry), rendered with its
    solutions and run in a real kernel: every check passes, one per question."""
    pytest.importorskip("nbclient")
    from tests.exercises.test_exercise_notebook import execute

    exercise = exercise_from_dict(exercise_for(random.Random(7), True))
    notebook = nbformat.reads(notebook_text(exercise_notebook(exercise, solutions=True)), as_version=4)
    from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel
    try:  # this Python's kernel, installed for this environment if missing (as test_exercise_notebook.py does)
        KernelSpecManager().get_kernel_spec("python3")
    except NoSuchKernel:
        subprocess.run([sys.executable, "-m", "ipykernel", "install", "--sys-prefix"], check=True, capture_output=True)
    results = execute(notebook, "python3", tmp_path)
    assert not [errors for _, _, errors in results if errors], "no cell raised"
    passed = sum(int(re.search(r"\b(\d+) passed\b", text).group(1)) for source, text, _ in results
                 if source.startswith("%%ipytest"))
    assert passed == len(exercise.questions) == 2 * len(MEASURES)
    families = {parse_measure(measure).family for measure in MEASURES}
    assert families == {family.name for family in families_for_people() if family.teaching}
