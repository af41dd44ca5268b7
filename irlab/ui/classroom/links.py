"""The class's links as a browser opens them, and the walkthrough state a question is about.

The store knows links only relative to the app (``/join?code=ABCDEF``, :class:`~irlab.classroom.records.
NewClass`); a QR code and a link read aloud need the whole address. The lecturer's own links use the
address their browser opened (``st.context.url``: scheme, host and port, plus Streamlit's
``server.baseUrlPath``). The students' join link must be one their phones can open
(:func:`join_address`): the configured public address (``IRLAB_PUBLIC_URL``, e.g. the university's
``https://irlab.example.org``; deploy/run-local sets it when it listens on the network), else the
lecturer's address, except that a browser on the server itself sees ``localhost``, which a phone cannot
open: then the server's address on its network, when Streamlit listens there. A join link that is
still a loopback address comes with a warning for the lecturer (:func:`unreachable_warning`).

A question is about a walkthrough state: the one the lecturer's own session holds (the walkthrough
keeps it in ``st.session_state`` under :data:`WALKTHROUGH_STATE`; a product never imports another,
so the key is named here and a test keeps the two equal), or the one a pasted walkthrough link
describes (:func:`state_of_link`, strict: a parameter the walkthrough would ignore is an error).
"""

from __future__ import annotations

import ipaddress
import os
import socket
from collections.abc import Mapping
from urllib.parse import parse_qsl, urlsplit

import streamlit as st

from irlab.classroom.records import NewClass
from irlab.errors import ValidationError
from irlab.ui.kit.markdown import escape_markdown
from irlab.walkthrough.chapters import BY_SLUG, CHAPTERS, Chapter
from irlab.walkthrough.state import DEFAULT_STATE, WalkthroughState
from irlab.walkthrough.urlstate import state_from_params

PUBLIC_URL = "IRLAB_PUBLIC_URL"
"""The address students open the app at, when it is not the lecturer's (a proxy, a public name)."""
WALKTHROUGH_STATE = "irlab.state"
"""Where the walkthrough keeps the learner's state in the session (``irlab.ui.walkthrough.state.STATE``)."""
MAX_LINK = 2000


def app_address() -> str:
    """The app's address as this browser sees it (``http://host:port`` plus the base path), or "" when unknown
    (a script run outside a browser, such as AppTest)."""
    return address_of(st.context.url or "", st.get_option("server.baseUrlPath") or "")


def address_of(page_url: str, base_path: str = "") -> str:
    """The app's address from a page's URL and the server's base path.

    >>> address_of("http://10.0.0.5:8080/class?code=ABCDEF&key=x"), address_of("https://lab.example.org/ir/class", "ir")
    ('http://10.0.0.5:8080', 'https://lab.example.org/ir')
    >>> address_of("")
    ''
    """
    parts = urlsplit(page_url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return ""
    base = base_path.strip("/")
    return f"{parts.scheme}://{parts.netloc}" + (f"/{base}" if base else "")


def join_link(address: str, code: str, store_id: str = "") -> str:
    """The students' link: absolute when the app's address is known, with the store's id when given.

    >>> join_link("http://10.0.0.5:8080", "ABCDEF"), join_link("", "ABCDEF", "1a2b3c4d")
    ('http://10.0.0.5:8080/join?code=ABCDEF', '/join?code=ABCDEF&s=1a2b3c4d')
    """
    return address + NewClass(code, "").join_path + (f"&s={store_id}" if store_id else "")


def public_address(environ: Mapping[str, str] = os.environ) -> str:
    """``IRLAB_PUBLIC_URL`` as an app address (scheme, host, port, path; no trailing slash), or "" when unset or not
    an http(s) address.

    >>> public_address({"IRLAB_PUBLIC_URL": "https://irlab.example.org/ir/"}), public_address({})
    ('https://irlab.example.org/ir', '')
    >>> public_address({"IRLAB_PUBLIC_URL": "javascript:alert(1)"})
    ''
    """
    raw = environ.get(PUBLIC_URL, "").strip()
    parts = urlsplit(raw)
    if parts.scheme not in ("http", "https") or not parts.netloc or len(raw) > 300 or parts.query or parts.fragment:
        return ""
    return f"{parts.scheme}://{parts.netloc}{parts.path.rstrip('/')}"


def is_loopback_host(address: str) -> bool:
    """Whether the app ``address`` names this machine only (localhost, 127.x, ::1), which no phone can open.

    >>> is_loopback_host("http://localhost:8501"), is_loopback_host("http://127.0.0.1:8080/ir")
    (True, True)
    >>> is_loopback_host("http://[::1]:8501"), is_loopback_host("http://10.0.0.5:8501"), is_loopback_host("")
    (True, False, False)
    """
    host = urlsplit(address).hostname or ""
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def network_ip() -> str | None:
    """This machine's address on its network (the one it would use to reach the internet; nothing is sent), or None."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: a route is looked up, no packet leaves
            found = probe.getsockname()[0]
        except OSError:
            return None
    return None if ipaddress.ip_address(found).is_loopback else found


def join_address(browser_address: str, environ: Mapping[str, str] = os.environ) -> str:
    """The app's address for the students' join link (see the module's text)."""
    public = public_address(environ)
    if public or not is_loopback_host(browser_address):
        return public or browser_address
    listening = (st.get_option("server.address") or "").strip()
    if listening and listening not in ("0.0.0.0", "::"):
        return browser_address  # Streamlit listens on this machine only: no address on the network serves it
    found = network_ip()
    if found is None:
        return browser_address
    parts = urlsplit(browser_address)
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{found}{port}{parts.path}"


def unreachable_warning(join_at: str) -> str | None:
    """What the lecturer must know when the join link names this machine only, else None."""
    if not is_loopback_host(join_at):
        return None
    return (f"Students cannot open {join_at} from their phones: it names this computer only. Serve the app on the "
            f"network (deploy/run-local --host 0.0.0.0, or streamlit run app.py without --server.address), or set "
            f"{PUBLIC_URL} to the address students open.")


def lecturer_link(address: str, code: str, key: str) -> str:
    """The lecturer's capability link (whoever has it runs the class)."""
    return address + NewClass(code, key).lecturer_path


def session_state_of_walkthrough() -> WalkthroughState:
    """The walkthrough as it stands in this session (the default state when no chapter was opened)."""
    state = st.session_state.get(WALKTHROUGH_STATE)
    return state if isinstance(state, WalkthroughState) else DEFAULT_STATE


def state_of_link(link: object) -> tuple[Chapter, WalkthroughState]:
    """The chapter and state a walkthrough link opens; ValidationError (one line) when it is not such a link.

    >>> chapter, state = state_of_link("http://localhost:8501/ndcg?order=2,1,3,4,5,6,7,8&k=3&rel=graded")
    >>> chapter.slug, state.order[:2], state.k, state.mode
    ('ndcg', ('2', '1'), 3, 'graded')
    >>> state_of_link("http://localhost:8501/ndcg?k=12")
    Traceback (most recent call last):
    ...
    irlab.errors.ValidationError: The link's k='12' was ignored: K must be between 1 and 8. Using the chapter's default.
    """
    if not isinstance(link, str) or not link.strip() or len(link) > MAX_LINK:
        raise ValidationError(f"Paste a link to a walkthrough chapter (at most {MAX_LINK:,} characters).")
    parts = urlsplit(link.strip())
    slug = parts.path.rstrip("/").rsplit("/", 1)[-1]
    if slug not in BY_SLUG:
        raise ValidationError("This is not a link to a walkthrough chapter: open the chapter, then copy its link.")
    params = {name: value for name, value in parse_qsl(parts.query) if name != "present"}
    state, notices = state_from_params(params)
    if notices:
        raise ValidationError(notices[0])
    return BY_SLUG[slug], state


FROM_SESSION, FROM_LINK = "The walkthrough as it stands in this session", "A walkthrough link"
"""Where a question's walkthrough state comes from: the lecturer's own session, or a link they paste."""


PickedState = tuple[Chapter, WalkthroughState, str | None]
"""A question's chapter, its walkthrough state, and the link it came from (None: the lecturer's session)."""


def pick_state(prefix: str, label: str, *, chapter_slug: str,
               placeholder: str = "http://.../ndcg?order=2,1,...&k=3") -> PickedState | None:
    """The lecturer's choice of a walkthrough state for a question: (chapter, state, the link or None), or None
    while a link is missing or refused (the refusal shown as a warning). Widgets keyed under ``prefix``."""
    source = st.radio(label, (FROM_SESSION, FROM_LINK), key=f"{prefix}source")
    if source == FROM_SESSION:
        chapter = st.selectbox("Chapter", CHAPTERS, index=CHAPTERS.index(BY_SLUG[chapter_slug]),
                               format_func=lambda c: f"{c.number}. {c.title}", key=f"{prefix}chapter")
        return chapter, session_state_of_walkthrough(), None
    link = st.text_input("Walkthrough link", key=f"{prefix}link", placeholder=placeholder,
                         help="Open a chapter, set the ranking, K and mode, and copy its link (sidebar).")
    if not link:
        return None
    try:
        chapter, state = state_of_link(link)
    except ValidationError as error:
        st.warning(escape_markdown(error), icon=":material/link_off:")
        return None
    return chapter, state, link
