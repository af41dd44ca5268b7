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
from irlab.walkthrough.guide import steps
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
    # one horizontal container, not columns: a column is an element of its own, and every element costs the
    # browser a render on each move
    with st.container(horizontal=True, gap="small"):
        for item in items:
            still = item.change == 0
            st.metric(item.label, item.display, delta=item.change_display, help=item.help or None, border=True,
                      width="stretch", delta_color="off" if still else "normal", delta_arrow="off" if still else "auto")


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


def formula_lines(breakdown: Breakdown) -> list[str]:
    """The LaTeX of a breakdown's display lines: the symbolic formula, then the same with the numbers plugged in.

    A breakdown made of parts (the four confusion counts) is one aligned block, a line per part.
    """
    if breakdown.plugged is None:
        lines = [rf"{part.symbolic} &\qquad {part.plugged_latex}" for part in breakdown.parts.values()]
        return [r"\begin{aligned}" + r" \\ ".join(lines) + r"\end{aligned}"]
    return [breakdown.symbolic, _fitted(breakdown.plugged_latex, len(breakdown.plugged_text))]


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


def _fitted(latex: str, width: int) -> str:
    """A long plugged-in formula set smaller so it fits the column instead of scrolling (``width``: its plain text)."""
    if width > 150:
        return r"\footnotesize " + latex
    if width > 95:
        return r"\small " + latex
    return latex


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


def chapter_intro(chapter: Chapter, state: WalkthroughState, preset, leave_presentation) -> None:
    """Title, summary (not when presenting) and the one-click preset of the sources' example; when presenting,
    the buttons sit beside the title (the ranking and the numbers must fit one screen) with one back to the
    normal view (the sidebar, where the switch lives, is folded away)."""
    with st.container(horizontal=state.present, gap="medium", vertical_alignment="center"):
        st.title(f"{chapter.number}. {chapter.title}", width="content" if state.present else "stretch")
        if not state.present:
            st.markdown(chapter.summary)
        st.button("The sources' example" if state.present else chapter.preset_label, key=f"preset-{chapter.slug}",
                  on_click=preset, icon=":material/restart_alt:",
                  help=f"{chapter.preset_label}: K, the relevance mode and every ranking as in the sources.")
        if state.present:
            st.button("Leave presentation", key="leave-presentation", on_click=leave_presentation,
                      icon=":material/close_fullscreen:", help="Back to the normal view, with the sidebar.")


def try_this(chapter: Chapter, state: WalkthroughState) -> None:
    """The chapter's experiments, worded for the state on screen; each is ticked off once the learner reached it
    (and stays ticked for the session), with a word as well as the icon."""
    key = f"irlab.steps.{chapter.slug}"
    items = steps(state, chapter)
    done = set(st.session_state.get(key, ())) | {item.key for item in items if item.reached}
    st.session_state[key] = done
    lines = [f"- :material/check_circle: **Done:** ~~{escape_markdown(item.text)}~~" if item.key in done else
             f"- :material/radio_button_unchecked: {escape_markdown(item.text)}" for item in items]
    count = sum(item.key in done for item in items)
    st.info(f"**Try this.** {count} of {len(items)} done\n\n" + "\n".join(lines), icon=":material/science:")


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
