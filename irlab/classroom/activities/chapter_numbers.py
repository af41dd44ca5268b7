"""The numbers a walkthrough chapter shows, as questions a class can predict.

For a chapter and a learner's state, :func:`chapter_number` gives one number the chapter shows:
its label (``nDCG@3``), the question in words, and its breakdown, computed by the chapter's own
view, so the class predicts exactly the number the chapter then shows. Each chapter declares its
numbers in its module (``Chapter.class_numbers``, the keys, and ``Chapter.class_number``, one number;
see :mod:`irlab.walkthrough.numbers`): for example ``TP`` (a count at K, whole numbers), ``Recall@K``,
``MRR``, ``RR:<query>``, ``AP@K:<query>``, ``nDCG@K``, or ``gain:exponential`` (a convention's
variant). Where the number is an irlab measure, it also comes as a one-question exercise
(:class:`~irlab.exercises.model.Exercise`) over the same rankings and judgments, which is how an
answer is checked and a wrong one matched to a named mistake, exactly as on Practise
(:func:`irlab.exercises.questions.answers.check_answer`); a test keeps the exercise's value equal to the
view's for every chapter, number and state.

``<query>`` is one of the three binary queries (``cat-in-a-box``, ``white-cat``, ``dark-cat``).

>>> from irlab.walkthrough.chapters import chapter
>>> from irlab.walkthrough.state import DEFAULT_STATE
>>> n = chapter_number(DEFAULT_STATE, chapter("ndcg"), "nDCG@K")
>>> n.label, n.breakdown.display_value, n.exercise.questions[0].measure
('NDCG@2', '0.3869', 'nDCG@2')
>>> [key for key, _ in offered(DEFAULT_STATE, chapter("mrr"))]
['MRR', 'MRR@K', 'RR:cat-in-a-box', 'RR:white-cat', 'RR:dark-cat']
"""

from __future__ import annotations

from irlab.errors import ValidationError
from irlab.walkthrough.chapters import Chapter
from irlab.walkthrough.numbers import QUESTION, ChapterNumber
from irlab.walkthrough.state import WalkthroughState

__all__ = ["QUESTION", "ChapterNumber", "chapter_number", "offered"]  # the class's predict activity reads these here


def offered(state: WalkthroughState, chapter: Chapter) -> list[tuple[str, str]]:
    """(key, label) of every number ``chapter`` shows for ``state``, in the chapter's order (for a picker)."""
    return [(key, chapter_number(state, chapter, key).label) for key in chapter.class_numbers]


def chapter_number(state: WalkthroughState, chapter: Chapter, key: str) -> ChapterNumber:
    """The number ``key`` of ``chapter`` for ``state``; ValidationError names the keys when it shows no such number."""
    keys = chapter.class_numbers
    if key not in keys:
        raise ValidationError(f"the chapter {chapter.title!r} shows no number {key!r}; it shows: {', '.join(keys)}")
    return chapter.class_number(state, chapter, key)
