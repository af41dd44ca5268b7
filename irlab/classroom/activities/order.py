"""The activity kind "order the pictures": each student drags their own ranking toward a goal the lecturer sets.

**Settings** (checked by :meth:`OrderPictures.settings`, stored in canonical form):

=============  ==============================================================================
``chapter``    the chapter's slug, or give ``link`` instead (a walkthrough link, as for
               :mod:`irlab.classroom.activities.predict`)
``params``     the walkthrough's URL parameters: the starting order, K, the mode, the level
``goal``       one of :data:`GOALS` (below)
=============  ==============================================================================

The ranking is the chapter's main one (the query of its mode, with its judgments and, for the
binary measures in graded mode, its relevance level). The goals, each checked by IR Lab on the
submitted order (irlab's own measures):

=======================  ====================================================================
``best-ndcg``            the best order for NDCG@K: NDCG@K as high as any order makes it
``p-high-ap-low``        P@K as high as it can be, and, among such orders, AP as low as it can
                         be (the other relevant pictures at the bottom): P@K sees only the top
                         K, AP sees every rank
``rr-one-fewest-moves``  MRR 1 (one query: its reciprocal rank) with the fewest moves from the
                         starting order (a move takes one picture out and puts it back elsewhere)
=======================  ====================================================================

**Answers** are the eight picture ids in the student's order (a list, or text ``3,1,2,...``); an
order with a picture twice, an unknown picture or a missing one is refused with a message. The
verdict (goal met or not, a named shortfall) and the numbers (the measure, P@K and AP, the moves)
are stored with the answer, so summaries never recompute them.

**Summary** per round (:class:`OrderSummary`): the count; once revealed with at least 3 answers, a
rank-position heatmap (picture x rank: how many put this picture at this rank), the distribution of
the goal's measure, how many met the goal, the shortfalls, and the class's best and most common
order, each with the walkthrough parameters that open it.

>>> kind = OrderPictures()
>>> settings = kind.settings({"chapter": "ndcg", "params": {"order": "1,2,3,4,5,6,7,8", "k": "3"},
...                           "goal": "best-ndcg"})
>>> kind.describe(settings)
'The best order for NDCG@3 · CG, DCG, IDCG and NDCG@K'
>>> me = Respondent(number=1, seed=7)
>>> best = kind.parse(settings, "2,5,4,7,8,3,6,1", me).value
>>> kind.check(settings, best, me).correct
True
>>> kind.parse(settings, "2,2,4,7,8,3,6,1", me)
Traceback (most recent call last):
...
irlab.errors.ValidationError: Picture 2 is in the order twice: put each of the 8 pictures in once.
"""

from __future__ import annotations

import itertools
import json
from bisect import bisect_left
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from irlab.classroom.activities.base import (
    MIN_ANSWERS_SHOWN,
    Parsed,
    Respondent,
    RoundAnswers,
    StoredAnswer,
    Verdict,
    known_settings,
)
from irlab.classroom.activities.histogram import Histogram, bin_edges, count_into
from irlab.classroom.activities.predict import MistakeCount
from irlab.classroom.activities.states import chapter_and_params, chapter_of, strict_state
from irlab.data.judgments import Judgments
from irlab.data.rankings import ideal_ranking
from irlab.errors import ValidationError
from irlab.explain.formula import format_number
from irlab.metrics.average_precision import explain_average_precision
from irlab.metrics.dcg import explain_ndcg_at_k
from irlab.metrics.precision_recall import explain_precision_at_k
from irlab.metrics.reciprocal_rank import explain_reciprocal_rank
from irlab.walkthrough import views
from irlab.walkthrough.chapters import Chapter
from irlab.walkthrough.state import MODE_QUERY, SCENARIO, WalkthroughState
from irlab.walkthrough.urlstate import params_from_state

BEST_NDCG, P_HIGH_AP_LOW, RR_FEWEST_MOVES = "best-ndcg", "p-high-ap-low", "rr-one-fewest-moves"
MAX_TEXT = 400
_SLACK = 1e-9


@dataclass(frozen=True)
class Goal:
    """A goal a lecturer may set: its stored name, its title (``{k}`` is K) and the measure shown per order."""

    name: str
    title: str
    measure: str


GOALS: dict[str, Goal] = {goal.name: goal for goal in (
    Goal(BEST_NDCG, "The best order for NDCG@{k}", "NDCG@{k}"),
    Goal(P_HIGH_AP_LOW, "P@{k} as high as it can be, AP as low as it can be", "AP"),
    Goal(RR_FEWEST_MOVES, "Make MRR 1 with the fewest moves", "RR"),
)}
"""The goals, in the order a lecturer is offered them."""

SHORTFALLS = {
    "ndcg-not-best": "NDCG@K below the best",
    "grades-not-sorted": "relevant pictures on top, but not the highest grades first",
    "p-not-highest": "P@K not as high as it can be",
    "ap-not-lowest": "P@K right, but AP not as low as it can be",
    "rr-not-one": "the first picture is not relevant (RR below 1)",
    "too-many-moves": "RR 1, but with more moves than needed",
}
"""The named ways an order misses its goal (stored as the answer's mistake)."""


@dataclass(frozen=True)
class Setup:
    """What an order is scored against: the chapter, its state, the starting order, K, judgments and level."""

    chapter: Chapter
    state: WalkthroughState
    goal: Goal
    start: tuple[str, ...]
    k: int
    mode: str
    judgments: Judgments
    level: int
    best: Scored | None = None
    """The best numbers any order reaches (:func:`optimum`), kept with a cached setup."""

    @property
    def measure(self) -> str:
        return self.goal.measure.format(k=self.k)

    @property
    def title(self) -> str:
        return self.goal.title.format(k=self.k)


@dataclass(frozen=True)
class Scored:
    """An order scored for its goal: the goal's measure, whether the goal is met, the shortfall, the numbers."""

    value: float
    met: bool
    shortfall: str | None
    precision: float
    average_precision: float
    moves: int

    def rank_key(self, goal: str) -> tuple:
        """Larger is better: met first, then the goal's own numbers."""
        if goal == BEST_NDCG:
            return (self.met, self.value)
        if goal == P_HIGH_AP_LOW:
            return (self.met, self.precision, -self.average_precision)
        return (self.met, self.value, -self.moves)


@dataclass(frozen=True)
class OrderQuestion:
    """What a student sees: the chapter's state, the goal in words, and the starting order's tiles."""

    chapter: Chapter
    state: WalkthroughState
    params: Mapping[str, str]
    goal: str
    title: str
    prompt: str
    measure: str
    row: views.TileRow


@dataclass(frozen=True)
class OrderCount:
    """An order, how many students sent it, its score, and the walkthrough parameters that open it."""

    order: tuple[str, ...]
    count: int
    scored: Scored
    params: Mapping[str, str]

    @property
    def text(self) -> str:
        return ", ".join(self.order)


@dataclass(frozen=True)
class OrderSummary:
    """A round's orders. Only ``count`` before the reveal or below :data:`MIN_ANSWERS_SHOWN`; after the reveal
    also the heatmap (``heatmap[i][r]``: how many put ``items[i]`` at rank ``r + 1``), the measure's histogram,
    how many met the goal, the shortfalls, the best and the most common order."""

    round: int
    state: str
    count: int
    items: tuple[str, ...] = ()
    heatmap: tuple[tuple[int, ...], ...] | None = None
    histogram: Histogram | None = None
    right_value: float | None = None
    met: int | None = None
    shortfalls: tuple[MistakeCount, ...] = ()
    best: OrderCount | None = None
    common: OrderCount | None = None

    @property
    def shown(self) -> bool:
        return self.heatmap is not None

    @property
    def share_met(self) -> float | None:
        return None if self.met is None or not self.count else self.met / self.count


@dataclass(frozen=True)
class OrderSolution:
    """An order that meets the goal, its numbers in words, why, and its walkthrough parameters."""

    chapter: Chapter
    order: tuple[str, ...]
    scored: Scored
    params: Mapping[str, str]
    measure: str
    why: str


@dataclass(frozen=True)
class OrderFeedback:
    """The verdict on a student's order in words."""

    correct: bool
    message: str


def moves_between(start: Sequence[str], order: Sequence[str]) -> int:
    """The fewest moves (take one picture out, put it back elsewhere) from ``start`` to ``order``: the pictures
    outside a longest run kept in the same relative order (N minus the longest increasing subsequence).

    >>> moves_between("12345678", "12345678"), moves_between("12345678", "41235678"), moves_between("1234", "4321")
    (0, 1, 3)
    """
    where = {item: i for i, item in enumerate(start)}
    tails: list[int] = []
    for item in order:
        position = where[item]
        at = bisect_left(tails, position)
        if at == len(tails):
            tails.append(position)
        else:
            tails[at] = position
    return len(order) - len(tails)


def score(setup: Setup, order: Sequence[str]) -> Scored:
    """``order`` scored for the setup's goal by irlab's measures."""
    ranking = list(order)
    precision = explain_precision_at_k(ranking, setup.judgments, setup.k, relevance_level=setup.level).value
    average = explain_average_precision(ranking, setup.judgments, relevance_level=setup.level).value
    moves = moves_between(setup.start, ranking)
    goal = setup.goal.name
    if goal == BEST_NDCG:
        value = explain_ndcg_at_k(ranking, setup.judgments, setup.k).value
        best = _optimum(setup).value
        met = value >= best - _SLACK
        shortfall = None if met else ("grades-not-sorted" if _relevant_on_top(setup, ranking) else "ndcg-not-best")
    elif goal == P_HIGH_AP_LOW:
        value = average
        optimum = _optimum(setup)
        high = precision >= optimum.precision - _SLACK
        met = high and average <= optimum.average_precision + _SLACK
        shortfall = None if met else ("ap-not-lowest" if high else "p-not-highest")
    else:
        value = explain_reciprocal_rank(ranking, setup.judgments, relevance_level=setup.level).value
        fewest = _optimum(setup).moves
        met = value >= 1 - _SLACK and moves <= fewest
        shortfall = None if met else ("too-many-moves" if value >= 1 - _SLACK else "rr-not-one")
    return Scored(float(value), met, shortfall, float(precision), float(average), moves)


def _relevant_on_top(setup: Setup, ranking: Sequence[str]) -> bool:
    """Whether the top K holds as many pictures with a grade above 0 as it can (the binary view of the goal)."""
    positive = sum(1 for item in setup.start if setup.judgments.grade(item) > 0)
    return sum(1 for item in ranking[:setup.k] if setup.judgments.grade(item) > 0) == min(positive, setup.k)


def target_order(setup: Setup) -> tuple[str, ...]:
    """An order that meets the goal (the one the solution shows).

    * best NDCG@K: the pictures by grade, highest first (ties in the starting order);
    * P@K high, AP low: of the orders with the highest P@K, one with the lowest AP (every pattern of relevant
      ranks is tried: at most 70 for eight pictures);
    * MRR 1 with the fewest moves: the first relevant picture moved to the top (nothing if it is there already).
    """
    start = setup.start
    relevant = [item for item in start if setup.judgments.grade(item) >= setup.level]
    if setup.goal.name == BEST_NDCG:
        return tuple(ideal_ranking(setup.judgments, start))
    if setup.goal.name == RR_FEWEST_MOVES:
        first = relevant[0]
        return (first, *(item for item in start if item != first))
    others = [item for item in start if item not in relevant]
    best: tuple[tuple, tuple[str, ...]] | None = None
    for ranks in itertools.combinations(range(len(start)), len(relevant)):
        rel, rest = iter(relevant), iter(others)
        order = tuple(next(rel) if rank in ranks else next(rest) for rank in range(len(start)))
        ranking = list(order)
        key = (explain_precision_at_k(ranking, setup.judgments, setup.k, relevance_level=setup.level).value,
               -explain_average_precision(ranking, setup.judgments, relevance_level=setup.level).value)
        if best is None or key > best[0]:  # strictly better: the first of equal patterns stays
            best = (key, order)
    assert best is not None
    return best[1]


def optimum(setup: Setup) -> Scored:
    """The target order's numbers: the best any order reaches for the goal."""
    order = list(target_order(setup))
    precision = explain_precision_at_k(order, setup.judgments, setup.k, relevance_level=setup.level).value
    average = explain_average_precision(order, setup.judgments, relevance_level=setup.level).value
    if setup.goal.name == BEST_NDCG:
        value = explain_ndcg_at_k(order, setup.judgments, setup.k).value
    elif setup.goal.name == P_HIGH_AP_LOW:
        value = average
    else:
        value = explain_reciprocal_rank(order, setup.judgments, relevance_level=setup.level).value
    return Scored(float(value), True, None, float(precision), float(average), moves_between(setup.start, order))


def _optimum(setup: Setup) -> Scored:
    """The optimum kept with a cached setup, or computed for a setup made by hand."""
    return setup.best if setup.best is not None else optimum(setup)


class OrderPictures:
    """Order the pictures toward a goal (the kind's methods are described in :mod:`irlab.classroom.activities.base`)."""

    name = "order"
    title = "Order the pictures"

    def settings(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        """The settings in canonical form; ValidationError names what is wrong."""
        raw = known_settings(raw, {"chapter", "link", "params", "goal"})
        chapter, state = chapter_and_params(raw)
        goal = raw.get("goal")
        if goal not in GOALS:
            raise ValidationError(f"choose a goal; the goals are: {', '.join(GOALS)}", path="goal")
        settings = {"chapter": chapter.slug, "params": params_from_state(state, chapter), "goal": goal}
        setup = _setup(_key(settings))
        relevant = [i for i in setup.start if setup.judgments.grade(i) >= (1 if goal == BEST_NDCG else setup.level)]
        if not relevant:
            raise ValidationError("no picture is relevant in this state, so every order scores the same; choose "
                                  "another mode or relevance level", path="goal")
        return settings

    def describe(self, settings: Mapping[str, Any]) -> str:
        setup = _setup(_key(settings))
        return f"{setup.title} \u00b7 {setup.chapter.title}"

    def question(self, settings: Mapping[str, Any], respondent: Respondent | None = None) -> OrderQuestion:
        setup = _setup(_key(settings))
        query = SCENARIO.query(MODE_QUERY[setup.mode])
        row = views.tile_row("order", query, setup.start, setup.judgments, setup.mode, setup.k,
                             relevance_level=setup.level, show_counts=setup.goal.name != BEST_NDCG)
        return OrderQuestion(setup.chapter, setup.state, params_from_state(setup.state, setup.chapter),
                             setup.goal.name, setup.title, _prompt(setup), setup.measure, row)

    def parse(self, settings: Mapping[str, Any], raw: Any, respondent: Respondent) -> Parsed:
        """The eight picture ids, each once; ValidationError says what is wrong with the order."""
        setup = _setup(_key(settings))
        if isinstance(raw, str):
            if len(raw) > MAX_TEXT:
                raise ValidationError("This is not an order of the pictures: send the picture numbers, e.g. 3,1,2.")
            raw = [part.strip() for part in raw.replace(";", ",").split(",") if part.strip()]
        if not isinstance(raw, (list, tuple)) or len(raw) > 4 * len(setup.start) \
                or not all(isinstance(item, str) and len(item) <= 20 for item in raw):
            raise ValidationError("This is not an order of the pictures: send the picture numbers, e.g. 3,1,2.")
        known = set(setup.start)
        seen: set[str] = set()
        for item in raw:
            if item not in known:
                raise ValidationError(f"There is no picture {item[:20]!r} in this question.")
            if item in seen:
                raise ValidationError(f"Picture {item} is in the order twice: put each of the "
                                      f"{len(setup.start)} pictures in once.")
            seen.add(item)
        if len(seen) != len(setup.start):
            missing = ", ".join(i for i in setup.start if i not in seen)
            raise ValidationError(f"The order leaves out picture(s) {missing}: put each of the "
                                  f"{len(setup.start)} pictures in once.")
        return Parsed(",".join(raw), list(raw))

    def check(self, settings: Mapping[str, Any], value: Any, respondent: Respondent) -> Verdict:
        scored = score(_setup(_key(settings)), value)
        return Verdict(scored.met, scored.shortfall, {"value": scored.value, "p": scored.precision,
                                                       "ap": scored.average_precision, "moves": scored.moves})

    def summarise(self, settings: Mapping[str, Any], rounds: Sequence[RoundAnswers]) -> tuple[OrderSummary, ...]:
        setup = _setup(_key(settings))
        optimum = _optimum(setup)
        edges = bin_edges(optimum.value, 0.0, 1.0)
        summaries = []
        for round_ in rounds:
            count = len(round_.answers)
            if not round_.spread_shown or count < MIN_ANSWERS_SHOWN:
                summaries.append(OrderSummary(round_.number, round_.state, count))
                continue
            orders = [tuple(a.value) for a in round_.answers]
            if not round_.revealed:  # shown live: where the class puts each picture, nothing about the goal
                summaries.append(OrderSummary(round_.number, round_.state, count, setup.start,
                                              heatmap(setup.start, orders)))
                continue
            summaries.append(OrderSummary(
                round_.number, round_.state, count, setup.start, heatmap(setup.start, orders),
                count_into(edges, [_stored(a).value for a in round_.answers], optimum.value), optimum.value,
                sum(1 for a in round_.answers if a.correct), _shortfalls(round_.answers),
                *_best_and_common(setup, round_.answers)))
        return tuple(summaries)

    def solution(self, settings: Mapping[str, Any], respondent: Respondent | None = None) -> OrderSolution:
        setup = _setup(_key(settings))
        order = target_order(setup)
        return OrderSolution(setup.chapter, order, _optimum(setup), _params(setup, order), setup.measure, _why(setup))

    def feedback(self, settings: Mapping[str, Any], answer: StoredAnswer) -> OrderFeedback:
        setup = _setup(_key(settings))
        scored, optimum = _stored(answer), _optimum(setup)
        numbers = _numbers(setup, scored)
        if answer.correct:
            return OrderFeedback(True, f"Goal met: {numbers}.")
        target = _numbers(setup, optimum)
        why = SHORTFALLS.get(answer.mistake or "", "the goal is not met")
        return OrderFeedback(False, f"Not yet: {why}. Your order gives {numbers}; an order that meets the goal "
                                    f"gives {target}.")

    def answer_cell(self, settings: Mapping[str, Any], answer: StoredAnswer) -> str:
        return answer.text

    def right_cell(self, settings: Mapping[str, Any], respondent: Respondent) -> str:
        return ",".join(target_order(_setup(_key(settings))))


ORDER = OrderPictures()


def heatmap(items: Sequence[str], orders: Sequence[Sequence[str]]) -> tuple[tuple[int, ...], ...]:
    """``cells[i][r]``: how many of ``orders`` put ``items[i]`` at rank ``r + 1``.

    >>> heatmap("abc", ["abc", "bac", "abc"])
    ((2, 1, 0), (1, 2, 0), (0, 0, 3))
    """
    row_of = {item: i for i, item in enumerate(items)}
    cells = [[0] * len(items) for _ in items]
    for order in orders:
        for rank, item in enumerate(order):
            cells[row_of[item]][rank] += 1
    return tuple(tuple(row) for row in cells)


# --- helpers -------------------------------------------------------------------------------------------------------

def _key(settings: Mapping[str, Any]) -> str:
    return json.dumps({"chapter": settings["chapter"], "params": settings["params"], "goal": settings["goal"]},
                      sort_keys=True)


@lru_cache(maxsize=512)
def _setup(key: str) -> Setup:
    """The setup of stored settings (pure, so cached: a projector polls every second)."""
    settings = json.loads(key)
    chapter = chapter_of(settings["chapter"])
    state = strict_state(settings["params"])
    mode = state.effective_mode(chapter)
    # NDCG reads grades; the binary goals read the chapter's relevance (level in graded mode)
    setup = Setup(chapter, state, GOALS[settings["goal"]], tuple(state.order), state.effective_k(chapter), mode,
                  state.judgments(mode), state.effective_level(chapter))
    relevant = [i for i in setup.start if setup.judgments.grade(i) >= setup.level]
    return replace(setup, best=optimum(setup)) if relevant else setup


def _params(setup: Setup, order: Sequence[str]) -> dict[str, str]:
    """The walkthrough parameters of the setup's state with ``order`` as its ranking."""
    return params_from_state(replace(setup.state, order=tuple(order)), setup.chapter)


def _stored(answer: StoredAnswer) -> Scored:
    detail = answer.detail or {}
    return Scored(float(detail.get("value", 0.0)), bool(answer.correct), answer.mistake, float(detail.get("p", 0.0)),
                  float(detail.get("ap", 0.0)), int(detail.get("moves", 0)))


def _shortfalls(answers: Sequence[StoredAnswer]) -> tuple[MistakeCount, ...]:
    counted = Counter(a.mistake for a in answers if a.mistake and not a.correct)
    return tuple(MistakeCount(name, SHORTFALLS.get(name, name), n)
                 for name, n in sorted(counted.items(), key=lambda item: (-item[1], item[0])))


def _best_and_common(setup: Setup, answers: Sequence[StoredAnswer]) -> tuple[OrderCount, OrderCount]:
    """The class's best order (by the goal; ties: the more common, then the first in text order) and its most
    common order (ties: the better, then the first in text order)."""
    counts = Counter(tuple(a.value) for a in answers)
    scored = {tuple(a.value): _stored(a) for a in answers}
    goal = setup.goal.name

    def made(order: tuple[str, ...]) -> OrderCount:
        return OrderCount(order, counts[order], scored[order], _params(setup, order))

    best = max(sorted(counts), key=lambda o: (scored[o].rank_key(goal), counts[o]))
    common = max(sorted(counts), key=lambda o: (counts[o], scored[o].rank_key(goal)))
    return made(best), made(common)


def _numbers(setup: Setup, scored: Scored) -> str:
    """An order's numbers for the goal, in words (``NDCG@3 = 0.87``)."""
    if setup.goal.name == BEST_NDCG:
        return f"{setup.measure} = {format_number(scored.value, 4)}"
    if setup.goal.name == P_HIGH_AP_LOW:
        return (f"P@{setup.k} = {format_number(scored.precision, 4)} and AP = "
                f"{format_number(scored.average_precision, 4)}")
    return f"MRR = {format_number(scored.value, 4)} after {scored.moves} move{'' if scored.moves == 1 else 's'}"


def _relevance_words(setup: Setup) -> str:
    if setup.mode == "graded" and setup.goal.name != BEST_NDCG:
        return f" (a picture counts as relevant from grade {setup.level})"
    return ""


def _prompt(setup: Setup) -> str:
    query = SCENARIO.query(MODE_QUERY[setup.mode]).text
    how = {BEST_NDCG: f"so that {setup.measure} is as high as it can be",
           P_HIGH_AP_LOW: f"so that P@{setup.k} is as high as it can be while AP is as low as it can be",
           RR_FEWEST_MOVES: "so that MRR is 1, moving as few pictures as you can"}[setup.goal.name]
    return f"Drag the pictures for \u201c{query}\u201d into an order {how}{_relevance_words(setup)}; then send it."


def _why(setup: Setup) -> str:
    if setup.goal.name == BEST_NDCG:
        return ("NDCG@K is highest when the grades fall from the top: sort the pictures by grade, highest first "
                "(pictures with the same grade may swap).")
    if setup.goal.name == P_HIGH_AP_LOW:
        return (f"P@{setup.k} counts only the relevant pictures in the top {setup.k}; AP averages the precision at "
                "every relevant picture's rank, so the relevant pictures that do not fit in the top K pull AP down "
                "most at the very bottom.")
    return ("MRR (here one query: its reciprocal rank) is 1 when the first picture is relevant: one move, taking a "
            "relevant picture to the top, is enough; every other move changes nothing MRR sees.")
