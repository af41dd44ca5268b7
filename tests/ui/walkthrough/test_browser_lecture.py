"""Issue 10 in real headless Chromium: undo and redo (buttons, keys, Back), what a move changed, edited grades,
"Try this" ticking off, and presentation mode at both projector sizes (checked on element boxes, not pixels)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

import irlab
from irlab.explain.formula import format_number
from irlab.scenarios.cats_in_boxes import CATS_IN_BOXES, WHITE_CAT_IN_A_BOX
from tests.browser import LAPTOP, PROJECTOR, wait_for_app

pytestmark = pytest.mark.browser

GRADES = CATS_IN_BOXES.query(WHITE_CAT_IN_A_BOX).judgments
SOURCE = list("12345678")
SWAPPED = list("21345678")
UNDO = '[data-testid="irl-undo"]'  # the live region's own buttons
REDO = '[data-testid="irl-redo"]'


def undo_button(app_page):
    return app_page.page.get_by_role("button", name="Undo", exact=True)


def redo_button(app_page):
    return app_page.page.get_by_role("button", name="Redo", exact=True)


def open_chapter(app_page, path: str) -> None:
    """Open a chapter and wait until its live region has drawn its controls."""
    app_page.open(path)
    app_page.page.wait_for_function("() => document.querySelectorAll('[data-testid=\"irl-undo\"]').length === 1")


def press_k(app_page, key: str) -> None:
    """Focus the K slider above the tiles and press ``key``."""
    app_page.page.locator('[data-testid="irl-k-input"]').focus()
    app_page.page.keyboard.press(key)


def test_undo_and_redo_buttons_step_through_moves_and_k(app_page):
    open_chapter(app_page, "ndcg")
    assert undo_button(app_page).is_disabled() and redo_button(app_page).is_disabled()
    app_page.tiles().nth(0).focus()
    app_page.page.keyboard.press("Shift+ArrowRight")  # a move: the grade-4 picture to rank 1
    app_page.wait_for_order(SWAPPED)
    app_page.wait_for_metric("NDCG@2", "0.6131")
    press_k(app_page, "ArrowRight")  # K from 2 to 3
    app_page.wait_for_metric("NDCG@3", "0.5608")
    undo_button(app_page).click()
    app_page.wait_for_metric("NDCG@2", "0.6131")
    undo_button(app_page).click()
    app_page.wait_for_order(SOURCE)
    app_page.wait_for_metric("NDCG@2", "0.3869")
    app_page.page.wait_for_function(f"() => document.querySelector('{UNDO}').disabled")
    redo_button(app_page).click()
    app_page.wait_for_order(SWAPPED)
    redo_button(app_page).click()
    app_page.wait_for_metric("NDCG@3", "0.5608")
    app_page.page.wait_for_function(f"() => document.querySelector('{REDO}').disabled")


def test_ctrl_z_undoes_and_ctrl_shift_z_redoes(app_page):
    open_chapter(app_page, "recall-precision")
    press_k(app_page, "ArrowRight")
    app_page.wait_for_metric("Recall@3", "0.25")
    app_page.page.locator("h1").click()  # focus leaves the slider: the shortcut works anywhere on the page
    app_page.page.keyboard.press("Control+z")
    app_page.wait_for_metric("Recall@2", "0.25")
    app_page.page.keyboard.press("Control+Shift+Z")
    app_page.wait_for_metric("Recall@3", "0.25")


def test_the_browsers_back_button_returns_to_the_previous_state(app_page):
    open_chapter(app_page, "ndcg")
    app_page.tiles().nth(0).focus()
    app_page.page.keyboard.press("Shift+ArrowRight")
    app_page.wait_for_order(SWAPPED)
    app_page.page.wait_for_function("() => window.location.search.includes('order=2%2C1')")
    press_k(app_page, "ArrowRight")
    app_page.wait_for_metric("NDCG@3", "0.5608")
    app_page.page.wait_for_function("() => window.location.search.includes('k=3')")
    app_page.page.go_back()
    app_page.wait_for_metric("NDCG@2", "0.6131")  # K back to 2, the move kept
    app_page.wait_for_order(SWAPPED)
    app_page.page.go_back()
    app_page.wait_for_order(SOURCE)
    app_page.wait_for_metric("NDCG@2", "0.3869")
    app_page.page.go_forward()
    app_page.wait_for_order(SWAPPED)


def test_every_headline_number_shows_its_change_after_a_move(app_page):
    open_chapter(app_page, "ndcg")
    delta = '[data-testid="irl-metric-delta"]'
    assert not "".join(app_page.page.locator(delta).all_inner_texts()).strip()  # nothing moved yet
    app_page.tiles().nth(0).focus()
    app_page.page.keyboard.press("Shift+ArrowRight")
    app_page.wait_for_metric("NDCG@2", "0.6131")
    app_page.page.wait_for_function(
        "() => Array.from(document.querySelectorAll('[data-testid=\"irl-metric-delta\"]'))"
        ".filter(d => d.textContent.trim()).length === 4")
    deltas = app_page.page.locator(delta).all_inner_texts()
    # the change of the exact values (0.61315 - 0.38689), so it may differ from the shown values' difference in the
    # last digit
    change = irlab.ndcg_at_k(SWAPPED, GRADES, 2) - irlab.ndcg_at_k(SOURCE, GRADES, 2)
    # colour is not the only sign: an arrow (a character, read out too) accompanies each change, joined to it by a
    # no-break space so that a narrow box never leaves the arrow alone at the end of a line
    assert [d.strip() for d in deltas] == ["no change", "\u25b2\u00a0+1.4763", "no change",
                                           "\u25b2\u00a0+" + format_number(change)], deltas
    trends = app_page.page.locator(delta).evaluate_all("ds => ds.map(d => d.dataset.trend)")
    assert trends == ["same", "up", "same", "up"]


def test_an_edited_grade_is_marked_and_its_own_reset_puts_it_back(app_page):
    open_chapter(app_page, "ndcg")
    white_cat = app_page.page.locator('[data-testid="irl-tile"][data-item-id="1"]')
    white_cat.focus()
    app_page.page.keyboard.press("3")  # the white cat (judged 0) graded 3
    app_page.wait_for_metric("DCG@2", "5.5237")  # 3 / log2(2) + 4 / log2(3): the edited grade counts at rank 1
    assert app_page.metric("IDCG@2") == "6.5237"  # the ideal top two are still the two grade-4 pictures
    assert white_cat.get_attribute("data-edited") == "true"
    assert "edited (judged 0)" in white_cat.locator('[data-testid="irl-edited"]').inner_text()
    assert not app_page.page.get_by_role("button", name="Reset grades").is_disabled()
    white_cat.locator('[data-testid="irl-grade-reset"]').click()
    app_page.wait_for_metric("DCG@2", "2.5237")
    expect(white_cat).not_to_have_attribute("data-edited", "true")
    app_page.page.wait_for_function(
        "() => document.querySelector('[data-testid=\"irl-reset-grades\"]').disabled")


def test_try_this_steps_tick_themselves_off(app_page):
    open_chapter(app_page, "recall-precision")
    box = app_page.page.locator('[data-testid="irl-try"]')
    assert "0 of 3 done" in box.inner_text()
    for _ in range(6):
        press_k(app_page, "ArrowRight")
        app_page.page.wait_for_timeout(150)
    app_page.wait_for_metric("Recall@8", "1")
    app_page.page.wait_for_function(
        "() => document.querySelector('[data-testid=\"irl-try\"]').textContent.includes('1 of 3 done')")
    assert "Done:" in box.inner_text()
    press_k(app_page, "ArrowLeft")  # a reached step stays ticked when K moves on
    app_page.wait_for_metric("Recall@7", "1")
    assert "1 of 3 done" in box.inner_text()


@pytest.mark.parametrize("size", [LAPTOP, PROJECTOR], ids=["1280x800", "1920x1080"])
@pytest.mark.parametrize("slug", ["actual-vs-predicted", "recall-precision", "mrr", "map", "ndcg"])
def test_presentation_mode_shows_ranking_and_numbers_on_one_screen(browser, app_url, size, slug):
    context = browser.new_context(viewport=size)
    page = context.new_page()
    try:
        page.goto(f"{app_url}/{slug}?present=1")
        wait_for_app(page)
        page.wait_for_selector('[data-testid="irl-tile"]')
        page.wait_for_timeout(600)
        boxes = page.evaluate("""() => {
            const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
            const lists = Array.from(document.querySelectorAll('[data-testid="irl-list"]'))
                .filter(l => l.getBoundingClientRect().width > 0);  // a folded query's tiles are not shown
            const rows = lists.map(l => Array.from(l.querySelectorAll('[data-testid="irl-tile"]')).map(box));
            const list = lists[0];
            const sidebar = document.querySelector('[data-testid="stSidebar"]');
            const metrics = Array.from(document.querySelectorAll('[data-testid="irl-metric"]')).map(box);
            return {rows, list: box(list), metrics,
                    main: box(document.querySelector('[data-testid="stMainBlockContainer"]')),
                    sidebar: sidebar ? sidebar.getAttribute('data-collapsed') : null,
                    sidebarRight: sidebar ? sidebar.getBoundingClientRect().right : 0,
                    scrollWidth: document.documentElement.scrollWidth, width: window.innerWidth};
        }""")
        # MRR and MAP show a row per query; each is one row of eight, and the first (the shared ranking) is on screen
        for tiles in boxes["rows"]:
            tops = {round(t[1]) for t in tiles}
            assert len(tiles) == 8 and len(tops) == 1, tops
        assert boxes["sidebar"] == "true" and boxes["sidebarRight"] <= 1  # folded away
        main_left, _, main_right, _ = boxes["main"]
        assert boxes["list"][2] - boxes["list"][0] > 0.9 * (main_right - main_left)  # across the full width
        assert max(t[3] for t in boxes["rows"][0]) <= size["height"]  # the ranking without scrolling
        assert boxes["metrics"] and max(m[3] for m in boxes["metrics"]) <= size["height"]  # and the numbers
        assert boxes["scrollWidth"] <= boxes["width"]  # nothing sticks out sideways
        page.get_by_role("button", name="Leave presentation").click()  # one click back
        page.wait_for_function("() => document.querySelector('[data-testid=\"stSidebar\"]')"
                               ".getAttribute('data-collapsed') === 'false'")
    finally:
        context.close()
