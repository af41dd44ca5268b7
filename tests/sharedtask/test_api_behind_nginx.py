"""A shared task's routes (irlab/sharedtask/api.py) behind the real proxy (deploy/nginx_conf.py): the proxy lets a
run through up to the 200 MB the routes take, and refuses a larger one at once in the routes' own JSON.

The app (``app.py``, one Streamlit process) runs behind nginx with the generated configuration, as
``deploy/run-local`` and compose put it; a student's command line talks to the proxy.
"""

from __future__ import annotations

import contextlib
import csv
import json
import os
import socket
import subprocess
import sys
import time

import pytest

from irlab.sharedtask.api import MAX_BODY
from irlab.sharedtask.definition import MAX_RUN_MB
from tests.browser import running_app
from tests.deploy.conftest import ROOT, nginx_in_front

sys.path.insert(0, str(ROOT / "deploy"))
from nginx_conf import MAX_BODY_BYTES, MAX_TASK_RUN_BYTES, MAX_TASK_RUN_MB, MAX_UPLOAD_MB, TASKS_PATH, render

pytestmark = pytest.mark.deploy


def test_the_proxy_and_the_routes_agree_on_the_largest_run():
    assert MAX_TASK_RUN_MB == MAX_RUN_MB and MAX_TASK_RUN_BYTES == MAX_BODY
    assert MAX_TASK_RUN_BYTES > MAX_BODY_BYTES  # so the task location's own limit is the one that counts
    config = render(["127.0.0.1:8601"], listen="127.0.0.1:8500")
    location = config.split(f"location {TASKS_PATH} {{")[1].split("}")[0]
    assert f"client_max_body_size {MAX_TASK_RUN_BYTES};" in location


def test_the_task_and_pooling_pages_ask_a_browser_for_no_larger_file_than_the_proxy_lets_through():
    from irlab.ui.pooling import page as pooling
    from irlab.ui.sharedtask import page as task

    assert task.BROWSER_UPLOAD_MB == pooling.BROWSER_UPLOAD_MB == MAX_UPLOAD_MB


def _post(port: int, path: str, token: str, length: int, sent: int) -> tuple[int, dict]:
    """(status, JSON body) of a POST that announces ``length`` bytes and sends ``sent`` of them (zeros)."""
    with socket.create_connection(("127.0.0.1", port), timeout=120) as sock:
        sock.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {token}\r\n"
                     f"Content-Length: {length}\r\nConnection: close\r\n\r\n".encode())
        chunk = bytes(1 << 20)
        with contextlib.suppress(ConnectionError):  # a refusal may close the connection while the body streams
            while sent:
                sent -= sock.send(memoryview(chunk)[:min(sent, len(chunk))])
        answer = b""
        while part := sock.recv(65536):
            answer += part
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(body)


def _irlab(*args: str, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "irlab", "task", *args], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, **env}, timeout=300)


def test_a_run_reaches_the_routes_up_to_their_limit_and_a_larger_one_is_refused_in_their_words(tmp_path, collection):
    qrels, runs = collection
    (tmp_path / "hidden.qrels").write_bytes(qrels)
    (tmp_path / "s1.run").write_bytes(runs["s1"])
    (tmp_path / "roster.txt").write_text("ann\n")
    db = f"sqlite:///{tmp_path / 'classes.sqlite'}"
    deadline = time.strftime("%Y-%m-%dT%H:%MZ", time.gmtime(time.time() + 30 * 86_400))
    created = _irlab("create", "--title", "Mini TREC", "--qrels", str(tmp_path / "hidden.qrels"), "--deadline",
                     deadline, "--roster", str(tmp_path / "roster.txt"), "--links", str(tmp_path / "links.csv"),
                     "--db", db, env={})
    assert created.returncode == 0, created.stderr
    code = created.stdout.split()[1]
    with (tmp_path / "links.csv").open() as links:
        token = next(csv.DictReader(links))["token"]
    (tmp_path / "proxy").mkdir()
    with (running_app(env={"IRLAB_CLASS_DB": db}) as app,
          nginx_in_front(app.removeprefix("http://"), tmp_path / "proxy") as port):
        proxy = f"http://127.0.0.1:{port}"
        submitted = _irlab("submit", code, str(tmp_path / "s1.run"), "--server", proxy, env={"IRLAB_TASK_TOKEN": token})
        assert submitted.returncode == 0 and "submission 1: s1.run" in submitted.stdout, submitted.stderr
        # 150 MB: above the 100 MB the proxy allows a browser's upload, within the routes' 200 MB. The routes read
        # it (a wrong token is told only after the body arrived), so the answer is theirs, not the proxy's 413
        status, answer = _post(port, f"/api/tasks/{code}/runs", "x" * 22, 150_000_000, 150_000_000)
        assert (status, set(answer)) == (403, {"error"}) and "not valid" in answer["error"]
        # one byte over: the proxy refuses on the announced length, before reading the body, as the routes word it
        status, answer = _post(port, f"/api/tasks/{code}/runs", token, MAX_BODY + 1, 0)
        assert status == 413 and answer == {"error": f"the run is larger than the {MAX_RUN_MB} MB any task takes"}
        # the student's own submission still counts once
        board = _irlab("leaderboard", code, "--server", proxy, env={"IRLAB_TASK_TOKEN": token})
        assert board.returncode == 0 and "submissions left: 2 of 3" in board.stdout, board.stderr
