"""The learner's state in the walkthrough: what they control, immutable, with its defaults.

The state is what the learner controls: the shared ranking of the eight pictures, K, the
relevance mode, edited grades, the rankings of the two other MRR/MAP queries, how many items
the system returned (Conventions), the relevance level (chapters 1-2), the user's persistence p
(chapter 7), and presentation mode. ``None`` for K or the mode means
"not chosen yet": each chapter then uses its sources' example (:mod:`irlab.walkthrough.chapters`).
A change is a new state; :mod:`irlab.walkthrough.urlstate` turns a state into URL parameters and back.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from irlab.data.judgments import Judgments
from irlab.scenarios.cats_in_boxes import CAT_IN_A_BOX, CATS_IN_BOXES, DARK_CAT, WHITE_CAT, WHITE_CAT_IN_A_BOX
from irlab.walkthrough.chapter import Chapter

SCENARIO = CATS_IN_BOXES
MODES = ("binary", "graded")
MODE_QUERY = {"binary": CAT_IN_A_BOX, "graded": WHITE_CAT_IN_A_BOX}
"""Binary mode ranks for "cat in a box"; graded mode for "white cat in a box" (0-4)."""
OTHER_QUERIES = (WHITE_CAT, DARK_CAT)
"""The MRR/MAP queries with rankings of their own (the first query shares the main ranking)."""
MAIN_TARGET = "main"
"""A tile row whose moves reorder the shared ranking."""


@dataclass(frozen=True)
class WalkthroughState:
    """Everything the learner controls; immutable, so a change is a new state."""

    order: tuple[str, ...] = SCENARIO.query(CAT_IN_A_BOX).default_ranking
    k: int | None = None
    mode: str | None = None
    grades: Mapping[str, int] | None = None
    query_orders: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    returned: int | None = None
    present: bool = False
    level: int | None = None
    persistence: float | None = None

    def effective_k(self, chapter: Chapter) -> int:
        """K as shown in ``chapter``: the learner's, else the chapter's example."""
        return self.k if self.k is not None else chapter.default_k

    def effective_mode(self, chapter: Chapter) -> str:
        """The relevance mode as shown in ``chapter``."""
        return self.mode if self.mode is not None else chapter.default_mode

    def effective_level(self, chapter: Chapter) -> int:
        """The relevance level of binary measures computed from grades: a grade at least this counts as relevant
        (trec_eval's ``-l``). Binary judgments are 0/1, so there it is always 1; the learner sets it in graded mode."""
        if self.effective_mode(chapter) != "graded" or self.level is None:
            return 1
        return self.level

    def query_order(self, query_id: str) -> tuple[str, ...]:
        """The ranking of one of the binary queries (the first one shares the main order)."""
        if query_id == CAT_IN_A_BOX:
            return self.order
        return self.query_orders.get(query_id, SCENARIO.query(query_id).default_ranking)

    def graded_judgments(self) -> Judgments:
        """The grades of "white cat in a box", with the learner's edits."""
        rubric = SCENARIO.query(WHITE_CAT_IN_A_BOX).judgments
        return rubric if self.grades is None else Judgments(self.grades, scale="graded", max_grade=rubric.max_grade)

    def judgments(self, mode: str) -> Judgments:
        """The judgments of the query ranked in ``mode``."""
        return self.graded_judgments() if mode == "graded" else SCENARIO.query(MODE_QUERY[mode]).judgments

    def with_preset(self, chapter: Chapter) -> WalkthroughState:
        """The sources' example of ``chapter``: default rankings and grades, its K and mode."""
        return replace(DEFAULT_STATE, k=chapter.default_k, mode=chapter.default_mode, present=self.present)

    def relevant_items(self, chapter: Chapter) -> tuple[str, ...]:
        """The pictures that count as relevant in ``chapter`` (grade at least the level), in id order."""
        judgments = self.judgments(self.effective_mode(chapter))
        level = self.effective_level(chapter)
        return tuple(item.id for item in SCENARIO.items if judgments.grade(item.id) >= level)


DEFAULT_STATE = WalkthroughState()
