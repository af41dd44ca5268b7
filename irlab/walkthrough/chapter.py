"""What a walkthrough chapter declares: its text, what it computes and shows, its experiments, its class questions.

A chapter is one module in :mod:`irlab.walkthrough.chapters` that ends with one :class:`Chapter`; the
package lists them in order (:data:`irlab.walkthrough.chapters.CHAPTERS`), and everything that shows a
chapter reads that declaration: its page (:mod:`irlab.ui.walkthrough.page`), the home page and the
sidebar (:mod:`irlab.ui.shell.pages`), the URL (:mod:`irlab.walkthrough.urlstate`), the live class
(:mod:`irlab.classroom.activities.chapter_numbers`) and the tests, which run over every chapter.

The functions a chapter declares take the learner's state and the chapter itself:

``view``     what the chapter computes for a state (numbers, breakdowns, curves, tile rows), once per state
``screen``   the live region's blocks (:mod:`irlab.walkthrough.screens`), from the view
``steps``    "Try this" (:mod:`irlab.walkthrough.guide`): two to four experiments, worded for the state
``class_number``  one number the chapter shows, asked as a class question (:mod:`irlab.walkthrough.numbers`),
                  for each key of ``class_numbers``

A :class:`Setting` is a control a chapter adds beside K (the relevance level, the items returned, the
user's patience): one field of the learner's state, with its choices, its words and its URL parameter.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from irlab.errors import ValidationError

MAIN_TILES: Mapping[str, str] = {"tiles-main": "main"}
"""The tile rows of a chapter that ranks the shared order only: the row's key -> what its moves reorder."""


def _always(state: Any, chapter: Chapter) -> bool:
    return True


def _no_note(state: Any, chapter: Chapter) -> str:
    return ""


@dataclass(frozen=True, eq=False)
class Setting:
    """A control a chapter shows beside K; it sets the learner's state field ``name`` (also its URL parameter).

    ``choices`` are the values offered (the link accepts exactly these, written as ``str(value)``);
    ``default`` is the value while the learner has chosen none (the state's field is None). ``applies`` says
    whether the control is offered for a state (the relevance level: graded mode only); ``note`` is a line of
    plain text under the control, or in its place when it does not apply. ``buttons`` draws the choices as a
    row of buttons instead of a slider; ``format`` writes a choice on the control.
    """

    name: str
    label: str
    help: str
    choices: tuple[Any, ...]
    default: Any
    what: str
    """The setting in a notice about a bad link: ``The link's level='9' was ignored: <what> must be ...``."""
    buttons: bool = False
    format: Callable[[Any], str] = str
    applies: Callable[[Any, Chapter], bool] = _always
    note: Callable[[Any, Chapter], str] = _no_note

    def value(self, state: Any) -> Any:
        """The value in effect: the learner's choice, else the default."""
        chosen = getattr(state, self.name)
        return self.default if chosen is None else chosen

    def parse(self, text: str) -> Any:
        """The choice a link's parameter names; ValidationError (worded for a notice) when it names none.

        >>> returned = Setting("returned", "Items returned", "", tuple(range(1, 9)), 8, "the number of returned items")
        >>> returned.parse("3"), returned.parse(" 3 ")
        (3, 3)
        >>> returned.parse("9")
        Traceback (most recent call last):
        ...
        irlab.errors.ValidationError: the number of returned items must be between 1 and 8
        """
        for choice in self.choices:
            if text.strip() == str(choice):
                return choice
        if all(isinstance(choice, int) for choice in self.choices):
            raise ValidationError(f"{self.what} must be between {min(self.choices)} and {max(self.choices)}")
        raise ValidationError(f"{self.what} must be one of {', '.join(map(str, self.choices))}")


@dataclass(frozen=True, eq=False)
class Chapter:
    """One chapter of the walkthrough, declared once (see the module's docstring for the functions).

    Chapters compare and hash by identity: each is declared once, and views are cached per chapter.
    """

    slug: str
    number: int
    title: str
    summary: str
    default_k: int
    default_mode: str
    preset_label: str
    rewards: str
    pros: tuple[str, ...]
    cons: tuple[str, ...]
    icon: str
    """A Material icon for the sidebar and the home page's card (``:material/leaderboard:``)."""
    view: Callable[[Any, Chapter], Any]
    screen: Callable[[Any, Chapter], tuple[Any, ...]]
    steps: Callable[[Any, Chapter], list[Any]]
    class_numbers: tuple[str, ...]
    """The keys of the numbers a class can be asked to predict (``nDCG@K``), in the chapter's order."""
    class_number: Callable[[Any, Chapter, str], Any]
    source_notes: tuple[str, ...] = ()
    uses_k: bool = True
    binary_only: bool = False
    teaches: str = ""  # one line for the home page's card
    tile_rows: Mapping[str, str] = field(default_factory=lambda: dict(MAIN_TILES))
    """The chapter's tile rows: each row's key -> what its moves reorder (``main``: the shared order, or a query)."""
    settings: tuple[Setting, ...] = ()
    """The controls beside K, in order."""
