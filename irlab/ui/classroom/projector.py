"""What the class sees on the lecturer's screen: how to join, how many joined and answered, the question, the reveal.

The projector is a fragment that reruns every :data:`~irlab.ui.classroom.connection.PROJECTOR_POLL_SECONDS`:
each run reads the class's two version numbers (one row, :meth:`~irlab.classroom.ClassStore.versions`)
and reads the whole :class:`~irlab.classroom.records.ProjectorView` again only when one changed (a join,
an answer, a lecturer action); otherwise it redraws the view it kept in the session, which costs the
browser nothing (the live region compares digests and touches only what changed).

Layout, for 1920x1080 and the back row: before the first question, the join code in very large
type, the join link and its QR code; once a question is shown, the same in one strip (latecomers
still join), the counts (students joined, answers per round), the question with its ranking, and
after the reveal the rounds side by side with the right answer and its breakdown. Nicknames appear
only when the lecturer turned them on. The lecturer's key is never drawn here.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from irlab.classroom.records import ProjectorView
from irlab.errors import ValidationError
from irlab.ui.classroom.connection import PROJECTOR_POLL_SECONDS, class_store
from irlab.ui.classroom.credentials import Credentials
from irlab.ui.classroom.kinds import pages_of
from irlab.ui.classroom.links import join_link
from irlab.ui.classroom.qr import qr_svg
from irlab.ui.components.region import live_region
from irlab.ui.shell.error_boundary import error_boundary

VIEW = "irlab.class.projector_view"
"""The last :class:`ProjectorView` this session read (redrawn while the class's versions stay the same)."""
REGION = "irl-class-region"
MAX_NAMES_SHOWN = 120


def read_view(credentials: Credentials) -> ProjectorView | None:
    """The projector's view, read again only when the class changed; None once the class has ended.

    AccessDenied when the key does not run the class (checked on every full read)."""
    store = class_store()
    versions = store.versions(credentials.code)
    if versions is None:
        return None
    kept = st.session_state.get(VIEW)
    if isinstance(kept, ProjectorView) and kept.code == credentials.code and kept.versions == versions:
        return kept
    view = store.lecturer(credentials.code, credentials.secret).projector()
    st.session_state[VIEW] = view
    return view


def join_header(code: str, address: str, *, large: bool) -> None:
    """How to join: the link's address, the code, the whole link and its QR code (large before the first question).

    One Markdown element with HTML: ``st.html``'s sanitiser keeps only HTML and would drop the QR code's SVG.
    Everything in it is ours: the code (its alphabet has no markup), the link escaped, segno's SVG.
    """
    link = join_link(address, code)
    where = link.split("://", 1)[-1].split("?", 1)[0]
    qr = f'<div class="irl-join-qr">{qr_svg(link)}</div>' if address else ""  # a QR code needs the whole address
    size = "irl-join-large" if large else "irl-join-small"
    st.markdown(f'<div class="irl-join {size}" data-testid="irl-join"><div class="irl-join-words">'
                f'<div class="irl-join-at">Join at <strong>{html.escape(where)}</strong> with the code</div>'
                f'<div class="irl-code" data-testid="irl-code" aria-label="join code {" ".join(code)}">'
                f'{html.escape(code)}</div><div class="irl-join-link" data-testid="irl-join-link">{html.escape(link)}'
                f'</div>'
                f"</div>{qr}</div>", unsafe_allow_html=True)


def counts_block(view: ProjectorView) -> dict:
    """Students joined and each round's answers, as the live region's numbers."""
    items = [("Students joined", view.students)]
    if view.current is not None:
        items += [(f"Answers, round {r.number}", r.answers) for r in view.current.rounds]
    return {"kind": "numbers", "key": "counts", "items": [
        {"label": label, "value": str(value), "delta": "", "trend": None, "help": ""} for label, value in items]}


def names_block(names: Sequence[str]) -> dict:
    """The nicknames (only when the lecturer turned them on), as plain text."""
    shown = ", ".join(names[:MAX_NAMES_SHOWN]) or "nobody has given a nickname"
    more = f" and {len(names) - MAX_NAMES_SHOWN} more" if len(names) > MAX_NAMES_SHOWN else ""
    return {"kind": "paragraph", "key": "names", "lead": "Joined:", "text": shown + more}


def draw(view: ProjectorView, address: str) -> None:
    """The projector for ``view``."""
    with st.container(key="irl-projector"):
        join_header(view.code, address, large=view.current is None)
        blocks = [counts_block(view)]
        if view.show_names:
            blocks.append(names_block(view.names))
        if view.current is None:
            blocks.append({"kind": "paragraph", "key": "waiting", "lead": "",
                           "text": "Waiting for the first question." if not view.activities else
                           "Waiting for the next question."})
        else:
            info = view.current.info
            blocks.append({"kind": "paragraph", "key": "which", "lead": f"Question {info.position} of "
                           f"{len(view.activities)}:", "text": info.title})
            blocks += pages_of(info.kind).projector_blocks(view.current)
        live_region(blocks, key=REGION, present=True)
        if view.current is not None:
            links = pages_of(view.current.info.kind).projector_links(view.current)
            if links:
                with st.container(key="irl-projector-links", horizontal=True):
                    for label, path in links:
                        st.link_button(label, f"{address}/{path}", icon=":material/open_in_new:")


def live_projector(credentials: Credentials, address: str) -> None:
    """The projector as a fragment that polls the store (see the module's text)."""
    @st.fragment(run_every=PROJECTOR_POLL_SECONDS)
    def projector() -> None:
        with error_boundary("class"):
            try:
                view = read_view(credentials)
                if view is None:  # the class has ended: the page says so
                    st.rerun(scope="app")
            except SQLAlchemyError:  # the database is restarting, or busy beyond its timeout: keep the last view
                st.caption("The class store did not answer; trying again.")
                view = st.session_state.get(VIEW)
                if view is None:
                    return
            except ValidationError:  # the key stopped working (the class was deleted): the page says why
                st.rerun(scope="app")
            draw(view, address)

    projector()
