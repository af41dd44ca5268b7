"""The app's navigation, page config, and a guard that makes deep links work on a fresh server.

Why the guard: Streamlit decides per server process, from whether ``pages/`` exists next to
``streamlit_app.py``, to route the first session through its legacy ``pages/`` router, until the first
``st.navigation`` call flips it (``PagesManager.uses_pages_directory``; streamlit/streamlit#9624).
A student opening a shared link right after the server starts would then get a "Page not found"
dialog. The page files are named so that the legacy router finds them under the same URL
(``pages/02_recall-precision.py`` is ``recall-precision`` both ways) and every page calls
:func:`ensure_navigation` first: if ``streamlit_app.py`` did not run (that legacy first run), it registers
the real navigation and reruns at once, so the page is drawn by the normal route from the start
(drawing it in the legacy run made the browser remount the tiles on the first move).
"""

from __future__ import annotations

from contextlib import nullcontext

import streamlit as st

from irlab.scenarios.art import picture_svg
from irlab.ui.kit.markdown import escape_markdown
from irlab.ui.shell.budgets import install_upload_budget
from irlab.ui.shell.pages import SECTIONS
from irlab.ui.shell.presentation import presenting
from irlab.ui.shell.style import BASE_CSS

RAN_APP = "irlab.shell.app_ran"
PAGES = "irlab.shell.pages"


def app_pages() -> dict[str, list]:
    """The navigation: ``st.Page`` objects by section (:data:`~irlab.ui.shell.pages.SECTIONS`)."""
    return {section: [st.Page(entry.path, title=entry.title, url_path=entry.url_path or None, icon=entry.icon,
                              default=not entry.url_path) for entry in entries]
            for section, entries in SECTIONS.items()}


def navigation():
    """Page config and ``st.navigation``; returns the page to run (streamlit_app.py calls this).

    The ``st.Page`` objects are built once per session: building them resolves and checks every
    page file, about 7% of a rerun under load. They cannot be shared between sessions, because
    ``st.navigation`` marks the chosen page object as the one to run.
    """
    # The icon is one of our own pictures: material icons are fetched from Google, which fails offline.
    # Presenting, the sidebar folds away (its arrow, top left, or "Leave presentation mode" brings it back).
    sidebar = "collapsed" if presenting() else "auto"
    st.set_page_config(page_title="IR Lab", page_icon=picture_svg("white-cat-in-box"), layout="wide",
                       initial_sidebar_state=sidebar)
    install_upload_budget()  # once per process: every upload is checked against the session's budget
    st.session_state[RAN_APP] = True
    if PAGES not in st.session_state:
        st.session_state[PAGES] = app_pages()
    sections = st.session_state[PAGES]
    page = st.navigation(sections, position="hidden")
    st.html(BASE_CSS)
    sidebar_navigation(sections, folded=page.url_path in DESK_PAGES)
    return page


DESK_PAGES = frozenset(entry.url_path for entries in SECTIONS.values() for entry in entries if entry.desk)
"""The pages whose sidebar is their desk (the lecturer's class controls): the app's links fold above it."""


def sidebar_navigation(sections: dict[str, list], *, folded: bool = False) -> None:
    """The sidebar's links, drawn by us: a heading per section and a link per page (``folded``: inside one closed
    expander, so that a desk below them is on the first screen: at 1280x800 the links alone fill the sidebar).

    Streamlit's own sidebar navigation is a list whose items are not list items for assistive
    technology (axe-core: 11 serious violations on every page); plain links under headings read well
    and keep the same names, icons and order.
    """
    with st.sidebar, st.expander("IR Lab's pages", icon=":material/menu:") if folded else nullcontext():
        for section, pages in sections.items():
            st.markdown(f"**{escape_markdown(section)}**")
            for entry in pages:
                st.page_link(entry, label=entry.title, icon=entry.icon, width="stretch")


def ensure_navigation() -> None:
    """First line of every page: register the app's navigation if streamlit_app.py did not run (see above)."""
    if not st.session_state.get(RAN_APP):
        navigation()
        st.rerun()
