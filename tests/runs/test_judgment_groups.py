"""Qrels by judgment group (-R qrels_jg): the kernels against the readable definitions, with trec_eval's options.

Each query's value is the measure against each group's judgments, added group by group in id
order and divided by the number of groups; trec_eval's own numbers are checked by tests/cli and
bench/trec_eval_diff.py.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irlab.errors import ValidationError
from irlab.metrics.measure_names import parse_measure
from irlab.metrics.registry import FAMILIES
from irlab.runs.evaluate import evaluate_tables, run_from_mapping
from irlab.runs.judge import PLACEHOLDER
from irlab.runs.judgment_groups import judge_groups, parse_grouped_qrels

DOCS = [f"d{i}" for i in range(10)] + ["D3", "a", "z"]
GROUP_MEASURES = ["APavgjg", "Pavgjg@1", "Pavgjg@3", "Pavgjg@10", "RprecAvgjg", "RprecAvgjg(mult=0.4)",
                  "RprecAvgjg(mult=2.0)", "APavgjg(rel=2)"]


def test_every_judgment_group_family_is_covered():
    assert {parse_measure(t).family for t in GROUP_MEASURES} == {
        name for name, family in FAMILIES.items() if family.judgments == "qrels_jg"}


@st.composite
def collections(draw):
    lines, run = [], {}
    for q in range(draw(st.integers(1, 3))):
        for group in draw(st.lists(st.sampled_from(["0", "1", "u7", "B"]), min_size=1, max_size=3, unique=True)):
            judged = draw(st.dictionaries(st.sampled_from(DOCS), st.integers(-1, 3), min_size=1, max_size=8))
            lines += [f"q{q} {group} {doc} {grade}" for doc, grade in judged.items()]
        if draw(st.booleans()) or q == 0:
            ranked = draw(st.lists(st.sampled_from(DOCS + ["x"]), min_size=1, max_size=10, unique=True))
            run[f"q{q}"] = {doc: draw(st.sampled_from([0.0, 1.0, 2.5])) for doc in ranked}
    options = {"level": draw(st.integers(1, 3)), "depth": draw(st.sampled_from([None, 0, 1, 3])),
               "complete": draw(st.booleans()), "judged_only": draw(st.booleans())}
    return "\n".join(lines) + "\n", run, options


@pytest.mark.parametrize("text", GROUP_MEASURES)
@settings(max_examples=40, deadline=None)
@given(case=collections())
def test_kernel_equals_the_explanation(text, case):
    qrels_text, run, options = case
    grouped = parse_grouped_qrels(qrels_text.encode())
    joined = judge_groups(grouped, run_from_mapping(run), complete=options["complete"], depth=options["depth"],
                          judged_only=options["judged_only"])
    measure = parse_measure(text)
    values = measure.compute_all(joined.rankings, relevance_level=options["level"])
    for q, query in enumerate(joined.queries):
        groups = grouped.judgments(query)
        rankings = {}
        for g, group in enumerate(grouped.groups_of(query)):  # each group's ranking, after -M and its own -J
            rankings[group] = _group_ranking(grouped.slots[g], run, query, options)
        explained = measure.explain(rankings, groups, relevance_level=options["level"]).value
        assert values[q].item() == explained or (math.isnan(explained) and math.isnan(values[q])), (text, query)


def _group_ranking(slot, run, query, options) -> list[str]:
    from irlab.data.columns import NOT_RANKED
    from irlab.runs.judge import judge

    judged = judge(slot, run_from_mapping(run), complete=True, depth=options["depth"],
                   judged_only=options["judged_only"], queries=[query])
    rows = judged.rows[judged.rankings.offsets[0]:judged.rankings.offsets[1]]
    return [NOT_RANKED] if len(rows) and rows[0] == PLACEHOLDER else judged.ranking(query)


def test_groups_are_in_id_order_and_a_document_may_be_in_several():
    grouped = parse_grouped_qrels(b"q 2 a 1\nq 10 a 0\nq 10 b 1\nr 0 c 1\n")
    assert grouped.groups_of("q") == ("10", "2") and grouped.judgments("q") == {"10": {"a": 0, "b": 1}, "2": {"a": 1}}
    run = run_from_mapping({"q": ["a", "b"], "r": ["c"]})
    evaluation = evaluate_tables(grouped, run, {"map_avgjg": parse_measure("map_avgjg")})
    assert evaluation.per_query["map_avgjg"].tolist() == [(0.5 + 1.0) / 2, 1.0]


def test_bad_files_name_the_line():
    with pytest.raises(ValidationError, match=r"x:3: document 'a' is judged twice for query 'q' \(lines 1 and 3\)"):
        parse_grouped_qrels(b"q u a 1\nq v a 1\nq u a 0\n", "x")
    with pytest.raises(ValidationError, match="x:2: a qrels_jg line has 4 fields"):
        parse_grouped_qrels(b"q u a 1\nq u b\n", "x")
    with pytest.raises(ValidationError, match="x:1: the grade must be a whole number"):
        parse_grouped_qrels(b"q u a yes\n", "x")
    with pytest.raises(ValidationError, match="map_avgjg needs qrels by judgment group"):
        from irlab.runs.trec import parse_qrels

        evaluate_tables(parse_qrels(b"q 0 a 1\n"), run_from_mapping({"q": ["a"]}),
                        {"map_avgjg": parse_measure("map_avgjg")})
