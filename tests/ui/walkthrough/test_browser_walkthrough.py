"""The walkthrough in real headless Chromium: drag, keyboard, slider, toggle, grades, shared links."""

from __future__ import annotations

import pytest

import irlab
from irlab.explain.formula import format_number
from irlab.scenarios.cats_in_boxes import CATS_IN_BOXES, DARK_CAT, WHITE_CAT_IN_A_BOX
from tests.browser import METRICS_JS

pytestmark = pytest.mark.browser

BINARY = CATS_IN_BOXES.query("cat-in-a-box").judgments
GRADES = CATS_IN_BOXES.query(WHITE_CAT_IN_A_BOX).judgments
TILE = '[data-testid="irl-tile"]'
def shown(value: float) -> str:
    return format_number(value)


def k_slider_thumb(app_page):
    """The K slider the live region draws (a range input: its role is slider)."""
    return app_page.page.get_by_role("slider", name="K: results returned")


def test_a_real_mouse_drag_reorders_tiles_and_updates_the_metrics(app_page):
    app_page.open("recall-precision?k=1")
    assert app_page.metric("Recall@1") == "0" and app_page.metric("Precision@1") == "0"
    app_page.drag(app_page.tiles().nth(3), app_page.tiles().nth(0), after=False)  # dark cat to rank 1
    expected = ["4", "1", "2", "3", "5", "6", "7", "8"]
    app_page.wait_for_order(expected)
    app_page.wait_for_metric("Recall@1", shown(irlab.recall_at_k(expected, BINARY, 1)))
    app_page.wait_for_metric("Precision@1", shown(irlab.precision_at_k(expected, BINARY, 1)))
    assert app_page.metrics() == {"Recall@1": "0.25", "Precision@1": "1"}
    app_page.page.wait_for_function("() => window.location.search.includes('order=4%2C1%2C2')")


def test_a_drag_on_the_ndcg_chapter_updates_ndcg(app_page):
    app_page.open("ndcg")
    assert app_page.metric("NDCG@2") == "0.3869"
    app_page.drag(app_page.tiles().nth(1), app_page.tiles().nth(0), after=False)
    app_page.wait_for_metric("NDCG@2", shown(irlab.ndcg_at_k(list("21345678"), GRADES, 2)))
    assert app_page.metric("CG@2") == "4" and app_page.metric("DCG@2") == "4"


def test_keyboard_moves_a_tile_and_keeps_focus_on_it(app_page):
    app_page.open("recall-precision")
    dark_cat = app_page.page.locator(f'{TILE}[data-item-id="4"]')
    dark_cat.focus()
    app_page.page.keyboard.press("Shift+Home")
    expected = ["4", "1", "2", "3", "5", "6", "7", "8"]
    app_page.wait_for_order(expected)
    app_page.page.wait_for_function("() => window.location.search.includes('order=4%2C1%2C2')")
    app_page.page.wait_for_timeout(400)  # the rerun has landed; focus must have survived it
    focused = app_page.page.evaluate("""() => { let el = document.activeElement;
        while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
        return el && el.dataset ? el.dataset.itemId : null; }""")
    assert focused == "4"
    app_page.page.keyboard.press("Shift+ArrowRight")
    app_page.wait_for_order(["1", "4", "2", "3", "5", "6", "7", "8"])
    live = app_page.page.locator('[data-testid="irl-live"]').inner_text()
    assert "rank 2 of 8" in live


def test_the_slider_moves_k(app_page):
    app_page.open("recall-precision")
    thumb = k_slider_thumb(app_page)
    thumb.focus()
    app_page.page.keyboard.press("ArrowRight")
    app_page.wait_for_metric("Recall@3", "0.25")
    app_page.wait_for_metric("Precision@3", "0.3333")
    assert app_page.page.locator('[data-testid="irl-root"]').get_attribute("data-k") == "3"


def test_the_relevance_toggle_switches_modes(app_page):
    app_page.open("actual-vs-predicted")
    assert app_page.metric("FN") == "3"
    # the relevance switch in the title row: a radio group of two buttons
    app_page.page.get_by_role("radiogroup", name="Relevance").get_by_role("radio", name="Graded 0\u20134").click()
    counts = irlab.confusion_at_k(list("12345678"), GRADES, 2)
    app_page.wait_for_metric("FN", str(counts.FN))
    assert app_page.metric("TN") == str(counts.TN) == "0"
    assert app_page.page.locator('[data-testid="irl-root"]').get_attribute("data-mode") == "graded"


def test_grades_are_edited_by_keyboard_in_graded_mode(app_page):
    app_page.open("ndcg")
    first = app_page.tiles().nth(0)
    first.focus()
    app_page.page.keyboard.press("4")
    grades = {**dict(GRADES), "1": 4}
    app_page.wait_for_metric("NDCG@2", shown(irlab.ndcg_at_k(list("12345678"), grades, 2)))
    assert first.get_attribute("data-grade") == "4"
    # the URL is written at the end of the rerun that showed the metric: wait for it, do not race it
    app_page.page.wait_for_url(lambda url: "grades=4%2C4" in url, timeout=10_000)


def test_a_copied_link_opens_the_same_state_in_a_new_page(app_page, browser, page_metrics):
    app_page.open("ndcg")
    app_page.drag(app_page.tiles().nth(4), app_page.tiles().nth(0), after=False)
    app_page.wait_for_order(["5", "1", "2", "3", "4", "6", "7", "8"])
    thumb = k_slider_thumb(app_page)
    thumb.focus()
    app_page.page.keyboard.press("ArrowRight")
    app_page.wait_for_metric("NDCG@3", shown(irlab.ndcg_at_k(list("51234678"), GRADES, 3)))
    app_page.page.wait_for_function("() => window.location.search.includes('k=3')")
    field = app_page.page.locator('[data-testid="irl-url"]')
    app_page.page.wait_for_function(
        """() => Array.from(document.querySelectorAll('[data-testid="stBidiComponentIsolated"]'))
                 .map(h => (h.shadowRoot || h).querySelector('[data-testid="irl-url"]')).filter(Boolean)
                 .some(f => f.value === window.location.href)""")
    link = field.input_value()
    assert link == app_page.page.url
    values = {label: app_page.metric(label) for label in ("CG@3", "DCG@3", "IDCG@3", "NDCG@3")}

    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    try:
        other = context.new_page()
        other.goto(link)
        other.wait_for_selector(TILE)
        other.wait_for_function("() => !document.querySelector('[data-testid=\"stSkeleton\"]')")
        other.wait_for_function(f"n => Object.keys(({METRICS_JS})()).length === n", arg=len(values))
        shown_there = page_metrics(other)
        assert {label: shown_there[label] for label in values} == values
        assert other.locator('[data-testid="irl-root"]').get_attribute("data-order") == "5,1,2,3,4,6,7,8"
    finally:
        context.close()


def test_the_copy_button_copies_the_link(app_page, browser):
    app_page.page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    app_page.open("mrr")
    app_page.page.locator('[data-testid="irl-copy-link"]').click()
    app_page.page.wait_for_function(
        """() => Array.from(document.querySelectorAll('[data-testid="stBidiComponentIsolated"]'))
                 .some(h => (h.shadowRoot || h).querySelector('[data-testid="irl-copied"]')?.textContent)""")
    assert "Copied" in app_page.page.locator('[data-testid="irl-copied"]').inner_text()
    assert app_page.page.evaluate("navigator.clipboard.readText()") == app_page.page.url


def test_each_mrr_row_reorders_its_own_query(app_page):
    app_page.open("mrr")
    assert app_page.metric("RR · dark cat") == "0.2"
    dark = list(CATS_IN_BOXES.query(DARK_CAT).default_ranking)
    app_page.drag(app_page.tiles(2).nth(4), app_page.tiles(2).nth(0), after=False)
    app_page.wait_for_metric("RR · dark cat", "1")
    app_page.wait_for_metric("MRR", "0.8333")
    assert app_page.order(0) == list("12345678") and app_page.order(2)[0] == dark[4]


def test_a_shared_link_works_as_the_first_visit_to_a_fresh_server(browser, start_app, wait_until_ready):
    """Streamlit routes a server's first session through its legacy pages/ router (streamlit#9624);
    irlab.ui.shell.navigation makes that visit the normal app instead of a "Page not found" dialog."""
    with start_app() as url:
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        try:
            page = context.new_page()
            errors = []
            page.on("console", lambda m: m.type == "error" and "status of 404" not in m.text and errors.append(m.text))
            page.goto(f"{url}/map?k=4")
            wait_until_ready(page)
            page.wait_for_function(f"() => 'MAP@4' in ({METRICS_JS})()")
            assert page.locator('[data-testid="stDialog"]').count() == 0
            assert page.get_by_text("Walkthrough: cats in boxes").count() >= 1  # the app's own navigation
            assert not errors, errors
        finally:
            context.close()
