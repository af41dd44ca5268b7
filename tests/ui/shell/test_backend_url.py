"""A page opened by its link says where the server is before Streamlit's code runs (irlab/ui/shell/backend_url.py).

The middleware alone, on a small ASGI app: the script goes first into the head of an HTML document, zipped or
not, and nothing else is touched. In Chromium: Streamlit's frontend reads ``window.__streamlit.BACKEND_BASE_URL``
(undocumented), so a chapter opened by its link asks no health check under the link's path and connects at once;
also under ``server.baseUrlPath``. When a Streamlit upgrade stops reading it, the probe comes back and these fail.
"""

from __future__ import annotations

import asyncio
import gzip
from concurrent.futures import ThreadPoolExecutor

import pytest

from irlab.ui.shell.backend_url import BackendBaseUrl
from tests.browser import wait_for_app

DOCUMENT = b"<!DOCTYPE html><html><head><title>Streamlit</title></head><body></body></html>"


def _serve(body: bytes, *, content_type: str = "text/html", zipped: bool = False):
    """A one-response ASGI app, and what it saw of the request."""
    seen = {}

    async def app(scope, receive, send):
        seen["headers"] = dict(scope["headers"])
        data = gzip.compress(body) if zipped else body
        headers = [(b"content-type", content_type.encode()), (b"content-length", str(len(data)).encode()),
                   (b"etag", b'"abc"')] + ([(b"content-encoding", b"gzip")] if zipped else [])
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": data})

    return app, seen


def _get(app, path: str, headers: list[tuple[bytes, bytes]] = ()) -> tuple[dict, bytes]:
    """GET ``path`` through ``app``: (response headers, body)."""
    sent = []

    async def receive():
        return {"type": "http.request", "body": b""}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": "GET", "path": path, "headers": list(headers), "query_string": b""}
    # a fresh event loop in a thread of its own: the thread a test runs in may hold a running loop already (Playwright's
    # sync API leaves one behind in an xdist worker that ran a browser test first)
    with ThreadPoolExecutor(max_workers=1) as thread:
        thread.submit(asyncio.run, app(scope, receive, send)).result()
    response = dict(sent[0]["headers"])
    return response, b"".join(message.get("body", b"") for message in sent[1:])


def test_the_script_goes_first_into_the_head_of_a_page_document():
    inner, seen = _serve(DOCUMENT)
    app = BackendBaseUrl(inner, pages=["ndcg", "map"], base_path="")
    headers, body = _get(app, "/ndcg", [(b"if-none-match", b'"abc"'), (b"accept", b"text/html")])
    assert body.startswith(b"<!DOCTYPE html><html><head><script>(() => { const pages = [\"map\", \"ndcg\"]")
    assert body.endswith(b"</script><title>Streamlit</title></head><body></body></html>")
    assert int(headers[b"content-length"]) == len(body)
    assert b"etag" not in headers  # it described the file, not what was sent
    assert b"if-none-match" not in seen["headers"]  # so the answer is whole, never an empty 304


def test_a_zipped_document_is_unzipped_changed_and_zipped_again():
    inner, _ = _serve(DOCUMENT, zipped=True)
    headers, body = _get(BackendBaseUrl(inner, pages=["ndcg"], base_path=""), "/ndcg")
    assert headers[b"content-encoding"] == b"gzip" and int(headers[b"content-length"]) == len(body)
    assert gzip.decompress(body).startswith(b"<!DOCTYPE html><html><head><script>")


@pytest.mark.parametrize("path, content_type", [
    ("/_stcore/health", "text/html"),        # Streamlit's own route
    ("/irlab/_stcore/stream", "text/html"),  # ... under the base path
    ("/static/js/index.js", "text/html"),    # a file
    ("/ndcg", "application/json"),           # not a document
])
def test_anything_else_passes_untouched(path, content_type):
    inner, _ = _serve(DOCUMENT, content_type=content_type)
    headers, body = _get(BackendBaseUrl(inner, pages=["ndcg"], base_path="irlab"), path)
    assert body == DOCUMENT and headers[b"etag"] == b'"abc"'


def _probes(page) -> list[str]:
    """Record every health check and host-config request the page makes."""
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url)
            if "_stcore/health" in request.url or "_stcore/host-config" in request.url else None)
    return asked


@pytest.mark.browser
def test_a_chapter_opened_by_its_link_asks_no_health_check_under_the_link(browser, app_url):
    page = browser.new_page()
    try:
        asked = _probes(page)
        page.goto(f"{app_url}/ndcg?k=3")
        wait_for_app(page)
        assert page.evaluate("window.__streamlit.BACKEND_BASE_URL") == f"{app_url}/"
        assert not [url for url in asked if "/ndcg/_stcore/" in url], asked  # Streamlit's probe is gone
        assert f"{app_url}/_stcore/health" in asked  # it asks where the server is, once, and connects
        page.locator('[data-testid="irl-metric"]').first.wait_for()
    finally:
        page.close()


@pytest.mark.browser
def test_under_a_base_path_the_page_finds_the_server_there(browser, start_app):
    with start_app(base_path="irlab") as url:
        page = browser.new_page()
        try:
            asked = _probes(page)
            page.goto(f"{url}/ndcg")
            wait_for_app(page)
            assert page.evaluate("window.__streamlit.BACKEND_BASE_URL") == f"{url}/"
            assert url.endswith("/irlab") and not [u for u in asked if "/ndcg/_stcore/" in u], asked
            page.locator('[data-testid="irl-metric"]').first.wait_for()
            page.goto(f"{url}/")  # the home page: the base itself
            wait_for_app(page)
            assert page.evaluate("window.__streamlit.BACKEND_BASE_URL") == f"{url}/"
        finally:
            page.close()
