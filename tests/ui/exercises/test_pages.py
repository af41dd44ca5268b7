"""The exercise builder and the practice page under AppTest: editing with inline validation that never loses
the last valid exercise, uploads that never wipe work, links, answer checking that names known mistakes,
the predict-then-reveal quiz, and user text that always shows as text."""

from __future__ import annotations

import base64
import json
import random
import re
import zlib
from urllib.parse import parse_qs, urlsplit

import pytest

from irlab.exercises import (
    builtin_exercise,
    dump_exercise,
    exercise_to_link,
    explain_question,
    make_variant,
    parse_exercise,
)
from irlab.exercises.builder.drafts import blank_draft
from irlab.metrics.measure_names import parse_measure
from irlab.ui.exercises.state import DRAFT, REVISION, UPLOAD_ERROR, VALID
from irlab.walkthrough.quiz import make_question

NDCG = builtin_exercise("ndcg-exercise")
CATS = builtin_exercise("cats-in-boxes")
TAB = "irlab.builder.tab"
HOSTILE = ["<script>alert(1)</script>", "[x](javascript:alert(1))", ":red[x]"]


def texts(at) -> str:
    """Everything the page shows as Markdown, alerts and captions, unescaped (backslashes removed)."""
    parts = [e.value for kind in ("markdown", "caption", "error", "warning", "success", "info") for e in at.get(kind)]
    parts += [e.value for e in at.get("header")] + [e.value for e in at.get("subheader")]
    return unescape(" ".join(str(p) for p in parts)).replace("**", "")


def unescape(text: str) -> str:
    """Escaped Markdown back to the characters it shows."""
    return re.sub(r"\\(.)", r"\1", text)


@pytest.fixture
def builder_on(open_page):
    """``builder_on(tab=None)``: the builder page, on ``tab`` if given."""
    def on(tab: str | None = None):
        at = open_page("build")
        if tab:
            at.session_state[TAB] = tab
            at.run()
        return at
    return on


def edit(at, table: str, delta: dict) -> None:
    """An edit in one of the builder's tables, as the data editor reports it."""
    key = f"irlab.builder.edit.{table}.{at.session_state[REVISION]}"
    at.session_state[key] = {"edited_rows": {}, "added_rows": [], "deleted_rows": [], **delta}
    at.run()
    assert not at.exception, [e.value for e in at.exception]


def upload(at, name: str, data: bytes, *, label: str = "Load an exercise file (.json)") -> None:
    [uploader] = [u for u in at.get("file_uploader") if u.label == label]
    uploader.set_value((name, data, "application/json")).run()
    assert not at.exception, [e.value for e in at.exception]


# --- the builder -----------------------------------------------------------------------------------

def test_builder_opens_with_the_walkthrough_example_and_every_tab_renders(builder_on):
    at = builder_on()
    assert at.title[0].value == "Build an exercise"
    assert "The exercise is valid (8 items, 4 queries, 1 system, 13 questions)" in texts(at)
    assert at.session_state[VALID] == CATS
    for tab in ("Items", "Queries and judgments", "Systems and rankings", "Questions", "Preview and answer key",
                "Share and export"):
        at.session_state[TAB] = tab
        at.run()
        assert not at.exception, (tab, [e.value for e in at.exception])
    assert "Download the exercise (JSON)" in [b.label for b in at.get("download_button")]


def test_the_answer_key_preview_shows_irlabs_values(builder_on):
    at = builder_on("Preview and answer key")
    labels = [unescape(e.label) for e in at.expander]
    for question in CATS.questions:
        value = explain_question(CATS, question).display_value
        assert any(label.endswith(f"= {value}") for label in labels), question.id
    assert any("\\frac" in element.value for element in [*at.latex, *at.markdown])


def test_a_bad_edit_shows_the_problem_where_it_is_and_keeps_the_last_valid_exercise(builder_on, downloads):
    at = builder_on("Questions")
    edit(at, "questions", {"edited_rows": {1: {"measure": "P@12"}}})
    shown = texts(at)
    assert "The draft has 1 problem, shown in the tabs: Questions. Nothing is lost." in shown
    assert "question 2 (precision-2) · measure (field questions[1].measure): K = 12 is past the end" in shown
    assert at.session_state[VALID] == CATS  # the last valid exercise is kept ...
    assert at.session_state[DRAFT]["questions"][1]["measure"] == "P@12"  # ... and so is the work
    at.session_state[TAB] = "Share and export"
    at.run()
    assert "Downloads the last valid version (the draft has problems)" in texts(at)
    offered = downloads["Download the exercise (JSON)"]
    assert (offered["data"], offered["file_name"], offered["mime"]) == (dump_exercise(CATS), "cats-in-boxes.json",
                                                                        "application/json")
    edit(at, "questions", {"edited_rows": {1: {"measure": "P@3"}}})
    assert "The exercise is valid" in texts(at) and at.session_state[VALID].question("precision-2").measure == "P@3"


def test_a_blank_title_is_reported_on_the_about_tab(builder_on):
    at = builder_on()
    at.text_input(key="irlab.builder.w.title").input("").run()
    assert "title: must not be empty" in texts(at).replace(" (field title)", "")
    [revert] = [b for b in at.button if b.label == "Back to the last valid version"]
    revert.click().run()
    assert at.session_state[DRAFT]["title"] == "Cats in boxes" and "The exercise is valid" in texts(at)
    [undo] = [b for b in at.button if b.label == "Undo"]
    undo.click().run()
    assert at.session_state[DRAFT]["title"] == ""  # undo brings the edit back


def test_renaming_an_item_in_the_table_keeps_its_grades_and_answers(builder_on):
    at = builder_on("Items")
    edit(at, "items", {"edited_rows": {1: {"id": "two", "label": "A <b>white</b> cat in a box"}}})
    exercise = at.session_state[VALID]
    assert exercise.item("two").label == "A <b>white</b> cat in a box"
    assert exercise.query("white-cat-in-a-box").judgments["two"] == 4
    assert [explain_question(exercise, q).value for q in exercise.questions] == \
        [explain_question(CATS, q).value for q in CATS.questions]


def test_the_tables_show_every_grade_also_when_some_items_are_unjudged(builder_on):
    at = builder_on("Items")
    edit(at, "items", {"added_rows": [{}]})  # a new, unjudged item
    at.session_state[TAB] = "Queries and judgments"
    at.run()
    queries, judgments = (editor.value for editor in at.data_editor)
    assert list(queries["max_grade"].astype("object").where(queries["max_grade"].notna(), None)) == \
        [None, None, None, 4]
    assert list(judgments["q3"][:8]) == [0, 4, 1, 3, 4, 1, 3, 2] and judgments["q3"].isna().iloc[8]


def test_judgments_rankings_and_tile_drags_edit_the_exercise(builder_on):
    at = builder_on("Queries and judgments")
    edit(at, "judgments", {"edited_rows": {0: {"q0": 1}}})  # picture 1 becomes relevant to "cat in a box"
    assert at.session_state[VALID].query("cat-in-a-box").judgments["1"] == 1
    at.session_state[TAB] = "Systems and rankings"
    at.run()
    edit(at, "rankings", {"edited_rows": {0: {"ranking": "2, 1, 3, 4, 5, 6, 7, 8, 8"}}})
    assert "item id '8' appears twice in the ranking (positions 8 and 9)" in texts(at)
    edit(at, "rankings", {"edited_rows": {0: {"ranking": "2 4 5 7 1 3 6 8"}}})
    assert at.session_state[VALID].ranking("walkthrough", "cat-in-a-box")[:4] == ("2", "4", "5", "7")
    at.session_state[TAB] = "Preview and answer key"
    at.run()
    at.session_state["irlab.builder.tiles.0.0"] = {"change": {"order": list("87654321"), "grades": None, "seq": 1,
                                                              "action": "drag", "item": "8"}}
    at.run()
    exercise = at.session_state[VALID]
    assert exercise.ranking("walkthrough", "cat-in-a-box") == tuple("87654321")
    recall = explain_question(exercise, exercise.question("recall-2")).display_value
    assert any(unescape(e.label).endswith(f"= {recall}") and "Recall@2" in unescape(e.label) for e in at.expander)


def test_start_blank_then_add_a_question_with_the_picker(builder_on):
    at = builder_on()
    at.selectbox(key="irlab.builder.w.start").set_value("blank").run()
    [start] = [b for b in at.button if b.label == "Start from this"]
    start.click().run()
    assert at.session_state[DRAFT] == blank_draft()
    at.session_state[TAB] = "Questions"
    at.run()
    at.selectbox(key="irlab.builder.pick.family").set_value("AP").run()
    at.selectbox(key="irlab.builder.pick.APdenominator").set_value("min-k-r").run()
    at.number_input(key="irlab.builder.pick.k").set_value(4).run()
    assert "Measure name: AP(denominator='min-k-r')@4" in texts(at)
    at.button(key="irlab.builder.pick.add").click().run()
    question = at.session_state[VALID].questions[-1]
    assert (question.measure, question.query, question.system) == ("AP(denominator='min-k-r')@4", "q1", "system")


def test_a_bad_upload_shows_the_error_and_never_replaces_the_exercise(builder_on):
    at = builder_on("Items")
    edit(at, "items", {"edited_rows": {0: {"label": "My own label"}}})
    draft = at.session_state[DRAFT]
    for name, data, message in [
        ("broken.json", b'{"schema_version": 1, "title": ', "not valid JSON"),
        ("typo.json", dump_exercise(NDCG).replace('"judgments"', '"judgements"', 1).encode(),
         "unknown field 'judgements'"),
        ("huge.json", b" " * 300_000, "an exercise file is at most"),
        ("script.json", b"<script>alert(1)</script>", "not valid JSON"),
        ("deep.json", b"[" * 100_000 + b"]" * 100_000, "not an exercise file: nested deeper than 64 levels"),
    ]:
        upload(at, name, data)
        shown = texts(at)
        assert f"Could not load {name}" in shown and message in shown, shown
        assert "The exercise you are editing is unchanged." in shown
        assert at.session_state[DRAFT] == draft
    upload(at, "ndcg.json", dump_exercise(NDCG).encode())
    assert at.session_state[VALID] == NDCG and UPLOAD_ERROR not in at.session_state
    assert "Loaded “NDCG calculation” from ndcg.json" in texts(at)
    [undo] = [b for b in at.button if b.label == "Undo"]
    undo.click().run()
    assert at.session_state[DRAFT] == draft  # the edited example is back


def test_the_share_link_opens_the_exercise_on_the_practice_page(open_page, builder_on):
    at = builder_on("Share and export")
    at.number_input(key="irlab.builder.w.link_seed").set_value(6).run()
    [link] = [c.value for c in at.code if "practise?" in c.value]
    params = {name: values[0] for name, values in parse_qs(urlsplit(link).query).items()}
    assert params["seed"] == "6" and params["exercise"] == exercise_to_link(CATS)
    practice = open_page("practise", params)
    assert practice.session_state["irlab.practice.opened"].exercise == make_variant(CATS, 6)
    assert "variant seed 6" in texts(practice)


def test_a_large_exercise_gets_no_link_but_a_clear_message(builder_on):
    rng = random.Random(0)
    items = [{"id": str(i), "label": "".join(rng.choice("abcdefghij") for _ in range(150))} for i in range(120)]
    big = {"schema_version": 1, "title": "Big", "items": items,
           "queries": [{"id": "q", "scale": "binary", "judgments": {"0": 1}}],
           "systems": [{"id": "s", "rankings": {"q": [item["id"] for item in items]}}],
           "questions": [{"id": "p", "measure": "P@5", "query": "q", "system": "s"}]}
    at = builder_on()
    upload(at, "big.json", json.dumps(big).encode())
    assert at.session_state[VALID].title == "Big"
    at.session_state[TAB] = "Share and export"
    at.run()
    assert not at.code and "too large for a link" in texts(at) and "Students can load the JSON file" in texts(at)


# --- the practice page -----------------------------------------------------------------------------

def practice_answer(at, text: str) -> None:
    [box] = [t for t in at.text_input if t.label == "Your answer"]
    box.input(text)
    [check] = [b for b in at.button if b.label == "Check"]
    check.click().run()
    assert not at.exception, [e.value for e in at.exception]


def test_practice_opens_the_cats_example_by_default_and_builtins_by_name(open_page):
    at = open_page("practise")
    assert "Cats in boxes" in texts(at) and "the exercise as written (no seed)" in texts(at)
    at = open_page("practise", {"builtin": "ndcg-exercise", "seed": "2"})
    assert at.session_state["irlab.practice.opened"].exercise == make_variant(NDCG, 2)
    assert "variant seed 2" in texts(at) and at.query_params["seed"] == "2"


def test_a_wrong_answer_with_the_log2_discount_names_that_mistake(open_page):
    at = open_page("practise", {"builtin": "ndcg-exercise"})
    question = NDCG.question("ndcg5-q1")
    log2 = explain_question(NDCG, question, parse_measure("nDCG@5")).display_value
    practice_answer(at, log2)  # what nDCG@5 gives with the usual log2(k + 1) discount
    shown = texts(at)
    assert f"Not correct yet. {log2} is off by more than 0.005" in shown
    assert "Known mistake: log2(k + 1) discount instead of the original Järvelin–Kekäläinen one" in shown
    assert "(discount-log2-k-plus-1)" in shown and f"That computation gives {log2}" in shown
    assert ("1. nDCG@5 with the original Järvelin–Kekäläinen discount (rank 1 is not discounted) for query q1 "
            "(not correct yet)") in at.selectbox[0].options


def test_a_right_answer_says_correct_and_shows_the_breakdown(open_page):
    at = open_page("practise", {"builtin": "ndcg-exercise"})
    expected = explain_question(NDCG, NDCG.question("ndcg5-q1"))
    practice_answer(at, "0,7992")
    assert f"Correct. 0.7992 is within 0.005 of {expected.display_value}." in texts(at)
    assert "The solution" in texts(at)
    assert any(expected.plugged_latex in element.value for element in [*at.latex, *at.markdown])
    assert "Score: 1 of 6 questions answered correctly" in " ".join(p.text for p in at.get("progress"))


@pytest.mark.parametrize("answer", ["1/4", "25%", "0,25", "0.25"])
def test_answers_in_every_accepted_form(answer, open_page):
    at = open_page("practise")
    practice_answer(at, answer)  # Recall@2 of "cat in a box" is 0.25
    assert "Correct." in texts(at)


def test_unreadable_answers_say_why_and_solutions_can_be_shown(open_page):
    at = open_page("practise")
    practice_answer(at, "a quarter")
    assert "'a quarter' is not a number" in texts(at)
    [show] = [b for b in at.button if b.label == "Show the solution"]
    show.click().run()
    assert "The solution" in texts(at) and any("$$" in element.value for element in at.markdown)
    assert any("(solution shown)" in option for option in at.selectbox[0].options)


def test_answers_are_kept_when_switching_questions(open_page):
    at = open_page("practise")
    practice_answer(at, "0.3")
    [following] = [b for b in at.button if b.label == "Next"]
    following.click().run()
    assert "Precision@2" in texts(at)
    [box] = [t for t in at.text_input if t.label == "Your answer"]
    assert box.value == ""
    [previous] = [b for b in at.button if b.label == "Previous"]
    previous.click().run()
    [box] = [t for t in at.text_input if t.label == "Your answer"]
    assert box.value == "0.3" and "Not correct yet. 0.3" in texts(at)


@pytest.mark.parametrize("params, notice", [
    ({"exercise": "not-a-link"}, "The exercise in the link could not be opened"),
    ({"exercise": "ex1.<script>alert(1)</script>"}, "holds characters a link never has"),
    ({"exercise": exercise_to_link(NDCG)[:300]}, "damaged"),
    ({"builtin": "ndcg-exercise", "seed": "seven"}, "is not a whole number"),
    ({"builtin": "<b>x</b>"}, "There is no built-in exercise called"),
    ({"exercise": "ex1." + base64.urlsafe_b64encode(zlib.compress(b"[" * 100_000 + b"]" * 100_000)).decode()
      .rstrip("=")},
     "not an exercise file: nested deeper than 64 levels"),
])
def test_malformed_links_give_a_notice_and_fall_back(params, notice, open_page):
    at = open_page("practise", params)
    warnings = re.sub(r"\\(.)", r"\1", " ".join(w.value for w in at.warning))
    assert notice in warnings
    assert not at.exception and at.session_state["irlab.practice.opened"].exercise in (CATS, NDCG)


def test_a_pasted_link_and_an_uploaded_file_open_their_exercises(open_page):
    at = open_page("practise")
    at.text_input(key="irlab.practice.w.link").input("https://x/practise?exercise=" + exercise_to_link(NDCG)
                                                     + "&seed=3").run()
    assert at.session_state["irlab.practice.opened"].exercise == make_variant(NDCG, 3)
    upload(at, "bad.json", b"[1, 2]", label="Or open an exercise file (.json)")
    assert "Could not open bad.json" in texts(at) and at.session_state["irlab.practice.opened"].seed == 3
    upload(at, "cats.json", dump_exercise(CATS).encode(), label="Or open an exercise file (.json)")
    assert at.session_state["irlab.practice.opened"].exercise == CATS
    assert at.query_params["exercise"] == exercise_to_link(CATS)  # a reload reopens it


def test_hostile_labels_and_titles_show_as_text_on_both_pages(open_page, builder_on):
    data = json.loads(dump_exercise(NDCG))
    data["title"] = HOSTILE[0]
    data["instructions"] = " ".join(HOSTILE)
    for item, label in zip(data["items"], HOSTILE * 4):
        item["label"] = label
    data["queries"][0]["text"] = HOSTILE[1]
    data["questions"][0]["prompt"] = HOSTILE[2]
    exercise = parse_exercise(json.dumps(data))
    practice = open_page("practise", {"exercise": exercise_to_link(exercise)})
    builder = builder_on()
    upload(builder, "hostile.json", dump_exercise(exercise).encode())
    pages = [practice]
    for tab in ("Preview and answer key", "Share and export", "Questions"):
        builder.session_state[TAB] = tab
        builder.run()
        pages.append(builder)
        raw = " ".join(str(e.value) for kind in ("markdown", "caption", "error", "warning", "success", "info", "header")
                       for e in builder.get(kind))
        for text in HOSTILE:  # shown only escaped: no live tag, link or directive reaches the Markdown renderer
            assert text not in raw
        assert not builder.exception
    shown = texts(practice)
    assert all(text in shown for text in HOSTILE) and not practice.exception
    raw = " ".join(str(e.value) for kind in ("markdown", "caption", "header") for e in practice.get(kind))
    assert all(text not in raw for text in HOSTILE)
    assert "\\<script\\>" in raw and "\\[x\\]\\(javascript\\:" in raw and "\\:red\\[x\\]" in raw


# --- predict, then reveal --------------------------------------------------------------------------

def test_the_quiz_reveals_the_value_irlab_computes_and_keeps_score(open_page):
    at = open_page("practise")
    at.session_state["irlab.practice.tab"] = "Predict, then reveal"
    at.session_state["irlab.quiz.seed"] = 7
    at.run()
    at.radio(key="irlab.quiz.w.metric").set_value("nDCG").run()
    at.slider(key="irlab.quiz.w.k").set_value(4).run()
    question = make_question(7, "nDCG", 4)
    [box] = [t for t in at.text_input if t.label == "Your prediction"]
    box.input("0.5")
    [reveal] = [b for b in at.button if b.label == "Reveal"]
    reveal.click().run()
    assert [(m.label, m.value) for m in at.metric] == [("NDCG@4", question.breakdown.display_value)]
    within = abs(0.5 - question.breakdown.value) <= 0.005
    assert ("Within" if within else "Not within") + f" 0.005: you predicted 0.5, the value is " \
        f"{question.breakdown.display_value}." in texts(at)
    assert "Your score this session: 0 of 1 predictions within the tolerance." in texts(at)
    [new] = [b for b in at.button if b.label == "New ranking"]
    new.click().run()
    assert at.session_state["irlab.quiz.seed"] != 7 and not at.metric
    [box] = [t for t in at.text_input if t.label == "Your prediction"]
    seed = at.session_state["irlab.quiz.seed"]
    box.input(make_question(seed, "nDCG", 4).breakdown.display_value)
    [reveal] = [b for b in at.button if b.label == "Reveal"]
    reveal.click().run()
    assert "Your score this session: 1 of 2 predictions within the tolerance." in texts(at)


def _hostile_document() -> dict:
    document = json.loads(dump_exercise(NDCG))
    document["questions"][0]["measure"] = "nDCG(gains={1: 1e308, 2: 1e308})@5"
    return document


def test_a_file_that_would_overflow_is_refused_on_upload_with_the_field(builder_on):
    at = builder_on("Items")
    draft = at.session_state[DRAFT]
    upload(at, "overflow.json", json.dumps(_hostile_document()).encode())
    shown = texts(at)
    assert "Could not load overflow.json" in shown and "questions[0].measure" in shown and "1e+06" in shown, shown
    assert at.session_state[DRAFT] == draft


def test_a_link_holding_an_overflowing_exercise_gives_a_notice(open_page):
    packed = zlib.compress(json.dumps(_hostile_document()).encode(), 9)
    token = "ex1." + base64.urlsafe_b64encode(packed).decode().rstrip("=")
    at = open_page("practise", {"exercise": token})
    warnings = re.sub(r"\\(.)", r"\1", " ".join(w.value for w in at.warning))
    assert "could not be opened" in warnings and not at.exception


def test_download_my_answers_gives_a_file_the_grader_reads(open_page, downloads):
    from irlab.exercises.grading.grader import grade_answers_file

    at = open_page("practise", {"builtin": "ndcg-exercise", "seed": "4"})
    [button] = [b for b in at.get("download_button") if b.proto.label == "Download my answers"]
    assert button.proto.disabled  # nothing typed yet
    variant = make_variant(NDCG, 4)
    practice_answer(at, f"{explain_question(variant, variant.question('ndcg5-q1')).value:.4f}")
    [button] = [b for b in at.get("download_button") if b.proto.label == "Download my answers"]
    assert not button.proto.disabled
    data = downloads["Download my answers"]["data"]
    text = data() if callable(data) else data
    row = grade_answers_file(NDCG, text, "me.json")
    assert row.status == "graded" and row.seed == 4 and row.total == 1


def test_the_answer_placeholder_is_never_an_answer_and_counts_read_right(open_page):
    from irlab.errors import ValidationError
    from irlab.exercises.questions.answers import parse_answer

    at = open_page("practise")
    [box] = [t for t in at.text_input if t.label == "Your answer"]
    with pytest.raises(ValidationError, match="is not a number"):
        parse_answer(box.placeholder)  # not a number at all, so never the right one
    assert "1 questions" not in texts(at)


def test_the_questions_tab_warns_which_mistakes_a_question_cannot_catch(builder_on):
    """Issue 36: a question whose answer a known mistake gives too (AP@8 of an 8-item ranking cannot tell K from
    K + 1) is named with those mistakes, under the questions table."""
    at = builder_on("Questions")
    [warning] = [w.value.replace("\\", "") for w in at.warning if "cannot tell a known mistake" in w.value]
    assert "ap8-cat-in-a-box" in warning and "off-by-one cut-off: K + 1 items" in warning
    assert "precision-2" not in warning  # P@2 of the example tells every mistake apart
