""""Try this": two to four steps per chapter, none reached in the chapter's own example, each one reachable,
and every sentence speaks of the K and mode on screen."""

from __future__ import annotations

import itertools
import re
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from irlab.data.rankings import ideal_ranking
from irlab.walkthrough.chapters import CHAPTERS, chapter
from irlab.walkthrough.guide import steps
from irlab.walkthrough.state import DEFAULT_STATE, MODE_QUERY, OTHER_QUERIES, SCENARIO

IDS = list(SCENARIO.item_ids)


def _ideal(judgments) -> tuple[str, ...]:
    return tuple(ideal_ranking(judgments, IDS))


def _candidate_states():
    """A small set of moves a learner makes: K, mode, ideal or swapped orders, an edited grade, fewer returned."""
    binary = SCENARIO.query(MODE_QUERY["binary"])
    graded = SCENARIO.query(MODE_QUERY["graded"]).judgments
    ideal_others = {query: _ideal(SCENARIO.query(query).judgments) for query in OTHER_QUERIES}
    swapped = (binary.default_ranking[1], binary.default_ranking[0], *binary.default_ranking[2:])
    orders = (binary.default_ranking, swapped, _ideal(binary.judgments), _ideal(graded))
    edited = {**{item: graded.grade(item) for item in IDS}, "3": 0}
    for k, mode, order, others, grades, returned in itertools.product(
            range(1, 9), ("binary", "graded"), orders, ({}, ideal_others), (None, edited), (None, 2)):
        yield replace(DEFAULT_STATE, k=k, mode=mode, order=order, query_orders=others, grades=grades,
                      returned=returned)


CANDIDATES = list(_candidate_states())


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
        reached = {step.key for state in CANDIDATES for step in steps(state, chap) if step.reached}
        assert reached == keys, (chap.slug, keys - reached)


@settings(max_examples=150, deadline=None)
@given(st.permutations(IDS), st.integers(1, 8), st.sampled_from(["binary", "graded"]),
       st.sampled_from(CHAPTERS))
def test_a_step_names_only_the_k_on_screen(order, k, mode, chap):
    state = replace(DEFAULT_STATE, order=tuple(order), k=k, mode=mode)
    shown = state.effective_k(chap)
    for step in steps(state, chap):
        # "Recall@4", "NDCG@4": a measure at another cut-off than the slider's would be a stale sentence.
        assert {int(n) for n in re.findall(r"@(\d+)", step.text)} <= {shown}, step.text


def test_the_grade_step_says_to_switch_to_graded_only_in_binary_mode():
    ndcg = chapter("ndcg")
    texts = {mode: next(s.text for s in steps(replace(DEFAULT_STATE, mode=mode), ndcg) if s.key == "edit-grade")
             for mode in ("binary", "graded")}
    assert texts["binary"].startswith("Switch to graded relevance")
    assert "Switch to graded" not in texts["graded"]
