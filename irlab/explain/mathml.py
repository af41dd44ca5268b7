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


@lru_cache(maxsize=8192)
def mathml(latex: str) -> str:
    """``latex`` as a block of MathML (checked; cached by the LaTeX string).

    Every block opens with the same ``<math>`` tag, left out below:

    >>> block = '<math xmlns="http://www.w3.org/1998/Math/MathML" display="block">'
    >>> mathml(r"\\frac{1}{2}").removeprefix(block)
    '<mrow><mfrac><mrow><mn>1</mn></mrow><mrow><mn>2</mn></mrow></mfrac></mrow></math>'
    >>> mathml(r"\\text{<b>x</b>}").removeprefix(block)  # text with markup: not MathML, so the source is shown as text
    '<mtext>\\\\text{&lt;b&gt;x&lt;/b&gt;}</mtext></math>'
    """
    try:
        markup = latex2mathml.converter.convert(latex, display="block")
        root = ET.fromstring(markup)
    except Exception:  # noqa: BLE001 - any failure of the converter or the parser: show the source
        return as_text(latex)
    return markup if is_clean(root) else as_text(latex)
