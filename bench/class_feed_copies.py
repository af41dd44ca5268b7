"""How many projector feeds the lecturer's page shows while answers stream in and the lecturer acts.

    flock /work/notes/bench.lock python bench/class_feed_copies.py [SECONDS] [CPU_SLOWDOWN]

A class of 40 students (joined through the store) answers a question continuously (one answer every 20-150 ms)
while the lecturer's page, at 1920x1080 with its CPU slowed (default 6x: a busy machine), toggles "Show answers
live", closes and reopens the round and shows the question again, each a full run of the page that the feed's
fragment runs (the answers) cut short. After every action it counts the feeds on the page (``.irl-live`` in every
shadow root, hidden ones too) and the ones that show. Before classfeed.js ended an instance cleanly, copies piled
up in the feed's element, each frozen at the counts of its moment (first after 14 s, 9 after 90 s at 6x).
"""

from __future__ import annotations

import contextlib
import os
import random
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from irlab.classroom.refusals import NotAccepting
from tests.browser import PROJECTOR, chromium, running_app, wait_for_app

FEEDS = """() => { let all = 0, shown = 0; const walk = (root) => {
  for (const e of root.querySelectorAll('*')) {
    if (e.classList.contains('irl-live')) { all += 1; if (e.checkVisibility()) shown += 1; }
    if (e.shadowRoot) walk(e.shadowRoot); } };
  walk(document); return [all, shown]; }"""


def answering(store, code: str, key: str, seats: list, stop: threading.Event) -> None:
    """Students answer the open round, one at a time, at random moments."""
    while not stop.is_set():
        view = store.lecturer(code, key).projector()
        latest = view.current.latest if view.current else None
        if latest is not None and latest.state == "open":
            seat = random.choice(seats)
            with contextlib.suppress(NotAccepting):  # the lecturer closed the round meanwhile
                store.student(code, seat.token).answer(latest.id, str(random.randint(0, 9)))
        stop.wait(random.uniform(0.02, 0.15))


def act(page) -> str:
    """One of the lecturer's moves that runs the whole page."""
    move = random.choice(["live", "round", "show"])
    controls = page.locator(".st-key-irl-round-controls")
    if move == "live":
        page.get_by_text("Show answers live").click(timeout=10_000)
    elif move == "round" and controls.get_by_role("button", name="Close answers").count():
        controls.get_by_role("button", name="Close answers").click(timeout=10_000)
    elif move == "round":
        controls.get_by_role("button", name="Revote").click(timeout=10_000)
    else:  # in the desk's Questions tab (irlab/ui/classroom/desk.py)
        page.get_by_test_id("stSidebar").get_by_role("tab", name="Questions").click(timeout=10_000)
        page.get_by_role("button", name="Show this question").click(timeout=10_000)
    return move


def main() -> int:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 120.0
    slowdown = float(sys.argv[2]) if len(sys.argv) > 2 else 6.0
    database = f"sqlite:///{Path(tempfile.mkdtemp()) / 'classes.sqlite'}"
    os.environ["IRLAB_CLASS_DB"] = database
    from irlab.classroom import ClassStore

    with running_app(env={"IRLAB_CLASS_DB": database}) as url, chromium() as browser:
        store = ClassStore(database)
        new = store.start_class()
        seats = [store.join(new.code) for _ in range(40)]
        page = browser.new_page(viewport=PROJECTOR)
        page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": slowdown})
        page.goto(f"{url}/class?code={new.code}&key={new.key}")
        wait_for_app(page)
        page.get_by_role("button", name="Add and show").click()
        page.locator(".st-key-irl-round-controls").wait_for()
        stop = threading.Event()
        threading.Thread(target=answering, args=(store, new.code, new.key, seats, stop), daemon=True).start()
        start, actions, failed, most, first = time.monotonic(), 0, 0, (1, 1), None
        try:
            while time.monotonic() - start < seconds:
                try:
                    act(page)
                    actions += 1
                except Exception:  # noqa: BLE001 - a button not there yet (the page was running): counted, go on
                    failed += 1
                for _ in range(random.randint(1, 20)):
                    found = tuple(page.evaluate(FEEDS))
                    most = max(most, found)
                    if found[0] > 1 and first is None:
                        first = time.monotonic() - start
                    page.wait_for_timeout(30)  # a look every 30 ms between moves: a sample, not a wait for a state
        finally:
            stop.set()
    print(f"| seconds | CPU slowed | moves (failed) | most feeds on the page | most shown | first copy after |\n"
          f"|---|---|---|---|---|---|\n"
          f"| {seconds:.0f} | {slowdown:g}x | {actions} ({failed}) | {most[0]} | {most[1]} | "
          f"{'never' if first is None else f'{first:.1f} s'} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
