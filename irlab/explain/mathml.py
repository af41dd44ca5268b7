"""Formulas for the browser as MathML: made once per LaTeX string on the server, laid out natively by the browser.

The live region shows every formula with its numbers plugged in, and a move changes some of them.
Chromium lays MathML out natively (no typesetting code runs in the page), which measured half the
browser work of typesetting the same lines with KaTeX (bench/formula_engines.py); screen readers read
MathML as mathematics. :func:`mathml` converts with latex2mathml and caches by LaTeX string, so a line
that many students see costs the server once.

The markup is checked before it leaves the server: it must parse as XML and hold only MathML elements
and presentation attributes (latex2mathml copies ``\\text{...}`` verbatim, so text with ``<`` or ``&``
would otherwise pass through). Anything else becomes the formula's LaTeX source as plain text.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from functools import lru_cache

import latex2mathml.converter

NAMESPACE = "http://www.w3.org/1998/Math/MathML"
ELEMENTS = frozenset({
    "math", "mrow", "mi", "mn", "mo", "mtext", "mspace", "ms", "mfrac", "msqrt", "mroot", "mstyle", "merror",
    "mpadded", "mphantom", "msub", "msup", "msubsup", "munder", "mover", "munderover", "mmultiscripts",
    "mprescripts", "none", "mtable", "mtr", "mtd", "semantics", "annotation"})
"""MathML Core's presentation elements: what Chromium draws."""
ATTRIBUTES = frozenset({
    "display", "mathvariant", "mathsize", "mathcolor", "stretchy", "fence", "form", "accent", "accentunder",
    "separator", "lspace", "rspace", "movablelimits", "largeop", "symmetric", "minsize", "maxsize", "width",
    "height", "depth", "columnalign", "rowalign", "columnspacing", "rowspacing", "columnlines", "rowlines",
    "frame", "linebreak", "linethickness", "displaystyle", "scriptlevel", "encoding"})
"""Presentation attributes only: no event handlers, links or styles."""

ET.register_namespace("", NAMESPACE)


def is_clean(root: ET.Element) -> bool:
    """Whether every element of ``root`` is a MathML presentation element with presentation attributes only."""
    for node in root.iter():
        namespace, _, tag = node.tag.rpartition("}")
        if namespace.lstrip("{") != NAMESPACE or tag not in ELEMENTS:
            return False
        if any(name not in ATTRIBUTES for name in node.attrib):
            return False
    return True


def as_text(latex: str) -> str:
    """The LaTeX source itself as a MathML text run (escaped): what a formula that did not convert shows."""
    text = ET.Element(f"{{{NAMESPACE}}}mtext")
    text.text = latex
    root = ET.Element(f"{{{NAMESPACE}}}math", {"display": "block"})
    root.append(text)
    return ET.tostring(root, encoding="unicode")


_NUMBER_OR_TEXT = re.compile(r"(\\text\{[^{}]*\})|(\d+(?:\.\d+)?)")
"""A number, or a ``\\text{...}`` whose digits are words, not numbers."""
_PLACEHOLDER = "0"
_PLACED = f"<mn>{_PLACEHOLDER}</mn>"
_ARGUMENT_FREE = "cdots|cdot|ldots|times|approx|leq|le|geq|ge|neq|ne|log|ln|quad|qquad|mid|to|sum"
_SPLITS_NUMBERS = re.compile(rf"[_^]\s*\d[\d.]|\\(?!(?:{_ARGUMENT_FREE})\b)[A-Za-z]+\s*\d[\d.]")
"""A number right after ``_``, ``^`` or a command that takes arguments (``x_10``, ``\\frac12``): LaTeX takes its first
digit alone, so the number is not one ``<mn>`` and the formula cannot come from its shape (:func:`shape_markup`)."""


@lru_cache(maxsize=2048)
def shape_markup(shape: str, count: int) -> tuple[str, ...] | None:
    """The MathML of a formula's shape (its LaTeX with each number replaced by one placeholder digit), cut at the
    placeholders' ``<mn>`` elements: ``count`` + 1 pieces, between which a formula of this shape puts its numbers.
    None when the shape does not convert cleanly or its placeholders are not ``count`` separate numbers.

    Why: a chapter's formulas have the numbers plugged in, so nearly every new state and K makes new LaTeX, but few
    new shapes (one term more, a fraction fewer). The converter is the costly part (about 1.4 ms a line); a shape
    is converted once and its numbers put in place after.

    >>> shape_markup(r"\\frac{0}{0}", 2)[1]
    '</mrow><mrow>'
    """
    markup = _converted(shape)
    if markup is None:
        return None
    pieces = tuple(markup.split(_PLACED))
    return pieces if len(pieces) == count + 1 else None


def _converted(latex: str) -> str | None:
    try:
        markup = latex2mathml.converter.convert(latex, display="block")
        root = ET.fromstring(markup)
    except Exception:  # noqa: BLE001 - any failure of the converter or the parser: show the source
        return None
    return markup if is_clean(root) else None


@lru_cache(maxsize=8192)
def mathml(latex: str) -> str:
    """``latex`` as a block of MathML (checked; cached by the LaTeX string).

    The same markup as converting ``latex`` itself, made from its shape where it can (:func:`shape_markup`):
    tests/explain/test_mathml.py compares the two for every formula of every chapter.

    Every block opens with the same ``<math>`` tag, left out below:

    >>> block = '<math xmlns="http://www.w3.org/1998/Math/MathML" display="block">'
    >>> mathml(r"\\frac{1}{2}").removeprefix(block)
    '<mrow><mfrac><mrow><mn>1</mn></mrow><mrow><mn>2</mn></mrow></mfrac></mrow></math>'
    >>> mathml(r"\\text{<b>x</b>}").removeprefix(block)  # text with markup: not MathML, so the source is shown as text
    '<mtext>\\\\text{&lt;b&gt;x&lt;/b&gt;}</mtext></math>'
    """
    numbers: list[str] = []
    if not _SPLITS_NUMBERS.search(latex):
        def placed(match: re.Match[str]) -> str:
            if match.group(1) is not None:
                return match.group(1)
            numbers.append(match.group(2))
            return _PLACEHOLDER

        pieces = shape_markup(_NUMBER_OR_TEXT.sub(placed, latex), len(numbers))
        if pieces is not None:
            out = [pieces[0]]
            for number, piece in zip(numbers, pieces[1:]):
                out += ["<mn>", number, "</mn>", piece]
            return "".join(out)
    markup = _converted(latex)
    return as_text(latex) if markup is None else markup
