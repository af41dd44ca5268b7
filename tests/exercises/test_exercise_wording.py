"""Questions read as words, not code (issue 20 item 4): every variant parameter the registry declares is worded
from its own declaration, and the exact measure name stays available beside the words."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from irlab.exercises.exports.notebook import exercise_notebook, notebook_text
from irlab.exercises.exports.worksheet import answer_key_markdown, worksheet_html, worksheet_markdown
from irlab.exercises.format.examples import builtin_exercise
from irlab.exercises.questions.explain import describe_question
from irlab.exercises.questions.wording import measure_words, question_wording
from irlab.metrics import conventions
from irlab.metrics.measure_names import parse_measure
from irlab.metrics.registry import FAMILIES, TEACHING_ORDER, Measure

NDCG = builtin_exercise("ndcg-exercise")
CATS = builtin_exercise("cats-in-boxes")

VALUES = {"rel": 2, "gains": {1: 3, 2: 9}, "dcg": "exp-log2", "mult": 0.5, "p": 0.5, "beta": 0.5,
          "levels": [0.0, 0.5], "coefficients": [2, -1, 0, 0], "collection_size": 10, "length": 5, "scope": "retrieved"}
"""A value other than the default for every parameter that is not a convention (conventions use their variants)."""


def _cases():
    """(family, parameter, value) for every parameter the registry declares, every variant of a convention."""
    for family in FAMILIES.values():
        for param in family.params:
            if param.topic:
                for name in param.choices:
                    if name != param.default:
                        yield family.name, param.name, name
            else:
                yield family.name, param.name, VALUES[param.name]


def _measure(family: str, param: str, value: object) -> Measure:
    cut = {"required": "@0.5" if FAMILIES[family].cutoff_kind == "recall" else "@5", "optional": "@5",
           "none": ""}[FAMILIES[family].cutoff]
    return parse_measure(f"{family}({param}={value!r}){cut}")


def test_every_parameter_the_registry_declares_has_a_value_here():
    declared = {param.name for family in FAMILIES.values() for param in family.params if not param.topic}
    assert declared <= set(VALUES), declared - set(VALUES)  # a new parameter needs its words checked here


@pytest.mark.parametrize(("family", "param", "value"), list(_cases()), ids=str)
def test_every_variant_reads_as_words_with_its_declared_label(family, param, value):
    measure = _measure(family, param, value)
    words = measure_words(measure)
    assert "=" not in words.replace(f"{param} = ", "") and "'" not in words and "(" + param not in words, words
    assert words.count("(") == words.count(")"), words
    declared = FAMILIES[family].param(param)
    if declared.topic:
        chosen = conventions.variant(declared.topic, value)
        assert chosen.label in words, words  # the convention's own label, not a second table
    elif param == "rel":
        assert "relevance level 2 (a grade at least 2 is relevant)" in words
    elif param == "gains":
        assert "grade 1 \u2192 3, grade 2 \u2192 9" in words
    elif param == "dcg":
        assert "exponential gain" in words
    assert words.startswith((FAMILIES[family].short_label.split("@")[0], family)), words


def test_issue_20_the_ndcg_exercise_reads_in_words_with_its_exact_name_beside_it():
    question = NDCG.questions[0]
    wording = question_wording(NDCG, question)
    assert wording.text == describe_question(NDCG, question) == \
        "nDCG@5 with the original Järvelin–Kekäläinen discount (rank 1 is not discounted) for query q1"
    assert wording.exact == question.measure == "nDCG(discount='jarvelin-kekalainen')@5" and wording.exact_differs
    assert measure_words("nDCG(gain='linear', discount='log2')@5") == "nDCG@5"  # defaults are not spelled out


def test_words_come_from_the_conventions_table(monkeypatch):
    relabelled = tuple(replace(v, label="Järvelin–Kekäläinen discount") if v.name == "jarvelin-kekalainen" else v
                       for v in conventions.CONVENTIONS["discount"])
    monkeypatch.setitem(conventions.CONVENTIONS, "discount", relabelled)
    assert measure_words("nDCG(discount='jk')@5").startswith("nDCG@5 with the Järvelin–Kekäläinen discount (")


def test_means_and_systems_read_as_words():
    mean = next(q for q in CATS.questions if q.is_mean and q.parsed.family == "AP")
    plain = replace(mean, prompt="")
    assert question_wording(CATS, plain).text == \
        "AP@8, averaged over the queries \u201ccat in a box\u201d, \u201cwhite cat\u201d and \u201cdark cat\u201d"
    assert question_wording(CATS, replace(plain, mean_over=None)).text == "AP@8, averaged over all 4 queries"
    two = replace(CATS, systems=(CATS.systems[0], replace(CATS.systems[0], id="bm25", name="BM25")))
    assert question_wording(two, replace(plain, query="cat-in-a-box", mean_over=None)).text == \
        "AP@8 for query \u201ccat in a box\u201d, system " + (CATS.systems[0].name or CATS.systems[0].id)
    assert question_wording(CATS, mean).text == mean.prompt and question_wording(CATS, mean).measure == "AP@8"
    assert {measure_words(f) for f in TEACHING_ORDER if FAMILIES[f].cutoff == "none"} == {"R-precision", "RBP"}


def test_worksheets_and_notebooks_show_the_words_and_the_exact_name():
    words = "nDCG@5 with the original Järvelin–Kekäläinen discount (rank 1 is not discounted) for query q1"
    sheet = worksheet_markdown(NDCG)
    assert f"1. ndcg5-q1: {words}" in sheet
    assert "**Exact measure name:** nDCG(discount='jarvelin-kekalainen')@5" in sheet
    assert "nDCG(discount='jarvelin-kekalainen')@5 of query" not in sheet
    assert "Järvelin–Kekäläinen discount (rank 1 is not discounted) for query q1" in worksheet_html(NDCG)
    assert f"ndcg5-q1: {words}" in answer_key_markdown(NDCG)
    cells = ["".join(cell["source"]) for cell in json.loads(notebook_text(exercise_notebook(NDCG)))["cells"]]
    questions = next(cell for cell in cells if cell.startswith("## Questions"))
    assert f"1. `ndcg5-q1`: {words} (exact name `nDCG(discount='jarvelin-kekalainen')@5`)" in questions
    assert any("Measure: `nDCG(discount='jarvelin-kekalainen')`, that is nDCG with the original Järvelin–Kekäläinen "
               "discount" in cell for cell in cells)
    prompted = worksheet_markdown(CATS)
    assert "**Measure:** Recall@2 for query cat-in-a-box (exact name: R@2)." in prompted
