"""Tiles on a phone in real headless Chromium (390 x 844, touch): a finger drags, swipes, gives up; a mouse drag
can be called off; 44-px move buttons and nothing wider than the screen.

Playwright taps but has no touch drag, so a finger's gestures go through the DevTools Protocol
(``Input.dispatchTouchEvent``, :func:`tests.browser.finger`); Chromium turns them into pointer events with
pointerType "touch", which is what the tiles listen to (irlab/ui/components/tiles/drag.js).
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

import irlab
from irlab.explain.formula import format_number
from irlab.scenarios.cats_in_boxes import CATS_IN_BOXES
from tests.browser import PHONE, finger, press_and_hold, touch_drag_tile
from tests.ui.conftest import BrowserPage

pytestmark = pytest.mark.browser

BINARY = CATS_IN_BOXES.query("cat-in-a-box").judgments
START = list("12345678")
STREAMLIT_HEADER = 60
"""Streamlit's header bar covers the top of the page (px)."""

WIDER_THAN_THE_SCREEN = """() => {
  const all = [];
  const walk = root => {
    for (const el of root.querySelectorAll('*')) { all.push(el); if (el.shadowRoot) walk(el.shadowRoot); } };
  walk(document.querySelector('[data-testid="stMain"]'));  // not plotly's text measurer, parked at x = -10000
  const up = el => el.parentElement || (el.getRootNode() instanceof ShadowRoot ? el.getRootNode().host : null);
  const out = [];
  for (const el of all) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    let inside = false;  // content of a box that scrolls or clips sideways (a row of tiles) is that box's business
    for (let p = up(el); p && p !== document.body; p = up(p))
      if (['auto', 'scroll', 'hidden', 'clip'].includes(getComputedStyle(p).overflowX)) { inside = true; break; }
    if (!inside && (r.right > innerWidth + 1 || r.left < -1))
      out.push(`${el.dataset && el.dataset.testid || el.tagName} spans ${Math.round(r.left)}..${Math.round(r.right)}`);
  }
  return {page: document.documentElement.scrollWidth, wide: out.slice(0, 5)};
}"""

MOVE_BUTTONS = """() => Array.from(
    document.querySelectorAll('[data-testid="irl-move-up"], [data-testid="irl-move-down"]'))
  .map(b => b.getBoundingClientRect()).filter(r => r.width > 0).map(r => [Math.round(r.width), Math.round(r.height)])"""

ROW = """() => { const list = document.querySelector('[data-testid="irl-list"]');
  return {scrollLeft: list.scrollLeft, scrolls: list.scrollWidth > list.clientWidth,
          lifted: document.querySelectorAll('.irl-lifted').length}; }"""


@pytest.fixture
def phone(browser, app_url) -> Iterator[BrowserPage]:
    """A fresh page on a phone: 390 x 844, touch, mobile; fails the test if our code logged errors."""
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = BrowserPage(context.new_page(), app_url)
    yield page
    context.close()
    assert not page.errors, page.errors


def centre(locator) -> tuple[float, float]:
    box = locator.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_a_finger_drags_a_tile_and_the_numbers_follow_in_view(phone):
    phone.open("recall-precision?k=1")
    assert phone.metric("Recall@1") == "0" and phone.metric("Precision@1") == "0"
    assert phone.page.evaluate("matchMedia('(pointer: coarse)').matches"), "the context must look like a phone"
    touch_drag_tile(phone.page, phone.tiles().nth(1), phone.tiles().nth(0), after=False)
    expected = list("21345678")
    phone.wait_for_order(expected)
    phone.wait_for_metric("Recall@1", format_number(irlab.recall_at_k(expected, BINARY, 1)))
    phone.wait_for_metric("Precision@1", format_number(irlab.precision_at_k(expected, BINARY, 1)))
    assert phone.metrics() == {"Recall@1": "0.25", "Precision@1": "1"}
    phone.page.wait_for_function("() => window.location.search.includes('order=2%2C1%2C3')")
    assert phone.page.evaluate(ROW)["lifted"] == 0
    # the numbers (above the tiles) and the row of tiles fit one screen together: both stay in view during a move
    room = phone.page.evaluate("""() => {
        const boxes = [document.querySelector('[data-testid="irl-list"]'),
                       ...document.querySelectorAll('[data-testid="irl-metric"]')].map(e => e.getBoundingClientRect());
        return Math.max(...boxes.map(r => r.bottom)) - Math.min(...boxes.map(r => r.top)); }""")
    assert 0 < room <= PHONE["height"] - STREAMLIT_HEADER, f"tiles and numbers need {room} px of height"


def test_a_finger_holding_a_tile_asks_for_its_moves_and_its_drop_is_drawn_ahead(phone):
    """The finger's press asks for the tile's moves; they arrive while the finger holds the tile (here the test waits
    for them), and the drop then shows its numbers before the server has answered the move."""
    phone.open("recall-precision?k=1")
    assert phone.metric("Recall@1") == "0"
    source, target = phone.tiles().nth(1), phone.tiles().nth(0)
    source.scroll_into_view_if_needed()
    (x0, y0), goal = centre(source), target.bounding_box()
    x1, y1 = goal["x"] + goal["width"] * 0.2, goal["y"] + goal["height"] / 2  # before the first tile
    with finger(phone.page) as touch:
        press_and_hold(phone.page, touch, x0, y0)
        phone.page.wait_for_function("() => window.__irlRegionStats.moveScreens === 1")
        updates = phone.page.evaluate("window.__irlRegionStats.updates")
        for step in range(1, 11):
            touch("touchMove", x0 + (x1 - x0) * step / 10, y0 + (y1 - y0) * step / 10)
            phone.page.wait_for_timeout(16)
        touch("touchEnd")
    phone.wait_for_metric("Recall@1", "0.25")
    stats = phone.page.evaluate("window.__irlRegionStats")
    assert stats["moved"] == 1
    phone.wait_for_order(list("21345678"))
    phone.page.wait_for_function("(n) => window.__irlRegionStats.updates > n", arg=updates)
    assert phone.metrics() == {"Recall@1": "0.25", "Precision@1": "1"}


def test_a_swipe_over_the_tiles_scrolls_the_row_and_moves_nothing(phone):
    phone.open("recall-precision")
    tile = phone.tiles().nth(1)
    tile.scroll_into_view_if_needed()
    assert phone.page.evaluate(ROW)["scrolls"], "on a phone the eight tiles are one row that scrolls sideways"
    x, y = centre(tile)
    now = time.time()
    with finger(phone.page) as touch:  # at once, without holding: a swipe (its events 16 ms apart, however busy)
        touch("touchStart", x, y, at=now)
        for step in range(1, 11):
            touch("touchMove", x - 15 * step, y, at=now + 0.016 * step)
            phone.page.wait_for_timeout(16)
        touch("touchEnd", at=now + 0.176)
    phone.page.wait_for_function("() => document.querySelector('[data-testid=\"irl-list\"]').scrollLeft > 40")
    phone.page.wait_for_timeout(500)
    assert phone.order() == START and phone.page.evaluate(ROW)["lifted"] == 0


def test_a_touch_the_browser_takes_back_puts_the_tile_back(phone):
    phone.open("recall-precision")
    tile = phone.tiles().nth(1)
    tile.scroll_into_view_if_needed()
    x, y = centre(tile)
    first = phone.tiles().nth(0).bounding_box()
    with finger(phone.page) as touch:
        press_and_hold(phone.page, touch, x, y)
        touch("touchMove", first["x"] + 10, y)  # over the first tile's left half: it would land first
        phone.page.wait_for_function("() => document.querySelector('.irl-drop-before, .irl-drop-after') !== null")
        touch("touchCancel")
    phone.page.wait_for_function("() => document.querySelectorAll('.irl-lifted').length === 0")
    phone.page.wait_for_timeout(500)
    assert phone.order() == START
    assert tile.evaluate("t => t.style.translate") == ""


def test_holding_a_tile_at_the_rows_edge_scrolls_the_row_to_its_end(phone):
    phone.open("recall-precision")
    first = phone.tiles().nth(0)
    first.scroll_into_view_if_needed()
    row = phone.page.locator('[data-testid="irl-list"]')
    box = row.bounding_box()
    end = row.evaluate("l => l.scrollWidth - l.clientWidth")  # measured before a lifted tile widens the row
    assert end > 300
    x, y = centre(first)
    edge = box["x"] + box["width"] - 4
    with finger(phone.page) as touch:
        press_and_hold(phone.page, touch, x, y)
        for step in range(1, 11):
            touch("touchMove", x + (edge - x) * step / 10, y)
            phone.page.wait_for_timeout(16)
        reached = row.evaluate("""(l, end) => new Promise(done => { const t0 = performance.now();
            const check = () => l.scrollLeft >= end - 1 ? done(true)
                : performance.now() - t0 > 10000 ? done(false) : requestAnimationFrame(check);
            check(); })""", end)
        assert reached, f"the row stopped at {row.evaluate('l => l.scrollLeft')} of {end}"
        phone.page.wait_for_timeout(300)
        assert abs(row.evaluate("l => l.scrollLeft") - end) <= 1, "autoscroll stops at the row's end"
        touch("touchEnd")
    phone.wait_for_order(list("23456781"))


@pytest.mark.parametrize("slug", ["actual-vs-predicted", "recall-precision", "mrr", "ndcg", "ndcg?present=1"])
def test_move_buttons_are_44_px_and_nothing_is_wider_than_the_phone(phone, slug):
    phone.open(slug)
    phone.tiles().first.wait_for()
    buttons = phone.page.evaluate(MOVE_BUTTONS)
    assert len(buttons) >= 16
    assert all(width >= 44 and height >= 44 for width, height in buttons), buttons
    toolbar = phone.page.locator('[data-testid="irl-reset"]').first.bounding_box()
    assert toolbar["height"] >= 44
    found = phone.page.evaluate(WIDER_THAN_THE_SCREEN)
    assert found == {"page": PHONE["width"], "wide": []}, found


@pytest.mark.parametrize("slug", ["actual-vs-predicted", "ndcg", "conventions", "ndcg?present=1", "join"])
def test_on_a_phone_the_title_starts_below_streamlits_header(phone, slug):
    """The header, with the sidebar's arrow, is opaque on a phone: a title under it would lose its first line
    (presenting, the header is see-through, and the title may start beside the arrow)."""
    phone.open(slug)
    title = phone.page.locator("h1").first.bounding_box()
    header = phone.page.locator('[data-testid="stHeader"]')
    see_through = header.evaluate("h => getComputedStyle(h).backgroundColor === 'rgba(0, 0, 0, 0)'")
    assert see_through == slug.endswith("present=1")
    if not see_through:
        box = header.bounding_box()
        assert title["y"] >= box["y"] + box["height"], (title, box)


def test_the_phone_hint_says_how_to_drag_with_a_finger(phone):
    phone.open("recall-precision")
    hint = phone.page.locator('[data-testid="irl-hint"]').inner_text()
    assert "hold a tile" in hint and "arrow buttons" in hint


def test_escape_calls_off_a_mouse_drag(app_page):
    app_page.open("recall-precision")
    source, target = app_page.tiles().nth(3), app_page.tiles().nth(0)
    x, y = centre(source)
    goal_x, goal_y = centre(target)
    mouse = app_page.page.mouse
    mouse.move(x, y)
    mouse.down()
    mouse.move(x + 10, y + 10, steps=2)
    mouse.move(goal_x - 30, goal_y, steps=6)
    app_page.page.wait_for_function("() => document.querySelector('.irl-drop-before, .irl-drop-after') !== null")
    app_page.page.keyboard.press("Escape")
    mouse.up()
    app_page.page.wait_for_timeout(600)
    assert app_page.order() == START
    assert app_page.page.evaluate(ROW)["lifted"] == 0
    assert app_page.page.locator(".irl-drop-before, .irl-drop-after").count() == 0


FORMULAS_FIT = """() => Array.from(document.querySelectorAll('[data-testid="irl-formula"]')).map(box => ({
  fits: box.scrollWidth <= box.clientWidth + 1, size: box.style.fontSize,
  scrolls: box.tabIndex === 0 && box.getAttribute('role') === 'group'
           && box.getAttribute('aria-label') === 'Formula (scrolls sideways)'}))"""


def test_on_a_phone_each_formula_fits_or_scrolls_with_the_keyboard(phone):
    """NDCG's formulas on a phone, presenting (the largest type): a formula wider than its column is made smaller
    (to 70% at least); one that still does not fit is a focus stop that says it scrolls sideways, and only then
    (region.js, fitSoon)."""
    phone.open("ndcg?present=1")
    phone.page.locator('[data-testid="irl-formula"]').first.wait_for()
    phone.page.wait_for_timeout(300)
    formulas = phone.page.evaluate(FORMULAS_FIT)
    assert formulas and any(formula["size"] for formula in formulas)  # some were made smaller
    assert all(formula["fits"] != formula["scrolls"] for formula in formulas), formulas


DELTA_LINES = """() => Array.from(document.querySelectorAll('[data-testid="irl-metric-delta"]')).map(delta => {
  const range = document.createRange();
  range.selectNodeContents(delta);
  return [delta.textContent, new Set(Array.from(range.getClientRects()).map(rect => Math.round(rect.top))).size];
})"""


def test_on_a_phone_each_change_keeps_its_arrow_on_its_line(phone):
    """NDCG on a phone, a tap on the K slider from K = 6 to K = 3 (the boxes are two to a row, narrow): each change,
    an arrow and a number such as "▼ -3.1956", is on one line. Before, the arrow could stay at the end of the
    value's line and the number wrap under it."""
    phone.open("ndcg?k=6")
    phone.metric("NDCG@6")
    track = phone.page.locator('[data-testid="irl-k-input"]').bounding_box()
    thumb = 16  # Chromium's range thumb: the track runs from half a thumb in to half a thumb from the end
    left, right = track["x"] + thumb / 2, track["x"] + track["width"] - thumb / 2
    phone.page.touchscreen.tap(left + (right - left) * 2 / 7, track["y"] + track["height"] / 2)  # K = 3 of 1-8
    phone.metric("NDCG@3")
    phone.page.wait_for_function("""() => Array.from(document.querySelectorAll('[data-testid="irl-metric-delta"]'))
                                     .filter(delta => delta.dataset.trend === 'down').length === 4""")
    lines = phone.page.evaluate(DELTA_LINES)
    assert all(count == 1 for text, count in lines if text), lines
