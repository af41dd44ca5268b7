"""Rendering what irlab computed: headline values, breakdowns, tile rows, charts, teaching text.

Nothing here computes a metric: every number arrives inside a Breakdown, a Headline or a
chart spec. Text we did not write (item titles, later exercise labels) is shown through
widgets that treat it as text (tables, metrics, ``st.text``), never as HTML.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import streamlit as st

from irlab.explain.breakdown import Breakdown
from irlab.ui.markdown import escape_markdown, markdown_table
from irlab.ui.plot import chart
from irlab.ui.served import picture_url
from irlab.ui.tiles import ranking_tiles
from irlab.walkthrough.chapters import Chapter
from irlab.walkthrough.guide import try_this as try_this_text
from irlab.walkthrough.charts import Spec
from irlab.walkthrough.state import WalkthroughState
from irlab.walkthrough.views import Headline, TileRow, with_changes

CHART_CONFIG = {"displayModeBar": False, "responsive": True}


def headline(items: Sequence[Headline]) -> None:
    """The headline values as ``st.metric``, labelled with the measure and K (e.g. ``Recall@2``), each with its
    change since the learner's previous move (an arrow and a signed number, so colour is not the only sign)."""
    key = "irlab.headline." + "|".join(re.sub(r"@\d+", "", item.label) for item in items)
    items = with_changes(items, st.session_state.get(key))
    st.session_state[key] = [item.value for item in items]
    for column, item in zip(st.columns(len(items)), items):
        column.metric(item.label, item.display, delta=item.change_display, help=item.help or None, border=True)


def tiles(row: TileRow, state: WalkthroughState) -> None:
    """One row of draggable picture tiles (each picture a URL the browser caches, not the picture itself)."""
    ranking_tiles(key=row.key, tiles=[{**tile, "picture": picture_url(tile["picture"])} for tile in row.tiles], k=row.k, mode=row.mode, editable_grades=row.editable_grades,
                  max_grade=row.query.judgments.max_grade, default_order=row.default_order,
                  ideal_order=row.ideal_order, show_classes=row.show_classes, large=state.present, label=row.label)


def tiles_above_headline(row: TileRow, items: Sequence[Headline], state: WalkthroughState) -> None:
    """The tile row above the headline numbers, with the numbers sent to the browser first.

    Streamlit shows each element as it arrives; the numbers are what a drag changes, and the
    tile component's message is the largest of the page, so the numbers go first.
    """
    slot = st.container()
    headline(items)
    with slot:
        tiles(row, state)


def formulas(breakdown: Breakdown) -> None:
    """The symbolic formula, then the same formula with the numbers plugged in.

    A breakdown made of parts (the four confusion counts) shows one aligned line per part.
    """
    if breakdown.plugged is None:
        lines = [rf"{part.symbolic} &\qquad {part.plugged_latex}" for part in breakdown.parts.values()]
        st.latex(r"\begin{aligned}" + r" \\ ".join(lines) + r"\end{aligned}")
        return
    st.latex(breakdown.symbolic)
    st.latex(_fitted(breakdown.plugged_latex, len(breakdown.plugged_text)))


def _fitted(latex: str, width: int) -> str:
    """A long plugged-in formula set smaller so it fits the column instead of scrolling (``width``: its plain text)."""
    if width > 150:
        return r"\footnotesize " + latex
    if width > 95:
        return r"\small " + latex
    return latex


def breakdown(item: Breakdown, labels: Mapping[str, str], *, heading: str | None = None, table: bool = True,
              table_label: str | None = None) -> None:
    """A breakdown: formulas, the per-rank table (in an expander titled ``table_label`` if given) and its notes."""
    if heading:
        st.markdown(f"#### {heading}")
    formulas(item)
    if table and item.rows:
        if table_label:
            with st.expander(table_label):
                table_of(*item.table(labels))
        else:
            table_of(*item.table(labels))
    for note in item.notes:
        st.caption(note)


def plain_text(items: Sequence[Breakdown], labels: Mapping[str, str], state: WalkthroughState) -> None:
    """Every breakdown of the page in words (to copy, or for a reader who prefers text); not when presenting."""
    if state.present:
        return
    with st.expander("This page's numbers as plain text"):
        st.text("\n\n".join(item.to_text(labels) for item in items))


def table_of(headers: Sequence[object], cells: Sequence[Sequence[object]]) -> None:
    """A static table of text cells (escaped Markdown: fast to send, read as a real table)."""
    st.markdown(markdown_table(headers, cells))


def figure(spec: Spec, caption: str, *, key: str) -> None:
    """A Plotly chart with its description as accessible name and as a visible caption."""
    chart(spec, caption, key=key)
    st.caption(caption)


def chapter_intro(chapter: Chapter, state: WalkthroughState, preset) -> None:
    """Title, summary (not when presenting) and the one-click preset of the sources' example."""
    st.title(f"{chapter.number}. {chapter.title}")
    if not state.present:
        st.markdown(chapter.summary)
    st.button(chapter.preset_label, key=f"preset-{chapter.slug}", on_click=preset, icon=":material/restart_alt:",
              help="Set K, the relevance mode and every ranking to the sources' example of this chapter.")


def try_this(chapter: Chapter, state: WalkthroughState) -> None:
    """The chapter's experiment, worded for the state on screen."""
    st.info(f"**Try this.** {escape_markdown(try_this_text(state, chapter))}", icon=":material/science:")


def teaching(chapter: Chapter, state: WalkthroughState) -> None:
    """What the metric rewards, its pros and cons, and where the sources differ (not when presenting)."""
    if state.present:
        return
    st.markdown(f"**What it rewards.** {chapter.rewards}")
    left, right = st.columns(2)
    with left:
        st.markdown("**Strengths**\n\n" + "\n".join(f"- {line}" for line in chapter.pros))
    with right:
        st.markdown("**Weaknesses**\n\n" + "\n".join(f"- {line}" for line in chapter.cons))
    for note in chapter.source_notes:
        st.caption(f"Where the sources differ: {note}")


def notices(messages: Sequence[str]) -> None:
    """Notices about ignored link parameters and the like, in a container that always exists.

    All of them go into one box (a list when there are several), so a hostile link cannot fill the
    page with warnings. Notices may quote what a link said, so they are shown as inert text.
    """
    box = st.container()
    unique = list(dict.fromkeys(messages))
    if len(unique) == 1:
        box.warning(escape_markdown(unique[0]), icon=":material/info:")
    elif unique:
        box.warning("\n".join(f"- {escape_markdown(message)}" for message in unique), icon=":material/info:")
