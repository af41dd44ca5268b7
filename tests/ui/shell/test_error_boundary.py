"""The page boundary: an error id on screen, the traceback in the server log, Streamlit's control flow untouched."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
import time
import tomllib
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect
from streamlit.testing.v1 import AppTest

from tests.browser import free_port

ROOT = Path(__file__).resolve().parents[3]


def test_an_error_shows_an_id_and_no_traceback():
    at = AppTest.from_string(textwrap.dedent("""
        import streamlit as st
        from irlab.ui.shell.error_boundary import error_boundary
        with error_boundary("test"):
            st.write("drawn before the error")
            raise OSError("/srv/secret/path.py: disk on fire")
        st.write("the rest of the app still runs")
    """), default_timeout=20).run()
    assert not at.exception
    [error] = at.error
    assert re.search(r"error id `[0-9a-f]{8}`", error.value)
    assert "secret" not in error.value and "Traceback" not in error.value
    assert [m.value for m in at.markdown][-1] == "the rest of the app still runs"


def test_streamlit_control_flow_passes_through():
    at = AppTest.from_string(textwrap.dedent("""
        import streamlit as st
        from irlab.ui.shell.error_boundary import error_boundary
        st.session_state.setdefault("runs", 0)
        st.session_state.runs += 1
        with error_boundary("test"):
            if st.session_state.runs == 1:
                st.rerun()
            st.write(f"run {st.session_state.runs}")
            st.stop()
        st.write("not reached")
    """), default_timeout=20).run()
    assert not at.error and [m.value for m in at.markdown] == ["run 2"]


@pytest.mark.browser
def test_the_server_logs_the_traceback_under_the_id_and_the_browser_shows_no_details(tmp_path, browser):
    """A real server with a fault injected into the NDCG chapter (only in this process's copy of the page)."""
    hook = tmp_path / "sitecustomize.py"
    hook.write_text(textwrap.dedent("""
        from irlab.walkthrough.chapters.ndcg import CHAPTER
        def broken(*args, **kwargs):
            raise ZeroDivisionError("injected fault in /srv/irlab/secret.py")
        object.__setattr__(CHAPTER, "screen", broken)  # the chapter's declaration is frozen
    """))
    port = free_port()
    log = tmp_path / "server.log"
    env = {**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{ROOT}"}
    with log.open("w") as out:
        server = subprocess.Popen([sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
                                   "--server.port", str(port), "--server.address", "127.0.0.1"],
                                  cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        for _ in range(150):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=1)
                break
            except OSError:
                time.sleep(0.2)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(f"http://127.0.0.1:{port}/ndcg")
        page.get_by_text("Something went wrong while drawing this page").wait_for(timeout=30_000)
        text = page.inner_text("body")
        error_id = re.search(r"error id ([0-9a-f]{8})", text).group(1)
        assert "Traceback" not in text and "secret" not in text and "ZeroDivisionError" not in text
        page.get_by_role("link", name="2. Recall@K and Precision@K").click()  # navigation still works
        # the click starts a navigation; the old page's title stays until the new page has drawn
        expect(page.locator("h1").first).to_contain_text("Recall@K and Precision@K", timeout=30_000)
        page.close()
        deadline = time.monotonic() + 10
        while f"error id {error_id}" not in log.read_text() and time.monotonic() < deadline:
            time.sleep(0.2)
        logged = log.read_text()
        assert f"error id {error_id} on page 'ndcg'" in logged and "ZeroDivisionError: injected fault" in logged
    finally:
        os.killpg(server.pid, 15)
        server.wait(timeout=10)


def test_the_config_hides_details_and_caps_uploads_at_the_runs_page_limit():
    from streamlit import config

    from irlab.ui.runs.uploads import MAX_UPLOAD_MB

    settings = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert settings["client"]["showErrorDetails"] == "none"
    assert settings["server"]["maxUploadSize"] == MAX_UPLOAD_MB
    for section, values in settings.items():  # a misspelt option would be silently ignored by Streamlit
        for key in values:
            assert f"{section}.{key}" in config._config_options_template, f"{section}.{key}"
