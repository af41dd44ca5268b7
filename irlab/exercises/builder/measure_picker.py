"""The exercise builder's measure picker: families, their K and variant options, and the name they make.

A lecturer picks a family (nDCG), K, and a variant per convention (gain, discount, ideal,
denominator; :mod:`irlab.metrics.conventions`); :func:`measure_text` gives the measure name in irlab's
canonical spelling, the one the exercise file stores.

>>> measure_text("nDCG", 10, {"gain": "exponential"})
"nDCG(gain='exponential')@10"
"""

from __future__ import annotations

from collections.abc import Mapping

from irlab.metrics.conventions import CONVENTIONS
from irlab.metrics.measure_names import parse_measure
from irlab.metrics.registry import FAMILIES, TEACHING_ORDER, Measure

FAMILY_LABELS = {name: FAMILIES[name].label for name in TEACHING_ORDER}
"""The measure families the picker offers (the walkthrough's, which exercises support), in the order shown."""


def measure_choices(family: str) -> dict[str, tuple[tuple[str, str], ...]]:
    """The picker's options for ``family``: parameter -> ((value, label), ...), the default first.

    >>> [value for value, _ in measure_choices("AP")["denominator"]]
    ['relevant', 'min-k-r', 'found']
    >>> list(measure_choices("nDCG"))
    ['gain', 'discount', 'ideal']
    """
    choices = {}
    for param in FAMILIES[family].params:
        if param.topic is None:
            continue
        variants = sorted(CONVENTIONS[param.topic], key=lambda variant: not variant.default)
        choices[param.name] = tuple((variant.name, variant.label) for variant in variants)
    return choices


def takes_k(family: str) -> str:
    """``"required"``, ``"optional"`` or ``"none"``: whether a measure of ``family`` has a K."""
    return FAMILIES[family].cutoff


def takes_rel(family: str) -> bool:
    """Whether ``family`` takes a relevance level (``rel``)."""
    return FAMILIES[family].binary


def measure_text(family: str, k: int | None = None, options: Mapping[str, str] | None = None,
                 rel: int | None = None) -> str:
    """The measure name the picker builds, in irlab's canonical spelling (defaults left out).

    >>> measure_text("nDCG", 5, {"discount": "jarvelin-kekalainen", "gain": "linear"})
    "nDCG(discount='jarvelin-kekalainen')@5"
    >>> measure_text("AP", None, {"denominator": "relevant"}, rel=2), measure_text("RR", 3)
    ('AP(rel=2)', 'RR@3')
    """
    defaults = {param: choices[0][0] for param, choices in measure_choices(family).items()}
    chosen = {param: value for param, value in (options or {}).items() if value and value != defaults.get(param)}
    k = None if takes_k(family) == "none" else k
    rel = rel if takes_rel(family) and rel not in (None, 1) else None
    return str(parse_measure(str(Measure(family, k, chosen, rel))))
