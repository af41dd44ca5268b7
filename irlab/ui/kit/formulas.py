"""Breakdowns on screen: the formula, the same with the numbers plugged in, the per-rank table, the text version.

Nothing here computes a metric: every number arrives inside a :class:`~irlab.explain.breakdown.Breakdown`.
Text we did not write (item titles, exercise labels, document ids) is shown as escaped Markdown, never
as HTML.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import streamlit as st

from irlab.explain.breakdown import Breakdown
from irlab.ui.kit.markdown import markdown_table


def formula_lines(breakdown: Breakdown) -> list[str]:
    """The LaTeX of a breakdown's display lines: the symbolic formula, then the same with the numbers plugged in.

    A breakdown made of parts (the four confusion counts) is one aligned block, a line per part.
    """
    if breakdown.plugged is None:
        lines = [rf"{part.symbolic} &\qquad {part.plugged_latex}" for part in breakdown.parts.values()]
        return [r"\begin{aligned}" + r" \\ ".join(lines) + r"\end{aligned}"]
    return [breakdown.symbolic, fitted(breakdown.plugged_latex, len(breakdown.plugged_text))]


def fitted(latex: str, width: int) -> str:
    """A long plugged-in formula set smaller so it fits the column instead of scrolling (``width``: its plain text).

    >>> fitted("x", 200), fitted("x", 100), fitted("x", 20)
    ('\\\\footnotesize x', '\\\\small x', 'x')
    """
    if width > 150:
        return r"\footnotesize " + latex
    if width > 95:
        return r"\small " + latex
    return latex


def formulas(breakdown: Breakdown) -> None:
    """A breakdown's formulas, one ``st.latex`` per line (exercises and runs; chapters use :func:`formula_block`)."""
    for line in formula_lines(breakdown):
        st.latex(line)


def formula_block(*breakdowns: Breakdown, heading: str | None = None, table: tuple | None = None) -> None:
    """Several breakdowns' formulas (and a heading, a table) as ONE element: fewer elements, less browser work."""
    parts = [f"#### {heading}"] if heading else []
    parts += [f"$$\n{line}\n$$" for item in breakdowns for line in formula_lines(item)]
    if table is not None:
        parts.append(markdown_table(*table))
    st.markdown("\n\n".join(parts))


def breakdown(item: Breakdown, labels: Mapping[str, str], *, heading: str | None = None, table: bool = True,
              table_label: str | None = None) -> None:
    """A breakdown: heading, formulas and per-rank table as one element (the table in an expander titled
    ``table_label`` if given), then its notes."""
    inline = item.table(labels) if table and item.rows and not table_label else None
    formula_block(item, heading=heading, table=inline)
    if table and item.rows and table_label:
        with st.expander(table_label):
            table_of(*item.table(labels))
    for note in item.notes:
        st.caption(note)


def plain_text(items: Sequence[Breakdown], labels: Mapping[str, str], *, present: bool) -> None:
    """Every breakdown of the page in words (to copy, or for a reader who prefers text); not when presenting."""
    if present:
        return
    with st.expander("This page's numbers as plain text"):
        st.text("\n\n".join(item.to_text(labels) for item in items))


def table_of(headers: Sequence[object], cells: Sequence[Sequence[object]]) -> None:
    """A static table of text cells (escaped Markdown: fast to send, read as a real table)."""
    st.markdown(markdown_table(headers, cells))
