"""Fixtures every test folder shares: the walkthrough's golden values, the LaTeX oracle, trec_eval's test data.

The LaTeX oracle evaluates the LaTeX that IR Lab renders for plugged-in formulas. Reading the
LaTeX string itself, not the expression tree behind it, checks that what a student sees on
screen really computes the value shown. It supports the subset we emit: numbers, ``+``, ``-``,
``\\cdot``, ``\\frac{a}{b}``, ``\\log_2(x)``, ``a^{b}``, ``\\min(a, b)``, ``\\left( \\right)``, and
set sizes ``\\lvert\\{\\text{a}, \\text{b}\\}\\rvert``.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = Path(__file__).parent / "golden"
TREC_EVAL_TEST = Path(os.environ.get("IRLAB_TREC_EVAL_TEST", ROOT.parent / "shared" / "trec_eval_test"))
"""trec_eval's own test data, next to the repository (CI has it; it is never copied into the repository)."""

# A process draws screens ahead only while it is not busy (irlab/ui/walkthrough/screen.py, AHEAD_BUSY): what a test
# sees must not depend on how busy the machine keeps its process or server (a test process is always busy), so the
# tests' processes and the app servers they start always draw ahead. The gate itself is tested with its own clock
# (tests/ui/walkthrough/test_live_region.py) and, never drawing ahead, in Chromium.
os.environ.setdefault("IRLAB_AHEAD_BUSY", "1")


@pytest.fixture(scope="session")
def trec_eval_test() -> Path:
    """The folder of trec_eval's test data and expected outputs (skips the test when it is missing)."""
    if not (TREC_EVAL_TEST / "qrels.test").exists():
        pytest.skip(f"trec_eval's test data is not at {TREC_EVAL_TEST} (CI provides ../shared/trec_eval_test)")
    return TREC_EVAL_TEST


@pytest.fixture(scope="session")
def golden() -> dict:
    """Every number of the cats-in-boxes walkthrough, exact to 4 decimals (a copy of the reference)."""
    return json.loads((GOLDEN / "cats_in_boxes.json").read_text())


@pytest.fixture(scope="session")
def evaluate_latex() -> Callable[[str], float]:
    """The value of a LaTeX formula as IR Lab renders it (session-scoped, so hypothesis tests can use it)."""
    return _evaluate_latex


_TOKEN = re.compile(r"\s*(\\[A-Za-z]+|\d+(?:\.\d+)?|\\[{}]|[-+^(){},_])")


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def peek(self) -> str | None:
        match = _TOKEN.match(self.text, self.pos)
        return match.group(1) if match else None

    def take(self, expected: str | None = None) -> str:
        match = _TOKEN.match(self.text, self.pos)
        if not match:
            raise ValueError(f"cannot read {self.text[self.pos:]!r}")
        token = match.group(1)
        if expected is not None and token != expected:
            raise ValueError(f"expected {expected!r}, got {token!r} at {self.text[self.pos:]!r}")
        self.pos = match.end()
        return token

    def expr(self) -> float:
        value = self.term()
        while self.peek() in ("+", "-"):
            value = value + self.term() if self.take() == "+" else value - self.term()
        return value

    def term(self) -> float:
        value = self.power()
        while self.peek() == r"\cdot":
            self.take()
            value *= self.power()
        return value

    def power(self) -> float:
        value = self.unary()
        if self.peek() == "^":
            self.take()
            self.take("{")
            exponent = self.expr()
            self.take("}")
            value = value**exponent
        return value

    def unary(self) -> float:
        if self.peek() == "-":
            self.take()
            return -self.unary()
        return self.atom()

    def atom(self) -> float:
        token = self.take()
        if re.fullmatch(r"\d+(?:\.\d+)?", token):
            return float(token)
        if token == r"\frac":
            self.take("{")
            numerator = self.expr()
            self.take("}")
            self.take("{")
            denominator = self.expr()
            self.take("}")
            return numerator / denominator
        if token == r"\log":
            self.take("_")
            self.take("2")
            self.take("(")
            value = self.expr()
            self.take(")")
            return math.log2(value)
        if token == r"\min":
            self.take("(")
            values = [self.expr()]
            while self.peek() == ",":
                self.take()
                if self.peek() == r"\,":
                    self.take()
                values.append(self.expr())
            self.take(")")
            return min(values)
        if token == r"\left":
            self.take("(")
            value = self.expr()
            self.take(r"\right")
            self.take(")")
            return value
        if token == "(":
            value = self.expr()
            self.take(")")
            return value
        if token == r"\lvert":
            return self.set_size()
        raise ValueError(f"unexpected {token!r} in {self.text!r}")

    def set_size(self) -> float:
        if self.peek() == r"\varnothing":
            self.take()
            self.take(r"\rvert")
            return 0.0
        self.take(r"\{")
        count = 0
        while True:
            self.take(r"\text")
            self.take("{")
            depth = 1
            while depth:  # skip the escaped label text
                char = self.text[self.pos]
                if char == "\\":
                    self.pos += 2
                    continue
                depth += {"{": 1, "}": -1}.get(char, 0)
                self.pos += 1
            count += 1
            if self.peek() == ",":
                self.take()
                continue
            self.take(r"\}")
            self.take(r"\rvert")
            return float(count)


def _evaluate_latex(text: str) -> float:
    """The number a LaTeX expression of the supported subset evaluates to."""
    parser = _Parser(text.replace(r"\,", " "))
    value = parser.expr()
    if parser.text[parser.pos:].strip():
        raise ValueError(f"left over: {parser.text[parser.pos:]!r}")
    return value


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """One headless Chromium (Debian's) for the session's browser tests; skipped with the reason without it."""
    from tests.browser import chromium, need_chromium

    need_chromium()
    with chromium() as launched:
        yield launched
