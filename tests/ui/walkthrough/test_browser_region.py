"""The live region redraws only what changed: untouched numbers keep their nodes, unchanged charts are not redrawn."""

from __future__ import annotations

import pytest

from tests.browser import drag_tile

pytestmark = pytest.mark.browser

WATCH = """() => {
  window.__irlMutated = new Set();
  const values = Array.from(document.querySelectorAll('[data-testid="irl-metric"]'));
  for (const box of values) {
    const label = box.querySelector('[data-testid="irl-metric-label"]').textContent;
    new MutationObserver(() => window.__irlMutated.add(label))
      .observe(box.querySelector('[data-testid="irl-metric-value"]'), {childList: true, characterData: true,
                                                                       subtree: true});
  }
  window.__irlChartsBefore = window.__irlChartDraws.count;
}"""


def test_a_move_in_one_query_touches_only_the_numbers_it_changes(app_page):
    """MRR: moving the dark cat to rank 1 of "dark cat" changes RR · dark cat and MRR; the other two RRs stay."""
    app_page.open("mrr")
    app_page.metric("MRR")
    app_page.page.evaluate(WATCH)
    row = 2  # the third query, "dark cat"
    tiles = app_page.tiles(row)
    query_list = app_page.page.locator('[data-testid="irl-list"]').nth(row)
    dark = query_list.locator('[data-testid="irl-tile"][data-item-id="4"]')
    dark.focus()
    app_page.page.keyboard.press("Shift+Home")
    app_page.wait_for_metric("RR · dark cat", "1")
    app_page.wait_for_metric("MRR", "0.8333")
    assert tiles.count() == 8
    mutated = set(app_page.page.evaluate("Array.from(window.__irlMutated)"))
    assert mutated == {"RR · dark cat", "MRR"}, mutated


def _move_on_recall_precision(app_page, item: str, key: str, order: list[str]) -> int:
    """On a drawn recall & precision page, watch the numbers and the chart, press ``key`` on picture ``item``,
    wait until the tiles show ``order`` and the server's answer is drawn; returns how often the chart was drawn."""
    app_page.open("recall-precision")
    app_page.metric("Recall@2")
    app_page.page.wait_for_function("() => window.__irlChartDraws && window.__irlChartDraws.count >= 1")
    app_page.page.wait_for_timeout(500)
    app_page.page.evaluate(WATCH)
    app_page.page.locator(f'[data-testid="irl-tile"][data-item-id="{item}"]').focus()
    app_page.page.keyboard.press(key)
    app_page.wait_for_order(order)
    app_page.page.wait_for_function("order => window.location.search.includes('order=' + order.join('%2C'))",
                                    arg=order)
    app_page.ready()
    app_page.page.wait_for_timeout(800)  # the server's answer has arrived and been drawn
    return app_page.page.evaluate("window.__irlChartDraws.count - window.__irlChartsBefore")


def test_a_move_that_changes_no_number_and_no_curve_touches_neither(app_page):
    """Recall & precision at K = 2: pictures 4 and 5 are both relevant, so swapping them (ranks 4 and 5) changes the
    order on screen and in the link, but no number and no point of either curve: the numbers' nodes are not
    touched and the chart is not drawn again."""
    drawn = _move_on_recall_precision(app_page, "4", "Shift+ArrowRight", ["1", "2", "3", "5", "4", "6", "7", "8"])
    assert app_page.metrics() == {"Recall@2": "0.25", "Precision@2": "0.5"}
    assert app_page.page.evaluate("Array.from(window.__irlMutated)") == []
    assert drawn == 0


def test_a_move_that_changes_the_curves_redraws_the_chart_once(app_page):
    """The counter itself can fail: moving a relevant picture to rank 1 changes Recall@1, so the chart is drawn once
    more, and only once."""
    assert _move_on_recall_precision(app_page, "2", "Shift+Home", ["2", "1", "3", "4", "5", "6", "7", "8"]) == 1


PAINT_WATCH = """(label) => {
  const charts = () => JSON.stringify(Array.from(document.querySelectorAll('.js-plotly-plot'))
      .map(plot => (plot.data || []).map(trace => [trace.x, trace.y, trace.text])));
  const box = Array.from(document.querySelectorAll('[data-testid="irl-metric"]'))
      .find(b => b.querySelector('[data-testid="irl-metric-label"]').textContent === label);
  const observer = new MutationObserver(() => {
    observer.disconnect();
    // the charts as they are when the number changes (the same task sets the number and hands the charts their
    // new figures), and then in the frame that paints the number
    const atNumber = charts();
    window.__irlChartsChanged = () => charts() !== atNumber;
    requestAnimationFrame(() => { window.__irlChartsRedrawnBeforePaint = charts() !== atNumber; });
  });
  observer.observe(box.querySelector('[data-testid="irl-metric-value"]'), {childList: true, characterData: true,
                                                                         subtree: true});
}"""


def test_a_moves_numbers_are_painted_before_its_charts_are_redrawn(app_page):
    """NDCG: a move's numbers and its charts' figures arrive together, but the charts (Plotly's work, the largest part
    of a move's) are redrawn only after the frame that shows the numbers, so a slow laptop sees the numbers sooner."""
    app_page.open("ndcg")
    app_page.metric("NDCG@2")
    app_page.page.wait_for_function("() => window.__irlChartDraws && window.__irlChartDraws.count >= 2")
    app_page.page.wait_for_timeout(500)
    app_page.page.evaluate(PAINT_WATCH, "NDCG@2")
    app_page.page.locator('[data-testid="irl-tile"][data-item-id="1"]').focus()
    app_page.page.keyboard.press("Shift+ArrowRight")  # white cat (grade 0) to rank 2: NDCG@2 0.3869 -> 0.6131
    app_page.wait_for_metric("NDCG@2", "0.6131")
    app_page.page.wait_for_function("() => window.__irlChartsRedrawnBeforePaint !== undefined")
    assert app_page.page.evaluate("window.__irlChartsRedrawnBeforePaint") is False
    app_page.page.wait_for_function("() => window.__irlChartsChanged()")  # and then they are redrawn


KEEP_CALCDATA = """() => {
  // Plotly keeps a plot's computed traces (calcdata) when only its layout changed, and computes them anew for new
  // data: the same object after an update means the traces were not recomputed and redrawn
  window.__irlCalcdata = Array.from(document.querySelectorAll('.js-plotly-plot')).map(plot => plot.calcdata);
}"""
CALCDATA_KEPT = ("() => Array.from(document.querySelectorAll('.js-plotly-plot'))"
                 ".map((p, i) => p.calcdata === window.__irlCalcdata[i])")
K_LINES_AT = ("(k) => { const plots = Array.from(document.querySelectorAll('.js-plotly-plot'));"
              " return plots.length >= 2 && plots.every(p => { const text = p.querySelector("
              "'[data-testid=\"irl-chart-marks\"] text'); return text && text.textContent === 'K = ' + k; }); }")
MARKS = """() => Array.from(document.querySelectorAll('.js-plotly-plot')).map(plot => {
  // each mark's place against the plot's own axes (Plotly's, as the chart component reads them)
  const full = plot._fullLayout, xa = full.xaxis, ya = full.yaxis;
  const marks = Array.from(plot.querySelectorAll('[data-testid="irl-chart-marks"] > *'));
  return {shapes: plot.layout.shapes || [], annotations: plot.layout.annotations || [],
          line: marks.filter(m => m.dataset.mark === 'line').map(m => Number(m.getAttribute('x1')) - xa._offset)
            .map(x => xa.p2l(x)),
          rings: marks.filter(m => m.dataset.mark === 'ring')
            .map(m => [xa.p2l(Number(m.getAttribute('cx')) - xa._offset),
                       ya.p2l(Number(m.getAttribute('cy')) - ya._offset)]),
          texts: marks.filter(m => m.dataset.mark === 'text').map(m => m.textContent)};
})"""


def test_a_change_of_k_moves_the_charts_marks_without_redrawing_their_traces(app_page):
    """NDCG: the point at K is marked by layout (the K line, a ring round each curve's point at K and its value), which
    the chart component draws over the plot itself, placed with the plot's axes: K = 2 -> 3 moves the marks of both
    charts and calls Plotly for neither (no figure drawn, no trace recomputed); a move (new data) recomputes them."""
    app_page.open("ndcg")
    app_page.metric("NDCG@2")
    app_page.page.wait_for_function("() => window.__irlChartDraws && window.__irlChartDraws.count >= 2")
    app_page.page.wait_for_function(K_LINES_AT, arg=2)
    app_page.page.evaluate(KEEP_CALCDATA)
    draws = app_page.page.evaluate("window.__irlChartDraws.count")
    app_page.page.locator('[data-testid="irl-k-input"]').focus()
    app_page.page.keyboard.press("ArrowRight")
    app_page.metric("NDCG@3")
    app_page.page.wait_for_function(K_LINES_AT, arg=3)
    assert app_page.page.evaluate(CALCDATA_KEPT) == [True, True]
    assert app_page.page.evaluate("window.__irlChartDraws.count") == draws  # Plotly was not called
    dcg = app_page.page.evaluate(MARKS)[0]
    assert dcg["shapes"] == [] and dcg["annotations"] == []  # Plotly draws none of them
    assert dcg["texts"] == ["K = 3", "3.0237", "8.0237"]  # "K = 3" and DCG@3, IDCG@3 beside their points
    # where the marks sit, read back through the axes, to within a pixel
    assert [round(x, 1) for x in dcg["line"]] == [3]
    assert [(round(x, 1), round(y, 1)) for x, y in dcg["rings"]] == [(3, 3.0), (3, 8.0)]

    app_page.page.evaluate(KEEP_CALCDATA)
    app_page.page.locator('[data-testid="irl-tile"][data-item-id="1"]').focus()
    app_page.page.keyboard.press("Shift+ArrowRight")  # the curves change: the traces are recomputed
    app_page.page.wait_for_function(f"() => !({CALCDATA_KEPT})().some(Boolean)")


WATCH_K_CHANGE = """() => {
  const stats = window.__irlRegionStats;
  window.__irlSeen = [];
  const label = document.querySelector('[data-testid="irl-metric-label"]');
  if (window.__irlSeenWatch) window.__irlSeenWatch.disconnect();
  window.__irlSeenWatch = new MutationObserver(() => window.__irlSeen.push({label: label.textContent,
                                                                           updates: stats.updates}));
  window.__irlSeenWatch.observe(label, {childList: true, characterData: true, subtree: true});
  return {updates: stats.updates, numbers: stats.numbers};
}"""
K_SLIDER = '[data-testid="irl-k-input"]'


def test_k_changes_by_keyboard_are_drawn_without_a_run_and_the_server_learns_the_k_once(app_page):
    """NDCG: three presses of ArrowRight (K 2 -> 5) each show their K's numbers at once, drawn from the K form, with no
    answer from the server in between; once the learner pauses, K = 5 is posted to the server once, with no run (no
    answer; irlab/ui/walkthrough/settle.py), and the link says k=5."""
    app_page.open("ndcg")
    app_page.metric("NDCG@2")
    slider = app_page.page.locator(K_SLIDER)
    slider.focus()  # the learner comes to the slider: the region asks for its K form
    app_page.page.wait_for_function("() => window.__irlRegionStats.kForms >= 1")
    before = app_page.page.evaluate(WATCH_K_CHANGE)
    for k in (3, 4, 5):
        app_page.page.keyboard.press("ArrowRight")
        app_page.metric(f"NDCG@{k}", timeout=5_000)
    seen = app_page.page.evaluate("window.__irlSeen")
    assert [record["label"] for record in seen] == ["CG@3", "CG@4", "CG@5"]
    assert all(record["updates"] == before["updates"] for record in seen)  # no run, no answer
    assert slider.get_attribute("aria-valuetext") == "K = 5" and slider.input_value() == "5"
    app_page.page.wait_for_function("() => window.location.search.includes('k=5')")
    app_page.page.wait_for_function("() => window.__irlRegionStats.settled === 1")
    assert app_page.page.evaluate("window.__irlRegionStats.updates") == before["updates"]  # settled with no run


def test_a_mouse_drag_of_the_k_slider_draws_every_k_it_passes_and_tells_the_server_once(app_page):
    """Recall & precision: a mouse drags the K slider's thumb from K = 2 to the end, resting on the way longer than a
    pause: Recall@8 and Precision@8 are shown before any answer, and the server is told K = 8 once (posted, no run),
    after the thumb is let go (a thumb still held has not settled; before, a drag resting 0.6 s told the server the K
    it rested on)."""
    app_page.open("recall-precision")
    app_page.metric("Recall@2")
    app_page.page.locator(K_SLIDER).hover()  # a mouse resting on the slider asks for its K form
    app_page.page.wait_for_function("() => window.__irlRegionStats.kForms >= 1")
    before = app_page.page.evaluate(WATCH_K_CHANGE)
    box = app_page.page.locator(K_SLIDER).bounding_box()
    thumb = 16
    y = box["y"] + box["height"] / 2
    app_page.page.mouse.move(box["x"] + thumb / 2 + (box["width"] - thumb) / 7, y)  # on the thumb at K = 2
    app_page.page.mouse.down()
    app_page.page.mouse.move(box["x"] + box["width"] / 2, y, steps=6)
    app_page.page.wait_for_timeout(1_000)  # resting, still held
    app_page.page.mouse.move(box["x"] + box["width"] + 20, y, steps=6)
    app_page.metric("Recall@8", timeout=5_000)
    assert app_page.page.evaluate("window.__irlRegionStats.updates") == before["updates"]
    assert app_page.page.evaluate("window.__irlRegionStats.settled") == 0  # a thumb still held has not settled
    app_page.page.mouse.up()
    seen = app_page.page.evaluate("window.__irlSeen")
    assert seen and all(record["updates"] == before["updates"] for record in seen)
    assert app_page.metrics() == {"Recall@8": "1", "Precision@8": "0.5"}
    app_page.page.wait_for_function("() => window.location.search.includes('k=8')")
    app_page.page.wait_for_function("() => window.__irlRegionStats.settled === 1")
    assert app_page.page.evaluate("window.__irlRegionStats.updates") == before["updates"]


def test_the_k_slider_is_a_slider_for_a_screen_reader_with_a_visible_focus(app_page):
    """The region's K is a real range input: role slider, named by its label, its value read out as "K = 2"; a keyboard
    focus shows a ring; Undo and Redo are buttons, disabled until there is something to undo."""
    app_page.open("map")
    slider = app_page.page.get_by_role("slider", name="K: results returned")
    assert slider.get_attribute("aria-valuetext") == "K = 8" and slider.get_attribute("max") == "8"
    app_page.page.get_by_role("button", name="Undo", exact=True).wait_for()
    assert app_page.page.get_by_role("button", name="Undo", exact=True).is_disabled()
    app_page.page.locator("h1").click()
    for _ in range(40):  # Tab from the title to the K slider
        app_page.page.keyboard.press("Tab")
        if app_page.page.evaluate("document.activeElement && document.activeElement.dataset.testid") == "irl-k-input":
            break
    ring = app_page.page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert ring == "solid"
    app_page.page.keyboard.press("Home")
    app_page.metric("MAP@1")
    assert slider.get_attribute("aria-valuetext") == "K = 1"
    app_page.page.get_by_role("button", name="Undo", exact=True).wait_for(state="visible")
    app_page.page.wait_for_function("() => !document.querySelector('[data-testid=\"irl-undo\"]').disabled")


WATCH_DROP = """() => {
  const stats = window.__irlRegionStats;
  window.__irlSeen = [];
  const values = Array.from(document.querySelectorAll('[data-testid="irl-metric-value"]'));
  if (window.__irlSeenWatch) window.__irlSeenWatch.disconnect();
  window.__irlSeenWatch = new MutationObserver(() => window.__irlSeen.push({updates: stats.updates,
                                                                           numbers: stats.numbers}));
  for (const value of values) {
    window.__irlSeenWatch.observe(value, {childList: true, characterData: true, subtree: true});
  }
  return {...stats};
}"""


def _headline(slug: str, order: list[str]) -> dict[str, str]:
    """What irlab computes for the chapter's headline numbers with the main row in ``order``."""
    from dataclasses import replace

    from irlab.walkthrough.chapters import chapter
    from irlab.walkthrough.state import DEFAULT_STATE
    from irlab.walkthrough.views import chapter_view

    state = DEFAULT_STATE.with_preset(chapter(slug))
    return {h.label: h.display for h in chapter_view(replace(state, order=tuple(order)), chapter(slug)).headline}


def test_a_tile_drop_is_drawn_before_the_server_answers(app_page):
    """NDCG: a mouse resting on a tile asks for that tile's moves; dropping it at rank 1 then shows every headline
    number of the new order while the server has not answered the move, and the server's answer (the same screen
    but for the tiles) sets no number and no formula again."""
    app_page.open("ndcg")
    app_page.metric("NDCG@2")
    assert app_page.page.evaluate("window.__irlRegionStats.moveScreens") == 0  # not sent with a cold start
    tiles = app_page.page.locator('[data-testid="irl-list"]').first.locator('[data-testid="irl-tile"]')
    tiles.nth(2).hover()
    app_page.page.wait_for_function("() => window.__irlRegionStats.moveScreens === 1")
    before = app_page.page.evaluate(WATCH_DROP)
    drag_tile(app_page.page, tiles.nth(2), tiles.nth(0), after=False)
    expected = _headline("ndcg", ["3", "1", "2", "4", "5", "6", "7", "8"])
    app_page.page.wait_for_function("(n) => window.__irlRegionStats.updates > n", arg=before["updates"])
    assert app_page.metrics() == expected
    seen = app_page.page.evaluate("window.__irlSeen")
    assert seen and all(record["updates"] == before["updates"] for record in seen)  # all before the server's update
    stats = app_page.page.evaluate("window.__irlRegionStats")
    assert stats["moved"] == 1 and stats["numbers"] > before["numbers"] and stats["formulas"] > before["formulas"]
    app_page.ready()
    app_page.page.wait_for_timeout(500)
    after = app_page.page.evaluate("window.__irlRegionStats")
    assert (after["numbers"], after["formulas"], after["charts"]) == (stats["numbers"], stats["formulas"],
                                                                     stats["charts"])
    assert app_page.metrics() == expected


def test_a_keyboard_move_is_drawn_ahead_and_the_tile_asks_again(app_page):
    """Recall & precision: focusing a tile asks for its moves; Shift+ArrowUp (Recall@2 0.25 -> 0) is drawn before
    the server answers, and after the answer the still focused tile asks for its moves from the new screen, so
    Shift+ArrowDown (back to 0.25) is drawn early too."""
    app_page.open("recall-precision")
    app_page.metric("Recall@2")
    tile = app_page.page.locator('[data-testid="irl-tile"][data-item-id="3"]')
    tile.focus()
    app_page.page.wait_for_function("() => window.__irlRegionStats.moveScreens === 1")
    for presses, (key, order) in enumerate((("Shift+ArrowUp", "1 3 2"), ("Shift+ArrowDown", "1 2 3")), start=1):
        order = order.split() + ["4", "5", "6", "7", "8"]
        before = app_page.page.evaluate(WATCH_DROP)
        app_page.page.keyboard.press(key)
        app_page.wait_for_order(order)
        app_page.page.wait_for_function("(n) => window.__irlRegionStats.moved === n", arg=presses)
        app_page.page.wait_for_function("(n) => window.__irlRegionStats.moveScreens === n", arg=presses + 1)
        assert app_page.metrics() == _headline("recall-precision", order)
        seen = app_page.page.evaluate("window.__irlSeen")
        assert seen and all(record["updates"] == before["updates"] for record in seen)  # before the answer


HOLD_ANSWERS = """() => {
  // the server's messages wait while window.__irlHold is true (Streamlit listens with addEventListener('message'))
  window.__irlHeld = [];
  window.__irlHold = false;
  const listen = WebSocket.prototype.addEventListener;
  WebSocket.prototype.addEventListener = function (type, handler, options) {
    if (type !== 'message') return listen.call(this, type, handler, options);
    return listen.call(this, type, (event) => {
      if (window.__irlHold || window.__irlHeld.length) window.__irlHeld.push(() => handler(event));
      else handler(event);
    }, options);
  };
  window.__irlRelease = () => {
    window.__irlHold = false;
    const held = window.__irlHeld.splice(0);
    for (const deliver of held) deliver();
  };
}"""


def test_a_k_moved_while_a_move_drawn_ahead_waits_for_its_answer_is_drawn_after_it(app_page):
    """NDCG: a keyboard move is drawn ahead; the learner presses ArrowRight on the K slider before the server's answer
    arrives (the answers are held back): the slider shows K = 3 at once, the K goes to the server, and once the answers
    arrive the numbers, the slider and the link are all at K = 3 with the move kept. Before, a K moved while a move
    waited was dropped: the slider said 3 and the numbers stayed at K = 2."""
    app_page.page.add_init_script(f"({HOLD_ANSWERS})()")
    app_page.open("ndcg")
    app_page.metric("NDCG@2")
    app_page.tiles().nth(0).focus()  # asks for the tile's moves
    app_page.page.wait_for_function("() => window.__irlRegionStats.moveScreens === 1")
    app_page.page.evaluate("window.__irlHold = true")
    app_page.page.keyboard.press("Shift+ArrowRight")
    app_page.page.wait_for_function("() => window.__irlRegionStats.moved === 1")
    app_page.wait_for_metric("NDCG@2", "0.6131")  # drawn ahead, with no answer
    slider = app_page.page.locator(K_SLIDER)
    slider.focus()
    app_page.page.keyboard.press("ArrowRight")
    assert slider.get_attribute("aria-valuetext") == "K = 3"
    app_page.page.evaluate("window.__irlRelease()")
    app_page.wait_for_metric("NDCG@3", "0.5608")
    app_page.page.wait_for_function("() => window.location.search.includes('k=3')")
    app_page.wait_for_order(["2", "1", "3", "4", "5", "6", "7", "8"])
    assert slider.get_attribute("aria-valuetext") == "K = 3"


FORMULAS = """() => Array.from(document.querySelectorAll('[data-testid="irl-formula"]')).map(box => box.innerHTML)"""


def test_a_k_change_keeps_each_formulas_elements_and_reads_as_a_page_opened_at_that_k(app_page):
    """NDCG, K 2 -> 3 by the keyboard: each formula keeps its math element (only the nodes that differ are set,
    math.js showFormula), and every formula then reads, element for element, as on the page opened at K = 3."""
    app_page.open("ndcg")
    app_page.metric("NDCG@2")
    app_page.page.locator(K_SLIDER).focus()
    app_page.page.wait_for_function("() => window.__irlRegionStats.kForms >= 1")
    before = app_page.page.evaluate(FORMULAS)
    app_page.page.evaluate("""() => { window.__irlMath = Array.from(
        document.querySelectorAll('[data-testid="irl-formula"] > math')); }""")
    app_page.page.keyboard.press("ArrowRight")
    app_page.metric("NDCG@3", timeout=5_000)
    after = app_page.page.evaluate(FORMULAS)
    kept = app_page.page.evaluate("() => window.__irlMath.map(math => math.isConnected)")
    assert after != before and kept and all(kept)
    app_page.open("ndcg?k=3")
    app_page.metric("NDCG@3")
    assert app_page.page.evaluate(FORMULAS) == after


CHART_DRAWN = """() => Array.from(document.querySelectorAll('.js-plotly-plot')).map(plot => ({
  data: (plot.data || []).map(trace => [trace.x, trace.y]),
  lines: Array.from(plot.querySelectorAll('.scatterlayer path.js-line')).map(path => path.getAttribute('d')),
  points: Array.from(plot.querySelectorAll('.scatterlayer path.point')).map(path => path.getAttribute('transform')),
}))"""


def test_a_moves_curves_move_to_where_a_page_opened_at_that_order_draws_them(app_page):
    """NDCG: a move changes only the curves' values, so the charts move their lines and points (Plotly.animate,
    chart.js) instead of drawing the figure anew; each line and point is then where the page opened at the new order
    draws it."""
    app_page.open("ndcg")
    app_page.metric("NDCG@2")
    # both charts drawn and done (DCG and IDCG, NDCG), so the move's figures are the next ones
    app_page.page.wait_for_function("() => window.__irlChartDraws && window.__irlChartDraws.done >= 2")
    before = app_page.page.evaluate(CHART_DRAWN)
    app_page.page.locator('[data-testid="irl-tile"][data-item-id="1"]').focus()
    app_page.page.keyboard.press("Shift+ArrowRight")  # white cat (grade 0) to rank 2
    app_page.wait_for_metric("NDCG@2", "0.6131")
    app_page.page.wait_for_function("() => window.__irlChartDraws.moved === 2")  # both moved, neither drawn anew
    app_page.page.wait_for_function("() => window.location.search.includes('order=2%2C1')")
    moved = app_page.page.evaluate(CHART_DRAWN)
    assert [chart["lines"] for chart in moved] != [chart["lines"] for chart in before]
    assert app_page.page.evaluate("window.__irlChartDraws.count") == 4
    app_page.page.goto(app_page.page.url)
    app_page.metric("NDCG@2")
    app_page.page.wait_for_function("() => window.__irlChartDraws && window.__irlChartDraws.done >= 2")
    assert app_page.page.evaluate(CHART_DRAWN) == moved
