"""The live class pushed to several phones in real headless Chromium: timers, locked joining, one seat per browser,
an answer kept on a phone that lost its connection, who does not follow, a stream gone silent opened again.

The app and its class store are test_browser_class.py's fixtures (``IRLAB_CLASS_DB`` on a temporary SQLite file,
which these tests also read and, to make a timer end sooner than half a minute, write).
"""

from __future__ import annotations

import re
import sqlite3
import time

import pytest
from playwright.sync_api import Page, expect

from irlab.classroom.store import NO_CLASS
from tests.browser import PHONE, wait_for_app
from tests.ui.classroom.test_browser_class import (  # noqa: F401 - fixtures used here
    TIMEOUT,
    Browsers,
    answer,
    answer_box,
    browsers,
    class_app,
    counts,
    desk_tab,
    join,
    press,
    start_class,
    wait_for_count,
)

pytestmark = pytest.mark.browser


def rows(database, sql: str, *args) -> list[tuple]:
    with sqlite3.connect(database) as connection:
        return connection.execute(sql, args).fetchall()


def answers_of(database, code: str) -> list[str]:
    return [text for (text,) in rows(database, "select answers.text from answers join students on students.id = "
                                               "answers.student_id join classes on classes.id = students.class_id "
                                               "where classes.code = ? order by answers.id", code)]


def test_a_timer_counts_down_on_phones_and_projector_and_closes_the_round_by_itself(browsers, class_app):  # noqa: F811
    lecturer, code = start_class(browsers)
    phones = [join(browsers, code, phone=True) for _ in range(3)]
    desk_tab(lecturer, "The class")
    lecturer.get_by_test_id("stSidebar").get_by_text("30 s", exact=True).click()
    expect(lecturer.get_by_test_id("stSidebar").get_by_role("radio", name="30 s")).to_be_checked(timeout=TIMEOUT)
    desk_tab(lecturer, "Add a question")
    lecturer.get_by_role("button", name="Add and show").click()
    for page in (*phones, lecturer):  # the same countdown everywhere, on the server's clock
        expect(page.get_by_test_id("irl-clock")).to_have_text(re.compile(r"^0:(30|[12]\d)$"), timeout=TIMEOUT)
    expect(phones[0].get_by_test_id("irl-timer")).to_contain_text("left to answer")
    answer(phones[0], "4", phone=True)
    expect(phones[0].get_by_test_id("irl-receipt")).to_be_in_viewport(ratio=1)  # on screen after Send, whole
    # half a minute is long for a test: the round's timer is moved to end in two seconds, as if time had passed
    rows(class_app[1], "update rounds set closes_at = ? where activity_id in (select activities.id from activities "
                       "join classes on classes.id = activities.class_id where classes.code = ?)",
         time.time() + 2, code)
    for page in (*phones, lecturer):  # the projector says so too (its timer is gone with the round)
        expect(page.get_by_text("Time is up: answers are closed.")).to_be_visible(timeout=TIMEOUT)
    for page in phones:
        expect(page.get_by_test_id("irl-send")).to_have_count(0)
    expect(lecturer.locator(".st-key-irl-round-controls").get_by_role("button", name="Close answers")) \
        .to_have_count(0, timeout=TIMEOUT)  # closed by itself: the lecturer can reveal or revote
    assert rows(class_app[1], "select rounds.state from rounds join activities on activities.id = rounds.activity_id "
                              "join classes on classes.id = activities.class_id where classes.code = ?", code) == \
        [("closed",)]
    press(lecturer, "Reveal")
    expect(phones[0].get_by_text(re.compile("^Correct"))).to_be_visible(timeout=TIMEOUT)
    expect(phones[1].get_by_text("You did not answer this round.")).to_be_visible(timeout=TIMEOUT)


def test_locked_joining_and_one_seat_per_browser(browsers, class_app):  # noqa: F811
    lecturer, code = start_class(browsers)
    # this app listens on 127.0.0.1: before the first question the lecturer reads that phones cannot open the link
    expect(lecturer.get_by_text(re.compile(r"^Students cannot open http://127\.0\.0\.1:\d+ from their phones"))) \
        .to_be_visible()
    ann = join(browsers, code, "Ann", phone=True)
    wait_for_count(lecturer, "Students joined", "1")
    again = ann.context.new_page()  # the QR code scanned again: a second tab of the same browser
    again.goto(f"{browsers.base}/join?code={code}")
    wait_for_app(again)
    expect(again.get_by_text("Welcome back: this browser is student 1 in this class.")).to_be_visible(timeout=TIMEOUT)
    expect(again.get_by_text("you are student 1 (Ann)")).to_be_visible()
    again.close()
    assert rows(class_app[1], "select count(*) from students join classes on classes.id = students.class_id "
                              "where classes.code = ?", code) == [(1,)]

    desk_tab(lecturer, "The class")
    lecturer.get_by_test_id("stSidebar").get_by_text("Lock joining").click()
    expect(lecturer.get_by_test_id("irl-join")).to_contain_text("Joining is closed", timeout=TIMEOUT)
    late = browsers.open(f"join?code={code}", viewport=PHONE, phone=True)
    late.get_by_role("button", name="Join", exact=True).tap()
    expect(late.get_by_text(NO_CLASS)).to_be_visible(timeout=TIMEOUT)
    assert counts(lecturer)["Students joined"] == "1"


def test_an_answer_sent_offline_is_kept_on_the_phone_and_counted_once_when_it_is_back(browsers, class_app):  # noqa: F811
    lecturer, code = start_class(browsers)
    phone = join(browsers, code, phone=True)
    other = join(browsers, code, phone=True)
    lecturer.get_by_role("button", name="Add and show").click()
    expect(phone.get_by_test_id("irl-send")).to_be_visible(timeout=TIMEOUT)
    phone.context.set_offline(True)  # the phone walks out of the wifi
    expect(phone.get_by_test_id("irl-connection")).to_have_text(re.compile("^Connection lost: reconnecting"),
                                                                 timeout=TIMEOUT)
    answer_box(phone).fill("4")
    phone.get_by_test_id("irl-send").tap()
    receipt = phone.get_by_test_id("irl-receipt")
    expect(receipt).to_have_text("The class did not answer; your answer is kept on this phone and sent again by "
                                 "itself.", timeout=TIMEOUT)
    assert answers_of(class_app[1], code) == []
    phone.context.set_offline(False)  # back: the phone sends it by itself, once
    expect(receipt).to_have_text(re.compile(r"^Answer received: 4\."), timeout=TIMEOUT)
    expect(phone.get_by_test_id("irl-connection")).to_be_hidden(timeout=TIMEOUT)
    wait_for_count(lecturer, "Answers, round 1", "1")
    assert answers_of(class_app[1], code) == ["4"]
    assert phone.evaluate("() => Object.keys(localStorage).filter(k => k.startsWith('irlab.outbox.'))") == []

    other.close()  # a phone whose page is gone: the lecturer sees who does not follow
    expect(lecturer.get_by_test_id("irl-count-note").first).to_have_text("1 not following", timeout=TIMEOUT)


def test_a_phone_that_lost_its_connection_still_sees_the_time_left(browsers, class_app):  # noqa: F811
    """The connection banner sits over the top of the phone's screen, where the timer is: it shows the time left
    itself (it covered the timer and said nothing of it), and covers none of the question's answer form."""
    lecturer, code = start_class(browsers)
    phone = join(browsers, code, phone=True)
    desk_tab(lecturer, "The class")
    lecturer.get_by_test_id("stSidebar").get_by_text("1 min", exact=True).click()
    expect(lecturer.get_by_test_id("stSidebar").get_by_role("radio", name="1 min")).to_be_checked(timeout=TIMEOUT)
    desk_tab(lecturer, "Add a question")
    lecturer.get_by_role("button", name="Add and show").click()
    expect(phone.get_by_test_id("irl-clock")).to_have_text(re.compile(r"^[01]:\d\d$"), timeout=TIMEOUT)
    expect(phone.get_by_test_id("irl-send")).to_be_visible(timeout=TIMEOUT)
    phone.context.set_offline(True)
    banner = phone.get_by_test_id("irl-connection")
    expect(banner).to_contain_text("Connection lost: reconnecting", timeout=TIMEOUT)
    clock = phone.get_by_test_id("irl-connection-clock")
    expect(clock).to_have_text(re.compile(r"^[01]:\d\d left to answer$"))
    expect(clock).to_be_in_viewport(ratio=1)
    shown = clock.inner_text()
    expect(clock).not_to_have_text(shown, timeout=TIMEOUT)  # it counts down, offline, on the server's clock
    below = banner.bounding_box()["y"] + banner.bounding_box()["height"]
    assert below <= answer_box(phone).bounding_box()["y"], "the banner covers the answer box"
    phone.context.set_offline(False)
    expect(banner).to_be_hidden(timeout=TIMEOUT)


def test_the_projector_counts_follow_the_answers_without_a_run_of_its_page(browsers, class_app):  # noqa: F811
    lecturer, code = start_class(browsers)
    phones: list[Page] = [join(browsers, code, phone=True) for _ in range(3)]
    lecturer.get_by_role("button", name="Add and show").click()
    for page in phones:
        expect(page.get_by_test_id("irl-send")).to_be_visible(timeout=TIMEOUT)
    analytics = lecturer.get_by_text("Class analytics (after the lecture)")
    for number, page in enumerate(phones, start=1):
        answer(page, str(number), phone=True)
        wait_for_count(lecturer, "Answers, round 1", str(number))
        expect(analytics).to_be_visible()  # the projector's runs redraw only it: what the page draws below stays
    assert answers_of(class_app[1], code) == ["1", "2", "3"]


MUTABLE_STREAMS = """(() => {
  // every event stream the page opens, and a way to make one go silent (as a stream a NAT or a sleeping phone's
  // network forgot: open, nothing arrives, no error)
  const Real = window.EventSource;
  window.__irlStreams = [];
  window.__irlMuted = new Set();
  window.EventSource = class extends Real {
    constructor(url, init) { super(url, init); window.__irlStreams.push(this); }
    addEventListener(type, listener, options) {
      super.addEventListener(type, (event) => { if (!window.__irlMuted.has(this)) listener.call(this, event); },
                             options);
    }
  };
})();"""


def test_a_phone_whose_stream_goes_silent_opens_it_again_and_catches_up_without_a_reload(browsers):  # noqa: F811
    lecturer, code = start_class(browsers)
    phone = join(browsers, code, phone=True)
    phone.context.add_init_script(MUTABLE_STREAMS)
    phone.reload()  # the seat stays (the link and the cookie); now its streams can be muted
    wait_for_app(phone)
    expect(phone.get_by_text("Waiting for the lecturer")).to_be_visible(timeout=TIMEOUT)
    phone.wait_for_function("() => window.__irlStreams.length === 1", timeout=TIMEOUT)
    phone.evaluate("() => { window.__irlMuted = new Set(window.__irlStreams); window.__irlSamePage = true; }")
    lecturer.get_by_role("button", name="Add and show").click()
    wait_for_count(lecturer, "Answers, round 1", "0")
    # the stream's beats stop arriving: after 25 s of silence the page opens a new stream and shows the question
    phone.wait_for_function("() => window.__irlStreams.length >= 2", timeout=60_000)
    expect(phone.get_by_test_id("irl-send")).to_be_visible(timeout=TIMEOUT)
    assert phone.evaluate("() => window.__irlSamePage") is True  # no reload: the page caught up by itself
    expect(phone.get_by_test_id("irl-connection")).to_be_hidden()
