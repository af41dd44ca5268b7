"""IR Lab: an interactive walkthrough of offline retrieval evaluation. Run: streamlit run app.py"""

import streamlit as st

from irlab.chapters import CHAPTERS
from irlab.scenarios.art import picture_svg
from irlab.ui.pages import ICONS, chapter_page_path

# The icon is one of our own pictures: material icons are fetched from Google, which fails offline.
st.set_page_config(page_title="IR Lab", page_icon=picture_svg("white-cat-in-box"), layout="wide")

PAGES = {
    "IR Lab": [st.Page("pages/home.py", title="Home", icon=":material/home:", default=True)],
    "Walkthrough: cats in boxes": [
        st.Page(chapter_page_path(chapter), title=f"{chapter.number}. {chapter.title}", url_path=chapter.slug,
                icon=ICONS[chapter.slug])
        for chapter in CHAPTERS],
}

st.navigation(PAGES).run()
