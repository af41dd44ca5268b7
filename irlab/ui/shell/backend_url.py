"""The app's pages say where the server is before Streamlit's code runs: no base-path probe on a link.

Streamlit's frontend does not know under which path the server answers. Opened at a page's link
(``/ndcg``), it first asks ``/ndcg/_stcore/health``, is refused, waits 100 ms and asks at ``/``: a page
opened by its link paid 66-97 ms for this probe (bench/drag_latency.py, "bare page by its link"). It
skips the probe when ``window.__streamlit.BACKEND_BASE_URL`` is set before its bundle runs (the
``__streamlit`` object is read once, when the bundle loads; undocumented, so
tests/ui/shell/test_backend_url.py pins it in Chromium and fails when a Streamlit upgrade changes it).

:class:`BackendBaseUrl`, a middleware of the server (``app.py``), puts a small script at the top of
every page document Streamlit serves. The script works out the server's base from the page's own
address: the address minus a known page's path (every page is listed in :mod:`irlab.ui.shell.pages`),
or the address itself when it is the configured base (``server.baseUrlPath``, the home page). Anything
else (an unknown page) sets nothing and Streamlit probes as before. Reading the base from the address,
not from the request, keeps it right behind a proxy that serves the app under its own prefix.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterable

from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

SKIPPED = ("/_stcore/", "/static/", "/media/", "/component/", "/app/static/")
"""Paths that are never a page document (Streamlit's own routes and files), under any base path."""


def backend_script(base_path: str, pages: Iterable[str]) -> str:
    """The ``<script>`` that sets ``window.__streamlit.BACKEND_BASE_URL`` for a page under ``base_path`` (the
    configured ``server.baseUrlPath``, '' for none) whose pages have the URL paths ``pages``.

    >>> print(backend_script("", ["ndcg"]))  # doctest: +NORMALIZE_WHITESPACE
    <script>(() => { const pages = ["ndcg"], base = ""; const path = location.pathname.replace(/\\/+$/, "");
      const cut = path.lastIndexOf("/"), page = path.slice(cut + 1);
      const root = pages.includes(page) ? path.slice(0, cut) : path === base ? path : null;
      if (root !== null) window.__streamlit = {...window.__streamlit, BACKEND_BASE_URL: location.origin + root + "/"};
    })();</script>
    """
    base = base_path.strip("/")
    names = json.dumps(sorted({page.strip("/") for page in pages if page.strip("/")}))
    return ("<script>(() => { const pages = " + names + ", base = " + json.dumps("/" + base if base else "")
            + "; const path = location.pathname.replace(/\\/+$/, \"\");\n"
            "  const cut = path.lastIndexOf(\"/\"), page = path.slice(cut + 1);\n"
            "  const root = pages.includes(page) ? path.slice(0, cut) : path === base ? path : null;\n"
            "  if (root !== null) window.__streamlit = {...window.__streamlit, BACKEND_BASE_URL: location.origin + root"
            " + \"/\"};\n})();</script>")


def inject(document: bytes, script: str) -> bytes:
    """``document`` with ``script`` first in its ``<head>`` (before the bundle's module script); unchanged without one.

    >>> inject(b"<html><head><title>x</title></head></html>", "<script>1</script>")
    b'<html><head><script>1</script><title>x</title></head></html>'
    """
    at = document.find(b"<head>")
    if at < 0:
        return document
    at += len(b"<head>")
    return document[:at] + script.encode() + document[at:]


class BackendBaseUrl:
    """ASGI middleware: the page document (HTML) with :func:`backend_script` in its head; everything else untouched.

    The document is small (7 KB) and asked for once per page opened, so it is taken whole: unzipped if
    Streamlit zipped it, changed, zipped again. Its validators (ETag, Last-Modified) describe the file on
    disk, not what is sent, so they are dropped, and a conditional request is answered in full.
    """

    def __init__(self, app: ASGIApp, *, pages: Iterable[str], base_path: str | None = None) -> None:
        self.app = app
        self.pages = tuple(pages)
        self.base_path = base_path
        self.base = ""
        self.script = ""

    def _is_document_request(self, scope: Scope) -> bool:
        if scope["type"] != "http" or scope["method"] != "GET":
            return False
        if self.base_path is None:  # read once the server's options are set (not when app.py is imported)
            import streamlit as st

            self.base_path = str(st.get_option("server.baseUrlPath") or "")
        if not self.script:
            self.base = "/" + self.base_path.strip("/") if self.base_path.strip("/") else ""
            self.script = backend_script(self.base_path, self.pages)
        path = scope.get("path", "")
        relative = path[len(self.base):] if path.startswith(self.base) else path
        return not any(relative.startswith(prefix) for prefix in SKIPPED) and "." not in relative.rsplit("/", 1)[-1]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not self._is_document_request(scope):
            await self.app(scope, receive, send)
            return
        scope = dict(scope)
        scope["headers"] = [(name, value) for name, value in scope["headers"]
                            if name.lower() not in (b"if-none-match", b"if-modified-since")]
        start: Message | None = None
        body: list[bytes] = []

        async def capture(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                if not Headers(raw=message["headers"]).get("content-type", "").startswith("text/html"):
                    start = None
                    await send(message)
                    return
                start = message
                return
            if start is None:  # not a document: passed through as it came
                await send(message)
                return
            body.append(message.get("body", b""))
            if message.get("more_body", False):
                return
            headers = MutableHeaders(raw=list(start["headers"]))
            document = b"".join(body)
            zipped = headers.get("content-encoding") == "gzip"
            changed = inject(gzip.decompress(document) if zipped else document, self.script)
            if zipped:
                changed = gzip.compress(changed, compresslevel=6)
            for name in ("etag", "last-modified"):
                if name in headers:
                    del headers[name]
            headers["content-length"] = str(len(changed))
            await send({**start, "headers": headers.raw})
            await send({"type": "http.response.body", "body": changed})

        await self.app(scope, receive, capture)
