"""IR Lab's core: offline retrieval metrics with their breakdowns, scenarios and batch evaluation.

Pure Python; never imports Streamlit (the app's helpers live in :mod:`irlab.ui`). Each metric
comes as ``explain_*`` (a :class:`~irlab.explain.breakdown.Breakdown`: formula, numbers plugged in,
per-rank rows, value) and a plain function returning that breakdown's value.

>>> import irlab
>>> irlab.recall_at_k(["1", "2", "3", "4"], {"2": 1, "4": 1, "9": 1}, 2)
0.3333333333333333
>>> irlab.evaluate({"q": {"a": 1}}, {"q": ["b", "a"]}, ["RR", "nDCG@2"])
{'RR': 0.5, 'nDCG@2': 0.6309297535714575}


Names load on first use: ``import irlab`` is cheap, and ``python -m irlab evaluate`` loads only
what evaluating needs.
"""

from __future__ import annotations

import importlib
from typing import Any

_PUBLIC = {
    "Breakdown": "irlab.explain.breakdown",
    "CONVENTIONS": "irlab.metrics.conventions",
    "Column": "irlab.explain.breakdown",
    "ConfusionCounts": "irlab.metrics.confusion",
    "Evaluator": "irlab.runs.evaluator",
    "Curve": "irlab.metrics.curves",
    "Item": "irlab.data.scenario",
    "Judgments": "irlab.data.judgments",
    "Measure": "irlab.metrics.registry",
    "Query": "irlab.data.scenario",
    "Scenario": "irlab.data.scenario",
    "ValidationError": "irlab.errors",
    "Variant": "irlab.metrics.conventions",
    "average_precision": "irlab.metrics.average_precision",
    "bpref": "irlab.metrics.bpref",
    "eleven_point": "irlab.metrics.interpolated",
    "explain_bpref": "irlab.metrics.bpref",
    "explain_eleven_point": "irlab.metrics.interpolated",
    "explain_infap": "irlab.metrics.infap",
    "explain_iprec_at_recall": "irlab.metrics.interpolated",
    "infap": "irlab.metrics.infap",
    "iprec_at_recall": "irlab.metrics.interpolated",
    "read_judgments": "irlab.runs.evaluator",
    "read_qrels": "irlab.runs.trec",
    "read_run": "irlab.runs.trec",
    "cg_at_k": "irlab.metrics.dcg",
    "confusion_at_k": "irlab.metrics.confusion",
    "curve": "irlab.metrics.curves",
    "dcg_at_k": "irlab.metrics.dcg",
    "evaluate": "irlab.runs.evaluate",
    "explain_average_precision": "irlab.metrics.average_precision",
    "explain_cg_at_k": "irlab.metrics.dcg",
    "explain_confusion_at_k": "irlab.metrics.confusion",
    "explain_dcg_at_k": "irlab.metrics.dcg",
    "explain_idcg_at_k": "irlab.metrics.dcg",
    "explain_mean_average_precision": "irlab.metrics.average_precision",
    "explain_mean_reciprocal_rank": "irlab.metrics.reciprocal_rank",
    "explain_ndcg_at_k": "irlab.metrics.dcg",
    "explain_precision_at_k": "irlab.metrics.precision_recall",
    "explain_r_precision": "irlab.metrics.precision_recall",
    "explain_recall_at_k": "irlab.metrics.precision_recall",
    "explain_reciprocal_rank": "irlab.metrics.reciprocal_rank",
    "explain_success_at_k": "irlab.metrics.precision_recall",
    "idcg_at_k": "irlab.metrics.dcg",
    "ideal_ranking": "irlab.data.rankings",
    "mean_average_precision": "irlab.metrics.average_precision",
    "mean_reciprocal_rank": "irlab.metrics.reciprocal_rank",
    "ndcg_at_k": "irlab.metrics.dcg",
    "parse_measure": "irlab.metrics.registry",
    "precision_at_k": "irlab.metrics.precision_recall",
    "r_precision": "irlab.metrics.precision_recall",
    "rank_by_score": "irlab.data.rankings",
    "recall_at_k": "irlab.metrics.precision_recall",
    "reciprocal_rank": "irlab.metrics.reciprocal_rank",
    "success_at_k": "irlab.metrics.precision_recall",
}
"""Public name -> the module that defines it; imported on first use (PEP 562)."""

__all__ = sorted(_PUBLIC)


def __getattr__(name: str) -> Any:
    if name not in _PUBLIC:
        raise AttributeError(f"module 'irlab' has no attribute {name!r}")
    value = getattr(importlib.import_module(_PUBLIC[name]), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_PUBLIC])
