"""The lecturer's desk: starting a class, the questions, the round controls, names, the CSV, deleting.

Every action is a button's callback that asks the store for the lecturer's desk with the code and
key of this session (:mod:`irlab.ui.classroom.credentials`) and acts at once; the store checks the
key on every call, and a refusal (a wrong key, an ended class, a round that is not open) comes back
as one line shown on the next run. Callbacks run before the page, so the page then draws the new
state, and the projector's fragment (:mod:`irlab.ui.classroom.projector`) follows within a poll.

Where things are: the round controls (close, reveal, revote, hide, and whether the projector shows the
answers before the reveal) sit above the projector, in the main area, as large buttons; everything else is
in the sidebar, which the lecturer folds away while projecting: the class's code and how many students follow
live, then three tabs, so that every control is on the first screen of a 1280x800 projector (the app's
links fold into one line above them, :mod:`irlab.ui.shell.navigation`): adding a question, the class's
questions (show one again), and the class (the timer of each round, locking joining, nicknames, the CSV,
the lecturer link, deleting the class).

A store error in any action says so in one line (the next run's message) and goes to the log.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from irlab.classroom.activities import KINDS
from irlab.classroom.activities.base import CLOSED, OPEN, REVEALED
from irlab.classroom.lecturer import TIMERS, LecturerDesk
from irlab.classroom.records import ActivityInfo, ProjectorView
from irlab.errors import ValidationError
from irlab.ui.classroom import credentials
from irlab.ui.classroom.connection import class_store, client_address, session_id, store_trouble
from irlab.ui.classroom.credentials import Credentials
from irlab.ui.classroom.kinds import pages_of
from irlab.ui.classroom.links import lecturer_link

NOTICE = "irlab.class.desk_notice"
"""A one-line message from the last action (a refusal, or what happened), shown once."""
FORM = "irl-add-"
UNREACHABLE = "The class store did not answer; try again in a moment."


def take_notice() -> tuple[str, str] | None:
    """The last action's message (kind, text), once."""
    return st.session_state.pop(NOTICE, None)


def _say(text: str, kind: str = "error") -> None:
    st.session_state[NOTICE] = (kind, text)


# --- starting ----------------------------------------------------------------------------------------------------

def _start() -> None:
    try:
        store = class_store()
        new = store.start_class(session=session_id(), address=client_address())
    except ValidationError as error:
        _say(str(error))
        return
    except SQLAlchemyError as error:
        store_trouble(error, "starting a class")
        _say(UNREACHABLE)
        return
    st.session_state.pop("irlab.class.projector_view", None)
    credentials.keep_lecturer(Credentials(new.code, new.key), store.store_id)
    _say("Class started. Your lecturer link, to reopen it after a reload or on another device, is in the sidebar "
         "under \u201cThe class\u201d (keep it private).", "success")


def start_screen() -> None:
    """No class yet: what a class is, and the button that starts one."""
    st.markdown(
        "Run the lecture's questions with the whole class: students join on a laptop or a phone with a short "
        "code or a QR code, then predict a number a chapter shows, drag the pictures into an order toward a "
        "goal, pick which is it, or work their own variant of an exercise; you reveal the class's answers (the "
        "distribution, the share right and the named mistakes), then a second vote after discussion. Students "
        "stay anonymous unless you turn nicknames on.")
    st.button("Start a class", type="primary", icon=":material/groups:", on_click=_start, key="irl-start")
    st.caption("The class and its answers are kept until 24 hours after its last activity (the server's "
               "IRLAB_CLASS_RETENTION_HOURS), or until you delete it.")


# --- actions -------------------------------------------------------------------------------------------------------

def act(who: Credentials, action: Callable[[LecturerDesk], object], done: str | None = None) -> bool:
    """Callback: ``action`` on the lecturer's desk; a refusal (or ``done``) becomes the next run's message.
    Whether it happened."""
    try:
        action(class_store().lecturer(who.code, who.secret))
    except ValidationError as error:
        _say(str(error))
        return False
    except SQLAlchemyError as error:
        store_trouble(error, "a lecturer's action")
        _say(UNREACHABLE)
        return False
    if done:
        _say(done, "success")
    return True


def _add(who: Credentials, kind: str, raw: dict, show: bool) -> None:
    def add(desk: LecturerDesk) -> None:
        info = desk.add_activity(kind, raw)
        if show:
            desk.show(info.id)
    act(who, add, None if show else "Added to the questions; show it when you are ready.")


def _delete(who: Credentials) -> None:
    if act(who, lambda desk: desk.delete_class(), "The class was deleted with all its answers."):
        credentials.forget_lecturer()


def _names(who: Credentials) -> None:
    act(who, lambda desk: desk.set_show_names(bool(st.session_state.get("irl-names"))))


def _locked(who: Credentials) -> None:
    locked = bool(st.session_state.get("irl-lock"))
    act(who, lambda desk: desk.set_joining_locked(locked),
        "Joining is locked: nobody new can join (students who joined stay)." if locked else
        "Joining is open again.")


def _live(who: Credentials) -> None:
    act(who, lambda desk: desk.set_live_results(bool(st.session_state.get("irl-live-results"))))


TIMER_LABELS = {None: "No timer", **{seconds: f"{seconds} s" if seconds < 60 else f"{seconds // 60} min"
                                     for seconds in TIMERS}}
"""The timer's choices as the sidebar names them."""


def _timer(who: Credentials) -> None:
    seconds = st.session_state.get("irl-timer")
    act(who, lambda desk: desk.set_timer(seconds))

# --- the round controls (main area) --------------------------------------------------------------------------------

def round_controls(who: Credentials, view: ProjectorView) -> None:
    """Close, reveal, revote and hide, as the current round allows; above the projector."""
    current = view.current
    if current is None or current.latest is None:
        return
    latest = current.latest
    buttons: list[tuple[str, str, Callable[[LecturerDesk], object], str]] = []
    if latest.state == OPEN:
        buttons.append(("Close answers", ":material/lock:", lambda desk: desk.close(), "secondary"))
    if latest.state in (OPEN, CLOSED):
        buttons.append(("Reveal", ":material/visibility:", lambda desk: desk.reveal(), "primary"))
    if latest.state in (CLOSED, REVEALED):
        buttons.append((f"Revote: open round {latest.number + 1}", ":material/replay:", lambda desk: desk.reopen(),
                        "primary" if latest.state == REVEALED else "secondary"))
    buttons.append(("Hide the question", ":material/pause:", lambda desk: desk.stand_by(), "tertiary"))
    with st.container(key="irl-round-controls", horizontal=True, vertical_alignment="center"):
        for label, icon, action, kind in buttons:
            st.button(label, icon=icon, type=kind, on_click=act, args=(who, action),
                      key=f"irl-control-{label.split(':')[0].lower().replace(' ', '-')}")
        st.session_state["irl-live-results"] = current.info.live_results  # the store's value
        st.toggle("Show answers live", key="irl-live-results", on_change=_live, args=(who,),
                  help="Off (peer instruction): the projector shows how many answered and hides what they answered "
                       "until you reveal. On: the answers' spread shows while the round runs (never the right "
                       "answer).")


# --- the sidebar ----------------------------------------------------------------------------------------------------

def _activity_label(info: ActivityInfo) -> str:
    state = {None: "not shown yet", OPEN: "open", CLOSED: "closed", REVEALED: "revealed"}.get(info.state, info.state)
    rounds = f", {info.rounds} rounds" if info.rounds > 1 else ""
    shown = " \u2190 on the projector" if info.current else ""
    return f"{info.position}. {info.title} ({state}{rounds}){shown}"


def lecturer_link_box(who: Credentials, address: str, store_id: str = "") -> None:
    """The lecturer link behind a closed expander (never on the projector), with its copy button."""
    with st.expander("Your lecturer link (private)", icon=":material/key:"):
        st.markdown("**Whoever has this link runs the class.** Keep it to reopen the class after a reload or on "
                    "another device; never show it to students. Project in full screen (F11), so the address "
                    "bar, which holds it, is not projected either.")
        link = lecturer_link(address, who.code, who.secret) + (f"&s={store_id}" if store_id else "")
        st.code(link, language=None, wrap_lines=True)


def add_question(who: Credentials) -> None:
    """A new question: its kind's form, then add it (and show it now, or later)."""
    kinds = list(KINDS)
    kind = kinds[0] if len(kinds) == 1 else st.selectbox(
        "Kind", kinds, format_func=lambda name: KINDS[name].title, key=f"{FORM}kind")
    raw = pages_of(kind).settings_form(f"{FORM}{kind}.")
    now, later = st.columns(2)
    now.button("Add and show", type="primary", disabled=raw is None, on_click=_add, args=(who, kind, raw, True),
               key=f"{FORM}show", width="stretch")
    later.button("Add for later", disabled=raw is None, on_click=_add, args=(who, kind, raw, False),
                 key=f"{FORM}later", width="stretch")


def questions(who: Credentials, view: ProjectorView) -> None:
    """The class's questions in order: show any of them again (going back), with its rounds kept."""
    if not view.activities:
        st.caption("No questions yet: add one (\u201cAdd a question\u201d).")
        return
    ids = [info.id for info in view.activities]
    by_id = {info.id: info for info in view.activities}
    current = next((i for i, info in enumerate(view.activities) if info.current), len(ids) - 1)
    if st.session_state.get("irl-question-shown") != ids[current]:  # another question shown: the box follows it
        st.session_state["irl-question-shown"] = st.session_state["irl-question-pick"] = ids[current]
    chosen = st.selectbox("Question", ids, index=current, format_func=lambda i: _activity_label(by_id[i]),
                          key="irl-question-pick", label_visibility="collapsed")
    st.button("Show this question", icon=":material/slideshow:", on_click=act,
              args=(who, lambda desk: desk.show(chosen)), key="irl-show-question", width="stretch")


def class_settings(who: Credentials, view: ProjectorView, address: str, store_id: str = "") -> None:
    """The timer of each round, locked joining, nicknames on the projector, all answers as CSV, the lecturer link
    and deleting the class now."""
    st.session_state["irl-timer"] = view.timer_seconds if view.timer_seconds in TIMERS else None  # the store's
    st.radio("Timer for each round", list(TIMER_LABELS), format_func=TIMER_LABELS.get, key="irl-timer",
             horizontal=True, on_change=_timer, args=(who,),
             help="Each round you open closes itself when its timer runs out; phones and the projector count down. "
                  "Changing it while a round is open restarts that round's timer from now.")
    st.session_state["irl-lock"] = view.joining_locked
    st.toggle("Lock joining", key="irl-lock", on_change=_locked, args=(who,),
              help="Once everyone is in: nobody new can join, and a code typed at the back of the hall reads like a "
                   "wrong one. Students who joined stay.")
    st.session_state["irl-names"] = view.show_names  # the store's value, whatever this widget said before
    st.toggle("Show nicknames on the projector", key="irl-names", on_change=_names, args=(who,),
              help="Off by default: students stay anonymous to each other.")
    try:
        answers = class_store().lecturer(who.code, who.secret).export_csv()
    except ValidationError:
        answers = None
    except SQLAlchemyError as error:
        store_trouble(error, "the lecturer's CSV")
        answers = None
    st.download_button("Download all answers (CSV)", data=answers or "", file_name=f"irlab-class-{who.code}.csv",
                       mime="text/csv", icon=":material/download:", on_click="ignore", disabled=answers is None,
                       key="irl-csv", width="stretch")
    if view.current is not None:  # the shown activity's own files (an exercise: its gradebook)
        for number, (label, name, data) in enumerate(pages_of(view.current.info.kind).downloads(view.current)):
            st.download_button(label, data=data, file_name=name, mime="text/csv", icon=":material/download:",
                               on_click="ignore", key=f"irl-kind-download-{number}", width="stretch")
    lecturer_link_box(who, address, store_id)
    with st.popover("Delete this class now", icon=":material/delete:", width="stretch"):
        st.markdown("This deletes the class, its questions and every answer at once; students see that the class "
                    "has ended. Download the answers first if you want to keep them.")
        st.button("Delete the class", type="primary", on_click=_delete, args=(who,), key="irl-delete")


def following_line(view: ProjectorView) -> str | None:
    """How many students follow the class live, in words (None before any page followed it through a server)."""
    if view.following is None or not view.students:
        return None
    if not view.not_following:
        return f"All {view.students} students follow the class live."
    return f"{view.following} of {view.students} following live."


NOT_FOLLOWING = ("A student who does not follow: their page lost its connection, or the phone is asleep. Their answers "
                 "are kept on the phone and sent when it is back; their page catches up by itself.")


DESK_TABS = ("Add a question", "Questions", "The class")
"""The sidebar desk's tabs (their labels stay the same, so the tab the lecturer chose stays chosen)."""


def sidebar_desk(who: Credentials, view: ProjectorView, address: str, store_id: str = "") -> None:
    """Everything but the round controls, in the sidebar: the class's code, who follows, then the desk's tabs."""
    with st.sidebar, st.container(key="irl-desk"):
        st.subheader(f"Class {view.code}", anchor=False)
        line = following_line(view)
        if line:
            st.caption(line, help=NOT_FOLLOWING if view.not_following else None)
        adding, listed, settings = st.tabs(DESK_TABS, key="irl-desk-tab")
        with adding:
            add_question(who)
        with listed:
            questions(who, view)
        with settings:
            class_settings(who, view, address, store_id)
