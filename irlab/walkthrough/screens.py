"""What each chapter's live region shows, block by block: the tiles, the numbers, the formulas, tables and charts.

A screen is an ordered tuple of blocks, each with a ``key`` that stays the same from one state to the
next, so the browser can redraw only the blocks (and inside them only the numbers, formulas and
charts) that changed. Every number in a block comes from the chapter's view
(:mod:`irlab.walkthrough.views`); this module only decides what goes where, so the pages stay thin and
the whole screen is testable without Streamlit or a browser.

Text in blocks is plain text (the browser sets it as text, never as HTML); formulas are LaTeX.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from irlab.explain.breakdown import Breakdown, display_latex
from irlab.walkthrough.chapter import Chapter
from irlab.walkthrough.state import SCENARIO, WalkthroughState
from irlab.walkthrough.views import Headline, MeanView, TileRow


@dataclass(frozen=True)
class Tiles:
    """A row of draggable picture tiles."""

    key: str
    row: TileRow


@dataclass(frozen=True)
class Numbers:
    """The headline numbers, each labelled with its measure and K (``Recall@2``)."""

    key: str
    items: tuple[Headline, ...]


@dataclass(frozen=True)
class Heading:
    key: str
    text: str


@dataclass(frozen=True)
class Paragraph:
    """A sentence of plain text, with an optional lead in bold (``Where the conventions disagree:``)."""

    key: str
    text: str
    lead: str = ""


@dataclass(frozen=True)
class Table:
    key: str
    headers: tuple[str, ...]
    cells: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Formulas:
    """Formulas as LaTeX display lines (the symbolic one, then the numbers plugged in), an optional heading,
    a table beside them (a breakdown's rank by rank), and notes."""

    key: str
    lines: tuple[str, ...]
    heading: str = ""
    table: Table | None = None
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Chart:
    """A Plotly spec (numbers computed here) and its text alternative, also shown as its caption."""

    key: str
    spec: Mapping[str, Any]
    alt: str


@dataclass(frozen=True)
class Pictures:
    """A read-only strip of the scenario's pictures in order, each with a badge (the ideal order)."""

    key: str
    items: tuple[str, ...]
    badges: tuple[str, ...]


@dataclass(frozen=True)
class Columns:
    """Blocks side by side (on a narrow screen, one below the other)."""

    key: str
    children: tuple[Block, ...]


@dataclass(frozen=True)
class Details:
    """Blocks behind a summary line the reader opens (closed unless ``open``)."""

    key: str
    summary: str
    children: tuple[Block, ...]
    open: bool = False


@dataclass(frozen=True)
class Tabs:
    """Blocks on tabs, one tab shown at a time (the first unless the reader picks another)."""

    key: str
    labels: tuple[str, ...]
    children: tuple[Block, ...] = field(default=())


Block = Tiles | Numbers | Heading | Paragraph | Table | Formulas | Chart | Pictures | Columns | Details | Tabs


def formulas(key: str, *items: Breakdown, heading: str = "") -> Formulas:
    """Several breakdowns' formulas in one block."""
    return Formulas(key, tuple(line for item in items for line in display_latex(item)), heading)


def breakdown(key: str, item: Breakdown, *, heading: str = "", table: bool = True) -> Formulas:
    """A breakdown: its formulas, its rank-by-rank table, its notes."""
    labels = SCENARIO.labels()
    shown = table_block(key + "-table", *item.table(labels)) if table and item.rows else None
    return Formulas(key, tuple(display_latex(item)), heading, shown, tuple(item.notes))


def rank_table(key: str, item: Breakdown, *, heading: str = "") -> Formulas:
    """A breakdown's rank-by-rank table and notes, without its formulas (shown elsewhere on the screen)."""
    return Formulas(key, (), heading, table_block(key + "-table", *item.table(SCENARIO.labels())), tuple(item.notes))


def table_block(key: str, headers: Sequence[object], cells: Sequence[Sequence[object]]) -> Table:
    return Table(key, tuple(str(h) for h in headers), tuple(tuple(str(c) for c in row) for row in cells))


def plain_text(items: Sequence[Breakdown], state: WalkthroughState) -> tuple[Block, ...]:
    """Every breakdown of the screen in words, behind a summary (to copy, or to read); not when presenting."""
    if state.present:
        return ()
    text = "\n\n".join(item.to_text(SCENARIO.labels()) for item in items)
    return (Details("plain-text", "This page's numbers as plain text", (Paragraph("plain-text-body", text),)),)


# --- pieces several chapters share -----------------------------------------------------------------------------

def per_query_blocks(view: MeanView, state: WalkthroughState, *, ap: bool) -> tuple[Block, ...]:
    """A heading, the tiles and the formula of each query; presenting, the second and third fold away."""
    blocks: list[Block] = []
    for index, (row, (name, part)) in enumerate(zip(view.rows, view.per_query.items())):
        title = f"\u201c{name}\u201d: {part.measure if ap else 'RR'} = {part.display_value}"
        body: tuple[Block, ...] = (Tiles(row.key, row),)
        body += (Formulas(f"{row.key}-formula", tuple(display_latex(part)), notes=tuple(part.notes)),)
        if ap:  # the formula stays in view; the rank-by-rank table opens on demand
            table = table_block(f"{row.key}-table", *part.table(SCENARIO.labels()))
            body += (Details(f"{row.key}-details", f"Rank by rank: P@k \u00d7 rel_k for \u201c{name}\u201d",
                             (table,)),)
        if state.present and index > 0:
            blocks.append(Details(f"{row.key}-query", title, body))
        else:
            blocks += [Heading(f"{row.key}-heading", title), *body]
    return tuple(blocks)


def chapter_screen(state: WalkthroughState, chapter: Chapter) -> tuple[Block, ...]:
    """The blocks of ``chapter``'s live region for ``state``.

    >>> from irlab.walkthrough.chapters import chapter
    >>> from irlab.walkthrough.state import DEFAULT_STATE
    >>> screen = chapter_screen(DEFAULT_STATE.with_preset(chapter("recall-precision")), chapter("recall-precision"))
    >>> [type(block).__name__ for block in screen][:3]
    ['Numbers', 'Tiles', 'Columns']
    >>> [(item.label, item.display) for item in screen[0].items]
    [('Recall@2', '0.25'), ('Precision@2', '0.5')]
    """
    return chapter.screen(state, chapter)


def numbers_of(screen: Sequence[Block]) -> tuple[Headline, ...]:
    """The headline numbers of a screen (tests and the class's questions read them)."""
    return tuple(item for block in screen if isinstance(block, Numbers) for item in block.items)
