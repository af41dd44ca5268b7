"""Home: what IR Lab is, where to start alone, the pictures, every chapter and page, and how to use it in class."""

import streamlit as st

from irlab.scenarios.sources import sources_markdown
from irlab.ui.kit.gallery import picture_strip
from irlab.ui.shell.cards import cards
from irlab.ui.shell.navigation import ensure_navigation
from irlab.ui.shell.pages import BEYOND_THE_WALKTHROUGH, PRACTISE, SECTIONS
from irlab.ui.shell.style import apply_style
from irlab.walkthrough.state import SCENARIO

ensure_navigation()  # first: see irlab/ui/shell/navigation.py

apply_style(False)
st.title("IR Lab: learn offline retrieval evaluation by moving pictures")
chapters = SECTIONS["Walkthrough: cats in boxes"]
with st.container(border=True, key="irl-start-here"):
    st.markdown(f"**Start here, on your own:** follow the chapters in order, from **{chapters[0].title}** to "
                f"**{chapters[-1].title}** (about ten minutes each), then test yourself on **Practise**.")
    first, last = st.columns(2)
    first.page_link(chapters[0].path, label=f"Begin with {chapters[0].title}", icon=":material/play_arrow:")
    last.page_link(PRACTISE.path, label="Then: Practise", icon=PRACTISE.icon)
st.markdown(
    "A search system answers the query **\u201ccat in a box\u201d** by ranking eight pictures. How good is "
    "that ranking? IR Lab walks through the offline metrics that answer it (Recall@K, Precision@K, MRR, "
    "MAP@K and NDCG@K), and lets you **drag the pictures** into any order and watch every number, every "
    "formula with its numbers plugged in, and every curve follow at once.")
picture_strip(SCENARIO.items, badges=[f"picture {item.id}" for item in SCENARIO.items])
st.caption("Relevant to \u201ccat in a box\u201d: pictures 2, 4, 5 and 7, a cat inside a box. "
           "The others show a cat without a box, a box without a cat, or a dog.")

st.subheader("The walkthrough")
cards(chapters)
st.caption("Each chapter opens with the example of the sources it is built on, so the numbers match the article and "
           "notebook; where a source prints a wrong number, the chapter says so.")
with st.expander("The sources"):
    st.markdown(sources_markdown())

st.subheader("Beyond the walkthrough")
cards(BEYOND_THE_WALKTHROUGH)

left, right = st.columns(2)
with left:
    st.subheader("Using it in class")
    st.markdown(
        "- **Presentation mode** (sidebar) enlarges type and tiles and hides secondary text.\n"
        "- **Move K and drag tiles while you talk**: every number updates at once.\n"
        "- **Keyboard**: focus a tile, then Shift+Arrow moves it, Shift+Home/End to the ends; in graded mode "
        "type 0-4 to set its grade.\n"
        "- **Copy link** (sidebar) gives a URL that opens exactly what you see; send it to students.\n"
        "- The **preset** button under each chapter title restores the sources' example.\n"
        "- **A live class** (sidebar: Run a class): students join from their phones with a code or a QR code, "
        "predict a number, and you reveal the class's answers, then let them vote again.")
with right:
    st.subheader("For self-study")
    st.markdown("Read the formula, then the same formula with the numbers plugged in, then the per-rank table. "
                "Each chapter ends with experiments to try (\u201cTry this\u201d) and the metric's strengths and "
                "weaknesses.")
