"""Preference judgments (-R prefs, qrels_prefs): the fast counts against the readable definition, and bad files.

hypothesis draws judgment groups of one sub-group (equivalence classes) and of several (transitive
preferences), levels 0 and above, and rankings that retrieve some of the judged documents among
others; every preference measure's kernel must equal its explanation bit for bit, and the numpy
counts the pair-by-pair ones. trec_eval's own numbers are checked by tests/cli (its test folder
and recorded outputs) and bench/trec_eval_diff.py (random files against the binary).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irlab.data.preferences import Judgments, PreferenceRankings, count_preferences, docid_ranks, preference_order
from irlab.errors import ValidationError
from irlab.metrics.measure_names import parse_measure
from irlab.metrics.preferences import count_group, group_preferences, pair_shares
from irlab.metrics.registry import FAMILIES
from irlab.runs.evaluate import evaluate_tables
from irlab.runs.preferences import judge_preferences, parse_preferences, preference_rows
from irlab.runs.trec import parse_run

DOCS = [f"d{i}" for i in range(10)] + ["D3", "a", "z"]
PREFERENCE_MEASURES = [f"{name}(scope={scope!r})" for name, family in FAMILIES.items() if family.judgments == "prefs"
                       for scope in (("all", "retrieved") if name == "PrefsAvgJGRnonrel" else
                                     ("all", "implied", "retrieved"))]


@st.composite
def preferences(draw) -> tuple[Judgments, list[str]]:
    """One query's judgment groups (each consistent: one latent level per document) and a ranking."""
    lines = []
    for group in draw(st.lists(st.sampled_from(["u1", "u2", "g", "0"]), min_size=1, max_size=3, unique=True)):
        docs = draw(st.lists(st.sampled_from(DOCS), min_size=1, max_size=8, unique=True))
        latent = {doc: draw(st.sampled_from([0.0, 0.0, 1.0, 2.0, 3.5])) for doc in docs}
        subgroups = draw(st.integers(1, 3))
        for sub in range(subgroups):
            shown = docs if subgroups == 1 else draw(st.lists(st.sampled_from(docs), min_size=1, unique=True))
            lines += [(group, f"s{sub}", doc, latent[doc]) for doc in shown]
    ranking = draw(st.lists(st.sampled_from(DOCS + ["x1", "x2"]), max_size=12, unique=True))
    return Judgments.of(lines), ranking


@settings(max_examples=300, deadline=None)
@given(case=preferences())
def test_the_numpy_counts_equal_the_pair_by_pair_definition(case):
    judgments, ranking = case
    fast = count_preferences(ranking, judgments, pairs=True)
    place, judged_ret = docid_ranks(ranking, judgments.judged())
    groups = group_preferences(judgments)
    assert fast.groups == tuple(count_group(g, place, judged_ret) for g in groups)
    terms, implied_from, neither = pair_shares(groups, place, judged_ret)
    assert fast.pairs.terms.tolist() == [share for _, _, share in terms]
    assert (fast.pairs.retrieved, fast.pairs.implied, fast.pairs.pairs) == (implied_from, len(terms),
                                                                            len(terms) + neither)


@pytest.mark.parametrize("text", PREFERENCE_MEASURES)
@settings(max_examples=60, deadline=None)
@given(cases=st.lists(preferences(), min_size=1, max_size=3))
def test_kernel_equals_the_explanation(text, cases):
    measure = parse_measure(text)
    rankings = PreferenceRankings([f"q{i}" for i in range(len(cases))], [r for _, r in cases], [j for j, _ in cases])
    values = measure.compute_all(rankings)
    for q, (judgments, ranking) in enumerate(cases):
        assert values[q].item() == measure.explain(ranking, judgments).value, (text, judgments, ranking)


def test_ties_are_broken_by_id_ascending_for_preferences():
    """trec_eval ranks tied documents by id descending for qrels, ascending for preferences."""
    assert preference_order(["b", "c", "a", "d"], [1.0, 1.0, 1.0, 2.0]) == ["d", "a", "b", "c"]
    run = parse_run(b"q Q0 b 1 1 r\nq Q0 c 2 1 r\nq Q0 a 3 1 r\n")
    table = parse_preferences(b"q u s a 2\nq u s b 1\nq u s c 0\n")
    judged = judge_preferences(table, run, depth=1)
    assert judged.rankings.rankings == (("a",),)  # -M 1 keeps the first by id, as trec_eval for preferences
    assert run.ranking("q")[0] == "c"
    rng = random.Random(7)  # the whole run at once (preference_rows) as each query's readable order
    lines = [f"q{q} Q0 {doc} 1 {rng.choice([1, 2, 2.5])} r" for q in range(4) for doc in rng.sample(DOCS, 9)]
    rng.shuffle(lines)
    run = parse_run(("\n".join(lines) + "\n").encode())
    ordered = [run.docs[i].as_py() for i in preference_rows(run)]
    for q, query in enumerate(run.query_ids):
        start, end = int(run.offsets[q]), int(run.offsets[q + 1])
        assert ordered[start:end] == preference_order(run.ranking(query), run.scores[start:end].tolist())


def test_a_judgment_group_that_contradicts_itself_is_refused():
    cycle = Judgments.of([("u", "1", "a", 2), ("u", "1", "b", 1), ("u", "2", "b", 2), ("u", "2", "a", 1)])
    for count in (lambda: count_preferences(["a"], cycle), lambda: group_preferences(cycle)):
        with pytest.raises(ValidationError, match="prefers 'a' to 'b' and the other way round|prefers 'b' to 'a'"):
            count()
    zero = Judgments.of([("u", "1", "a", 0), ("u", "1", "b", 1), ("u", "2", "a", 3), ("u", "2", "c", 1)])
    with pytest.raises(ValidationError, match="level 0 in one sub-group of judgment group 'u' and above 0"):
        count_preferences([], zero)
    # different groups may disagree: that is what judgment groups are for
    disagree = Judgments.of([("u1", "s", "a", 2), ("u1", "s", "b", 1), ("u2", "s", "b", 2), ("u2", "s", "a", 1)])
    assert [g.possible for g in count_preferences(["a", "b"], disagree).groups] == [1, 1]


BAD_FILES = {
    "four fields in prefs": (b"q u d1 1\n", False, "prefs.txt:1: a prefs line has 5 fields (query group subgroup doc "
                                                   "level), this one has 4 (a qrels_prefs line has 4"),
    "five fields in qrels_prefs": (b"q u s d1 1\n", True, "prefs.txt:1: a qrels_prefs line has 4 fields"),
    "level not a number": (b"q u s d1 1\nq u s d2 high\n", False, "prefs.txt:2: the level (last field) must be a "
                                                                 "number >= 0"),
    "negative level": (b"# note\nq u s d1 -1\n", False, "prefs.txt:2: the level (last field) must be a number >= 0"),
    "twice in a sub-group": (b"q u s d1 1\nq u t d1 1\nq u s d1 2\n", False,
                             "prefs.txt:3: document 'd1' is judged twice in sub-group 's' of judgment group 'u' of "
                             "query 'q' (lines 1 and 3)"),
    "twice in a qrels_prefs group": (b"q 0 d1 1\nq 0 d1 2\n", True, "is judged twice in judgment group '0'"),
    "empty": (b"\n# nothing\n", False, "prefs.txt: the file has no prefs lines"),
}


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_bad_files_name_the_line(case):
    data, qrels, message = BAD_FILES[case]
    with pytest.raises(ValidationError) as error:
        parse_preferences(data, "prefs.txt", qrels=qrels)
    assert message in str(error.value)


def test_measures_need_their_judgments():
    table = parse_preferences(b"q u s d1 1\nq u s d2 0\n")
    run = parse_run(b"q Q0 d1 1 1 r\n")
    with pytest.raises(ValidationError, match="map needs qrels"):
        evaluate_tables(table, run, {"map": parse_measure("map")})
    values = evaluate_tables(table, run, {"prefs_simp": parse_measure("prefs_simp"), "num_q": parse_measure("num_q")})
    assert values.summary == {"prefs_simp": 1.0, "num_q": 1}


def test_sizes_that_would_take_the_server_s_memory_or_time_are_refused(monkeypatch):
    from irlab.data import preferences

    monkeypatch.setattr(preferences, "MAX_JUDGED", 3)
    monkeypatch.setattr(preferences, "MAX_GROUP_DOCUMENTS", 2)
    four = Judgments.of([("u", "s", d, float(i)) for i, d in enumerate("abcd")])
    assert count_preferences(["a"], four).groups[0].possible == 6  # no pair counts asked: no limit
    with pytest.raises(ValidationError, match="mention 4 documents; counting the pairs of them .* limited to 3"):
        count_preferences(["a"], four, pairs=True)
    several = Judgments.of([("u", "1", "a", 1), ("u", "1", "b", 0), ("u", "2", "c", 2), ("u", "2", "a", 1)])
    with pytest.raises(ValidationError, match="several sub-groups over 3 documents; .* limited to 2 documents"):
        count_preferences(["a"], several)
