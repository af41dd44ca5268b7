"""Breakdowns: a metric's value together with the computation that produced it.

Every ``explain_*`` function returns a :class:`Breakdown`: the symbolic formula (LaTeX and
words), the same formula with the numbers plugged in (an expression tree from
:mod:`irlab.explain.formula`), per-rank rows, the value, and notes on the conventions that applied.
The plain metric function returns ``explain_...(...).value``, and the value is the plugged-in
formula evaluated, so the number and its explanation are one computation
(docs/architecture.md, "One computation, two views").
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from irlab.explain.formula import Add, Expr, Normalised, Num, format_number, shows_exactly


@dataclass(frozen=True)
class Column:
    """A column of a breakdown's per-rank table: the row key, a short header, and what it means."""

    key: str
    label: str
    help: str = ""


@dataclass(frozen=True)
class Breakdown:
    """A metric value with its formula, the formula with numbers plugged in, and its terms.

    ``lhs`` and ``symbolic`` are LaTeX (``symbolic`` is the whole symbolic equation);
    ``symbolic_text`` says the formula in words. ``plugged`` is the expression the value was
    computed from. ``rows`` are mappings keyed by ``columns``. ``parts`` holds breakdowns this
    one is built from (NDCG holds DCG and IDCG; MRR holds each query's reciprocal rank).
    """

    measure: str
    value: Any
    lhs: str
    symbolic: str
    symbolic_text: str
    plugged: Expr | None
    rows: tuple[Mapping[str, Any], ...] = ()
    columns: tuple[Column, ...] = ()
    notes: tuple[str, ...] = ()
    parts: Mapping[str, Breakdown] = field(default_factory=dict)

    @property
    def plugged_latex(self) -> str:
        r"""The left-hand side, the formula with the numbers plugged in, and the value.

        ``=`` joins sides that are shown exactly, ``\approx`` sides that are rounded.
        A breakdown without a single formula (the confusion counts) shows its parts.
        """
        if self.plugged is None:
            return r",\quad ".join(part.plugged_latex for part in self.parts.values())
        return self._equation(self.lhs, self.plugged.latex(), r"\approx")

    @property
    def plugged_text(self) -> str:
        """:attr:`plugged_latex` as plain text, for screen readers and exports."""
        if self.plugged is None:
            return "; ".join(part.plugged_text for part in self.parts.values())
        return self._equation(self.measure, self.plugged.text(), "\u2248")

    def _equation(self, lhs: str, plugged: str, approx: str) -> str:
        """``lhs``, the plugged-in formula and the value, joined by ``=`` where exact, ``approx`` where rounded.

        Only called when :attr:`plugged` is set (the two properties check).
        """
        shown = format_number(self.value)
        if plugged == shown or self.plugged is None:
            return f"{lhs} = {plugged}"
        left = "=" if self.plugged.exact else approx
        exact = shows_exactly(self.value) and math.isclose(self.plugged.value(), self.value, rel_tol=0, abs_tol=1e-12)
        return f"{lhs} {left} {plugged} {'=' if exact else approx} {shown}"

    @property
    def display_value(self) -> str:
        """The value as shown on screen (4 decimals at most)."""
        return format_number(self.value)

    def column(self, key: str) -> list[Any]:
        """The values of one column, in row order."""
        return [row.get(key) for row in self.rows]

    def to_text(self, labels: Mapping[str, str] | None = None) -> str:
        """A plain-text rendering: formula in words, numbers plugged in, the rows, the notes.

        ``labels`` maps item ids to titles, so rows read "rank 2: White cat in a box".
        """
        labels = labels or {}
        lines = [f"{self.measure}: {self.symbolic_text}", self.plugged_text]
        if self.rows:
            shown = [c for c in self.columns if c.key not in ("rank", "item")]
            for row in self.rows:
                head = []
                if row.get("rank") is not None:
                    head.append(f"rank {row['rank']}")
                if row.get("item") is not None:
                    head.append(str(labels.get(row["item"], row["item"])))
                cells = [f"{c.label} {_cell_text(row.get(c.key))}" for c in shown if row.get(c.key) is not None]
                lines.append(", ".join([": ".join(head)] + cells if head else cells))
        lines.extend(self.notes)
        return "\n".join(lines)

    def table(self, labels: Mapping[str, str] | None = None) -> tuple[list[str], list[list[str]]]:
        """The rows as display text: (headers, cells). Items read "2 · White cat in a box".

        >>> from irlab.metrics.precision_recall import explain_recall_at_k
        >>> headers, cells = explain_recall_at_k(["a", "b"], {"b": 1}, 1).table({"b": "Bee"})
        >>> headers[:3], cells[1][:5]
        (['rank', 'item', 'grade'], ['2', 'b · Bee', '1', 'yes', 'no'])
        """
        labels = labels or {}
        headers = [column.label for column in self.columns]
        cells = []
        for row in self.rows:
            line = []
            for column in self.columns:
                value = row.get(column.key)
                if value is None:
                    line.append("")
                elif column.key in ("item", "ideal_item") and value in labels:
                    line.append(f"{value} · {labels[value]}")
                else:
                    line.append(_cell_text(value))
            cells.append(line)
        return headers, cells

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (for exports and answer keys)."""
        return {
            "measure": self.measure,
            "value": self.value if not isinstance(self.value, tuple) else dict(self.value._asdict()),
            "formula": self.symbolic,
            "formula_text": self.symbolic_text,
            "plugged_in": self.plugged_latex,
            "plugged_in_text": self.plugged_text,
            "columns": [{"key": c.key, "label": c.label, "help": c.help} for c in self.columns],
            "rows": [dict(row) for row in self.rows],
            "notes": list(self.notes),
            "parts": {name: part.to_dict() for name, part in self.parts.items()},
        }

    def relabelled(self, measure: str, lhs: str, symbolic: str, symbolic_text: str) -> Breakdown:
        """The same computation under another name (IDCG is DCG of the ideal ranking)."""
        return replace(self, measure=measure, lhs=lhs, symbolic=symbolic, symbolic_text=symbolic_text)


def _cell_text(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (int, float)):
        return format_number(value)
    return str(value)


def explain_mean(parts: Mapping[str, Breakdown], *, measure: str, lhs: str, symbolic: str, symbolic_text: str,
                 term_label: str, inline_formulas: bool = True) -> Breakdown:
    r"""The mean of per-query breakdowns: :math:`\frac{1}{Q}\sum_{q=1}^{Q} m_q`.

    Used for MRR and MAP. Each query counts once, including queries that scored 0.
    ``inline_formulas`` plugs in each query's own formula (e.g. :math:`\frac{1}{2}`) rather
    than its rounded value.

    >>> from irlab.explain.formula import fraction
    >>> q = {name: Breakdown(name, 1 / r, "", "", "", fraction(1, r)) for name, r in [("a", 2), ("b", 1), ("c", 5)]}
    >>> b = explain_mean(q, measure="MRR", lhs=r"\mathrm{MRR}", symbolic="", symbolic_text="", term_label="RR")
    >>> b.plugged_latex
    '\\mathrm{MRR} = \\frac{1}{3} \\cdot \\left(\\frac{1}{2} + \\frac{1}{1} + \\frac{1}{5}\\right) \\approx 0.5667'
    """
    if not parts:
        plugged: Expr = Num(0)
    else:
        terms = [part.plugged if inline_formulas and part.plugged is not None else Num(part.value)
                 for part in parts.values()]
        plugged = Normalised(Add(terms), Num(len(parts)))
    rows = tuple({"query": name, "value": part.value} for name, part in parts.items())
    notes = () if parts else ("No queries: the mean is defined as 0.",)
    return Breakdown(measure=measure, value=float(plugged.value()), lhs=lhs, symbolic=symbolic,
                     symbolic_text=symbolic_text, plugged=plugged, rows=rows,
                     columns=(Column("query", "query"), Column("value", term_label)), notes=notes, parts=dict(parts))


def latex_measure(name: str, k: int | str | None) -> str:
    r"""A measure's name for LaTeX, e.g. ``\mathrm{Recall@}2`` or ``\mathrm{Recall@}K``.

    >>> latex_measure("Recall", 2), latex_measure("RR", None)
    ('\\mathrm{Recall@}2', '\\mathrm{RR}')
    """
    return rf"\mathrm{{{name}}}" if k is None else rf"\mathrm{{{name}@}}{k}"


def measure_name(name: str, k: int | None) -> str:
    """A measure's display name, e.g. ``Recall@2`` (no ``@`` without a cutoff).

    >>> measure_name("NDCG", 5), measure_name("AP", None)
    ('NDCG@5', 'AP')
    """
    return name if k is None else f"{name}@{k}"


def rows_of(items: Sequence[Mapping[str, Any]]) -> tuple[Mapping[str, Any], ...]:
    """Freeze a list of row dicts."""
    return tuple(dict(row) for row in items)


def display_latex(breakdown: Breakdown) -> list[str]:
    """The LaTeX of a breakdown's display lines: the symbolic formula, then the same with the numbers plugged in.

    A breakdown made of parts (the four confusion counts) is one table of two columns, a line per part (an
    ``array``, which KaTeX and MathML both typeset). A long
    plugged-in formula is set smaller so it fits its column instead of scrolling (:func:`fitted`).
    """
    if breakdown.plugged is None:
        lines = [rf"{part.symbolic} & \qquad {part.plugged_latex}" for part in breakdown.parts.values()]
        return [r"\begin{array}{ll}" + r" \\ ".join(lines) + r"\end{array}"]
    return [breakdown.symbolic, fitted(breakdown.plugged_latex, len(breakdown.plugged_text))]


def fitted(latex: str, width: int) -> str:
    """``latex`` set smaller when its plain text is ``width`` characters long (above 95 small, above 150 smaller).

    >>> print(fitted("x", 200), "|", fitted("x", 100), "|", fitted("x", 20))
    \\footnotesize x | \\small x | x
    """
    if width > 150:
        return r"\footnotesize " + latex
    if width > 95:
        return r"\small " + latex
    return latex
