r"""Names and messages from submissions, made safe to print on a terminal and to write into files.

A file name, a student id or an exception message comes from a student: it may hold terminal
escape sequences (``ESC [2J`` clears the lecturer's screen), other control characters, or
bidirectional overrides that make text read differently from what it is (``U+202E``). Before
any of it is printed (the progress line) or written (gradebook, summary, feedback files),
:func:`printable` removes every control, format and separator character (Unicode categories
``Cc``, ``Cf``, ``Zl``, ``Zp``, and the surrogates that stand for undecodable bytes in file
names): tabs and line breaks become spaces, the rest goes.

>>> printable("ann\x1b[2J.ipynb")
'ann[2J.ipynb'
>>> printable("evil\u202egnp.exe"), printable("two\nlines\ttab")
('evilgnp.exe', 'two lines tab')
"""

from __future__ import annotations

import unicodedata

_REMOVED = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})
_SPACES = frozenset("\t\n\r\x0b\x0c\x85\u2028\u2029")


def printable(text: object, limit: int = 300) -> str:
    """``text`` without control, format (bidi, zero-width) and line-separator characters, at most ``limit`` long."""
    out = []
    for char in str(text):
        if char in _SPACES:
            out.append(" ")
        elif unicodedata.category(char) not in _REMOVED:
            out.append(char)
    cleaned = "".join(out)
    return cleaned if len(cleaned) <= limit else cleaned[:limit - 1] + "…"
