"""Exercises as link text: compact JSON, compressed with zlib, encoded as base64url.

A link token is ``ex1.`` followed by the base64url text (no padding); ``1`` is the token
format, so a later format can be told apart. Tokens longer than :data:`MAX_LINK_CHARS` are
refused in both directions (a URL that long is unreliable; share the JSON file instead), and
decoding never inflates more than an exercise file may hold, so a crafted link cannot
exhaust memory. A damaged link raises :class:`irlab.errors.ValidationError`.

``exercise_from_link`` also accepts a whole URL holding ``exercise=TOKEN``.

>>> from irlab.exercises.format.examples import builtin_exercise
>>> ex = builtin_exercise("ndcg-exercise")
>>> link = exercise_to_link(ex)
>>> link.startswith("ex1."), exercise_from_link(link) == ex, exercise_from_link(f"https://x.org/?exercise={link}") == ex
(True, True, True)
>>> exercise_from_link("ex1.AAAA")
Traceback (most recent call last):
...
irlab.errors.ValidationError: this exercise link is damaged (it does not decompress); copy the whole link again
"""

from __future__ import annotations

import base64
import binascii
import re
import zlib
from urllib.parse import unquote

from irlab.errors import ValidationError
from irlab.exercises.format.exercise_file import MAX_FILE_BYTES, compact_json, parse_exercise
from irlab.exercises.model import Exercise

MAX_LINK_CHARS = 6000
"""The longest link token written or read (6 KB of text)."""

PREFIX = "ex1."
_TOKEN = re.compile(r"^[A-Za-z0-9_-]*$")
_PARAMETER = re.compile(r"[?&#]exercise=([^&#\s]*)")


def exercise_to_link(exercise: Exercise) -> str:
    """The link token of ``exercise``; ValidationError when it is longer than :data:`MAX_LINK_CHARS`."""
    packed = zlib.compress(compact_json(exercise).encode("utf-8"), 9)
    token = PREFIX + base64.urlsafe_b64encode(packed).decode("ascii").rstrip("=")
    if len(token) > MAX_LINK_CHARS:
        raise ValidationError(f"the exercise is too large for a link: {len(token)} characters encoded, the limit "
                              f"is {MAX_LINK_CHARS}; share the exercise file instead")
    return token


def exercise_from_link(text: str) -> Exercise:
    """The exercise in a link token (or a URL with ``exercise=TOKEN``), validated like a file."""
    if not isinstance(text, str):
        raise ValidationError(f"an exercise link must be text, got {type(text).__name__}")
    text = text.strip()
    if (found := _PARAMETER.search(text)) is not None:
        text = unquote(found.group(1))
    if len(text) > MAX_LINK_CHARS + len(PREFIX):
        raise ValidationError(f"this exercise link is too long ({len(text)} characters; at most {MAX_LINK_CHARS})")
    if not text.startswith(PREFIX):
        raise ValidationError(f"this is not an exercise link: it should start with {PREFIX!r}")
    body = text[len(PREFIX):]
    if not body:
        raise ValidationError(f"this exercise link is empty after {PREFIX!r}; copy the whole link again")
    if not _TOKEN.match(body):
        raise ValidationError("this exercise link is damaged (it holds characters a link never has); "
                              "copy the whole link again")
    try:
        packed = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
    except (binascii.Error, ValueError):
        raise ValidationError("this exercise link is damaged (it is cut short); copy the whole link again") from None
    inflater = zlib.decompressobj()
    try:
        raw = inflater.decompress(packed, MAX_FILE_BYTES + 1)
    except zlib.error:
        raise ValidationError("this exercise link is damaged (it does not decompress); copy the whole link again") \
            from None
    if len(raw) > MAX_FILE_BYTES:
        raise ValidationError("this exercise link holds more than an exercise file may hold")
    if not inflater.eof:
        raise ValidationError("this exercise link is damaged (it is cut short); copy the whole link again")
    try:
        return parse_exercise(raw)
    except ValidationError as error:
        raise ValidationError(f"this exercise link holds an invalid exercise: {error}") from None
