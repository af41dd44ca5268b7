r"""Text as inert Markdown: escaping, and tables built from cells of text.

Streamlit's Markdown understands links, images, HTML-like text, ``$`` LaTeX and directives such
as ``:red[...]`` or ``:material/icon:``. Text we did not write must show as typed, so every ASCII
punctuation character is backslash-escaped, which CommonMark renders as the character itself.
A Markdown table also costs a twentieth of ``st.table`` on the server (no DataFrame, no Arrow),
which matters on pages that redraw on every drag.

>>> escape_markdown("[click](javascript:x) <b>*hi*</b> :red[x] $1")
'\\[click\\]\\(javascript\\:x\\) \\<b\\>\\*hi\\*\\<\\/b\\> \\:red\\[x\\] \\$1'
>>> print(markdown_table(["k", "P@k"], [["1", "0.5"], ["2", "a|b"]]))
| k | P\@k |
|---|---|
| 1 | 0\.5 |
| 2 | a\|b |
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")


def escape_markdown(text: object) -> str:
    """``text`` with every ASCII punctuation character escaped and line breaks turned into spaces."""
    return _PUNCTUATION.sub(r"\\\1", " ".join(str(text).split()))


def markdown_table(headers: Sequence[object], cells: Sequence[Sequence[object]]) -> str:
    """A Markdown table whose every header and cell is escaped text."""
    lines = ["| " + " | ".join(escape_markdown(h) for h in headers) + " |", "|" + "---|" * len(headers)]
    lines.extend("| " + " | ".join(escape_markdown(c) for c in row) + " |" for row in cells)
    return "\n".join(lines)
