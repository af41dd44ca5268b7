"""The notebooks' plain-Python solutions agree with irlab on every measure family and variant.

The solution notebook's code cells are run here directly (no Jupyter), then every question is
recomputed with the notebook's own functions and data literals and compared with irlab.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irlab.exercises import answer_key, exercise_from_dict, exercise_notebook
from irlab.exercises.codegen import function_key, function_names
from irlab.metrics.measure_names import parse_measure

MEASURES = [
    "P@3", "P(denominator='retrieved')@3", "P(rel=2)@4", "R@3", "R(denominator='min-k-r')@2", "RR", "RR@2",
    "RR(rel=2)", "AP", "AP@5", "AP(denominator='min-k-r')@4", "AP(denominator='found')@5", "AP(rel=2)@6",
    "nDCG", "nDCG@5", "nDCG(gain='exponential')@5", "nDCG(discount='jarvelin-kekalainen')@5",
    "nDCG(ideal='retrieved')@4", "nDCG(gains={0: 1, 1: 3, 2: 7})@5", "nDCG(gains={1: 10, 2: 1})@3",
    "nDCG(dcg='exp-log2', discount='jk', ideal='retrieved')", "DCG@3", "DCG(gain='exponential', discount='jk')@4",
    "DCG", "IDCG@5", "IDCG(ideal='retrieved')", "IDCG(gains={0: 2})@3", "CG@4", "CG(gain='exponential')",
    "Rprec", "Rprec(rel=2)", "Success@2", "Success(rel=3)@6",
]
"""Every family, every named variant, relevance levels, custom gains (grade 0 with a gain too)."""


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
    """Execute the notebook's code cells except the %%ipytest ones and the ipytest setup."""
    namespace: dict = {}
    for cell in notebook.cells:
        if cell.cell_type != "code" or cell.source.startswith("%%"):
            continue
        source = "\n".join(line for line in cell.source.splitlines() if "ipytest" not in line)
        exec(compile(source, "<notebook>", "exec"), namespace)
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
