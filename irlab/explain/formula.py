"""Formulas with the numbers plugged in, as small expression trees.

A metric builds the expression it computes (for example ``Frac(Num(1), Add(Num(1), Num(3)))``
for Recall@2) and the same tree renders LaTeX for ``st.latex``, plain text for screen readers
and exports, and its own numeric value, which tests compare with the metric's value. So the
formula a student reads is, by construction, the arithmetic that produced the number.

>>> e = Frac(Num(1), Add(Num(1), Num(3)))
>>> e.latex(), e.text(), e.value()
('\\\\frac{1}{1 + 3}', '1 / (1 + 3)', 0.25)
>>> Frac(Num(4), Log2(Num(3))).latex()
'\\\\frac{4}{\\\\log_2(3)}'
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from numbers import Integral

DIGITS = 4
"""Decimals shown for numbers that are not whole (the golden values are exact to 4)."""

MAX_TERMS = 12
"""Sums with more terms are shown shortened (first terms, ``\\cdots``, last terms)."""

_ADD, _MUL, _POW, _ATOM = 1, 2, 3, 4


def format_number(x: float, digits: int = DIGITS) -> str:
    """``x`` rounded to ``digits`` decimals, without trailing zeros.

    >>> format_number(0.25), format_number(1/3), format_number(1.0), format_number(7), format_number(-0.00001)
    ('0.25', '0.3333', '1', '7', '0')
    """
    if type(x) is float:  # the common case first: Integral's check goes through the ABC machinery
        return _formatted(x, digits)
    if isinstance(x, Integral):
        return str(int(x))
    return _formatted(float(x), digits)


@lru_cache(maxsize=4096)
def _formatted(x: float, digits: int) -> str:
    # cached: a chapter's screens at eight K format the same few hundred numbers thousands of times (a rank's
    # discount, a grade's gain), and a K form or a tile's moves is made for each new state a learner reaches
    rounded = round(x, digits)
    if rounded == 0:
        return "0"
    return f"{rounded:.{digits}f}".rstrip("0").rstrip(".")


def shows_exactly(x: float, digits: int = DIGITS) -> bool:
    """Whether :func:`format_number` shows ``x`` without rounding it.

    >>> shows_exactly(0.25), shows_exactly(1/3), shows_exactly(3)
    (True, False, True)
    """
    if isinstance(x, Integral):
        return True
    return math.isfinite(x) and float(format_number(x, digits)) == float(x)


_LATEX_SPECIALS = {"\\": r"\backslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&", "#": r"\#",
                   "^": r"\^{}", "_": r"\_", "%": r"\%", "~": r"\sim{}"}


def latex_text(text: str) -> str:
    r"""``text`` as a LaTeX ``\text{...}`` with every special character escaped.

    Item ids and labels can come from user-built exercises, so they are never inserted into
    LaTeX as commands.

    >>> latex_text("cat_1 {x}")
    '\\text{cat\\_1 \\{x\\}}'
    """
    escaped = "".join(_LATEX_SPECIALS.get(char, char) for char in str(text))
    return rf"\text{{{escaped}}}"


class Expr:
    """A node of a plugged-in formula."""

    precedence = _ATOM
    text_precedence = _ATOM  # in plain text a fraction is a division, not an atom

    def value(self) -> float:
        """The number this expression evaluates to."""
        raise NotImplementedError

    def latex(self) -> str:
        """LaTeX for ``st.latex`` (KaTeX)."""
        raise NotImplementedError

    def text(self) -> str:
        """Plain text for screen readers and exports."""
        raise NotImplementedError

    @property
    def exact(self) -> bool:
        """Whether every number shown is shown without rounding."""
        return all(child.exact for child in self.children())

    @property
    def shortened(self) -> bool:
        """Whether a long sum is shown shortened (then its text cannot be re-evaluated)."""
        return any(child.shortened for child in self.children())

    def children(self) -> tuple[Expr, ...]:
        return ()

    def _wrap_latex(self, child: Expr, min_precedence: int) -> str:
        return rf"\left({child.latex()}\right)" if child.precedence < min_precedence else child.latex()

    def _wrap_text(self, child: Expr, min_precedence: int) -> str:
        return f"({child.text()})" if child.text_precedence < min_precedence else child.text()


@dataclass(frozen=True)
class Num(Expr):
    """A number; whole numbers print as such, others with up to :data:`DIGITS` decimals."""

    number: float

    def value(self) -> float:
        return self.number

    def latex(self) -> str:
        return format_number(self.number)

    def text(self) -> str:
        return format_number(self.number)

    @property
    def exact(self) -> bool:
        return shows_exactly(self.number)

    @property
    def precedence(self) -> int:  # a negative number needs brackets inside sums and products
        return _ATOM if self.number >= 0 else _ADD

    @property
    def text_precedence(self) -> int:
        return self.precedence


@dataclass(frozen=True)
class Frac(Expr):
    r"""``numerator / denominator``, shown as ``\frac`` (and as ``a / b`` in plain text)."""

    numerator: Expr
    denominator: Expr
    precedence = _ATOM
    text_precedence = _MUL

    def children(self) -> tuple[Expr, ...]:
        return (self.numerator, self.denominator)

    def value(self) -> float:
        return self.numerator.value() / self.denominator.value()

    def latex(self) -> str:
        return rf"\frac{{{self.numerator.latex()}}}{{{self.denominator.latex()}}}"

    def text(self) -> str:
        return f"{self._wrap_text(self.numerator, _MUL + 1)} / {self._wrap_text(self.denominator, _MUL + 1)}"


@dataclass(frozen=True)
class Normalised(Expr):
    r"""``total / count``, shown as :math:`\frac{1}{count} \cdot (total)`.

    AP and the means over queries read best as "one over R times the sum", but trec_eval
    divides the sum by R, and the value must be that division to the last bit.

    >>> e = Normalised(Add(Num(0.5), Num(1)), Num(4))
    >>> e.latex(), e.text(), e.value()
    ('\\frac{1}{4} \\cdot \\left(0.5 + 1\\right)', '1/4 * (0.5 + 1)', 0.375)
    """

    total: Expr
    count: Expr
    precedence = _MUL
    text_precedence = _MUL

    def children(self) -> tuple[Expr, ...]:
        return (self.total, self.count)

    def value(self) -> float:
        return self.total.value() / self.count.value()

    def latex(self) -> str:
        return rf"\frac{{1}}{{{self.count.latex()}}} \cdot {self._wrap_latex(self.total, _MUL + 1)}"

    def text(self) -> str:
        return f"1/{self._wrap_text(self.count, _ATOM)} * {self._wrap_text(self.total, _MUL + 1)}"


@dataclass(frozen=True)
class Add(Expr):
    """A sum of terms, shortened on screen beyond :data:`MAX_TERMS` terms."""

    terms: tuple[Expr, ...]
    precedence = _ADD
    text_precedence = _ADD

    def __init__(self, *terms: Expr | Iterable[Expr]) -> None:
        flat: list[Expr] = []
        for term in terms:
            flat.extend(term if not isinstance(term, Expr) else (term,))
        object.__setattr__(self, "terms", tuple(flat))

    def children(self) -> tuple[Expr, ...]:
        return self.terms

    def value(self) -> float:
        # Left to right, one addition at a time: the order trec_eval adds in, so a breakdown's
        # value is bit for bit the value the batch engine computes (math.fsum can differ in the
        # last bit, and a last bit can change a 4-decimal rounding).
        total = 0.0
        for term in self.terms:
            total += term.value()
        return total

    @property
    def shortened(self) -> bool:
        return len(self.terms) > MAX_TERMS or super().shortened

    def _shown(self) -> Sequence[Expr | None]:
        if len(self.terms) > MAX_TERMS:
            return [*self.terms[:5], None, *self.terms[-2:]]
        return self.terms

    def latex(self) -> str:
        if not self.terms:
            return "0"
        return " + ".join(r"\cdots" if t is None else self._wrap_latex(t, _ADD + 1) for t in self._shown())

    def text(self) -> str:
        if not self.terms:
            return "0"
        return " + ".join("..." if t is None else self._wrap_text(t, _ADD + 1) for t in self._shown())


@dataclass(frozen=True)
class Sub(Expr):
    """``left - right``."""

    left: Expr
    right: Expr
    precedence = _ADD
    text_precedence = _ADD

    def children(self) -> tuple[Expr, ...]:
        return (self.left, self.right)

    def value(self) -> float:
        return self.left.value() - self.right.value()

    def latex(self) -> str:
        return f"{self._wrap_latex(self.left, _ADD)} - {self._wrap_latex(self.right, _ADD + 1)}"

    def text(self) -> str:
        return f"{self._wrap_text(self.left, _ADD)} - {self._wrap_text(self.right, _ADD + 1)}"


@dataclass(frozen=True)
class Mul(Expr):
    r"""A product, shown with ``\cdot``."""

    factors: tuple[Expr, ...]
    precedence = _MUL
    text_precedence = _MUL

    def __init__(self, *factors: Expr) -> None:
        object.__setattr__(self, "factors", tuple(factors))

    def children(self) -> tuple[Expr, ...]:
        return self.factors

    def value(self) -> float:
        return math.prod(factor.value() for factor in self.factors)

    def latex(self) -> str:
        return r" \cdot ".join(self._wrap_latex(f, _MUL) for f in self.factors)

    def text(self) -> str:
        return " * ".join(self._wrap_text(f, _MUL + 1) for f in self.factors)


@dataclass(frozen=True)
class Pow(Expr):
    """``base ** exponent``, shown as a superscript."""

    base: Expr
    exponent: Expr
    precedence = _POW
    text_precedence = _POW

    def children(self) -> tuple[Expr, ...]:
        return (self.base, self.exponent)

    def value(self) -> float:
        return self.base.value() ** self.exponent.value()

    def latex(self) -> str:
        return f"{self._wrap_latex(self.base, _ATOM)}^{{{self.exponent.latex()}}}"

    def text(self) -> str:
        return f"{self._wrap_text(self.base, _ATOM)}^{self._wrap_text(self.exponent, _ATOM)}"


@dataclass(frozen=True)
class Log2(Expr):
    r"""The base-2 logarithm, shown as ``\log_2(x)``."""

    argument: Expr

    def children(self) -> tuple[Expr, ...]:
        return (self.argument,)

    def value(self) -> float:
        return math.log2(self.argument.value())

    def latex(self) -> str:
        return rf"\log_2({self.argument.latex()})"

    def text(self) -> str:
        return f"log2({self.argument.text()})"


@dataclass(frozen=True)
class Ln(Expr):
    r"""The natural logarithm, shown as ``\ln(x)`` (C's ``log``, as trec_eval's ``yaap`` takes it).

    >>> e = Ln(Frac(Num(3), Num(2)))
    >>> e.latex(), e.text(), round(e.value(), 4)
    ('\\ln\\left(\\frac{3}{2}\\right)', 'ln(3 / 2)', 0.4055)
    """

    argument: Expr

    def children(self) -> tuple[Expr, ...]:
        return (self.argument,)

    def value(self) -> float:
        return math.log(self.argument.value())

    def latex(self) -> str:
        return rf"\ln\left({self.argument.latex()}\right)"

    def text(self) -> str:
        return f"ln({self.argument.text()})"


@dataclass(frozen=True)
class Min(Expr):
    r"""The smallest of its arguments, shown as ``\min(a, b)``."""

    arguments: tuple[Expr, ...]

    def __init__(self, *arguments: Expr) -> None:
        object.__setattr__(self, "arguments", tuple(arguments))

    def children(self) -> tuple[Expr, ...]:
        return self.arguments

    def value(self) -> float:
        return float(min(argument.value() for argument in self.arguments))

    def latex(self) -> str:
        return r"\min(" + ", ".join(a.latex() for a in self.arguments) + ")"

    def text(self) -> str:
        return "min(" + ", ".join(a.text() for a in self.arguments) + ")"


@dataclass(frozen=True)
class Max(Expr):
    r"""The largest of its arguments, shown as ``\max(a, b, ...)``, shortened like a long sum.

    >>> Max(Frac(Num(1), Num(2)), Frac(Num(2), Num(3))).latex(), Max(Num(1), Num(3)).value()
    ('\\max\\left(\\frac{1}{2}, \\frac{2}{3}\\right)', 3.0)
    """

    arguments: tuple[Expr, ...]

    def __init__(self, *arguments: Expr | Iterable[Expr]) -> None:
        flat: list[Expr] = []
        for argument in arguments:
            flat.extend(argument if not isinstance(argument, Expr) else (argument,))
        object.__setattr__(self, "arguments", tuple(flat))

    def children(self) -> tuple[Expr, ...]:
        return self.arguments

    def value(self) -> float:
        return float(max(argument.value() for argument in self.arguments))

    @property
    def shortened(self) -> bool:
        return len(self.arguments) > MAX_TERMS or super().shortened

    def _shown(self) -> Sequence[Expr | None]:
        if len(self.arguments) > MAX_TERMS:
            return [*self.arguments[:5], None, *self.arguments[-2:]]
        return self.arguments

    def latex(self) -> str:
        inner = ", ".join(r"\ldots" if a is None else a.latex() for a in self._shown())
        return rf"\max\left({inner}\right)"

    def text(self) -> str:
        return "max(" + ", ".join("..." if a is None else a.text() for a in self._shown()) + ")"


@dataclass(frozen=True)
class SetSize(Expr):
    r"""The number of members of a set of item ids, shown as ``|\{2, 4\}|``."""

    members: tuple[str, ...]

    def value(self) -> float:
        return len(self.members)

    def latex(self) -> str:
        if not self.members:
            return r"\lvert\varnothing\rvert"
        return r"\lvert\{" + ", ".join(latex_text(m) for m in self.members) + r"\}\rvert"

    def text(self) -> str:
        return "|{" + ", ".join(self.members) + "}|"


def fraction(numerator: float, denominator: float) -> Frac:
    """``Frac(Num(numerator), Num(denominator))``, the most common node.

    >>> fraction(3, 4).latex()
    '\\\\frac{3}{4}'
    """
    return Frac(Num(numerator), Num(denominator))
