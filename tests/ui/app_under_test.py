"""Helpers for the page tests: the app under AppTest, and what a page shows."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
PAGES = {
    "home": "pages/home.py",
    "actual-vs-predicted": "pages/01_actual-vs-predicted.py",
    "recall-precision": "pages/02_recall-precision.py",
    "mrr": "pages/03_mrr.py",
    "map": "pages/04_map.py",
    "ndcg": "pages/05_ndcg.py",
    "conventions": "pages/06_conventions.py",
    "build": "pages/build.py",
    "practise": "pages/practise.py",
}


def open_page(slug: str, query_params: dict[str, str] | None = None) -> AppTest:
    """The app on page ``slug`` (navigation included), optionally opened from a link."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=30)
    for name, value in (query_params or {}).items():
        at.query_params[name] = value
    at.run()
    if slug != "home":
        at.switch_page(PAGES[slug]).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def metrics(at: AppTest) -> dict[str, str]:
    """Every headline value on the page: label -> shown value."""
    return {m.label: m.value for m in at.metric}


def change(order: str, *, grades: dict[str, int] | None = None, seq: int = 1) -> dict:
    """A tile component value as the browser sends it after a move."""
    return {"change": {"order": order.split(), "grades": grades, "seq": seq, "action": "drag", "item": None}}

