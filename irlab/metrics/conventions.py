"""The named conventions of offline metrics: one table the metrics and the app both read.

Metrics that differ between tools take the choice as a named parameter (``gain="linear"``,
``discount="log2"``, ...). This module lists every accepted name with its formula, what it
means, and which well-known tools use it, so a function can validate its argument and the
Conventions chapter can show the same facts. Defaults follow trec_eval (docs/architecture.md, "Metric conventions").
"""

from __future__ import annotations

from dataclasses import dataclass

from irlab.errors import ValidationError


@dataclass(frozen=True)
class Variant:
    """One way to compute part of a metric."""

    name: str
    label: str
    formula: str
    description: str
    used_by: str
    default: bool = False


CONVENTIONS: dict[str, tuple[Variant, ...]] = {
    "gain": (
        Variant("linear", "linear gain", r"g(rel) = rel",
                "The gain of an item is its grade.",
                "trec_eval (ndcg, ndcg_cut), ir_measures nDCG, scikit-learn ndcg_score, ranx ndcg; "
                "the article and notebook of the walkthrough", default=True),
        Variant("exponential", "exponential gain", r"g(rel) = 2^{rel} - 1",
                "Each grade step doubles the gain, so top grades dominate (Burges et al., 2005).",
                "ir_measures nDCG(dcg='exp-log2'), ranx ndcg_burges, LambdaMART-style learning to rank; "
                "the notebook's \"industry\" formula"),
    ),
    "discount": (
        Variant("log2", "log2(k + 1) discount", r"d(k) = \log_2(k + 1)",
                "The gain at rank k is divided by log2(k + 1): rank 1 by 1, rank 2 by 1.585, rank 3 by 2, ...",
                "trec_eval 9 and later, ir_measures, scikit-learn, ranx; the article and notebook", default=True),
        Variant("jarvelin-kekalainen", "original Järvelin–Kekäläinen discount",
                r"d(1) = 1,\; d(k) = \log_2 k \text{ for } k \ge 2",
                "Rank 1 is not discounted; rank k >= 2 is divided by log2(k), so ranks 1 and 2 count fully.",
                "Järvelin & Kekäläinen (2002) with base 2; older trec_eval releases; "
                "the NDCG exercise notebook of the sources"),
    ),
    "ideal": (
        Variant("judged", "IDCG over all judged items",
                r"\mathrm{IDCG@}K = \mathrm{DCG@}K(\text{all judged items, best first})",
                "The ideal ranking sorts every judged item of the query by grade, retrieved or not.",
                "trec_eval, ir_measures; the sources", default=True),
        Variant("retrieved", "IDCG over the retrieved items only",
                r"\mathrm{IDCG@}K = \mathrm{DCG@}K(\text{retrieved items, best first})",
                "The ideal ranking only re-sorts what the system returned, so missing a relevant item "
                "is not penalised and NDCG can be higher.",
                "scikit-learn ndcg_score, torchmetrics retrieval_normalized_dcg"),
    ),
    "ap_denominator": (
        Variant("relevant", "all relevant items (R)", r"\mathrm{AP@}K = \frac{1}{R}\sum_{k=1}^{K} P@k \cdot rel_k",
                "Divide by every relevant item of the query, retrieved or not.",
                "trec_eval (map, map_cut), ir_measures AP; the sources", default=True),
        Variant("min-k-r", "min(K, R)", r"\mathrm{AP@}K = \frac{1}{\min(K, R)}\sum_{k=1}^{K} P@k \cdot rel_k",
                "Divide by the most relevant items that could fit in the top K.",
                "ml_metrics apk (Kaggle), many recommender-system libraries"),
        Variant("found", "relevant items found in the top K",
                r"\mathrm{AP@}K = \frac{1}{TP@K}\sum_{k=1}^{K} P@k \cdot rel_k",
                "Divide by the relevant items the system actually returned, so missing ones are not penalised.",
                "torchmetrics retrieval_average_precision"),
    ),
    "precision_denominator": (
        Variant("k", "K", r"\mathrm{Precision@}K = \frac{TP@K}{K}",
                "Divide by K, also when fewer than K items were returned.",
                "trec_eval (P), ir_measures P; the sources", default=True),
        Variant("retrieved", "items returned (at most K)", r"\mathrm{Precision@}K = \frac{TP@K}{TP@K + FP@K}",
                "Divide by the number of items actually returned in the top K.",
                "torchmetrics retrieval_precision(adaptive_k=True)"),
    ),
    "recall_denominator": (
        Variant("relevant", "all relevant items (R)", r"\mathrm{Recall@}K = \frac{TP@K}{TP@K + FN@K} = \frac{TP@K}{R}",
                "Divide by every relevant item of the query.",
                "trec_eval (recall), ir_measures R; the sources", default=True),
        Variant("min-k-r", "min(K, R)", r"\mathrm{Recall@}K = \frac{TP@K}{\min(K, R)}",
                "Divide by the most relevant items that could fit in the top K, so a perfect top K scores 1.",
                "some recommender-system libraries (capped recall)"),
    ),
    "err_grades": (
        Variant("gdeval", "top grade 4 (gdeval)", r"R(g) = \frac{2^{g} - 1}{2^{4}}",
                "A grade g satisfies the user with probability (2^g - 1) / 16: the top grade is fixed at 4, "
                "so binary judgments give 1/16.",
                "gdeval.pl (the TREC Web track's ERR@20), ir_measures ERR (it runs gdeval); trec_eval has no ERR",
                default=True),
        Variant("query-max", "top grade of the query", r"R(g) = \frac{2^{g} - 1}{2^{g_{\max}}}",
                "The top grade is the highest grade judged for the query, so its best documents satisfy with "
                "probability 1 - 2^(-g_max); binary judgments give 1/2.",
                "Chapelle et al. (2009) with g_max the top grade of the judgments"),
    ),
}
"""Every named variant, by topic; the first of each topic is the default (trec_eval's; for ERR, which trec_eval does
not have, ir_measures')."""

TOPIC_LABELS = {
    "gain": "DCG gain",
    "discount": "DCG discount",
    "ideal": "IDCG basis",
    "ap_denominator": "AP@K denominator",
    "precision_denominator": "Precision@K denominator",
    "recall_denominator": "Recall@K denominator",
    "err_grades": "ERR's grade mapping",
}


def check_variant(topic: str, name: str) -> str:
    """Return ``name`` if it is a variant of ``topic``, else raise ValidationError listing them.

    >>> check_variant("gain", "exponential")
    'exponential'
    >>> check_variant("discount", "log10")
    Traceback (most recent call last):
    ...
    irlab.errors.ValidationError: unknown DCG discount 'log10'; choose one of: 'log2', 'jarvelin-kekalainen'
    """
    names = [variant.name for variant in CONVENTIONS[topic]]
    if name not in names:
        choices = ", ".join(repr(n) for n in names)
        raise ValidationError(f"unknown {TOPIC_LABELS[topic]} {name!r}; choose one of: {choices}")
    return name


def variant(topic: str, name: str) -> Variant:
    """The :class:`Variant` called ``name`` of ``topic``.

    >>> variant("ideal", "retrieved").label
    'IDCG over the retrieved items only'
    """
    check_variant(topic, name)
    return next(v for v in CONVENTIONS[topic] if v.name == name)


def default_variant(topic: str) -> str:
    """The name of ``topic``'s default (trec_eval) variant.

    >>> default_variant("discount")
    'log2'
    """
    return next(v.name for v in CONVENTIONS[topic] if v.default)
