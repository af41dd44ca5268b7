"""Reading measure names: IR Lab's and ir_measures' spelling, trec_eval's names and its ``-m`` arguments.

The measures themselves are declared in :mod:`irlab.metrics.registry`; this module turns text
into a :class:`~irlab.metrics.registry.Measure` and says precisely what is wrong with text that
names none. Three forms are read:

* ``Name(param=value, ...)@cutoff`` with Python literals as values (ir_measures' spelling):
  ``nDCG@10``, ``P(rel=2)@5``, ``nDCG(dcg='exp-log2')@10``;
* trec_eval's printed names: ``P_5``, ``ndcg_cut_10``, ``map``, ``iprec_at_recall_0.50``;
* trec_eval's ``-m`` arguments (:func:`parse_trec_measures`, :func:`trec_measure_set`):
  ``P.5,10``, ``ndcg.1=3,2=9``, and the sets ``official``, ``set`` and ``all_trec``.

A rank cutoff is a whole number from 1 to :data:`MAX_CUTOFF`: no ranking is longer, and a
larger K (``P@99999999999999999999``) would overflow the kernels' 64-bit arithmetic.

>>> m = parse_measure("nDCG(dcg='exp-log2')@10")
>>> m.family, m.cutoff, m.options
('nDCG', 10, {'gain': 'exponential'})
>>> str(parse_measure("ndcg_cut_5")), str(parse_measure("map")), parse_measure("P@10").trec_name
('nDCG@5', 'AP', 'P_10')
>>> [m.trec_name for m in parse_trec_measures("iprec_at_recall..5,.25")]
['iprec_at_recall_0.25', 'iprec_at_recall_0.50']
>>> parse_measure("AP(discount='jk')@3")
Traceback (most recent call last):
...
irlab.errors.ValidationError: AP does not take the parameter 'discount'; it takes: rel, denominator
>>> parse_measure("P@10000000000")
Traceback (most recent call last):
...
irlab.errors.ValidationError: the cutoff of 'P@10000000000' is larger than 1,000,000,000: no ranking is that long
"""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Iterable, Sequence
from typing import Any

from irlab.data.rankings import check_cutoff
from irlab.errors import ValidationError
from irlab.metrics import interpolated
from irlab.metrics.registry import (
    FAMILIES,
    TREC_NAMES,
    TREC_NICKNAMES,
    Family,
    Measure,
    TrecName,
    families_for_people,
    trec_cutoff_label,
)

MAX_CUTOFF = 10**9
"""The largest rank cutoff (K) and ``-m`` cutoff accepted: far beyond any ranking, far below 2^63."""

_DISCOUNT_ALIASES = {"jk": "jarvelin-kekalainen"}
_ALIASES: dict[str, str] = {alias: f.name for f in FAMILIES.values() if f.name != "runid"
                            for alias in (f.name.lower(), *f.aliases)}
_NAME = re.compile(r"^\s*(?P<name>[A-Za-z_0-9]+)\s*(?:\((?P<params>.*)\))?\s*"
                   r"(?:@\s*(?P<cutoff>\d+(?:\.\d*)?|\.\d+))?\s*$")
_TREC_CUT = re.compile(r"^(?P<name>[A-Za-z_0-9]+?)_(?P<cutoff>\d+(?:\.\d+)?)$")


def valid_measures(families: Iterable[str] | None = None) -> str:
    """The measure forms (of ``families``, or of every family), for error messages and help texts."""
    forms = []
    for family in families_for_people() if families is None else [FAMILIES[name] for name in families]:
        k = "r" if family.cutoff_kind == "recall" else "k"
        forms.append({"required": f"{family.name}@{k}", "optional": f"{family.name}, {family.name}@{k}",
                      "none": family.name}[family.cutoff])
    return ", ".join(forms)


# --- parsing names --------------------------------------------------------------------------------

def parse_measure(text: str | Measure, families: Sequence[str] | None = None) -> Measure:
    """Parse a measure name (see the module docstring); ValidationError names what is wrong.

    ``families`` limits the measures accepted (exercises take the walkthrough's only).

    >>> str(parse_measure("ndcg_cut_10")), str(parse_measure("P(rel=2)@5")), str(parse_measure("nDCG(discount='jk')"))
    ('nDCG@10', 'P(rel=2)@5', "nDCG(discount='jarvelin-kekalainen')")
    >>> str(parse_measure("iprec_at_recall_0.10")), str(parse_measure("Rprec_mult_0.20")), str(parse_measure("bpref"))
    ('IPrec@0.1', 'Rprec(mult=0.2)', 'Bpref')
    >>> parse_measure("NDKG@5")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    irlab.errors.ValidationError: unknown measure 'NDKG@5'; valid measures: P@k, R@k, RR, RR@k, ...
    """
    if families is not None:
        try:
            measure = parse_measure(text)
        except ValidationError as error:
            if not error.message.startswith("unknown measure"):
                raise
            measure = None
        if measure is None or measure.family not in families:
            raise ValidationError(f"unknown measure {text!r}; valid measures: {valid_measures(families)}")
        return measure
    if isinstance(text, Measure):
        if text.definition.cutoff_kind == "rank" and isinstance(text.cutoff, int):
            rank_cutoff(text.cutoff, str(text))
        return text
    if not isinstance(text, str):
        raise ValidationError(f"a measure must be a name such as 'nDCG@10', got {text!r}")
    stripped = text.strip()
    if stripped in TREC_NAMES:
        family, trec = TREC_NAMES[stripped]
        if trec.cutoffs:
            example = trec_cutoff_label(trec.cutoffs[1], family.cutoff_kind)
            raise ValidationError(f"{stripped} needs a cutoff, e.g. '{stripped}_{example}'")
        return Measure(family.name, None, dict(trec.options))
    cut = _TREC_CUT.match(stripped)
    if cut and cut.group("name") in TREC_NAMES and TREC_NAMES[cut.group("name")][1].cutoffs:
        family, trec = TREC_NAMES[cut.group("name")]
        return _trec_measure(family, trec, cut.group("cutoff"), stripped)
    match = _NAME.match(text)
    if not match or match.group("name").lower() not in _ALIASES:
        raise ValidationError(f"unknown measure {text!r}; valid measures: {valid_measures()}")
    family = FAMILIES[_ALIASES[match.group("name").lower()]]
    cutoff = _parse_cutoff(family, match.group("cutoff"), text)
    options, relevance_level = _parse_params(family, match.group("params") or "", text)
    return Measure(family.name, cutoff, options, relevance_level)


def _parse_cutoff(family: Family, cutoff: str | None, text: str) -> int | float | None:
    if cutoff is None:
        if family.cutoff == "required":
            example = "0.5" if family.cutoff_kind == "recall" else "10"
            raise ValidationError(f"{family.name} needs a cutoff, e.g. '{family.name}@{example}'")
        return None
    if family.cutoff == "none":
        raise ValidationError(f"{family.name} takes no cutoff")
    if family.cutoff_kind == "recall":
        return interpolated.check_recall_level(float(cutoff))
    if not cutoff.isdigit():
        raise ValidationError(f"the cutoff of {text!r} must be a whole number >= 1")
    return rank_cutoff(cutoff, text)


def rank_cutoff(digits: str | int, text: str) -> int:
    """A rank cutoff from its digits, checked: a whole number from 1 to :data:`MAX_CUTOFF`.

    The digits are counted before they are converted, so a cutoff of a million digits costs
    nothing (Python refuses to convert more than 4,300 digits anyway).

    >>> rank_cutoff("0010", "P@0010")
    10
    >>> rank_cutoff("9" * 5000, "P@" + "9" * 5000)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    irlab.errors.ValidationError: the cutoff of 'P@99...' is larger than 1,000,000,000: no ranking is that long
    """
    value = _saturated(digits) if isinstance(digits, str) else digits
    if value > MAX_CUTOFF:
        shown = text if len(text) <= 40 else text[:36] + "..."
        raise ValidationError(f"the cutoff of {shown!r} is larger than {MAX_CUTOFF:,}: no ranking is that long")
    return check_cutoff(value)


def _saturated(digits: str) -> int:
    """A signed whole number's digits as an int, any value above :data:`MAX_CUTOFF` as ``MAX_CUTOFF + 1``."""
    digits = digits.strip()
    sign = -1 if digits.startswith("-") else 1
    magnitude = digits.lstrip("+-").lstrip("0")
    if len(magnitude) > len(str(MAX_CUTOFF)):
        return sign * (MAX_CUTOFF + 1)
    return sign * int(magnitude or "0")


def _trec_measure(family: Family, trec: TrecName, cutoff: str, text: str) -> Measure:
    options = dict(trec.options)
    if trec.param:  # Rprec_mult_0.20: the "cutoff" is the parameter
        options[trec.param] = family.param(trec.param).checked(float(cutoff))
        return Measure(family.name, None, options)
    return Measure(family.name, _parse_cutoff(family, cutoff, text), options)


def _parse_params(family: Family, params: str, text: str) -> tuple[dict[str, Any], int | None]:
    """The explain function's keyword arguments from ``name=value`` pairs."""
    if not params.strip():
        return {}, None
    try:
        call = ast.parse(f"f({params})", mode="eval").body
        if not isinstance(call, ast.Call) or call.args:
            raise ValueError
        pairs = {kw.arg: ast.literal_eval(kw.value) for kw in call.keywords}
        if None in pairs:
            raise ValueError
    except (SyntaxError, ValueError, TypeError, MemoryError, RecursionError):
        raise ValidationError(f"cannot read the parameters of {text!r}; write them as name=value, "
                              "e.g. nDCG(gain='exponential')@10") from None
    options: dict[str, Any] = {}
    relevance_level = None
    for key, value in pairs.items():
        if key not in family.param_names:
            takes = ", ".join(family.param_names) or "no parameters"
            raise ValidationError(f"{family.name} does not take the parameter {key!r}; it takes: {takes}")
        param = family.param(key)
        if key == "rel":
            relevance_level = param.checked(value)
            continue
        if key == "dcg":
            if value not in ("log2", "exp-log2"):
                raise ValidationError(f"dcg must be 'log2' or 'exp-log2' (as ir_measures), got {value!r}")
            value = "linear" if value == "log2" else "exponential"
        elif key == "discount":
            value = param.checked(_DISCOUNT_ALIASES.get(value, value))
        else:
            value = param.checked(value)
        if param.keyword in options:
            raise ValidationError(f"{text!r} sets the {param.keyword} twice (use one of gain, gains, dcg)")
        options[param.keyword] = value
    return options, relevance_level


def parse_trec_measures(argument: str) -> list[Measure]:
    """The measures of one trec_eval ``-m`` argument, each named as trec_eval prints it.

    ``P`` gives trec_eval's default cutoffs; ``P.5,10`` the given ones (sorted, as trec_eval);
    ``ndcg.1=3,2=9`` sets gains; ``set_F.0.5`` beta; ``official``, ``set`` and ``all_trec`` are
    trec_eval's sets; an IR Lab or ir_measures name (``nDCG@10``) is one measure.

    >>> [m.trec_name for m in parse_trec_measures("P.10,5")], [str(m) for m in parse_trec_measures("ndcg.1=3,2=9")]
    (['P_5', 'P_10'], ['nDCG(gain={1: 3.0, 2: 9.0})'])
    >>> parse_trec_measures("P.0")
    Traceback (most recent call last):
    ...
    irlab.errors.ValidationError: -m P.0: cutoffs must be whole numbers >= 1 without repeats (trec_eval), got '0'
    """
    name, _, params = argument.partition(".")
    if name in TREC_NICKNAMES and not params:
        return [m for trec_name in TREC_NICKNAMES[name] if trec_name in TREC_NAMES
                for m in _trec_measures(trec_name, None)]
    if name in TREC_NAMES:
        return _trec_measures(name, params if "." in argument else None)
    return [parse_measure(argument)]


def trec_measure_set(arguments: Sequence[str]) -> list[Measure]:
    """The measures of all of trec_eval's ``-m`` arguments together, as trec_eval combines them.

    A trec_eval measure is computed once: named bare or through a set (``all_trec``), it takes
    the parameters of the first ``-m name.params`` given for it, wherever that argument stands.
    Other names (``nDCG@10``) are added as they are; duplicates are dropped.

    >>> [m.trec_name for m in trec_measure_set(["P", "P.5", "P.10", "recip_rank"])]
    ['P_5', 'recip_rank']
    """
    marked: list[str] = []
    params: dict[str, str] = {}
    others: list[Measure] = []
    for argument in arguments:
        name, dot, given = argument.partition(".")
        if name in TREC_NICKNAMES and not dot:
            marked.extend(n for n in TREC_NICKNAMES[name] if n in TREC_NAMES)
        elif name in TREC_NAMES:
            marked.append(name)
            if dot:
                _trec_measures(name, given)  # check it now, whether or not it is the one used
                params.setdefault(name, given)
        else:
            others.append(parse_measure(argument))
    measures = {}
    for name in dict.fromkeys(marked):
        for measure in _trec_measures(name, params.get(name)):
            measures.setdefault(measure.trec_name, measure)
    for measure in others:
        measures.setdefault(measure.trec_name, measure)
    return list(measures.values())


def _trec_measures(name: str, params: str | None) -> list[Measure]:
    family, trec = TREC_NAMES[name]
    where = f"-m {name}{'' if params is None else '.' + params}"
    if params is not None and not params:
        raise ValidationError(f"{where}: give parameters after the dot, or leave the dot out")
    if trec.cutoffs:
        values = trec.cutoffs if params is None else _trec_numbers(params, family, trec, where)
        if trec.param:  # Rprec_mult.0.2,0.4: one measure per multiple
            return [Measure(family.name, None, {**trec.options, trec.param: float(v)},
                            trec_label=f"{name}_{float(v):.2f}") for v in values]
        return [Measure(family.name, v, dict(trec.options),
                        trec_label=f"{name}_{trec_cutoff_label(v, family.cutoff_kind)}") for v in values]
    if params is None:
        return [Measure(family.name, None, dict(trec.options), trec_label=name)]
    if not trec.param:
        raise ValidationError(f"{where}: trec_eval's {name} takes no parameters")
    return [Measure(family.name, None, {**trec.options, **_trec_param(trec.param, params, family, where)},
                    trec_label=f"{name}_{params}")]


def _trec_numbers(params: str, family: Family, trec: TrecName, where: str) -> list[int | float]:
    """trec_eval's cutoff lists: comma separated, sorted, no repeats."""
    values: list[int | float] = []
    for part in params.split(","):
        try:
            if family.cutoff_kind == "recall" or trec.param:
                values.append(float(part))
            else:  # C's atol, as trec_eval: the leading whole number ("23.4" is 23)
                values.append(_saturated(re.match(r"\s*[+-]?\d+", part).group()))
        except (ValueError, AttributeError):
            values.append(math.nan)
    whole = family.cutoff_kind == "rank" and not trec.param
    if (any(isinstance(v, float) and math.isnan(v) for v in values) or len(set(values)) != len(values)
            or (whole and min(values) < 1)):
        kind = "whole numbers >= 1" if whole else "numbers"
        raise ValidationError(f"{where}: cutoffs must be {kind} without repeats (trec_eval), got {params!r}")
    if family.cutoff_kind == "recall":
        values = [interpolated.check_recall_level(v) for v in values]
    elif trec.param:
        values = [family.param(trec.param).checked(v) for v in values]
    else:
        values = [rank_cutoff(v, where) for v in values]
    return sorted(values)


def _trec_param(param: str, params: str, family: Family, where: str) -> dict[str, Any]:
    """The options a trec_eval parameter string sets: gain pairs, name=value pairs, numbers, a length."""
    try:
        if param in ("gains", "pairs"):
            pairs = [pair.split("=", 1) for pair in params.split(",")]
            if any(len(pair) != 2 for pair in pairs):
                raise ValueError
            named = {key: float(value) for key, value in pairs if not key.lstrip("+-").isdigit()}
            gains = {int(key): float(value) for key, value in pairs if key.lstrip("+-").isdigit()}
            if set(named) - ({"p"} if param == "pairs" else set()):
                raise ValueError
            options = {"p": family.param("p").checked(named["p"])} if "p" in named else {}
            if gains:
                options[family.param("gains").keyword] = family.param("gains").checked(gains)
            return options
        numbers = [float(part) for part in params.split(",")]
    except (ValueError, KeyError):
        raise ValidationError(f"{where}: cannot read the parameters {params!r}") from None
    keyword = family.param(param).keyword
    if param in ("levels", "coefficients"):
        return {keyword: family.param(param).checked(numbers)}
    if len(numbers) != 1:
        raise ValidationError(f"{where}: takes one number, got {params!r}")
    if param == "length":
        return {keyword: family.param(param).checked(int(numbers[0]))}
    return {keyword: family.param(param).checked(numbers[0])}
