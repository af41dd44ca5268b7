"""The lecturer's page, /class: start a class, or run one from its lecturer link.

``/class`` without a class shows what a class is and "Start a class". With a class (the link's
``code`` and ``key``, or the session's after a trip through the sidebar) it checks the key with the
store and draws the desk in the sidebar (:mod:`irlab.ui.classroom.desk`), the round controls and the
live projector (:mod:`irlab.ui.classroom.projector`), then class analytics. A link that opens no class
(ended, or a wrong key: one message for both) says so and offers a new one; a link made on another store
than this replica's says that. A store error says so in one line and is logged.
"""

from __future__ import annotations

import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from irlab.classroom.refusals import AccessDenied, ClassNotFound
from irlab.errors import ValidationError
from irlab.ui.classroom import credentials
from irlab.ui.classroom.analytics import analytics_section
from irlab.ui.classroom.connection import class_run_turn, class_store, store_trouble
from irlab.ui.classroom.desk import UNREACHABLE, round_controls, sidebar_desk, start_screen, take_notice
from irlab.ui.classroom.feed import OTHER_STORE
from irlab.ui.classroom.links import app_address, join_address, unreachable_warning
from irlab.ui.classroom.projector import PAGE_VIEW, VIEW, live_projector
from irlab.ui.classroom.style import class_style, show_notice
from irlab.ui.kit.markdown import escape_markdown


def class_page() -> None:
    """The whole page below its title, in its turn (:func:`~irlab.ui.classroom.connection.class_run_turn`)."""
    with class_run_turn():
        _class_page()


def _class_page() -> None:
    class_style()
    # the lines that come and go (a notice, the localhost warning, the first-question hint) and the round controls
    # (none before a question) each in a container of its own: the projector's fragment keeps its place in the page,
    # and so its identity; a full run cut short by a rerun would otherwise leave a second projector (a second feed
    # with old counts) where the first stood
    lines = st.container()
    with lines:
        show_notice(take_notice())
    who = credentials.lecturer()
    if who is None:
        if credentials.link_code():
            st.warning("This link names a class but carries no lecturer key. Students join at /join with the "
                       "code; the lecturer opens the link the class showed when it started.", icon=":material/key:")
        start_screen()
        return
    try:
        store = class_store()
        view = store.lecturer(who.code, who.secret).projector()
    except (ClassNotFound, AccessDenied) as error:
        other = credentials.other_store(store.store_id)
        credentials.forget_lecturer()
        message = OTHER_STORE.format(theirs=other, mine=store.store_id) if other else str(error)
        st.info(escape_markdown(message), icon=":material/event_busy:")
        start_screen()
        return
    except ValidationError as error:  # the store's setting (IRLAB_CLASS_DB) is wrong
        st.error(escape_markdown(error), icon=":material/database:")
        return
    except SQLAlchemyError as error:
        store_trouble(error, "the lecturer's page")
        st.error(UNREACHABLE, icon=":material/database:")
        st.button("Try again", icon=":material/refresh:", key="irl-retry")
        return
    credentials.keep_lecturer(who, store.store_id)
    st.session_state[VIEW] = st.session_state[PAGE_VIEW] = view
    address = app_address()
    join_at = join_address(address)
    sidebar_desk(who, view, address, store.store_id)
    with lines:
        if not any(info.state for info in view.activities):  # before the first question: is the join link any good?
            warning = unreachable_warning(join_at)
            if warning:
                st.warning(warning, icon=":material/wifi_off:")
        if not view.activities:
            st.caption("Add the first question in the sidebar (\u201cAdd a question\u201d); students see \u201cwaiting "
                       "for the lecturer\u201d until you show one.")
    with st.container():
        round_controls(who, view)
    live_projector(who, join_at, store.store_id)
    analytics_section(who)
