'''Python source for exercise notebooks: one function per measure asked, as a stub or a solution.

Questions that share a measure family and its parameters (all but K) share one function, so
``nDCG@5`` and ``nDCG@10`` are both checked against ``ndcg(ranking, ground_truth, k)``.
Solutions are plain Python (``math`` only), written by each family's teaching (``Family.teaching``,
:mod:`irlab.metrics.teaching`) with the variant's gain, discount, denominator, ideal ranking and
relevance level filled in; they must agree with irlab (a test builds and runs a notebook of every
teachable family's examples). Docstrings state the conventions with the words of
:mod:`irlab.metrics.conventions`.

Every function takes ``ranking`` (document ids, best first) and ``ground_truth``
(``{document id: grade}``, unlisted documents have grade 0); measures with a cutoff take ``k``
(``None`` means the whole ranking where the cutoff is optional).

>>> from irlab.metrics.measure_names import parse_measure
>>> f = measure_function(parse_measure("P@5"), "precision")
>>> print(f.signature)
def precision(ranking: List, ground_truth: Dict, k: int) -> float:
>>> namespace = {}
>>> exec(f.solution, namespace)
>>> namespace["precision"](["a", "b", "c"], {"b": 1, "c": 2}, 2)
0.5
'''

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from textwrap import indent

from irlab.metrics.conventions import variant
from irlab.metrics.registry import FAMILIES, Measure

BASE_NAMES = {name: family.python_name for name, family in FAMILIES.items() if family.python_name}
"""The Python name of each family's function, from the registry (a suffix tells variants of one family apart)."""


@dataclass(frozen=True)
class MeasureFunction:
    """The notebook function for one measure (without its cutoff)."""

    name: str
    measure: Measure
    signature: str
    docstring: str
    body: str

    @property
    def takes_k(self) -> bool:
        """Whether the function has a ``k`` parameter."""
        return FAMILIES[self.measure.family].cutoff != "none"

    @property
    def stub(self) -> str:
        """The function for students: signature, docstring, ``raise NotImplementedError``."""
        return (f"{self.signature}\n{docstring_block(self.docstring)}\n"
                f"    # Your code here.\n    raise NotImplementedError(\"complete {self.name}()\")\n")

    @property
    def solution(self) -> str:
        """The working function."""
        return f"{self.signature}\n{docstring_block(self.docstring)}\n{indent(self.body.strip(), '    ')}\n"


def function_key(measure: Measure) -> str:
    """The measure without its cutoff: questions with the same key share one function.

    >>> from irlab.metrics.measure_names import parse_measure
    >>> function_key(parse_measure("nDCG(discount='jk')@5")) == function_key(parse_measure("nDCG(discount='jk')@10"))
    True
    """
    return str(replace(measure, cutoff=None))


def function_names(measures: Iterable[Measure]) -> dict[str, str]:
    """A Python name for each distinct function key, in first-seen order.

    A family asked with one set of parameters gets its plain name (``ndcg``); several get a
    suffix naming what differs (``ndcg_exponential_gain``, ``ap_rel2``...).

    >>> from irlab.metrics.measure_names import parse_measure
    >>> function_names([parse_measure("nDCG@5"), parse_measure("nDCG(gain='exponential')@5"), parse_measure("RR")])
    {'nDCG': 'ndcg', "nDCG(gain='exponential')": 'ndcg_exponential_gain', 'RR': 'reciprocal_rank'}
    """
    keys: dict[str, Measure] = {}
    for measure in measures:
        keys.setdefault(function_key(measure), replace(measure, cutoff=None))
    per_family: dict[str, int] = {}
    for measure in keys.values():
        per_family[measure.family] = per_family.get(measure.family, 0) + 1
    names: dict[str, str] = {}
    for key, measure in keys.items():
        name = BASE_NAMES[measure.family]
        if per_family[measure.family] > 1:
            name += _suffix(measure)
        candidate, number = name, 2
        while candidate in names.values():
            candidate, number = f"{name}_{number}", number + 1
        names[key] = candidate
    return names


def _suffix(measure: Measure) -> str:
    parts = []
    if measure.relevance_level is not None:
        parts.append(f"rel{measure.relevance_level}")
    for key, value in measure.options.items():
        if key == "gain":
            parts.append(f"{value}_gain" if isinstance(value, str) else "custom_gain")
        elif key == "discount":
            parts.append("jk" if value == "jarvelin-kekalainen" else "log2")
        elif key == "ideal":
            parts.append(f"ideal_{value}")
        elif key == "denominator":
            parts.append("over_" + value.replace("-", "_"))
        else:  # another family's parameter (a persistence, a grade mapping): its name and value as a name
            parts.append(re.sub(r"\W+", "_", f"{key}_{value}").strip("_").lower())
    return "_" + "_".join(parts) if parts else ""


def measure_function(measure: Measure, name: str) -> MeasureFunction:
    """The notebook function computing ``measure`` (any cutoff) under the Python name ``name``.

    The family's teaching (``Family.teaching``) writes its summary and its body; the conventions and the
    arguments are worded from the registry's parameters.
    """
    definition = FAMILIES[measure.family]
    if definition.teaching is None:
        raise ValueError(f"exercises do not teach {measure.family}: it has no notebook code")
    rel = measure.relevance_level or 1
    k_param = {"required": ", k: int", "optional": ", k: Optional[int] = None", "none": ""}[definition.cutoff]
    signature = f"def {name}(ranking: List, ground_truth: Dict{k_param}) -> float:"
    body = definition.teaching.body(measure, rel)
    return MeasureFunction(name, replace(measure, cutoff=None), signature, _describe(measure, rel), body)


def docstring_block(text: str) -> str:
    return indent(f'"""{text.strip()}\n"""', "    ")


# ---------------------------------------------------------------------------------------------
# Docstrings: what the function computes, its conventions, its arguments
# ---------------------------------------------------------------------------------------------

_DISCOUNT_WORDS = {  # "rank i", not "rank k": k is the cut-off parameter here
    "log2": "the gain at rank i is divided by log2(i + 1).",
    "jarvelin-kekalainen": "rank 1 is not discounted; the gain at rank i >= 2 is divided by log2(i) "
                           "(the original Järvelin–Kekäläinen DCG).",
}


def _describe(measure: Measure, rel: int) -> str:
    definition = FAMILIES[measure.family]
    options = measure.options
    lines = [definition.teaching.summary_of(measure)]
    if definition.binary:
        lines.append(f"A document is relevant when its grade is at least {rel}.")
    takes = definition.param_names
    if "gain" in takes:
        gain = options.get("gain", "linear")
        lines.append("Gain: " + (variant("gain", gain).description if isinstance(gain, str)
                                 else f"the gain of each grade is {dict(gain)!r} (other grades: the grade itself)."))
    if "discount" in takes:
        lines.append("Discount: " + _DISCOUNT_WORDS[options.get("discount", "log2")])
    if "ideal" in takes:
        lines.append("Ideal ranking: " + variant("ideal", options.get("ideal", "judged")).description)
    for param in definition.params:  # the other conventions the family takes (a denominator, a grade mapping)
        if param.topic and param.name not in ("gain", "discount", "ideal"):
            chosen = options.get(param.keyword, param.default)
            lines.append(f"{param.name.capitalize()}: " + variant(param.topic, chosen).description)
    args = ["ranking: Document IDs, best first.",
            "ground_truth: {document ID: grade}; documents not listed have grade 0."]
    if definition.cutoff == "required":
        args.append("k: Rank cut-off.")
    elif definition.cutoff == "optional":
        args.append("k: Rank cut-off (None: the whole ranking).")
    summary, conventions = lines[0], lines[1:]
    return (_wrap(summary) + "\n\n" + "\n".join(_wrap(line) for line in conventions)
            + "\n\nArgs:\n" + "\n".join("    " + a for a in args)
            + f"\n\nReturns:\n    {definition.teaching.returns} (float).")


def _wrap(line: str, width: int = 84) -> str:
    words, lines, current = line.split(), [], ""
    for word in words:
        if current and len(current) + 1 + len(word) > width:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    lines.append(current)
    return "\n".join(lines)
