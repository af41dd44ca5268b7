"""Screenshots of a live class for looking at: the projector at 1920x1080, phones at 390x844 (touch), the desk at
1280x800, through a class of every kind with a timer, a reveal, a lost connection and a refused late answer.

    python bench/class_screenshots.py [OUT_DIR]

Writes PNGs to OUT_DIR (default: screenshots/, which git ignores), named ``class-<step>-<who>.png``: what a
projector and a phone show at each step (the first screen only: what the room sees without scrolling).
"""

from __future__ import annotations

import re
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playwright.sync_api import expect

from tests.browser import LAPTOP, PHONE, PROJECTOR, chromium, running_app, wait_for_app

TIMEOUT = 60_000


def settle(page) -> None:
    """Until Streamlit has finished its run and the page's fonts and pictures are in."""
    wait_for_app(page)
    page.wait_for_function("() => document.fonts.status === 'loaded'")
    page.wait_for_timeout(600)  # a projector's redraw (a chart's layout) after the run: looked at, not measured


def main() -> int:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "screenshots")
    out.mkdir(exist_ok=True)
    database = Path(tempfile.mkdtemp()) / "classes.sqlite"
    with running_app(env={"IRLAB_CLASS_DB": f"sqlite:///{database}",
                          "IRLAB_PUBLIC_URL": "http://10.0.0.5:8501"}) as url, chromium() as browser:
        lecturer = browser.new_context(viewport=PROJECTOR).new_page()
        lecturer.goto(f"{url}/class")
        settle(lecturer)
        lecturer.get_by_role("button", name="Start a class").click()
        code = lecturer.get_by_test_id("irl-code")
        expect(code).to_have_text(re.compile(r"^\w{6}$"), timeout=TIMEOUT)
        code = code.inner_text().strip()
        phones = []
        for name in ("Ann", "", ""):
            context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
            phone = context.new_page()
            phone.goto(f"{url}/join?code={code}")
            settle(phone)
            if name:
                phone.get_by_role("textbox", name="Nickname (optional)").fill(name)
            phone.get_by_role("button", name="Join", exact=True).tap()
            expect(phone.get_by_text("Waiting for the lecturer")).to_be_visible(timeout=TIMEOUT)
            phones.append(phone)
        ann = phones[0]
        settle(lecturer)
        lecturer.screenshot(path=out / "class-1-joining-projector.png")
        ann.screenshot(path=out / "class-1-waiting-phone.png")

        # a question with a 30 s timer
        sidebar = lecturer.get_by_test_id("stSidebar")
        sidebar.get_by_role("tab", name="The class").click()  # the desk's tabs: the timer is the class's
        sidebar.get_by_text("30 s", exact=True).click()
        expect(sidebar.get_by_role("radio", name="30 s")).to_be_checked(timeout=TIMEOUT)
        lecturer.wait_for_timeout(800)
        sidebar.get_by_role("tab", name="Add a question").click()
        sidebar.get_by_role("button", name="Add and show").click()
        for phone in phones:
            expect(phone.get_by_test_id("irl-send")).to_be_visible(timeout=TIMEOUT)
        ann.get_by_test_id("irl-answer-input").fill("4")
        settle(ann)
        ann.screenshot(path=out / "class-2-question-timer-phone.png")
        ann.get_by_test_id("irl-send").tap()
        expect(ann.get_by_test_id("irl-receipt")).to_contain_text("Answer received", timeout=TIMEOUT)
        ann.screenshot(path=out / "class-3-receipt-phone.png")
        for phone, text in zip(phones[1:], ("3", "4,0")):
            phone.get_by_test_id("irl-answer-input").fill(text)
            phone.get_by_test_id("irl-send").tap()
            expect(phone.get_by_test_id("irl-receipt")).to_contain_text("Answer received", timeout=TIMEOUT)
        settle(lecturer)
        lecturer.screenshot(path=out / "class-2-question-timer-projector.png")

        # the connection lost on one phone: said in the class's words, the answer kept
        phones[2].context.set_offline(True)
        expect(phones[2].get_by_test_id("irl-connection")).to_be_visible(timeout=TIMEOUT)
        phones[2].get_by_test_id("irl-answer-input").fill("0.75")
        phones[2].get_by_test_id("irl-send").tap()
        expect(phones[2].get_by_test_id("irl-receipt")).to_contain_text("kept on this phone", timeout=TIMEOUT)
        phones[2].screenshot(path=out / "class-4-offline-phone.png")
        phones[2].context.set_offline(False)
        expect(phones[2].get_by_test_id("irl-receipt")).to_contain_text("Answer changed", timeout=TIMEOUT)

        # time is up (moved to now, as if half a minute had passed)
        with sqlite3.connect(database) as connection:
            connection.execute("update rounds set closes_at = ?", (time.time() + 2,))
        expect(ann.get_by_text("Time is up: answers are closed.")).to_be_visible(timeout=TIMEOUT)
        settle(ann)
        ann.screenshot(path=out / "class-5-time-up-phone.png")
        expect(lecturer.get_by_text("Time is up: answers are closed.")).to_be_visible(timeout=TIMEOUT)
        settle(lecturer)
        lecturer.screenshot(path=out / "class-5-time-up-projector.png")

        # the reveal
        lecturer.locator(".st-key-irl-round-controls").get_by_role("button", name=re.compile("^Reveal")).click()
        expect(lecturer.get_by_text("The right answer: CG@2 = 4")).to_be_visible(timeout=TIMEOUT)
        expect(ann.get_by_text(re.compile("^Correct"))).to_be_visible(timeout=TIMEOUT)
        settle(lecturer)
        settle(ann)
        lecturer.screenshot(path=out / "class-6-reveal-predict-projector.png")
        ann.screenshot(path=out / "class-6-reveal-predict-phone.png")

        # a concept question with two answers, then its reveal
        sidebar.get_by_test_id("stSelectbox").filter(has_text="Kind").click()
        lecturer.get_by_role("option", name="Which is it", exact=True).click()
        sidebar.get_by_text("A concept question", exact=True).click()
        lecturer.wait_for_timeout(1500)
        sidebar.get_by_role("button", name="Add and show").click()
        options = ("R: the number of relevant items judged for the query", "K, the cut-off")
        for phone, option in zip(phones[:2], options):
            choice = phone.get_by_test_id("irl-option").filter(has_text=option)
            expect(choice).to_be_visible(timeout=TIMEOUT)
            choice.tap()
            phone.get_by_test_id("irl-send").tap()
            expect(phone.get_by_test_id("irl-receipt")).to_contain_text("Answer received", timeout=TIMEOUT)
        settle(lecturer)
        lecturer.screenshot(path=out / "class-7-concept-two-answers-projector.png")
        ann.screenshot(path=out / "class-7-concept-phone.png")
        lecturer.locator(".st-key-irl-round-controls").get_by_role("button", name=re.compile("^Reveal")).click()
        expect(lecturer.get_by_text(re.compile("^The right answer: R: the number"))).to_be_visible(timeout=TIMEOUT)
        settle(lecturer)
        settle(ann)
        lecturer.screenshot(path=out / "class-8-reveal-concept-projector.png")
        ann.screenshot(path=out / "class-8-reveal-concept-phone.png")

        desk = browser.new_context(viewport=LAPTOP).new_page()
        desk.goto(lecturer.url)
        settle(desk)
        desk.screenshot(path=out / "class-9-desk-laptop.png")
    print(f"screenshots in {out}/class-*.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
