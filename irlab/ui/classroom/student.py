"""The student's page, /join: join with a code, wait, answer, and see whether and why the answer was right.

``/join`` (or ``/join?code=ABCDEF`` from the QR code) asks for the code and an optional nickname.
Joining gives the student a token, kept in the session and in the link
(``/join?code=ABCDEF&student=TOKEN``), so a reload, or the reconnection to another replica after one
died, finds the same student with the same answers. The page then shows the activity the lecturer has
open, or "waiting for the lecturer".

Live without push: the page is drawn by a full run; the student's screen is a fragment of its own (sending an
answer reruns only that part, not the navigation around it); a tiny fragment polls the class's student version
(one row, :meth:`~irlab.classroom.ClassStore.versions`) every
:data:`~irlab.ui.classroom.connection.STUDENT_POLL_SECONDS` and reruns the page only when it changed (the
lecturer opened, closed, revealed or moved on). A classmate's answer does not change it, so an idle
student costs one small query a poll, and a text being typed stays as it is.

Everything a student sends is checked by the store (the code, the nickname, the answer, the round);
malformed codes are refused here before they reach the store's guessing limit, so a typo such as
``ABC0EF`` does not count against the class's address. Messages are shown as plain text.
"""

from __future__ import annotations

from functools import partial

import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from irlab.classroom.activities.base import CLOSED, OPEN
from irlab.classroom.records import StudentView
from irlab.classroom.refusals import AccessDenied, ClassNotFound, NotAccepting
from irlab.classroom.student import StudentSeat
from irlab.classroom.tokens import normalise_code
from irlab.errors import ValidationError
from irlab.ui.classroom import credentials
from irlab.ui.classroom.connection import STUDENT_POLL_SECONDS, class_store, client_address, session_id
from irlab.ui.classroom.credentials import Credentials
from irlab.ui.classroom.kinds import pages_of
from irlab.ui.classroom.style import class_style, show_notice
from irlab.ui.kit.markdown import escape_markdown

NOTICE = "irlab.class.student_notice"
CODE_BOX, NICKNAME_BOX = "irl-join-code", "irl-nickname"
UNREACHABLE = "The class did not answer; send it again in a moment."


def _say(text: str, kind: str = "error") -> None:
    st.session_state[NOTICE] = (kind, text)


# --- joining ---------------------------------------------------------------------------------------------------------

def _join() -> None:
    try:
        code = normalise_code(st.session_state.get(CODE_BOX, ""))
        seat = class_store().join(code, nickname=st.session_state.get(NICKNAME_BOX) or None, session=session_id(),
                                  address=client_address())
    except ValidationError as error:
        _say(str(error))
        return
    except SQLAlchemyError:
        _say(UNREACHABLE)
        return
    credentials.keep_student(Credentials(seat.code, seat.token))


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


def open_seat(who: Credentials) -> StudentSeat | None:
    """The student's seat from their code and token, or None (with the reason on screen) when it is gone."""
    try:
        seat = class_store().student(who.code, who.secret)
    except ClassNotFound as error:
        credentials.forget_student()
        st.info(escape_markdown(error), icon=":material/event_busy:")
        return None
    except AccessDenied as error:
        credentials.forget_student(keep_code=True)
        st.warning(escape_markdown(error), icon=":material/person_off:")
        return None
    except ValidationError as error:  # the store's setting (IRLAB_CLASS_DB) is wrong
        st.error(escape_markdown(error), icon=":material/database:")
        return None
    credentials.keep_student(who)
    return seat


# --- answering ------------------------------------------------------------------------------------------------------

def _send(who: Credentials, round_id: int, key: str) -> None:
    """Callback of an answer form: the text under ``key`` as the answer to ``round_id``."""
    try:
        receipt = class_store().student(who.code, who.secret).answer(round_id, st.session_state.get(key, ""))
    except NotAccepting as error:
        _say(str(error), "warning")
    except ValidationError as error:
        _say(str(error))
    except SQLAlchemyError:
        _say(UNREACHABLE)
    else:
        _say(receipt.message, "success")


def draw(who: Credentials, seat: StudentSeat) -> int:
    """The student's screen, as a fragment (sending an answer reruns only it, not the page); returns the class's
    student version it showed first."""
    shown: list[int] = []

    @st.fragment
    def screen() -> None:
        try:
            view = seat.view()
        except ValidationError:  # the class ended (or the seat with it) since the page ran: the page says so
            st.rerun(scope="app")
        shown.append(view.version)
        _screen(who, view)

    screen()
    return shown[0]


def _screen(who: Credentials, view: StudentView) -> None:
    name = f" ({escape_markdown(view.nickname)})" if view.nickname else ""
    st.caption(f"Class {escape_markdown(view.code)} \u00b7 you are student {view.number}{name}")
    notice = st.session_state.pop(NOTICE, None)
    activity = view.activity
    if activity is None or activity.state != OPEN:
        show_notice(notice)
    if activity is None:
        st.info("Waiting for the lecturer: the question appears here by itself.", icon=":material/hourglass_top:")
        return
    pages = pages_of(activity.kind)
    heading = f"{activity.title} \u00b7 round {activity.round_number}" if activity.round_number > 1 else activity.title
    st.subheader(escape_markdown(heading))
    if activity.state == OPEN:
        pages.student_question(activity.question)
        if activity.answer is not None and notice is None:  # a receipt just below says the same
            st.caption(f"Your answer in this round: {escape_markdown(activity.answer)}. Send another to replace it.")
        pages.answer_box(activity, partial(_send, who, activity.round_id))
        show_notice(notice)  # under the Send button, where the thumb is
    elif activity.state == CLOSED:
        pages.student_question(activity.question)
        yours = f"Your answer: {escape_markdown(activity.answer)}." if activity.answer else "You did not answer."
        st.info(f"Answers are closed. {yours} Wait for the lecturer.", icon=":material/lock:")
    else:
        pages.student_result(activity)
        with st.expander("The question"):
            pages.student_question(activity.question)


def watch(code: str, shown: int) -> None:
    """The poll: rerun the page when the class's student version is no longer ``shown`` (or the class ended)."""
    @st.fragment(run_every=STUDENT_POLL_SECONDS)
    def poll() -> None:
        try:
            versions = class_store().versions(code)
        except (SQLAlchemyError, ValidationError):  # the store is restarting: ask again at the next poll
            return
        if versions is None or versions.student != shown:
            st.rerun(scope="app")

    poll()


def join_page() -> None:
    """The whole page below its title."""
    class_style()
    with st.container(key="irl-student"):
        who = credentials.student()
        try:
            seat = open_seat(who) if who is not None else None
            if seat is None:
                show_notice(st.session_state.pop(NOTICE, None))
                join_form()
                return
            shown = draw(who, seat)
        except SQLAlchemyError:  # the store is restarting: the poll reruns the page once it answers again
            st.warning("The class did not answer; this page tries again by itself.", icon=":material/sync:")
            shown = -1
    watch(who.code, shown)
