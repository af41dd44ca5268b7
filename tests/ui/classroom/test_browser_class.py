"""A class in real headless Chromium: one lecturer at 1920x1080 and three students in their own browsers (one a
phone at 390x844 with touch) through predict -> reveal -> revote; live updates without a reload; a reload keeps
the student; hostile nicknames and answers; axe-core on both pages.

The app runs with a class store of its own (``IRLAB_CLASS_DB`` on a temporary SQLite file). The answer form and
the projector's counts are our components (in shadow roots: Playwright's locators reach inside).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser import LAPTOP, PHONE, PROJECTOR, need_chromium, running_app, wait_for_app

pytestmark = pytest.mark.browser

TIMEOUT = 30_000
"""A change reaches the pages in under two seconds; the machine may be busy (ms)."""
COUNTS = """() => { const out = {}; const walk = (root) => {
    for (const m of root.querySelectorAll('.irl-live:not([hidden]) [data-testid="irl-count"]'))
      out[m.querySelector('[data-testid="irl-count-label"]').textContent.trim()] =
        m.querySelector('[data-testid="irl-count-value"]').textContent.trim();
    for (const e of root.querySelectorAll('*')) if (e.shadowRoot) walk(e.shadowRoot); };
  walk(document); return out; }"""
TOO_WIDE = """() => {
  const out = [];
  for (const el of document.querySelectorAll('[data-testid="stMain"] *')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    let inside = false;  // the content of a box that scrolls sideways (a long formula) is that box's business
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement)
      if (['auto', 'scroll', 'hidden', 'clip'].includes(getComputedStyle(p).overflowX)) { inside = true; break; }
    if (!inside && (r.right > innerWidth + 1 || r.left < -1)) out.push(el.dataset.testid || el.tagName);
  }
  return {page: document.documentElement.scrollWidth, wide: out.slice(0, 5)};
}"""
SMALL_TARGETS = """() => { const found = Array.from(document.querySelectorAll(['.st-key-irl-student button',
    '.st-key-irl-student input', '.st-key-irl-join-form button', '.st-key-irl-join-form input'].join(', ')));
  const walk = (root) => { for (const e of root.querySelectorAll('*')) if (e.shadowRoot) {
    found.push(...e.shadowRoot.querySelectorAll('button, input')); walk(e.shadowRoot); } };
  for (const area of document.querySelectorAll('.st-key-irl-student')) walk(area);
  return found.map(e => e.getBoundingClientRect()).filter(r => r.width > 0 && (r.height < 44 || r.width < 44))
    .map(r => [Math.round(r.width), Math.round(r.height)]); }"""


@pytest.fixture(scope="module")
def class_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The app on its own class store: (base URL, the SQLite file)."""
    need_chromium()
    database = tmp_path_factory.mktemp("class") / "classes.sqlite"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("IRLAB_CLASS_DB", f"sqlite:///{database}")
        with running_app() as url:
            yield url, database


class Browsers:
    """Pages in their own browser contexts (their own sessions and cookies); closed at the end."""

    def __init__(self, browser, base: str) -> None:
        self.browser, self.base, self.contexts, self.errors = browser, base, [], []

    def open(self, path: str, *, viewport=LAPTOP, phone: bool = False) -> Page:
        context = self.browser.new_context(viewport=viewport, has_touch=phone, is_mobile=phone)
        self.contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on("websocket", lambda socket: SOCKETS.setdefault(page, []).append(socket))
        page.goto(f"{self.base}/{path.lstrip('/')}")
        wait_for_app(page)
        return page

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def browsers(browser, class_app) -> Iterator[Browsers]:
    opened = Browsers(browser, class_app[0])
    yield opened
    opened.close()
    assert not opened.errors, opened.errors


class FrameCount:
    """Websocket frames a page sends from now on (each asks the server for a run)."""

    def __init__(self, page: Page) -> None:
        self.sent = 0
        for socket in SOCKETS.get(page, []):
            socket.on("framesent", self._count)
        page.on("websocket", lambda socket: socket.on("framesent", self._count))

    def _count(self, _frame) -> None:
        self.sent += 1


SOCKETS: dict = {}
"""Each page's open websockets (Browsers.open records them)."""


def start_class(browsers: Browsers) -> tuple[Page, str]:
    """A lecturer's projector with a new class: (page, join code)."""
    lecturer = browsers.open("class", viewport=PROJECTOR)
    lecturer.get_by_role("button", name="Start a class").click()
    code = lecturer.get_by_test_id("irl-code")
    expect(code).to_have_text(re.compile(r"^[A-HJ-NP-Z2-9]{6}$"), timeout=TIMEOUT)
    return lecturer, code.inner_text().strip()


def join(browsers: Browsers, code: str, nickname: str = "", *, phone: bool = False, typed: bool = False) -> Page:
    """A student who joins from the QR code's link (or types the code at /join)."""
    page = browsers.open("join" if typed else f"join?code={code}", viewport=PHONE if phone else LAPTOP, phone=phone)
    if typed:
        page.get_by_role("textbox", name="Join code").fill(code.lower())
    page.get_by_role("textbox", name="Nickname (optional)").fill(nickname)
    button = page.get_by_role("button", name="Join", exact=True)
    button.tap() if phone else button.click()
    expect(page.get_by_text("Waiting for the lecturer")).to_be_visible(timeout=TIMEOUT)
    return page


def answer_box(page: Page):
    """The answer form's (first) text box."""
    return page.get_by_test_id("irl-answer-input").first


def answer(page: Page, text: str, *, phone: bool = False) -> None:
    """Type ``text`` into the answer form and Send; wait for its receipt."""
    answer_box(page).fill(text)
    send = page.get_by_test_id("irl-send")
    send.tap() if phone else send.click()
    expect(page.get_by_test_id("irl-receipt")).to_have_text(re.compile(r"^Answer (received|changed to)"),
                                                            timeout=TIMEOUT)


def counts(lecturer: Page) -> dict[str, str]:
    return lecturer.evaluate(COUNTS)


def wait_for_count(lecturer: Page, label: str, value: str) -> None:
    """Wait until the projector's count ``label`` shows ``value`` (the feed draws it from the class's pulse); strict:
    one feed shows (a second one, frozen with old counts, fails here: tests/ui/classroom/test_browser_feed.py)."""
    count = shown_feeds(lecturer).get_by_test_id("irl-count").filter(
        has=lecturer.get_by_test_id("irl-count-label").get_by_text(label, exact=True))
    expect(count.get_by_test_id("irl-count-value")).to_have_text(value, timeout=TIMEOUT)


def shown_feeds(lecturer: Page):
    """The projector feeds the lecturer sees (an older copy Streamlit still holds hides itself)."""
    return lecturer.locator('[data-testid="irl-live"]:visible')


def one_feed(lecturer: Page) -> None:
    """One projector feed shows, with one set of counts (checked after full runs of the lecturer's page while
    answers arrive)."""
    expect(shown_feeds(lecturer)).to_have_count(1, timeout=TIMEOUT)
    joined = shown_feeds(lecturer).get_by_test_id("irl-count").filter(
        has=lecturer.get_by_test_id("irl-count-label").get_by_text("Students joined", exact=True))
    expect(joined).to_have_count(1)


def desk_tab(lecturer: Page, name: str) -> None:
    """Open the sidebar desk's tab ``name`` ("Add a question", "Questions", "The class")."""
    tab = lecturer.get_by_test_id("stSidebar").get_by_role("tab", name=name)
    tab.click()
    expect(tab).to_have_attribute("aria-selected", "true", timeout=TIMEOUT)


def press(lecturer: Page, name: str) -> None:
    lecturer.locator(".st-key-irl-round-controls").get_by_role("button", name=re.compile(f"^{name}")).click()


def test_a_lecturer_and_three_students_predict_reveal_and_revote(browsers, class_app):
    lecturer, code = start_class(browsers)
    ann = join(browsers, code, "Ann")
    bob = join(browsers, code, "Bob", typed=True)
    phone = join(browsers, code, phone=True)
    wait_for_count(lecturer, "Students joined", "3")

    lecturer.get_by_role("button", name="Add and show").click()  # chapter 5 as it stands: CG@2 = 4 by default
    wait_for_count(lecturer, "Answers, round 1", "0")
    for page in (ann, bob, phone):  # the class's event stream brings the question, no reload
        expect(page.get_by_test_id("irl-send")).to_be_visible(timeout=TIMEOUT)

    # the phone: a decimal keyboard, thumb-sized targets, nothing wider than the screen
    box = answer_box(phone)
    expect(box).to_have_attribute("inputmode", "decimal")
    expect(box).to_have_attribute("enterkeyhint", "send")
    assert phone.evaluate(SMALL_TARGETS) == []
    wide = phone.evaluate(TOO_WIDE)
    assert wide["page"] <= PHONE["width"] and wide["wide"] == [], wide

    sent_by_bob = FrameCount(bob)
    answer_box(bob).fill("3.5")  # typed, not sent yet
    answer(ann, "4")
    answer(phone, "4,0", phone=True)
    wait_for_count(lecturer, "Answers, round 1", "2")
    assert sent_by_bob.sent == 0  # classmates answered: Bob's page asked for no run (a waiting page costs nothing)
    expect(answer_box(bob)).to_have_value("3.5")
    answer(bob, "3")
    wait_for_count(lecturer, "Answers, round 1", "3")
    one_feed(lecturer)  # answers came in while "Add and show" ran the page: one feed, no copy with old counts
    expect(lecturer.get_by_text("The right answer")).to_have_count(0)  # nothing before the reveal

    press(lecturer, "Reveal")
    expect(lecturer.get_by_text("The right answer: CG@2 = 4")).to_be_visible(timeout=TIMEOUT)
    expect(lecturer.locator(".st-key-irl-projector .irl-chart")).to_have_count(1)
    expect(lecturer.get_by_text(re.compile(r"2 of 3 \(67%\) within"))).to_be_visible()
    # the whole histogram is on the projector's first screen: the question's ranking is folded below it
    histogram = lecturer.locator(".st-key-irl-projector .irl-chart").first.bounding_box()
    assert histogram is not None and histogram["y"] + histogram["height"] <= PROJECTOR["height"], histogram
    expect(ann.get_by_text(re.compile("^Correct"))).to_be_visible(timeout=TIMEOUT)
    expect(phone.get_by_text(re.compile("^Correct"))).to_be_visible(timeout=TIMEOUT)
    expect(bob.get_by_text(re.compile("^Not quite"))).to_be_visible(timeout=TIMEOUT)

    press(lecturer, "Revote")
    wait_for_count(lecturer, "Answers, round 2", "0")
    answer(bob, "4")
    wait_for_count(lecturer, "Answers, round 2", "1")
    press(lecturer, "Reveal")
    rounds = lecturer.locator(".st-key-irl-projector .irl-details > summary")
    expect(rounds).to_have_text(["Round 1: 3 answers (revealed)", "Round 2: 1 answer (revealed)",
                                 "The ranking in the question"], timeout=TIMEOUT)
    expect(bob.get_by_text(re.compile("^Correct"))).to_be_visible(timeout=TIMEOUT)


def test_a_reload_keeps_the_student_and_their_answer(browsers):
    lecturer, code = start_class(browsers)
    student = join(browsers, code, "Ann")
    lecturer.get_by_role("button", name="Add and show").click()
    expect(student.get_by_role("button", name="Send")).to_be_visible(timeout=TIMEOUT)
    answer(student, "4")
    assert "student=" in student.url
    student.reload()
    wait_for_app(student)
    expect(student.get_by_text("you are student 1 (Ann)")).to_be_visible(timeout=TIMEOUT)
    expect(student.get_by_test_id("irl-receipt")).to_have_text(re.compile("^Your answer in this round: 4\\."))
    expect(answer_box(student)).to_have_value("4")
    assert counts(lecturer)["Students joined"] == "1"


def test_hostile_nicknames_and_answers_stay_text_and_break_nothing(browsers, class_app):
    lecturer, code = start_class(browsers)
    evil = join(browsers, code, '<img src=x onerror="window.__pwned=1">')  # 38 characters: the box takes 40
    desk_tab(lecturer, "The class")
    lecturer.get_by_text("Show nicknames on the projector").click()
    names = lecturer.locator(".st-key-irl-projector .irl-paragraph", has_text="Joined:")
    expect(names).to_contain_text('<img src=x onerror="window.__pwned=1">', timeout=TIMEOUT)
    assert lecturer.locator(".st-key-irl-projector img[src='x']").count() == 0
    desk_tab(lecturer, "Add a question")
    lecturer.get_by_role("button", name="Add and show").click()
    expect(evil.get_by_test_id("irl-send")).to_be_visible(timeout=TIMEOUT)
    receipt = evil.get_by_test_id("irl-receipt")
    for hostile in ("1e999", "nan", "<b>1</b>"):
        answer_box(evil).fill(hostile)
        evil.get_by_test_id("irl-send").click()
        expect(receipt).to_have_text(re.compile(f"^\u2715?'{re.escape(hostile)}' is "), timeout=TIMEOUT)  # its own line
        expect(receipt).to_have_attribute("data-tone", "refused")
        expect(answer_box(evil)).to_have_value(hostile)  # the text stays as typed, to be corrected
    assert evil.evaluate("window.__pwned") is None and lecturer.evaluate("window.__pwned") is None
    with sqlite3.connect(class_app[1]) as connection:  # the store shared by this module's tests: this class only
        assert connection.execute(
            "select count(*) from answers join students on students.id = answers.student_id "
            "join classes on classes.id = students.class_id where classes.code = ?", (code,)).fetchone()[0] == 0
    assert counts(lecturer)["Answers, round 1"] == "0"


def test_the_desk_is_on_the_first_screen_of_a_1280x800_projector(browsers):
    """Every desk control is in reach without scrolling the sidebar (the app's links filled it at 1280x800, the desk
    began below them): the tabs, the question form down to "Add and show", the questions, the class's settings."""
    lecturer, _ = start_class(browsers)
    lecturer.get_by_role("button", name="Add and show").click()
    expect(lecturer.locator(".st-key-irl-round-controls")).to_be_visible(timeout=TIMEOUT)
    desk = browsers.open(lecturer.url.removeprefix(browsers.base), viewport=LAPTOP)  # the lecturer link, reopened
    sidebar = desk.get_by_test_id("stSidebar")
    expect(sidebar.get_by_role("button", name="Add and show")).to_be_in_viewport(ratio=1, timeout=TIMEOUT)
    desk_tab(desk, "Questions")
    expect(sidebar.get_by_role("button", name="Show this question")).to_be_in_viewport(ratio=1)
    desk_tab(desk, "The class")
    for name in ("No timer", "Lock joining", "Delete this class now"):
        expect(sidebar.get_by_text(name, exact=True).first).to_be_in_viewport(ratio=1)
    expect(sidebar.get_by_role("link", name="Home")).to_be_hidden()  # folded: "IR Lab's pages" opens them
    sidebar.get_by_text("IR Lab's pages").click()
    expect(sidebar.get_by_role("link", name="Home")).to_be_visible(timeout=TIMEOUT)


def test_no_serious_accessibility_violation_on_the_projector_and_the_phone(browsers):
    axe = pytest.importorskip("axe_playwright_python.sync_playwright")
    lecturer, code = start_class(browsers)
    phone = join(browsers, code, phone=True)
    lecturer.get_by_role("button", name="Add and show").click()
    expect(phone.get_by_test_id("irl-send")).to_be_visible(timeout=TIMEOUT)
    answer(phone, "4", phone=True)
    press(lecturer, "Reveal")
    expect(lecturer.get_by_text("The right answer: CG@2 = 4")).to_be_visible(timeout=TIMEOUT)
    expect(phone.get_by_text(re.compile("^Correct"))).to_be_visible(timeout=TIMEOUT)
    for page in (lecturer, phone):
        violations = axe.Axe().run(page).response["violations"]
        serious = [f"{v['id']}: {v['nodes'][0]['target']}" for v in violations
                   if v["impact"] in ("serious", "critical")]
        assert serious == [], serious
