"""Formula trees: LaTeX, plain text and value agree; numbers and user text are shown safely."""

from __future__ import annotations

import pytest

from irlab.explain.formula import (
    MAX_TERMS,
    Add,
    Frac,
    Log2,
    Min,
    Mul,
    Num,
    Pow,
    SetSize,
    Sub,
    format_number,
    fraction,
    latex_text,
    shows_exactly,
)


@pytest.mark.parametrize("expr, latex, text", [
    (Frac(Num(1), Add(Num(1), Num(3))), r"\frac{1}{1 + 3}", "1 / (1 + 3)"),
    (Add(Frac(Num(0), Log2(Num(2))), Frac(Num(4), Log2(Num(3)))), r"\frac{0}{\log_2(2)} + \frac{4}{\log_2(3)}",
     "0 / log2(2) + 4 / log2(3)"),
    (Frac(Sub(Pow(Num(2), Num(3)), Num(1)), Log2(Num(4))), r"\frac{2^{3} - 1}{\log_2(4)}", "(2^3 - 1) / log2(4)"),
    (Mul(fraction(1, 3), Add(fraction(1, 2), fraction(1, 5))),
     r"\frac{1}{3} \cdot \left(\frac{1}{2} + \frac{1}{5}\right)", "(1 / 3) * (1 / 2 + 1 / 5)"),
    (Frac(Add(fraction(1, 2), fraction(2, 4)), Num(4)), r"\frac{\frac{1}{2} + \frac{2}{4}}{4}", "(1 / 2 + 2 / 4) / 4"),
    (Min(Num(1), Num(3)), r"\min(1, 3)", "min(1, 3)"),
    (Add(Num(2), Num(-1)), r"2 + \left(-1\right)", "2 + (-1)"),
])
def test_latex_text_and_value_agree(expr, latex, text, evaluate_latex):
    assert expr.latex() == latex
    assert expr.text() == text
    assert evaluate_latex(latex) == pytest.approx(expr.value())
    assert eval(text.replace("^", "**").replace("log2", "__import__('math').log2")) == pytest.approx(expr.value())


def test_numbers_show_four_decimals_at_most_and_say_when_rounded():
    assert [format_number(x) for x in (0.5, 2 / 3, 10.0, 3, 1e-9, 0.99996)] == ["0.5", "0.6667", "10", "3", "0", "1"]
    assert shows_exactly(0.5) and not shows_exactly(2 / 3) and shows_exactly(7)
    assert Num(0.5).exact and not Num(2 / 3).exact
    assert not Frac(Num(2 / 3), Num(1)).exact


def test_long_sums_are_shortened_on_screen_but_not_in_value():
    terms = [Num(i) for i in range(MAX_TERMS + 5)]
    total = Add(terms)
    assert total.shortened and r"\cdots" in total.latex() and "..." in total.text()
    assert total.value() == sum(range(MAX_TERMS + 5))
    assert not Add(terms[:MAX_TERMS]).shortened


def test_user_text_never_becomes_a_latex_command(evaluate_latex):
    evil = r"\href{javascript:alert(1)}{x} $_^{}#&%~"
    shown = latex_text(evil)
    assert shown.startswith(r"\text{") and "\\href" not in shown.replace(r"\backslash{}", "")
    assert SetSize(("a_1", "<b>")).latex() == r"\lvert\{\text{a\_1}, \text{<b>}\}\rvert"
    assert SetSize(()).value() == 0 and evaluate_latex(SetSize(("x", "y")).latex()) == 2
