"""The measure registry: every measure IR Lab knows, declared once, read by everything else.

Each :class:`Family` declares a measure's names (ir_measures' spelling and trec_eval's), its
cutoff, its parameters (:class:`Param`: type, default, choices, help), its label and help text,
its readable definition (``explain``, a :class:`~irlab.explain.breakdown.Breakdown` for one query)
and its fast kernel (all queries of a :class:`~irlab.data.columns.JudgedRankings` at once), and
how trec_eval summarises it over queries. The name parsers (:mod:`irlab.metrics.measure_names`),
the batch engine, the command line and the pickers read this table; adding a measure is one
module with ``explain_*`` and a kernel, and one :class:`Family` in :data:`FAMILIES`.

A parsed name is a :class:`Measure`: a family, a cutoff and options, which computes itself for
one query (``explain``, ``compute``) or for all of them (``compute_all``).

>>> from irlab.metrics.measure_names import parse_measure
>>> m = parse_measure("nDCG(gain='exponential')@10")
>>> m.definition.label, m.trec_name, str(replace(m, cutoff=5))
('nDCG (normalised DCG)', "nDCG(gain='exponential')@10", "nDCG(gain='exponential')@5")
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from irlab.data.columns import JudgedRankings
from irlab.data.judgments import check_relevance_level
from irlab.data.rankings import check_cutoff
from irlab.errors import ValidationError
from irlab.explain.breakdown import Breakdown
from irlab.metrics import (
    average_precision,
    bpref,
    counts,
    dcg,
    err,
    gain_averages,
    infap,
    interpolated,
    judged,
    judgment_groups,
    precision_recall,
    preferences,
    rbp,
    reciprocal_rank,
    set_measures,
    yaap,
)
from irlab.metrics.conventions import CONVENTIONS, check_variant
from irlab.metrics.teaching import Teaching

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
    plain sentence on what it measures, ``teaching`` how exercises teach it (the notebook's function,
    the mistakes to name, the quiz: :class:`~irlab.metrics.teaching.Teaching`; None where exercises
    do not teach it).

    ``summary`` is how trec_eval's ``all`` line sums it up over queries: ``mean``; ``gmean`` (the
    geometric mean, each value at least 0.00001); ``sum`` (the counts); ``queries`` (how many);
    ``none`` (printed per query only). ``per_query`` is False for what trec_eval prints in the
    summary only. ``judgments`` names what it is computed against (trec_eval's ``-R``): ``qrels``,
    ``qrels_jg`` (qrels by judgment group), ``prefs`` (preferences: ``-R prefs`` or
    ``qrels_prefs``), or ``any`` (the run id and the number of queries).
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
    teaching: Teaching | None = None
    judgments: str = "qrels"

    @property
    def python_name(self) -> str:
        """The name of its function in generated notebooks ("" when exercises do not teach it)."""
        return self.teaching.python_name if self.teaching else ""

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
_LEVEL_GAINS = Param("gains", None, "a gain per grade, e.g. {1: 3.5, 2: 9} (trec_eval G.1=3.5,2=9)",
                     check=dcg.check_gain)
_PERSISTENCE = Param("p", rbp.PERSISTENCE, "persistence: the chance of reading on to the next document",
                     check=rbp.check_persistence, ir_measures=True)

_RANK_CUTS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
_R_MULTS = (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)
_SCOPE = Param("scope", "all", "which preferences count: all; implied (a document retrieved); retrieved (both)",
               check=preferences.check_scope)


def _scoped(name: str) -> tuple[TrecName, ...]:
    """trec_eval's three names of a preference measure: ``name``, ``name_ret`` and ``name_imp``."""
    return (TrecName(name), TrecName(f"{name}_ret", options={"scope": "retrieved"}),
            TrecName(f"{name}_imp", options={"scope": "implied"}))

FAMILIES: dict[str, Family] = {f.name: f for f in (
    Family("runid", "Run id", "the run's tag (the last line's 6th field)", counts.explain_num_q, counts.num_q_kernel,
           trec=(TrecName("runid"),), kind="text",
           summary="runid", per_query=False, judgments="any"),
    Family("NumQ", "Queries", "the number of queries evaluated", counts.explain_num_q, counts.num_q_kernel,
           aliases=("num_q",), trec=(TrecName("num_q"),), kind="int", summary="queries",
           per_query=False, judgments="any"),
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
           short="AP@K", help="The precision at each relevant rank k <= K, summed, divided by all relevant documents.",
           teaching=average_precision.AVERAGE_PRECISION_TEACHING),
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
           short="R-precision", help="Precision at rank R, where R is the number of relevant documents.",
           teaching=precision_recall.R_PRECISION_TEACHING),
    Family("Bpref", "bpref", "binary preference: relevant documents above judged non-relevant ones",
           bpref.explain_bpref, bpref.bpref_kernel, params=(REL,), aliases=("bpref",), trec=(TrecName("bpref"),)),
    Family("RR", "Reciprocal rank (RR; its mean is MRR)", "reciprocal rank",
           reciprocal_rank.explain_reciprocal_rank, reciprocal_rank.reciprocal_rank_kernel, cutoff="optional",
           params=(REL,), aliases=("recip_rank", "mrr", "rr"), trec=(TrecName("recip_rank"),),
           short="Reciprocal rank", help="1 divided by the rank of the first relevant document (0 if there is none).",
           teaching=reciprocal_rank.RECIPROCAL_RANK_TEACHING),
    Family("IPrec", "Interpolated precision at recall r", "the best precision once recall reaches r",
           interpolated.explain_iprec_at_recall, interpolated.iprec_kernel, cutoff="required", cutoff_kind="recall",
           params=(REL,), aliases=("iprec",), trec=(TrecName("iprec_at_recall", cutoffs=interpolated.ELEVEN_POINTS),)),
    Family("P", "Precision@K", "Precision@k", precision_recall.explain_precision_at_k,
           precision_recall.precision_kernel, cutoff="required",
           params=(REL, Param("denominator", "k", "what P@K divides by", topic="precision_denominator")),
           aliases=("precision", "p"), trec=(TrecName("P", cutoffs=_RANK_CUTS),),
           short="Precision@K", help="Relevant documents in the top K, divided by K.",
           teaching=precision_recall.PRECISION_TEACHING),
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
           short="Recall@K", help="Relevant documents in the top K, divided by all relevant documents.",
           teaching=precision_recall.RECALL_TEACHING),
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
           gain_averages.explain_g, gain_averages.g_kernel, params=(_LEVEL_GAINS,),
           trec=(TrecName("G", param="gains"),)),
    Family("nDCG", "nDCG (normalised DCG)", "normalised discounted cumulative gain", dcg.explain_ndcg_at_k,
           dcg.ndcg_kernel, cutoff="optional", params=(*_GAIN_PARAMS, _IDEAL), aliases=("ndcg",),
           trec=(TrecName("ndcg", param="gains"), TrecName("ndcg_cut", cutoffs=_RANK_CUTS)),
           short="nDCG@K", help="DCG@K divided by the DCG@K of the ideal order.", teaching=dcg.NDCG_TEACHING),
    Family("nDCGrel", "nDCG at relevant documents", "nDCG averaged at each relevant document (experimental)",
           gain_averages.explain_ndcg_rel, gain_averages.ndcg_rel_kernel, params=(_LEVEL_GAINS,),
           aliases=("ndcg_rel",), trec=(TrecName("ndcg_rel", param="gains"),)),
    Family("RnDCG", "nDCG at the R levels", "nDCG averaged where the ideal gain changes (experimental)",
           gain_averages.explain_rndcg, gain_averages.rndcg_kernel, params=(REL, _LEVEL_GAINS),
           aliases=("rndcg",), trec=(TrecName("Rndcg", param="gains"),)),
    Family("Success", "Success@K (a hit in the top K)", "success (hit) at k", precision_recall.explain_success_at_k,
           precision_recall.success_kernel, cutoff="required", params=(REL,), aliases=("success",),
           trec=(TrecName("success", cutoffs=(1, 5, 10)),),
           short="Success@K", help="1 when a relevant document is in the top K, else 0.",
           teaching=precision_recall.SUCCESS_TEACHING),
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
           aliases=("rbp",), trec=(TrecName("rbp", param="pairs"),),
           help="A user reads on from each document with probability p: (1 - p) times the gains weighted by "
                "p^(rank - 1).", teaching=rbp.RBP_TEACHING),
    Family("RBPresid", "RBP residual", "how much RBP could still rise from unjudged documents",
           rbp.explain_rbp_residual, rbp.rbp_residual_kernel, params=(_PERSISTENCE,), aliases=("rbp_resid",),
           trec=(TrecName("rbp_resid", param="pairs"),)),
    Family("Unjudged", "Unjudged@K", "the share of the top K without a judgment", judged.explain_unjudged_at_k,
           judged.unjudged_kernel, cutoff="required", aliases=("unj",), trec=(TrecName("unj", cutoffs=(5, 10, 20)),)),
    Family("YAAP", "Yet another AP (YAAP)", "AP's log-odds: ln((1 + S) / (1 + R - S)), S AP's numerator",
           yaap.explain_yaap, yaap.yaap_kernel, params=(REL,), aliases=("yaap",), trec=(TrecName("yaap"),)),
    Family("APavgjg", "AP averaged over judgment groups", "AP against each user's judgments, averaged over the users",
           judgment_groups.explain_ap_avgjg, judgment_groups.ap_avgjg_kernel, params=(REL,), aliases=("map_avgjg",),
           trec=(TrecName("map_avgjg"),), judgments="qrels_jg"),
    Family("Pavgjg", "Precision@K averaged over judgment groups",
           "Precision@k against each user's judgments, averaged over the users",
           judgment_groups.explain_precision_avgjg, judgment_groups.precision_avgjg_kernel, cutoff="required",
           params=(REL,), aliases=("p_avgjg",),
           trec=(TrecName("P_avgjg", cutoffs=_RANK_CUTS),), judgments="qrels_jg"),
    Family("RprecAvgjg", "R-precision averaged over judgment groups",
           "precision at a multiple of each user's R, averaged over the users",
           judgment_groups.explain_rprec_mult_avgjg, judgment_groups.rprec_mult_avgjg_kernel,
           params=(REL, Param("mult", 1.0, "look at rank mult × R of each judgment group",
                              check=_positive("mult", 1e3))),
           aliases=("rprec_mult_avgjg",),
           trec=(TrecName("Rprec_mult_avgjg", cutoffs=_R_MULTS, param="mult"),),
           judgments="qrels_jg"),
    Family("PrefsPossible", "Preferences possible", "the users' preferences, retrieved or not (summed over queries)",
           preferences.explain_prefs_possible, preferences.prefs_possible_kernel, params=(_SCOPE,),
           trec=(TrecName("prefs_num_prefs_poss"),), kind="int", summary="sum", judgments="prefs"),
    Family("PrefsFulfilled", "Preferences fulfilled", "preferences the ranking keeps (summed over queries)",
           preferences.explain_prefs_fulfilled, preferences.prefs_fulfilled_kernel, params=(_SCOPE,),
           trec=(TrecName("prefs_num_prefs_ful"), TrecName("prefs_num_prefs_ful_ret", options={"scope": "retrieved"})),
           kind="int", summary="sum", judgments="prefs"),
    Family("PrefsSimp", "Preferences fulfilled / possible", "the share of all the users' preferences the ranking keeps",
           preferences.explain_prefs_simp, preferences.prefs_simp_kernel, params=(_SCOPE,), aliases=("prefs_simp",),
           trec=_scoped("prefs_simp"), judgments="prefs"),
    Family("PrefsPair", "Preferences per document pair",
           "per pair of documents, the share of users the ranking agrees with",
           preferences.explain_prefs_pair, preferences.prefs_pair_kernel, params=(_SCOPE,), aliases=("prefs_pair",),
           trec=_scoped("prefs_pair"), judgments="prefs"),
    Family("PrefsAvgJG", "Preferences per judgment group", "each user's share of preferences kept, averaged over users",
           preferences.explain_prefs_avgjg, preferences.prefs_avgjg_kernel, params=(_SCOPE,), aliases=("prefs_avgjg",),
           trec=_scoped("prefs_avgjg"), judgments="prefs"),
    Family("PrefsAvgJGRnonrel", "Preferences per judgment group, non-relevant set to R",
           "prefs_avgjg with each user's non-relevant documents set to as many as the relevant ones",
           preferences.explain_prefs_avgjg_rnonrel, preferences.prefs_avgjg_rnonrel_kernel,
           params=(Param("scope", "all", "which preferences count: all, or retrieved (both documents retrieved)",
                         check=preferences.check_rnonrel_scope),),
           aliases=("prefs_avgjg_rnonrel",),
           trec=(TrecName("prefs_avgjg_Rnonrel"), TrecName("prefs_avgjg_Rnonrel_ret", options={"scope": "retrieved"})),
           judgments="prefs"),
    Family("CG", "CG (cumulative gain)", "cumulative gain", dcg.explain_cg_at_k, dcg.cg_kernel, cutoff="optional",
           params=(_GAIN, _GAINS),
           short="CG@K", help="The grades (gains) of the top K, summed.", teaching=dcg.CG_TEACHING),
    Family("DCG", "DCG", "discounted cumulative gain", dcg.explain_dcg_at_k, dcg.dcg_kernel, cutoff="optional",
           params=_GAIN_PARAMS, trec=(TrecName("dcg", param="gains"),),
           short="DCG@K", help="Each gain in the top K divided by log2(rank + 1), summed.", teaching=dcg.DCG_TEACHING),
    Family("IDCG", "IDCG (DCG of the ideal ranking)", "ideal discounted cumulative gain", dcg.explain_idcg_at_k,
           dcg.idcg_kernel, cutoff="optional", params=(*_GAIN_PARAMS, _IDEAL),
           trec=(TrecName("ideal_dcg", param="gains"),),
           short="IDCG@K", help="The DCG@K of the ideal order: the best DCG@K possible.", teaching=dcg.IDCG_TEACHING),
    Family("ERR", "Expected reciprocal rank (ERR)", "1 / the rank where a cascade user stops, expected",
           err.explain_err_at_k, err.err_kernel, cutoff="optional",
           params=(Param("grades", "gdeval", "ERR's grade mapping: gdeval's (2^g - 1) / 16, or the query's top grade",
                         topic="err_grades"),),
           aliases=("err",), short="ERR@K",
           help="Each document satisfies the user, and ends the search, with probability (2^grade - 1) / 16; "
                "1 / the rank where they stop, expected.", teaching=err.ERR_TEACHING),
)}
"""Every measure family, in trec_eval's print order (IR Lab's own families last)."""

TREC_ORDER = ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank",
              "iprec_at_recall", "P", "relstring", "recall", "infAP", "gm_bpref", "Rprec_mult", "utility", "11pt_avg",
              "binG", "G", "dcg", "ideal_dcg", "ndcg", "ndcg_rel", "Rndcg", "ndcg_cut", "map_cut", "relative_P",
              "success", "set_P", "set_relative_P", "set_recall", "set_map", "set_F", "num_nonrel_judged_ret",
              "prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret", "prefs_simp", "prefs_pair",
              "prefs_avgjg", "prefs_avgjg_Rnonrel", "prefs_simp_ret", "prefs_pair_ret", "prefs_avgjg_ret",
              "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp", "prefs_pair_imp", "prefs_avgjg_imp", "map_avgjg", "P_avgjg",
              "Rprec_mult_avgjg", "yaap", "rbp", "rbp_resid", "unj")
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
    "all_prefs": ("runid", "num_q", "prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret",
                  "prefs_simp", "prefs_pair", "prefs_avgjg", "prefs_avgjg_Rnonrel", "prefs_simp_ret", "prefs_pair_ret",
                  "prefs_avgjg_ret", "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp", "prefs_pair_imp", "prefs_avgjg_imp"),
    "prefs": ("runid", "num_q", "prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret", "prefs_simp",
              "prefs_pair", "prefs_avgjg"),
    "qrels_jg": ("runid", "num_q", "map_avgjg", "P_avgjg", "Rprec_mult_avgjg"),
}
"""trec_eval's names for sets of measures (``-m official`` is its default output; ``all_prefs``, ``prefs`` and
``qrels_jg`` need ``-R prefs`` or ``qrels_prefs``, and ``-R qrels_jg``)."""

TREC_NAMES: dict[str, tuple[Family, TrecName]] = {t.name: (f, t) for f in FAMILIES.values() for t in f.trec}
"""trec_eval's measure names (``P``, ``map_cut``, ...) -> the family and the name's declaration."""


def supported_trec_names() -> tuple[str, ...]:
    """trec_eval measure names IR Lab computes, in trec_eval's order."""
    return tuple(name for name in TREC_ORDER if name in TREC_NAMES)


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
        params = dict(self.options)
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
                return f"{trec.name}_{trec_cutoff_label(self.cutoff, self.definition.cutoff_kind)}"
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


def trec_cutoff_label(cutoff: int | float, kind: str) -> str:
    """A cutoff as trec_eval prints it in a name: ``10`` (``P_10``), ``0.50`` (``iprec_at_recall_0.50``)."""
    return f"{cutoff:.2f}" if kind == "recall" else str(cutoff)


WALKTHROUGH_ORDER = ("P", "R", "RR", "AP", "nDCG", "Rprec", "Success", "CG", "DCG", "IDCG")
"""The families of the walkthrough, listed first wherever measures are offered."""

TEACHING_ORDER = (*WALKTHROUGH_ORDER,
                  *(name for name, f in FAMILIES.items() if f.teaching is not None and name not in WALKTHROUGH_ORDER))
"""The families exercises can teach (those that declare a ``teaching``): the walkthrough's, then the others."""


def families_for_people() -> list[Family]:
    """Every measure family of qrels (not the run id), the teachable ones first: the order pickers and help list them.

    Families computed against judgment groups or preferences (trec_eval's ``-R qrels_jg``, ``-R prefs``) are
    left out: the pages and exercises hold qrels.
    """
    rest = [f for name, f in FAMILIES.items()
            if name not in TEACHING_ORDER and f.name != "runid" and f.judgments in ("qrels", "any")]
    return [FAMILIES[name] for name in TEACHING_ORDER] + rest


def _without_defaults(family: Family, options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` less those equal to their parameter's default."""
    defaults = {p.keyword: p.default for p in family.params if p.name == p.keyword}
    return {key: value for key, value in options.items() if key not in defaults or value != defaults[key]}


def trec_base(measure: Measure) -> str | None:
    """The trec_eval measure ``measure`` is printed under (``map_cut`` for ``map_cut_10``), or None.

    >>> from irlab.metrics.measure_names import parse_measure
    >>> trec_base(parse_measure("AP@10")), trec_base(parse_measure("Rprec(mult=0.2)")), trec_base(parse_measure("CG@3"))
    ('map_cut', 'Rprec_mult', None)
    """
    name = measure.trec_name
    matches = [trec for trec in TREC_NAMES if name == trec or name.startswith(trec + "_")]
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

