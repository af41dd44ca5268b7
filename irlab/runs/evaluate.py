"""Batch evaluation of many queries with trec_eval's rules: ``irlab.evaluate`` and the engine behind the CLI.

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

The engine reads the run and qrels into columns (:mod:`irlab.runs.trec`), joins them once
(:mod:`irlab.runs.judge`) and computes every measure with its vectorised kernel; each kernel is
checked against the measure's readable ``explain_*`` definition, which explains one query.
Summaries over queries follow trec_eval: the mean, added query by query in trec_eval's order;
the geometric mean for ``GMAP``/``GMBpref``; sums for the counts; the number of queries for ``NumQ``.

Unknown measure names raise :class:`irlab.errors.ValidationError` listing the valid ones.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from numbers import Real

import numpy as np
import pyarrow as pa

from irlab.data.judgments import check_grade, check_item_id, check_relevance_level
from irlab.data.rankings import check_cutoff, check_ranking
from irlab.errors import ValidationError
from irlab.metrics.registry import Measure, parse_measure
from irlab.runs.judge import JudgedRun, judge
from irlab.runs.trec import QrelsTable, RunTable, qrels_table, run_table

Qrels = Mapping[str, Mapping[str, int]]
Run = Mapping[str, Mapping[str, float] | Sequence[str]]

MIN_GEO_MEAN = 0.00001
"""trec_eval's floor for the geometric mean (``gm_map``): a query's value counts at least this."""

@dataclass(frozen=True)
class Evaluation:
    """Every measure's value per query and over all queries, for one run (what the CLI prints).

    ``per_query[name]`` lists values in the order of ``queries`` (trec_eval's order); ``summary``
    holds the ``all`` line's value (None for measures trec_eval only prints per query).
    """

    judged: JudgedRun
    measures: dict[str, Measure]
    per_query: dict[str, np.ndarray | list[str]]
    summary: dict[str, float | int | str | None]

    @property
    def queries(self) -> tuple[str, ...]:
        return self.judged.queries


def evaluate_tables(qrels: QrelsTable, run: RunTable, measures: Mapping[str, Measure], *, relevance_level: int = 1,
                    complete: bool = True, depth: int | None = None, judged_only: bool = False) -> Evaluation:
    """Evaluate a run table against a qrels table (the CLI's and the runs page's entry point)."""
    relevance_level = check_relevance_level(relevance_level)
    judged = judge(qrels, run, complete=complete, depth=depth, judged_only=judged_only)
    per_query, summary = {}, {}
    for name, measure in measures.items():
        if measure.family == "runid":
            per_query[name], summary[name] = [], run.runid
            continue
        values = measure.compute_all(judged.rankings, relevance_level=relevance_level)
        per_query[name] = values
        summary[name] = summarise(measure, values, judged, relevance_level=relevance_level)
    return Evaluation(judged, dict(measures), per_query, summary)


def summarise(measure: Measure, values: np.ndarray | list[str], judged: JudgedRun, *,
              relevance_level: int = 1) -> float | int | None:
    """The ``all`` value of one measure: trec_eval's mean, geometric mean, sum or count.

    The mean adds the queries one by one in trec_eval's order (``np.cumsum`` is sequential), so
    its last digit is trec_eval's.
    """
    kind = measure.definition.summary
    n = len(judged.queries)
    if kind == "none":
        return None
    if kind == "queries":
        return n
    if kind == "sum":
        if measure.family == "NumRel" and judged.complete:
            # trec_eval's -c summary of num_rel counts every grade above 0, whatever the level
            return int(judged.rankings.level_counts[:, 1:].sum())
        return int(np.sum(np.asarray(values, dtype=np.int64)))
    if kind == "gmean":
        logs = np.array([math.log(max(float(v), MIN_GEO_MEAN)) for v in values])
        return math.exp(float(np.cumsum(logs)[-1]) / n) if n else 0.0
    return float(np.cumsum(np.asarray(values, dtype=np.float64))[-1]) / n if n else 0.0


def evaluate(qrels: Qrels, run: Run, measures: str | Measure | Iterable[str | Measure], per_query: bool = False, *,
             relevance_level: int = 1, missing_queries: str = "zero",
             depth: int | None = None) -> dict[str, float] | dict[str, dict[str, float]]:
    """Evaluate ``run`` against ``qrels`` with each measure.

    Returns ``{measure: value over queries}`` (the mean for most measures, as trec_eval's ``all``
    line), or with ``per_query=True`` ``{measure: {query_id: value}}`` (queries missing from the
    run appear with their score when they count). Keys are the measure names as given.
    """
    named = [measures] if isinstance(measures, (str, Measure)) else list(measures)
    if not named:
        raise ValidationError("no measures given; name at least one, e.g. 'nDCG@10'")
    parsed = {str(name) if isinstance(name, Measure) else name: parse_measure(name) for name in named}
    if missing_queries not in ("zero", "ignore"):
        raise ValidationError(f"missing_queries must be 'zero' or 'ignore', got {missing_queries!r}")
    evaluation = evaluate_tables(qrels_from_mapping(qrels), run_from_mapping(run), parsed,
                                 relevance_level=relevance_level, complete=missing_queries == "zero",
                                 depth=check_cutoff(depth))
    if per_query:
        return {name: dict(zip(evaluation.queries, _python(values)))
                for name, values in evaluation.per_query.items()}
    return dict(evaluation.summary)


def _python(values: np.ndarray | list[str]) -> list:
    return values if isinstance(values, list) else values.tolist()


def qrels_from_mapping(qrels: Qrels, name: str = "qrels") -> QrelsTable:
    """``{query: {doc: grade}}`` as a :class:`QrelsTable`, every id and grade checked (negative grades allowed)."""
    if not isinstance(qrels, Mapping):
        raise ValidationError("qrels must map query ids to {doc_id: grade}")
    queries, docs, grades, empty = [], [], [], []
    for query, judged in qrels.items():
        check_item_id(query, path="qrels")
        if not isinstance(judged, Mapping):
            raise ValidationError("the judgments of a query must map doc ids to grades", path=f"qrels[{query!r}]")
        if not judged:
            empty.append(query)
        for doc, grade in judged.items():
            queries.append(query)
            docs.append(check_item_id(doc, path=f"qrels[{query!r}]"))
            grades.append(check_grade(grade, path=f"qrels[{query!r}][{doc!r}]", allow_negative=True))
    if not grades and not empty:
        raise ValidationError("the qrels hold no judgments, so no query has both judgments and a ranking")
    return qrels_table(name, pa.array(queries, pa.string()), pa.array(docs, pa.string()), np.array(grades, np.int64),
                       empty_queries=empty)


def run_from_mapping(run: Run, name: str = "run", runid: str = "") -> RunTable:
    """``{query: {doc: score}}`` or ``{query: [doc, ...]}`` as a :class:`RunTable` (ranked as trec_eval)."""
    if not isinstance(run, Mapping):
        raise ValidationError("a run must map query ids to {doc_id: score} or to a ranked list of doc ids")
    queries, docs, scores = [], [], []
    for query, ranked in run.items():
        check_item_id(query, path="run")
        path = f"run[{query!r}]"
        if isinstance(ranked, Mapping):
            for doc, score in ranked.items():
                check_item_id(doc, path=path)
                if isinstance(score, bool) or not isinstance(score, Real) or math.isnan(score):
                    raise ValidationError(f"the score of document {doc!r} must be a number, got {score!r}", path=path)
                queries.append(query)
                docs.append(doc)
                scores.append(float(score))
        else:
            try:
                ranking = check_ranking(ranked)
            except ValidationError as error:
                raise ValidationError(error.message, path=path) from None
            queries.extend([query] * len(ranking))
            docs.extend(ranking)
            scores.extend(range(len(ranking), 0, -1))  # already ranked: descending scores keep the order
    if not scores:
        raise ValidationError("the run ranks no documents")
    return run_table(name, pa.array(queries, pa.string()), pa.array(docs, pa.string()),
                     np.array(scores, dtype=np.float64), runid)
