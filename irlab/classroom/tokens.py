"""Join codes, lecturer keys and student tokens: how they look, how they are made, how they are checked.

* A **join code** is 6 characters from :data:`CODE_ALPHABET`: the 24 capital letters without I and O,
  and the digits 2-9 (no 0, O, 1 or I, which are read and typed wrongly). 32 symbols, so 32^6 (about
  a billion) codes: guessing one of a few live classes takes hundreds of millions of tries, and
  joining is rate-limited (:mod:`irlab.classroom.ratelimit`). Students may type it in lower case,
  with spaces or a dash (``abc-def``).
* A **lecturer key** is 32 random bytes as base64url (43 characters): a capability, whoever has it
  runs the class. The store keeps only its SHA-256 and compares hashes in constant time
  (:func:`hmac.compare_digest`).
* A **student token** is 16 random bytes as base64url (22 characters), the student's identity,
  kept in their link; the store keeps only its SHA-256.

All randomness comes from :mod:`secrets`.

>>> normalise_code(" abc-def ") == "ABCDEF", len(new_code()), set(new_code()) <= set(CODE_ALPHABET)
(True, 6, True)
>>> key = new_lecturer_key()
>>> key_matches(key, digest(key)), key_matches(key + "x", digest(key))
(True, False)
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

from irlab.errors import ValidationError

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""The join code's symbols: A-Z without I and O, and 2-9."""
CODE_LENGTH = 6
KEY_BYTES = 32
TOKEN_BYTES = 16
MAX_SECRET_LENGTH = 200
"""Longer text is never a key or token of ours (refused before hashing)."""

_CODE = re.compile(f"^[{CODE_ALPHABET}]{{{CODE_LENGTH}}}$")
_SECRET = re.compile(r"^[A-Za-z0-9_-]+$")
_CODE_HELP = (f"a join code has {CODE_LENGTH} characters: capital letters and the digits 2-9 "
              "(there is no 0, O, 1 or I in a code)")


def new_code() -> str:
    """A random join code (the store makes sure it is unique among live classes)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalise_code(text: object) -> str:
    """A typed join code in its stored form (capitals, no spaces or dashes); ValidationError says what is wrong.

    >>> normalise_code("ab c1ef")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    irlab.errors.ValidationError: a join code has 6 characters: ... (there is no 0, O, 1 or I in a code)
    """
    if not isinstance(text, str) or len(text) > 40:
        raise ValidationError(_CODE_HELP)
    code = re.sub(r"[\s-]", "", text).upper()
    if not _CODE.match(code):
        raise ValidationError(_CODE_HELP)
    return code


def looks_like_code(text: object) -> bool:
    """Whether ``text`` is a join code in stored form (what a link may carry).

    >>> looks_like_code("ABCDEF"), looks_like_code("ABCDE0"), looks_like_code(None)
    (True, False, False)
    """
    return isinstance(text, str) and _CODE.match(text) is not None


def _new_secret(nbytes: int) -> str:
    """``nbytes`` random bytes as base64url text that does not start with ``-``: a command line's ``--token TOKEN``
    would read such a token as an option (1 in 64 of them; the shared task's CLI takes keys and tokens)."""
    while True:
        secret = secrets.token_urlsafe(nbytes)
        if not secret.startswith("-"):
            return secret


def new_lecturer_key() -> str:
    """A new lecturer key (43 characters of base64url, never starting with ``-``)."""
    return _new_secret(KEY_BYTES)


def new_student_token() -> str:
    """A new student token (22 characters of base64url, never starting with ``-``)."""
    return _new_secret(TOKEN_BYTES)


def looks_like_secret(text: object) -> bool:
    """Whether ``text`` could be a key or token of ours: base64url text of a sane length.

    >>> looks_like_secret(new_student_token()), looks_like_secret("a b"), looks_like_secret("x" * 500)
    (True, False, False)
    """
    return isinstance(text, str) and 0 < len(text) <= MAX_SECRET_LENGTH and _SECRET.match(text) is not None


def digest(secret: str) -> str:
    """The SHA-256 of a key or token as hex: what the store keeps. Keys and tokens are random and long, so a
    plain hash suffices (no salt or slow hash: there is no password to guess)."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def key_matches(key: object, stored_digest: str) -> bool:
    """Whether ``key`` is the secret whose digest is ``stored_digest``, compared in constant time."""
    if not looks_like_secret(key):
        return False
    return hmac.compare_digest(digest(key).encode("ascii"), stored_digest.encode("ascii"))
