"""The app's own routes under ``server.baseUrlPath``, where the browser and the command line ask for them.

Streamlit serves its pages and ``/_stcore/...`` under the base path (``--server.baseUrlPath irlab``:
``/irlab/...``) but mounts an ``st.App``'s own routes at the root only, and ``app.py`` is imported before
the server's options are read. So :func:`also_under_base_path` answers each route at its path and under any
prefix, and checks the prefix against the server's base path per request (404 under another one), as the
region's settle route does (irlab/ui/walkthrough/settle.py); :func:`served_path` is the path a page gives
the browser.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import streamlit as st
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

Endpoint = Callable[[Request], Awaitable[Response]]
NOT_HERE = "Not found: this server serves the app under another base path."


def base_path() -> str:
    """The server's base path without its slashes ("" when the app is served at the root)."""
    return str(st.get_option("server.baseUrlPath") or "").strip("/")


def served_path(path: str) -> str:
    """``path`` (one of the app's own routes) as the browser asks for it: under the server's base path, if any.

    >>> served_path("/_irlab/class/answer")  # served at the root (no base path)
    '/_irlab/class/answer'
    """
    base = base_path()
    return (f"/{base}" if base else "") + path


def _under_base(endpoint: Endpoint) -> Endpoint:
    """``endpoint`` behind the check that the request's prefix (the ``base`` path parameter) is the base path."""

    async def checked(request: Request) -> Response:
        if request.path_params.get("base", "").strip("/") != base_path():
            return PlainTextResponse(NOT_HERE, status_code=404)
        return await endpoint(request)

    checked.__name__ = checked.__qualname__ = getattr(endpoint, "__name__", "endpoint")
    return checked


def also_under_base_path(routes: list[Route]) -> list[Route]:
    """``routes`` as they are, then each again under ``/{base}``, answered only when ``base`` is the server's base
    path (checked per request).

    >>> async def ok(request): ...
    >>> [route.path for route in also_under_base_path([Route("/api/tasks/{code}/qrels", ok)])]
    ['/api/tasks/{code}/qrels', '/{base:path}/api/tasks/{code}/qrels']
    """
    prefixed = [Route("/{base:path}" + route.path, _under_base(route.endpoint), methods=route.methods,
                      name=f"{route.name}-under-base") for route in routes]
    return [*routes, *prefixed]
