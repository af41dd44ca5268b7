"""The activity kinds a class can run: a small, declared set.

Each kind is one module with one object that has the methods of
:class:`irlab.classroom.activities.base.ActivityKind`, registered in :data:`KINDS` by its stored
name. The store, the roles and the CSV export reach kinds only through :func:`kind`, so adding a
kind (order the pictures, which is it, an exercise) is a module and a line here.

>>> [k.name for k in KINDS.values()], KINDS["choice"].title
(['predict', 'order', 'choice', 'exercise'], 'Which is it')
>>> kind("poll")
Traceback (most recent call last):
...
irlab.errors.ValidationError: unknown activity kind 'poll'; the kinds are: predict, order, choice, exercise
"""

from __future__ import annotations

from irlab.classroom.activities.base import ActivityKind
from irlab.classroom.activities.choice import CHOICE
from irlab.classroom.activities.choice import mistake_title as choice_mistake_title
from irlab.classroom.activities.exercise import EXERCISE
from irlab.classroom.activities.order import ORDER, SHORTFALLS
from irlab.classroom.activities.predict import PREDICT
from irlab.errors import ValidationError
from irlab.exercises.questions.mistakes import MISTAKES

KINDS: dict[str, ActivityKind] = {kind.name: kind for kind in (PREDICT, ORDER, CHOICE, EXERCISE)}
"""Every activity kind by its stored name, in the order a lecturer is offered them."""
_MISTAKE_TITLES = {mistake.name: mistake.title for mistake in MISTAKES}


def mistake_title(name: str) -> str:
    """A stored mistake name in words, whichever kind named it (Practise's named mistakes, an order's shortfalls,
    a wrong choice); the name itself when none knows it.

    >>> mistake_title("discount-jk")
    'original Järvelin–Kekäläinen discount instead of log2(k + 1)'
    >>> mistake_title("rr-not-one"), mistake_title("class-FP"), mistake_title("unknown")
    ('the first picture is not relevant (RR below 1)', 'chose the false positives (FP) instead', 'unknown')
    """
    return _MISTAKE_TITLES.get(name) or SHORTFALLS.get(name) or choice_mistake_title(name)


def kind(name: object) -> ActivityKind:
    """The kind stored as ``name``; ValidationError lists the kinds."""
    if not isinstance(name, str) or name not in KINDS:
        shown = repr(name[:32]) if isinstance(name, str) else "?"
        raise ValidationError(f"unknown activity kind {shown}; the kinds are: {', '.join(KINDS)}")
    return KINDS[name]
