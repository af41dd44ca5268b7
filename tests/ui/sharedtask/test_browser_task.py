"""A shared task end to end in real headless Chromium: the lecturer at 1920x1080 creates it from uploaded files and
downloads the personal links; two students on phones (390x844, touch) submit runs in their own browsers and see
their scores (trec_eval's values) and the leaderboard, never another measure or the qrels; the lecturer ends the
task and releases per-topic scores, which reach the students' pages without a reload.

Screenshots go to screenshots/ (git-ignored) when ``IRLAB_SCREENSHOTS`` is set.
"""

from __future__ import annotations

import csv
import io
import os
import re
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
import pytrec_eval
from playwright.sync_api import Page, expect

from irlab.runs.simulate import simulate
from irlab.runs.trec import read_qrels_text, read_run_text
from tests.browser import PHONE, PROJECTOR, need_chromium, running_app, wait_for_app

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[3]
TIMEOUT = 60_000
SHOTS = ROOT / "screenshots"


@pytest.fixture(scope="module")
def task_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    need_chromium()
    folder = tmp_path_factory.mktemp("task")
    found = simulate(topics=12, systems={"good": 1.0, "weak": 0.3, "bm25": 0.6}, depth=40, seed=9)
    (folder / "hidden.qrels").write_text("\n".join(found.qrels_lines()) + "\n")
    for name in found.runs:
        (folder / f"{name}.run").write_text("\n".join(found.run_lines(name)) + "\n")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("IRLAB_CLASS_DB", f"sqlite:///{folder / 'classes.sqlite'}")
        with running_app() as url:
            yield url, folder


def _shot(page: Page, name: str) -> None:
    if os.environ.get("IRLAB_SCREENSHOTS"):
        wait_for_app(page)
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / f"task-{name}.png"), full_page=True)
        size = page.viewport_size
        if size["width"] < 500:  # Streamlit scrolls inside its main block: a tall phone shows the rest of the page
            page.set_viewport_size({"width": size["width"], "height": 2600})
            page.screenshot(path=str(SHOTS / f"task-{name}-whole.png"))
            page.set_viewport_size(size)


def _serious(page: Page) -> list[str]:
    """axe-core's serious and critical violations (none allowed)."""
    axe = pytest.importorskip("axe_playwright_python.sync_playwright")
    violations = axe.Axe().run(page).response["violations"]
    return [f"{v['id']}: {v['nodes'][0]['target']}" for v in violations if v["impact"] in ("serious", "critical")]


def _expected_ap(folder: Path, run: str) -> str:
    evaluator = pytrec_eval.RelevanceEvaluator(read_qrels_text((folder / "hidden.qrels").read_text()), {"map"})
    per_query = evaluator.evaluate(read_run_text((folder / f"{run}.run").read_text()))
    return f"{np.mean([v['map'] for v in per_query.values()]):.4f}"


def test_a_task_from_creation_to_release(browser, task_app):
    url, folder = task_app
    errors: list[str] = []
    contexts = []

    def open_page(path: str, viewport: dict, phone: bool = False) -> Page:
        context = browser.new_context(viewport=viewport, has_touch=phone, is_mobile=phone, accept_downloads=True)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{url}/{path}")
        wait_for_app(page)
        return page

    try:
        lecturer = open_page("task", PROJECTOR)
        lecturer.get_by_label("Title").fill("Mini TREC: cats in boxes")
        uploads = lecturer.locator('[data-testid="stFileUploaderDropzoneInput"]')
        uploads.nth(0).set_input_files(str(folder / "hidden.qrels"))
        uploads.nth(1).set_input_files(str(folder / "bm25.run"))
        lecturer.get_by_label("Roster: one student per line (only you see these names)").fill("ann\nbob")
        _shot(lecturer, "1-create-form")
        assert _serious(lecturer) == []
        lecturer.get_by_role("button", name="Create the task").click()
        expect(lecturer.get_by_text(re.compile(r"Task [A-Z2-9]{6} created"))).to_be_visible(timeout=TIMEOUT)
        _shot(lecturer, "2-created")
        with lecturer.expect_download() as download:
            lecturer.get_by_role("button", name="Download the links (CSV)").click()
        links = {row["name"]: row["link"] for row in csv.DictReader(io.StringIO(
            Path(download.value.path()).read_text()))}
        assert set(links) == {"ann", "bob"} and all(link.startswith(f"{url}/task?task=") and "&student=" in link
                                                    for link in links.values())
        lecturer.get_by_role("button", name="Open the task").click()
        expect(lecturer.get_by_text("Deadline and release")).to_be_visible(timeout=TIMEOUT)
        assert "key=" in lecturer.url

        students = {}
        for name, run in (("ann", "good"), ("bob", "weak")):
            page = open_page(links[name].removeprefix(url + "/"), PHONE, phone=True)
            page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(str(folder / f"{run}.run"))
            page.get_by_role("button", name="Submit the run").click()
            receipt = page.get_by_text(re.compile(r"Submission 1 scored: AP \d\.\d{4}"))
            expect(receipt).to_be_visible(timeout=TIMEOUT)
            assert receipt.inner_text().endswith(f"AP {_expected_ap(folder, run)}.")  # trec_eval's value
            students[name] = page
        ann, bob = students["ann"], students["bob"]
        expect(ann.get_by_text("Leaderboard", exact=True)).to_be_visible()
        _shot(ann, "3-student-phone")
        assert _serious(ann) == []
        for page in (ann, bob):
            text = page.locator('[data-testid="stMain"]').inner_text()
            assert "You see AP (mean" in text and "Download the qrels" not in text  # the primary measure, no qrels
        width = ann.evaluate("() => document.documentElement.scrollWidth")
        assert width <= PHONE["width"] + 1  # nothing makes the phone scroll sideways

        # the lecturer's page follows the students' submissions without a reload (the poll)
        expect(lecturer.locator('[data-testid="stMetricValue"]').nth(2)).to_have_text("3", timeout=TIMEOUT)
        _shot(lecturer, "4-lecturer")
        assert _serious(lecturer) == []
        lecturer.get_by_role("tab", name="Deadline and release").click()
        lecturer.get_by_role("button", name="End the task now").click()
        release = lecturer.get_by_role("button", name="Release: per-topic scores")
        expect(release).to_be_visible(timeout=TIMEOUT)
        release.click()
        expect(lecturer.get_by_role("button", name="Released: per-topic scores")).to_be_disabled(timeout=TIMEOUT)
        _shot(lecturer, "5-released")
        expect(ann.get_by_text("Released after the deadline")).to_be_visible(timeout=TIMEOUT)  # the poll, no reload
        expect(ann.get_by_text("Submission 1: per topic")).to_be_visible()
        assert ann.get_by_role("button", name="Submit the run").count() == 0  # closed
        _shot(ann, "6-student-released")

        lecturer.get_by_label("Pool depth k").fill("3")
        lecturer.get_by_role("button", name="Open the pool for judging").click()
        expect(lecturer.get_by_text(re.compile(r"The pool holds [\d,]+ documents"))).to_be_visible(timeout=TIMEOUT)
        expect(ann.get_by_text("Judge your share of the class's pool")).to_be_visible(timeout=TIMEOUT)  # the poll
        progress = ann.get_by_text(re.compile(r"0 of \d+ documents judged"))
        expect(progress).to_be_visible()
        ann.get_by_role("button", name="1 · relevant").tap()
        expect(ann.get_by_text(re.compile(r"1 of \d+ documents judged"))).to_be_visible(timeout=TIMEOUT)
        _shot(ann, "7-student-judges")
        assert _serious(ann) == []
        bob.reload()
        wait_for_app(bob)
        bob.get_by_role("button", name="0 · not relevant").tap()
        expect(bob.get_by_text(re.compile(r"1 of \d+ documents judged"))).to_be_visible(timeout=TIMEOUT)
        lecturer.reload()
        wait_for_app(lecturer)
        lecturer.get_by_role("tab", name="Deadline and release").click()
        expect(lecturer.get_by_text("2 judgments so far", exact=False)).to_be_visible(timeout=TIMEOUT)
        expect(lecturer.get_by_label("Pool depth k")).to_have_value("3")  # the open pool's, after a reload
        _shot(lecturer, "8-pool-open")
        assert not errors, errors
    finally:
        for context in contexts:
            context.close()


def test_a_wrong_link_shows_nothing(browser, task_app):
    url, _ = task_app
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        page.goto(f"{url}/task?task=ABCDEF&student=<script>alert(1)</script>")
        wait_for_app(page)
        expect(page.get_by_text("This task link is not valid")).to_be_visible(timeout=TIMEOUT)
        assert page.locator("script:text('alert(1)')").count() == 0
    finally:
        context.close()
