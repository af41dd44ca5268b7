"""The run doctor: the classic mistakes in a run and its qrels, found before anything is scored.

Each check gives one :class:`Finding`: how many (topics, lines, documents), why it matters, and
what to do. A count of 0 means the check found nothing. The checks, per run:

* **missing topics**: judged topics the run does not rank. trec_eval 10.0 refuses the run without
  ``-c``; with it (and in TREC reports, and IR Lab's defaults) each scores 0, and the finding gives
  MAP with them and without them: a run that skips hard topics looks better when they are dropped;
* **topics without judgments**: never evaluated (often ids written differently from the qrels);
* **tied scores across the cut-off** (default 10): trec_eval breaks ties by document id,
  descending, not by the order of the lines, so renaming documents changes P@10 and nDCG@10
  (usnistgov/trec_eval#22);
* **ranks that disagree with the scores** (a higher score with a later rank; ranks among equal
  scores are the ties' business): trec_eval ignores the rank column and ranks by score;
* **deeper than 1,000 documents**: TREC runs stop at 1,000, and measures without a cut-off read on;
* **unjudged documents in the top 10** (Judged@10 below 90%): they count as not relevant;
* **the same document twice in a topic**: trec_eval refuses the file (IR Lab too); other tools
  keep one of the lines, so scores depend on the tool;

and for the qrels: **grades above 1 read as binary** at relevance level 1 (grade 1 counts like
grade 4 for MAP, P@10, ...), and **judged topics without a relevant document** (every run scores
0 there, and the topic still counts).

A run is a file (read topic by topic, with its rank column), a :class:`~irlab.runs.trec.RunTable`
(already checked when it was read: ranks and duplicates cannot be checked any more), the raw
columns of a :class:`~irlab.runs.trec.RunBlock`, or a :class:`~irlab.runs.trec.RankedRun`: the
run as the scorer ranked it, with its rank column, read without sorting or joining it again (a
shared task's submission is read once for both).

>>> from irlab.runs.trec import parse_qrels, run_block
>>> qrels = parse_qrels(b"1 0 a 1\\n1 0 b 0\\n2 0 c 2\\n3 0 d 1\\n")
>>> run = run_block(b"1 Q0 a 1 1.0 r\\n1 Q0 b 2 1.0 r\\n1 Q0 x 3 2.0 r\\n2 Q0 c 1 3 r\\n2 Q0 c 2 2 r\\n", "run.txt",
...                 ranks=True)
>>> for finding in doctor(qrels, {"run.txt": run}, cutoff=2):  # doctest: +ELLIPSIS
...     if finding.count:
...         print(finding.what)
the qrels grade documents up to 2, and 1 judgment has a grade above 1
run.txt misses 1 of the 3 judged topics (3)
run.txt has tied scores across rank 2 in 1 topic (1)
run.txt has ranks that disagree with its scores in 1 topic (1): 2 lines are ranked before a line with ...
run.txt has the same document twice in 1 topic (2): 1 line too many
run.txt has Judged@10 = 75.0%: 1 document in the top 10 of its topics without a judgment
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from irlab.metrics.measure_names import parse_measure
from irlab.runs.coverage import topic_list
from irlab.runs.judge import judge
from irlab.runs.stream import BLOCK_BYTES, ReadWhole, TopicBlocks
from irlab.runs.trec import MAX_FILE_BYTES, QrelsTable, RankedRun, RunBlock, RunTable, rank_run, read_bytes, run_block

CUTOFF = 10
"""The rank where ties are looked for, and the depth of Judged@k."""
DEPTH = 1_000
"""TREC's depth of a run: more documents per topic are flagged."""
JUDGED_ENOUGH = 0.9
"""Judged@10 below this is flagged."""


@dataclass(frozen=True)
class Finding:
    """One check of the doctor: ``count`` things found (0: nothing), what they are, why it matters, what to do.

    ``run`` is None for a finding about the qrels.
    """

    check: str
    run: str | None
    count: int
    what: str
    why: str
    todo: str

    @property
    def ok(self) -> bool:
        return self.count == 0

    def line(self) -> str:
        """The finding in one line: what, why, what to do."""
        if self.ok:
            return f"ok: {self.what}"
        return f"{self.what}. Why it matters: {self.why} What to do: {self.todo}"


@dataclass
class _Tally:
    """What the checks count while a run is read, block by block."""

    topics: set
    ties: list
    tied_lines: int = 0
    rank_topics: list = None
    rank_lines: int = 0
    ranks_checked: bool = True
    deep: list = None
    duplicate_topics: list = None
    duplicate_lines: int = 0
    judged_top: int = 0
    shown_top: int = 0
    ap_sum: float = 0.0
    ap_topics: int = 0

    def __post_init__(self) -> None:
        self.rank_topics, self.deep, self.duplicate_topics = [], [], []


def doctor(qrels: QrelsTable, runs: Mapping[str, str | Path | RunTable | RunBlock | RankedRun], *,
           relevance_level: int = 1, cutoff: int = CUTOFF, depth: int = DEPTH, limit: int = MAX_FILE_BYTES,
           block_bytes: int = BLOCK_BYTES) -> list[Finding]:
    """Every check of the module on ``qrels`` and each run (``{name: file, RunTable, RunBlock or RankedRun}``).

    A :class:`~irlab.runs.trec.RankedRun` is a run already ranked for scoring, with its rank column
    (:func:`~irlab.runs.trec.rank_run`): the doctor reads it as it is, and its findings are those of
    the same lines given as a file or a block.
    """
    findings = _qrels_findings(qrels, relevance_level)
    for name, run in runs.items():
        tally = _Tally(set(), [])
        for ranked in _ranked_blocks(run, limit, block_bytes):
            _examine(ranked, qrels, tally, relevance_level, cutoff, depth)
        findings += _run_findings(name, qrels, tally, cutoff, depth)
    return findings


def _ranked_blocks(run: str | Path | RunTable | RunBlock | RankedRun, limit: int, block_bytes: int):
    """The run as ranked blocks of whole topics (a file whose topics are not each in one piece: one block).

    A document's repeated lines are dropped (the first line is kept) and counted.
    """
    if isinstance(run, RankedRun):
        yield run
    elif isinstance(run, RunTable):
        yield RankedRun(run)
    elif isinstance(run, RunBlock):
        yield rank_run("run", run, repeats="keep first")
    else:
        try:
            blocks = list(_streamed(run, limit, block_bytes))
        except ReadWhole:
            blocks = [run_block(read_bytes(run, limit=limit), str(run), ranks=True)]
        for block in blocks:
            yield rank_run("run", block, repeats="keep first")


def _streamed(path: str | Path, limit: int, block_bytes: int):
    yield from TopicBlocks(path, block_bytes=block_bytes, limit=limit, ranks=True)


def _examine(ranked: RankedRun, qrels: QrelsTable, tally: _Tally, level: int, cutoff: int, depth: int) -> None:
    """Count everything the checks need in one ranked block of whole topics (trec_eval's order: topic, score
    descending, document descending)."""
    table = ranked.table
    names = list(table.query_ids)
    tally.topics |= set(names)
    if len(ranked.repeats):
        tally.duplicate_lines += len(ranked.repeats)
        tally.duplicate_topics += sorted({names[q] for q in np.unique(ranked.repeats).tolist()})
    starts, ends = table.offsets[:-1], table.offsets[1:]
    topic = np.repeat(np.arange(len(names), dtype=np.int64), np.diff(table.offsets))
    ordered_scores = table.scores
    same_score = np.zeros(len(topic), dtype=bool)
    if len(topic) > 1:
        tie = (ordered_scores[1:] == ordered_scores[:-1]) & (topic[1:] == topic[:-1])
        same_score[1:] |= tie
        same_score[:-1] |= tie
    tally.tied_lines += int(same_score.sum())
    for name, start, end in zip(names, starts.tolist(), ends.tolist()):
        if end - start > cutoff and ordered_scores[start + cutoff - 1] == ordered_scores[start + cutoff]:
            tally.ties.append(name)
        if end - start > depth:
            tally.deep.append(name)
    if ranked.ranks is None:
        tally.ranks_checked = False
    else:  # a higher score must not have a later rank: compare each run of equal scores with the next
        ranks = ranked.ranks
        group_start = np.flatnonzero(np.concatenate([[True], (topic[1:] != topic[:-1]) |
                                                     (ordered_scores[1:] != ordered_scores[:-1])]))
        unreadable = np.isnan(ranks)
        filled = np.where(unreadable, 0.0, ranks)
        lowest, highest = np.minimum.reduceat(filled, group_start), np.maximum.reduceat(filled, group_start)
        same_topic = topic[group_start[1:]] == topic[group_start[:-1]]
        bad_group = np.zeros(len(group_start), dtype=bool)
        bad_group[1:] = same_topic & (lowest[1:] <= highest[:-1])
        wrong = np.repeat(bad_group, np.diff(np.concatenate([group_start, [len(topic)]]))) | unreadable
        if wrong.any():
            tally.rank_lines += int(wrong.sum())
            tally.rank_topics += sorted(names[code] for code in np.unique(topic[wrong]).tolist())
    judged_here = [q for q in names if q in qrels.index]
    if judged_here and not len(qrels):  # topics without a single judgment (a shared task's public topics):
        # every document is unjudged and every AP 0, as the join below would find
        lengths = np.diff(table.offsets)[np.array([q in qrels.index for q in names], dtype=bool)]
        tally.shown_top += int(np.minimum(lengths, CUTOFF).sum())
        tally.ap_topics += len(judged_here)
    elif judged_here:
        rankings = judge(qrels, table, complete=False, queries=judged_here).rankings
        tally.judged_top += int(rankings.count_at(rankings.grades >= 0, CUTOFF).sum())
        tally.shown_top += int(np.minimum(rankings.num_ret, CUTOFF).sum())
        ap = parse_measure("AP").compute_all(rankings, relevance_level=level)
        tally.ap_sum += float(np.sum(ap))
        tally.ap_topics += len(ap)


def _qrels_findings(qrels: QrelsTable, level: int) -> list[Finding]:
    findings = []
    top = qrels.top_grade
    above = int(np.sum(qrels.grades > level)) if level == 1 else 0
    findings.append(Finding(
        "graded-as-binary", None, above,
        f"the qrels grade documents up to {top}, and {_count(above, 'judgment has', 'judgments have')} a grade "
        f"above 1" if above else f"the qrels are read at relevance level {level} (grades up to {top})",
        f"at relevance level 1 the binary measures (MAP, P@10, R@k, RR) count a grade 1 document as fully as a grade "
        f"{top} one; only nDCG and the other graded measures use the grades.",
        "report nDCG beside the binary measures, or the binary measures at -l 2 too, and say which level you used."))
    query = np.repeat(np.arange(len(qrels.query_ids)), np.diff(qrels.offsets))
    relevant = np.bincount(query[qrels.grades >= level], minlength=len(qrels.query_ids))
    empty = [q for q, n in zip(qrels.query_ids, relevant) if n == 0]
    findings.append(Finding(
        "no-relevant", None, len(empty),
        f"{_count(len(empty), 'judged topic has', 'judged topics have')} no relevant document"
        + (f" ({topic_list(empty)})" if empty else ""),
        "every run scores 0 on such a topic and it still counts in the mean (trec_eval), which lowers every mean "
        "alike and shrinks the differences between runs.",
        "nothing to fix in a run; say how many such topics there are, or leave them out of the qrels for every "
        "run alike."))
    return findings


def _run_findings(name: str, qrels: QrelsTable, tally: _Tally, cutoff: int, depth: int) -> list[Finding]:
    judged = len(qrels.query_ids)
    missed = [q for q in qrels.query_ids if q not in tally.topics]
    unjudged = sorted(q for q in tally.topics if q not in qrels.index)
    ranked = judged - len(missed)
    with_zeros = tally.ap_sum / judged if judged else math.nan
    without = tally.ap_sum / tally.ap_topics if tally.ap_topics else math.nan
    findings = [
        Finding("missing-topics", name, len(missed),
                f"{name} misses {len(missed)} of the {judged} judged topics ({topic_list(missed)})" if missed
                else f"{name} ranks every one of the {judged} judged topics",
                f"trec_eval 10.0 refuses the run without -c; with -c, in TREC reports and in IR Lab each missed "
                f"topic scores 0: MAP {with_zeros:.4f} over all {judged}, {without:.4f} over the {ranked} it ranks. "
                "A run that skips hard topics looks better when they are left out.",
                "rank every judged topic (a topic with no good answer still needs its lines), and report means "
                "over all judged topics (-c)."),
        Finding("unjudged-topics", name, len(unjudged),
                f"{name} ranks {_count(len(unjudged), 'topic', 'topics')} the qrels do not judge "
                f"({topic_list(unjudged)})" if unjudged else f"{name} ranks no topic outside the qrels",
                "trec_eval evaluates judged topics only: these never enter any mean.",
                "check that the topic ids are written as in the qrels (the same track and year, no prefix or "
                "leading zeros)."),
        Finding("ties", name, len(tally.ties),
                f"{name} has tied scores across rank {cutoff} in {_count(len(tally.ties), 'topic', 'topics')} "
                f"({topic_list(tally.ties)})" if tally.ties
                else f"{name} has no tied scores across rank {cutoff} ({tally.tied_lines:,} lines tie elsewhere)",
                f"trec_eval breaks ties by document id (descending), not by the order of your lines, so which "
                f"tied documents make the top {cutoff} depends on their names: renaming documents changes "
                f"P@{cutoff} and nDCG@{cutoff} (usnistgov/trec_eval#22).",
                "give every document of a topic its own score (e.g. subtract rank × 0.000001) so the file states "
                "your order."),
    ]
    if tally.ranks_checked:
        findings.append(Finding(
            "ranks", name, len(tally.rank_topics),
            f"{name} has ranks that disagree with its scores in {_count(len(tally.rank_topics), 'topic', 'topics')} "
            f"({topic_list(tally.rank_topics)}): {_count(tally.rank_lines, 'line is', 'lines are')} ranked before a "
            "line with a higher score, or have no number as rank"
            if tally.rank_topics else f"{name} has ranks that agree with its scores",
            "trec_eval ignores the rank column and ranks by score (ties by document id): if your system meant the "
            "ranks, it is evaluated on another order.",
            "write scores that decrease down your ranking (e.g. score = 1000 − rank)."))
        findings.append(Finding(
            "duplicates", name, len(tally.duplicate_topics),
            f"{name} has the same document twice in {_count(len(tally.duplicate_topics), 'topic', 'topics')} "
            f"({topic_list(tally.duplicate_topics)}): {_count(tally.duplicate_lines, 'line', 'lines')} too many"
            if tally.duplicate_topics else f"{name} lists each document once per topic",
            "trec_eval 10.0 refuses such a file (IR Lab too); other tools keep one of the lines, so the score "
            "depends on the tool.",
            "keep one line per document and topic (the one with the best score)."))
    findings.append(Finding(
        "depth", name, len(tally.deep),
        f"{name} ranks more than {depth:,} documents in {_count(len(tally.deep), 'topic', 'topics')} "
        f"({topic_list(tally.deep)})" if tally.deep else f"{name} ranks at most {depth:,} documents per topic",
        f"TREC runs stop at {depth:,} documents; measures without a cut-off (MAP, R-precision, bpref, recall) read "
        f"further, so the run is not comparable with runs cut at {depth:,}.",
        f"cut the run at {depth:,} documents per topic (trec_eval -M {depth} does the same when evaluating)."))
    share = tally.judged_top / tally.shown_top if tally.shown_top else 1.0
    unjudged_top = tally.shown_top - tally.judged_top
    findings.append(Finding(
        "judged-at-10", name, unjudged_top if share < JUDGED_ENOUGH else 0,
        f"{name} has Judged@{CUTOFF} = {share:.1%}: {_count(unjudged_top, 'document', 'documents')} in the top "
        f"{CUTOFF} of its topics without a judgment",
        "an unjudged document counts as not relevant, so a run that finds what the pool never saw (a new kind of "
        "system) is underestimated.",
        "report Judged@10 beside the scores, and compare with bpref or infAP, or with judged-only rankings (-J)."))
    return findings


def _count(n: int, one: str, many: str) -> str:
    return f"{n:,} {one if n == 1 else many}"
