"""A browser tab reduced to Streamlit's protocol, from a client address of the test's choosing.

A browser cannot pick its source address, and the proxy tests need students on different addresses
(all of 127/8 is this machine's loopback): :class:`Tab` opens a page the way Streamlit's frontend does
(``/_stcore/health`` for the XSRF cookie, then the websocket ``/_stcore/stream`` with the
``streamlit`` subprotocol, then a ``rerun_script`` BackMsg per run), over sockets bound to ``source``,
and can send an ``X-Forwarded-For`` of its own, as a student who wants to pass for someone else would.
It reads what a run showed: notices (``alert`` elements), widgets by label, and the page's query string.
bench/class_load.py does the same at scale with the shared load generator.
"""

from __future__ import annotations

import contextlib
import http.client
import socket
import time
from urllib.parse import urlsplit

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from websockets.sync.client import connect

FINISHED, EARLY, FRAGMENT = 0, 2, 3
"""``script_finished`` statuses: a whole run, a run stopped for a rerun (the server goes on), a fragment's run."""


class Tab:
    """One tab of one browser (its own cookies) on ``base`` (``http://host:port``), from address ``source``."""

    def __init__(self, base: str, path: str, *, source: str = "127.0.0.1", forwarded_for: str | None = None,
                 timeout: float = 60) -> None:
        parts = urlsplit(base)
        self.base, self.host, self.port = base, parts.hostname or "127.0.0.1", parts.port or 80
        page = urlsplit(path)
        self.page, self.query = page.path.strip("/"), page.query
        self.source, self.forwarded_for, self.timeout = source, forwarded_for, timeout
        self.cookies: dict[str, str] = {}
        self.page_hash = ""
        self.widgets: dict[str, str] = {}
        self.ws = None
        self._held = contextlib.ExitStack()

    # --- HTTP and the websocket -----------------------------------------------------------------------------------

    def _headers(self) -> dict[str, str]:
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())} if self.cookies else {}
        if self.forwarded_for:
            headers["X-Forwarded-For"] = self.forwarded_for
        return headers

    def get(self, path: str) -> tuple[int, bytes]:
        """One GET from this tab's address and cookies; keeps the cookies the answer sets."""
        connection = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout,
                                                source_address=(self.source, 0))
        try:
            connection.request("GET", path, headers=self._headers())
            response = connection.getresponse()
            for name, value in response.getheaders():
                if name.lower() == "set-cookie":
                    key, _, rest = value.partition("=")
                    self.cookies[key.strip()] = rest.split(";", 1)[0]
            return response.status, response.read()
        finally:
            connection.close()

    def open(self) -> list[str]:
        """Load the page and run it once; the notices it showed."""
        self.get("/" + self.page + (f"?{self.query}" if self.query else ""))
        self.get("/_stcore/health")
        sock = socket.create_connection((self.host, self.port), timeout=self.timeout, source_address=(self.source, 0))
        xsrf = self.cookies.get("_streamlit_xsrf", "")
        self.ws = self._held.enter_context(connect(
            f"ws://{self.host}:{self.port}/_stcore/stream", sock=sock, origin=self.base,
            subprotocols=["streamlit", xsrf or "PLACEHOLDER_AUTH_TOKEN"], additional_headers=self._headers(),
            open_timeout=self.timeout, max_size=None))
        return self.run(first=True)

    def close(self) -> None:
        self._held.close()

    # --- runs -------------------------------------------------------------------------------------------------------

    def run(self, widgets: tuple[tuple[str, str, object], ...] = (), *, first: bool = False) -> list[str]:
        """One run with ``widgets`` (label, value kind, value) set, as the frontend sends it; the notices it showed."""
        message = BackMsg()
        state = message.rerun_script
        state.query_string = self.query
        state.page_script_hash = "" if first else self.page_hash
        state.page_name = self.page if first else ""
        state.widget_states.SetInParent()
        for label, kind, value in widgets:
            widget = state.widget_states.widgets.add()
            widget.id = self.widgets[label]
            setattr(widget, kind, value)
        state.context_info.timezone, state.context_info.locale = "Europe/Amsterdam", "en-US"
        state.context_info.url = f"{self.base}/{self.page}" + (f"?{self.query}" if self.query else "")
        self.ws.send(message.SerializeToString())
        notices: list[str] = []
        deadline = time.monotonic() + self.timeout
        while True:
            forward = ForwardMsg.FromString(self.ws.recv(timeout=max(0.1, deadline - time.monotonic())))
            kind = forward.WhichOneof("type")
            if kind == "navigation" and forward.navigation.page_script_hash:
                self.page_hash = forward.navigation.page_script_hash
            elif kind == "page_info_changed":
                self.query = forward.page_info_changed.query_string
            elif kind == "delta" and forward.delta.WhichOneof("type") == "new_element":
                element = forward.delta.new_element
                which = element.WhichOneof("type")
                if which in ("text_input", "button"):
                    self.widgets[getattr(element, which).label] = getattr(element, which).id
                elif which == "alert":
                    notices.append(element.alert.body.replace("\\", ""))
            elif kind == "script_finished" and forward.script_finished in (FINISHED, FRAGMENT):
                return notices

    def join(self, code: str, nickname: str = "") -> list[str]:
        """Type ``code`` (and a nickname) into the join form and press Join; the notices the run showed."""
        return self.run((("Join code", "string_value", code), ("Nickname (optional)", "string_value", nickname),
                         ("Join", "trigger_value", True)))

    @property
    def token(self) -> str | None:
        """The student's token, once the page's link carries one."""
        for pair in self.query.split("&"):
            name, _, value = pair.partition("=")
            if name == "student":
                return value
        return None


def join_as(base: str, code: str, *, source: str, forwarded_for: str | None = None, typed: str | None = None
            ) -> tuple[str | None, list[str]]:
    """A new tab (a new session) from ``source`` joins with ``typed`` (default ``code``): (its token, the notices)."""
    tab = Tab(base, f"/join?code={code}", source=source, forwarded_for=forwarded_for)
    try:
        tab.open()
        notices = tab.join(typed or code)
        return tab.token, notices
    finally:
        tab.close()
