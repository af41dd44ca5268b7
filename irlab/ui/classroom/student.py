"""The student's page, /join: join with a code, wait, answer, and see whether and why the answer was right.

``/join`` (or ``/join?code=ABCDEF`` from the QR code) asks for the code and an optional nickname.
Joining gives the student a token, kept in the session and in the link
(``/join?code=ABCDEF&student=TOKEN&s=STORE``), so a reload, or the reconnection to another replica after
one died, finds the same student with the same answers; the browser keeps it too (a cookie), so another
tab of the same browser is the same student, not a new one with the same nickname. The page then shows the
activity the lecturer has open, or "waiting for the lecturer".

Live by push: the student's screen is a fragment whose first element is the class's feed
(:mod:`irlab.ui.components.classfeed`): it follows the class through the app's event stream and reruns
the fragment only when the class changed for students (the lecturer opened, closed, revealed or moved on,
or the timer ran out), within 1.5 s at random so a class does not rerun at once. A waiting student costs
the server a beat every ten seconds and no script run; a classmate's answer changes nothing here. The
answer is typed into the answer component, kept on the phone and sent to the class by HTTP
(:mod:`irlab.ui.classroom.feed`) until acknowledged; its receipt shows under Send.

Everything a student sends is checked by the store (the code, the nickname, the answer, the round);
malformed codes are refused here before they reach the store's guessing limit, so a typo such as
``ABC0EF`` does not count against the student's address. A store error says so in one line, keeps what
the student typed, and is logged. Messages are shown as plain text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from irlab.classroom.activities.base import CLOSED, OPEN
from irlab.classroom.records import StudentView
from irlab.classroom.refusals import AccessDenied, ClassNotFound
from irlab.classroom.student import StudentSeat
from irlab.classroom.tokens import normalise_code
from irlab.errors import ValidationError
from irlab.ui.classroom import credentials
from irlab.ui.classroom.connection import class_run_turn, class_store, client_address, session_id, store_trouble
from irlab.ui.classroom.credentials import Credentials
from irlab.ui.classroom.feed import OTHER_STORE
from irlab.ui.classroom.kinds import pages_of
from irlab.ui.classroom.live import answer_data, student_feed
from irlab.ui.classroom.style import class_style, show_notice
from irlab.ui.components.classanswer import answer_form
from irlab.ui.components.classfeed import class_feed
from irlab.ui.kit.markdown import escape_markdown

if TYPE_CHECKING:
    from streamlit.delta_generator import DeltaGenerator

NOTICE = "irlab.class.student_notice"
JOIN_TITLE = "Join a class"
"""The page's title above the join form; in class it is :data:`CLASS_TITLE`, in small type (a phone's first screen
is the question and its Send)."""
CLASS_TITLE = "Live class"


def page_title(heading: DeltaGenerator, *, in_class: bool) -> None:
    """The page's title in ``heading`` (a place on top of the page): above the join form, or once the student is in
    class one line of small type (styled by its container's key)."""
    if in_class:
        heading.container(key="irl-class-title").title(CLASS_TITLE, anchor=False)
    else:
        heading.title(JOIN_TITLE, anchor=False)
DEAD_SEATS = "irlab.class.dead_seats"
"""Seats from this browser's cookie that opened nothing (not tried again in this session)."""
CODE_BOX, NICKNAME_BOX = "irl-join-code", "irl-nickname"
UNREACHABLE = "The class did not answer; press Join again in a moment (what you typed is kept)."
READ_TROUBLE = "The class did not answer; this page tries again by itself."
FEED, ANSWER = "irl-class-feed", "irl-answer-form"


def _say(text: str, kind: str = "error") -> None:
    st.session_state[NOTICE] = (kind, text)


def _store_id() -> str:
    try:
        return class_store().store_id
    except (ValidationError, SQLAlchemyError):
        return ""


def _gone_message(error: ValidationError, store_id: str) -> str:
    """The store's refusal, or the other-store message when the link was made on another store."""
    other = credentials.other_store(store_id)
    return OTHER_STORE.format(theirs=other, mine=store_id) if other else str(error)


# --- joining ---------------------------------------------------------------------------------------------------------

def _join() -> None:
    try:
        code = normalise_code(st.session_state.get(CODE_BOX, ""))
    except ValidationError as error:
        _say(str(error))
        return
    known = _browser_seat(code)
    try:
        store = class_store()
        if known is not None:  # this browser joined already (another tab): the same student
            seat = store.student(known.code, known.secret)
            _say(f"Welcome back: this browser is student {seat.student_number()} in class {code}.", "success")
        else:
            seat = store.join(code, nickname=st.session_state.get(NICKNAME_BOX) or None, session=session_id(),
                              address=client_address())
    except ValidationError as error:
        _say(str(error))
        return
    except SQLAlchemyError as error:
        store_trouble(error, "a student joining")
        _say(UNREACHABLE)
        return
    credentials.keep_student(Credentials(seat.code, seat.token), store.store_id)


def _browser_seat(code: str) -> Credentials | None:
    """The seat this browser's cookie keeps for ``code``, unless it opened nothing before in this session."""
    found = credentials.seat_in_browser(code)
    if found is None or found.secret in st.session_state.get(DEAD_SEATS, ()):
        return None
    return found


def join_form() -> None:
    """The code (from the link when it has one) and a nickname, then Join."""
    if credentials.link_code():
        st.session_state.setdefault(CODE_BOX, credentials.link_code())
    with st.container(key="irl-join-form"):
        st.text_input("Join code", key=CODE_BOX, max_chars=40, placeholder="ABCDEF", autocomplete="off",
                      help="Six letters and digits, on the lecturer's screen.")
        st.text_input("Nickname (optional)", key=NICKNAME_BOX, max_chars=40, autocomplete="off",
                      help="Leave it empty to stay anonymous. The lecturer decides whether the class sees nicknames.")
        st.button("Join", type="primary", icon=":material/login:", on_click=_join, key="irl-join", width="stretch")


def open_seat(who: Credentials, *, from_cookie: bool = False) -> StudentSeat | None:
    """The student's seat from their code and token, or None (with the reason on screen) when it is gone."""
    try:
        store = class_store()
        seat = store.student(who.code, who.secret)
    except (ClassNotFound, AccessDenied) as error:
        if from_cookie:  # an old seat of this browser: the join form, without a word
            st.session_state.setdefault(DEAD_SEATS, set()).add(who.secret)
            return None
        credentials.forget_student(keep_code=True)
        st.info(escape_markdown(_gone_message(error, _store_id())), icon=":material/event_busy:")
        return None
    except ValidationError as error:  # the store's setting (IRLAB_CLASS_DB) is wrong
        st.error(escape_markdown(error), icon=":material/database:")
        return None
    credentials.keep_student(who, store.store_id)
    return seat


# --- the student's screen --------------------------------------------------------------------------------------------

def draw(who: Credentials, seat: StudentSeat, store_id: str) -> None:
    """The student's screen as a fragment: the feed first (it reruns only this fragment), then the activity."""
    @st.fragment
    def screen() -> None:
        with class_run_turn():
            try:
                view = seat.view()
            except ValidationError:  # the class ended (or the seat with it) since the page ran: the page says so
                view = None
            except SQLAlchemyError as error:
                store_trouble(error, "a student's page")
                class_feed(student_feed(who.code, who.secret, store_id, None), key=FEED)
                st.warning(READ_TROUBLE, icon=":material/sync:")
                return
            if view is not None:
                class_feed(student_feed(who.code, who.secret, store_id, view), key=FEED)
                _screen(who, view, store_id)
        if view is None:
            st.rerun(scope="app")

    screen()


def _screen(who: Credentials, view: StudentView, store_id: str) -> None:
    name = f" ({escape_markdown(view.nickname)})" if view.nickname else ""
    st.caption(f"Class {escape_markdown(view.code)} \u00b7 you are student {view.number}{name}")
    show_notice(st.session_state.pop(NOTICE, None))
    activity = view.activity
    if activity is None:
        st.info("Waiting for the lecturer: the question appears here by itself.", icon=":material/hourglass_top:")
        return
    pages = pages_of(activity.kind)
    heading = f"{activity.title} \u00b7 round {activity.round_number}" if activity.round_number > 1 else activity.title
    st.subheader(escape_markdown(heading))
    if activity.state == OPEN:
        pages.student_question(activity.question)
        form = pages.answer_form(activity)
        with st.container(key="irl-answer-area"):
            answer_form(answer_data(who.code, who.secret, store_id, activity, form, view.now), key=ANSWER)
    elif activity.state == CLOSED:
        pages.student_question(activity.question)
        timed_out = activity.closes_at is not None and view.now >= activity.closes_at
        why = "Time is up: answers are closed." if timed_out else "Answers are closed."
        yours = f"Your answer: {escape_markdown(activity.answer)}." if activity.answer else "You did not answer."
        st.info(f"{why} {yours} Wait for the lecturer.", icon=":material/lock:")
    else:
        pages.student_result(activity)
        with st.expander("The question"):
            pages.student_question(activity.question)


def join_page() -> None:
    """The whole page below its title, in its turn (after a replica died, its students' pages all come back at once:
    :data:`~irlab.ui.classroom.connection.CLASS_RUNS_AT_ONCE`)."""
    class_style()
    with class_run_turn(), st.container(key="irl-student"):
        heading = st.empty()
        who, from_cookie = credentials.student(), False
        if who is None:
            who, from_cookie = _browser_seat(credentials.link_code()), True
        try:
            seat = open_seat(who, from_cookie=from_cookie) if who is not None else None
            if seat is None:
                page_title(heading, in_class=False)
                show_notice(st.session_state.pop(NOTICE, None))
                join_form()
                return
            page_title(heading, in_class=True)
            with st.container():  # shown once: the screen's fragment below keeps its place (lecturer.py says why)
                if from_cookie:
                    st.success(f"Welcome back: this browser is student {seat.student_number()} in this class.",
                               icon=":material/check_circle:")
            draw(who, seat, class_store().store_id)
        except SQLAlchemyError as error:  # the store is restarting: the page says so and tries again
            store_trouble(error, "a student's page")
            st.warning(READ_TROUBLE, icon=":material/sync:")
            page_title(heading, in_class=who is not None)
            if who is not None:
                class_feed(student_feed(who.code, who.secret, "", None), key=FEED)
            else:
                join_form()

