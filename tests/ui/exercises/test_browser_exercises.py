"""A lecturer and a student in real headless Chromium: build a small exercise, download it, load it back,
share it as a link, and answer a question on the practice page."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from irlab.exercises import parse_exercise

pytestmark = pytest.mark.browser

LABEL = "Tabby <b>in</b> a box"
TITLE = "Week 3: precision"


def settle(app_page, pause: float = 0.6) -> None:
    """Let Streamlit start and finish the rerun an action caused."""
    time.sleep(pause)
    app_page.ready()


def see(page, text: str) -> None:
    page.get_by_text(text, exact=False).first.wait_for(timeout=15_000)


def tab(app_page, name: str) -> None:
    app_page.page.get_by_role("tab", name=name).click()
    settle(app_page)


def edit_cell(app_page, grid, row: int, column_steps: int, text: str) -> None:
    """Type into a data-editor cell with the keyboard, at a person's pace (a grid that has just been
    mounted can drop an edit typed within milliseconds of the first click)."""
    page = app_page.page
    grid.scroll_into_view_if_needed()
    time.sleep(0.5)
    box = grid.bounding_box()
    page.mouse.click(box["x"] + 60, box["y"] + 35 * (row + 1) + 17)
    time.sleep(0.5)
    for _ in range(column_steps):
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")  # opens the cell's editor
    time.sleep(0.5)
    page.keyboard.press("Control+A")
    page.keyboard.type(text, delay=20)
    time.sleep(0.3)
    page.keyboard.press("Enter")
    settle(app_page, 1.0)


def test_build_download_load_share_and_practise(app_page, tmp_path: Path):
    page = app_page.open("build").page

    # start blank
    page.get_by_test_id("stSelectbox").filter(has_text="Start from").click()
    page.get_by_role("option", name="Blank (5 documents, 1 query, 1 question)").click()
    page.get_by_role("button", name="Start from this").click()
    see(page, "Started from: Blank")

    # a title, a label (in the items table) and a question (with the picker)
    title = page.get_by_role("textbox", name="Title")
    title.fill(TITLE)
    title.press("Enter")
    settle(app_page)
    tab(app_page, "Items")
    edit_cell(app_page, page.get_by_test_id("stDataFrameResizable").first, row=0, column_steps=1, text=LABEL)
    tab(app_page, "Questions")
    k = page.get_by_role("spinbutton", name="K (cut-off)")
    k.fill("2")
    k.press("Enter")
    settle(app_page)
    see(page, "Measure name: P@2")
    page.get_by_role("button", name="Add this question").click()
    see(page, "Added the question P@2")
    see(page, "The exercise is valid (5 items, 1 query, 1 system, 2 questions)")

    # download it
    tab(app_page, "Share and export")
    with page.expect_download() as download:
        page.get_by_role("button", name="Download the exercise (JSON)").click()
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    assert saved.name == "week-3-precision.json"
    exercise = parse_exercise(saved.read_bytes())
    assert exercise.title == TITLE and exercise.item("1").label == LABEL
    assert [q.measure for q in exercise.questions] == ["P@3", "P@2"]

    # replace the draft, then load the file back
    page.get_by_test_id("stSelectbox").filter(has_text="Start from").click()
    page.get_by_role("option", name="NDCG exercise (the sources' notebook: 10 documents, 3 queries)").click()
    page.get_by_role("button", name="Start from this").click()
    see(page, "Started from: NDCG exercise")
    page.get_by_test_id("stFileUploaderDropzoneInput").first.set_input_files(str(saved))
    see(page, f"Loaded \u201c{TITLE}\u201d from week-3-precision.json")
    see(page, "The exercise is valid (5 items, 1 query, 1 system, 2 questions)")

    # share it and open the link as a student
    tab(app_page, "Share and export")
    link = page.get_by_test_id("stCode").filter(has_text="practise?exercise=").inner_text().strip()
    assert link.startswith(app_page.base_url + "/practise?exercise=ex1.")
    page.goto(link)
    app_page.ready()
    see(page, TITLE)
    see(page, LABEL)  # the label shows as typed, tags and all

    answer = page.get_by_role("textbox", name="Your answer")
    answer.fill("0.5")
    answer.press("Enter")
    see(page, "Not correct yet.")
    answer = page.get_by_role("textbox", name="Your answer")
    answer.fill("2/3")
    answer.press("Enter")
    see(page, "Correct.")
    see(page, "The solution")
    assert page.locator("b", has_text="in").count() == 0  # no markup from the label reached the page
    assert json.loads(saved.read_text())["schema_version"] == 1
