"""Breakdowns on screen: the formula, the same with the numbers plugged in, the per-rank table, the text version.

Nothing here computes a metric: every number arrives inside a :class:`~irlab.explain.breakdown.Breakdown`.
Text we did not write (item titles, exercise labels, document ids) is shown as escaped Markdown, never
as HTML.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import streamlit as st

from irlab.explain.breakdown import Breakdown, display_latex
from irlab.ui.kit.markdown import markdown_table


def formulas(breakdown: Breakdown) -> None:
    """A breakdown's formulas, one ``st.latex`` per line (exercises and runs; the chapters' live region draws its
    own, irlab/ui/components/region/)."""
    for line in display_latex(breakdown):
        st.latex(line)


def formula_block(*breakdowns: Breakdown, heading: str | None = None, table: tuple | None = None) -> None:
    """Several breakdowns' formulas (and a heading, a table) as ONE element: fewer elements, less browser work."""
    parts = [f"#### {heading}"] if heading else []
    parts += [f"$$\n{line}\n$$" for item in breakdowns for line in display_latex(item)]
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


def table_of(headers: Sequence[object], cells: Sequence[Sequence[object]]) -> None:
    """A static table of text cells (escaped Markdown: fast to send, read as a real table)."""
    st.markdown(markdown_table(headers, cells))
