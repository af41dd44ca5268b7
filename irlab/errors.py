"""The one error type IR Lab raises for bad input.

Every loader and validator raises :class:`ValidationError` with a message that names the
problem in words a student or lecturer understands ("item '9' is not in the scenario"),
so the app can show the message as is and never a traceback.
"""

from __future__ import annotations


class ValidationError(ValueError):
    """Input that IR Lab cannot use, with a message that says why.

    ``path`` names where the problem is (a field such as ``queries[1].judgments``, or a
    line such as ``line 12``) when the input has structure; it is also part of the message.

    >>> str(ValidationError("grade must be a whole number, got 1.5", path="judgments['3']"))
    "judgments['3']: grade must be a whole number, got 1.5"
    """

    def __init__(self, message: str, *, path: str | None = None) -> None:
        self.message = message
        self.path = path
        super().__init__(f"{path}: {message}" if path else message)
