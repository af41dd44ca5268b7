r"""Escaping user text (titles, instructions, labels, ids) for every format IR Lab writes.

Exercise text is plain text written by a lecturer or student: it may contain ``<script>``,
HTML, Markdown links or LaTeX. Exports always show it as the same text, never as markup:

* HTML: :func:`html_text` escapes ``& < > " '`` and keeps line breaks;
* Markdown (worksheets and notebook cells): :func:`markdown_text` turns ``& < >`` into HTML
  entities (Markdown passes raw HTML through) and backslash-escapes the punctuation that means
  something in Markdown there (so ``[a](b)``, ``*``, ``#``, ``|``, ``$`` stay literal);
* code: :func:`code_block` fences text with more backticks than it contains.

>>> print(markdown_text("<script>alert(1)</script> [x](y) *a*"))
&lt;script&gt;alert(1)&lt;/script&gt; \[x\](y) \*a\*
>>> print(html_text('<b>"hi"</b>\nthere'))
&lt;b&gt;&quot;hi&quot;&lt;/b&gt;<br>
there
"""

from __future__ import annotations

import html
import re

_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
_ALWAYS = set("\\`*_[]|$~")
"""Characters that start inline Markdown anywhere: emphasis, code, links, table cells, Jupyter's maths."""
_LINE_START = re.compile(r"^\s*(?:[#+=-]|\d+[.)])")
"""A heading, list, rule or setext marker at the start of a line (its last character is escaped)."""
_AUTOLINK = re.compile(r"(?<=\w)@(?=[A-Za-z])|:(?=//)|(?<=www)\.", re.IGNORECASE)
"""The character that makes GitHub Markdown turn text into a link: ``name@host``, ``http://``, ``www.``."""


def markdown_text(text: str, *, line_start: bool = False) -> str:
    r"""``text`` as literal Markdown inline text (one line: line breaks become spaces).

    Escapes ``& < >`` as entities (so no HTML tag can form), ``\ ` * _ [ ] | $ ~`` everywhere,
    what would become an autolink (``http://``, ``www.``, ``name@host``) and, when the text
    starts a line (``line_start``), a heading, list or rule marker. Other punctuation is left
    alone, so the text stays readable as plain Markdown.

    >>> print(markdown_text("R@2 = 0.25, see http://x.org or a@b.org"))
    R@2 = 0.25, see http\://x.org or a\@b.org
    >>> print(markdown_text("1. not a list", line_start=True), markdown_text("# no heading", line_start=True))
    1\. not a list \# no heading
    """
    line = " ".join(str(text).splitlines())
    marked = {match.start() for match in _AUTOLINK.finditer(line)}
    if line_start and (lead := _LINE_START.match(line)) is not None:
        marked.add(lead.end() - 1)
    out = []
    for index, char in enumerate(line):
        if char in _ENTITIES:
            out.append(_ENTITIES[char])
        elif char in _ALWAYS or index in marked:
            out.append("\\" + char)
        else:
            out.append(char)
    return "".join(out)


def code_span(text: str) -> str:
    r"""``text`` (an id, a measure) as a Markdown code span that no character in it can close or escape.

    The fence is one backtick longer than the longest run of backticks in the text (CommonMark),
    padded with a space when the text starts or ends with a backtick. Inside a code span, ``<``
    and ``*`` are literal, so no HTML or emphasis can form.

    >>> print(code_span("q1"), code_span("a`b"), code_span("`x`"), code_span("<img src=x>"))
    `q1` ``a`b`` `` `x` `` `<img src=x>`
    """
    line = " ".join(str(text).splitlines())
    longest = max((len(run) for run in re.findall(r"`+", line)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if line.startswith("`") or line.endswith("`") else ""
    return f"{fence}{pad}{line}{pad}{fence}"


def count_noun(count: int, one: str, many: str | None = None) -> str:
    """``count`` with the noun in the right number.

    >>> count_noun(1, "question"), count_noun(3, "question"), count_noun(1, "query", "queries"), count_noun(0, "item")
    ('1 question', '3 questions', '1 query', '0 items')
    """
    return f"{count} {one if count == 1 else (many or one + 's')}"


def paragraphs(text: str) -> list[list[str]]:
    r"""``text`` split into paragraphs (at blank lines), each a list of its non-empty lines.

    >>> paragraphs("one\ntwo\n\n\nthree")
    [['one', 'two'], ['three']]
    """
    blocks = re.split(r"\n\s*\n", str(text).replace("\r\n", "\n").replace("\r", "\n"))
    return [lines for block in blocks if (lines := [line.strip() for line in block.split("\n") if line.strip()])]


def markdown_paragraphs(text: str) -> str:
    r"""Multi-paragraph plain text as Markdown: every line escaped, line breaks kept (hard breaks).

    >>> markdown_paragraphs("1. not a list\n- nor this\n\nnext").split("\n")
    ['1\\. not a list  ', '\\- nor this', '', 'next']
    """
    return "\n\n".join("  \n".join(markdown_text(line, line_start=True) for line in lines)
                       for lines in paragraphs(text))


def html_text(text: str) -> str:
    """``text`` escaped for HTML, line breaks kept as ``<br>``."""
    return "<br>\n".join(html.escape(line, quote=True) for line in str(text).split("\n"))


def html_paragraphs(text: str) -> str:
    r"""Multi-paragraph plain text as HTML ``<p>`` elements.

    >>> print(html_paragraphs("a <b>\n\nc"))
    <p>a &lt;b&gt;</p>
    <p>c</p>
    """
    return "\n".join("<p>" + "<br>\n".join(html.escape(line, quote=True) for line in lines) + "</p>"
                     for lines in paragraphs(text))


def code_block(text: str, language: str = "") -> str:
    """A fenced Markdown code block whose fence is longer than any backtick run inside.

    >>> print(code_block("x = 1", "python"))
    ```python
    x = 1
    ```
    """
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{language}\n{text}\n{fence}"
