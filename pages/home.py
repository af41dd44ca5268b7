"""Home: what IR Lab is, the eight pictures, where to start, and how to use it in class."""

import streamlit as st

from irlab.ui.gallery import picture_strip
from irlab.ui.pages import ICONS, chapter_page_path
from irlab.ui.shell import ensure_navigation
from irlab.ui.style import apply_style
from irlab.walkthrough.chapters import CHAPTERS
from irlab.walkthrough.state import SCENARIO

ensure_navigation()  # first: see irlab/ui/shell.py

apply_style(False)
st.title("IR Lab: learn offline retrieval evaluation by moving pictures")
st.markdown(
    "A search system answers the query **\u201ccat in a box\u201d** by ranking eight pictures. How good is "
    "that ranking? IR Lab walks through the offline metrics that answer it (Recall@K, Precision@K, MRR, "
    "MAP@K and NDCG@K), and lets you **drag the pictures** into any order and watch every number, every "
    "formula with its numbers plugged in, and every curve follow at once.")
picture_strip(SCENARIO.items, badges=[f"picture {item.id}" for item in SCENARIO.items])
st.caption("Relevant to \u201ccat in a box\u201d: pictures 2, 4, 5 and 7, a cat inside a box. "
           "The others show a cat without a box, a box without a cat, or a dog.")

st.subheader("The walkthrough")
for row in range(0, len(CHAPTERS), 3):  # rows of three, so the cards line up
    for column, chapter in zip(st.columns(3), CHAPTERS[row:row + 3]):
        with column.container(border=True, height="stretch"):
            st.page_link(chapter_page_path(chapter), label=f"{chapter.number}. {chapter.title}",
                         icon=ICONS[chapter.slug])
            st.caption(chapter.teaches)
st.caption("Each chapter opens with the example of the sources it is built on, so the numbers match the article and "
           "notebook; where a source prints a wrong number, the chapter says so.")

st.subheader("Beyond the walkthrough")
beyond = st.columns(3)
for column, (path, label, icon, line) in zip(beyond, (
        ("pages/build.py", "Build an exercise", ":material/construction:",
         "Lecturers: your own items, judgments and questions; notebooks, worksheets, a variant per student."),
        ("pages/practise.py", "Practise", ":material/school:",
         "Students: answer an exercise with instant feedback that names the classic mistakes."),
        ("pages/runs.py", "Your runs", ":material/query_stats:",
         "Your own system's TREC runs: trec_eval's numbers, any query explained, two systems compared."))):
    with column.container(border=True, height="stretch"):
        st.page_link(path, label=label, icon=icon)
        st.caption(line)

left, right = st.columns(2)
with left:
    st.subheader("Using it in class")
    st.markdown(
        "- **Presentation mode** (sidebar) enlarges type and tiles and hides secondary text.\n"
        "- **Move K and drag tiles while you talk**: every number updates at once.\n"
        "- **Keyboard**: focus a tile, then Shift+Arrow moves it, Shift+Home/End to the ends; in graded mode "
        "type 0-4 to set its grade.\n"
        "- **Copy link** (sidebar) gives a URL that opens exactly what you see; send it to students.\n"
        "- The **preset** button under each chapter title restores the sources' example.")
with right:
    st.subheader("For self-study")
    st.markdown("Read the formula, then the same formula with the numbers plugged in, then the per-rank table. "
                "Each chapter ends with one experiment to try and the metric's strengths and weaknesses.")
