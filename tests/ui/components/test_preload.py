"""A component's import graph is preloaded with its code: every file of it fetched at once, on a cold start too."""

from __future__ import annotations

import re

import pytest

from irlab.ui.components import ROOT, asset_url
from irlab.ui.components.preload import CSS_IMPORT, imported, preload_links
from tests.browser import LAPTOP, wait_for_app


def _hrefs(links: str, rel: str) -> list[str]:
    return re.findall(rf'<link rel="{rel}"(?: as="style")? href="([^"]+)">', links)


def test_the_regions_preload_names_every_module_and_stylesheet_it_reaches():
    """The region draws its controls, tiles and charts: its graph is region.js, its own modules (controls, MathML,
    patches), the shortcuts' keys and every module of tiles/ and chart/."""
    links = preload_links(ROOT, "region/region.js", "region/region.css", lambda path: "/c/" + path)
    modules = _hrefs(links, "modulepreload")
    reached = {f"/c/{path.relative_to(ROOT).as_posix()}" for folder in ("tiles", "chart")
               for path in (ROOT / folder).glob("*.js") if not path.name.endswith(".test.js")}
    assert modules[0] == "/c/region/region.js"  # the entry first: the browser parses it first
    own = {f"/c/region/{name}.js" for name in ("region", "math", "controls", "patch")}
    assert set(modules) == own | {"/c/shortcuts/shortcuts.js"} | reached
    assert len(modules) == len(set(modules))
    assert _hrefs(links, "preload") == ["/c/region/region.css", "/c/tiles/tiles.css", "/c/chart/chart.css"]


def test_a_component_that_imports_nothing_preloads_nothing():
    assert preload_links(ROOT, "share/share.js", "share/share.css", lambda path: path) is None
    assert preload_links(ROOT, "shortcuts/shortcuts.js", None, lambda path: path) is None


def test_every_form_of_a_static_import_is_followed_and_nothing_else(tmp_path):
    (tmp_path / "lib").mkdir()
    (tmp_path / "entry.js").write_text(
        'import { a,\n  b } from "./lib/a.js";\nimport "./lib/b.js";\nexport { c } from "./lib/c.js";\n'
        '/** @typedef {import("./lib/types.js").T} T */\n// import x from "./lib/commented.js";\n'
        'const later = () => import("./lib/later.js");\nimport { d } from "some-package";\n')
    (tmp_path / "lib" / "a.js").write_text('import { e } from "../common.js";\nimport "./b.js";\n')
    for name in ("lib/b.js", "lib/c.js", "common.js"):
        (tmp_path / name).write_text("export const x = 1;\n")
    (tmp_path / "entry.css").write_text('@import url("lib/one.css");\n@import "two.css";\n.x { color: red; }\n')
    (tmp_path / "lib" / "one.css").write_text('@import url("../two.css");\n')
    (tmp_path / "two.css").write_text(".y { color: blue; }\n")

    assert imported(tmp_path, "entry.js") == ["lib/a.js", "lib/b.js", "lib/c.js", "common.js"]
    assert imported(tmp_path, "entry.css", CSS_IMPORT) == ["lib/one.css", "two.css"]


def test_an_import_cycle_ends():
    """tiles.js and drag.js need not import each other, but a graph with a cycle must still be read to its end."""
    assert "tiles/tiles.js" not in imported(ROOT, "tiles/tiles.js")


RESOURCES = """() => performance.getEntriesByType('resource')
    .filter(entry => entry.name.includes('/irlab.region/'))
    .map(entry => [new URL(entry.name).pathname, entry.startTime, entry.responseEnd])"""


@pytest.mark.browser
def test_a_cold_start_fetches_the_regions_whole_graph_in_one_round(browser, app_url):
    """A new browser context opens NDCG: each of the region's modules is asked for before region.js has arrived
    (without the preload, tiles.js is asked for after region.js is parsed, and geometry.js after drag.js)."""
    context = browser.new_context(viewport=LAPTOP)
    try:
        page = context.new_page()
        page.goto(f"{app_url}/ndcg")
        wait_for_app(page)
        page.wait_for_selector('[data-testid="irl-metric"]')
        fetched = {path: (start, end) for path, start, end in page.evaluate(RESOURCES)}
    finally:
        context.close()
    graph = ["region/region.js", *imported(ROOT, "region/region.js")]
    paths = {path: asset_url("region", path) for path in graph}
    assert set(paths.values()) <= set(fetched), sorted(fetched)
    entry_arrived = fetched[paths["region/region.js"]][1]
    late = [path for path, url in paths.items() if fetched[url][0] > entry_arrived]
    assert not late, late
