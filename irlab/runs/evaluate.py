"""Batch evaluation of many queries, with trec_eval's rules.

>>> qrels = {"q1": {"d1": 1, "d2": 0, "d3": 2}, "q2": {"d4": 1}}
>>> run = {"q1": {"d1": 0.9, "d2": 0.8, "d3": 0.1}, "q2": ["d5", "d4"], "q9": ["d1"]}
>>> evaluate(qrels, run, ["P@2", "RR"])
{'P@2': 0.5, 'RR': 0.75}
>>> evaluate(qrels, run, "RR", per_query=True)
{'RR': {'q1': 1.0, 'q2': 0.5}}

Rules (trec_eval's; docs/architecture.md, "Metric conventions"):

* a run query is a mapping ``{doc_id: score}``, ranked by score descending, ties by doc id
  descending (string order); or a sequence of doc ids already in rank order;
* only judged queries are evaluated: run queries without judgments are ignored;
* a judged query without any relevant document scores 0 and counts in the mean;
* a judged query missing from the run scores 0 and counts (trec_eval ``-c``); with
  ``missing_queries="ignore"`` it is left out (trec_eval without ``-c``);
* ``relevance_level`` is trec_eval's ``-l`` (grade >= level is relevant; nDCG uses the grades
  themselves); ``depth`` is trec_eval's ``-M`` (only the top ``depth`` of each ranking count).

Unknown measure names raise :class:`irlab.errors.ValidationError` listing the valid ones.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

from irlab.data.judgments import check_grade, check_item_id, check_relevance_level
from irlab.data.rankings import check_cutoff, check_ranking, rank_by_score
from irlab.errors import ValidationError
from irlab.metrics.registry import Measure, parse_measure

Qrels = Mapping[str, Mapping[str, int]]
Run = Mapping[str, Mapping[str, float] | Sequence[str]]


def evaluate(qrels: Qrels, run: Run, measures: str | Measure | Iterable[str | Measure], per_query: bool = False, *,
             relevance_level: int = 1, missing_queries: str = "zero",
             depth: int | None = None) -> dict[str, float] | dict[str, dict[str, float]]:
    """Evaluate ``run`` against ``qrels`` with each measure.

    Returns ``{measure: mean over queries}``, or with ``per_query=True``
    ``{measure: {query_id: value}}`` (queries missing from the run appear with 0 when they count).
    Keys are the measure names as given.
    """
    named = [measures] if isinstance(measures, (str, Measure)) else list(measures)
    if not named:
        raise ValidationError("no measures given; name at least one, e.g. 'nDCG@10'")
    parsed = {str(name) if isinstance(name, Measure) else name: parse_measure(name) for name in named}
    relevance_level = check_relevance_level(relevance_level)
    depth = check_cutoff(depth)
    if missing_queries not in ("zero", "ignore"):
        raise ValidationError(f"missing_queries must be 'zero' or 'ignore', got {missing_queries!r}")
    judged = _check_qrels(qrels)
    rankings = {query: _ranking(query, run[query], depth) for query in judged if query in run}
    if missing_queries == "zero":
        rankings = {query: rankings.get(query, ()) for query in judged}
    if not rankings:
        raise ValidationError("no query has both judgments and a ranking, so there is nothing to average")
    scores = {name: {query: measure.compute(ranking, judged[query], relevance_level=relevance_level)
                     for query, ranking in rankings.items()}
              for name, measure in parsed.items()}
    if per_query:
        return scores
    return {name: math.fsum(values.values()) / len(values) for name, values in scores.items()}


def _check_qrels(qrels: Qrels) -> dict[str, dict[str, int]]:
    """Qrels with checked ids and whole-number grades (negative grades allowed: trec's unjudged)."""
    if not isinstance(qrels, Mapping):
        raise ValidationError("qrels must map query ids to {doc_id: grade}")
    checked = {}
    for query in sorted(qrels):
        docs = qrels[query]
        check_item_id(query, path="qrels")
        if not isinstance(docs, Mapping):
            raise ValidationError("the judgments of a query must map doc ids to grades", path=f"qrels[{query!r}]")
        checked[query] = {check_item_id(doc, path=f"qrels[{query!r}]"):
                          check_grade(grade, path=f"qrels[{query!r}][{doc!r}]", allow_negative=True)
                          for doc, grade in docs.items()}
    return checked


def _ranking(query: str, ranked: Mapping[str, float] | Sequence[str], depth: int | None) -> tuple[str, ...]:
    """The query's ranking: sorted by score (trec_eval order) or as given, cut at ``depth``."""
    path = f"run[{query!r}]"
    try:
        ranking = rank_by_score(ranked) if isinstance(ranked, Mapping) else check_ranking(ranked)
    except ValidationError as error:
        raise ValidationError(error.message, path=path) from None
    return tuple(ranking[:depth] if depth else ranking)
