r"""The counts trec_eval prints before any measure: queries, retrieved, relevant, relevant retrieved.

* ``NumRet`` (trec_eval ``num_ret``): documents retrieved for the query (after ``-M``/``-J``);
* ``NumRel`` (``num_rel``): relevant documents judged, :math:`R`, retrieved or not;
* ``NumRelRet`` (``num_rel_ret``): relevant documents retrieved, :math:`TP`;
* ``NumNonRelJudgedRet`` (``num_nonrel_judged_ret``): judged non-relevant documents retrieved;
* ``NumQ`` (``num_q``): 1 per evaluated query.

They are summed over queries, not averaged (trec_eval's ``all`` line), except ``NumQ``, which
counts the queries. One quirk kept from trec_eval: with ``-c`` the summary of ``num_rel``
counts every judgment with a grade above 0 in the qrels, whatever the relevance level.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from irlab.data.columns import NOT_RANKED, JudgedRankings
from irlab.data.judgments import DEFAULT_RELEVANCE_LEVEL, check_relevance_level, num_relevant
from irlab.data.rankings import check_ranking
from irlab.explain.breakdown import Breakdown, Column
from irlab.explain.formula import Num, SetSize
from irlab.metrics.bpref import judged_status


def _count(name: str, words: str, members: Sequence[str], notes: Sequence[str] = ()) -> Breakdown:
    plugged = SetSize(tuple(members))
    return Breakdown(measure=name, value=len(members), lhs=rf"\mathrm{{{name}}}",
                     symbolic=rf"\mathrm{{{name}}} = \lvert \text{{{words}}} \rvert", symbolic_text=f"{name} = {words}",
                     plugged=plugged, rows=tuple({"item": m} for m in members), columns=(Column("item", "document"),),
                     notes=tuple(notes))


def _retrieved(ranking: Sequence[str]) -> list[str]:
    return [item for item in check_ranking(ranking) if item != NOT_RANKED]


def explain_num_ret(ranking: Sequence[str], judgments: Mapping[str, int]) -> Breakdown:
    """The number of documents retrieved (a missing query's placeholder is not a document).

    >>> explain_num_ret(["a", "b"], {}).value
    2
    """
    return _count("NumRet", "documents retrieved", _retrieved(ranking))


def explain_num_rel(ranking: Sequence[str], judgments: Mapping[str, int], *,
                    relevance_level: int = DEFAULT_RELEVANCE_LEVEL) -> Breakdown:
    """R: the relevant documents judged for the query, retrieved or not.

    >>> explain_num_rel(["a"], {"a": 1, "b": 2, "c": 0}).plugged_text
    'NumRel = |{a, b}| = 2'
    """
    level = check_relevance_level(relevance_level)
    return _count("NumRel", "relevant documents judged", [d for d, g in judgments.items() if g >= level])


def explain_num_rel_ret(ranking: Sequence[str], judgments: Mapping[str, int], *,
                        relevance_level: int = DEFAULT_RELEVANCE_LEVEL) -> Breakdown:
    """TP: the relevant documents retrieved.

    >>> explain_num_rel_ret(["a", "x"], {"a": 1, "b": 2}).value
    1
    """
    level = check_relevance_level(relevance_level)
    return _count("NumRelRet", "relevant documents retrieved",
                  [d for d in _retrieved(ranking) if judged_status(judgments, d, level) == "relevant"])


def explain_num_nonrel_judged_ret(ranking: Sequence[str], judgments: Mapping[str, int], *,
                                  relevance_level: int = DEFAULT_RELEVANCE_LEVEL) -> Breakdown:
    """The judged non-relevant documents retrieved (grade 0 up to below the relevance level).

    >>> explain_num_nonrel_judged_ret(["a", "b", "x"], {"a": 0, "b": 1}).value
    1
    """
    level = check_relevance_level(relevance_level)
    return _count("NumNonRelJudgedRet", "judged non-relevant documents retrieved",
                  [d for d in _retrieved(ranking) if judged_status(judgments, d, level) == "non-relevant"])


def explain_num_q(ranking: Sequence[str], judgments: Mapping[str, int]) -> Breakdown:
    """1: an evaluated query counts once in ``num_q``.

    >>> explain_num_q([], {"a": 1}).value
    1
    """
    return Breakdown(measure="NumQ", value=1, lhs=r"\mathrm{NumQ}", symbolic=r"\mathrm{NumQ} = 1",
                     symbolic_text="each evaluated query counts 1", plugged=Num(1))


def num_ret_kernel(rankings: JudgedRankings) -> np.ndarray:
    """Documents retrieved per query (trec_eval ``num_ret``)."""
    return rankings.num_ret.astype(np.float64)


def num_rel_kernel(rankings: JudgedRankings, *, relevance_level: int = DEFAULT_RELEVANCE_LEVEL) -> np.ndarray:
    """Relevant documents judged per query (trec_eval ``num_rel``)."""
    return rankings.num_rel(relevance_level).astype(np.float64)


def num_rel_ret_kernel(rankings: JudgedRankings, *, relevance_level: int = DEFAULT_RELEVANCE_LEVEL) -> np.ndarray:
    """Relevant documents retrieved per query (trec_eval ``num_rel_ret``)."""
    return rankings.num_rel_ret(relevance_level).astype(np.float64)


def num_nonrel_judged_ret_kernel(rankings: JudgedRankings, *,
                                 relevance_level: int = DEFAULT_RELEVANCE_LEVEL) -> np.ndarray:
    """Judged non-relevant documents retrieved per query (trec_eval ``num_nonrel_judged_ret``)."""
    grades = rankings.grades
    return rankings.count_at((grades >= 0) & (grades < relevance_level), None).astype(np.float64)


def num_q_kernel(rankings: JudgedRankings) -> np.ndarray:
    """1 per evaluated query (trec_eval ``num_q``)."""
    return np.ones(len(rankings))


def num_relevant_any(judgments: Mapping[str, int]) -> int:
    """Judgments with a grade above 0: what trec_eval's ``num_rel`` sums over all qrels queries with ``-c``.

    >>> num_relevant_any({"a": 2, "b": 0, "c": -1})
    1
    """
    return num_relevant(judgments, 1)
