r"""trec_eval's preference measures (``-R prefs``, ``qrels_prefs``): how many of the users' preferences a ranking keeps.

Each judgment group (JG) states preferences "A > B" (:mod:`irlab.data.preferences`); a ranking
*fulfils* one when it ranks A above B. With :math:`F_g` the preferences of JG :math:`g` fulfilled
and :math:`P_g` those possible, over the :math:`G` groups of a query:

.. math::

    \mathrm{prefs\_simp} = \frac{\sum_g F_g}{\sum_g P_g} \qquad
    \mathrm{prefs\_avgjg} = \frac{1}{G}\sum_g \frac{F_g}{P_g} \qquad
    \mathrm{prefs\_pair} = \frac{1}{|\mathcal{D}|}\sum_{\{a,b\} \in \mathcal{D}} \frac{n_{a>b}}{n_{a>b} + n_{b>a}}

``prefs_simp`` counts every preference alike, ``prefs_avgjg`` every user alike, ``prefs_pair``
every pair of documents alike (:math:`\mathcal{D}` the pairs some JG has a preference on,
:math:`n_{a>b}` the JGs preferring a, a ranked above b). ``prefs_avgjg_Rnonrel`` is
``prefs_avgjg`` with each JG's non-relevant documents (level 0) cut or padded to as many as its
relevant ones, so that a pile of non-relevant judgments does not swamp a topic (akin to bpref).
The **scope** says which preferences count, trec_eval's suffix: ``all`` (no suffix: a preference
whose documents are both unretrieved counts as failed), ``implied`` (``_imp``: at least one
retrieved) and ``retrieved`` (``_ret``: both retrieved, for dynamic collections). The counts
``prefs_num_prefs_poss``, ``prefs_num_prefs_ful`` and ``prefs_num_prefs_ful_ret`` are summed over
topics; the ratios are averaged. Conventions are trec_eval 10.0's throughout, quirks included
(each function says which): the ranking breaks tied scores by document id *ascending*, and a ratio
whose groups hold no preference is 0.

Each ``explain_*`` is the readable definition: it lists every preference of every group, pair by
pair, in plain Python; each kernel reads the counts :mod:`irlab.data.preferences` made with numpy
for every query, and a test checks that the two agree bit for bit.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlab.data.preferences import GroupCounts, Judgments, PreferenceRankings, QueryCounts, cells, docid_ranks
from irlab.errors import ValidationError
from irlab.explain.breakdown import Breakdown, Column
from irlab.explain.formula import Add, Expr, Frac, Normalised, Num

SCOPES = ("all", "implied", "retrieved")
"""Which preferences a measure counts: every one, those with a document retrieved, those with both retrieved."""
_SUFFIX = {"all": "", "implied": "_imp", "retrieved": "_ret"}


def check_scope(scope: object) -> str:
    """``scope`` if it is one of :data:`SCOPES`.

    >>> check_scope("retrieved")
    'retrieved'
    """
    if scope not in SCOPES:
        raise ValidationError(f"scope must be one of {', '.join(SCOPES)} (trec_eval's suffixes: none, _imp, _ret), "
                              f"got {scope!r}")
    return str(scope)


def check_rnonrel_scope(scope: object) -> str:
    """``scope`` for prefs_avgjg_Rnonrel: ``all`` or ``retrieved`` (trec_eval has no ``_imp`` form of it)."""
    if scope not in ("all", "retrieved"):
        raise ValidationError(f"scope must be all or retrieved (prefs_avgjg_Rnonrel, _ret), got {scope!r}")
    return str(scope)


# --- the readable definition: every preference, pair by pair ------------------------------------------

@dataclass(frozen=True)
class GroupPreferences:
    """One JG's preferences ``(a, b)`` (a preferred to b), its documents' levels, and its form (ECs or not)."""

    group: str
    pairs: frozenset[tuple[str, str]]
    levels: dict[str, float]
    one_subgroup: bool


def group_preferences(judgments: Judgments) -> list[GroupPreferences]:
    """Every JG's preferences, in id order: within each sub-group, higher level > lower level; with several
    sub-groups, the transitive preferences too (ValidationError when a group contradicts itself).

    >>> g = group_preferences(Judgments.of([("u", "1", "a", 3), ("u", "1", "b", 2), ("u", "2", "b", 5),
    ...                                     ("u", "2", "c", 4)]))[0]
    >>> sorted(g.pairs)
    [('a', 'b'), ('a', 'c'), ('b', 'c')]
    """
    groups = []
    for group in sorted(set(judgments.groups), key=str.encode):
        lines = [(s, d, v) for g, s, d, v in zip(judgments.groups, judgments.subgroups, judgments.docs,
                                                  judgments.levels) if g == group]
        subgroups = {s for s, _, _ in lines}
        pairs = {(a, b) for s in subgroups for t, a, la in lines if t == s for u, b, lb in lines if u == s and la > lb}
        levels: dict[str, float] = {}
        for _, doc, level in lines:
            if doc in levels and (levels[doc] == 0) != (level == 0):
                raise ValidationError(f"document {doc!r} has level 0 in one sub-group of judgment group {group!r} "
                                      "and above 0 in another (a judgment group is one user's view: not relevant, "
                                      "or relevant)")
            levels[doc] = level
        if len(subgroups) > 1:
            changed = True
            while changed:
                more = {(a, d) for a, b in pairs for c, d in pairs if b == c and a != d}
                changed = not more <= pairs
                pairs |= more
            clash = next(((a, b) for a, b in sorted(pairs) if (b, a) in pairs), None)
            if clash:
                raise ValidationError(f"judgment group {group!r} prefers {clash[0]!r} to {clash[1]!r} and the other "
                                      "way round (with its other sub-groups): a group's preferences must agree; put "
                                      "disagreeing users in groups of their own")
        groups.append(GroupPreferences(group, frozenset(pairs), levels, len(subgroups) == 1))
    return groups


def count_group(g: GroupPreferences, place: dict[str, int], judged_ret: int) -> GroupCounts:
    """One JG's counts, preference by preference (the readable form of
    :func:`irlab.data.preferences.count_preferences`)."""
    counted = {"fulfilled_ret": 0, "unfulfilled_ret": 0, "fulfilled_imp": 0, "unfulfilled_imp": 0, "not_occurring": 0}
    for a, b in g.pairs:
        pa, pb = place[a], place[b]
        if pa < judged_ret and pb < judged_ret:
            counted["fulfilled_ret" if pa < pb else "unfulfilled_ret"] += 1
        elif pa < judged_ret:
            counted["fulfilled_imp"] += 1
        elif pb < judged_ret:
            counted["unfulfilled_imp"] += 1
        else:
            counted["not_occurring"] += 1
    relevant = [d for d, v in g.levels.items() if v > 0]
    nonrelevant = [d for d, v in g.levels.items() if v == 0]
    base = cells(counted["fulfilled_ret"], counted["unfulfilled_ret"], counted["fulfilled_imp"],
                 counted["unfulfilled_imp"], counted["not_occurring"],
                 (len(relevant), len(nonrelevant), sum(place[d] < judged_ret for d in relevant),
                  sum(place[d] < judged_ret for d in nonrelevant)))
    return GroupCounts(g.group, **base, rnonrel=_rnonrel(g, base, place, judged_ret, retrieved_only=False),
                       rnonrel_ret=_rnonrel(g, base, place, judged_ret, retrieved_only=True))


def _rnonrel(g: GroupPreferences, base: dict, place: dict[str, int], judged_ret: int, *,
             retrieved_only: bool) -> tuple[int, int]:
    """(fulfilled, possible) of prefs_avgjg_Rnonrel (or its ``_ret`` form) for one JG, as trec_eval counts them.

    R and N are the JG's relevant and non-relevant documents (retrieved ones only for ``_ret``).
    R >= N: the preferences as they are, plus R - N fulfilled ones per relevant retrieved
    document and R - N possible ones per relevant document. R < N: only the first R non-relevant
    documents (in rank order, then id order) are kept, and trec_eval counts anew. With one
    sub-group, it counts the preferences between relevant levels, then *every* document of the JG
    (the non-relevant ones too, the kept ones themselves too) against each kept one, fulfilled
    when the first is retrieved and above the kept one: a quirk of trec_eval 10.0 kept here. With
    several sub-groups, the JG's preferences among the documents kept. ``_ret``: only retrieved
    documents, and with several sub-groups trec_eval keeps the non-relevant retrieved documents
    before the (R + 1)-th, R counting *every* relevant document of the JG.
    """
    retrieved = {d for d in g.levels if place[d] < judged_ret}
    relevant = [d for d, v in g.levels.items() if v > 0 and (not retrieved_only or d in retrieved)]
    nonrelevant = sorted((d for d, v in g.levels.items() if v == 0 and (not retrieved_only or d in retrieved)),
                         key=place.__getitem__)
    r, n = len(relevant), len(nonrelevant)
    if r >= n:
        extra = r - n
        if retrieved_only:
            return base["fulfilled_ret"] + base["relevant_ret"] * extra, base["possible_ret"] + base["relevant"] * extra
        return (base["fulfilled_ret"] + base["fulfilled_imp"] + base["relevant_ret"] * extra,
                base["possible_ret"] + base["possible_imp"] + base["not_occurring"] + base["relevant"] * extra)
    if g.one_subgroup:
        kept = nonrelevant[:r]
        docs = [d for d in g.levels if not retrieved_only or d in retrieved]
        pairs = [(a, b) for a, b in g.pairs if g.levels[b] > 0 and a in docs and b in docs]
        pairs += [(a, k) for a in docs for k in kept]
        if retrieved_only:
            fulfilled = sum(place[a] < place[b] for a, b in pairs)
        else:
            fulfilled = sum(place[a] < place[b] and place[a] < judged_ret for a, b in pairs)
        return fulfilled, len(pairs)
    if retrieved_only:
        every_relevant = sum(1 for v in g.levels.values() if v > 0)
        dropped = set(nonrelevant[every_relevant:])
        docs = retrieved - dropped
        pairs = [(a, b) for a, b in g.pairs if a in docs and b in docs]
        return sum(place[a] < place[b] for a, b in pairs), len(pairs)
    dropped = set(nonrelevant[r:])
    pairs = [(a, b) for a, b in g.pairs if a not in dropped and b not in dropped]
    fulfilled = sum(place[a] < judged_ret and (place[a] < place[b] or place[b] >= judged_ret) for a, b in pairs)
    return fulfilled, len(pairs)


def pair_shares(groups: Sequence[GroupPreferences], place: dict[str, int], judged_ret: int) -> tuple[list, int, int]:
    """prefs_pair's terms, pair by pair in trec_eval's order, and how many pairs with one / neither retrieved.

    Returns ``(terms, implied_terms_from, unretrieved_pairs)``: ``terms`` are ``(a, b, share)`` for the
    pairs with both documents retrieved (row by row of the rank order), then those with only the first
    retrieved; ``implied_terms_from`` is where the second kind starts.
    """
    count: dict[tuple[str, str], int] = {}
    for g in groups:
        for pair in g.pairs:
            count[pair] = count.get(pair, 0) + 1
    docs = sorted(place, key=place.__getitem__)
    both = [(a, b) for i, a in enumerate(docs[:judged_ret]) for b in docs[i + 1:judged_ret]]
    one = [(a, b) for a in docs[:judged_ret] for b in docs[judged_ret:]]
    terms = [(a, b, count.get((a, b), 0) / (count.get((a, b), 0) + count.get((b, a), 0)))
             for a, b in both + one if count.get((a, b), 0) + count.get((b, a), 0)]
    implied_from = sum(1 for a, b in both if count.get((a, b), 0) + count.get((b, a), 0))
    neither = sum(1 for i, a in enumerate(docs[judged_ret:]) for b in docs[judged_ret + i + 1:]
                  if count.get((a, b), 0) + count.get((b, a), 0))
    return terms, implied_from, neither


def _counted(ranking: Sequence[str], judgments: Judgments) -> tuple[list[GroupPreferences], dict[str, int], int,
                                                                      list[GroupCounts]]:
    groups = group_preferences(judgments)
    place, judged_ret = docid_ranks(ranking, judgments.judged())
    return groups, place, judged_ret, [count_group(g, place, judged_ret) for g in groups]


# --- explanations ------------------------------------------------------------------------------------------

def fulfilled_of(g: GroupCounts, scope: str) -> int:
    """A JG's fulfilled preferences in ``scope`` (implied ones count in ``all`` and ``implied``)."""
    return g.fulfilled_ret if scope == "retrieved" else g.fulfilled_ret + g.fulfilled_imp


def possible_of(g: GroupCounts, scope: str) -> int:
    """A JG's possible preferences in ``scope``."""
    return {"all": g.possible, "implied": g.possible_ret + g.possible_imp, "retrieved": g.possible_ret}[scope]


_GROUP_COLUMNS = (Column("group", "JG", "the judgment group"), Column("fulfilled", "F", "preferences fulfilled"),
                  Column("possible", "P", "preferences possible"), Column("share", "F / P"))


def _group_rows(counts: Sequence[GroupCounts], scope: str) -> tuple[dict, ...]:
    rows = []
    for g in counts:
        f, p = fulfilled_of(g, scope), possible_of(g, scope)
        rows.append({"group": g.group, "fulfilled": f, "possible": p, "share": f / p if p else 0.0})
    return tuple(rows)


def _name(base: str, scope: str) -> str:
    return f"prefs_{base}{_SUFFIX[scope]}"


def explain_prefs_simp(ranking: Sequence[str], judgments: Judgments, *, scope: str = "all") -> Breakdown:
    r"""prefs_simp: the preferences fulfilled over those possible, all groups together.

    .. math:: \mathrm{prefs\_simp} = \frac{\sum_g F_g}{\sum_g P_g}

    Conventions (trec_eval 10.0): a preference counted in several JGs counts each time; conflicting
    JGs both count (so 1 may be out of reach); no preference at all gives 0. ``scope``: ``all``
    (a preference with neither document retrieved fails), ``implied`` (it is left out),
    ``retrieved`` (only preferences with both documents retrieved).

    Example: user u1 ranks a (2) > b (1) > c (0); the run retrieves c, then a. a > c and b > c
    fail (c is above a; b is not retrieved while c is), a > b holds (implied: b not retrieved):
    1 of 3.

    >>> lines = Judgments.of([("u1", "s", "a", 2), ("u1", "s", "b", 1), ("u1", "s", "c", 0)])
    >>> print(explain_prefs_simp(["c", "a"], lines).plugged_latex)
    \mathrm{prefs\_simp} = \frac{1}{3} \approx 0.3333
    """
    scope = check_scope(scope)
    _, _, _, counts = _counted(ranking, judgments)
    fulfilled = sum(fulfilled_of(g, scope) for g in counts)
    possible = sum(possible_of(g, scope) for g in counts)
    plugged = Frac(Num(fulfilled), Num(possible)) if possible else Num(0)
    name = _name("simp", scope)
    return Breakdown(measure=name, value=float(plugged.value()), lhs=_latex(name),
                     symbolic=rf"{_latex(name)} = \frac{{\sum_g F_g}}{{\sum_g P_g}}",
                     symbolic_text=f"{name} = the preferences fulfilled / the preferences possible, over every "
                                   "judgment group",
                     plugged=plugged, rows=_group_rows(counts, scope), columns=_GROUP_COLUMNS,
                     notes=() if possible else ("No preference to fulfil: 0 (trec_eval).",))


def explain_prefs_avgjg(ranking: Sequence[str], judgments: Judgments, *, scope: str = "all") -> Breakdown:
    r"""prefs_avgjg: each group's share of its preferences fulfilled, averaged over the groups.

    .. math:: \mathrm{prefs\_avgjg} = \frac{1}{G}\sum_{g:\,P_g > 0} \frac{F_g}{P_g}

    Every user counts alike, however many preferences each gave. Conventions (trec_eval 10.0): a
    group without preferences (in the scope) adds nothing but counts in :math:`G`; a sum of 0
    gives 0; the shares are added group by group in id order.

    >>> lines = Judgments.of([("u1", "s", "a", 1), ("u1", "s", "b", 0), ("u2", "s", "a", 0), ("u2", "s", "b", 1)])
    >>> print(explain_prefs_avgjg(["a", "b"], lines).plugged_latex)  # u1's preference is kept, u2's is not
    \mathrm{prefs\_avgjg} = \frac{1}{2} \cdot \left(\frac{1}{1} + \frac{0}{1}\right) = 0.5
    """
    scope = check_scope(scope)
    _, _, _, counts = _counted(ranking, judgments)
    shares = [Frac(Num(fulfilled_of(g, scope)), Num(possible_of(g, scope))) for g in counts if possible_of(g, scope)]
    total = Add(shares)
    plugged: Expr = Normalised(total, Num(len(counts))) if total.value() > 0.0 else Num(0)
    name = _name("avgjg", scope)
    return Breakdown(measure=name, value=float(plugged.value()), lhs=_latex(name),
                     symbolic=rf"{_latex(name)} = \frac{{1}}{{G}} \sum_g \frac{{F_g}}{{P_g}}",
                     symbolic_text=f"{name} = the mean over the G judgment groups of each group's preferences "
                                   "fulfilled / possible",
                     plugged=plugged, rows=_group_rows(counts, scope), columns=_GROUP_COLUMNS)


def explain_prefs_avgjg_rnonrel(ranking: Sequence[str], judgments: Judgments, *, scope: str = "all") -> Breakdown:
    r"""prefs_avgjg_Rnonrel: prefs_avgjg with each group's non-relevant documents set to as many as its relevant ones.

    .. math:: \mathrm{prefs\_avgjg\_Rnonrel} = \frac{1}{G}\sum_g \frac{F'_g}{P'_g}

    A group with R relevant (level > 0) and N non-relevant (level 0) documents: when R >= N, R - N
    fulfilled preferences per relevant retrieved document and R - N possible ones per relevant
    document are added; when R < N, only the first R non-relevant documents count and the
    preferences are counted anew (see :func:`_rnonrel` for trec_eval's exact, quirky rule).
    ``scope``: ``all``, or ``retrieved`` (R and N of the retrieved documents). Conventions
    (trec_eval 10.0): a group with nothing to count gives 0/0, which makes the whole sum NaN and
    the value 0; a sum of 0 gives 0.

    Example: a (relevant) above b and c, d unretrieved, all three not relevant: R = 1 < N = 3, so only
    b is kept; trec_eval then counts every document of the group against b (a > b fulfilled; b, c,
    d against b not): 1/4, where prefs_avgjg gives 1.

    >>> lines = Judgments.of([("u", "s", "a", 1), ("u", "s", "b", 0), ("u", "s", "c", 0), ("u", "s", "d", 0)])
    >>> explain_prefs_avgjg_rnonrel(["a", "b", "c"], lines).value, explain_prefs_avgjg(["a", "b", "c"], lines).value
    (0.25, 1.0)
    """
    scope = check_rnonrel_scope(scope)
    _, _, _, counts = _counted(ranking, judgments)
    pairs = [g.rnonrel if scope == "all" else g.rnonrel_ret for g in counts]
    rows = tuple({"group": g.group, "fulfilled": f, "possible": p, "share": f / p if p else math.nan}
                 for g, (f, p) in zip(counts, pairs))
    name = "prefs_avgjg_Rnonrel" + ("_ret" if scope == "retrieved" else "")
    notes = []
    if any(p == 0 for _, p in pairs):
        plugged: Expr = Num(0)
        notes.append("A judgment group has no preference left to count: trec_eval's sum of the shares becomes NaN "
                     "(0/0), and the value 0.")
    else:
        total = Add([Frac(Num(f), Num(p)) for f, p in pairs])
        plugged = Normalised(total, Num(len(counts))) if total.value() > 0.0 else Num(0)
    return Breakdown(measure=name, value=float(plugged.value()), lhs=_latex(name),
                     symbolic=rf"{_latex(name)} = \frac{{1}}{{G}} \sum_g \frac{{F'_g}}{{P'_g}}",
                     symbolic_text=f"{name} = the mean over the judgment groups of the preferences fulfilled / "
                                   "possible, each group's non-relevant documents set to as many as its relevant ones",
                     plugged=plugged, rows=rows, columns=_GROUP_COLUMNS, notes=tuple(notes))


def explain_prefs_pair(ranking: Sequence[str], judgments: Judgments, *, scope: str = "all") -> Breakdown:
    r"""prefs_pair: per pair of documents with a preference, the share of those groups the ranking agrees with.

    .. math:: \mathrm{prefs\_pair} = \frac{1}{|\mathcal{D}|}\sum_{\{a,b\}} \frac{n_{a>b}}{n_{a>b} + n_{b>a}}

    a is the document ranked above b (a retrieved document is above every unretrieved one);
    :math:`n_{a>b}` counts the groups preferring a to b. Equal to prefs_simp when no pair is
    judged by two groups. ``scope``: ``all`` (pairs with neither document retrieved count, as 0),
    ``implied`` (left out), ``retrieved`` (both retrieved). Conventions (trec_eval 10.0): the shares
    are added pair by pair, both retrieved first (row by row), then one retrieved; no pair gives 0.

    >>> lines = Judgments.of([("u1", "s", "a", 1), ("u1", "s", "b", 0), ("u2", "s", "a", 0), ("u2", "s", "b", 1),
    ...                       ("u3", "s", "a", 1), ("u3", "s", "b", 0)])
    >>> round(explain_prefs_pair(["a", "b"], lines).value, 4)  # two users of three agree with a above b
    0.6667
    """
    scope = check_scope(scope)
    groups, place, judged_ret, _ = _counted(ranking, judgments)
    terms, implied_from, neither = pair_shares(groups, place, judged_ret)
    used = terms[:implied_from] if scope == "retrieved" else terms
    pairs = {"retrieved": implied_from, "implied": len(terms), "all": len(terms) + neither}[scope]
    total = Add([Num(share) for _, _, share in used])
    plugged: Expr = Normalised(total, Num(pairs)) if pairs else Num(0)
    name = _name("pair", scope)
    rows = tuple({"above": a, "below": b, "share": share} for a, b, share in used)
    notes = [f"{neither} more pair(s) with neither document retrieved count as 0."] if scope == "all" and neither \
        else []
    return Breakdown(measure=name, value=float(plugged.value()), lhs=_latex(name),
                     symbolic=rf"{_latex(name)} = \frac{{1}}{{|\mathcal{{D}}|}} \sum_{{\{{a,b\}}}} "
                              r"\frac{n_{a>b}}{n_{a>b} + n_{b>a}}",
                     symbolic_text=f"{name} = the mean over the pairs of documents with a preference of the share of "
                                   "groups preferring the one ranked higher",
                     plugged=plugged, rows=rows,
                     columns=(Column("above", "a", "ranked higher"), Column("below", "b", "ranked lower"),
                              Column("share", "share", "the groups preferring a, over those with a preference")),
                     notes=tuple(notes))


def explain_prefs_possible(ranking: Sequence[str], judgments: Judgments, *, scope: str = "all") -> Breakdown:
    r"""prefs_num_prefs_poss: the preferences there are, every group's, whether the documents are retrieved or not.

    .. math:: \sum_g P_g

    Summed over topics, not averaged (trec_eval).

    >>> explain_prefs_possible(["a"], Judgments.of([("u", "s", "a", 2), ("u", "s", "b", 1), ("u", "s", "c", 0)])).value
    3
    """
    scope = check_scope(scope)
    _, _, _, counts = _counted(ranking, judgments)
    return _count_breakdown("prefs_num_prefs_poss", [possible_of(g, scope) for g in counts], counts, scope)


def explain_prefs_fulfilled(ranking: Sequence[str], judgments: Judgments, *, scope: str = "all") -> Breakdown:
    r"""prefs_num_prefs_ful (``_ret``): the preferences fulfilled, implied ones included (only both retrieved).

    .. math:: \sum_g F_g

    Summed over topics, not averaged (trec_eval).

    >>> explain_prefs_fulfilled(["a"], Judgments.of([("u", "s", "a", 2), ("u", "s", "b", 1), ("u", "s", "c", 0)])).value
    2
    """
    scope = check_scope(scope)
    _, _, _, counts = _counted(ranking, judgments)
    name = "prefs_num_prefs_ful" + ("_ret" if scope == "retrieved" else "")
    return _count_breakdown(name, [fulfilled_of(g, scope) for g in counts], counts, scope)


def _count_breakdown(name: str, values: list[int], counts: Sequence[GroupCounts], scope: str) -> Breakdown:
    plugged = Add([Num(v) for v in values])
    return Breakdown(measure=name, value=sum(values), lhs=_latex(name), symbolic=rf"{_latex(name)} = \sum_g",
                     symbolic_text=f"{name} = the sum over the judgment groups", plugged=plugged,
                     rows=_group_rows(counts, scope), columns=_GROUP_COLUMNS)


def _latex(name: str) -> str:
    return r"\mathrm{" + name.replace("_", r"\_") + "}"


# --- kernels: every query's value from the counts of irlab.data.preferences -------------------------------

def _each(rankings: PreferenceRankings, value, *, pairs: bool = False) -> np.ndarray:
    counts = rankings.pair_counts if pairs else rankings.counts
    return np.array([value(q) for q in counts], dtype=np.float64)


def prefs_simp_kernel(rankings: PreferenceRankings, *, scope: str = "all") -> np.ndarray:
    """:func:`explain_prefs_simp`'s value for every query."""
    def value(q: QueryCounts) -> float:
        possible = sum(possible_of(g, scope) for g in q.groups)
        return sum(fulfilled_of(g, scope) for g in q.groups) / possible if possible else 0.0
    return _each(rankings, value)


def prefs_avgjg_kernel(rankings: PreferenceRankings, *, scope: str = "all") -> np.ndarray:
    """:func:`explain_prefs_avgjg`'s value for every query (shares added in group order)."""
    def value(q: QueryCounts) -> float:
        total = 0.0
        for g in q.groups:
            if possible_of(g, scope):
                total += fulfilled_of(g, scope) / possible_of(g, scope)
        return total / len(q.groups) if total > 0.0 else 0.0
    return _each(rankings, value)


def prefs_avgjg_rnonrel_kernel(rankings: PreferenceRankings, *, scope: str = "all") -> np.ndarray:
    """:func:`explain_prefs_avgjg_rnonrel`'s value for every query."""
    def value(q: QueryCounts) -> float:
        pairs = [g.rnonrel if scope == "all" else g.rnonrel_ret for g in q.groups]
        if any(p == 0 for _, p in pairs):
            return 0.0  # 0/0 in trec_eval's sum: NaN, and NaN > 0 is false
        total = 0.0
        for f, p in pairs:
            total += f / p
        return total / len(q.groups) if total > 0.0 else 0.0
    return _each(rankings, value)


def prefs_pair_kernel(rankings: PreferenceRankings, *, scope: str = "all") -> np.ndarray:
    """:func:`explain_prefs_pair`'s value for every query (its pair counts were made with ``pairs=True``)."""
    def value(q: QueryCounts) -> float:
        sums = q.pairs
        used = sums.terms[:sums.retrieved] if scope == "retrieved" else sums.terms
        pairs = {"retrieved": sums.retrieved, "implied": sums.implied, "all": sums.pairs}[scope]
        total = float(np.cumsum(used)[-1]) if len(used) else 0.0  # added pair by pair, in order
        return total / pairs if pairs else 0.0
    return _each(rankings, value, pairs=True)


def prefs_possible_kernel(rankings: PreferenceRankings, *, scope: str = "all") -> np.ndarray:
    """:func:`explain_prefs_possible`'s value for every query."""
    return np.array([sum(possible_of(g, scope) for g in q.groups) for q in rankings.counts], dtype=np.int64)


def prefs_fulfilled_kernel(rankings: PreferenceRankings, *, scope: str = "all") -> np.ndarray:
    """:func:`explain_prefs_fulfilled`'s value for every query."""
    return np.array([sum(fulfilled_of(g, scope) for g in q.groups) for q in rankings.counts], dtype=np.int64)
