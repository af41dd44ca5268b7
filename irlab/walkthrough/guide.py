""""Try this": each chapter's experiments, worded for the state on screen, their numbers computed by irlab.

:func:`steps` gives two to four :class:`Step` per chapter, as the chapter declares them (``Chapter.steps``, in its
module under :mod:`irlab.walkthrough.chapters`); this module holds what they share: the step, the grammar
of their sentences and the moves they describe. A step has a goal (K = 8, a relevant picture at
rank 1, NDCG = 1, ...) that ``reached`` checks on the current state; while it is not reached, its text says
one concrete move that reaches it from the current state, and ``move`` is the state after that move.
No goal holds in a chapter's own example; the page ticks a step off once the learner reached it by a move
made in the chapter (:class:`Progress`), so nothing done in another chapter ticks a step here.

The numbers of a sentence are the views' numbers (:mod:`irlab.walkthrough.views`) for the state now and
for ``move``, so a sentence never promises a value the move does not give. They follow one grammar,
which tests/walkthrough/test_guide.py parses and checks against the views:

* ``<measure> goes from <now> to <after the move>`` (after the first, ``<measure> from <now> to <after>``);
* ``<measure> stays <now and after>``;
* ``<measure> is <now> now`` and ``<measure> = <now>`` for the state on screen.

A measure is a headline label (``Recall@2``, ``TP``, ``MRR``), one query's (``AP@8 of “dark cat”``),
or a bare name (``Recall``) when the move changes K, so a sentence names only the K on screen.

>>> from irlab.walkthrough.chapters import chapter
>>> from irlab.walkthrough.state import DEFAULT_STATE
>>> import textwrap
>>> print(textwrap.fill(try_this(DEFAULT_STATE, chapter("ndcg")), 100))
Swap the first two tiles: CG@2 stays 4, but DCG@2 goes from 2.5237 to 4 and NDCG@2 from 0.3869 to
0.6131, because the grade-4 picture at rank 2 is no longer discounted.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace

from irlab.data.judgments import Judgments
from irlab.explain.formula import format_number
from irlab.scenarios.cats_in_boxes import WHITE_CAT_IN_A_BOX
from irlab.walkthrough.chapter import Chapter
from irlab.walkthrough.state import MODE_QUERY, SCENARIO, WalkthroughState
from irlab.walkthrough.views import Headline

N = len(SCENARIO.items)
EXACT = 1e-12
"""How close two values must be to count as equal (a goal such as NDCG = 1 is computed, not typed)."""


@dataclass(frozen=True)
class Step:
    """One experiment of a chapter.

    ``key`` names its goal, ``text`` says it for the current state, ``reached`` tells whether the current
    state reaches the goal, and ``move`` is the state after doing what ``text`` says (None once reached:
    the text then describes the state on screen). ``by`` names the fields of the state a move must change to do
    the step (``("order",)``: "Press Ideal order" is done by reordering, not by a grade edit that makes the order
    ideal); empty, any move does it.
    """

    key: str
    text: str
    reached: bool
    move: WalkthroughState | None = None
    by: tuple[str, ...] = ()


# --- wording ---------------------------------------------------------------------------------------------

def shown(value: float) -> str:
    return format_number(value)


def listed(parts: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def changes(*moves: tuple[str, float, float]) -> str:
    """Each (measure, now, after the move) as "stays" or "goes from ... to ...", in the guide's grammar.

    >>> changes(("CG@2", 4, 4), ("DCG@2", 2.5237, 4), ("NDCG@2", 0.3869, 0.6131))
    'CG@2 stays 4, but DCG@2 goes from 2.5237 to 4 and NDCG@2 from 0.3869 to 0.6131'
    >>> changes(("IDCG@2", 6.5237, 6.5237), ("NDCG@2", 0.3869, 1))
    'IDCG@2 stays 6.5237, but NDCG@2 goes from 0.3869 to 1'
    """
    parts, moved, stayed = [], False, False
    for label, now, after in moves:
        if shown(now) == shown(after):
            parts.append(f"{label} stays {shown(now)}")
            stayed = True
        elif not moved:
            parts.append(f"{'but ' if stayed else ''}{label} goes from {shown(now)} to {shown(after)}")
            moved = True
        else:
            parts.append(f"{label} from {shown(now)} to {shown(after)}")
    return listed(parts).replace(" and but ", ", but ")


def headline_value(view: object, label: str) -> float:
    """The headline number called ``label`` in ``view``."""
    headline: tuple[Headline, ...] = view.headline  # type: ignore[attr-defined]
    return next(item.value for item in headline if item.label == label)


def pictures(items: Sequence[str]) -> str:
    return ("pictures " if len(items) > 1 else "picture ") + listed(list(items))


def quoted(text: str) -> str:
    return f"\u201c{text}\u201d"


# --- moves -------------------------------------------------------------------------------------------------

def move_to_top(order: Sequence[str], item: str) -> tuple[str, ...]:
    return (item, *[i for i in order if i != item])


def swap_items(order: Sequence[str], a: str, b: str) -> tuple[str, ...]:
    return tuple(b if i == a else a if i == b else i for i in order)


def with_order(state: WalkthroughState, query_id: str, order: tuple[str, ...]) -> WalkthroughState:
    """``state`` with ``query_id`` ranked ``order`` (the first binary query shares the main order)."""
    if query_id == MODE_QUERY["binary"]:
        return replace(state, order=order)
    return replace(state, query_orders={**state.query_orders, query_id: order})


def with_grade(state: WalkthroughState, item: str, grade: int) -> WalkthroughState:
    """``state`` with picture ``item`` graded ``grade`` (grades equal to the judged ones are no edit: None)."""
    rubric = SCENARIO.query(WHITE_CAT_IN_A_BOX).judgments
    grades = {**dict(state.graded_judgments()), item: grade}
    return replace(state, grades=None if grades == dict(rubric) else grades)


def is_relevant(judgments: Judgments, level: int = 1) -> Callable[[str], bool]:
    return lambda item: judgments.grade(item) >= level


def first_where(order: Sequence[str], wanted: Callable[[str], bool]) -> tuple[int, str] | None:
    """The rank and id of the first picture of ``order`` that is ``wanted``, or None."""
    return next(((rank, item) for rank, item in enumerate(order, start=1) if wanted(item)), None)


def query_facts(query_id: str) -> tuple[str, tuple[str, ...], Callable[[str], bool]]:
    """A query's text, its sources' ranking, and whether a picture is relevant to it."""
    query = SCENARIO.query(query_id)
    return query.text, query.default_ranking, is_relevant(query.judgments)


def top_title(state: WalkthroughState) -> str:
    return SCENARIO.item(state.order[0]).title


def give_top_grade(state: WalkthroughState, grade: int) -> str:
    return (f"give the picture at rank 1 ({top_title(state)}) grade {grade} (click its grade, or type {grade} "
            "on its tile)")


@dataclass(frozen=True)
class Progress:
    """Which of a chapter's steps the learner did in it: a step is done when a state shown in the chapter reaches it
    after another state shown in the chapter did not (the learner's move reached it there). A step reached already
    when the learner came to the chapter (K = 8 from chapter 1) is not done: nothing was done for it here.

    ``done``: the steps done (they stay ticked); ``open``: the steps a state shown since the learner came to the
    chapter did not reach (reaching one of them is doing it).

    >>> k_all = [Step("k-all", "...", True)]
    >>> Progress().entered().seen(k_all).ticks(k_all)  # K = 8 when the chapter opened: not done here
    [False]
    >>> progress = Progress().entered().seen([Step("k-all", "...", False)])  # K = 2 on screen
    >>> progress.ticks(k_all), progress.seen(k_all).done  # a K of 8 drawn from here ticks, and is done once shown
    ([True], frozenset({'k-all'}))
    """

    done: frozenset[str] = frozenset()
    open: frozenset[str] = frozenset()

    def entered(self) -> Progress:
        """The learner came to the chapter (from another one): what they did here before stays done."""
        return Progress(self.done, frozenset())

    def seen(self, shown: Sequence[Step], changed: Collection[str] | None = None) -> Progress:
        """After the state whose steps are ``shown`` is shown; ``changed``: the state's fields the move to it changed
        (None: not known, any)."""
        done = {step.key for step, tick in zip(shown, self.ticks(shown, changed)) if tick}
        return Progress(self.done | done, self.open | {step.key for step in shown if not step.reached})

    def ticks(self, shown: Sequence[Step], changed: Collection[str] | None = None) -> list[bool]:
        """Which of ``shown`` (a state's steps) are ticked: done, or reached where they were open by a move that
        changed what the step asks to change (``changed``, see :meth:`seen`)."""
        return [step.key in self.done or (step.reached and step.key in self.open and
                                          (not step.by or changed is None or bool(set(step.by) & set(changed))))
                for step in shown]


def steps(state: WalkthroughState, chapter: Chapter) -> tuple[Step, ...]:
    """The chapter's experiments for ``state``, each with whether ``state`` reaches its goal and, if not, the
    state after the move its text describes.

    The views they read are the ones the chapter's screen shows (computed once per state, see
    :func:`irlab.walkthrough.views.once_per_state`), plus one per move.

    >>> from irlab.walkthrough.chapters import chapter
    >>> from irlab.walkthrough.state import DEFAULT_STATE
    >>> [(step.key, step.reached) for step in steps(DEFAULT_STATE.with_preset(chapter("recall-precision")),
    ...                                            chapter("recall-precision"))]
    [('order-inside-k', False), ('k-all', False), ('precision-one', False)]
    >>> steps(replace(DEFAULT_STATE, k=8), chapter("recall-precision"))[1].reached
    True
    """
    return tuple(chapter.steps(state, chapter))


def try_this(state: WalkthroughState, chapter: Chapter) -> str:
    """The chapter's first experiment for ``state``: its K, its mode, and the numbers the move will show."""
    return steps(state, chapter)[0].text
