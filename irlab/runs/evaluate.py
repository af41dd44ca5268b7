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
* a judged query missing from the run scores 0 and counts (trec_eval ``-c``, TREC reports); with
  ``missing_queries="ignore"`` it is left out (trec_eval 9 without ``-c``; trec_eval 10.0 refuses
  such a run without ``-c``, and so does the command line: :mod:`irlab.cli.evaluate`);
* ``relevance_level`` is trec_eval's ``-l`` (grade >= level is relevant; nDCG uses the grades
  themselves); ``depth`` is trec_eval's ``-M`` (only the top ``depth`` of each ranking count).

The engine reads the run and qrels into columns (:mod:`irlab.runs.trec`), joins them
(:mod:`irlab.runs.judge`) and computes every measure with its vectorised kernel; each kernel is
checked against the measure's readable ``explain_*`` definition, which explains one query. A run
file is read and evaluated a block of whole topics at a time (:func:`evaluate_run_file`,
:mod:`irlab.runs.stream`), so memory stays bounded; :func:`evaluate_tables` evaluates a run
already in memory (the runs page), and keeps the join to explain queries from.
Summaries over queries follow trec_eval: the mean, added query by query in trec_eval's order;
the geometric mean for ``GMAP``/``GMBpref``; sums for the counts; the number of queries for ``NumQ``.

Unknown measure names raise :class:`irlab.errors.ValidationError` listing the valid ones.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from numbers import Real
from pathlib import Path

import numpy as np
import pyarrow as pa

from irlab.data.judgments import check_grade, check_item_id, check_relevance_level
from irlab.data.rankings import check_ranking
from irlab.errors import ValidationError
from irlab.metrics.measure_names import parse_measure
from irlab.metrics.registry import Measure
from irlab.runs.judge import JudgedRun, check_depth, judge, no_overlap_message
from irlab.runs.judgment_groups import GroupedQrels, judge_groups
from irlab.runs.preferences import PreferenceTable, judge_preferences
from irlab.runs.stream import BLOCK_BYTES, ReadWhole, TopicBlocks
from irlab.runs.trec import MAX_FILE_BYTES, QrelsTable, RunBlock, RunTable, qrels_table, read_run_file, run_table

Qrels = Mapping[str, Mapping[str, int]]
Run = Mapping[str, Mapping[str, float] | Sequence[str]]

JudgmentTable = QrelsTable | GroupedQrels | PreferenceTable
"""What a run is evaluated against (trec_eval's ``-R``): qrels, qrels by judgment group, or preferences."""

MIN_GEO_MEAN = 0.00001
"""trec_eval's floor for the geometric mean (``gm_map``): a query's value counts at least this."""
EVALUATORS = 2
"""Blocks of a run file evaluated at once (threads): the machines IR Lab runs on have two cores or more."""


@dataclass(frozen=True)
class Evaluation:
    """Every measure's value per query and over all queries, for one run (what the CLI prints).

    ``per_query[name]`` lists values in the order of ``queries`` (trec_eval's order); ``summary``
    holds the ``all`` line's value (None for measures trec_eval only prints per query).
    ``missed`` are the judged queries the run does not rank (in trec_eval's order): with
    ``complete`` they are among ``queries`` and score as trec_eval ``-c`` scores them (0 for every
    measure of the official set), without it they are left out. ``unjudged`` counts the run's
    queries without judgments (never evaluated). ``judged`` is the join itself, kept when the run
    was evaluated from a table in memory (the runs page explains queries from it); a file read
    topic by topic keeps only the values. ``zscored``: the values are z-scores (trec_eval's ``-Z``,
    :func:`irlab.runs.zscores.standardised`).
    """

    run_name: str
    runid: str
    queries: tuple[str, ...]
    measures: dict[str, Measure]
    per_query: dict[str, np.ndarray | list[str]]
    summary: dict[str, float | int | str | None]
    missed: tuple[str, ...] = ()
    unjudged: int = 0
    complete: bool = True
    judged: JudgedRun | None = field(default=None, repr=False)
    zscored: bool = False

    @property
    def judged_queries(self) -> int:
        """How many queries the qrels judge (evaluated or not)."""
        return len(self.queries) + (0 if self.complete else len(self.missed))

    @property
    def missing(self) -> np.ndarray:
        """Per query of ``queries``: whether the run does not rank it (always False without ``complete``)."""
        missed = set(self.missed)
        return np.array([query in missed for query in self.queries], dtype=bool)


def evaluate_tables(qrels: JudgmentTable, run: RunTable, measures: Mapping[str, Measure], *,
                    relevance_level: int = 1, complete: bool = True, depth: int | None = None,
                    judged_only: bool = False) -> Evaluation:
    """Evaluate a run table against a qrels table (the runs page's entry point; the whole run is in memory).

    ``qrels`` may also be a ``qrels_jg`` or preference table (trec_eval's ``-R``), for the measures
    computed against those (:func:`check_judgments`).
    """
    relevance_level = check_relevance_level(relevance_level)
    check_judgments(measures, qrels)
    judged = join(qrels, run, complete=complete, depth=depth, judged_only=judged_only, measures=measures)
    per_query = {name: _values(measure, judged, relevance_level) for name, measure in measures.items()}
    ranked = set(run.query_ids)
    missed = tuple(query for query in qrels.query_ids if query not in ranked)
    unjudged = sum(1 for query in run.query_ids if query not in qrels.index)
    return _finished(run.name, run.runid, judged.queries, measures, per_query, qrels, missed, unjudged, complete,
                     relevance_level, judged)


def evaluate_run_file(qrels: JudgmentTable, path: str | Path, measures: Mapping[str, Measure], *,
                      relevance_level: int = 1, complete: bool = True, depth: int | None = None,
                      judged_only: bool = False, limit: int = MAX_FILE_BYTES,
                      block_bytes: int = BLOCK_BYTES, evaluators: int = EVALUATORS) -> Evaluation:
    """Evaluate a run file, reading it topic by topic so that memory stays bounded (the command line's path).

    The values are those of :func:`evaluate_tables` on the whole file (a test checks it on random
    files). A file whose topics are not each in one piece, a problem in a line, and standard input
    (``-``) are read whole instead (:mod:`irlab.runs.stream`).
    """
    relevance_level = check_relevance_level(relevance_level)
    depth = check_depth(depth)
    check_judgments(measures, qrels)
    name = str(path)
    if name != "-":
        try:
            return _evaluate_blocks(qrels, TopicBlocks(path, block_bytes=block_bytes, limit=limit), measures,
                                    relevance_level=relevance_level, complete=complete, depth=depth,
                                    judged_only=judged_only, evaluators=evaluators)
        except (ReadWhole, ValidationError):
            pass  # the whole-file reader below gives the same values, or names the file and line
    return evaluate_tables(qrels, read_run_file(path, limit=limit), measures, relevance_level=relevance_level,
                           complete=complete, depth=depth, judged_only=judged_only)


def _evaluate_blocks(qrels: JudgmentTable, blocks: TopicBlocks, measures: Mapping[str, Measure], *,
                     relevance_level: int, complete: bool, depth: int | None, judged_only: bool,
                     evaluators: int = EVALUATORS) -> Evaluation:
    """Evaluate each block of complete topics as it is read, then put the queries in trec_eval's order.

    ``evaluators`` blocks are evaluated at once, in threads (sorting, joining and the kernels run in
    Arrow and numpy, which release the GIL); their values are collected in the order of the file.
    """
    ids: list[str] = []
    parts: dict[str, list] = {name: [] for name in measures}

    def evaluated(block: RunBlock) -> tuple[tuple[str, ...], dict[str, np.ndarray | list[str]]]:
        table = run_table(blocks.name, block.queries, block.docs, block.scores)
        judged_here = [query for query in table.query_ids if query in qrels.index]
        if not judged_here:
            return (), {}
        judged = join(qrels, table, complete=False, depth=depth, judged_only=judged_only, queries=judged_here,
                      measures=measures)
        return judged.queries, {name: _values(measure, judged, relevance_level) for name, measure in measures.items()}

    def collect(result: tuple[tuple[str, ...], dict]) -> None:
        queries, values = result
        ids.extend(queries)
        for name, part in values.items():
            parts[name].append(part)

    _warm(qrels)  # cached lookups computed once here, not by two threads at once
    with ThreadPoolExecutor(max(1, evaluators), thread_name_prefix="evaluate") as pool:
        waiting: deque[Future] = deque()
        for block in blocks:
            waiting.append(pool.submit(evaluated, block))
            if len(waiting) >= max(1, evaluators):
                collect(waiting.popleft().result())
        while waiting:
            collect(waiting.popleft().result())
    if not ids:
        raise ValidationError(no_overlap_message(blocks.name, tuple(sorted(blocks.topics)), qrels))
    missed = tuple(query for query in qrels.query_ids if query not in blocks.topics)
    if complete and missed:  # trec_eval -c: each on a placeholder ranking
        nothing = pa.nulls(0, pa.string())  # pa.array([]) would import pandas
        empty = run_table(blocks.name, nothing, nothing, np.zeros(0))
        judged = join(qrels, empty, complete=True, depth=depth, judged_only=judged_only, queries=missed,
                      measures=measures)
        ids.extend(judged.queries)
        for name, measure in measures.items():
            parts[name].append(_values(measure, judged, relevance_level))
    order = np.argsort(np.array([qrels.index[query] for query in ids]), kind="stable")
    per_query = {name: _in_order(values, order) for name, values in parts.items()}
    unjudged = sum(1 for query in blocks.topics if query not in qrels.index)
    return _finished(blocks.name, blocks.runid, tuple(ids[i] for i in order), measures, per_query, qrels, missed,
                     unjudged, complete, relevance_level, None)


def join(judgments: JudgmentTable, run: RunTable, *, complete: bool = True, depth: int | None = None,
         judged_only: bool = False, queries: Iterable[str] | None = None, measures: Mapping[str, Measure] = {}):
    """``run`` joined with ``judgments`` under trec_eval's rules: :func:`irlab.runs.judge.judge` for qrels,
    :func:`~irlab.runs.judgment_groups.judge_groups` for qrels by judgment group,
    :func:`~irlab.runs.preferences.judge_preferences` for preferences (which ignore ``judged_only``, as trec_eval).

    The result has the evaluated ``queries`` and the kernels' input as ``rankings``; ``measures``
    says what it will be asked (preferences count their document pairs at once for prefs_pair).
    """
    if isinstance(judgments, GroupedQrels):
        return judge_groups(judgments, run, complete=complete, depth=depth, judged_only=judged_only, queries=queries)
    if isinstance(judgments, PreferenceTable):
        return judge_preferences(judgments, run, complete=complete, depth=depth, queries=queries,
                                 pairs=any(m.family == "PrefsPair" for m in measures.values()))
    return judge(judgments, run, complete=complete, depth=depth, judged_only=judged_only, queries=queries)


def judgments_kind(judgments: JudgmentTable) -> str:
    """``qrels``, ``qrels_jg`` or ``prefs``: what a measure family must be computed against (its ``judgments``)."""
    if isinstance(judgments, GroupedQrels):
        return "qrels_jg"
    return "prefs" if isinstance(judgments, PreferenceTable) else "qrels"


_NEEDS = {"qrels": "qrels (-R qrels, the default)", "qrels_jg": "qrels by judgment group (-R qrels_jg)",
          "prefs": "preferences (-R prefs or -R qrels_prefs)"}


def check_judgments(measures: Mapping[str, Measure], judgments: JudgmentTable) -> None:
    """ValidationError naming the measures that cannot be computed against ``judgments`` and what they need.

    >>> from irlab.metrics.measure_names import parse_measure
    >>> check_judgments({"prefs_simp": parse_measure("prefs_simp")}, qrels_from_mapping({"q": {"d": 1}}))
    Traceback (most recent call last):
    ...
    irlab.errors.ValidationError: prefs_simp needs preferences (-R prefs or -R qrels_prefs), not qrels
    """
    have = judgments_kind(judgments)
    wrong = [(name, m.definition.judgments) for name, m in measures.items() if m.definition.judgments not in
             ("any", have)]
    if wrong:
        needs = "; ".join(f"{', '.join(n for n, k in wrong if k == kind)} needs {_NEEDS[kind]}"
                          for kind in dict.fromkeys(k for _, k in wrong))
        raise ValidationError(f"{needs}, not {_NEEDS[have].split(' (')[0]}")


def _warm(judgments: JudgmentTable) -> None:
    """Compute the tables' cached lookups (query index, top grade) once, before threads read them."""
    for table in judgments.slots if isinstance(judgments, GroupedQrels) else (judgments,):
        table.index  # noqa: B018
        if isinstance(table, QrelsTable):
            table.top_grade  # noqa: B018


def _judged_relevant(judgments: JudgmentTable) -> int:
    """What trec_eval's ``-c`` prints for ``num_rel``: the judgments above grade 0 of every judged query."""
    if isinstance(judgments, QrelsTable):
        return int(np.sum(judgments.grades > 0))
    return judgments.judged_relevant if isinstance(judgments, GroupedQrels) else 0


def _values(measure: Measure, judged: JudgedRun, relevance_level: int) -> np.ndarray | list[str]:
    """One measure for every query of ``judged`` (the run id is not per query)."""
    if measure.family == "runid":
        return []
    return measure.compute_all(judged.rankings, relevance_level=relevance_level)


def _in_order(parts: list[np.ndarray | list[str]], order: np.ndarray) -> np.ndarray | list[str]:
    """Blocks of per-query values joined, then put in ``order``."""
    if not parts or isinstance(parts[0], list):
        joined = [value for part in parts for value in part]
        return [joined[i] for i in order] if joined else []
    return np.concatenate(parts)[order]


def _finished(run_name: str, runid: str, queries: tuple[str, ...], measures: Mapping[str, Measure],
              per_query: dict[str, np.ndarray | list[str]], qrels: JudgmentTable, missed: tuple[str, ...],
              unjudged: int, complete: bool, relevance_level: int, judged: JudgedRun | None) -> Evaluation:
    """The evaluation with its summary line."""
    relevant = _judged_relevant(qrels)
    summary = {name: runid if measure.family == "runid" else
               summarise(measure, per_query[name], complete=complete, judged_relevant=relevant)
               for name, measure in measures.items()}
    return Evaluation(run_name, runid, queries, dict(measures), per_query, summary, missed, unjudged, complete, judged)


def summarise(measure: Measure, values: np.ndarray | list[str], *, complete: bool = False,
              judged_relevant: int = 0) -> float | int | None:
    """The ``all`` value of one measure: trec_eval's mean, geometric mean, sum or count.

    The mean adds the queries one by one in trec_eval's order (``np.cumsum`` is sequential), so
    its last digit is trec_eval's. ``judged_relevant`` is what trec_eval's ``-c`` prints for
    ``num_rel``: the judged documents of a grade above 0 in every judged query, whatever the level.
    """
    kind = measure.definition.summary
    n = len(values)
    if kind == "none":
        return None
    if kind == "queries":
        return n
    if kind == "sum":
        if measure.family == "NumRel" and complete:
            return judged_relevant
        return int(np.sum(np.asarray(values, dtype=np.int64)))
    if kind == "gmean":
        logs = np.array([math.log(max(float(v), MIN_GEO_MEAN)) for v in values])
        return math.exp(float(np.cumsum(logs)[-1]) / n) if n else 0.0
    return float(np.cumsum(np.asarray(values, dtype=np.float64))[-1]) / n if n else 0.0


def evaluate(qrels: Qrels, run: Run, measures: str | Measure | Iterable[str | Measure], per_query: bool = False, *,
             relevance_level: int = 1, missing_queries: str = "zero", depth: int | None = None,
             judged_only: bool = False, collection_size: int = 0) -> dict[str, float] | dict[str, dict[str, float]]:
    """Evaluate ``run`` against ``qrels`` with each measure.

    Returns ``{measure: value over queries}`` (the mean for most measures, as trec_eval's ``all``
    line), or with ``per_query=True`` ``{measure: {query_id: value}}`` (queries missing from the
    run appear with their score when they count). Keys are the measure names as given. trec_eval's
    flags: ``relevance_level`` (``-l``), ``missing_queries`` (``"zero"`` is ``-c``), ``depth``
    (``-M``), ``judged_only`` (``-J``), ``collection_size`` (``-N``). No measure at all
    (``measures=[]``) gives ``{}``: no measure, no value (pytrec_eval gives each query an empty dict;
    :class:`irlab.runs.evaluator.Evaluator` answers in its shape, for many runs).

    >>> evaluate({"q": {"a": 1, "b": -1}}, {"q": ["b", "a"]}, ["P@1", "RR"], judged_only=True), evaluate({}, {}, [])
    ({'P@1': 1.0, 'RR': 1.0}, {})
    """
    named = [measures] if isinstance(measures, (str, Measure)) else list(measures)
    if missing_queries not in ("zero", "ignore"):
        raise ValidationError(f"missing_queries must be 'zero' or 'ignore', got {missing_queries!r}")
    if not named:
        return {}
    parsed = with_collection_size({str(name) if isinstance(name, Measure) else name: parse_measure(name)
                                   for name in named}, collection_size)
    evaluation = evaluate_tables(qrels_from_mapping(qrels), run_from_mapping(run), parsed,
                                 relevance_level=relevance_level, complete=missing_queries == "zero",
                                 depth=check_depth(depth), judged_only=judged_only)
    if per_query:
        return {name: dict(zip(evaluation.queries, _python(values)))
                for name, values in evaluation.per_query.items()}
    return dict(evaluation.summary)


def with_collection_size(measures: Mapping[str, Measure], collection_size: int) -> dict[str, Measure]:
    """``measures`` with utility's collection size set (trec_eval's ``-N``; 0 leaves them as they are).

    >>> from irlab.metrics.measure_names import parse_measure
    >>> with_collection_size({"utility": parse_measure("utility")}, 100)["utility"].options["collection_size"]
    100
    """
    from dataclasses import replace

    if isinstance(collection_size, bool) or not isinstance(collection_size, int) or collection_size < 0:
        raise ValidationError(f"the collection size (-N) must be a whole number >= 0, got {collection_size!r}")
    return {name: replace(m, options={**m.options, "collection_size": collection_size})
            if m.family == "utility" and collection_size else m for name, m in measures.items()}


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
