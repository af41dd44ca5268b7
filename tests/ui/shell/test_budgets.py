"""A session over its upload budget is refused on the server, with a reason, while another session is unaffected."""

from __future__ import annotations

import time

import pytest

from irlab.ui.shell.budgets import MB, Budgets, room_for, upload_refusal

SMALL = {"IRLAB_SESSION_MB": "1", "IRLAB_SESSION_FILES": "3"}
"""A server where a session may hold 1 MB in 3 files (so a test can go over it quickly)."""


def test_the_budgets_refuse_what_would_go_over_and_say_why():
    budgets = Budgets(session_mb=10, session_files=2, server_mb=100)
    assert upload_refusal(0, 0, 0, 5 * MB, budgets=budgets) is None
    assert "holds 8 MB" in upload_refusal(8 * MB, 1, 8 * MB, 3 * MB, budgets=budgets)
    assert "2 files" in upload_refusal(MB, 2, MB, MB, budgets=budgets)
    assert upload_refusal(MB, 2, MB, MB, replaces=True, budgets=budgets) is None  # the same file again
    assert "server" in upload_refusal(0, 0, 99 * MB, 2 * MB, budgets=budgets)


def test_settings_come_from_the_environment_and_bad_values_keep_the_defaults():
    assert Budgets.from_environment({"IRLAB_SESSION_MB": "50", "IRLAB_SERVER_UPLOADS_MB": "-3"}) == \
        Budgets(session_mb=50)
    assert "20 runs and 400 MB" in Budgets().describe() and "1,000,000 bytes" in Budgets().describe()


def test_large_work_is_refused_before_memory_runs_out():
    assert room_for(900 * MB, "this", Budgets(reserve_mb=200), available=1000 * MB) is not None
    assert room_for(700 * MB, "this", Budgets(reserve_mb=200), available=1000 * MB) is None


def _put(page, path: str, headers: dict, size: int, file_id: str) -> int:
    """PUT ``size`` bytes to Streamlit's upload endpoint as the page's own uploader does (same session, cookies and
    XSRF header); returns the HTTP status."""
    return page.evaluate("""async ([path, headers, size, fileId]) => {
        const body = new FormData();
        body.append("file", new Blob([new Uint8Array(size)]), "raw.bin");
        const url = path.replace(/[^/]+$/, fileId);
        const response = await fetch(url, {method: "PUT", body, headers, credentials: "include"});
        return response.status; }""", [path, headers, size, file_id])


@pytest.mark.browser
def test_a_session_over_its_budget_is_refused_and_another_is_not(browser, start_app, tmp_path, wait_until_ready):
    run = tmp_path / "run.txt"
    run.write_text("".join(f"q1 Q0 d{i} {i} {1 / i:.6f} r\n" for i in range(1, 20_000)))  # about 0.5 MB
    with start_app(env=SMALL) as url:
        contexts = [browser.new_context(viewport={"width": 1280, "height": 800}) for _ in range(2)]
        try:
            pages = [context.new_page() for context in contexts]
            puts: list[tuple[str, dict]] = []
            pages[0].on("request", lambda r: r.method == "PUT" and "/upload_file/" in r.url and
                        puts.append((r.url.split("127.0.0.1", 1)[1].split("/", 1)[1], r.headers)))
            for page in pages:
                page.goto(f"{url}/runs")
                wait_until_ready(page)
                page.get_by_role("radio", name="My files").check(force=True)
                wait_until_ready(page)
            runs_input = pages[0].get_by_test_id("stFileUploaderDropzoneInput").nth(1)
            runs_input.set_input_files(str(run))
            # the chip shows at once; the page names the run only after its upload reached the server and was read
            pages[0].wait_for_function("() => document.body.innerText.includes('Read run.txt')", timeout=30_000)
            deadline = time.monotonic() + 20
            while not puts and time.monotonic() < deadline:
                pages[0].wait_for_timeout(200)
            path, headers = puts[0]
            headers = {k: v for k, v in headers.items() if k.lower().startswith("x-")}
            # a raw PUT of 0.7 MB more in the same session: over its 1 MB, refused on the server
            assert _put(pages[0], "/" + path, headers, int(0.7 * MB), "extra-file") == 413
            # the same size is fine for a second student (each session has its own budget)
            pages[1].get_by_test_id("stFileUploaderDropzoneInput").nth(1).set_input_files(str(run))
            pages[1].wait_for_function("() => document.body.innerText.includes('run.txt')", timeout=20_000)
            wait_until_ready(pages[1])
            assert "could not" not in pages[1].inner_text("body").lower()
        finally:
            for context in contexts:
                context.close()
