r"""trec_eval's ``-Z``: each query's value as a z-score against a reference mean and standard deviation.

A z-score file holds ``query measure mean stddev`` per line (from earlier runs, e.g. every run of a
track): how a measure usually scores on that query. With it, each value :math:`v` of query
:math:`q` becomes

.. math:: z = \frac{v - \mu_{q,m}}{\sigma_{q,m}}

so that hard and easy topics weigh alike when values are averaged (a 0.2 on a topic where
systems score 0.1 counts more than on one where they score 0.6). The measure is named as
trec_eval prints it (``P_10``, ``map``, ``num_ret``); every value printed becomes a z-score, ``Z``
before its name, and the ``all`` line sums them up as the measure does (the mean of the z-scores;
their sum for the counts; for ``gm_map`` the z-score of each query's ``log(max(AP, 0.00001))``,
then ``exp`` of the mean). ``runid``, ``relstring`` and ``num_q`` stay as they are, and with
``-c`` ``num_rel``'s ``all`` line is still the relevant documents judged (trec_eval's).

Conventions (trec_eval 10.0's ``-Z``): a query or measure missing from the file, or a standard
deviation of 0 with a value other than the mean, gives :data:`MISSING` (-1000000); a standard
deviation of 0 with the value equal to the mean gives 0. Unlike trec_eval, a line that is not
``query measure mean stddev`` with two numbers, or a query and measure given twice, is an error
naming the line (trec_eval reads a bad number as 0 and picks one of two lines by its binary search).

>>> z = parse_zscores(b"q1 P_5 0.4 0.2\nq1 num_ret 100 0\n", "z.txt")
>>> z.score("q1", "P_5", 0.6), z.score("q1", "num_ret", 100), z.score("q1", "num_ret", 90), z.score("q2", "P_5", 1.0)
(0.9999999999999998, 0.0, -1000000.0, -1000000.0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from irlab.errors import ValidationError
from irlab.runs.evaluate import MIN_GEO_MEAN, Evaluation
from irlab.runs.trec import MAX_FILE_BYTES, _check_text, _lines, _where, read_bytes

MISSING = -1_000_000.0
"""trec_eval's z-score for a query or measure the file does not hold (``MISSING_ZSCORE_VALUE``)."""
FIELDS = "query measure mean stddev"


@dataclass(frozen=True)
class ZScores:
    """A z-score file: ``(query, measure) -> (mean, standard deviation)``."""

    name: str
    stats: dict[tuple[str, str], tuple[float, float]]

    def score(self, query: str, measure: str, value: float) -> float:
        """``value``'s z-score for ``query`` and ``measure`` (the name trec_eval prints), as trec_eval computes it."""
        found = self.stats.get((query, measure))
        if found is None:
            return MISSING
        mean, sd = found
        if sd:
            return (value - mean) / sd
        return 0.0 if value == mean else MISSING


def parse_zscores(data: bytes, name: str | None = "zscores") -> ZScores:
    """A z-score file's bytes (see the module); ValidationError names the file and line of a problem."""
    _check_text(data, name, "z-score")
    stats: dict[tuple[str, str], tuple[float, float]] = {}
    lines: dict[tuple[str, str], int] = {}
    for number, fields in _lines(data, name):
        if len(fields) != 4:
            raise ValidationError(f"a z-score line has 4 fields ({FIELDS}), this one has {len(fields)}",
                                  path=_where(name, number))
        try:
            mean, sd = float(fields[2]), float(fields[3])
        except ValueError:
            raise ValidationError(f"the mean and standard deviation must be numbers, got {fields[2]!r} and "
                                  f"{fields[3]!r}", path=_where(name, number)) from None
        if not (math.isfinite(mean) and math.isfinite(sd)) or sd < 0:
            raise ValidationError(f"the mean must be a number and the standard deviation a number >= 0, got "
                                  f"{fields[2]!r} and {fields[3]!r}", path=_where(name, number))
        key = (fields[0], fields[1])
        if key in stats:
            raise ValidationError(f"query {key[0]!r} and measure {key[1]!r} are given twice (lines {lines[key]} and "
                                  f"{number})", path=_where(name, number))
        stats[key] = (mean, sd)
        lines[key] = number
    if not stats:
        raise ValidationError(f"the file has no z-score lines ({FIELDS})", path=name)
    return ZScores(name, stats)


def read_zscores_file(path: str | Path, *, limit: int = MAX_FILE_BYTES) -> ZScores:
    """Read a z-score file (plain or gzip)."""
    return parse_zscores(read_bytes(path, limit=limit), str(path))


def standardised(evaluation: Evaluation, zscores: ZScores) -> Evaluation:
    """``evaluation`` with every value a z-score and the ``all`` line summed up from them (see the module).

    The result says so (``zscored``): its report prints ``Z`` before each name and every value
    with 4 decimals, as trec_eval's ``-Z``.
    """
    per_query = dict(evaluation.per_query)
    summary = dict(evaluation.summary)
    for name, measure in evaluation.measures.items():
        kind, how = measure.definition.kind, measure.definition.summary
        if kind == "text" or how == "queries":
            continue  # runid, relstring: as they are; num_q counts queries
        raw = np.asarray(per_query[name], dtype=np.float64)
        if how == "gmean":
            raw = np.log(np.maximum(raw, MIN_GEO_MEAN))
        scores = np.array([zscores.score(q, measure.trec_name, v) for q, v in zip(evaluation.queries, raw.tolist())],
                          dtype=np.float64)
        per_query[name] = scores
        summary[name] = _summed(scores, how, evaluation, measure.family, summary[name])
    return replace(evaluation, per_query=per_query, summary=summary, zscored=True)


def _summed(scores: np.ndarray, how: str, evaluation: Evaluation, family: str, before: object) -> float | None:
    """The ``all`` value of z-scores: added query by query in order, then as the measure sums up."""
    n = len(scores)
    if how == "none":
        return None
    if how == "sum" and family == "NumRel" and evaluation.complete:
        return before  # trec_eval recounts the judged relevant documents whatever the per-query values
    total = float(np.cumsum(scores)[-1]) if n else 0.0
    if how == "sum":
        return total
    if how == "gmean":
        return math.exp(total / n) if n else 0.0
    return total / n if n else 0.0

