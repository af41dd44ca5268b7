"""What a chapter draws around its numbers: the title and preset, the tile rows, "Try this", the teaching text.

Nothing here computes a metric: the numbers arrive in the chapter's view (:mod:`irlab.walkthrough.views`).
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from irlab.ui.components.pictures import picture_url
from irlab.ui.components.tiles import ranking_tiles
from irlab.ui.kit.headline import headline
from irlab.ui.kit.markdown import escape_markdown
from irlab.walkthrough.chapters import Chapter
from irlab.walkthrough.guide import Step
from irlab.walkthrough.state import WalkthroughState
from irlab.walkthrough.views import Headline, TileRow


def tiles(row: TileRow, state: WalkthroughState) -> None:
    """One row of draggable picture tiles (each picture a URL the browser caches, not the picture itself)."""
    ranking_tiles(key=row.key, tiles=[{**tile, "picture": picture_url(tile["picture"])} for tile in row.tiles],
                  k=row.k, mode=row.mode, editable_grades=row.editable_grades,
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


def try_this(chapter: Chapter, items: Sequence[Step]) -> None:
    """The chapter's experiments, worded for the state on screen; each is ticked off once the learner reached it
    (and stays ticked for the session), with a word as well as the icon."""
    key = f"irlab.steps.{chapter.slug}"
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
