"""Why the store refused a request: each a :class:`~irlab.errors.ValidationError` with a one-line message.

A page shows ``str(error)`` as plain text and may tell the kinds apart (a student whose class is
gone sees the join form again; a lecturer with a wrong key sees how to get the right link).
"""

from __future__ import annotations

from irlab.errors import ValidationError


class ClassNotFound(ValidationError):
    """No live class has this code (never started, deleted, or past its retention)."""


class AccessDenied(ValidationError):
    """The lecturer key or the student token does not belong to this class."""


class RateLimited(ValidationError):
    """Too many failed joins from this session or address; ``seconds`` until the next try is allowed."""

    def __init__(self, message: str, seconds: float) -> None:
        super().__init__(message)
        self.seconds = seconds


class NotAccepting(ValidationError):
    """The round asked about is not open for answers (closed, revealed, or the lecturer moved on)."""
