"""The runs page's link: strict parsing, one notice per refused part, and the round trip."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from irlab.runs.linkstate import RunsView, parse_link, to_link


def test_round_trip():
    view = RunsView(source="files", run="my run.txt", query="401", measure="nDCG@10", k=5, a="x", b="y")
    assert parse_link(to_link(view)) == (view, [])


@pytest.mark.parametrize("k", ["１０", "1e3", "-3", "0", "10001", "٣", "10.0", " 5", ""])
def test_k_only_from_ascii_digits_in_range(k):
    view, notices = parse_link({"k": k})
    assert view.k is None and len(notices) == 1 and "digits 0-9" in notices[0]


def test_many_unknown_parameters_give_one_notice():
    view, notices = parse_link({f"p{i}": "1" for i in range(300)} | {"run": "bm25"})
    assert view.run == "bm25" and len(notices) == 1 and "and 295 more" in notices[0]


def test_bad_names_and_source_are_refused_the_rest_applies():
    view, notices = parse_link({"run": "a\x00b", "query": "x" * 500, "source": "ftp", "measure": "AP"})
    assert view == RunsView(measure="AP") and len(notices) == 3


@given(st.dictionaries(st.sampled_from(["source", "run", "query", "measure", "k", "a", "b", "zzz"]), st.text()))
def test_any_link_parses_without_error(params):
    view, notices = parse_link(params)
    assert isinstance(view, RunsView) and all(isinstance(n, str) for n in notices)
