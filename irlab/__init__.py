"""IR Lab's core: offline retrieval metrics with their breakdowns, scenarios and batch evaluation.

Pure Python; never imports Streamlit (the app's helpers live in :mod:`irlab.ui`). Each metric
comes as ``explain_*`` (a :class:`~irlab.explain.breakdown.Breakdown`: formula, numbers plugged in,
per-rank rows, value) and a plain function returning that breakdown's value.

>>> import irlab
>>> irlab.recall_at_k(["1", "2", "3", "4"], {"2": 1, "4": 1, "9": 1}, 2)
0.3333333333333333
>>> irlab.evaluate({"q": {"a": 1}}, {"q": ["b", "a"]}, ["RR", "nDCG@2"])
{'RR': 0.5, 'nDCG@2': 0.6309297535714575}
"""

from irlab.data.judgments import Judgments
from irlab.data.rankings import ideal_ranking, rank_by_score
from irlab.data.scenario import Item, Query, Scenario
from irlab.errors import ValidationError
from irlab.explain.breakdown import Breakdown, Column
from irlab.metrics.average_precision import (average_precision, explain_average_precision,
                                             explain_mean_average_precision, mean_average_precision)
from irlab.metrics.confusion import ConfusionCounts, confusion_at_k, explain_confusion_at_k
from irlab.metrics.conventions import CONVENTIONS, Variant
from irlab.metrics.curves import Curve, curve
from irlab.metrics.dcg import (cg_at_k, dcg_at_k, explain_cg_at_k, explain_dcg_at_k, explain_idcg_at_k,
                               explain_ndcg_at_k, idcg_at_k, ndcg_at_k)
from irlab.metrics.precision_recall import (explain_precision_at_k, explain_r_precision, explain_recall_at_k,
                                            explain_success_at_k, precision_at_k, r_precision, recall_at_k,
                                            success_at_k)
from irlab.metrics.reciprocal_rank import (explain_mean_reciprocal_rank, explain_reciprocal_rank, mean_reciprocal_rank,
                                           reciprocal_rank)
from irlab.metrics.registry import Measure, parse_measure
from irlab.runs.evaluate import evaluate

__all__ = [
    "Breakdown", "CONVENTIONS", "Column", "ConfusionCounts", "Curve", "Item", "Judgments", "Measure", "Query",
    "Scenario", "ValidationError", "Variant",
    "average_precision", "cg_at_k", "confusion_at_k", "curve", "dcg_at_k", "evaluate",
    "explain_average_precision", "explain_cg_at_k", "explain_confusion_at_k", "explain_dcg_at_k",
    "explain_idcg_at_k", "explain_mean_average_precision", "explain_mean_reciprocal_rank", "explain_ndcg_at_k",
    "explain_precision_at_k", "explain_r_precision", "explain_recall_at_k", "explain_reciprocal_rank",
    "explain_success_at_k", "idcg_at_k", "ideal_ranking", "mean_average_precision", "mean_reciprocal_rank",
    "ndcg_at_k", "parse_measure", "precision_at_k", "r_precision", "rank_by_score", "recall_at_k",
    "reciprocal_rank", "success_at_k",
]
