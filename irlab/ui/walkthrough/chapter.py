"""What a chapter draws around its live region: the title and the preset, and the teaching text."""

from __future__ import annotations

import streamlit as st

from irlab.ui.walkthrough.controls import mode_control
from irlab.walkthrough.chapters import Chapter
from irlab.walkthrough.state import WalkthroughState


def chapter_intro(chapter: Chapter, state: WalkthroughState, preset, leave_presentation) -> None:
    """Title with the relevance switch and the one-click preset of the sources' example beside it (and, presenting, a
    button back to the normal view: the sidebar, where the switch lives, is folded away), then the summary (not when
    presenting). The controls share the title's row so that the tiles and the numbers fit the first screen at
    1280x800, and a phone shows the relevance switch at the top of the page."""
    with st.container(horizontal=True, gap="small", vertical_alignment="center"):
        st.title(f"{chapter.number}. {chapter.title}", width="content")
        mode_control(state, chapter)
        st.button("The sources' example", key=f"preset-{chapter.slug}", on_click=preset,
                  icon=":material/restart_alt:",
                  help=f"{chapter.preset_label}: K, the relevance mode and every ranking as in the sources.")
        if state.present:
            st.button("Leave presentation", key="leave-presentation", on_click=leave_presentation,
                      icon=":material/close_fullscreen:", help="Back to the normal view, with the sidebar.")
    if not state.present:
        st.markdown(chapter.summary)


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
