"""The kind "which is it": state questions computed by IR Lab, the concept bank's claims, hostile choices, shares."""

from __future__ import annotations

import pytest

from irlab.classroom.activities import kind
from irlab.classroom.activities.base import OPEN, REVEALED, Respondent, RoundAnswers, StoredAnswer
from irlab.classroom.activities.choice import CHOICE
from irlab.classroom.activities.concepts import CONCEPT, CONCEPTS
from irlab.errors import ValidationError
from irlab.metrics.average_precision import explain_average_precision
from irlab.metrics.dcg import explain_dcg_at_k, explain_ndcg_at_k
from irlab.metrics.precision_recall import explain_precision_at_k, explain_recall_at_k
from irlab.metrics.reciprocal_rank import explain_reciprocal_rank

ME = Respondent(number=1, seed=5)
FN4 = CHOICE.settings({"chapter": "actual-vs-predicted", "params": {"order": "1,2,3,4,5,6,7,8", "k": "4"},
                       "about": "class:FN"})


def stored(settings: dict, choices: list[list[str]]) -> tuple[StoredAnswer, ...]:
    result = []
    for number, raw in enumerate(choices, start=1):
        parsed = CHOICE.parse(settings, raw, ME)
        verdict = CHOICE.check(settings, parsed.value, ME)
        result.append(StoredAnswer(Respondent(number, number), parsed.text, parsed.value, verdict.correct,
                                   verdict.mistake, seconds=2.0))
    return tuple(result)


def test_the_kind_is_registered_and_settings_are_canonical():
    assert kind("choice") is CHOICE
    assert FN4 == {"chapter": "actual-vs-predicted", "about": "class:FN",
                   "params": {"order": "1,2,3,4,5,6,7,8", "k": "4", "rel": "binary"}}
    assert CHOICE.settings({"concept": "mrr"}) == {"concept": "mrr"}


@pytest.mark.parametrize("raw, problem", [
    ({"concept": "nope"}, "choose a concept question"),
    ({"concept": "mrr", "about": "class:FN"}, "choose a concept question"),
    ({"chapter": "ndcg", "params": {}, "about": "class:XX"}, "choose what to ask"),
    ({"chapter": "ndcg", "params": {}, "about": "lowest:AP"}, "question of the chapter 'AP@K and MAP@K'"),
    ({"chapter": "ndcg", "params": {"k": "9"}, "about": "class:TP"}, "K must be"),
])
def test_bad_settings_are_refused(raw, problem):
    with pytest.raises(ValidationError, match=problem):
        CHOICE.settings(raw)


def test_which_pictures_are_fn_at_k_4_by_hand():
    # binary "cat in a box": relevant 2, 4, 5, 7; the top 4 is 1, 2, 3, 4, so FN = relevant below K = 5 and 7
    assert CHOICE.solution(FN4).right == ("5", "7")
    assert CHOICE.check(FN4, ["5", "7"], ME).correct
    assert CHOICE.check(FN4, ["1", "3"], ME).mistake == "class-FP"  # returned, not relevant
    assert CHOICE.check(FN4, ["2", "4"], ME).mistake == "class-TP"
    assert CHOICE.check(FN4, ["5"], ME).mistake is None and not CHOICE.check(FN4, ["5"], ME).correct
    none = CHOICE.settings({"chapter": "actual-vs-predicted", "params": {"order": "2,4,5,7,1,3,6,8", "k": "4"},
                            "about": "class:FN"})
    assert CHOICE.solution(none).right == ("none",)  # every relevant picture is returned


def test_lowest_ap_and_rr_are_irlabs_and_ties_take_every_query():
    ap = CHOICE.settings({"chapter": "map", "params": {"k": "3"}, "about": "lowest:AP"})
    assert CHOICE.solution(ap).right == ("dark-cat",) and not CHOICE.question(ap).several
    tied = CHOICE.settings({"chapter": "map", "params": {"k": "1"}, "about": "lowest:AP"})  # AP@1: 0, 0.25, 0
    assert CHOICE.solution(tied).right == ("cat-in-a-box", "dark-cat") and CHOICE.question(tied).several
    assert CHOICE.question(tied).hint == "Choose every query that has it."
    rr = CHOICE.settings({"chapter": "mrr", "params": {}, "about": "lowest:RR"})
    assert CHOICE.solution(rr).right == ("dark-cat",) and "0.2" in CHOICE.solution(rr).why


@pytest.mark.parametrize("raw, problem", [
    (["9"], "There is no option '9'"),
    (["<script>"], "There is no option"),
    ([], "Choose at least one option"),
    (["none", "5"], "cannot go with a picture"),
    ("5" * 100, "Choose one of the options"),
    ([["5"]], "Choose one of the options"),
    ({"5": True}, "Choose one of the options"),
    (["5"] * 50, "Choose one of the options"),
])
def test_hostile_choices_are_refused_with_a_message(raw, problem):
    with pytest.raises(ValidationError, match=problem):
        CHOICE.parse(FN4, raw, ME)


def test_one_answer_questions_refuse_several_and_choices_are_kept_in_the_options_order():
    mrr = CHOICE.settings({"concept": "mrr"})
    with pytest.raises(ValidationError, match="has one answer"):
        CHOICE.parse(mrr, ["mean", "best"], ME)
    assert CHOICE.parse(FN4, ["7", "5", "7"], ME).value == ["5", "7"]


def test_shares_by_hand_live_from_three_answers_and_right_options_only_after_the_reveal():
    answers = stored(FN4, [["5", "7"], ["5", "7"], ["1", "3"], ["5"]])
    few, live, revealed, hidden = CHOICE.summarise(FN4, [
        RoundAnswers(1, OPEN, answers[:2], shown=True), RoundAnswers(2, OPEN, answers, shown=True),
        RoundAnswers(3, REVEALED, answers), RoundAnswers(4, OPEN, answers)])
    assert few.options is None and few.count == 2
    assert hidden.options is None and hidden.count == 4  # hidden until the reveal (the default): the count only
    counts = {o.id: o.count for o in live.options}
    assert (counts["5"], counts["7"], counts["1"], counts["3"], counts["2"]) == (3, 2, 1, 1, 0)
    assert all(o.right is None for o in live.options) and live.correct is None
    assert [o.id for o in revealed.options if o.right] == ["5", "7"] and revealed.correct == 2
    assert [(m.name, m.title, m.count) for m in revealed.mistakes] == [
        ("class-FP", "chose the false positives (FP) instead", 1)]


def test_feedback_says_why():
    right, wrong = stored(FN4, [["5", "7"], ["1", "3"]])
    assert CHOICE.feedback(FN4, right).message.startswith("Right: 5 Another white cat in a box")
    message = CHOICE.feedback(FN4, wrong).message
    assert "chose the false positives (FP) instead" in message and "FN = relevant but not returned" in message


# --- the concept bank's claims, against irlab's measures ------------------------------------------------------------

def test_the_bank_is_well_formed():
    for concept in CONCEPTS:
        ids = [o for o, _ in concept.options]
        assert len(set(ids)) == len(ids) and set(concept.right) <= set(ids) and concept.right
        assert concept.several or len(concept.right) == 1
        assert ("Choose every" in concept.prompt) == concept.several


def test_ap_divides_by_every_relevant_item_judged():
    # relevant: 1 (rank 1) and 9 (never returned): AP = (1/1) / 2
    assert CONCEPT["ap-denominator"].right == ("relevant",)
    assert explain_average_precision(["1", "2", "3"], {"1": 1, "9": 1}).value == pytest.approx(0.5)


def test_rr_without_a_relevant_item_is_zero():
    assert CONCEPT["rr-none-relevant"].right == ("zero",)
    assert explain_reciprocal_rank(["1", "2"], {"9": 1}).value == 0


def test_which_measures_never_fall_as_k_grows():
    ranking, grades = list("12345678"), {"1": 3, "2": 0, "3": 1, "4": 0, "5": 2, "6": 0, "7": 0, "8": 3}
    series = {
        "recall": [explain_recall_at_k(ranking, grades, k).value for k in range(1, 9)],
        "precision": [explain_precision_at_k(ranking, grades, k).value for k in range(1, 9)],
        "ndcg": [explain_ndcg_at_k(ranking, grades, k).value for k in range(1, 9)],
        "dcg": [explain_dcg_at_k(ranking, grades, k).value for k in range(1, 9)],
    }
    never_falls = {name for name, values in series.items() if all(b >= a - 1e-12 for a, b in zip(values, values[1:]))}
    assert never_falls == set(CONCEPT["grows-with-k"].right)


def test_a_relevance_level_of_two_counts_grades_two_and_up():
    grades = {str(g): g for g in range(5)}
    counted = {g for g in range(5) if explain_precision_at_k([str(g)], grades, 1, relevance_level=2).value == 1}
    assert {f"g{g}" for g in counted} == set(CONCEPT["relevance-level"].right)
