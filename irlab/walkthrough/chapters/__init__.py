"""The walkthrough's chapters, in order: each one module of this package, registered once in :data:`CHAPTERS`.

A chapter module declares everything about its chapter (:class:`~irlab.walkthrough.chapter.Chapter`):
its text, its view, its live region's screen, its "Try this" steps, the numbers a class can predict, its
icon and its controls. Pages, the home page, the sidebar, the URL, the live class and the tests read
this list; nothing else names a chapter.

Each chapter opens in its sources' example state (``default_k``, ``default_mode``) until the learner
changes a shared control; from then on K and the relevance mode follow the learner across chapters.
``preset`` restores the sources' example in one click. Every "Try this" claim is checked against the
metrics in tests/walkthrough/test_guide.py and tests/ui/walkthrough/test_text_follows_state.py.
"""

from __future__ import annotations

from irlab.walkthrough.chapter import Chapter
from irlab.walkthrough.chapters import (
    actual_vs_predicted,
    average_precision,
    conventions,
    mrr,
    ndcg,
    recall_precision,
    user_model,
)

CHAPTERS: tuple[Chapter, ...] = (
    actual_vs_predicted.CHAPTER,
    recall_precision.CHAPTER,
    mrr.CHAPTER,
    average_precision.CHAPTER,
    ndcg.CHAPTER,
    conventions.CHAPTER,
    user_model.CHAPTER,
)
"""The chapters, in order (their numbers are 1, 2, ...)."""

BY_SLUG = {chapter.slug: chapter for chapter in CHAPTERS}


def chapter(slug: str) -> Chapter:
    """The chapter called ``slug``.

    >>> chapter("ndcg").default_mode
    'graded'
    """
    return BY_SLUG[slug]
