"""Formulas as MathML: made from the formula's shape with its numbers put in, the same markup as converting it whole."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irlab.explain import mathml as module
from irlab.explain.formula import Add, Frac, Log2, Mul, Num, Pow, Sub
from irlab.explain.mathml import as_text, mathml
from irlab.walkthrough.chapters import CHAPTERS
from irlab.walkthrough.screens import Columns, Details, Formulas, Tabs, chapter_screen
from irlab.walkthrough.state import DEFAULT_STATE


def converted_whole(latex: str) -> str:
    """What :func:`mathml` gave before shapes: the converter on the whole LaTeX, or the source as text."""
    markup = module._converted(latex)
    return as_text(latex) if markup is None else markup


def formula_lines(blocks) -> list[str]:
    lines = []
    for block in blocks:
        if isinstance(block, Formulas):
            lines += block.lines
        elif isinstance(block, (Columns, Details, Tabs)):
            lines += formula_lines(block.children)
    return lines


def chapter_lines() -> set[str]:
    """Every formula line of every chapter at every K, in both modes, for the sources' order and six others."""
    rng = random.Random(3)
    orders = [DEFAULT_STATE.order]
    for _ in range(6):
        order = list(DEFAULT_STATE.order)
        rng.shuffle(order)
        orders.append(tuple(order))
    lines: set[str] = set()
    for chapter, order, mode, k in itertools.product(CHAPTERS, orders, ("binary", "graded"), range(1, 9)):
        state = replace(DEFAULT_STATE, order=order, mode=mode, k=k)
        lines.update(formula_lines(chapter_screen(state, chapter)))
    return lines


def test_every_chapter_formula_is_the_markup_of_converting_it_whole():
    lines = chapter_lines()
    assert len(lines) > 1000
    different = [line for line in lines if mathml(line) != converted_whole(line)]
    assert different == []
    # and most of them came from a shape converted once
    shapes = module.shape_markup.cache_info()
    assert shapes.currsize < len(lines) / 4


@pytest.mark.parametrize("latex", [
    r"x_10 + 2^{10}",  # LaTeX takes the 1 of x_10 alone
    r"\frac12 + \frac{3}{4}",  # and the 1 and the 2 of \frac12
    r"\text{rank 3} = 0.25",  # digits in text are words
    r"1,000 + 0.5.",
    r"\sqrt 16 = 4",
    r"\mathrm{IPrec@}0.5 = \max\left(\frac{2}{4}, \frac{3}{5}\right) = 0.6",
    r"3 \cdot 0.25 \cdots 12.5",
    r"\text{<b>1</b>} + 2",  # not MathML: the source as text, as before
])
def test_numbers_latex_splits_or_text_give_what_the_converter_gives(latex):
    assert mathml(latex) == converted_whole(latex)


def expressions():
    numbers = st.one_of(st.integers(0, 2000).map(Num),
                        st.floats(0, 1000, allow_nan=False).map(lambda x: Num(round(x, 6))))
    return st.recursive(numbers, lambda inner: st.one_of(
        st.tuples(inner, inner).map(lambda pair: Add(*pair)),
        st.tuples(inner, inner).map(lambda pair: Sub(*pair)),
        st.tuples(inner, inner).map(lambda pair: Frac(*pair)),
        st.tuples(inner, inner).map(lambda pair: Mul(*pair)),
        st.tuples(inner, st.integers(0, 12).map(Num)).map(lambda pair: Pow(*pair)),
        inner.map(Log2)), max_leaves=12)


@settings(max_examples=150, deadline=None)
@given(expressions())
def test_any_formula_tree_is_the_markup_of_converting_it_whole(expression):
    latex = f"x = {expression.latex()}"
    assert mathml(latex) == converted_whole(latex)
