"""The fast path against the readable definition: every kernel equals its ``explain_*`` value, bit for bit.

For every measure family of the registry and every variant of its parameters, hypothesis draws
qrels and runs with tied scores, runs shorter than the cutoff, queries without relevant
documents, negative (pooled, unjudged) grades, judged queries the run misses, and trec_eval's
``-l``, ``-M``, ``-J`` and ``-c``; the kernel's value for each query must be exactly the value
of the explanation of that query (the same additions in the same order, so not even the last
bit differs).
"""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irlab.metrics.measure_names import parse_measure
from irlab.metrics.registry import FAMILIES, Measure
from irlab.runs.evaluate import qrels_from_mapping, run_from_mapping
from irlab.runs.judge import judge

DOCS = [f"d{i}" for i in range(12)] + ["D7", "a", "z10", "z9"]

SAMPLES = {
    "gains": [{1: 3.0, 2: 9.0, 4: 4.5}, {0: 1.0, 3: 2.5}],
    "mult": [0.2, 1.5],
    "beta": [0.5, 2.0],
    "coefficients": [(2.0, -1.0, 0.5, 0.0)],
    "collection_size": [50],
    "levels": [(0.25, 0.5, 0.75)],
    "length": [3],
    "p": [0.5, 0.95],
}
"""Values tried for parameters that are not a choice between named conventions."""

CUTOFFS = {"rank": [1, 3, 10], "recall": [0.0, 0.1, 0.5, 1.0]}


def variants(family) -> list[str]:
    """Every measure text of ``family``: each cutoff, and each parameter at each of its values."""
    cutoffs = [None] if family.cutoff == "none" else CUTOFFS[family.cutoff_kind] + \
        ([None] if family.cutoff == "optional" else [])
    options = [{}]
    for param in family.params:
        if param.name in ("rel", "dcg"):
            continue
        values = list(param.choices[1:]) if param.choices else SAMPLES.get(param.name, [])
        options += [{param.name: value} for value in values]
    texts = []
    for cutoff, option in itertools.product(cutoffs, options):
        inner = ", ".join(f"{key}={value!r}" for key, value in option.items())
        texts.append(f"{family.name}{f'({inner})' if inner else ''}{'' if cutoff is None else f'@{cutoff}'}")
    return texts


QRELS_FAMILIES = {name for name, family in FAMILIES.items() if name != "runid" and family.judgments in ("qrels", "any")}
"""The families computed against qrels (those of judgment groups and preferences: tests/runs/test_judgment_groups.py
and tests/runs/test_preferences.py)."""
MEASURES = [text for name in sorted(QRELS_FAMILIES, key=list(FAMILIES).index) for text in variants(FAMILIES[name])]


def test_every_family_and_parameter_is_covered():
    families = {parse_measure(text).family for text in MEASURES}
    assert families == QRELS_FAMILIES
    for family in map(FAMILIES.get, QRELS_FAMILIES):
        for param in family.params:
            if param.name not in ("rel", "dcg") and not param.choices:
                assert param.name in SAMPLES, f"add sample values for {family.name}'s {param.name}"


@st.composite
def collections(draw):
    """A few queries of qrels and a run, and trec_eval's options."""
    qrels, run = {}, {}
    for q in range(draw(st.integers(1, 4))):
        query = f"q{q}"
        judged = draw(st.dictionaries(st.sampled_from(DOCS), st.integers(-1, 4), min_size=1, max_size=10))
        qrels[query] = judged
        if draw(st.booleans()) or q == 0:
            ranked = draw(st.lists(st.sampled_from(DOCS), min_size=1, max_size=12, unique=True))
            scores = st.sampled_from([0.0, 0.5, 1.0, -1.0]) if draw(st.booleans()) else st.floats(-5, 5)
            run[query] = {doc: draw(scores) for doc in ranked}
    options = {"level": draw(st.integers(1, 3)), "depth": draw(st.sampled_from([None, 1, 2, 5])),
               "complete": draw(st.booleans()), "judged_only": draw(st.booleans())}
    return qrels, run, options


def same(a, b) -> bool:
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    return (math.isnan(a) and math.isnan(b)) or a == b


@pytest.mark.parametrize("text", MEASURES)
@settings(max_examples=20, deadline=None)
@given(case=collections())
def test_kernel_equals_the_explanation(text, case):
    qrels, run, options = case
    measure: Measure = parse_measure(text)
    try:
        judged = judge(qrels_from_mapping(qrels), run_from_mapping(run), complete=options["complete"],
                       depth=options["depth"], judged_only=options["judged_only"])
    except ValueError:
        return  # no query is both judged and ranked: nothing to compare
    values = measure.compute_all(judged.rankings, relevance_level=options["level"])
    for q, query in enumerate(judged.queries):
        ranking = judged.evaluated_ranking(query)
        explained = measure.explain(ranking, qrels[query], relevance_level=options["level"]).value
        kernel = values[q] if isinstance(values, list) else values[q].item()
        assert same(kernel, explained), (text, query, ranking, qrels[query], options, kernel, explained)


def test_docs_list_every_measure():
    from pathlib import Path

    docs = (Path(__file__).resolve().parents[2] / "docs" / "measures.md").read_text()
    for name, family in FAMILIES.items():
        if name != "runid":
            assert f"`{name}" in docs, f"add {name} to docs/measures.md"
        for trec in family.trec:
            assert f"`{trec.name}" in docs, f"add trec_eval's {trec.name} to docs/measures.md"
