"""Measure names: ``"nDCG@10"`` or ``"AP(denominator='min-k-r')@5"`` parsed into a :class:`Measure`.

Names follow ir_measures where it has one; trec_eval's names are accepted too. The form is
``Name(param=value, ...)@cutoff`` with Python literals as values.

========================================  ======================  ==========================================
measure                                   trec_eval name          meaning
========================================  ======================  ==========================================
``P@k``                                   ``P_k``                 Precision@k (divides by k)
``R@k``                                   ``recall_k``            Recall@k
``RR``, ``RR@k``                          ``recip_rank``          reciprocal rank (within the top k)
``AP``, ``AP@k``                          ``map``, ``map_cut_k``  average precision (within the top k)
``nDCG``, ``nDCG@k``                      ``ndcg``, ``ndcg_cut_k``  normalised DCG (within the top k)
``Rprec``                                 ``Rprec``               R-precision
``Success@k``                             ``success_k``           1 if a relevant item is in the top k
``CG@k``, ``DCG@k``, ``IDCG@k``           (ours)                  cumulative, discounted, ideal DCG
========================================  ======================  ==========================================

Parameters (defaults are trec_eval's; names in ir_measures are marked *):

* ``rel`` * (all but the gain measures): the relevance level, grade >= rel is relevant.
* ``denominator`` (ours): ``P``: ``'k'`` | ``'retrieved'``; ``R``: ``'relevant'`` | ``'min-k-r'``;
  ``AP``: ``'relevant'`` | ``'min-k-r'`` | ``'found'``.
* ``gain`` (ours): ``'linear'`` | ``'exponential'``; ``gains`` *: a mapping grade -> gain.
* ``dcg`` *: ``'log2'`` (linear gain) | ``'exp-log2'`` (exponential gain), as ir_measures.
* ``discount`` (ours): ``'log2'`` | ``'jarvelin-kekalainen'`` (alias ``'jk'``), the original
  Järvelin–Kekäläinen form with rank 1 undiscounted.
* ``ideal`` (ours): ``'judged'`` | ``'retrieved'``, the items the ideal ranking sorts.

>>> m = parse_measure("nDCG(dcg='exp-log2')@10")
>>> m.family, m.cutoff, m.options
('nDCG', 10, {'gain': 'exponential'})
>>> str(parse_measure("ndcg_cut_5")), str(parse_measure("map"))
('nDCG@5', 'AP')
>>> parse_measure("AP(discount='jk')@3")
Traceback (most recent call last):
...
irlab.errors.ValidationError: AP does not take the parameter 'discount'; it takes: rel, denominator
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from irlab.data.judgments import check_relevance_level
from irlab.data.rankings import check_cutoff
from irlab.errors import ValidationError
from irlab.explain.breakdown import Breakdown
from irlab.metrics.average_precision import explain_average_precision
from irlab.metrics.conventions import check_variant
from irlab.metrics.dcg import check_gain, explain_cg_at_k, explain_dcg_at_k, explain_idcg_at_k, explain_ndcg_at_k
from irlab.metrics.precision_recall import (explain_precision_at_k, explain_r_precision, explain_recall_at_k,
                                            explain_success_at_k)
from irlab.metrics.reciprocal_rank import explain_reciprocal_rank


@dataclass(frozen=True)
class Family:
    """A kind of measure: how to explain it, whether it needs a cutoff, which parameters it takes."""

    name: str
    explain: Callable[..., Breakdown]
    cutoff: str  # "required", "optional" or "none"
    params: tuple[str, ...]
    description: str


_GAIN_PARAMS = ("gain", "gains", "dcg", "discount")
FAMILIES: dict[str, Family] = {f.name: f for f in (
    Family("P", explain_precision_at_k, "required", ("rel", "denominator"), "Precision@k"),
    Family("R", explain_recall_at_k, "required", ("rel", "denominator"), "Recall@k"),
    Family("RR", explain_reciprocal_rank, "optional", ("rel",), "reciprocal rank"),
    Family("AP", explain_average_precision, "optional", ("rel", "denominator"), "average precision"),
    Family("nDCG", explain_ndcg_at_k, "optional", (*_GAIN_PARAMS, "ideal"), "normalised discounted cumulative gain"),
    Family("Rprec", explain_r_precision, "none", ("rel",), "R-precision"),
    Family("Success", explain_success_at_k, "required", ("rel",), "success (hit) at k"),
    Family("CG", explain_cg_at_k, "optional", ("gain", "gains"), "cumulative gain"),
    Family("DCG", explain_dcg_at_k, "optional", _GAIN_PARAMS, "discounted cumulative gain"),
    Family("IDCG", explain_idcg_at_k, "optional", (*_GAIN_PARAMS, "ideal"), "ideal discounted cumulative gain"),
)}

_ALIASES = {name.lower(): name for name in FAMILIES} | {"ndcg": "nDCG", "map": "AP", "recip_rank": "RR",
                                                         "mrr": "RR", "precision": "P", "recall": "R"}
_TREC_NAMES = re.compile(r"^(P|recall|map_cut|ndcg_cut|success)_(\d+)$")
_TREC_FAMILY = {"P": "P", "recall": "R", "map_cut": "AP", "ndcg_cut": "nDCG", "success": "Success"}
_NAME = re.compile(r"^\s*(?P<name>[A-Za-z_]+)\s*(?:\((?P<params>.*)\))?\s*(?:@\s*(?P<cutoff>\d+))?\s*$")
_DENOMINATOR_TOPIC = {"P": "precision_denominator", "R": "recall_denominator", "AP": "ap_denominator"}


def valid_measures() -> str:
    """The measure forms, for error messages and help texts."""
    forms = []
    for family in FAMILIES.values():
        forms.append({"required": f"{family.name}@k", "optional": f"{family.name}, {family.name}@k",
                      "none": family.name}[family.cutoff])
    return ", ".join(forms)


@dataclass(frozen=True)
class Measure:
    """A parsed measure: its family, cutoff and options (the explain function's keyword arguments).

    ``relevance_level`` is None when the name did not set ``rel``; :func:`irlab.evaluate` then
    uses its own relevance level.
    """

    family: str
    cutoff: int | None
    options: Mapping[str, Any] = field(default_factory=dict)
    relevance_level: int | None = None

    def __str__(self) -> str:
        params = dict(self.options)
        if self.relevance_level is not None:
            params = {"rel": self.relevance_level, **params}
        inner = ", ".join(f"{key}={value!r}" for key, value in params.items())
        return f"{self.family}{f'({inner})' if inner else ''}{'' if self.cutoff is None else f'@{self.cutoff}'}"

    def explain(self, ranking: Sequence[str], judgments: Mapping[str, int], *, relevance_level: int = 1) -> Breakdown:
        """This measure's breakdown for one query."""
        family = FAMILIES[self.family]
        kwargs = dict(self.options)
        if "rel" in family.params:
            kwargs["relevance_level"] = self.relevance_level if self.relevance_level is not None else relevance_level
        if family.cutoff == "none":
            return family.explain(ranking, judgments, **kwargs)
        return family.explain(ranking, judgments, self.cutoff, **kwargs)

    def compute(self, ranking: Sequence[str], judgments: Mapping[str, int], *, relevance_level: int = 1) -> float:
        """This measure's value for one query."""
        return self.explain(ranking, judgments, relevance_level=relevance_level).value


def parse_measure(text: str | Measure) -> Measure:
    """Parse a measure name (see the module docstring); ValidationError names what is wrong.

    >>> str(parse_measure("ndcg_cut_10")), str(parse_measure("P(rel=2)@5")), str(parse_measure("nDCG(discount='jk')"))
    ('nDCG@10', 'P(rel=2)@5', "nDCG(discount='jarvelin-kekalainen')")
    >>> parse_measure("NDKG@5")
    Traceback (most recent call last):
    ...
    irlab.errors.ValidationError: unknown measure 'NDKG@5'; valid measures: P@k, R@k, RR, RR@k, AP, AP@k, nDCG, nDCG@k, Rprec, Success@k, CG, CG@k, DCG, DCG@k, IDCG, IDCG@k
    """
    if isinstance(text, Measure):
        return text
    if not isinstance(text, str):
        raise ValidationError(f"a measure must be a name such as 'nDCG@10', got {text!r}")
    trec = _TREC_NAMES.match(text.strip())
    match = _NAME.match(text) if not trec else None
    if trec:
        family_name, params, cutoff = _TREC_FAMILY[trec.group(1)], "", trec.group(2)
    elif match and match.group("name").lower() in _ALIASES:
        family_name, params, cutoff = _ALIASES[match.group("name").lower()], match.group("params"), match.group("cutoff")
    else:
        raise ValidationError(f"unknown measure {text!r}; valid measures: {valid_measures()}")
    family = FAMILIES[family_name]
    k = check_cutoff(int(cutoff)) if cutoff is not None else None
    if family.cutoff == "required" and k is None:
        raise ValidationError(f"{family_name} needs a cutoff, e.g. '{family_name}@10'")
    if family.cutoff == "none" and k is not None:
        raise ValidationError(f"{family_name} takes no cutoff")
    options, relevance_level = _parse_params(family, params or "", text)
    return Measure(family_name, k, options, relevance_level)


def _parse_params(family: Family, params: str, text: str) -> tuple[dict[str, Any], int | None]:
    """The explain function's keyword arguments from ``name=value`` pairs."""
    if not params.strip():
        return {}, None
    try:
        call = ast.parse(f"f({params})", mode="eval").body
        assert isinstance(call, ast.Call) and not call.args
        pairs = {kw.arg: ast.literal_eval(kw.value) for kw in call.keywords}
        assert None not in pairs
    except (SyntaxError, ValueError, AssertionError):
        raise ValidationError(f"cannot read the parameters of {text!r}; write them as name=value, "
                              "e.g. nDCG(gain='exponential')@10") from None
    options: dict[str, Any] = {}
    relevance_level = None
    for key, value in pairs.items():
        if key not in family.params:
            raise ValidationError(f"{family.name} does not take the parameter {key!r}; it takes: "
                                  + ", ".join(family.params))
        if key == "rel":
            relevance_level = check_relevance_level(value)
        elif key == "denominator":
            options["denominator"] = check_variant(_DENOMINATOR_TOPIC[family.name], value)
        elif key == "dcg":
            if value not in ("log2", "exp-log2"):
                raise ValidationError(f"dcg must be 'log2' or 'exp-log2' (as ir_measures), got {value!r}")
            _set_once(options, "gain", "linear" if value == "log2" else "exponential", text)
        elif key in ("gain", "gains"):
            _set_once(options, "gain", check_gain(value), text)
        elif key == "discount":
            options["discount"] = check_variant("discount", "jarvelin-kekalainen" if value == "jk" else value)
        elif key == "ideal":
            options["ideal"] = check_variant("ideal", value)
    return options, relevance_level


def _set_once(options: dict[str, Any], key: str, value: Any, text: str) -> None:
    if key in options:
        raise ValidationError(f"{text!r} sets the gain twice (use one of gain, gains, dcg)")
    options[key] = value
