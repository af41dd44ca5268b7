""""Try this": two to four steps per chapter, none reached in the chapter's own example, each one reachable,
every sentence speaks of the K and mode on screen, and doing a step as written ticks it off with exactly the
numbers it promised."""

from __future__ import annotations

import itertools
import re
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from irlab.data.rankings import ideal_ranking
from irlab.explain.formula import format_number
from irlab.scenarios.cats_in_boxes import WHITE_CAT_IN_A_BOX
from irlab.walkthrough.chapters import CHAPTERS, chapter
from irlab.walkthrough.guide import steps
from irlab.walkthrough.state import DEFAULT_STATE, MODE_QUERY, OTHER_QUERIES, SCENARIO, WalkthroughState
from irlab.walkthrough.urlstate import SETTINGS
from irlab.walkthrough.views import chapter_view

IDS = list(SCENARIO.item_ids)
MAX_GRADE = SCENARIO.query(WHITE_CAT_IN_A_BOX).judgments.max_grade


def _ideal(judgments) -> tuple[str, ...]:
    return tuple(ideal_ranking(judgments, IDS))


def _candidate_states():
    """A small set of moves a learner makes: K, mode, ideal or swapped orders, an edited grade, fewer returned."""
    binary = SCENARIO.query(MODE_QUERY["binary"])
    graded = SCENARIO.query(MODE_QUERY["graded"]).judgments
    ideal_others = {query: _ideal(SCENARIO.query(query).judgments) for query in OTHER_QUERIES}
    reversed_others = {query: SCENARIO.query(query).default_ranking[::-1] for query in OTHER_QUERIES}
    swapped = (binary.default_ranking[1], binary.default_ranking[0], *binary.default_ranking[2:])
    orders = (binary.default_ranking, swapped, _ideal(binary.judgments), _ideal(graded))
    edited = {**{item: graded.grade(item) for item in IDS}, "3": 0}
    for k, mode, order, others, grades, returned in itertools.product(
            range(1, 9), ("binary", "graded"), orders, ({}, ideal_others, reversed_others), (None, edited), (None, 2)):
        yield replace(DEFAULT_STATE, k=k, mode=mode, order=order, query_orders=others, grades=grades,
                      returned=returned)
    for setting in SETTINGS.values():  # every chapter's settings at their ends (the relevance level, p, ...)
        for value in (setting.choices[0], setting.choices[-1]):
            for mode, order in itertools.product(("binary", "graded"), orders):
                yield replace(DEFAULT_STATE, mode=mode, order=order, **{setting.name: value})


CANDIDATES = list(_candidate_states())


# --- the guide's grammar (see irlab/walkthrough/guide.py), parsed ------------------------------------------

NUMBER = r"-?\d+(?:\.\d+)?"
MEASURE = r"[A-Z][A-Za-z]*(?:@\d+)?(?: of \u201c[^\u201d]+\u201d)?"
CLAIMS = (
    (re.compile(rf"({MEASURE}) (?:goes )?from ({NUMBER}) to ({NUMBER})"), ("now", "after")),
    (re.compile(rf"({MEASURE}) stays ({NUMBER})"), ("now", "after")),
    (re.compile(rf"({MEASURE}) is ({NUMBER}) now"), ("now",)),
    (re.compile(rf"({MEASURE}) = ({NUMBER})"), ("now",)),
)


def claims(text: str) -> list[tuple[str, str, str]]:
    """(measure, "now" or "after", the number as written) for every number the sentence promises."""
    found = []
    for pattern, when in CLAIMS:
        for match in pattern.finditer(text):
            label, *numbers = match.groups()
            found += [(label, w, numbers[min(i, len(numbers) - 1)]) for i, w in enumerate(when)]
    return found


def shown(view: object, measure: str) -> str:
    """The number ``measure`` (as the guide writes it) has in ``view``, as the page shows it."""
    if measure == "K":
        return str(view.k)
    values = {item.label: item.value for item in view.headline}
    name, _, query = measure.partition(" of ")
    query = query.strip("\u201c\u201d")
    k = view.k
    candidates = ([f"{name} \u00b7 {query}", f"{name}@{k} \u00b7 {query}"] if query else [name, f"{name}@{k}"])
    label = next((c for c in candidates if c in values), None)
    assert label is not None, (measure, sorted(values))
    return format_number(values[label])


def check_step(state: WalkthroughState, chap, step) -> None:
    """The step's promises hold: its numbers now, and after its move that it ticks off with the numbers promised."""
    now = chapter_view(state, chap)
    after = None
    if not step.reached:
        assert step.move is not None and step.move != state, step.text
        assert any(s.key == step.key and s.reached for s in steps(step.move, chap)), (step.text, step.move)
        after = chapter_view(step.move, chap)
    else:
        assert step.move is None, step.text
    for measure, when, number in claims(step.text):
        if when == "after":
            assert after is not None, (step.text, measure)
        view = now if when == "now" else after
        assert shown(view, measure) == number, (step.text, measure, when, number, shown(view, measure))
    for moved in re.finditer(rf"({MEASURE}) (?:goes )?from ({NUMBER}) to ({NUMBER})", step.text):
        assert moved.group(2) != moved.group(3), step.text  # no "goes from 1 to 1"


GRADES = st.none() | st.dictionaries(st.sampled_from(IDS), st.integers(0, MAX_GRADE)).map(
    lambda edits: {**dict(SCENARIO.query(WHITE_CAT_IN_A_BOX).judgments), **edits})
STATES = st.builds(
    WalkthroughState, order=st.permutations(IDS).map(tuple), k=st.none() | st.integers(1, 8),
    mode=st.sampled_from([None, "binary", "graded"]), grades=GRADES,
    query_orders=st.dictionaries(st.sampled_from(OTHER_QUERIES), st.permutations(IDS).map(tuple)),
    **{name: st.none() | st.sampled_from(setting.choices) for name, setting in SETTINGS.items()})
"""Any state: every chapter's settings (``level``, ``returned``, ...) unset or at any of their choices."""


@settings(max_examples=300, deadline=None)
@given(STATES, st.sampled_from(CHAPTERS))
def test_doing_a_step_as_written_ticks_it_off_with_the_numbers_it_promised(state, chap):
    for step in steps(state, chap):
        check_step(state, chap, step)


def test_the_guide_claims_of_every_chapter_and_candidate_state_hold():
    for chap in CHAPTERS:
        for state in CANDIDATES[::7]:
            for step in steps(state, chap):
                check_step(state, chap, step)


def test_the_parser_reads_every_form_of_the_grammar():
    assert claims("Set K = 8: Recall goes from 0.25 to 1 and Precision stays 0.5; TP is 3 now") == [
        ("Recall", "now", "0.25"), ("Recall", "after", "1"), ("Precision", "now", "0.5"),
        ("Precision", "after", "0.5"), ("TP", "now", "3"), ("K", "now", "8")]
    assert claims("AP@8 of \u201cdark cat\u201d goes from 0.225 to 0.6667 and MAP@8 from 0.4786 to 0.6258") == [
        ("AP@8 of \u201cdark cat\u201d", "now", "0.225"), ("AP@8 of \u201cdark cat\u201d", "after", "0.6667"),
        ("MAP@8", "now", "0.4786"), ("MAP@8", "after", "0.6258")]


def test_issue_20_map_step_one_ticks_off_as_written_and_no_step_promises_an_unreachable_map():
    map_chapter = chapter("map")
    first = steps(DEFAULT_STATE.with_preset(map_chapter), map_chapter)[0]
    assert ("drag picture 7 from rank 8 to rank 1: AP@8 of \u201cdark cat\u201d goes from 0.225 to 0.6667 and "
            "MAP@8 from 0.4786 to 0.6258") in first.text
    assert steps(first.move, map_chapter)[0].reached
    every_query_ideal = replace(DEFAULT_STATE, k=2, order=_ideal(SCENARIO.query(MODE_QUERY["binary"]).judgments),
                                query_orders={q: _ideal(SCENARIO.query(q).judgments) for q in OTHER_QUERIES})
    texts = " ".join(step.text for step in steps(every_query_ideal, map_chapter))
    assert "MAP@2 = 1" not in texts and "from 1 to 1" not in texts
    best = next(step for step in steps(every_query_ideal, map_chapter) if step.key == "map-best")
    assert best.reached and "MAP@2 is 0.6667 now, the highest it can be at K = 2" in best.text


def test_each_chapter_has_two_to_four_steps_and_none_is_reached_in_its_own_example():
    for chap in CHAPTERS:
        example = DEFAULT_STATE.with_preset(chap)
        chapter_steps = steps(example, chap)
        assert 2 <= len(chapter_steps) <= 4, chap.slug
        assert len({step.key for step in chapter_steps}) == len(chapter_steps)
        assert not any(step.reached for step in chapter_steps), chap.slug
        assert all(step.text.strip() for step in chapter_steps)


def test_every_step_can_be_ticked_off_by_some_move():
    for chap in CHAPTERS:
        keys = {step.key for step in steps(DEFAULT_STATE.with_preset(chap), chap)}
        reached = set()
        for state in CANDIDATES:
            reached |= {step.key for step in steps(state, chap) if step.reached}
            if reached >= keys:
                break
        assert reached == keys, (chap.slug, keys - reached)


@settings(max_examples=150, deadline=None)
@given(st.permutations(IDS), st.integers(1, 8), st.sampled_from(["binary", "graded"]),
       st.sampled_from(CHAPTERS))
def test_a_step_names_only_the_k_on_screen(order, k, mode, chap):
    state = replace(DEFAULT_STATE, order=tuple(order), k=k, mode=mode)
    shown_k = state.effective_k(chap)
    for step in steps(state, chap):
        # "Recall@4", "NDCG@4": a measure at another cut-off than the slider's would be a stale sentence.
        assert {int(n) for n in re.findall(r"@(\d+)", step.text)} <= {shown_k}, step.text


def test_the_grade_step_says_to_switch_to_graded_only_in_binary_mode():
    ndcg = chapter("ndcg")
    texts = {mode: next(s.text for s in steps(replace(DEFAULT_STATE, mode=mode), ndcg) if s.key == "edit-grade")
             for mode in ("binary", "graded")}
    assert texts["binary"].startswith("Switch to graded relevance")
    assert "Switch to graded" not in texts["graded"]
