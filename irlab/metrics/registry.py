"""The measure registry: every measure IR Lab knows, declared once, read by everything else.

Each :class:`Family` declares a measure's names (ir_measures' spelling and trec_eval's), its
cutoff, its parameters (:class:`Param`: type, default, choices, help), its label and help text,
its readable definition (``explain``, a :class:`~irlab.explain.breakdown.Breakdown` for one query)
and its fast kernel (all queries of a :class:`~irlab.data.columns.JudgedRankings` at once), and
how trec_eval summarises it over queries. The name parser, the batch engine, the command line
and the pickers read this table; adding a measure is one module with ``explain_*`` and a kernel,
and one :class:`Family` in :data:`FAMILIES`.

Names follow ir_measures where it has one, written ``Name(param=value, ...)@cutoff`` with Python
literals as values; trec_eval's names are accepted too (``P_5``, ``ndcg_cut_10``, ``map``, ``bpref``,
``iprec_at_recall_0.50``), and :func:`parse_trec_measures` reads trec_eval's ``-m`` arguments
(``P.5,10``, ``ndcg.1=3,2=9``, ``official``, ``all_trec``).

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
"""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from irlab.data.columns import JudgedRankings
from irlab.data.judgments import check_relevance_level
from irlab.data.rankings import check_cutoff
from irlab.errors import ValidationError
from irlab.explain.breakdown import Breakdown
from irlab.metrics import (average_precision, bpref, counts, dcg, gain_averages, infap, interpolated, judged,
                           precision_recall, rbp, reciprocal_rank, set_measures)
from irlab.metrics.conventions import CONVENTIONS, check_variant

# --- declarations ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Param:
    """A measure parameter: its name, default, help, and how a value is checked.

    ``topic`` names a convention (:data:`irlab.metrics.conventions.CONVENTIONS`) whose variants
    are the choices; ``check`` validates any other value (and returns it normalised);
    ``option`` is the explain/kernel keyword it sets (``gain`` for ``dcg`` and ``gains``;
    ``None`` for ``rel``, which sets the relevance level).
    """

    name: str
    default: Any
    help: str
    topic: str | None = None
    check: Callable[[Any], Any] | None = None
    option: str | None = ""
    ir_measures: bool = False

    @property
    def keyword(self) -> str | None:
        """The explain/kernel keyword argument this parameter sets."""
        return self.name if self.option == "" else self.option

    @property
    def choices(self) -> tuple[str, ...]:
        """The accepted names when the parameter is a convention, else ()."""
        return tuple(v.name for v in CONVENTIONS[self.topic]) if self.topic else ()

    def checked(self, value: Any) -> Any:
        """``value`` validated (ValidationError naming the parameter otherwise)."""
        if self.check:
            return self.check(value)
        return check_variant(self.topic, value) if self.topic else value


@dataclass(frozen=True)
class TrecName:
    """A trec_eval measure name and how its ``-m name.params`` argument maps onto a family.

    ``cutoffs``: trec_eval's default cutoffs when the name has them (``P``: 5, 10, ..., 1000);
    ``param``: the option its parameter string sets instead (``ndcg.1=3,2=9`` sets ``gain``);
    ``options``: options the name fixes (``relative_P`` is R with ``denominator='min-k-r'``).
    """

    name: str
    cutoffs: tuple = ()
    param: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Family:
    """A measure family: names, cutoff, parameters, label, help, definition and kernel.

    ``label`` is what a picker shows, ``short`` a short heading (``Precision@K``), ``help`` one
    plain sentence on what it measures, ``python_name`` the name of its function in generated
    notebooks (the families exercises can teach have one).

    ``summary`` is how trec_eval's ``all`` line sums it up over queries: ``mean``; ``gmean`` (the
    geometric mean, each value at least 0.00001); ``sum`` (the counts); ``queries`` (how many);
    ``none`` (printed per query only). ``per_query`` is False for what trec_eval prints in the
    summary only.
    """

    name: str
    label: str
    description: str
    explain: Callable[..., Breakdown]
    kernel: Callable[..., np.ndarray]
    cutoff: str = "none"  # "required", "optional" or "none"
    cutoff_kind: str = "rank"  # "rank" (a whole number >= 1) or "recall" (a level from 0 to 1)
    params: tuple[Param, ...] = ()
    aliases: tuple[str, ...] = ()
    trec: tuple[TrecName, ...] = ()
    kind: str = "float"  # "float", "int" or "text"
    summary: str = "mean"
    per_query: bool = True
    short: str = ""
    help: str = ""
    python_name: str = ""

    @property
    def short_label(self) -> str:
        """A short heading (``AP@K``): :attr:`short`, else the name with its cutoff."""
        return self.short or (self.name if self.cutoff == "none" else f"{self.name}@K")

    @property
    def param_names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.params)

    def param(self, name: str) -> Param:
        return next(p for p in self.params if p.name == name)

    @property
    def binary(self) -> bool:
        """Whether the family reads binary relevance (takes ``rel``)."""
        return "rel" in self.param_names


def _level(value: Any) -> int:
    return check_relevance_level(value)


def _positive(name: str, upper: float = 1e6) -> Callable[[Any], float]:
    def check(value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= upper:
            raise ValidationError(f"{name} must be a number above 0 (at most {upper:g}), got {value!r}")
        return float(value)
    return check


def _levels(value: Any) -> tuple[float, ...]:
    if not isinstance(value, (list, tuple)) or not value:
        raise ValidationError(f"levels must be a list of recall levels from 0 to 1, got {value!r}")
    levels = tuple(sorted(interpolated.check_recall_level(v) for v in value))
    if len(set(levels)) != len(levels):
        raise ValidationError(f"recall levels must not repeat, got {value!r}")
    return levels


def _length(value: Any) -> int:
    return check_cutoff(value, allow_none=False)


def _collection(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValidationError(f"the collection size must be a whole number >= 0, got {value!r}")
    return value


REL = Param("rel", None, "relevance level: a grade at least this is relevant (trec_eval -l)", option=None,
            check=_level, ir_measures=True)
_GAIN = Param("gain", "linear", "gain of a grade: linear (the grade), exponential (2^grade - 1), or a mapping",
              topic="gain", check=dcg.check_gain)
_GAINS = Param("gains", None, "a gain per grade, e.g. {1: 3, 2: 9} (trec_eval ndcg.1=3,2=9); other grades gain their "
               "grade", check=dcg.check_gain, option="gain", ir_measures=True)
_DCG = Param("dcg", "log2", "ir_measures' spelling: 'log2' (linear gain) or 'exp-log2' (exponential gain)",
             option="gain", ir_measures=True)
_DISCOUNT = Param("discount", "log2", "rank discount: log2(k + 1), or Järvelin–Kekäläinen's (rank 1 undiscounted)",
                  topic="discount")
_IDEAL = Param("ideal", "judged", "what IDCG sorts: every judged document, or the retrieved ones only", topic="ideal")
_GAIN_PARAMS = (_GAIN, _GAINS, _DCG, _DISCOUNT)
_LEVEL_GAINS = Param("gains", None, "a gain per grade, e.g. {1: 3.5, 2: 9} (trec_eval G.1=3.5,2=9)", check=dcg.check_gain)
_PERSISTENCE = Param("p", rbp.PERSISTENCE, "persistence: the chance of reading on to the next document",
                     check=rbp.check_persistence, ir_measures=True)

_RANK_CUTS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
_DISCOUNT_ALIASES = {"jk": "jarvelin-kekalainen"}

FAMILIES: dict[str, Family] = {f.name: f for f in (
    Family("runid", "Run id", "the run's tag (the last line's 6th field)", counts.explain_num_q, counts.num_q_kernel,
           trec=(TrecName("runid"),), kind="text",
           summary="runid", per_query=False),
    Family("NumQ", "Queries", "the number of queries evaluated", counts.explain_num_q, counts.num_q_kernel,
           aliases=("num_q",), trec=(TrecName("num_q"),), kind="int", summary="queries",
           per_query=False),
    Family("NumRet", "Retrieved", "documents retrieved (summed over queries)", counts.explain_num_ret,
           counts.num_ret_kernel, aliases=("num_ret",), trec=(TrecName("num_ret"),), summary="sum", kind="int"),
    Family("NumRel", "Relevant", "relevant documents judged, R (summed over queries)", counts.explain_num_rel,
           counts.num_rel_kernel, params=(REL,), aliases=("num_rel",), trec=(TrecName("num_rel"),), summary="sum",
           kind="int"),
    Family("NumRelRet", "Relevant retrieved", "relevant documents retrieved (summed over queries)",
           counts.explain_num_rel_ret, counts.num_rel_ret_kernel, params=(REL,), aliases=("num_rel_ret",),
           trec=(TrecName("num_rel_ret"),), summary="sum", kind="int"),
    Family("AP", "Average precision (AP; its mean is MAP)", "average precision",
           average_precision.explain_average_precision, average_precision.average_precision_kernel,
           cutoff="optional", params=(REL, Param("denominator", "relevant", "what AP divides by",
                                                 topic="ap_denominator")),
           aliases=("map", "ap"), trec=(TrecName("map"), TrecName("map_cut", cutoffs=_RANK_CUTS)),
           short="AP@K", help="The precision at each relevant rank k <= K, summed, divided by all relevant documents.", python_name="average_precision"),
    Family("GMAP", "Geometric mean AP", "AP averaged with the geometric mean over queries",
           average_precision.explain_average_precision, average_precision.average_precision_kernel,
           params=(REL,), aliases=("gm_map",), trec=(TrecName("gm_map"),), summary="gmean",
           per_query=False),
    Family("Rprec", "R-precision", "R-precision", precision_recall.explain_r_precision,
           precision_recall.r_precision_kernel,
           params=(REL, Param("mult", 1.0, "look at rank mult × R instead of R (trec_eval Rprec_mult)",
                              check=_positive("mult", 1e3))),
           aliases=("rprec", "r-precision"),
           trec=(TrecName("Rprec"), TrecName("Rprec_mult", cutoffs=(0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0),
                                             param="mult")),
           short="R-precision", help="Precision at rank R, where R is the number of relevant documents.", python_name="r_precision"),
    Family("Bpref", "bpref", "binary preference: relevant documents above judged non-relevant ones",
           bpref.explain_bpref, bpref.bpref_kernel, params=(REL,), aliases=("bpref",), trec=(TrecName("bpref"),)),
    Family("RR", "Reciprocal rank (RR; its mean is MRR)", "reciprocal rank",
           reciprocal_rank.explain_reciprocal_rank, reciprocal_rank.reciprocal_rank_kernel, cutoff="optional",
           params=(REL,), aliases=("recip_rank", "mrr", "rr"), trec=(TrecName("recip_rank"),),
           short="Reciprocal rank", help="1 divided by the rank of the first relevant document (0 if there is none).", python_name="reciprocal_rank"),
    Family("IPrec", "Interpolated precision at recall r", "the best precision once recall reaches r",
           interpolated.explain_iprec_at_recall, interpolated.iprec_kernel, cutoff="required", cutoff_kind="recall",
           params=(REL,), aliases=("iprec",), trec=(TrecName("iprec_at_recall", cutoffs=interpolated.ELEVEN_POINTS),)),
    Family("P", "Precision@K", "Precision@k", precision_recall.explain_precision_at_k,
           precision_recall.precision_kernel, cutoff="required",
           params=(REL, Param("denominator", "k", "what P@K divides by", topic="precision_denominator")),
           aliases=("precision", "p"), trec=(TrecName("P", cutoffs=_RANK_CUTS),),
           short="Precision@K", help="Relevant documents in the top K, divided by K.", python_name="precision"),
    Family("relstring", "Grades of the top N", "the grades of the top N documents as characters",
           judged.explain_relstring, judged.relstring_kernel,
           params=(Param("length", 10, "how many ranks to show", check=_length),),
           trec=(TrecName("relstring", param="length"),), kind="text", summary="none"),
    Family("R", "Recall@K", "Recall@k", precision_recall.explain_recall_at_k, precision_recall.recall_kernel,
           cutoff="required",
           params=(REL, Param("denominator", "relevant", "what R@K divides by", topic="recall_denominator")),
           aliases=("recall", "r"),
           trec=(TrecName("recall", cutoffs=_RANK_CUTS),
                 TrecName("relative_P", cutoffs=_RANK_CUTS, options={"denominator": "min-k-r"})),
           short="Recall@K", help="Relevant documents in the top K, divided by all relevant documents.", python_name="recall"),
    Family("infAP", "Inferred AP", "AP estimated from a sample of judgments", infap.explain_infap, infap.infap_kernel,
           params=(REL,), aliases=("infap",), trec=(TrecName("infAP"),)),
    Family("GMBpref", "Geometric mean bpref", "bpref averaged with the geometric mean over queries",
           bpref.explain_bpref, bpref.bpref_kernel, params=(REL,), aliases=("gm_bpref",),
           trec=(TrecName("gm_bpref"),), summary="gmean", per_query=False),
    Family("utility", "Utility", "p1·TP + p2·FP + p3·FN + p4·TN of the retrieved set",
           set_measures.explain_utility, set_measures.utility_kernel,
           params=(REL, Param("coefficients", set_measures.UTILITY, "p1, p2, p3, p4",
                              check=set_measures.check_coefficients),
                   Param("collection_size", 0, "documents in the collection (trec_eval -N), for TN",
                         check=_collection)),
           trec=(TrecName("utility", param="coefficients"),)),
    Family("11pt", "11-point average precision", "interpolated precision averaged over recall 0, 0.1, ..., 1",
           interpolated.explain_eleven_point, interpolated.eleven_point_kernel,
           params=(REL, Param("levels", interpolated.ELEVEN_POINTS, "the recall levels", check=_levels)),
           aliases=("11pt_avg",), trec=(TrecName("11pt_avg", param="levels"),)),
    Family("binG", "Binary G", "relevant documents discounted by the non-relevant ones above (experimental)",
           gain_averages.explain_bin_g, gain_averages.bin_g_kernel, params=(REL,), aliases=("bing",),
           trec=(TrecName("binG"),)),
    Family("G", "G (normalised gain)", "gain discounted by how far the ranking falls behind the ideal (experimental)",
           gain_averages.explain_g, gain_averages.g_kernel, params=(_LEVEL_GAINS,), trec=(TrecName("G", param="gains"),)),
    Family("nDCG", "nDCG (normalised DCG)", "normalised discounted cumulative gain", dcg.explain_ndcg_at_k,
           dcg.ndcg_kernel, cutoff="optional", params=(*_GAIN_PARAMS, _IDEAL), aliases=("ndcg",),
           trec=(TrecName("ndcg", param="gains"), TrecName("ndcg_cut", cutoffs=_RANK_CUTS)),
           short="nDCG@K", help="DCG@K divided by the DCG@K of the ideal order.", python_name="ndcg"),
    Family("nDCGrel", "nDCG at relevant documents", "nDCG averaged at each relevant document (experimental)",
           gain_averages.explain_ndcg_rel, gain_averages.ndcg_rel_kernel, params=(_LEVEL_GAINS,),
           aliases=("ndcg_rel",), trec=(TrecName("ndcg_rel", param="gains"),)),
    Family("RnDCG", "nDCG at the R levels", "nDCG averaged where the ideal gain changes (experimental)",
           gain_averages.explain_rndcg, gain_averages.rndcg_kernel, params=(REL, _LEVEL_GAINS),
           aliases=("rndcg",), trec=(TrecName("Rndcg", param="gains"),)),
    Family("Success", "Success@K (a hit in the top K)", "success (hit) at k", precision_recall.explain_success_at_k,
           precision_recall.success_kernel, cutoff="required", params=(REL,), aliases=("success",),
           trec=(TrecName("success", cutoffs=(1, 5, 10)),),
           short="Success@K", help="1 when a relevant document is in the top K, else 0.", python_name="success"),
    Family("SetP", "Set precision", "relevant retrieved / retrieved", set_measures.explain_set_precision,
           set_measures.set_precision_kernel, params=(REL,), aliases=("set_p",), trec=(TrecName("set_P"),)),
    Family("SetRelP", "Relative set precision", "relevant retrieved / min(retrieved, R)",
           set_measures.explain_set_relative_precision, set_measures.set_relative_precision_kernel, params=(REL,),
           aliases=("set_relative_p",), trec=(TrecName("set_relative_P"),)),
    Family("SetR", "Set recall", "relevant retrieved / R", set_measures.explain_set_recall,
           set_measures.set_recall_kernel, params=(REL,), aliases=("set_recall",), trec=(TrecName("set_recall"),)),
    Family("SetAP", "Set AP", "set precision × set recall", set_measures.explain_set_ap, set_measures.set_ap_kernel,
           params=(REL,), aliases=("set_map",), trec=(TrecName("set_map"),)),
    Family("SetF", "Set F", "the F-measure of the retrieved set", set_measures.explain_set_f,
           set_measures.set_f_kernel, params=(REL, Param("beta", 1.0, "weight of recall (1: F1)",
                                                          check=set_measures.check_beta)),
           aliases=("set_f",), trec=(TrecName("set_F", param="beta"),)),
    Family("NumNonRelJudgedRet", "Judged non-relevant retrieved", "judged non-relevant documents retrieved",
           counts.explain_num_nonrel_judged_ret, counts.num_nonrel_judged_ret_kernel, params=(REL,),
           aliases=("num_nonrel_judged_ret",), trec=(TrecName("num_nonrel_judged_ret"),), summary="sum", kind="int"),
    Family("RBP", "Rank-biased precision", "the expected gain per document read at persistence p",
           rbp.explain_rbp, rbp.rbp_kernel, params=(_PERSISTENCE, _LEVEL_GAINS),
           aliases=("rbp",), trec=(TrecName("rbp", param="pairs"),)),
    Family("RBPresid", "RBP residual", "how much RBP could still rise from unjudged documents",
           rbp.explain_rbp_residual, rbp.rbp_residual_kernel, params=(_PERSISTENCE,), aliases=("rbp_resid",),
           trec=(TrecName("rbp_resid", param="pairs"),)),
    Family("Unjudged", "Unjudged@K", "the share of the top K without a judgment", judged.explain_unjudged_at_k,
           judged.unjudged_kernel, cutoff="required", aliases=("unj",), trec=(TrecName("unj", cutoffs=(5, 10, 20)),)),
    Family("CG", "CG (cumulative gain)", "cumulative gain", dcg.explain_cg_at_k, dcg.cg_kernel, cutoff="optional",
           params=(_GAIN, _GAINS),
           short="CG@K", help="The grades (gains) of the top K, summed.", python_name="cg"),
    Family("DCG", "DCG", "discounted cumulative gain", dcg.explain_dcg_at_k, dcg.dcg_kernel, cutoff="optional",
           params=_GAIN_PARAMS,
           short="DCG@K", help="Each gain in the top K divided by log2(rank + 1), summed.", python_name="dcg"),
    Family("IDCG", "IDCG (DCG of the ideal ranking)", "ideal discounted cumulative gain", dcg.explain_idcg_at_k,
           dcg.idcg_kernel, cutoff="optional", params=(*_GAIN_PARAMS, _IDEAL),
           short="IDCG@K", help="The DCG@K of the ideal order: the best DCG@K possible.", python_name="idcg"),
)}
"""Every measure family, in trec_eval's print order (IR Lab's own families last)."""

TREC_ORDER = ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank",
              "iprec_at_recall", "P", "relstring", "recall", "infAP", "gm_bpref", "Rprec_mult", "utility", "11pt_avg",
              "binG", "G", "ndcg", "ndcg_rel", "Rndcg", "ndcg_cut", "map_cut", "relative_P", "success", "set_P",
              "set_relative_P", "set_recall", "set_map", "set_F", "num_nonrel_judged_ret", "rbp", "rbp_resid", "unj")
"""trec_eval's measure order: it prints measures in this order, whatever the order of ``-m``."""

TREC_NICKNAMES: dict[str, tuple[str, ...]] = {
    "official": ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
                 "recip_rank", "iprec_at_recall", "P"),
    "set": ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P", "set_recall",
            "set_relative_P", "set_map", "set_F"),
    "all_trec": ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
                 "recip_rank", "iprec_at_recall", "P", "relstring", "recall", "unj", "rbp", "rbp_resid", "infAP",
                 "gm_bpref", "utility", "11pt_avg", "ndcg", "relative_P", "Rprec_mult", "success", "map_cut",
                 "ndcg_cut", "ndcg_rel", "Rndcg", "binG", "G", "set_P", "set_recall", "set_relative_P", "set_map",
                 "set_F", "num_nonrel_judged_ret"),
}
"""trec_eval's names for sets of measures (``-m official`` is its default output)."""

_TREC_NAMES: dict[str, tuple[Family, TrecName]] = {t.name: (f, t) for f in FAMILIES.values() for t in f.trec}
_ALIASES: dict[str, str] = {alias: f.name for f in FAMILIES.values() if f.name != "runid"
                            for alias in (f.name.lower(), *f.aliases)}
_NAME = re.compile(r"^\s*(?P<name>[A-Za-z_0-9]+)\s*(?:\((?P<params>.*)\))?\s*"
                   r"(?:@\s*(?P<cutoff>\d+(?:\.\d*)?|\.\d+))?\s*$")
_TREC_CUT = re.compile(r"^(?P<name>[A-Za-z_0-9]+?)_(?P<cutoff>\d+(?:\.\d+)?)$")


def supported_trec_names() -> tuple[str, ...]:
    """trec_eval measure names IR Lab computes, in trec_eval's order."""
    return tuple(name for name in TREC_ORDER if name in _TREC_NAMES)


# --- a parsed measure -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Measure:
    """A parsed measure: its family, cutoff and options (the explain function's keyword arguments).

    ``relevance_level`` is None when the name did not set ``rel``; the caller's relevance level
    (:func:`irlab.evaluate`'s, trec_eval's ``-l``) then applies. ``trec_label`` is the name trec_eval
    prints for it when it was parsed from a trec_eval argument (``ndcg_1=3,2=9``).
    """

    family: str
    cutoff: int | float | None
    options: Mapping[str, Any] = field(default_factory=dict)
    relevance_level: int | None = None
    trec_label: str | None = field(default=None, compare=False)

    @property
    def definition(self) -> Family:
        """The registry entry of this measure's family."""
        return FAMILIES[self.family]

    def __str__(self) -> str:
        params = {key: value for key, value in self.options.items()}
        if self.relevance_level is not None:
            params = {"rel": self.relevance_level, **params}
        inner = ", ".join(f"{key}={value!r}" for key, value in params.items())
        cut = "" if self.cutoff is None else f"@{_format_cutoff(self.cutoff)}"
        return f"{self.family}{f'({inner})' if inner else ''}{cut}"

    @property
    def trec_name(self) -> str:
        """The name trec_eval prints for this measure (IR Lab's own spelling when trec_eval has none)."""
        if self.trec_label:
            return self.trec_label
        spelled = self._trec_spelling()
        return spelled if spelled is not None else str(self)

    def _trec_spelling(self) -> str | None:
        if self.relevance_level is not None:
            return None
        for trec in self.definition.trec:
            fixed = dict(trec.options)
            options = _without_defaults(self.definition, self.options)
            if any(options.pop(key, None) != value for key, value in fixed.items()):
                continue
            if trec.param and trec.param in options and self.cutoff is None and not trec.cutoffs:
                continue  # a parameter string trec_eval prints as typed: only trec_label knows it
            if trec.cutoffs and trec.param:  # Rprec_mult: the cutoff is the multiple
                if set(options) == {trec.param} and self.cutoff is None:
                    return f"{trec.name}_{options[trec.param]:.2f}"
                continue
            if options:
                continue
            if trec.cutoffs and self.cutoff is not None:
                return f"{trec.name}_{_trec_cutoff(self.cutoff, self.definition.cutoff_kind)}"
            if not trec.cutoffs and self.cutoff is None:
                return trec.name
        return None

    def _kwargs(self, relevance_level: int) -> dict[str, Any]:
        kwargs = dict(self.options)
        if self.definition.binary:
            kwargs["relevance_level"] = self.relevance_level if self.relevance_level is not None else relevance_level
        return kwargs

    def explain(self, ranking: Sequence[str], judgments: Mapping[str, int], *, relevance_level: int = 1) -> Breakdown:
        """This measure's breakdown for one query."""
        kwargs = self._kwargs(relevance_level)
        if self.definition.cutoff == "none":
            return self.definition.explain(ranking, judgments, **kwargs)
        return self.definition.explain(ranking, judgments, self.cutoff, **kwargs)

    def compute(self, ranking: Sequence[str], judgments: Mapping[str, int], *, relevance_level: int = 1) -> Any:
        """This measure's value for one query."""
        return self.explain(ranking, judgments, relevance_level=relevance_level).value

    def compute_all(self, rankings: JudgedRankings, *, relevance_level: int = 1) -> np.ndarray | list[str]:
        """This measure's value for every query of ``rankings`` (the fast path)."""
        kwargs = self._kwargs(relevance_level)
        if self.definition.cutoff == "none":
            return self.definition.kernel(rankings, **kwargs)
        return self.definition.kernel(rankings, self.cutoff, **kwargs)


def _format_cutoff(cutoff: int | float) -> str:
    return str(cutoff) if isinstance(cutoff, int) else f"{cutoff:g}"


def _trec_cutoff(cutoff: int | float, kind: str) -> str:
    return f"{cutoff:.2f}" if kind == "recall" else str(cutoff)


TEACHING_ORDER = ("P", "R", "RR", "AP", "nDCG", "Rprec", "Success", "CG", "DCG", "IDCG")
"""The families of the walkthrough, listed first wherever measures are offered."""


def families_for_people() -> list[Family]:
    """Every measure family (not the run id), the walkthrough's first: the order pickers and help list them."""
    rest = [f for name, f in FAMILIES.items() if name not in TEACHING_ORDER and f.name != "runid"]
    return [FAMILIES[name] for name in TEACHING_ORDER] + rest


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
    >>> parse_measure("NDKG@5")
    Traceback (most recent call last):
    ...
    irlab.errors.ValidationError: unknown measure 'NDKG@5'; valid measures: P@k, R@k, RR, RR@k, AP, AP@k, nDCG, nDCG@k, Rprec, Success@k, CG, CG@k, DCG, DCG@k, IDCG, IDCG@k, NumQ, NumRet, NumRel, NumRelRet, GMAP, Bpref, IPrec@r, relstring, infAP, GMBpref, utility, 11pt, binG, G, nDCGrel, RnDCG, SetP, SetRelP, SetR, SetAP, SetF, NumNonRelJudgedRet, RBP, RBPresid, Unjudged@k
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
        return text
    if not isinstance(text, str):
        raise ValidationError(f"a measure must be a name such as 'nDCG@10', got {text!r}")
    stripped = text.strip()
    if stripped in _TREC_NAMES:
        family, trec = _TREC_NAMES[stripped]
        if trec.cutoffs:
            raise ValidationError(f"{stripped} needs a cutoff, e.g. '{stripped}_{_trec_cutoff(trec.cutoffs[1], family.cutoff_kind)}'")
        return Measure(family.name, None, dict(trec.options))
    cut = _TREC_CUT.match(stripped)
    if cut and cut.group("name") in _TREC_NAMES and _TREC_NAMES[cut.group("name")][1].cutoffs:
        family, trec = _TREC_NAMES[cut.group("name")]
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
    return check_cutoff(int(cutoff))


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


def _without_defaults(family: Family, options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` less those equal to their parameter's default."""
    defaults = {p.keyword: p.default for p in family.params if p.name == p.keyword}
    return {key: value for key, value in options.items() if key not in defaults or value != defaults[key]}


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
        return [m for trec_name in TREC_NICKNAMES[name] if trec_name in _TREC_NAMES
                for m in _trec_measures(trec_name, None)]
    if name in _TREC_NAMES:
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
            marked.extend(n for n in TREC_NICKNAMES[name] if n in _TREC_NAMES)
        elif name in _TREC_NAMES:
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
    family, trec = _TREC_NAMES[name]
    where = f"-m {name}{'' if params is None else '.' + params}"
    if params is not None and not params:
        raise ValidationError(f"{where}: give parameters after the dot, or leave the dot out")
    if trec.cutoffs:
        values = trec.cutoffs if params is None else _trec_numbers(params, family, trec, where)
        if trec.param:  # Rprec_mult.0.2,0.4: one measure per multiple
            return [Measure(family.name, None, {**trec.options, trec.param: float(v)},
                            trec_label=f"{name}_{float(v):.2f}") for v in values]
        return [Measure(family.name, v, dict(trec.options),
                        trec_label=f"{name}_{_trec_cutoff(v, family.cutoff_kind)}") for v in values]
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
                values.append(int(re.match(r"\s*[+-]?\d+", part).group()))
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
        values = [check_cutoff(int(v)) for v in values]
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


def trec_base(measure: Measure) -> str | None:
    """The trec_eval measure ``measure`` is printed under (``map_cut`` for ``map_cut_10``), or None.

    >>> trec_base(parse_measure("AP@10")), trec_base(parse_measure("Rprec(mult=0.2)")), trec_base(parse_measure("CG@3"))
    ('map_cut', 'Rprec_mult', None)
    """
    name = measure.trec_name
    matches = [trec for trec in _TREC_NAMES if name == trec or name.startswith(trec + "_")]
    return max(matches, key=len) if matches else None


def trec_order(measure: Measure) -> tuple[int, float]:
    """A sort key giving trec_eval's print order (IR Lab's own measures after trec_eval's), then the cutoff."""
    base = trec_base(measure)
    cut = measure.cutoff if measure.cutoff is not None else measure.options.get("mult", 0)
    return (TREC_ORDER.index(base) if base else len(TREC_ORDER)), float(cut) if isinstance(cut, (int, float)) else 0.0


def with_relevance_level(measures: Iterable[Measure], level: int) -> list[Measure]:
    """The measures with ``rel`` fixed to ``level`` where they did not set it."""
    return [m if m.relevance_level is not None or not m.definition.binary else replace(m, relevance_level=level)
            for m in measures]
