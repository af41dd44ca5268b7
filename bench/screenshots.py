"""Screenshots of every page at laptop (1280x800) and projector (1920x1080) size, for looking at.

    python bench/screenshots.py [OUT_DIR] [--only SLUG ...]

Writes PNGs (full page) to OUT_DIR (default: screenshots/, which git ignores): each page in its
default state, after a drag of the first tile to rank 2, in graded mode, and in presentation mode.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.browser import LAPTOP, PROJECTOR, chromium, drag_tile, running_app, wait_for_app

PAGES = {"": False, "actual-vs-predicted": True, "recall-precision": True, "mrr": True, "map": True, "ndcg": True,
         "conventions": True, "build": False, "practise": False, "runs": False}
"""Page slug ('' is home) -> whether it shows walkthrough tiles (those get the drag, graded and present shots)."""
VARIANTS = {"default": "", "graded": "?rel=graded", "present": "?present=1"}


def full_height(page) -> None:
    """Grow the viewport to the page's content: Streamlit scrolls an inner container, not the page."""
    height = page.evaluate("""() => {
        const main = document.querySelector('[data-testid="stMain"]');
        return Math.max(main ? main.scrollHeight : 0, document.body.scrollHeight); }""")
    page.set_viewport_size({"width": page.viewport_size["width"], "height": min(int(height) + 40, 12000)})
    time.sleep(0.8)


def shoot(page, path: Path) -> None:
    """The first screen as a lecturer sees it, then the whole page."""
    size = dict(page.viewport_size)
    page.screenshot(path=path.with_name(path.stem + "-screen.png"))
    full_height(page)
    page.screenshot(path=path, full_page=True)
    page.set_viewport_size(size)
    time.sleep(0.5)


def drag_first_to_second(page) -> None:
    tiles = page.locator('[data-testid="irl-tile"]')
    drag_tile(page, tiles.nth(0), tiles.nth(1))
    time.sleep(1.0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", nargs="?", default="screenshots")
    parser.add_argument("--only", nargs="*", default=None, help="page slugs ('' is home): " + ", ".join(PAGES))
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    pages = args.only if args.only is not None else list(PAGES)
    with running_app() as url, chromium() as browser:
        for size_name, size in (("laptop", LAPTOP), ("projector", PROJECTOR)):
            for slug in pages:
                for variant, query in VARIANTS.items():
                    if not PAGES.get(slug) and variant != "default":
                        continue
                    page = browser.new_page(viewport=size)
                    page.goto(f"{url}/{slug}{query}")
                    wait_for_app(page)
                    time.sleep(1.5)
                    name = slug or "home"
                    shoot(page, out / f"{name}-{variant}-{size_name}.png")
                    if variant == "default" and PAGES.get(slug):
                        drag_first_to_second(page)
                        shoot(page, out / f"{name}-dragged-{size_name}.png")
                    page.close()
                    print(f"{name} {variant} {size_name}", flush=True)


if __name__ == "__main__":
    main()
