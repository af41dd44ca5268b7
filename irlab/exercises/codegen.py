'''Python source for exercise notebooks: one function per measure asked, as a stub or a solution.

Questions that share a measure family and its parameters (all but K) share one function, so
``nDCG@5`` and ``nDCG@10`` are both checked against ``ndcg(ranking, ground_truth, k)``.
Solutions are plain Python (``math`` only) written from one template per family, with the
variant's gain, discount, denominator, ideal ranking and relevance level filled in; they must
agree with irlab (a test compares them on every family and variant). Docstrings state the
conventions with the words of :mod:`irlab.metrics.conventions`.

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

from collections.abc import Iterable, Mapping
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
    return "_" + "_".join(parts) if parts else ""


def measure_function(measure: Measure, name: str) -> MeasureFunction:
    """The notebook function computing ``measure`` (any cutoff) under the Python name ``name``."""
    family = measure.family
    rel = measure.relevance_level or 1
    cutoff = FAMILIES[family].cutoff
    k_param = {"required": ", k: int", "optional": ", k: Optional[int] = None", "none": ""}[cutoff]
    signature = f"def {name}(ranking: List, ground_truth: Dict{k_param}) -> float:"
    body = _BODIES[family](measure, rel)
    return MeasureFunction(name, replace(measure, cutoff=None), signature, _describe(measure, rel), body)


def docstring_block(text: str) -> str:
    return indent(f'"""{text.strip()}\n"""', "    ")


# ---------------------------------------------------------------------------------------------
# Docstrings: what the function computes, its conventions, its arguments
# ---------------------------------------------------------------------------------------------

_SUMMARY = {
    "P": "Computes Precision@k: the relevant documents in the top k, divided by {den}.",
    "R": "Computes Recall@k: the relevant documents in the top k, divided by {den}.",
    "RR": "Computes the reciprocal rank: 1 / the rank of the first relevant document (0 if none).",
    "AP": "Computes average precision (AP@k): the sum of the precision at each relevant rank, divided by {den}.",
    "nDCG": "Computes NDCG@k: DCG@k divided by IDCG@k, the DCG@k of the ideal ranking (0 if IDCG@k is 0).",
    "DCG": "Computes DCG@k: the sum over ranks of the gain divided by the discount of the rank.",
    "IDCG": "Computes IDCG@k: the DCG@k of the ideal ranking (documents sorted by gain, best first).",
    "CG": "Computes CG@k: the sum of the gains of the top k documents, whatever their order.",
    "Rprec": "Computes R-precision: Precision@R, where R is the number of relevant documents (0 if R is 0).",
    "Success": "Computes Success@k: 1 if a relevant document is in the top k, else 0.",
}
_DENOMINATOR_WORDS = {
    ("P", "k"): "k (also when fewer than k documents were ranked)",
    ("P", "retrieved"): "the number of documents in the top k",
    ("R", "relevant"): "all relevant documents of the query",
    ("R", "min-k-r"): "min(k, R), R being the number of relevant documents",
    ("AP", "relevant"): "R, all relevant documents of the query (0 if R is 0)",
    ("AP", "min-k-r"): "min(k, R), R being the number of relevant documents (0 if R is 0)",
    ("AP", "found"): "the relevant documents found in the top k (0 if none)",
}
_DEFAULT_DENOMINATOR = {"P": "k", "R": "relevant", "AP": "relevant"}
_DISCOUNT_WORDS = {  # "rank i", not "rank k": k is the cut-off parameter here
    "log2": "the gain at rank i is divided by log2(i + 1).",
    "jarvelin-kekalainen": "rank 1 is not discounted; the gain at rank i >= 2 is divided by log2(i) "
                           "(the original Järvelin–Kekäläinen DCG).",
}


def _describe(measure: Measure, rel: int) -> str:
    family = measure.family
    options = measure.options
    den = options.get("denominator", _DEFAULT_DENOMINATOR.get(family))
    lines = [_SUMMARY[family].format(den=_DENOMINATOR_WORDS.get((family, den), ""))]
    if family in ("P", "R", "RR", "AP", "Rprec", "Success"):
        lines.append(f"A document is relevant when its grade is at least {rel}.")
    takes = FAMILIES[family].param_names
    if "gain" in takes:
        gain = options.get("gain", "linear")
        lines.append("Gain: " + (variant("gain", gain).description if isinstance(gain, str)
                                 else f"the gain of each grade is {dict(gain)!r} (other grades: the grade itself)."))
    if "discount" in takes:
        lines.append("Discount: " + _DISCOUNT_WORDS[options.get("discount", "log2")])
    if "ideal" in takes:
        lines.append("Ideal ranking: " + variant("ideal", options.get("ideal", "judged")).description)
    if "denominator" in takes and den:
        lines.append("Denominator: " + variant(FAMILIES[family].param("denominator").topic, den).description)
    cutoff = FAMILIES[family].cutoff
    args = ["ranking: Document IDs, best first.",
            "ground_truth: {document ID: grade}; documents not listed have grade 0."]
    if cutoff == "required":
        args.append("k: Rank cut-off.")
    elif cutoff == "optional":
        args.append("k: Rank cut-off (None: the whole ranking).")
    name = {"P": "Precision@k", "R": "Recall@k", "RR": "RR@k", "AP": "AP@k", "nDCG": "NDCG@k", "DCG": "DCG@k",
            "IDCG": "IDCG@k", "CG": "CG@k", "Rprec": "R-precision", "Success": "Success@k"}[family]
    summary, conventions = lines[0], lines[1:]
    return (_wrap(summary) + "\n\n" + "\n".join(_wrap(line) for line in conventions)
            + "\n\nArgs:\n" + "\n".join("    " + a for a in args) + f"\n\nReturns:\n    {name} (float).")


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


# ---------------------------------------------------------------------------------------------
# Solution templates, one per family; the variant's parameters are filled in
# ---------------------------------------------------------------------------------------------

def _count_relevant(rel: int) -> str:
    return f"relevant = sum(1 for grade in ground_truth.values() if grade >= {rel})"


def _precision(measure: Measure, rel: int) -> str:
    hits = f"hits = sum(1 for doc in ranking[:k] if ground_truth.get(doc, 0) >= {rel})"
    if measure.options.get("denominator", "k") == "retrieved":
        return f"{hits}\nreturned = len(ranking[:k])\nreturn hits / returned if returned else 0.0"
    return f"{hits}\nreturn hits / k"


def _recall(measure: Measure, rel: int) -> str:
    den = "min(k, relevant)" if measure.options.get("denominator") == "min-k-r" else "relevant"
    return (f"{_count_relevant(rel)}\nif relevant == 0:\n    return 0.0\n"
            f"hits = sum(1 for doc in ranking[:k] if ground_truth.get(doc, 0) >= {rel})\nreturn hits / {den}")


def _r_precision(measure: Measure, rel: int) -> str:
    return (f"{_count_relevant(rel)}\nif relevant == 0:\n    return 0.0\n"
            f"hits = sum(1 for doc in ranking[:relevant] if ground_truth.get(doc, 0) >= {rel})\n"
            "return hits / relevant")


def _success(measure: Measure, rel: int) -> str:
    return f"return 1.0 if any(ground_truth.get(doc, 0) >= {rel} for doc in ranking[:k]) else 0.0"


def _reciprocal_rank(measure: Measure, rel: int) -> str:
    return ("top = ranking if k is None else ranking[:k]\n"
            "for rank, doc in enumerate(top, start=1):\n"
            f"    if ground_truth.get(doc, 0) >= {rel}:\n"
            "        return 1 / rank\n"
            "return 0.0")


def _average_precision(measure: Measure, rel: int) -> str:
    den = {"relevant": "relevant", "min-k-r": "relevant if k is None else min(k, relevant)",
           "found": "hits"}[measure.options.get("denominator", "relevant")]
    return ("top = ranking if k is None else ranking[:k]\n"
            "hits, total = 0, 0.0\n"
            "for rank, doc in enumerate(top, start=1):\n"
            f"    if ground_truth.get(doc, 0) >= {rel}:\n"
            "        hits += 1\n"
            "        total += hits / rank  # the precision at this relevant rank\n"
            f"{_count_relevant(rel)}\n"
            f"denominator = {den}\n"
            "return total / denominator if denominator else 0.0")


def _gain_function(measure: Measure) -> str:
    gain = measure.options.get("gain", "linear")
    if gain == "linear":
        return "def gain(grade):\n    return grade  # linear gain: the grade itself"
    if gain == "exponential":
        return "def gain(grade):\n    return 2 ** grade - 1  # exponential gain"
    return f"def gain(grade):\n    return {dict(gain)!r}.get(grade, grade)  # the gain of each grade"


def _discount_function(measure: Measure) -> str:
    if measure.options.get("discount", "log2") == "jarvelin-kekalainen":
        return ("def discount(rank):\n"
                "    # original Järvelin-Kekäläinen: rank 1 is not discounted, rank i >= 2 is divided by log2(i)\n"
                "    return 1.0 if rank == 1 else math.log2(rank)")
    return "def discount(rank):\n    return math.log2(rank + 1)"


def _zero_has_gain(measure: Measure) -> bool:
    gain = measure.options.get("gain", "linear")
    return isinstance(gain, Mapping) and bool(gain.get(0, 0))


def _ideal_gains(measure: Measure) -> str:
    if measure.options.get("ideal", "judged") == "retrieved":
        return "ideal = sorted((gain(ground_truth.get(doc, 0)) for doc in ranking), reverse=True)  # ranked documents"
    if _zero_has_gain(measure):  # grade 0 has a gain: unjudged ranked documents count too
        return ("pool = list(dict.fromkeys(list(ranking) + list(ground_truth)))  # every ranked or judged document\n"
                "ideal = sorted((gain(ground_truth.get(doc, 0)) for doc in pool), reverse=True)")
    return "ideal = sorted((gain(grade) for grade in ground_truth.values()), reverse=True)  # every judged document"


def _cg(measure: Measure, rel: int) -> str:
    return (f"{_gain_function(measure)}\n\n"
            "top = ranking if k is None else ranking[:k]\n"
            "return float(sum(gain(ground_truth.get(doc, 0)) for doc in top))")


def _dcg(measure: Measure, rel: int) -> str:
    return (f"{_gain_function(measure)}\n\n{_discount_function(measure)}\n\n"
            "top = ranking if k is None else ranking[:k]\n"
            "return float(sum(gain(ground_truth.get(doc, 0)) / discount(rank)\n"
            "                 for rank, doc in enumerate(top, start=1)))")


def _idcg(measure: Measure, rel: int) -> str:
    return (f"{_gain_function(measure)}\n\n{_discount_function(measure)}\n\n"
            f"{_ideal_gains(measure)}\n"
            "if k is not None:\n    ideal = ideal[:k]\n"
            "return float(sum(g / discount(rank) for rank, g in enumerate(ideal, start=1)))")


def _ndcg(measure: Measure, rel: int) -> str:
    return (f"{_gain_function(measure)}\n\n{_discount_function(measure)}\n\n"
            "def dcg(gains):\n    return sum(g / discount(rank) for rank, g in enumerate(gains, start=1))\n\n"
            "gains = [gain(ground_truth.get(doc, 0)) for doc in ranking]\n"
            f"{_ideal_gains(measure)}\n"
            "if k is not None:\n    gains, ideal = gains[:k], ideal[:k]\n"
            "best = dcg(ideal)\n"
            "return dcg(gains) / best if best > 0 else 0.0")


_BODIES = {"P": _precision, "R": _recall, "Rprec": _r_precision, "Success": _success, "RR": _reciprocal_rank,
           "AP": _average_precision, "CG": _cg, "DCG": _dcg, "IDCG": _idcg, "nDCG": _ndcg}
