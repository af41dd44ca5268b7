"""A student's nickname: plain text, one short line, nothing that can disturb the projector.

:func:`clean_nickname` keeps letters, digits, punctuation, symbols and single spaces, and drops
what a screen would not show as text or what would rearrange or flood it:

* control, format and private-use characters, unassigned code points and surrogates (Unicode
  categories Cc, Cf, Co, Cn, Cs): this removes bidirectional overrides (U+202E turns the rest of a
  line around), zero-width characters and escape sequences;
* line and paragraph separators, and runs of white space, which become one space;
* more than :data:`MAX_MARKS` combining marks on one character ("Zalgo" text that spills over the
  lines above and below).

The result is at most :data:`MAX_LENGTH` characters (cut, not refused: a long name is not an
error), and ``None`` when nothing is left (the student stays anonymous). Markup is not removed:
``<b>Ann</b>`` stays those characters, and every view shows a nickname as text, never as HTML
or Markdown.

>>> clean_nickname("  Ann\\u202e\\u200b  Lee\\n ")
'Ann Lee'
>>> clean_nickname("<script>alert(1)</script>")
'<script>alert(1)</script>'
>>> clean_nickname("\\x1b[2J"), clean_nickname("   ")
('[2J', None)
"""

from __future__ import annotations

import unicodedata

MAX_LENGTH = 40
MAX_MARKS = 2
"""Combining marks kept on one base character (enough for every script's accents)."""
MAX_INPUT = 4_000
"""Characters of input looked at (the rest is dropped before cleaning, so cleaning costs little)."""

_DROPPED = {"Cc", "Cf", "Co", "Cn", "Cs"}
_SPACE = {"Zs", "Zl", "Zp"}


def clean_nickname(text: object) -> str | None:
    """``text`` as a safe nickname, or None for anonymous (also for anything that is not text)."""
    if not isinstance(text, str):
        return None
    kept: list[str] = []
    marks = 0
    for char in unicodedata.normalize("NFC", text[:MAX_INPUT]):
        category = unicodedata.category(char)
        if category in _DROPPED and char not in "\t\n\r":
            continue
        if category in _SPACE or char in "\t\n\r":
            if kept and kept[-1] != " ":
                kept.append(" ")
            marks = 0
            continue
        if category.startswith("M"):
            if not kept or kept[-1] == " " or marks >= MAX_MARKS:
                continue
            marks += 1
        else:
            marks = 0
        kept.append(char)
    name = "".join(kept).strip()[:MAX_LENGTH].strip()
    return name or None
