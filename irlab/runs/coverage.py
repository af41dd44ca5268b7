"""Judged topics a run does not rank: how many, which, and what they do to the mean.

TREC reports, trec_eval 10.0 with ``-c`` and IR Lab's defaults count every judged topic: a
topic the run does not rank scores 0 (trec_eval 10.0 without ``-c`` refuses such a run). Leaving
those topics out, as trec_eval 9 did silently, makes a run that skips its hardest topics look
better than one that tries them all: a lesson to show, not to hide. :func:`coverage` says, per
run, how many judged topics it missed and what each mean is with them (as 0) and without them.

>>> from irlab.runs.evaluate import evaluate_tables
>>> from irlab.runs.trec import parse_qrels, parse_run
>>> from irlab.metrics.measure_names import parse_measure
>>> qrels = parse_qrels(b"1 0 a 1\\n2 0 b 1\\n3 0 c 1\\n4 0 d 1\\n")
>>> run = parse_run(b"1 Q0 a 1 1 r\\n2 Q0 x 1 1 r\\n2 Q0 b 2 0 r\\n9 Q0 a 1 1 r\\n")
>>> c = coverage(evaluate_tables(qrels, run, {"AP": parse_measure("AP")}))
>>> c.missed, c.unjudged, c.means["AP"]
(('3', '4'), 1, (0.375, 0.75))
>>> print(c.sentence())
run ranks 2 of the 4 judged topics; the 2 it misses (3, 4) count 0: AP 0.3750 over all 4, 0.7500 over the 2 it ranks.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from irlab.runs.evaluate import MIN_GEO_MEAN, Evaluation


@dataclass(frozen=True)
class Coverage:
    """How much of the judged topics one run answers (see the module).

    ``means[name]`` is (the mean over every judged topic, a missed one counting 0; the mean over
    the topics the run ranks), for each measure summed up by a mean or a geometric mean.
    """

    run: str
    judged: int
    missed: tuple[str, ...]
    unjudged: int
    means: dict[str, tuple[float, float]] = field(default_factory=dict)

    @property
    def ranked(self) -> int:
        """Judged topics the run ranks."""
        return self.judged - len(self.missed)

    def sentence(self, measures: Sequence[str] | None = None, *, counted: bool = True) -> str:
        """The coverage in one plain sentence (what the runs page and ``irlab compare`` print).

        ``counted``: whether the means shown elsewhere count the missed topics as 0 (the default) or
        leave them out (trec_eval without ``-c``, ``irlab compare --ranked-only``).
        """
        if not self.missed:
            return f"{self.run} ranks every one of the {self.judged} judged topics."
        how = "count 0" if counted else "are left out here; counted as 0, as TREC reports do"
        text = (f"{self.run} ranks {self.ranked} of the {self.judged} judged topics; the {len(self.missed)} it misses "
                f"({topic_list(self.missed)}) {how}")
        shown = [name for name in (measures or self.means) if name in self.means]
        if shown:
            text += ": " + "; ".join(f"{name} {self.means[name][0]:.4f} over all {self.judged}, "
                                     f"{self.means[name][1]:.4f} over the {self.ranked} it ranks" for name in shown)
        return text + "."


def coverage(evaluation: Evaluation) -> Coverage:
    """The coverage of the run behind ``evaluation`` (evaluated with or without ``complete``)."""
    missing = evaluation.missing
    means = {}
    for name, measure in evaluation.measures.items():
        kind = measure.definition.summary
        values = evaluation.per_query[name]
        if kind not in ("mean", "gmean") or isinstance(values, list):
            continue
        values = np.asarray(values, dtype=np.float64)
        if evaluation.complete:
            everything, ranked = values, values[~missing]
        else:  # the missed topics are not among the values: they count 0
            everything, ranked = np.concatenate([values, np.zeros(len(evaluation.missed))]), values
        means[name] = (_summary(everything, kind), _summary(ranked, kind))
    return Coverage(evaluation.run_name, evaluation.judged_queries, evaluation.missed, evaluation.unjudged, means)


def _summary(values: np.ndarray, kind: str) -> float:
    """The mean (added in order, as trec_eval) or the geometric mean of ``values`` (0 when there are none)."""
    if not len(values):
        return 0.0
    if kind == "gmean":
        return math.exp(float(np.cumsum(np.log(np.maximum(values, MIN_GEO_MEAN)))[-1]) / len(values))
    return float(np.cumsum(values)[-1]) / len(values)


def topic_list(topics: Sequence[str], shown: int = 5) -> str:
    """A few topic ids for a message, and how many more.

    >>> topic_list(["401", "402"]), topic_list([str(t) for t in range(401, 409)])
    ('401, 402', '401, 402, 403, 404, 405 and 3 more')
    """
    head = ", ".join(topics[:shown])
    return head + (f" and {len(topics) - shown} more" if len(topics) > shown else "")
