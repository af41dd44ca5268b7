"""What the class sees on the lecturer's screen: how to join, how many joined and answered, the timer, the question,
the reveal.

The projector is a fragment whose first element is the class's feed (:mod:`irlab.ui.components.classfeed`):
it follows the class through the app's event stream, draws the timer and the counts (students joined, how
many do not follow, answers per round) from each pulse itself, at once, and reruns the fragment only for
the rest: at once for a lecturer's move or the timer's end (then the whole page, whose round controls change
too), at most once a second while answers arrive.
A run reads the class's two version numbers (one row) and the whole :class:`~irlab.classroom.records.
ProjectorView` only when one changed; otherwise it redraws the view it kept in the session, which costs
the browser nothing (the live region compares digests and touches only what changed).

Layout, for 1920x1080 and the back row: the timer and the counts on top; before the first question,
the join code in very large type, the join link and its QR code; once a question is shown, the same in
one strip (latecomers still join; "joining is closed" once the lecturer locked it), the question with
its ranking, and after the reveal the rounds side by side with the right answer and why. The answers'
spread appears only once revealed, unless the lecturer shows it live. Nicknames appear only when the
lecturer turned them on. The lecturer's key is never drawn here.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from irlab.classroom.activities.base import CLOSED, REVEALED
from irlab.classroom.records import ProjectorView
from irlab.errors import ValidationError
from irlab.ui.classroom.connection import class_run_turn, class_store, store_trouble
from irlab.ui.classroom.credentials import Credentials
from irlab.ui.classroom.kinds import pages_of
from irlab.ui.classroom.links import join_link
from irlab.ui.classroom.live import projector_feed
from irlab.ui.classroom.qr import qr_svg
from irlab.ui.components.classfeed import class_feed
from irlab.ui.components.region import live_region
from irlab.ui.shell.error_boundary import error_boundary

VIEW = "irlab.class.projector_view"
"""The last :class:`ProjectorView` this session read (redrawn while the class's versions stay the same)."""
PAGE_VIEW = "irlab.class.page_view"
"""The :class:`ProjectorView` the whole page (its round controls, the desk) was last drawn from."""
REGION = "irl-class-region"
FEED = "irl-projector-feed"
MAX_NAMES_SHOWN = 120
HIDDEN = "The class's answers stay hidden until you reveal them."
TIME_UP = "Time is up: answers are closed."
CLOSED_WORDS = "Answers are closed."


def read_view(credentials: Credentials) -> ProjectorView | None:
    """The projector's view, read again only when the class changed (or a timer ran out); None once the class has
    ended (or the key does not run it: checked on every full read)."""
    store = class_store()
    versions = store.versions(credentials.code)
    if versions is None:
        return None
    kept = st.session_state.get(VIEW)
    if isinstance(kept, ProjectorView) and kept.code == credentials.code and kept.versions == versions \
            and not _timer_ran_out(kept, store.clock()):
        return kept
    view = store.lecturer(credentials.code, credentials.secret).projector()
    st.session_state[VIEW] = view
    return view


def _timer_ran_out(view: ProjectorView, now: float) -> bool:
    latest = view.current.latest if view.current is not None else None
    return latest is not None and latest.state == "open" and latest.closes_at is not None and now >= latest.closes_at


def join_header(code: str, address: str, *, large: bool, store_id: str = "", locked: bool = False) -> None:
    """How to join: the link's address, the code, the whole link and its QR code (large before the first question);
    once the lecturer locked joining, that instead.

    One Markdown element with HTML: ``st.html``'s sanitiser keeps only HTML and would drop the QR code's SVG.
    Everything in it is ours: the code (its alphabet has no markup), the link escaped, segno's SVG.
    """
    size = "irl-join-large" if large else "irl-join-small"
    if locked:
        st.markdown(f'<div class="irl-join {size}" data-testid="irl-join"><div class="irl-join-words">'
                    f'<div class="irl-join-at">Joining is closed \u00b7 class</div>'
                    f'<div class="irl-code" data-testid="irl-code" aria-label="class {" ".join(code)}">'
                    f"{html.escape(code)}</div></div></div>", unsafe_allow_html=True)
        return
    link = join_link(address, code, store_id)
    where = link.split("://", 1)[-1].split("?", 1)[0]
    qr = f'<div class="irl-join-qr">{qr_svg(link)}</div>' if address else ""  # a QR code needs the whole address
    st.markdown(f'<div class="irl-join {size}" data-testid="irl-join"><div class="irl-join-words">'
                f'<div class="irl-join-at">Join at <strong>{html.escape(where)}</strong> with the code</div>'
                f'<div class="irl-code" data-testid="irl-code" aria-label="join code {" ".join(code)}">'
                f'{html.escape(code)}</div><div class="irl-join-link" data-testid="irl-join-link">{html.escape(link)}'
                f'</div>'
                f"</div>{qr}</div>", unsafe_allow_html=True)


def names_block(names: Sequence[str]) -> dict:
    """The nicknames (only when the lecturer turned them on), as plain text."""
    shown = ", ".join(names[:MAX_NAMES_SHOWN]) or "nobody has given a nickname"
    more = f" and {len(names) - MAX_NAMES_SHOWN} more" if len(names) > MAX_NAMES_SHOWN else ""
    return {"kind": "paragraph", "key": "names", "lead": "Joined:", "text": shown + more}


def region_blocks(view: ProjectorView) -> list[dict]:
    """The live region's blocks for ``view`` (the counts and the timer are the feed's)."""
    blocks: list[dict] = []
    if view.show_names:
        blocks.append(names_block(view.names))
    if view.current is None:
        blocks.append({"kind": "paragraph", "key": "waiting", "lead": "",
                       "text": "Waiting for the first question." if not view.activities else
                       "Waiting for the next question."})
        return blocks
    info = view.current.info
    blocks.append({"kind": "paragraph", "key": "which", "lead": f"Question {info.position} of "
                   f"{len(view.activities)}:", "text": info.title})
    latest = view.current.latest
    if latest is not None and latest.state == CLOSED:  # the room sees the round end (the timer is gone with it)
        timed_out = latest.closes_at is not None and view.now >= latest.closes_at
        blocks.append({"kind": "paragraph", "key": "closed", "lead": "",
                       "text": TIME_UP if timed_out else CLOSED_WORDS})
    if not info.live_results and latest is not None and latest.state != REVEALED:
        blocks.append({"kind": "paragraph", "key": "hidden", "lead": "", "text": HIDDEN})
    return blocks + pages_of(info.kind).projector_blocks(view.current)


def draw(view: ProjectorView, address: str, who: Credentials, store_id: str, *, held: bool = False) -> None:
    """The projector for ``view``: the feed first (it reruns this fragment), the join header, the live region
    (``held``: an older view, kept while the store does not answer)."""
    with st.container(key="irl-projector"):
        class_feed(projector_feed(who.code, who.secret, store_id, view, held=held), key=FEED)
        join_header(view.code, address, large=view.current is None, store_id=store_id,
                    locked=view.joining_locked)
        live_region(region_blocks(view), key=REGION, present=True)
        if view.current is not None:
            links = pages_of(view.current.info.kind).projector_links(view.current)
            if links:
                with st.container(key="irl-projector-links", horizontal=True):
                    for label, path in links:
                        st.link_button(label, f"{address}/{path}", icon=":material/open_in_new:")


def live_projector(credentials: Credentials, address: str, store_id: str) -> None:
    """The projector as a fragment that its feed reruns (see the module's text), in a container of its own so that
    what the page draws below it stays when the fragment reruns."""

    @st.fragment
    def projector() -> None:
        with error_boundary("class"), class_run_turn():
            try:
                view = read_view(credentials)
                if view is None:  # the class has ended: the page says so
                    st.rerun(scope="app")
            except SQLAlchemyError as error:  # the database is restarting, or busy beyond its timeout
                store_trouble(error, "the projector")
                st.caption("The class store did not answer; the projector keeps the last view and tries again.")
                view = st.session_state.get(VIEW)
                if not isinstance(view, ProjectorView):
                    class_feed(projector_feed(credentials.code, credentials.secret, store_id, None), key=FEED)
                    return
                draw(view, address, credentials, store_id, held=True)
                return
            except ValidationError:  # the key stopped working (the class was deleted): the page says why
                st.rerun(scope="app")
            drawn = st.session_state.get(PAGE_VIEW)
            if isinstance(drawn, ProjectorView) and drawn.versions.student != view.versions.student:
                st.rerun(scope="app")  # a round opened, closed (its timer ran out) or revealed: the controls change too
            draw(view, address, credentials, store_id)

    with st.container(key="irl-projector-fragment"):
        projector()
