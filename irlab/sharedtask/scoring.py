"""Scoring one submitted run against a task's hidden qrels, saying nothing about the qrels it is not allowed to.

:func:`score_submission` reads the run once (a ``.gz`` is unpacked, at most ``limit`` bytes) and ranks it
once as trec_eval ranks it (:func:`irlab.runs.trec.rank_run`, which keeps the file's rank column in the
same order), then in two threads at once (Arrow and numpy release the GIL), neither sorting it again:

* the **run doctor** (:func:`irlab.runs.doctor.doctor`) on the *public* topics only: a qrels table
  that lists the task's topics and holds no judgment. So its findings (topics missed, topics not in
  the task, tied scores across rank 10, ranks that disagree with the scores, rankings deeper than
  1,000) depend on the run and the public topic list alone. The checks that read judgments
  (Judged@10, grades above 1, topics without a relevant document) are left out, and the missed
  topics' finding gets a text of its own (the doctor's quotes MAP with and without them);
* the **scores**: the ranked run joined with the hidden qrels and every
  measure computed as ``trec_eval -c`` does (:func:`irlab.runs.evaluate.evaluate_tables`): a judged
  topic the run misses counts 0. The values are trec_eval's to the last bit (the engine's tests),
  and the task's tests compare them with trec_eval's C code.

A run that ranks no topic of the task is refused before any judgment is read; every other refusal is
about the file itself (its format, a document twice in a topic), so an error message never depends on
the qrels. What the scores themselves disclose is bounded by the task (:mod:`irlab.sharedtask.disclosure`).

The run's top :data:`POOL_DEPTH` documents per topic are kept (gzip-compressed text, at most
:data:`MAX_POOL_BYTES`) for pooling the class's runs after the deadline; the run itself is not kept.
"""

from __future__ import annotations

import gzip
import hashlib
import threading
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace

import numpy as np
import pyarrow as pa

from irlab.errors import ValidationError
from irlab.metrics.registry import Measure
from irlab.runs.coverage import topic_list
from irlab.runs.doctor import Finding, doctor
from irlab.runs.evaluate import evaluate_tables
from irlab.runs.trec import MB, QrelsTable, RankedRun, RunTable, parse_run, qrels_table, rank_run, run_block, unpack

POOL_DEPTH = 100
"""Documents per topic kept from each run for the pool (TREC's usual depth)."""
MAX_POOL_BYTES = 2 * MB
"""The most a run's kept top documents may take, compressed (deeper ranks are dropped to fit)."""
PUBLIC_CHECKS = ("missing-topics", "unjudged-topics", "ties", "ranks", "duplicates", "depth")
"""The doctor's checks that read no judgment (shown to students before the deadline)."""
SCORING_AT_ONCE = 2
"""Runs scored at the same moment in one process (the others wait): a burst of submissions near the deadline
costs the server two runs' memory (about 300 MB for two million-line runs), not the burst's."""

_scoring = threading.BoundedSemaphore(SCORING_AT_ONCE)


@dataclass(frozen=True)
class Scored:
    """One submission scored: its run id, line count, digest, every measure's mean and per-topic values (in the
    order of ``topics``, the qrels' judged topics), the public findings, and the kept top documents."""

    runid: str
    lines: int
    digest: str
    topics: tuple[str, ...]
    means: dict[str, float]
    per_topic: dict[str, np.ndarray]
    findings: tuple[Finding, ...]
    pool: bytes
    pool_depth: int


def run_digest(data: bytes) -> str:
    """The SHA-256 of the run's text (after unpacking): the same run submitted twice is recognised."""
    return hashlib.sha256(data).hexdigest()


def topics_only(topics: Sequence[str]) -> QrelsTable:
    """A qrels table that lists ``topics`` and judges nothing (what the doctor may see of a hidden task)."""
    nothing = pa.nulls(0, pa.string())
    return qrels_table("topics", nothing, nothing, np.zeros(0, dtype=np.int64), empty_queries=list(topics))


def score_submission(data: bytes, name: str, qrels: QrelsTable, measures: Mapping[str, Measure], *,
                     limit: int, pool_depth: int = POOL_DEPTH, digest: str | None = None) -> Scored:
    """Score one uploaded run (see the module). ValidationError says what is wrong with the file.

    ``digest`` is the run's :func:`run_digest` when the caller has it already (hashing a large run costs).
    """
    with _scoring:
        raw = unpack(bytes(data), name, limit=limit)
        del data
        block = run_block(raw, name, ranks=True)
        ranked = set(_unique(block.queries))
        topics = qrels.query_ids
        if not ranked & set(topics):
            raise ValidationError(f"the run ranks none of the task's {len(topics)} topics ({topic_list(list(topics))});"
                                  f" it ranks {topic_list(sorted(ranked))}", path=name)
        lines = len(block.scores)
        run = rank_run(name, block, _runid(raw))  # ranked once, for the doctor and the scores alike
        del block
        with ThreadPoolExecutor(2, thread_name_prefix="score") as pool:
            checked = pool.submit(_public_findings, run, name, topics)
            evaluation = evaluate_tables(qrels, run.table, measures, complete=True)
            findings = checked.result()
        kept, depth = _top_documents(run.table, pool_depth)
        means = {m: float(evaluation.summary[m]) for m in measures}
        per_topic = {m: np.asarray(evaluation.per_query[m], dtype=np.float64) for m in measures}
        return Scored(run.table.runid, lines, digest or run_digest(raw), evaluation.queries, means, per_topic,
                      tuple(findings), kept, depth)


def _unique(queries: pa.Array | pa.ChunkedArray) -> list[str]:
    import pyarrow.compute as pc

    return pc.unique(queries).to_pylist()


def _runid(raw: bytes) -> str:
    from irlab.runs.trec import _last_tag  # trec_eval's runid: the tag of the last line

    return _last_tag(raw)[:100]


def _public_findings(run: RankedRun, name: str, topics: Sequence[str]) -> list[Finding]:
    """The doctor's judgment-free findings (see the module), on the run as the scorer ranked it."""
    found = [f for f in doctor(topics_only(topics), {name: run}) if f.check in PUBLIC_CHECKS]
    return [replace(f, why="the task's mean counts every topic, and a topic the run does not rank scores 0 on "
                           "every measure (trec_eval -c, as TREC reports do).")
            if f.check == "missing-topics" else f for f in found]


def _top_documents(table: RunTable, depth: int) -> tuple[bytes, int]:
    """The top ``depth`` documents of each topic as ``topic doc`` lines, gzip-compressed (shallower if too big)."""
    import pyarrow.csv as pacsv

    names = pa.array(list(table.query_ids), pa.string())
    while True:
        starts = table.offsets[:-1]
        lengths = np.minimum(np.diff(table.offsets), depth)
        rows = np.repeat(starts, lengths) + (np.arange(lengths.sum()) - np.repeat(np.cumsum(lengths) - lengths,
                                                                                  lengths))
        topic = pa.array(np.repeat(np.arange(len(table.query_ids)), lengths))
        kept = pa.table({"topic": names.take(topic), "doc": table.docs.take(pa.array(rows.astype(np.int64)))})
        out = pa.BufferOutputStream()  # Arrow writes the lines: a Python loop took 1.2 s for 100,000 of them
        pacsv.write_csv(kept, out, pacsv.WriteOptions(include_header=False, delimiter=" ", quoting_style="none"))
        packed = gzip.compress(out.getvalue().to_pybytes(), compresslevel=1, mtime=0)
        if len(packed) <= MAX_POOL_BYTES or depth <= 1:
            return packed, depth
        depth = max(1, depth // 2)


def pooled_run(name: str, packed: bytes) -> RunTable:
    """A submission's kept top documents as a run (scores fall with the rank, so the order is kept)."""
    lines = gzip.decompress(packed).decode().splitlines()
    rank: dict[str, int] = {}
    text = []
    for line in lines:
        topic, doc = line.split(" ", 1)
        rank[topic] = rank.get(topic, 0) + 1
        text.append(f"{topic} Q0 {doc} {rank[topic]} {-rank[topic]} {name}")
    return parse_run(("\n".join(text) + "\n").encode(), name)
