"""Tiles use the screen they have: one row that grows at 1920, one row with the sidebar open while presenting at
1280, sidebar labels that wrap instead of being cut; graded tiles say whether they count as relevant."""

from __future__ import annotations

import pytest

from tests.browser import LAPTOP, PROJECTOR, wait_for_app

pytestmark = pytest.mark.browser

ROW = """() => {
    const list = document.querySelector('[data-testid="irl-list"]');
    const tiles = Array.from(list.querySelectorAll('[data-testid="irl-tile"]')).map(t => t.getBoundingClientRect());
    const title = list.querySelector('[data-testid="irl-title"]');
    const main = document.querySelector('[data-testid="stMainBlockContainer"]').getBoundingClientRect();
    return {rows: new Set(tiles.map(t => Math.round(t.top))).size, left: Math.min(...tiles.map(t => t.left)),
            right: Math.max(...tiles.map(t => t.right)), main: [main.left, main.right],
            font: parseFloat(getComputedStyle(title).fontSize),
            clipped: Array.from(document.querySelectorAll('[data-testid="stSidebar"] [data-testid="stPageLink"] p'))
                .filter(p => p.scrollWidth > p.clientWidth + 1).map(p => p.textContent)};
}"""


def _open(browser, app_url, size, path):
    context = browser.new_context(viewport=size)
    page = context.new_page()
    page.goto(f"{app_url}/{path}")
    wait_for_app(page)
    page.wait_for_selector('[data-testid="irl-tile"]')
    page.wait_for_timeout(600)
    return context, page


def test_at_1920_the_tiles_grow_with_the_screen_in_one_row(browser, app_url):
    context, page = _open(browser, app_url, PROJECTOR, "ndcg")
    try:
        box = page.evaluate(ROW)
        assert box["rows"] == 1
        main_left, main_right = box["main"]
        assert box["right"] - box["left"] > 0.85 * (main_right - main_left)  # was 54% of the width
    finally:
        context.close()


def test_presenting_at_1280_with_the_sidebar_open_keeps_one_row_and_whole_labels(browser, app_url):
    context, page = _open(browser, app_url, LAPTOP, "mrr?present=1")
    try:
        page.locator('[data-testid="stExpandSidebarButton"], [data-testid="stSidebarCollapsedControl"] button') \
            .first.click()
        page.wait_for_function("() => document.querySelector('[data-testid=\"stSidebar\"]')"
                               ".getAttribute('aria-expanded') !== 'false'")
        page.wait_for_timeout(800)
        box = page.evaluate(ROW)
        assert box["rows"] == 1 and box["font"] >= 13
        assert box["clipped"] == []  # "3. Mean reciprocal rank (MRR)" reads whole
    finally:
        context.close()


def test_graded_tiles_in_chapters_1_and_2_say_whether_they_count(app_page):
    app_page.open("recall-precision?rel=graded&level=3")
    counts = app_page.page.locator('[data-testid="irl-counts"]')
    counts.first.wait_for()
    texts = counts.all_inner_texts()
    assert len(texts) == 8
    assert sum(t.strip()[1:].strip().startswith("relevant (") for t in texts) == 4  # grades 4, 3, 4, 3: at least 3
    assert sum("not relevant (" in t for t in texts) == 4
    assert all(t.strip()[0] in "\u2714\u2716" for t in texts)  # a mark as well as the words
    app_page.open("mrr")  # binary chapters: nothing to count
    assert app_page.page.locator('[data-testid="irl-counts"]:not([hidden])').count() == 0


@pytest.mark.parametrize("path", ["actual-vs-predicted?rel=graded&level=2", "recall-precision?rel=graded", "mrr", "map",
                                  "ndcg", "conventions"])
def test_the_tiles_and_the_numbers_are_on_the_first_screen_at_1280x800(browser, app_url, path):
    context, page = _open(browser, app_url, LAPTOP, path)
    try:
        bottom = page.evaluate("""() => Math.max(...[document.querySelector('[data-testid="irl-list"]'),
            ...document.querySelectorAll('[data-testid="irl-metric"]')].map(e => e.getBoundingClientRect().bottom))""")
        assert bottom <= LAPTOP["height"], f"{path}: the tiles and numbers end at {bottom:.0f} px"
    finally:
        context.close()
