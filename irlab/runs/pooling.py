r"""Pooling a class's runs, judging the pool, and how the ranking of the systems moves with the pool.

TREC judges only a **pool**: for each topic, the union of the top :math:`k` documents of every run,

.. math:: \mathrm{Pool}_k(t) = \bigcup_{r} \{\, d : \mathrm{rank}_r(t, d) \le k \,\}

(ranks in trec_eval's order: score descending, ties by document id descending). Everything outside
the pool is unjudged, and AP counts an unjudged document as not relevant; bpref ignores it; infAP
treats a document *in* the pool but left unjudged (grade -1 in the qrels) as a sample to infer from
and a document outside the pool as not relevant. So a shallow pool, or a pool judged only in part,
can change the ranking of the systems. :func:`depth_sweep` measures how much: for every pool depth
:math:`k` (and share of the pool judged), the mean AP, bpref and infAP of every run with the
judgments of that pool, and Kendall's :math:`\tau` between the ranking of the runs by each
measure and the **reference ranking**: the runs ranked by AP with every judgment of the deepest
pool (with a simulated collection: every document's true grade).

Kendall's :math:`\tau` (``scipy.stats.kendalltau``, its :math:`\tau_b`, which handles ties) of two
rankings of :math:`n` systems is :math:`(C - D) / \binom{n}{2}` without ties, :math:`C` and :math:`D`
the concordant and discordant pairs; Voorhees (2000) took :math:`\tau \ge 0.9` as "the same ranking".

>>> from irlab.runs.trec import parse_qrels, parse_run
>>> a = parse_run(b"1 Q0 d1 1 3 a\n1 Q0 d2 2 2 a\n1 Q0 d3 3 1 a\n", "a")
>>> b = parse_run(b"1 Q0 d4 1 3 b\n1 Q0 d1 2 2 b\n1 Q0 d5 3 1 b\n", "b")
>>> pool = pool_runs({"a": a, "b": b}, depth=2)
>>> pool.docs["1"], pool.size, pool.unique == {"a": 1, "b": 1}
(('d1', 'd2', 'd4'), 3, True)
>>> truth = parse_qrels(b"1 0 d1 1\n1 0 d2 0\n1 0 d3 1\n1 0 d4 0\n1 0 d5 1\n")
>>> pooled = pool_qrels(pool, truth)
>>> sorted(pooled.judgments("1").items())
[('d1', 1), ('d2', 0), ('d4', 0)]
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from irlab.errors import ValidationError
from irlab.metrics.measure_names import parse_measure
from irlab.runs.evaluate import evaluate_tables
from irlab.runs.trec import QrelsTable, RunTable, qrels_table

POOL_MEASURES = ("AP", "Bpref", "infAP")
"""The measures the pooling lab follows: AP (unjudged = not relevant), bpref (ignores unjudged), infAP (infers)."""
REFERENCE_MEASURE = "AP"
"""The reference ranking is the runs by this measure with every judgment of the deepest pool."""
DEPTHS = (1, 2, 3, 5, 10, 20, 30, 50, 100)
"""The pool depths a sweep tries by default (those deeper than the runs are left out)."""
JUDGED_SHARES = (1.0, 0.5, 0.2)
"""Shares of each topic's pool judged, by default: all of it, half, a fifth (the rest pooled but unjudged)."""
MAX_DEPTH = 1_000
"""A pool deeper than a TREC run is refused."""
MAX_POOL = 200_000
"""The most (topic, document) pairs a pool may hold (a class judges far fewer; this bounds memory)."""
UNJUDGED = -1
"""trec_eval's grade for a document in the pool that was not judged."""
SEED = 20_240_401
"""The seed of the judged sample: the same sweep gives the same numbers everywhere."""


@dataclass(frozen=True)
class Pool:
    """The pool at ``depth``: per topic its documents (sorted), and who put them there.

    ``contributors[(topic, doc)]`` names the runs that ranked the document in their top ``depth``;
    ``unique[run]`` counts the documents only that run contributed (Zobel's measure of how much a
    run depends on its own judgments).
    """

    depth: int
    topics: tuple[str, ...]
    docs: dict[str, tuple[str, ...]]
    contributors: dict[tuple[str, str], tuple[str, ...]]
    unique: dict[str, int]

    @property
    def size(self) -> int:
        """How many (topic, document) pairs the pool holds: what the assessors must judge."""
        return sum(len(docs) for docs in self.docs.values())

    def items(self) -> list[tuple[str, str]]:
        """Every (topic, document) pair of the pool, topic by topic."""
        return [(topic, doc) for topic in self.topics for doc in self.docs[topic]]


def check_depth(depth: object) -> int:
    """A pool depth: a whole number from 1 to :data:`MAX_DEPTH`."""
    if isinstance(depth, bool) or not isinstance(depth, (int, np.integer)) or not 1 <= depth <= MAX_DEPTH:
        raise ValidationError(f"the pool depth must be a whole number from 1 to {MAX_DEPTH}, got {depth!r}")
    return int(depth)


def pool_runs(runs: Mapping[str, RunTable], depth: int, *, topics: Sequence[str] | None = None) -> Pool:
    """The pool of ``runs`` at ``depth`` (see the module), over ``topics`` (default: every topic a run ranks)."""
    depth = check_depth(depth)
    if not runs:
        raise ValidationError("a pool needs at least one run")
    wanted = None if topics is None else set(topics)
    found: dict[str, dict[str, list[str]]] = {}
    for name, run in runs.items():
        for i, topic in enumerate(run.query_ids):
            if wanted is not None and topic not in wanted:
                continue
            start = int(run.offsets[i])
            end = min(int(run.offsets[i + 1]), start + depth)
            per_topic = found.setdefault(topic, {})
            for doc in run.docs.slice(start, end - start).to_pylist():
                per_topic.setdefault(doc, []).append(name)
    size = sum(len(docs) for docs in found.values())
    if size > MAX_POOL:
        raise ValidationError(f"the pool at depth {depth} holds {size:,} documents, more than {MAX_POOL:,}; "
                              "choose a smaller depth")
    ordered = tuple(sorted(found, key=_topic_key))
    docs = {topic: tuple(sorted(found[topic])) for topic in ordered}
    contributors = {(topic, doc): tuple(found[topic][doc]) for topic in ordered for doc in docs[topic]}
    unique = dict.fromkeys(runs, 0)
    for names in contributors.values():
        if len(names) == 1:
            unique[names[0]] += 1
    return Pool(depth, ordered, docs, contributors, unique)


def pool_qrels(pool: Pool, grades: QrelsTable | Mapping[tuple[str, str], int], *, judged_share: float = 1.0,
               seed: int = SEED, name: str = "pool") -> QrelsTable:
    """The qrels of ``pool``: each pooled document with its grade from ``grades`` (the truth, or the judges').

    A pooled document without a grade in ``grades`` is pooled but unjudged (grade -1). With
    ``judged_share`` < 1, only that share of each topic's pool (at least one document, drawn with
    ``seed``) keeps its grade; the rest is pooled but unjudged, as in a sampled pool (infAP's setting).
    """
    if not 0 < judged_share <= 1:
        raise ValidationError(f"the judged share must be above 0 and at most 1, got {judged_share!r}")
    lookup = grades_of(grades) if isinstance(grades, QrelsTable) else grades
    rng = np.random.default_rng(seed)
    queries, docs, values = [], [], []
    for topic in pool.topics:
        pooled = pool.docs[topic]
        judged = np.ones(len(pooled), dtype=bool)
        if judged_share < 1:
            keep = max(1, math.ceil(judged_share * len(pooled)))
            judged[:] = False
            judged[rng.choice(len(pooled), size=keep, replace=False)] = True
        for doc, in_sample in zip(pooled, judged):
            grade = lookup.get((topic, doc)) if in_sample else None
            queries.append(topic)
            docs.append(doc)
            values.append(UNJUDGED if grade is None else int(grade))
    return qrels_table(name, pa.array(queries, pa.string()), pa.array(docs, pa.string()),
                       np.array(values, dtype=np.int64))


def grades_of(qrels: QrelsTable) -> dict[tuple[str, str], int]:
    """``{(topic, doc): grade}`` of every judgment in ``qrels`` (grades below 0 are not judgments).

    >>> from irlab.runs.trec import parse_qrels
    >>> grades_of(parse_qrels(b"1 0 a 2\\n1 0 b -1\\n"))
    {('1', 'a'): 2}
    """
    topic = np.repeat(np.arange(len(qrels.query_ids)), np.diff(qrels.offsets))
    return {(qrels.query_ids[t], doc): int(grade)
            for t, doc, grade in zip(topic.tolist(), qrels.docs.to_pylist(), qrels.grades.tolist()) if grade >= 0}


@dataclass(frozen=True)
class SweepPoint:
    """One pool (``depth``, ``judged_share``): its size, each run's mean of each measure, and Kendall's tau of
    each measure's ranking against the reference ranking (None with fewer than two runs)."""

    depth: int
    judged_share: float
    pool_size: int
    judged: int
    means: dict[str, dict[str, float]]
    tau: dict[str, float | None]
    swaps: dict[str, int]


@dataclass(frozen=True)
class Sweep:
    """A depth sweep: the reference (the runs' AP with every judgment of the deepest pool) and every point."""

    runs: tuple[str, ...]
    measures: tuple[str, ...]
    reference_depth: int
    reference: dict[str, float]
    points: tuple[SweepPoint, ...]

    def point(self, depth: int, judged_share: float = 1.0) -> SweepPoint:
        for point in self.points:
            if point.depth == depth and math.isclose(point.judged_share, judged_share):
                return point
        raise KeyError(f"no pool at depth {depth} with {judged_share:.0%} judged in this sweep")

    def reference_order(self) -> list[str]:
        """The runs, best first, by the reference (ties by name)."""
        return sorted(self.runs, key=lambda run: (-self.reference[run], run))

    def rows(self) -> list[dict]:
        """One row per point and measure (depth, share judged, pool size, judged, measure, tau, swaps)."""
        return [{"depth": p.depth, "judged share": p.judged_share, "pool size": p.pool_size, "judged": p.judged,
                 "measure": m, "Kendall's tau": p.tau[m], "swapped pairs": p.swaps[m]}
                for p in self.points for m in self.measures]


def depth_sweep(runs: Mapping[str, RunTable], grades: QrelsTable | Mapping[tuple[str, str], int], *,
                depths: Sequence[int] = DEPTHS, judged_shares: Sequence[float] = (1.0,),
                measures: Sequence[str] = POOL_MEASURES, reference_depth: int | None = None,
                seed: int = SEED) -> Sweep:
    """How each measure's ranking of ``runs`` moves with the pool depth and the share judged (see the module).

    ``grades`` are the judgments the pools take their grades from: the truth of a simulated collection,
    the qrels of a real one, or what the class has judged so far. ``reference_depth`` (default: the
    deepest of ``depths`` that the runs reach) gives the reference ranking, by AP with all its judgments.
    """
    if len(runs) < 1:
        raise ValidationError("a sweep needs at least one run")
    deepest = max(int(np.max(np.diff(run.offsets))) if len(run.query_ids) else 0 for run in runs.values())
    tried = sorted({check_depth(d) for d in depths if d <= max(deepest, 1)} or {1})
    reference_depth = check_depth(reference_depth) if reference_depth is not None else tried[-1]
    parsed = {m: parse_measure(m) for m in dict.fromkeys([REFERENCE_MEASURE, *measures])}
    lookup = grades_of(grades) if isinstance(grades, QrelsTable) else dict(grades)
    reference_pool = pool_runs(runs, reference_depth)
    reference = _means(runs, pool_qrels(reference_pool, lookup), {REFERENCE_MEASURE: parsed[REFERENCE_MEASURE]})
    reference_ap = reference[REFERENCE_MEASURE]
    names = tuple(runs)
    points = []
    for depth in tried:
        pool = pool_runs(runs, depth)
        for share in judged_shares:
            qrels = pool_qrels(pool, lookup, judged_share=share, seed=seed)
            means = _means(runs, qrels, {m: parsed[m] for m in measures})
            tau, swaps = {}, {}
            for m in measures:
                tau[m], swaps[m] = ranking_agreement([reference_ap[r] for r in names], [means[m][r] for r in names])
            points.append(SweepPoint(depth, float(share), pool.size, int(np.sum(qrels.grades >= 0)),
                                     means, tau, swaps))
    return Sweep(names, tuple(measures), reference_depth, reference_ap, tuple(points))


def _means(runs: Mapping[str, RunTable], qrels: QrelsTable, measures: Mapping) -> dict[str, dict[str, float]]:
    """Each measure's mean for each run (trec_eval -c: judged topics a run misses count 0)."""
    means: dict[str, dict[str, float]] = {m: {} for m in measures}
    for name, run in runs.items():
        evaluation = evaluate_tables(qrels, run, measures)
        for m in measures:
            means[m][name] = float(evaluation.summary[m])
    return means


def ranking_agreement(reference: Sequence[float], other: Sequence[float]) -> tuple[float | None, int]:
    """Kendall's tau (tau-b) of two score lists over the same systems, and how many pairs they order oppositely.

    >>> ranking_agreement([0.3, 0.2, 0.1], [0.3, 0.1, 0.2])
    (0.333333333333, 1)
    >>> ranking_agreement([0.3], [0.2])
    (None, 0)
    """
    from scipy import stats

    x, y = np.asarray(reference, dtype=np.float64), np.asarray(other, dtype=np.float64)
    if len(x) < 2:
        return None, 0
    dx, dy = np.sign(x[:, None] - x[None, :]), np.sign(y[:, None] - y[None, :])
    swaps = int(np.sum(np.triu(dx * dy < 0, 1)))
    if np.ptp(x) == 0 or np.ptp(y) == 0:
        return None, swaps
    return round(float(stats.kendalltau(x, y).statistic), 12), swaps  # 0.9999999999999998 is 1


@dataclass(frozen=True)
class LeftOut:
    """One run evaluated on the pool without its own contribution (is the pool fair to a new system?)."""

    run: str
    unique: int
    unique_relevant: int
    with_own: float
    without_own: float
    rank_with: int
    rank_without: int


def leave_one_out(runs: Mapping[str, RunTable], grades: QrelsTable | Mapping[tuple[str, str], int], depth: int, *,
                  measure: str = REFERENCE_MEASURE, relevance_level: int = 1) -> list[LeftOut]:
    """Zobel's test of a pool's reusability: each run scored on the pool of the *other* runs.

    A run whose relevant documents only it found loses them (they are unjudged, so not relevant for
    AP): the drop says how a new system that was not pooled would be underestimated.
    """
    if len(runs) < 2:
        raise ValidationError("leaving one run out needs at least two runs")
    lookup = grades_of(grades) if isinstance(grades, QrelsTable) else dict(grades)
    parsed = {measure: parse_measure(measure)}
    pool = pool_runs(runs, depth)
    full = _means(runs, pool_qrels(pool, lookup), parsed)[measure]
    full_rank = _ranks(full)
    found = []
    for name, run in runs.items():
        others = {other: table for other, table in runs.items() if other != name}
        qrels = pool_qrels(pool_runs(others, depth, topics=pool.topics), lookup)
        without = float(evaluate_tables(qrels, run, parsed).summary[measure])
        scores = dict(full, **{name: without})
        own = [key for key, who in pool.contributors.items() if who == (name,)]
        relevant = sum(1 for key in own if lookup.get(key, 0) >= relevance_level)
        found.append(LeftOut(name, len(own), relevant, full[name], without, full_rank[name], _ranks(scores)[name]))
    return found


def _ranks(scores: Mapping[str, float]) -> dict[str, int]:
    """Each run's place (1 = best; ties by name)."""
    return {run: place for place, run in enumerate(sorted(scores, key=lambda r: (-scores[r], r)), start=1)}


def _topic_key(topic: str) -> tuple:
    """Topics in numeric order when they are numbers (401 before 1000), else by text."""
    return (0, int(topic), "") if topic.isdigit() else (1, 0, topic)


CLASS_SYSTEMS = {f"team-{i:02d}": round(q, 2) for i, q in enumerate(
    (1.2, 1.1, 1.0, 0.95, 0.9, 0.8, 0.75, 0.7, 0.6, 0.5, 0.4, 0.3), start=1)}
"""The simulated class: twelve teams' systems, from good to weak, several close to each other (as a class's are)."""


@dataclass(frozen=True)
class SimulatedClass:
    """A simulated class's runs and the true grade of every document they rank (a complete judgment)."""

    runs: dict[str, RunTable]
    truth: QrelsTable
    label: str


def simulated_class(*, topics: int = 50, depth: int = 100, systems: Mapping[str, float] = CLASS_SYSTEMS,
                    seed: int = 7) -> SimulatedClass:
    """The pooling lab's sample: :func:`irlab.runs.simulate.simulate` with every candidate document judged.

    Each topic's candidates (``depth`` and half as many again) all carry their true grade, so any
    pool of these runs can be judged by looking the grades up, and the reference is complete.

    >>> sample = simulated_class(topics=3, depth=10)
    >>> len(sample.runs), sample.truth.query_ids
    (12, ('401', '402', '403'))
    """
    from irlab.runs.simulate import simulate
    from irlab.runs.trec import parse_qrels, parse_run

    candidates = depth + max(depth // 2, 10)
    collection = simulate(topics=topics, systems=systems, depth=depth, judged=candidates, seed=seed)
    truth = parse_qrels("\n".join(collection.qrels_lines()).encode(), "simulated-truth.txt")
    runs = {name: parse_run("\n".join(collection.run_lines(name)).encode(), name) for name in collection.runs}
    label = (f"Simulated class: {len(runs)} systems, {topics} topics, {depth} documents per topic, every document's "
             f"true grade known (seed {seed})")
    return SimulatedClass(runs, truth, label)
