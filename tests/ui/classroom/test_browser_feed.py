"""The projector's feed shows one count, the newest, whatever Streamlit's component host does with the element.

Streamlit (1.67) calls a component's default export on every update of its data. When an update comes while the
previous one is still loading the module, it calls that overtaken invocation's cleanup as soon as the invocation has
run, then invokes the component again on the same element (``BidiComponent``'s effect). The feed used to forget its
instance on cleanup but leave what it had drawn: the next invocation drew a second feed beside it, whose counts
stayed as they were (seen on the lecturer's page while answers came in during a full run cut short by a fragment
run: copies piled up, the oldest showing "Answers, round 2: 3" above the real 5, until a reload). Streamlit may also
keep an older copy of an element on the page beside its successor for a while; of the feeds on a page only the one
drawn from the newest versions shows.

These tests drive the feed's module the way Streamlit's host does, in real Chromium, with the app serving the module
and the class's event stream (a blank page of the app's origin, no Streamlit page around it: every call is ours).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from irlab.classroom import ClassStore
from irlab.ui.classroom.live import projector_feed
from irlab.ui.components import asset_url
from tests.ui.classroom.test_browser_class import TIMEOUT, class_app  # noqa: F401 - the app, a fixture

pytestmark = pytest.mark.browser

HOST = """async ([module, names]) => {
  const feed = (await import(module)).default;
  window.irlFeed = { feed, hosts: {}, runs: {}, cleanups: {} };
  for (const name of names) {  // each as Streamlit holds it: an element container, a host, its shadow root
    const box = document.createElement('div');
    box.dataset.testid = 'stElementContainer';
    box.id = name;
    const host = document.createElement('div');
    box.append(host);
    document.body.append(box);
    window.irlFeed.hosts[name] = host.attachShadow({ mode: 'open' });
    window.irlFeed.runs[name] = 0;
  }
}"""
DRAW = """([name, data]) => {
  const f = window.irlFeed;
  f.cleanups[name] = f.feed({ name: 'irlab.classfeed', key: name, data, parentElement: f.hosts[name],
    setStateValue: () => {}, setTriggerValue: () => { f.runs[name] += 1; } });
}"""
CLEANUP = "(name) => window.irlFeed.cleanups[name]()"
FEEDS_IN = "(name) => window.irlFeed.hosts[name].querySelectorAll('.irl-live').length"
RUNS = "(name) => window.irlFeed.runs[name]"


@pytest.fixture
def blank(browser, class_app) -> Page:  # noqa: F811 - the fixture imported above
    """A page of the app's origin with nothing of Streamlit on it (the health check's text)."""
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{class_app[0]}/_stcore/health")
    yield page
    page.close()
    assert not errors, errors


def feed_data(store: ClassStore, code: str, key: str) -> dict:
    """What the lecturer's page gives its feed now (as irlab/ui/classroom/projector.py draws it)."""
    return projector_feed(code, key, store.store_id, store.lecturer(code, key).projector())


def class_with(class_app, students: int) -> tuple[ClassStore, str, str]:  # noqa: F811
    store = ClassStore(f"sqlite:///{class_app[1]}")
    new = store.start_class()
    for _ in range(students):
        store.join(new.code)
    return store, new.code, new.key


def joined(page: Page) -> object:
    """The visible 'Students joined' counts on the page."""
    return page.locator('[data-testid="irl-live"]:visible').get_by_test_id("irl-count").filter(
        has=page.get_by_test_id("irl-count-label").get_by_text("Students joined", exact=True)
    ).get_by_test_id("irl-count-value")


def test_an_overtaken_invocation_leaves_one_feed_with_the_newest_count(blank, class_app):  # noqa: F811
    store, code, key = class_with(class_app, 2)
    blank.evaluate(HOST, [asset_url("classfeed", "classfeed/classfeed.js"), ["feed"]])
    blank.evaluate(DRAW, ["feed", feed_data(store, code, key)])  # the feed as the page drew it: 2 joined
    expect(joined(blank)).to_have_text("2", timeout=TIMEOUT)
    store.join(code)
    newer = feed_data(store, code, key)
    blank.evaluate(DRAW, ["feed", feed_data(store, code, key)])  # an invocation overtaken by the next update...
    blank.evaluate(CLEANUP, "feed")  # ...whose cleanup Streamlit calls once it has run
    store.join(code)
    blank.evaluate(DRAW, ["feed", newer | {"counts": {**newer["counts"], "students": 4}}])  # the next update
    assert blank.evaluate(FEEDS_IN, "feed") == 1  # was 2: the first feed stayed, frozen at 2 joined
    expect(joined(blank)).to_have_text("4", timeout=TIMEOUT)  # the pulse's count, then this one's


def test_a_late_cleanup_of_an_overtaken_invocation_leaves_the_feed_following(blank, class_app):  # noqa: F811
    """The overtaken invocation's cleanup may come after the next invocation: it must not end the feed."""
    store, code, key = class_with(class_app, 1)
    blank.evaluate(HOST, [asset_url("classfeed", "classfeed/classfeed.js"), ["feed"]])
    blank.evaluate(DRAW, ["feed", feed_data(store, code, key)])
    blank.evaluate("() => { window.irlFeed.overtaken = window.irlFeed.cleanups.feed; }")
    blank.evaluate(DRAW, ["feed", feed_data(store, code, key)])
    blank.evaluate("() => window.irlFeed.overtaken()")
    store.join(code)  # the class changes: the feed still follows its stream and draws the pulse's count
    expect(joined(blank)).to_have_text("2", timeout=TIMEOUT)
    assert blank.evaluate(FEEDS_IN, "feed") == 1


def test_of_two_copies_on_the_page_only_the_newest_shows_and_asks_for_runs(blank, class_app):  # noqa: F811
    store, code, key = class_with(class_app, 1)
    blank.evaluate(HOST, [asset_url("classfeed", "classfeed/classfeed.js"), ["old", "new"]])
    old = feed_data(store, code, key)
    store.join(code)
    blank.evaluate(DRAW, ["old", old])  # the copy Streamlit keeps from an earlier run: 1 joined
    blank.evaluate(DRAW, ["new", feed_data(store, code, key)])  # this run's: 2 joined
    expect(joined(blank)).to_have_count(1, timeout=TIMEOUT)
    expect(joined(blank)).to_have_text("2")
    expect(blank.locator("#old")).to_be_hidden()  # its element too: no gap where it was
    blank.evaluate(DRAW, ["old", old])  # drawn again later (a theme change), still from older versions: still hidden
    expect(joined(blank)).to_have_count(1)
    expect(joined(blank)).to_have_text("2")
    # alone on the page a moment ago, the old copy may have asked for a run (its stream named newer versions): from
    # now on, hidden, it asks for none
    blank.evaluate("() => { window.irlFeed.runs.old = 0; window.irlFeed.runs.new = 0; }")
    store.join(code)  # the class changes: the feed on show asks for a run, the hidden copy for none
    expect(joined(blank)).to_have_text("3", timeout=TIMEOUT)
    blank.wait_for_function(f"() => ({RUNS})('new') > 0", timeout=TIMEOUT)
    assert blank.evaluate(RUNS, "old") == 0
    blank.evaluate(CLEANUP, "new")  # the newest goes (its element left the page): the copy left follows again
    expect(joined(blank)).to_have_text("3", timeout=TIMEOUT)
    expect(blank.locator("#old")).to_be_visible()


ANSWER_FORM = {"kind": "number", "label": "CG@2", "placeholder": "a number", "send": "Send"}


def test_an_overtaken_invocation_of_the_answer_form_leaves_one_form(blank, class_app):  # noqa: F811
    """The phone's answer form (``classanswer.js``) had the same flaw: a second form with its own Send."""
    blank.evaluate(HOST, [asset_url("classanswer", "classanswer/classanswer.js"), ["form"]])
    data = {"code": "ABCDEF", "student": "token", "store": "", "post": "/_irlab/class/answer", "round": 1,
            "form": ANSWER_FORM, "stored": None, "stored_text": None, "closes_at": None, "now": 0}
    blank.evaluate(DRAW, ["form", data])
    blank.evaluate(DRAW, ["form", data | {"now": 1}])  # overtaken by the next update...
    blank.evaluate(CLEANUP, "form")  # ...and cleaned up once it has run
    blank.evaluate(DRAW, ["form", data | {"now": 2}])
    assert blank.evaluate("() => window.irlFeed.hosts.form.querySelectorAll('.irl-answer').length") == 1
    expect(blank.get_by_test_id("irl-send")).to_have_count(1)
