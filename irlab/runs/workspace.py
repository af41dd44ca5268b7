"""What the runs page holds and asks: a qrels file, runs, and their numbers, explanations and comparisons.

A :class:`Workspace` is one student's loaded files (or the simulated sample collection). It
answers the page's questions with the batch engine (:mod:`irlab.runs.evaluate`), so every number
is trec_eval's, and explains one query with the measure's readable definition, whose value is
the same number (the tests check both). Nothing here knows Streamlit; the page keeps a workspace
in the session and draws what it returns.

Memory: a run of a million lines costs about 40 MB as columns, plus its join with the qrels
(one per run and options, the last :data:`MAX_JOINS` kept); per-measure values are kept for the
last :data:`MAX_CACHED` questions, each a few kilobytes.

>>> ws = Workspace.sample()
>>> ws.run_names
('bm25-tuned', 'bm25', 'tfidf-baseline')
>>> row = ws.summary(["AP", "P@10"])[0]
>>> row["run"], round(row["AP"], 4), round(row["P@10"], 4)
('bm25-tuned', 0.3259, 0.424)
>>> view = ws.explain("bm25", "401", "AP")
>>> view.value == view.breakdown.value, view.measure_label
(True, 'AP')
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from irlab.errors import ValidationError
from irlab.explain.breakdown import Breakdown
from irlab.metrics.measure_names import parse_measure
from irlab.metrics.registry import Measure
from irlab.runs.charts import PrecisionRecallCurve, precision_recall_curve
from irlab.runs.compare import PAIRS_BUDGET, Comparison, compare, compare_pairs
from irlab.runs.coverage import Coverage, coverage
from irlab.runs.doctor import Finding, doctor
from irlab.runs.evaluate import Evaluation, summarise
from irlab.runs.judge import PLACEHOLDER, JudgedRun, judge
from irlab.runs.simulate import simulate
from irlab.runs.table import ResultsTable, results_table
from irlab.runs.trec import (
    QrelsTable,
    RunTable,
    parse_qrels,
    parse_run,
    qrels_columns,
    qrels_table,
    run_columns,
    run_table,
    sniff,
    unpack,
)

DEFAULT_MEASURES = ("AP", "P@10", "nDCG@10", "RR", "R@100", "Bpref")
"""The summary's columns until the student picks others (trec_eval's map, P_10, ndcg_cut_10, recip_rank,
recall_100, bpref)."""
MAX_CACHED = 64
"""Per-query value arrays kept (each one value per query)."""
MAX_JOINS = 4
"""Runs joined with the qrels kept at once (each about 16 bytes per run line)."""
MAX_RANK_ROWS = 100
"""Ranks shown in a query's rank-by-rank table."""
QUERIES_PER_PAGE = 50
"""Queries on one page of the per-query view (a million one-document topics must not reach the browser at once)."""
SAMPLE_LABEL = "Sample collection (simulated: 50 topics, 3 systems, graded judgments 0-3)"

Progress = Callable[[str], None]


@dataclass(frozen=True)
class Options:
    """trec_eval's options the page offers: ``-l`` (relevance level) and ``-c`` (count missing queries as 0).

    ``complete`` is on by default: every judged topic counts, as in TREC reports and trec_eval 10.0
    (which refuses a run that misses a judged topic without ``-c``); :meth:`Workspace.coverage`
    says what a run's means would be without the topics it misses.
    """

    relevance_level: int = 1
    complete: bool = True


@dataclass(frozen=True)
class RankedDoc:
    """One row of a run's ranking for a query: its rank, doc id, score and grade (None: not judged)."""

    rank: int
    doc: str
    score: float
    grade: int | None


@dataclass(frozen=True)
class QueryView:
    """One run, one query, one measure: the value, its breakdown, the ranking, what it missed and the ideal.

    ``value`` is the batch engine's (trec_eval's) value; ``breakdown.value`` is the readable
    definition's, equal to it. ``ranking`` is what the measure sees (after ``-c``'s placeholder
    for a query the run misses, which shows as no row); ``missed`` the relevant judged documents the
    run never retrieved (why recall stays below 1); ``ideal`` the judged documents best first, the
    ranking IDCG scores.
    """

    run: str
    query: str
    measure: Measure
    value: float | int | str
    breakdown: Breakdown
    ranking: tuple[RankedDoc, ...]
    missed: tuple[tuple[str, int], ...]
    ideal: tuple[tuple[str, int], ...]
    num_rel: int
    retrieved: int
    relevance_level: int

    @property
    def measure_label(self) -> str:
        return str(self.measure)

    @property
    def k(self) -> int | None:
        """The measure's cutoff, when it has one."""
        return self.measure.cutoff if isinstance(self.measure.cutoff, int) else None


def measure_at(measure: str | Measure, k: int | None) -> Measure:
    """``measure`` with cutoff ``k`` when its family takes a rank cutoff (else unchanged).

    >>> str(measure_at("nDCG@10", 5)), str(measure_at("AP", 5)), str(measure_at("Bpref", 5))
    ('nDCG@5', 'AP@5', 'Bpref')
    """
    parsed = parse_measure(measure)
    if k is None or parsed.definition.cutoff == "none" or parsed.definition.cutoff_kind != "rank":
        return parsed
    return parse_measure(replace(parsed, cutoff=int(k), trec_label=None))  # K checked: 1 to 10^9


def read_upload(data: bytes, name: str, kind: str, *, limit: int, progress: Progress | None = None,
                mixed_up: str = "") -> RunTable | QrelsTable:
    """An uploaded qrels or run file as columns, checked: the kind it looks like, its size, every line.

    A qrels file given as a run (or the reverse) is named as such; other problems name the file
    and line (:mod:`irlab.runs.trec`). ``mixed_up`` is added to the message of a file of the other kind
    (where it belongs: the page names its upload box, the command line the order of the files).
    """
    say = progress or (lambda message: None)
    say(f"Unpacking {name}" if bytes(data[:2]) == b"\x1f\x8b" else f"Checking {name}")
    data = unpack(data, name, limit=limit)
    looks = sniff(data)
    other = {"run": "qrels", "qrels": "run"}[kind]
    if looks == other:
        fields = "query iteration doc grade" if other == "qrels" else "query Q0 doc rank score tag"
        raise ValidationError(f"this looks like a {other} file ({fields}), not a {kind} file{mixed_up}", path=name)
    say(f"Reading {name} ({len(data) / 2**20:,.1f} MB)")
    if kind == "run":
        columns = run_columns(data, name)
        del data
        say(f"Ranking {len(columns[2]):,} lines of {name} as trec_eval does")
        return run_table(name, *columns)
    columns = qrels_columns(data, name)
    del data
    return qrels_table(name, *columns)


class Workspace:
    """A qrels table and named runs, with cached evaluations (see the module)."""

    def __init__(self, qrels: QrelsTable | None, runs: dict[str, RunTable] | None = None, *, source: str = "files",
                 label: str = "") -> None:
        self.qrels = qrels
        self.runs: dict[str, RunTable] = dict(runs or {})
        self.source = source
        self.label = label
        self._joins: OrderedDict[tuple, JudgedRun] = OrderedDict()
        self._values: OrderedDict[tuple, np.ndarray | list[str]] = OrderedDict()
        self._comparisons: OrderedDict[tuple, object] = OrderedDict()
        self._findings: dict[int, list[Finding]] = {}

    # --- building ------------------------------------------------------------------------------

    @classmethod
    def sample(cls) -> Workspace:
        """The bundled simulated collection (generated from a seed, not shipped as data)."""
        collection = simulate()
        qrels = parse_qrels("\n".join(collection.qrels_lines()).encode(), "sample-qrels.txt")
        runs = {name: parse_run("\n".join(collection.run_lines(name)).encode(), name) for name in collection.runs}
        return cls(qrels, runs, source="sample", label=SAMPLE_LABEL)

    def with_qrels(self, qrels: QrelsTable) -> Workspace:
        """The same runs against new qrels (every cached number is dropped)."""
        return Workspace(qrels, self.runs, source="files")

    def with_run(self, name: str, run: RunTable) -> Workspace:
        """This workspace with one more run (a name already taken gets a number)."""
        unique, n = name, 2
        while unique in self.runs:
            unique, n = f"{name} ({n})", n + 1
        grown = Workspace(self.qrels, {**self.runs, unique: run}, source="files")
        grown._joins, grown._values, grown._comparisons = self._joins, self._values, OrderedDict()
        return grown

    def without_runs(self, names: Iterable[str]) -> Workspace:
        """This workspace without the runs ``names``."""
        drop = set(names) & set(self.runs)
        if not drop:
            return self
        kept = Workspace(self.qrels, {n: r for n, r in self.runs.items() if n not in drop}, source=self.source,
                         label=self.label)
        kept._joins = OrderedDict((k, v) for k, v in self._joins.items() if k[0] not in drop)
        kept._values = OrderedDict((k, v) for k, v in self._values.items() if k[0] not in drop)
        return kept

    # --- questions -----------------------------------------------------------------------------

    @property
    def run_names(self) -> tuple[str, ...]:
        return tuple(self.runs)

    def overlapping(self, name: str) -> bool:
        """Whether run ``name`` ranks at least one judged query."""
        if self.qrels is None:
            return False
        return not set(self.runs[name].query_ids).isdisjoint(self.qrels.query_ids)

    def usable_runs(self) -> tuple[str, ...]:
        """The runs that share a query with the qrels (the others cannot be evaluated)."""
        return tuple(name for name in self.runs if self.overlapping(name))

    def judged(self, run: str, options: Options = Options()) -> JudgedRun:
        """Run ``run`` joined with the qrels under ``options`` (cached)."""
        if self.qrels is None:
            raise ValidationError("load a qrels file first")
        key = (run, options.complete)
        if key not in self._joins:
            self._joins[key] = judge(self.qrels, self.runs[run], complete=options.complete)
            while len(self._joins) > MAX_JOINS:
                self._joins.popitem(last=False)
        self._joins.move_to_end(key)
        return self._joins[key]

    def values(self, run: str, measure: str | Measure, options: Options = Options()) -> np.ndarray | list[str]:
        """``measure`` for every evaluated query of ``run`` (trec_eval's order), by the fast kernel (cached)."""
        parsed = parse_measure(measure)
        key = (run, str(parsed), options)
        if key not in self._values:
            judged = self.judged(run, options)
            self._values[key] = parsed.compute_all(judged.rankings, relevance_level=options.relevance_level)
            while len(self._values) > MAX_CACHED:
                self._values.popitem(last=False)
        self._values.move_to_end(key)
        return self._values[key]

    def mean(self, run: str, measure: str | Measure, options: Options = Options()) -> float | int | str | None:
        """trec_eval's ``all`` value of ``measure`` for ``run``."""
        parsed = parse_measure(measure)
        if parsed.family == "runid":
            return self.runs[run].runid
        return summarise(parsed, self.values(run, parsed, options), complete=options.complete,
                         judged_relevant=int(np.sum(self.qrels.grades > 0)))

    def summary(self, measures: Sequence[str], options: Options = Options()) -> list[dict]:
        """One row per usable run: its name, run id, number of queries and each measure's ``all`` value."""
        rows = []
        for name in self.usable_runs():
            row = {"run": name, "runid": self.runs[name].runid, "queries": len(self.judged(name, options).queries)}
            row.update({measure: self.mean(name, measure, options) for measure in measures})
            rows.append(row)
        return rows

    def evaluation(self, run: str, measures: Sequence[str], options: Options = Options()) -> Evaluation:
        """``run``'s values for ``measures`` as an :class:`~irlab.runs.evaluate.Evaluation` (for the reports)."""
        parsed = {name: parse_measure(name) for name in measures}
        judged = self.judged(run, options)
        table = self.runs[run]
        ranked = set(table.query_ids)
        return Evaluation(run, table.runid, judged.queries, parsed,
                          {name: self.values(run, m, options) for name, m in parsed.items()},
                          {name: self.mean(run, m, options) for name, m in parsed.items()},
                          missed=tuple(q for q in self.qrels.query_ids if q not in ranked),
                          unjudged=sum(1 for q in table.query_ids if q not in self.qrels.index),
                          complete=options.complete, judged=judged)

    def queries(self, runs: Sequence[str], options: Options = Options()) -> tuple[str, ...]:
        """The queries evaluated for every one of ``runs`` (trec_eval's order)."""
        if not runs:
            return ()
        common = set(self.judged(runs[0], options).queries)
        for run in runs[1:]:
            common &= set(self.judged(run, options).queries)
        return tuple(q for q in self.judged(runs[0], options).queries if q in common)

    def per_query(self, measure: str, runs: Sequence[str], options: Options = Options()) -> list[dict]:
        """A row per query evaluated for any of ``runs``: each run's value (None where not evaluated).

        With two runs or more, ``difference`` is the second minus the first.
        """
        parsed = parse_measure(measure)
        columns = {run: dict(zip(self.judged(run, options).queries, _floats(self.values(run, parsed, options))))
                   for run in runs}
        order = list(dict.fromkeys(q for run in runs for q in self.judged(run, options).queries))
        order.sort(key=_query_key)
        rows = []
        for query in order:
            row = {"query": query, **{run: columns[run].get(query) for run in runs}}
            if len(runs) >= 2:
                a, b = row[runs[0]], row[runs[1]]
                row["difference"] = None if a is None or b is None else b - a
            rows.append(row)
        return rows

    def compare(self, run_a: str, run_b: str, measure: str, options: Options = Options()) -> Comparison:
        """Run B against run A on the queries both are evaluated on (see :mod:`irlab.runs.compare`)."""
        if run_a == run_b:
            raise ValidationError("pick two different runs to compare")
        key = ("pair", run_a, run_b, str(parse_measure(measure)), options)
        if key not in self._comparisons:
            queries = self.queries([run_a, run_b], options)
            a, b = (self._aligned(run, measure, queries, options) for run in (run_a, run_b))
            self._comparisons[key] = compare(a, b, queries, measure=measure, run_a=run_a, run_b=run_b)
            self._trim_comparisons()
        return self._comparisons[key]

    def compare_all(self, runs: Sequence[str], measure: str, options: Options = Options(), *,
                    budget: float | None = PAIRS_BUDGET) -> list[tuple[Comparison, float]]:
        """Every pair of ``runs`` with Holm-adjusted randomisation p-values (the queries all of them share).

        Expensive with many runs (80 runs are 3,160 pairs): call it on request, not on every rerun;
        ``budget`` bounds its computing time (:class:`~irlab.runs.significance.BudgetExceeded` beyond).
        """
        key = ("all", tuple(runs), str(parse_measure(measure)), options)
        if key not in self._comparisons:
            queries = self.queries(list(runs), options)
            values = {run: self._aligned(run, measure, queries, options) for run in runs}
            self._comparisons[key] = compare_pairs(values, queries, measure=measure, budget=budget)
            self._trim_comparisons()
        return self._comparisons[key]

    def doctor(self, relevance_level: int = 1) -> list[Finding]:
        """The run doctor's findings on the qrels and every usable run (:mod:`irlab.runs.doctor`; cached).

        The runs are tables, already checked when they were read, so ranks and duplicates are not
        checked again (their reader refused duplicates).
        """
        if relevance_level not in self._findings:
            self._findings[relevance_level] = doctor(self.qrels, {name: self.runs[name] for name in self.usable_runs()},
                                                     relevance_level=relevance_level)
        return self._findings[relevance_level]

    def coverage(self, run: str, measures: Sequence[str], options: Options = Options()) -> Coverage:
        """How many judged topics ``run`` misses, and each measure's mean with them (as 0) and without them."""
        return coverage(self.evaluation(run, measures, options))

    def results_table(self, runs: Sequence[str], measures: Sequence[str], options: Options = Options(), *,
                      baselines: Sequence[str] | None = None, test: str = "t", correction: str = "holm",
                      all_pairs: bool = False, budget: float | None = PAIRS_BUDGET) -> ResultsTable:
        """The results table of ``runs`` (see :mod:`irlab.runs.table`), on the topics all of them are evaluated on."""
        queries = self.queries(list(runs), options)
        if not queries:
            raise ValidationError("these runs are not evaluated on a topic in common")
        values = {run: {m: self._aligned(run, m, queries, options) for m in measures} for run in runs}
        return results_table(values, queries, baselines=baselines, test=test, correction=correction,
                             all_pairs=all_pairs, budget=budget,
                             coverage={run: self.coverage(run, measures, options) for run in runs})

    def precision_recall(self, runs: Sequence[str], options: Options = Options()) -> list[PrecisionRecallCurve]:
        """Each run's interpolated precision at the 11 recall levels, averaged over its topics (trec_eval's)."""
        return [precision_recall_curve(run, [self.mean(run, f"IPrec@{level}", options) for level in
                                             (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)])
                for run in runs]

    def explain(self, run: str, query: str, measure: str | Measure, options: Options = Options(), *,
                order: Sequence[str] | None = None) -> QueryView:
        """Explain ``measure`` for ``run`` on ``query``; ``order`` reorders the top of the ranking ("what if").

        ``order`` lists doc ids of the ranking's top in a new order; the rest keeps its place. With it,
        ``value`` is the readable definition's value on the new ranking.
        """
        parsed = parse_measure(measure)
        judged = self.judged(run, options)
        if query not in judged.queries:
            raise ValidationError(f"query {query!r} is not evaluated for {run}: it has no judgments"
                                  + ("" if options.complete else " or the run does not rank it"))
        evaluated = judged.evaluated_ranking(query)
        judgments = judged.judgments(query)
        ranking = list(evaluated)
        if order is not None:
            top = [doc for doc in dict.fromkeys(order) if doc in set(ranking)]
            ranking = top + [doc for doc in ranking if doc not in set(top)]
        breakdown = parsed.explain(ranking, judgments, relevance_level=options.relevance_level)
        if order is None:
            q = judged.queries.index(query)
            value = _floats(self.values(run, parsed, options))[q]
        else:
            value = breakdown.value
        level = parsed.relevance_level if parsed.relevance_level is not None else options.relevance_level
        return QueryView(run, query, parsed, value, breakdown, self._ranked(judged, query, ranking, judgments),
                         _missed(judgments, set(evaluated), level), _ideal(judgments),
                         sum(1 for g in judgments.values() if g >= level), len(judged.ranking(query)), level)

    # --- helpers -------------------------------------------------------------------------------

    def _aligned(self, run: str, measure: str, queries: Sequence[str], options: Options) -> np.ndarray:
        judged = self.judged(run, options)
        index = {q: i for i, q in enumerate(judged.queries)}
        values = np.asarray(self.values(run, measure, options), dtype=np.float64)
        return values[[index[q] for q in queries]] if len(queries) else np.array([])

    def _trim_comparisons(self) -> None:
        while len(self._comparisons) > MAX_CACHED:
            self._comparisons.popitem(last=False)

    @staticmethod
    def _ranked(judged: JudgedRun, query: str, ranking: Sequence[str],
                judgments: dict[str, int]) -> tuple[RankedDoc, ...]:
        q = judged.queries.index(query)
        rows = judged.rows[judged.rankings.offsets[q]:judged.rankings.offsets[q + 1]]
        scores = {}
        real = rows[rows != PLACEHOLDER]
        if len(real):
            scores = dict(zip(judged.ranking(query), judged.run.scores[real].tolist()))
        return tuple(RankedDoc(rank, doc, scores.get(doc, float("nan")), judgments.get(doc))
                     for rank, doc in enumerate(ranking, start=1) if doc in scores)


@dataclass(frozen=True)
class QueryPage:
    """One page of a list of query ids: the ids on it and their positions in the list, its number (from 1),
    how many pages, how many ids matched."""

    queries: tuple[str, ...]
    positions: tuple[int, ...]
    number: int
    pages: int
    matches: int


def query_page(queries: Sequence[str], search: str = "", number: int = 1,
               size: int = QUERIES_PER_PAGE) -> QueryPage:
    """Page ``number`` of the ``queries`` whose id contains ``search`` (case-insensitive), ``size`` per page.

    A number beyond the last page gives the last page; no match gives an empty page 1 of 1.

    >>> ids = [str(q) for q in range(401, 451)]
    >>> query_page(ids, "", 2, size=20).queries[:2], query_page(ids, "", 2, size=20).pages
    (('421', '422'), 3)
    >>> query_page(ids, "44", 1, size=20).queries
    ('440', '441', '442', '443', '444', '445', '446', '447', '448', '449')
    >>> query_page(ids, "449").positions, query_page(ids, "x").matches, query_page(ids, "", 99, size=20).number
    ((48,), 0, 3)
    """
    wanted = search.strip().casefold()
    found = [i for i, q in enumerate(queries) if wanted in q.casefold()] if wanted else range(len(queries))
    pages = max(1, -(-len(found) // size))
    number = min(max(1, int(number)), pages)
    positions = tuple(found[(number - 1) * size:number * size])
    return QueryPage(tuple(queries[i] for i in positions), positions, number, pages, len(found))


def page_of(queries: Sequence[str], query: str, size: int = QUERIES_PER_PAGE) -> int:
    """The page (from 1) of ``queries`` that holds ``query`` (1 when it is not there).

    >>> page_of([str(q) for q in range(401, 451)], "445", size=20)
    3
    """
    try:
        return list(queries).index(query) // size + 1
    except ValueError:
        return 1


READ_FACTOR = 4
"""Peak memory of reading a run, per byte of (unpacked) text: the text, its columns and the ranking's arrays."""
GZIP_RATIO = 10
"""What a .gz file is assumed to unpack to, per byte, before it is unpacked (its size is not known until then)."""
TABLE_BASE = 64_000_000
"""A comparison's working memory beside its values: the randomisation test's and the bootstrap's batches."""
TABLE_FACTOR = 32
"""Bytes per run, measure and topic while a comparison runs: each value (8 bytes) and its copies."""


def memory_to_read(size: int, name: str, limit: int) -> int:
    """About how many bytes reading a ``size``-byte upload ``name`` takes at its peak (at most ``limit`` unpacked).

    >>> memory_to_read(50_000_000, "run.txt", 100_000_000), memory_to_read(5_000_000, "run.txt.gz", 100_000_000)
    (200000000, 200000000)
    """
    unpacked = min(limit, size * GZIP_RATIO) if name.endswith(".gz") else size
    return READ_FACTOR * unpacked


def memory_to_compare(topics: int, runs: int, measures: int = 1) -> int:
    """About how many bytes comparing ``runs`` runs on ``topics`` topics and ``measures`` measures takes.

    >>> memory_to_compare(10_000, 80, 6)
    217600000
    """
    return TABLE_BASE + TABLE_FACTOR * topics * runs * measures


def _missed(judgments: dict[str, int], retrieved: set[str], level: int) -> tuple[tuple[str, int], ...]:
    missed = [(doc, grade) for doc, grade in judgments.items() if grade >= level and doc not in retrieved]
    return tuple(sorted(missed, key=lambda pair: (-pair[1], pair[0])))


def _ideal(judgments: dict[str, int]) -> tuple[tuple[str, int], ...]:
    positive = [(doc, grade) for doc, grade in judgments.items() if grade > 0]
    return tuple(sorted(positive, key=lambda pair: (-pair[1], pair[0])))


def _floats(values: np.ndarray | list[str]) -> list:
    return values if isinstance(values, list) else values.tolist()


def _query_key(query: str) -> tuple:
    """Numeric query ids in numeric order (TREC topics are numbers), others after them by text."""
    return (0, int(query), "") if query.isascii() and query.isdigit() else (1, 0, query)
