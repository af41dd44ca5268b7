"""The HTTP routes a student's command line talks to: submit a run, read the leaderboard, fetch released qrels.

A student's machine has no access to the store (whoever reads the database reads the hidden qrels), so
``python -m irlab task submit --server URL`` sends the run to the app, which scores it exactly as the
page does (:meth:`irlab.sharedtask.store.TaskSeat.submit`). The routes (added to the app in ``app.py``):

=========================================  ======================================================
``POST /api/tasks/{code}/runs?name=FILE``  the body is the run (text or gzip); answers the
                                           submission as the student may see it
``GET /api/tasks/{code}/leaderboard``      the task as the caller may see it (a student's token,
                                           or the lecturer's key)
``GET /api/tasks/{code}/qrels``            the qrels, once released
=========================================  ======================================================

The secret travels in ``Authorization: Bearer ...``, never in the address (addresses end up in logs).
Every answer is JSON; a refusal is ``{"error": "one line"}`` with 400 (the file), 403 (the link), 404, 413
(the body is larger than the task takes, counted while it arrives, before anything is parsed) or 429 (with
``Retry-After``). Text in answers is data: the client prints it, nothing renders it.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict
from typing import Any

from sqlalchemy.exc import SQLAlchemyError
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from irlab.classroom.refusals import AccessDenied, ClassNotFound, RateLimited
from irlab.errors import ValidationError
from irlab.sharedtask.definition import MAX_RUN_MB
from irlab.sharedtask.records import Submission, TaskView
from irlab.sharedtask.store import TaskStore

MB = 1_000_000
MAX_BODY = MAX_RUN_MB * MB
"""No task takes a larger run, so no body larger than this is read."""


def routes() -> list[Route]:
    """The task routes, for ``st.App(..., routes=...)``."""
    return [Route("/api/tasks/{code}/runs", submit, methods=["POST"]),
            Route("/api/tasks/{code}/leaderboard", board, methods=["GET"]),
            Route("/api/tasks/{code}/qrels", qrels, methods=["GET"])]


def _secret(request: Request) -> str:
    kind, _, secret = request.headers.get("authorization", "").partition(" ")
    return secret.strip() if kind.lower() == "bearer" else ""


def _error(message: str, status: int, **headers: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers or None)


async def _guarded(work, *args) -> Response:
    try:
        return await run_in_threadpool(work, *args)
    except RateLimited as error:
        return _error(str(error), 429, **{"Retry-After": str(math.ceil(error.seconds))})
    except (AccessDenied, ClassNotFound) as error:
        return _error(str(error), 403)
    except ValidationError as error:
        return _error(str(error), 400)
    except SQLAlchemyError:
        return _error("The task store did not answer; try again in a moment.", 503)


async def submit(request: Request) -> Response:
    """Score the body as a run of the caller's seat."""
    code, token = request.path_params["code"], _secret(request)
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY:
        return _error(f"the run is larger than the {MAX_RUN_MB} MB any task takes", 413)
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            return _error(f"the run is larger than the {MAX_RUN_MB} MB any task takes", 413)
        chunks.append(chunk)
    data = b"".join(chunks)
    name = request.query_params.get("name", "run")[:200]

    def work() -> Response:
        seat = TaskStore().seat(code, token)
        return JSONResponse(submission_json(seat.submit(data, name)))

    return await _guarded(work)


async def board(request: Request) -> Response:
    """The task as the caller may see it: the lecturer's key shows everything, a student's token their part."""
    code, secret = request.path_params["code"], _secret(request)

    def work() -> Response:
        store = TaskStore()
        try:
            view = store.seat(code, secret).view()
        except AccessDenied:
            view = store.desk(code, secret).view()
        return JSONResponse(view_json(view))

    return await _guarded(work)


async def qrels(request: Request) -> Response:
    code, token = request.path_params["code"], _secret(request)

    def work() -> Response:
        return Response(TaskStore().seat(code, token).qrels(), media_type="text/plain")

    return await _guarded(work)


def submission_json(submission: Submission) -> dict[str, Any]:
    """A submission as JSON (findings as one line each)."""
    found = asdict(submission)
    found["findings"] = [{"check": f.check, "count": f.count, "line": f.line()} for f in submission.findings]
    return found


def view_json(view: TaskView) -> dict[str, Any]:
    """A task view as JSON."""
    found = asdict(view)
    found["released"] = sorted(view.released)
    found["open"] = view.open
    found["submissions_left"] = view.submissions_left
    found["submissions"] = [submission_json(s) for s in view.submissions]
    return json.loads(json.dumps(found, default=str))
