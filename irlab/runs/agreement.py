r"""Several assessors judging one pool: who judges what, how much they agree, and the judgments kept.

* **Splitting the pool** (:func:`assign`): each (topic, document) pair goes to ``overlap`` different
  judges, the least loaded so far (ties drawn at random, seeded), so every judge gets the same number
  give or take one, every pair of judges shares some documents (each pair's kappa can be measured),
  and no judge sees the documents in a run's order (which would hint at the runs' opinion).
* **Cohen's kappa** (:func:`cohen_kappa`) of two judges over the items both judged:
  :math:`\kappa = (p_o - p_e) / (1 - p_e)`, with :math:`p_o` the share of items they grade alike and
  :math:`p_e = \sum_c p_{1c} p_{2c}` the agreement expected by chance from each judge's own share of
  each grade :math:`c`. 1 is perfect agreement, 0 what chance gives; Landis and Koch call
  0.41-0.60 moderate and 0.61-0.80 substantial.
* **Fleiss' kappa** (:func:`fleiss_kappa`) of any number of judges, every item judged by the same
  number :math:`n` of them: with :math:`n_{ic}` judges giving item :math:`i` grade :math:`c`,
  :math:`P_i = (\sum_c n_{ic}^2 - n) / (n(n-1))`, :math:`\bar P` their mean over the :math:`N`
  items, :math:`p_c = \sum_i n_{ic} / (N n)` and :math:`\bar P_e = \sum_c p_c^2`:
  :math:`\kappa = (\bar P - \bar P_e) / (1 - \bar P_e)`.
* **The judgments kept** (:func:`merge`): each item's most frequent grade; a tie goes to the lower
  grade (a document two judges disagree on is not counted as more relevant than one of them said).

Agreement is reported twice: on the grades as given, and on relevance (grade >= the relevance
level), since assessors who disagree on "somewhat" vs "highly" relevant may agree on relevant.

>>> round(cohen_kappa(["y"] * 20 + ["n"] * 15 + ["y"] * 5 + ["n"] * 10,
...                   ["y"] * 20 + ["n"] * 15 + ["n"] * 5 + ["y"] * 10), 4)
0.4
>>> merge({"ann": {("1", "a"): 2, ("1", "b"): 0}, "bob": {("1", "a"): 1, ("1", "b"): 0},
...        "cy": {("1", "a"): 2}})
{('1', 'a'): 2, ('1', 'b'): 0}
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from irlab.errors import ValidationError

Item = tuple[str, str]
"""A (topic, document) pair to judge."""

MAX_JUDGES = 500
"""More judges than this for one pool are refused (a lecture hall has fewer)."""
SEED = 20_240_401


def assign(items: Sequence[Item], judges: Sequence[str], *, overlap: int = 2,
           seed: int = SEED) -> dict[str, list[Item]]:
    """Each judge's share of ``items``: every item to ``overlap`` different judges (see the module).

    >>> shares = assign([("1", d) for d in "abcdef"], ["ann", "bob", "cy"], overlap=2)
    >>> sorted(len(items) for items in shares.values()), sum(len(items) for items in shares.values())
    ([4, 4, 4], 12)
    """
    names = list(dict.fromkeys(judges))
    if not names or len(names) > MAX_JUDGES:
        raise ValidationError(f"a pool is split among 1 to {MAX_JUDGES} judges, got {len(names)}")
    if isinstance(overlap, bool) or not isinstance(overlap, int) or not 1 <= overlap <= len(names):
        raise ValidationError(f"each document is judged by 1 to {len(names)} judges (the number of judges), "
                              f"got {overlap!r}")
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(items))
    shares: dict[str, list[Item]] = {name: [] for name in names}
    load = np.zeros(len(names), dtype=np.int64)
    for index in order.tolist():
        # the least-loaded judges, ties in a fresh random order: even shares, and every pair of judges meets
        chosen = np.lexsort((rng.permutation(len(names)), load))[:overlap]
        load[chosen] += 1
        for j in chosen.tolist():
            shares[names[j]].append(items[index])
    return shares


def cohen_kappa(first: Sequence[Hashable], second: Sequence[Hashable]) -> float:
    """Cohen's kappa of two judges' labels for the same items, in the same order (see the module).

    ``nan`` when there is no item; 1 when both use a single, identical label throughout (no chance to
    disagree).
    """
    if len(first) != len(second):
        raise ValidationError("Cohen's kappa compares two judges on the same items")
    n = len(first)
    if n == 0:
        return math.nan
    observed = sum(a == b for a, b in zip(first, second)) / n
    counts_a, counts_b = Counter(first), Counter(second)
    expected = sum(counts_a[c] * counts_b.get(c, 0) for c in counts_a) / (n * n)
    if expected >= 1:
        return 1.0 if observed >= 1 else 0.0
    return (observed - expected) / (1 - expected)


def fleiss_kappa(counts: np.ndarray) -> float:
    """Fleiss' kappa of an items × grades matrix of counts, each row summing to the same n >= 2 (see the module).

    The example of Fleiss (1971) as Wikipedia gives it: 10 items, 14 raters, 5 categories.

    >>> table = np.array([[0, 0, 0, 0, 14], [0, 2, 6, 4, 2], [0, 0, 3, 5, 6], [0, 3, 9, 2, 0], [2, 2, 8, 1, 1],
    ...                   [7, 7, 0, 0, 0], [3, 2, 6, 3, 0], [2, 5, 3, 2, 2], [6, 5, 2, 1, 0], [0, 2, 2, 3, 7]])
    >>> round(fleiss_kappa(table), 3)
    0.21
    """
    x = np.asarray(counts, dtype=np.float64)
    if x.ndim != 2 or not len(x):
        return math.nan
    n = x.sum(axis=1)
    if not np.all(n == n[0]) or n[0] < 2:
        raise ValidationError("Fleiss' kappa needs every item judged by the same number (2 or more) of judges")
    raters = n[0]
    per_item = (np.sum(x * x, axis=1) - raters) / (raters * (raters - 1))
    shares = x.sum(axis=0) / (len(x) * raters)
    expected = float(np.sum(shares * shares))
    observed = float(np.mean(per_item))
    if expected >= 1:
        return 1.0 if observed >= 1 else 0.0
    return (observed - expected) / (1 - expected)


@dataclass(frozen=True)
class PairAgreement:
    """Two judges on the items both judged: how many, the share graded alike, Cohen's kappa on grades and on
    relevance."""

    first: str
    second: str
    items: int
    same: float
    kappa: float
    kappa_relevant: float


@dataclass(frozen=True)
class Agreement:
    """How several judges agree on a pool (see the module): every pair that shares items, and Fleiss' kappa over
    the items judged by the most common number of judges (``fleiss_raters`` of them, ``fleiss_items`` items)."""

    judges: tuple[str, ...]
    judged_items: int
    shared_items: int
    pairs: tuple[PairAgreement, ...]
    fleiss: float
    fleiss_relevant: float
    fleiss_items: int
    fleiss_raters: int


def agreement(judgments: Mapping[str, Mapping[Item, int]], *, relevance_level: int = 1) -> Agreement:
    """The agreement of the judges in ``judgments`` (``{judge: {(topic, doc): grade}}``)."""
    judges = tuple(judgments)
    per_item: dict[Item, dict[str, int]] = {}
    for judge, grades in judgments.items():
        for item, grade in grades.items():
            per_item.setdefault(item, {})[judge] = int(grade)
    shared = {item: by for item, by in per_item.items() if len(by) >= 2}
    pairs = []
    for a, b in combinations(judges, 2):
        both = [item for item, by in shared.items() if a in by and b in by]
        if not both:
            continue
        ga, gb = [shared[i][a] for i in both], [shared[i][b] for i in both]
        pairs.append(PairAgreement(a, b, len(both), sum(x == y for x, y in zip(ga, gb)) / len(both),
                                   cohen_kappa(ga, gb), cohen_kappa([x >= relevance_level for x in ga],
                                                                    [y >= relevance_level for y in gb])))
    fleiss = fleiss_relevant = math.nan
    raters = items = 0
    if shared:
        raters = Counter(len(by) for by in shared.values()).most_common(1)[0][0]
        chosen = [by for by in shared.values() if len(by) == raters]
        grades = sorted({g for by in chosen for g in by.values()})
        column = {g: c for c, g in enumerate(grades)}
        table = np.zeros((len(chosen), len(grades)))
        relevant = np.zeros((len(chosen), 2))
        for row, by in enumerate(chosen):
            for grade in by.values():
                table[row, column[grade]] += 1
                relevant[row, int(grade >= relevance_level)] += 1
        fleiss, fleiss_relevant, items = fleiss_kappa(table), fleiss_kappa(relevant), len(chosen)
    return Agreement(judges, len(per_item), len(shared), tuple(pairs), fleiss, fleiss_relevant, items, raters)


def merge(judgments: Mapping[str, Mapping[Item, int]]) -> dict[Item, int]:
    """One grade per item: the most frequent grade its judges gave, a tie to the lower grade (see the module)."""
    per_item: dict[Item, list[int]] = {}
    for grades in judgments.values():
        for item, grade in grades.items():
            per_item.setdefault(item, []).append(int(grade))
    merged = {}
    for item, grades in per_item.items():
        counts = Counter(grades)
        top = max(counts.values())
        merged[item] = min(g for g, c in counts.items() if c == top)
    return merged


def simulated_judges(truth: Mapping[Item, int], items: Sequence[Item], judges: Sequence[str], *, overlap: int = 2,
                     error: float = 0.15, grades: Sequence[int] = (0, 1, 2, 3),
                     seed: int = SEED) -> dict[str, dict[Item, int]]:
    """Judges who give an item its true grade, except with probability ``error`` a grade one step away (for a
    simulated collection: what a class of assessors might return)."""
    if not 0 <= error <= 1:
        raise ValidationError(f"the error rate must be from 0 to 1, got {error!r}")
    rng = np.random.default_rng(seed + 1)
    low, high = min(grades), max(grades)
    shares = assign(items, judges, overlap=overlap, seed=seed)
    found: dict[str, dict[Item, int]] = {}
    for judge, share in shares.items():
        mine = {}
        for item in share:
            grade = int(truth.get(item, 0))
            if rng.random() < error:
                step = 1 if grade == low else -1 if grade == high else int(rng.choice([-1, 1]))
                grade += step
            mine[item] = grade
        found[judge] = mine
    return found
