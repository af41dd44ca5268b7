"""The activity kinds a class can run: a small, declared set.

Each kind is one module with one object that has the methods of
:class:`irlab.classroom.activities.base.ActivityKind`, registered in :data:`KINDS` by its stored
name. The store, the roles and the CSV export reach kinds only through :func:`kind`, so adding a
kind (order the pictures, which is it, an exercise) is a module and a line here.

>>> [(k.name, k.title) for k in KINDS.values()]
[('predict', 'Predict a number')]
>>> kind("poll")
Traceback (most recent call last):
...
irlab.errors.ValidationError: unknown activity kind 'poll'; the kinds are: predict
"""

from __future__ import annotations

from irlab.classroom.activities.base import ActivityKind
from irlab.classroom.activities.predict import PREDICT
from irlab.errors import ValidationError

KINDS: dict[str, ActivityKind] = {kind.name: kind for kind in (PREDICT,)}
"""Every activity kind by its stored name, in the order a lecturer is offered them."""


def kind(name: object) -> ActivityKind:
    """The kind stored as ``name``; ValidationError lists the kinds."""
    if not isinstance(name, str) or name not in KINDS:
        shown = repr(name[:32]) if isinstance(name, str) else "?"
        raise ValidationError(f"unknown activity kind {shown}; the kinds are: {', '.join(KINDS)}")
    return KINDS[name]
