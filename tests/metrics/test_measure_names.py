"""The measure-name parsers (irlab.metrics.measure_names): the K cap, the registry's re-export, and the
notebook code every measure taught in exercises needs."""

from __future__ import annotations

import math
import random

import pytest

from irlab.errors import ValidationError
from irlab.exercises.exports import codegen
from irlab.metrics import measure_names, registry
from irlab.metrics.measure_names import MAX_CUTOFF, parse_measure, parse_trec_measures, trec_measure_set
from irlab.metrics.registry import FAMILIES, TEACHING_ORDER, Measure
from irlab.runs.evaluate import evaluate


@pytest.mark.parametrize("name", ["P@9223372036854775808", "R@9223372036854775807", "AP@18446744073709551616",
                                  "nDCG@1000000001", "ndcg_cut_99999999999", "P_10000000000", "RR@" + "9" * 5000,
                                  "Success@" + "1" * 40])
def test_a_cutoff_above_a_billion_is_refused_with_a_clear_message(name):
    with pytest.raises(ValidationError, match="is larger than 1,000,000,000: no ranking is that long") as caught:
        parse_measure(name)
    assert len(str(caught.value)) < 200  # a 5,000-digit K is not echoed back whole


@pytest.mark.parametrize("argument", ["P.5,9223372036854775808", "recall.99999999999", "ndcg_cut." + "7" * 5000,
                                      "map_cut.10,1000000001"])
def test_trec_eval_cutoff_lists_are_capped_too(argument):
    with pytest.raises(ValidationError, match="larger than 1,000,000,000"):
        parse_trec_measures(argument)
    with pytest.raises(ValidationError, match="larger than 1,000,000,000"):
        trec_measure_set([argument])


def test_a_measure_object_with_a_huge_cutoff_is_refused_where_it_is_parsed():
    from irlab.runs.workspace import measure_at

    with pytest.raises(ValidationError, match="larger than"):
        parse_measure(Measure("P", 2**63))
    assert parse_measure(Measure("P", MAX_CUTOFF)).cutoff == MAX_CUTOFF
    with pytest.raises(ValidationError, match="larger than"):
        measure_at("nDCG@10", 2**64)


def test_the_largest_cutoff_still_gives_the_right_values():
    """K = 10^9 is past every ranking: P@K divides by K, AP/nDCG/R equal their uncut values (K >= 2^63 gave
    AP 0.0085 instead of 0.3158 before the cap)."""
    qrels = {"q": {"a": 1, "b": 0, "c": 2, "d": 1}}
    run = {"q": ["x", "a", "c", "y", "d"]}
    cut = evaluate(qrels, run, [f"AP@{MAX_CUTOFF}", f"nDCG@{MAX_CUTOFF}", f"R@{MAX_CUTOFF}", f"P@{MAX_CUTOFF}"])
    whole = evaluate(qrels, run, ["AP", "nDCG", "R@5"])
    assert cut[f"AP@{MAX_CUTOFF}"] == whole["AP"] and cut[f"nDCG@{MAX_CUTOFF}"] == whole["nDCG"]
    assert cut[f"R@{MAX_CUTOFF}"] == whole["R@5"] and cut[f"P@{MAX_CUTOFF}"] == pytest.approx(3 / MAX_CUTOFF)


def test_the_parsers_import_the_registry_and_not_the_other_way():
    """Issue 36: measure_names <-> registry was an import circle (the registry offered the parsers through a module
    __getattr__, for 21 importers). The parsers read the registry; the registry knows no parser."""
    import ast
    import inspect

    imported = {node.module for node in ast.walk(ast.parse(inspect.getsource(registry)))
                if isinstance(node, ast.ImportFrom)}
    imported |= {f"irlab.metrics.{alias.name}" for node in ast.walk(ast.parse(inspect.getsource(registry)))
                 if isinstance(node, ast.ImportFrom) and node.module == "irlab.metrics" for alias in node.names}
    assert "irlab.metrics.measure_names" not in imported
    for name in ("parse_measure", "parse_trec_measures", "trec_measure_set", "valid_measures"):
        assert not hasattr(registry, name) and callable(getattr(measure_names, name))


@pytest.mark.parametrize("family", TEACHING_ORDER)
def test_every_measure_taught_in_exercises_has_its_notebook_code(family):
    """A family exercises can ask for (the walkthrough's) declares its teaching in the registry: a Python name, a
    docstring summary and a body template for notebooks, and the generated solution must compute irlab's value."""
    definition = FAMILIES[family]
    assert definition.teaching is not None, f"{family} declares no teaching (notebook code, mistakes)"
    assert codegen.BASE_NAMES[family] == definition.python_name == definition.teaching.python_name
    measure = parse_measure(family if definition.cutoff == "none" else f"{family}@3")
    function = codegen.measure_function(measure, definition.python_name)
    namespace: dict = {}
    exec("import math\nfrom typing import Dict, List, Optional\n" + function.solution, namespace)  # as a notebook
    rng = random.Random(family)
    for _ in range(20):
        ranking = rng.sample([f"d{i}" for i in range(10)], rng.randint(1, 10))
        truth = {f"d{i}": rng.choice([0, 0, 1, 2, 3]) for i in rng.sample(range(12), 6)}
        args = (ranking, truth) + ((3,) if function.takes_k else ())
        ours = measure.compute(ranking, truth)
        theirs = namespace[definition.python_name](*args)
        assert math.isclose(theirs, ours, abs_tol=1e-12), (family, ranking, truth)
