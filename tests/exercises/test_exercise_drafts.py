"""The builder's draft model, its measure picker, and sharing (practice links, exports, variant batches)."""

from __future__ import annotations

import csv
import io
import itertools
import json
import random
import zipfile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irlab.errors import ValidationError
from irlab.exercises import (
    BUILTIN_NAMES,
    MAX_LINK_CHARS,
    answer_key,
    builtin_exercise,
    dump_exercise,
    exercise_from_dict,
    exercise_to_link,
    make_variant,
    parse_exercise,
)
from irlab.exercises.builder.drafts import (
    TABLES,
    add_question,
    apply_edit,
    blank_draft,
    check_draft,
    draft_of,
    file_data,
    file_stem,
    has_edits,
    parse_id_list,
    set_field,
    set_ranking,
    table_rows,
)
from irlab.exercises.builder.measure_picker import FAMILY_LABELS, measure_choices, measure_text, takes_k, takes_rel
from irlab.exercises.builder.sharing import (
    EXPORTS,
    export_name,
    open_link,
    open_practice,
    opened_file,
    opened_params,
    practice_path,
    read_seed,
    variant_bundle,
    variant_seeds,
    with_seed,
)
from irlab.metrics.measure_names import parse_measure
from irlab.metrics.registry import TEACHING_ORDER

NDCG = builtin_exercise("ndcg-exercise")
CATS = builtin_exercise("cats-in-boxes")


@pytest.mark.parametrize("name", BUILTIN_NAMES)
def test_a_draft_of_an_exercise_is_the_same_exercise(name):
    exercise = builtin_exercise(name)
    assert check_draft(draft_of(exercise)) == (exercise, [])
    assert exercise_from_dict(file_data(draft_of(exercise))) == exercise


def test_table_rows_show_every_part():
    draft = draft_of(NDCG)
    assert len(table_rows(draft, "items")) == 10 and table_rows(draft, "items")[0] == \
        {"id": "1", "label": "Document 1", "picture": None}
    assert table_rows(draft, "queries")[0] == {"id": "q1", "text": "", "scale": "graded", "max_grade": 3}
    assert table_rows(draft, "judgments")[3] == {"item": "4", "label": "Document 4", "q0": 3, "q1": 3, "q2": 3}
    assert table_rows(draft, "rankings")[0]["ranking"] == "2, 1, 3, 4, 5, 6, 10, 7, 9, 8"
    assert table_rows(draft, "questions")[0]["measure"] == "nDCG(discount='jarvelin-kekalainen')@5"
    with pytest.raises(ValueError):
        table_rows(draft, "nope")


def test_renaming_an_item_renames_its_grades_and_ranks():
    draft = apply_edit(draft_of(NDCG), "items", {"edited_rows": {3: {"id": "d4", "label": "Fourth"}}})
    exercise, problems = check_draft(draft)
    assert problems == [] and exercise.item("d4").label == "Fourth"
    assert exercise.query("q1").judgments["d4"] == 3 and exercise.ranking("system", "q1")[3] == "d4"
    assert [b.value for _, b in answer_key(exercise)] == [b.value for _, b in answer_key(NDCG)]


def test_renaming_a_query_or_system_keeps_its_rankings_and_questions():
    draft = apply_edit(draft_of(CATS), "queries", {"edited_rows": {1: {"id": "wc"}}})
    draft = apply_edit(draft, "systems", {"edited_rows": {0: {"id": "s"}}})
    exercise, problems = check_draft(draft)
    assert problems == []
    assert exercise.question("rr-white-cat").query == "wc" and exercise.question("mrr").mean_over[1] == "wc"
    assert {q.system for q in exercise.questions} == {"s"}


def test_deleting_an_item_removes_it_everywhere():
    draft = apply_edit(draft_of(NDCG), "items", {"deleted_rows": [9]})  # item "10"
    assert all("10" not in q["judgments"] for q in draft["queries"])
    assert all("10" not in r for r in draft["systems"][0]["rankings"].values())
    exercise, problems = check_draft(draft)
    assert exercise is None and "K = 10 is past the end" in problems[0].message  # nDCG@10 on 9 items


def test_added_rows_get_usable_defaults():
    draft = apply_edit(blank_draft(), "items", {"added_rows": [{}, {"label": "Extra"}]})
    assert draft["items"][-2:] == [{"id": "6", "label": "Document 6"}, {"id": "7", "label": "Extra"}]
    draft = apply_edit(draft, "systems", {"added_rows": [{}]})
    assert draft["systems"][1]["id"] == "system-2" and draft["systems"][1]["rankings"]["q1"] == list("1234567")
    draft = apply_edit(draft, "questions", {"added_rows": [{"measure": "RR", "query": "q1", "system": "system-2"}]})
    assert draft["questions"][-1]["id"] == "rr-q1"
    assert check_draft(draft)[1] == []


def test_a_new_query_needs_judgments_and_says_so_in_its_section():
    draft = apply_edit(blank_draft(), "queries", {"added_rows": [{"text": "another"}]})
    exercise, problems = check_draft(draft)
    assert exercise is None
    assert [(p.section, p.path, p.location) for p in problems] == \
        [("queries", "queries[1].judgments", "query 2 (q2) · judgments")]
    draft = apply_edit(draft, "judgments", {"edited_rows": {1: {"q1": 1}}})
    assert check_draft(draft)[1] == []


def test_judgment_cells_set_and_clear_grades_and_scales_tidy_up():
    draft = apply_edit(blank_draft(), "judgments", {"edited_rows": {0: {"q0": None}, 1: {"q0": 1.0}}})
    assert draft["queries"][0]["judgments"] == {"3": 1, "2": 1}
    graded = apply_edit(draft, "queries", {"edited_rows": {0: {"scale": "graded"}}})
    assert graded["queries"][0]["max_grade"] == 3
    back = apply_edit(graded, "queries", {"edited_rows": {0: {"scale": "binary"}}})
    assert "max_grade" not in back["queries"][0]
    bad = apply_edit(draft, "judgments", {"edited_rows": {4: {"q0": 2}}})
    assert check_draft(bad)[1][0].message == "binary judgments use grades 0 and 1 only, got 2"


def test_rankings_are_typed_as_lists_of_ids():
    draft = apply_edit(blank_draft(), "rankings", {"edited_rows": {0: {"ranking": "5, 4,3"}}})
    assert draft["systems"][0]["rankings"]["q1"] == ["5", "4", "3"]
    problems = check_draft(apply_edit(draft, "rankings", {"edited_rows": {0: {"ranking": "5, 5, 9"}}}))[1]
    assert problems[0].section == "systems" and "appears twice" in problems[0].message
    assert parse_id_list(" a b ") == ["a", "b"] and parse_id_list("a, b c") == ["a", "b c"]


def test_every_bad_question_is_reported_with_its_original_index():
    draft = blank_draft()
    for measure in ("P@1", "P@99", "nDCG@2", "XYZ", "RR"):
        draft = add_question(draft, measure, "q1", "system")
    exercise, problems = check_draft(draft)
    assert exercise is None
    assert [(p.path, p.section) for p in problems] == [("questions[2].measure", "questions"),
                                                       ("questions[4].measure", "questions")]
    assert problems[1].location == "question 5 (question-q1) · measure"


def test_top_fields_and_tile_orders_edit_the_draft():
    draft = set_field(blank_draft(), "title", "")
    assert check_draft(draft)[1][0].path == "title" and check_draft(draft)[1][0].section == "about"
    assert check_draft(set_field(blank_draft(), "tolerance", 0.5))[1][0].path == "tolerance"
    assert set_field(blank_draft(), "seed", 4.0)["seed"] == 4
    with pytest.raises(ValueError):
        set_field(blank_draft(), "items", [])
    moved = set_ranking(blank_draft(), 0, "q1", ["3", "1", "2", "4", "5"])
    assert moved["systems"][0]["rankings"]["q1"][0] == "3" and blank_draft()["systems"][0]["rankings"]["q1"][0] == "1"


CELL = st.one_of(st.none(), st.text(max_size=8), st.integers(-3, 30), st.floats(allow_nan=False, allow_infinity=False),
                 st.sampled_from(["binary", "graded", "mean", "q1", "system", "1", "P@2", "nDCG@3", "white-cat"]))
COLUMNS = ["id", "label", "picture", "text", "scale", "max_grade", "q0", "name", "ranking", "measure", "query",
           "system", "prompt", "mean_over"]
DELTA = st.fixed_dictionaries({
    "edited_rows": st.dictionaries(st.integers(0, 4), st.dictionaries(st.sampled_from(COLUMNS), CELL, max_size=3),
                                   max_size=3),
    "added_rows": st.lists(st.dictionaries(st.sampled_from(COLUMNS), CELL, max_size=3), max_size=2),
    "deleted_rows": st.lists(st.integers(0, 0), max_size=1)})


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(TABLES), DELTA), min_size=1, max_size=4))
def test_any_edits_give_a_draft_that_validates_or_names_its_problems(edits):
    draft = blank_draft()
    for table, delta in edits:
        draft = apply_edit(draft, table, delta)
    json.dumps(draft)  # still JSON
    exercise, problems = check_draft(draft)
    assert (exercise is None) == bool(problems)
    for problem in problems:
        assert problem.message and problem.section in ("about", "items", "queries", "systems", "questions")


def test_has_edits():
    assert not has_edits({"edited_rows": {}, "added_rows": [], "deleted_rows": []}) and not has_edits(None)
    assert has_edits({"edited_rows": {0: {"id": "x"}}})


@pytest.mark.parametrize("family", list(FAMILY_LABELS))
def test_the_picker_builds_a_valid_measure_for_every_option(family):
    assert set(FAMILY_LABELS) == set(TEACHING_ORDER)  # the families exercises can teach
    choices = measure_choices(family)
    k = 3 if takes_k(family) != "none" else None
    for values in itertools.product(*[[v for v, _ in options] for options in choices.values()]):
        options = dict(zip(choices, values))
        text = measure_text(family, k, options, rel=2 if takes_rel(family) else None)
        measure = parse_measure(text)
        assert measure.family == family and measure.cutoff == k and str(measure) == text
        for param, value in options.items():
            default = choices[param][0][0]
            assert measure.options.get(param, default) == value


def test_file_stems():
    assert file_stem("Cats in boxes") == "cats-in-boxes" and file_stem("") == "exercise"
    assert file_stem("a/../b") == "a-b" and "/" not in file_stem("../../etc/passwd")


# --- sharing ---------------------------------------------------------------------------------------

def test_practice_links_round_trip_with_the_seed():
    opened = open_practice({"exercise": exercise_to_link(CATS), "seed": "5"})
    assert (opened.source, opened.seed, opened.notices) == ("link", 5, ())
    assert opened.base == CATS and opened.exercise == make_variant(CATS, 5)
    assert opened_params(opened) == {"exercise": exercise_to_link(CATS), "seed": "5"}
    assert practice_path(CATS).startswith("practise?exercise=ex1.")


@pytest.mark.parametrize("params, notice", [
    ({"exercise": "garbage"}, "could not be opened (this is not an exercise link"),
    ({"exercise": "ex1.%%%"}, "holds characters a link never has"),
    ({"exercise": exercise_to_link(CATS)[:200]}, "damaged"),
    ({"builtin": "nope"}, "no built-in exercise called 'nope'"),
    ({"builtin": "cats-in-boxes", "seed": "-1"}, "is not a whole number"),
    ({"builtin": "cats-in-boxes", "seed": "1e3"}, "is not a whole number"),
    ({"builtin": "cats-in-boxes", "seed": "99999999999999999999"}, "is not a whole number"),
])
def test_bad_practice_parameters_give_a_notice_and_a_fallback(params, notice):
    opened = open_practice(params)
    assert any(notice in text for text in opened.notices), opened.notices
    assert opened.exercise in (CATS, make_variant(CATS, 1)) or opened.seed is None


def test_pasted_links_and_files():
    url = "http://host/" + practice_path(NDCG, seed=9)
    assert open_link(url).exercise == make_variant(NDCG, 9)
    assert open_link("  " + exercise_to_link(NDCG) + " ").seed is None
    with pytest.raises(ValidationError):
        open_link("https://host/practise?exercise=ex1.AAAA")
    opened = opened_file(NDCG)
    assert opened.source == "file" and opened.token == exercise_to_link(NDCG)
    assert with_seed(opened, 2).exercise == make_variant(NDCG, 2) and with_seed(opened, 2).source == "file"
    assert read_seed("7") == 7
    with pytest.raises(ValidationError):
        read_seed(True)


def big_exercise() -> str:
    """A valid exercise whose link is too long (150 items with random labels, which do not compress)."""
    rng = random.Random(0)
    labels = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(120)) for _ in range(150)]
    data = {"schema_version": 1, "title": "Big", "items": [{"id": str(i), "label": labels[i]} for i in range(150)],
            "queries": [{"id": "q", "scale": "binary", "judgments": {"0": 1}}],
            "systems": [{"id": "s", "rankings": {"q": [str(i) for i in range(150)]}}],
            "questions": [{"id": "p", "measure": "P@5", "query": "q", "system": "s"}]}
    return json.dumps(data)


def test_a_large_exercise_has_no_link_but_still_opens_from_a_file():
    exercise = parse_exercise(big_exercise())
    with pytest.raises(ValidationError, match="too large for a link"):
        practice_path(exercise)
    assert opened_file(exercise).token is None and opened_params(opened_file(exercise)) == {}
    assert len(MAX_LINK_CHARS * "x") == 6000


@pytest.mark.parametrize("export", EXPORTS, ids=[e.key for e in EXPORTS])
def test_every_export_makes_its_file(export):
    text = export.make(make_variant(NDCG, 3))
    assert text and isinstance(text, str)
    assert "3" in export_name("ndcg", export, 3) and export_name("ndcg", export).startswith("ndcg")
    if export.suffix.endswith(".ipynb"):
        assert json.loads(text)["nbformat"] == 4


def test_a_batch_of_variants_holds_notebooks_and_one_answer_key():
    seen = []
    data = variant_bundle(NDCG, "ndcg", variant_seeds(4, 3), progress=lambda done, total, seed: seen.append(
        (done, total, seed)))
    assert seen == [(1, 3, 4), (2, 3, 5), (3, 3, 6)]
    archive = zipfile.ZipFile(io.BytesIO(data))
    assert "students/ndcg-seed005.ipynb" in archive.namelist()
    rows = list(csv.DictReader(io.StringIO(archive.read("ndcg-answer-key.csv").decode())))
    assert {row["seed"] for row in rows} == {"4", "5", "6"} and len(rows) == 3 * len(NDCG.questions)
    again = zipfile.ZipFile(io.BytesIO(variant_bundle(NDCG, "ndcg", variant_seeds(4, 3))))
    assert again.read("ndcg-answer-key.csv") == archive.read("ndcg-answer-key.csv")  # the same answers
    with pytest.raises(ValidationError):
        variant_seeds(1, 0)
    assert dump_exercise(NDCG) == dump_exercise(builtin_exercise("ndcg-exercise"))
