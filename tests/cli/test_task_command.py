"""``python -m irlab task``: create, submit (through the store and through the app's routes), leaderboard,
export, release; and the routes' refusals (a wrong token, an oversized body, a malformed run)."""

from __future__ import annotations

import contextlib
import csv
import json
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from irlab.runs.simulate import simulate
from tests.browser import running_app

ROOT = Path(__file__).resolve().parents[2]


def irlab(*args: str, env: dict | None = None, check: bool = True) -> subprocess.CompletedProcess:
    import os

    result = subprocess.run([sys.executable, "-m", "irlab", "task", *args], cwd=ROOT, capture_output=True, text=True,
                            env={**os.environ, **(env or {})}, timeout=300)
    if check and result.returncode != 0:
        raise AssertionError(result.stderr)
    return result


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("task")
    found = simulate(topics=15, systems={"good": 1.0, "weak": 0.3, "bm25": 0.6}, depth=40, seed=5)
    (folder / "hidden.qrels").write_text("\n".join(found.qrels_lines()) + "\n")
    for name in found.runs:
        (folder / f"{name}.run").write_text("\n".join(found.run_lines(name)) + "\n")
    (folder / "roster.txt").write_text("ann\nbob\n")
    return folder


IN_A_MONTH = time.strftime("%Y-%m-%dT%H:%MZ", time.gmtime(time.time() + 30 * 86_400))


def _create(files: Path, db: str, deadline: str = IN_A_MONTH) -> tuple[str, str, dict]:
    result = irlab("create", "--title", "Mini TREC", "--qrels", str(files / "hidden.qrels"), "--deadline", deadline,
                   "--measure", "AP", "--measure", "nDCG@10", "--roster", str(files / "roster.txt"),
                   "--baseline", str(files / "bm25.run"), "--links", str(files / "links.csv"),
                   "--base-url", "http://example.org", "--db", db)
    code = result.stdout.split()[1]
    key = result.stdout.split("&key=")[1].split()[0]
    with (files / "links.csv").open() as links:
        tokens = {row["name"]: row["token"] for row in csv.DictReader(links)}
    assert result.stdout.count(key) == 1 and set(tokens) == {"ann", "bob"}
    return code, key, tokens


def test_the_lecturers_commands_through_the_store(files, tmp_path):
    db = f"sqlite:///{tmp_path / 'classes.sqlite'}"
    code, key, tokens = _create(files, db)
    submitted = irlab("submit", code, str(files / "good.run"), "--db", db, env={"IRLAB_TASK_TOKEN": tokens["ann"]})
    assert "submission 1: good.run" in submitted.stdout and "AP" in submitted.stdout
    assert "  nDCG@10 " not in submitted.stdout  # the primary measure only, before the deadline
    board = irlab("leaderboard", code, "--key", key, "--db", db).stdout
    assert "nDCG@10" in board and "Student 1" in board and "baseline" in board
    student = irlab("leaderboard", code, "--token", tokens["bob"], "--db", db, "--format", "json").stdout
    view = json.loads(student)
    assert view["shown_measures"] == ["AP"] and view["submissions"] == [] and not view["lecturer"]
    exported = irlab("export", code, "--key", key, "--db", db, "--pool", str(tmp_path / "pool")).stdout
    rows = list(csv.DictReader(exported.splitlines()))
    assert {r["roster name"] for r in rows} == {"ann", "baseline"}
    assert len(list((tmp_path / "pool").glob("*.run"))) == 2
    refused = irlab("release", code, "--key", key, "--what", "qrels", "--db", db, check=False)
    assert refused.returncode == 2 and "before the deadline" in refused.stderr
    wrong = irlab("export", code, "--key", tokens["ann"], "--db", db, check=False)
    assert wrong.returncode == 2 and "Traceback" not in wrong.stderr


def test_a_student_submits_through_the_apps_routes(files, tmp_path):
    db = f"sqlite:///{tmp_path / 'classes.sqlite'}"
    code, key, tokens = _create(files, db)
    with running_app(env={"IRLAB_CLASS_DB": db}) as url:
        env = {"IRLAB_TASK_TOKEN": tokens["bob"]}
        out = irlab("submit", code, str(files / "weak.run"), "--server", url, env=env).stdout
        assert "submission 1: weak.run" in out and "95% interval" in out
        board = irlab("leaderboard", code, "--server", url, env=env).stdout
        assert "* Student 2" in board and "submissions left: 2 of 3" in board
        again = irlab("submit", code, str(files / "weak.run"), "--server", url, env=env, check=False)
        assert again.returncode == 2 and "same as your submission 1" in again.stderr
        stranger = irlab("submit", code, str(files / "good.run"), "--server", url, env={"IRLAB_TASK_TOKEN": "x" * 22},
                         check=False)
        assert stranger.returncode == 2 and "not valid" in stranger.stderr
        for path, body, status in ((f"/api/tasks/{code}/runs", b"\x00\x01", 400),
                                   (f"/api/tasks/{code}/runs", b"x" * 2_000, 400),
                                   (f"/api/tasks/{code}/qrels", None, 403),
                                   ("/api/tasks/NOPE00/leaderboard", None, 403)):
            request = urllib.request.Request(url + path, data=body, method="POST" if body else "GET",
                                             headers={"Authorization": f"Bearer {tokens['ann']}"})
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(request, timeout=60)
            assert refused.value.code == status
            assert set(json.loads(refused.value.read())) == {"error"}
        big = urllib.request.Request(url + f"/api/tasks/{code}/runs", data=b"1", method="POST",
                                     headers={"Authorization": f"Bearer {tokens['ann']}",
                                              "Content-Length": str(300_000_000)})
        with contextlib.suppress(ConnectionError), pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(big, timeout=60)
        assert refused.value.code == 413
        lecturer = json.loads(urllib.request.urlopen(urllib.request.Request(
            url + f"/api/tasks/{code}/leaderboard", headers={"Authorization": f"Bearer {key}"}), timeout=60).read())
        assert lecturer["lecturer"] and lecturer["shown_measures"] == ["AP", "nDCG@10"]
        assert time.time() < 4e9


def test_bad_options_are_one_line_errors(files, tmp_path):
    db = f"sqlite:///{tmp_path / 'classes.sqlite'}"
    for args, words in ((["--deadline", "next friday"], "not an ISO time"), (["--deadline", IN_A_MONTH[:-1]],
                                                                              "time zone"),
                        (["--deadline", "2000-01-01T00:00Z"], "in the future")):
        result = irlab("create", "--title", "T", "--qrels", str(files / "hidden.qrels"), "--roster",
                       str(files / "roster.txt"), "--db", db, *args, check=False)
        assert result.returncode == 2 and words in result.stderr and "Traceback" not in result.stderr
    result = irlab("submit", "ABCDEF", str(files / "good.run"), "--db", db, check=False)
    assert result.returncode == 2 and "IRLAB_TASK_TOKEN" in result.stderr


def test_a_proxys_plain_text_refusal_is_printed_as_its_line(files, tmp_path):
    """nginx (deploy/nginx_conf.py) answers some refusals itself, in plain text: the student reads its words."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class Restarting(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            body = b"IR Lab is starting or restarting; try again in a few seconds.\n"
            self.send_response(502)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *_) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Restarting)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        result = irlab("submit", "ABCDEF", str(files / "good.run"), "--server", f"http://127.0.0.1:{server.server_port}",
                       env={"IRLAB_TASK_TOKEN": "x" * 22}, check=False)
    finally:
        server.shutdown()
        server.server_close()
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "IR Lab is starting or restarting; try again in a few seconds." in result.stderr
