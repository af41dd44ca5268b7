"""Server rerun time of every page under AppTest: a plain rerun, and a rerun after a tile move.

    python bench/rerun.py [--runs 30]

Prints a table of medians and 95th percentiles in milliseconds. The goal is a median of at most
30 ms per page on the 2-core CI machine. Not a test: timings depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from streamlit.testing.v1 import AppTest  # noqa: E402

PAGES = {
    "home": (None, None),
    "1. actual vs predicted": ("pages/01_actual-vs-predicted.py", "tiles-main"),
    "2. recall & precision": ("pages/02_recall-precision.py", "tiles-main"),
    "3. MRR": ("pages/03_mrr.py", "tiles-dark-cat"),
    "4. AP & MAP": ("pages/04_map.py", "tiles-dark-cat"),
    "5. NDCG": ("pages/05_ndcg.py", "tiles-main"),
    "6. conventions": ("pages/06_conventions.py", "tiles-main"),
}
ORDERS = ("2 1 3 4 5 6 7 8", "1 2 3 4 5 6 7 8")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def measure(page: str | None, key: str | None, runs: int) -> tuple[list[float], list[float]]:
    at = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=30).run()
    if page:
        at.switch_page(page).run()
    for _ in range(3):  # warm up imports and caches
        at.run()
    plain, moved = [], []
    for index in range(runs):
        start = time.perf_counter()
        at.run()
        plain.append((time.perf_counter() - start) * 1000)
        if key:
            order = ORDERS[index % 2].split()
            at.session_state[key] = {"change": {"order": order, "grades": None, "seq": index + 1,
                                                "action": "drag", "item": order[0]}}
            start = time.perf_counter()
            at.run()
            moved.append((time.perf_counter() - start) * 1000)
        assert not at.exception, at.exception
    return plain, moved


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    print(f"AppTest reruns, {args.runs} per page (ms)")
    print(f"{'page':24s} {'rerun median':>13s} {'p95':>7s} {'after move median':>18s} {'p95':>7s}")
    for name, (page, key) in PAGES.items():
        plain, moved = measure(page, key, args.runs)
        after = (f"{statistics.median(moved):18.1f} {percentile(moved, 0.95):7.1f}" if moved
                 else f"{'-':>18s} {'-':>7s}")
        print(f"{name:24s} {statistics.median(plain):13.1f} {percentile(plain, 0.95):7.1f} {after}", flush=True)


if __name__ == "__main__":
    main()
