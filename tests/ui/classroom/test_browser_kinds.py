"""The kinds of issue 24 in real headless Chromium, in one class (one lecturer at 1920x1080, three students, one a
phone at 390x844 that drags with touch events): order the pictures -> which is it -> an exercise in class.

One test, one class, the contexts shared across the three activities (the suite's time budget). The app and its
class store are test_browser_class.py's fixtures (``IRLAB_CLASS_DB`` on a temporary SQLite file).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser import PHONE, drag_tile, touch_drag_tile
from tests.ui.classroom.test_browser_class import (  # noqa: F401 - fixtures used here
    SMALL_TARGETS,
    TIMEOUT,
    TOO_WIDE,
    Browsers,
    browsers,
    class_app,
    join,
    one_feed,
    press,
    start_class,
    wait_for_count,
)

pytestmark = pytest.mark.browser


def choose(lecturer: Page, label: str, option: str) -> None:
    """Pick ``option`` in the sidebar's select box ``label``."""
    lecturer.get_by_test_id("stSidebar").get_by_test_id("stSelectbox").filter(has_text=label).click()
    lecturer.get_by_role("option", name=option, exact=True).click()


def add(lecturer: Page, kind: str, *, radio: str | None = None, then: tuple[str, str] | None = None) -> None:
    """Add and show an activity of ``kind`` from the sidebar: its form's ``radio`` option clicked, then a select
    box's option chosen (``then``: label, option), each once the form shows it."""
    sidebar = lecturer.get_by_test_id("stSidebar")
    choose(lecturer, "Kind", kind)
    if radio is not None:
        sidebar.get_by_text(radio, exact=True).click()
        expect(sidebar.get_by_role("radio", name=radio)).to_be_checked(timeout=TIMEOUT)
    if then is not None:
        choose(lecturer, *then)
    lecturer.wait_for_timeout(1_000)  # the form's last rerun: the button adds what it shows
    sidebar.get_by_role("button", name="Add and show").click()


def tile(page: Page, item: str):
    return page.locator(f'[data-testid="irl-tile"][data-item-id="{item}"]')


def order_of(page: Page) -> str:
    return page.locator('[data-testid="irl-root"]').get_attribute("data-order")


def send(page: Page, name: str, *, phone: bool = False) -> None:
    button = page.get_by_test_id("irl-send")
    expect(button).to_have_text(name)
    button.tap() if phone else button.click()
    expect(page.get_by_test_id("irl-receipt")).to_have_text(re.compile(r"^Answer (received|changed to)"),
                                                            timeout=TIMEOUT)


def test_order_which_is_it_and_an_exercise_with_one_lecturer_and_three_students(browsers: Browsers):  # noqa: F811
    lecturer, code = start_class(browsers)
    ann, bob = join(browsers, code, "Ann"), join(browsers, code, "Bob")
    phone = join(browsers, code, phone=True)
    wait_for_count(lecturer, "Students joined", "3")

    # --- order the pictures: the best order for NDCG@2 (chapter 5 as it stands: pictures 1..8 in order) ----------
    add(lecturer, "Order the pictures")
    for page in (ann, bob, phone):
        expect(tile(page, "2")).to_be_visible(timeout=TIMEOUT)
    touch_drag_tile(phone, tile(phone, "2"), tile(phone, "1"), after=False)  # a finger: 2 before 1
    expect(phone.locator('[data-testid="irl-root"]')).to_have_attribute("data-order", re.compile(r"^2,1,"))
    assert phone.evaluate(SMALL_TARGETS) == []
    wide = phone.evaluate(TOO_WIDE)
    assert wide["page"] <= PHONE["width"] and wide["wide"] == [], wide
    send(phone, "Send this order", phone=True)
    drag_tile(ann, tile(ann, "5"), tile(ann, "1"), after=False)  # a mouse: 5 first ...
    expect(ann.locator('[data-testid="irl-root"]')).to_have_attribute("data-order", re.compile(r"^5,"))
    drag_tile(ann, tile(ann, "2"), tile(ann, "5"), after=True)  # ... then 2 second: grades 4, 4 on top
    expect(ann.locator('[data-testid="irl-root"]')).to_have_attribute("data-order", re.compile(r"^5,2,"))
    send(ann, "Send this order")
    send(bob, "Send this order")  # the starting order as it is
    wait_for_count(lecturer, "Answers, round 1", "3")
    press(lecturer, "Reveal")
    projector = lecturer.locator(".st-key-irl-projector")
    expect(projector.get_by_text(re.compile(r"1 of 3 \(33%\)"))).to_be_visible(timeout=TIMEOUT)  # Ann's order
    expect(projector.locator(".irl-chart")).to_have_count(2)  # the heatmap and the measure's distribution
    best = lecturer.get_by_role("link", name=re.compile("open the best"))  # each order once: best = most common
    expect(best).to_have_attribute("href", re.compile(r"/ndcg\?order=5%2C2%2C1%2C"))
    expect(ann.get_by_text(re.compile("^Goal met"))).to_be_visible(timeout=TIMEOUT)
    expect(phone.get_by_text(re.compile("^Not yet"))).to_be_visible(timeout=TIMEOUT)

    # --- which is it: a concept question from the bank ---------------------------------------------------------
    add(lecturer, "Which is it", radio="A concept question")
    right = "R: the number of relevant items judged for the query"
    for page, option in ((ann, right), (bob, "K, the cut-off"), (phone, right)):
        choice = page.get_by_test_id("irl-option").filter(has_text=option)
        expect(choice).to_be_visible(timeout=TIMEOUT)
        choice.tap() if page is phone else choice.click()
        expect(choice).to_have_attribute("aria-pressed", "true")
        send(page, "Send", phone=page is phone)
    wait_for_count(lecturer, "Answers, round 1", "3")
    expect(projector.get_by_text("Hidden until the reveal.")).to_be_visible(timeout=TIMEOUT)  # peer instruction
    lecturer.get_by_text("Show answers live").click()
    expect(projector.locator(".irl-chart")).to_have_count(1, timeout=TIMEOUT)  # the shares, live from 3 answers on
    press(lecturer, "Reveal")
    expect(lecturer.get_by_text(re.compile("^The right answer: R: the number"))).to_be_visible(timeout=TIMEOUT)
    expect(projector.get_by_text(re.compile(r"2 of 3 \(67%\)"))).to_be_visible()
    expect(phone.get_by_text(re.compile("^Right: R: the number"))).to_be_visible(timeout=TIMEOUT)
    expect(bob.get_by_text(re.compile("^Not quite: you chose K, the cut-off"))).to_be_visible(timeout=TIMEOUT)

    # --- an exercise in class: each student their own variant, rates live ---------------------------------------
    add(lecturer, "An exercise", then=("Built-in exercise", "NDCG calculation (ndcg-exercise)"))
    seeds = set()
    for page, text in ((ann, "0.5"), (bob, "0.6"), (phone, "0,7")):
        variant = page.get_by_text(re.compile(r"your variant \d+"))
        expect(variant).to_be_visible(timeout=TIMEOUT)
        seeds.add(re.search(r"your variant (\d+)", variant.inner_text()).group(1))
        box = page.get_by_test_id("irl-answer-input").first
        expect(box).to_have_attribute("inputmode", "decimal")
        box.fill(text)
        send(page, "Send my answers", phone=page is phone)
    assert len(seeds) == 3  # a variant per student
    wait_for_count(lecturer, "Answers, round 1", "3")
    lecturer.get_by_text("Show answers live").click()
    expect(projector.locator(".irl-chart").first).to_be_visible(timeout=TIMEOUT)  # the success rates, live
    press(lecturer, "Reveal")
    one_feed(lecturer)  # full runs while answers came in: one projector feed, no copy with old counts
    expect(phone.get_by_text(re.compile(r"^\d of 6 right\.$"))).to_be_visible(timeout=TIMEOUT)
    wide = phone.evaluate(TOO_WIDE)
    assert wide["page"] <= PHONE["width"] and wide["wide"] == [], wide
