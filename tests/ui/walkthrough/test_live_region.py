"""The live region's messages and answers under AppTest (irlab/ui/walkthrough/live.py, screen.py).

A model of the browser (:class:`Browser`, what region.js does with the data: keep the screen, apply patches, draw
another K from the K form, draw a move drawn ahead) checks, for every chapter, that what the browser draws without a
run is exactly what the server draws when it takes the K or the move: numbers and their changes, formulas, tables,
charts, "Try this". And that a settled K costs (almost) nothing, a tile move sends a patch, and anything malformed
is ignored.
"""

from __future__ import annotations

import json

import pytest

from irlab.ui.components.region.patch import apply_patch
from irlab.ui.walkthrough.screen import toward_base
from irlab.walkthrough.chapters import CHAPTERS
from tests.ui.conftest import REGION, region_data, send_message

SLUGS = [chapter.slug for chapter in CHAPTERS]
GRADED = {chapter.slug for chapter in CHAPTERS if not chapter.binary_only}


def plain(value):
    """``value`` without digests (the browser marks numbers it draws after a K change with a digest of its own)."""
    if isinstance(value, dict):
        return {name: plain(item) for name, item in value.items() if name != "digest"}
    if isinstance(value, list):
        return [plain(item) for item in value]
    return value


class Browser:
    """What region.js keeps and draws, in Python: the screen it holds, the K form, the moves drawn ahead."""

    def __init__(self) -> None:
        self.base: list[dict] | None = None
        self.screen = ""
        self.form: dict | None = None
        self.moves: dict[str, dict] = {}

    def take(self, data: dict) -> None:
        if "same" in data:
            assert data["same"] == self.screen
        elif "patch" in data:
            assert data["from"] == self.screen
            self.base, self.screen = apply_patch(self.base, data["patch"]), data["screen"]
        else:
            self.base, self.screen = data["blocks"], data["screen"]
        if "kForm" in data:
            self.form = data["kForm"]
            assert self.form["screen"] == self.screen
        if "moveScreens" in data:
            assert data["moveScreens"]["screen"] == self.screen
            self.moves = data["moveScreens"]["screens"]

    def at_k(self, k: int, after: int) -> list[dict]:
        """The screen at ``k``, drawn after the learner's change of K from ``after``."""
        form = self.form
        chain = []
        while k != form["base"]:
            chain.append(k)
            k = toward_base(k, form["base"])
        blocks = self.base
        for step in reversed(chain):
            blocks = apply_patch(blocks, form["at"][str(step)])
        changes = iter(form["changes"]["pairs"][f"{after}>{chain[0] if chain else form['base']}"])
        values = form["changes"]["values"]

        def with_changes(block: dict) -> dict:
            if block["kind"] == "numbers":
                items = []
                for item in block["items"]:
                    delta, trend = values[next(changes)]
                    items.append({**item, "delta": delta, "trend": trend})
                return {**block, "items": items}
            return {**block, "children": [with_changes(c) for c in block["children"]]} if "children" in block \
                else block

        return [with_changes(block) for block in blocks]


def _open(open_page, slug: str, tile_change) -> tuple:
    """A chapter in graded mode where it has it, after a move (so that numbers have changes), as a browser holds it."""
    at = open_page(slug)
    if slug in GRADED:
        at.button_group(key="irlab.widget.mode").set_value("graded").run()
    at.session_state[REGION] = tile_change("2 1 3 4 5 6 7 8", row=next(iter(_chapter(slug).tile_rows)))
    at.run()
    browser = Browser()
    browser.take(region_data(at))
    send_message(at, "kform", screen=browser.screen, form=False)  # the learner comes to the K slider
    browser.take(region_data(at))
    assert browser.form is not None
    return at, browser


def _chapter(slug: str):
    return next(chapter for chapter in CHAPTERS if chapter.slug == slug)


@pytest.mark.parametrize("slug", SLUGS)
def test_every_k_drawn_from_the_k_form_is_the_screen_the_server_draws_at_that_k(slug, open_page, tile_change):
    """K 3, 1, 8, 5, 6 from the K form, each after the one before (the numbers' changes are from the K shown before);
    the same session then tells the server each K (no screen named: the answer is whole), and the two must agree."""
    at, browser = _open(open_page, slug, tile_change)
    shown = region_data(at)["k"]
    for k in (3, 1, 8, 5, 6):
        drawn = browser.at_k(k, shown)
        send_message(at, "k", k=k)
        assert not at.exception
        whole = region_data(at)
        assert whole["k"] == k and plain(drawn) == plain(whole["blocks"]), f"K {shown} -> {k}"
        browser.take(whole)
        shown = k


@pytest.mark.parametrize("slug", SLUGS)
def test_a_settled_k_is_answered_with_nothing_to_draw(slug, open_page, tile_change):
    """The browser drew the K itself: the run that takes it sends the screen's digest back and the controls when they
    changed, no screen, no K form, at most 2.5 KB; the link gets the K."""
    at, browser = _open(open_page, slug, tile_change)
    send_message(at, "k", k=6, screen=browser.screen, form=True)
    data = region_data(at)
    assert data["same"] == browser.screen and data["k"] == 6 and data["controls"]["k"]["value"] == 6
    assert not {"blocks", "patch", "kForm", "moveScreens"} & set(data)
    [element] = [e for e in at.get("bidi_component") if e.proto.component_name == "irlab.region"]
    assert len(element.proto.json) < 2500  # with the controls, which changed (K's value, Undo)
    assert at.query_params["k"] == "6"
    send_message(at, "k", k=5, screen=browser.screen, form=True)
    [element] = [e for e in at.get("bidi_component") if e.proto.component_name == "irlab.region"]
    assert len(element.proto.json) < 2500 and "same" in region_data(at) and at.query_params["k"] == "5"


@pytest.mark.parametrize("slug", SLUGS)
def test_a_move_from_the_screen_held_is_answered_with_a_patch_that_gives_the_whole_screen(slug, open_page, tile_change):
    """The same move twice, in two sessions: named from the screen held, the answer is a patch (smaller than the
    screen) that gives exactly the screen the other session gets whole."""
    row = next(iter(_chapter(slug).tile_rows))
    results = []
    for name_screen in (True, False):
        at, browser = _open(open_page, slug, tile_change)
        move = tile_change("3 2 1 4 5 6 7 8", row=row, seq=2)["change"]
        at.session_state[REGION] = {"change": {**move, **({"screen": browser.screen} if name_screen else {})}}
        at.run()
        data = region_data(at)
        assert ("patch" in data) is name_screen
        browser.take(data)
        results.append((browser.base, len(json.dumps(data.get("patch") or data["blocks"]))))
    (patched, patch_size), (whole, whole_size) = results
    assert patched == whole and patch_size < whole_size


def _tile_rows(blocks: list[dict]) -> list[dict]:
    found = []
    for block in blocks:
        if block["kind"] == "tiles":
            found.append(block)
        found += _tile_rows(block.get("children", []))
    return found


@pytest.mark.parametrize("slug", SLUGS)
def test_a_move_drawn_ahead_is_the_screen_the_move_then_draws(slug, open_page, tile_change):
    """Every tile row, one tile moved to three ranks, each asked for from the screen before (at K 4, which the browser
    drew from the K form): the screen drawn ahead is the one the server then sends, but for the row's tiles (they show
    the move themselves; the answer adds its number)."""
    at, browser = _open(open_page, slug, tile_change)
    send_message(at, "k", k=4, screen=browser.screen, form=True)
    browser.take(region_data(at))
    seq = 10
    for row in _tile_rows(browser.base):
        item = row["data"]["tiles"][2]["id"]
        for rank in (0, 7, 4):
            seq += 1
            send_message(at, "moves", screen=browser.screen, row=row["key"], item=item, k=4, form=True)
            data = region_data(at)
            assert "same" in data and data["moveScreens"]["item"] == item
            browser.take(data)
            shown = [tile["id"] for tile in next(r for r in _tile_rows(browser.base) if r["key"] == row["key"])
                     ["data"]["tiles"]]
            order = [other for other in shown if other != item]
            order.insert(rank, item)
            assert len(browser.moves) == 7
            ahead = apply_patch(browser.base, browser.moves["\n".join(order)])
            at.session_state[REGION] = {"change": {"order": order, "grades": None, "seq": seq, "action": "drag",
                                                   "item": item, "row": row["key"], "screen": browser.screen, "k": 4,
                                                   "form": True}}
            at.run()
            browser.take(region_data(at))
            drop = {row["key"]}
            assert plain(_without_rows(ahead, drop)) == plain(_without_rows(browser.base, drop))


def _without_rows(blocks: list[dict], rows: set[str]) -> list[dict]:
    return [{**block, "children": _without_rows(block["children"], rows)} if "children" in block else block
            for block in blocks if block["key"] not in rows]


def test_a_patch_the_browser_cannot_apply_is_asked_for_whole(open_page, tile_change):
    """A message naming a screen the server did not send (a browser that lost its screen) gets the screen whole; so
    does the browser's ``full``."""
    at, browser = _open(open_page, "ndcg", tile_change)
    send_message(at, "k", k=3, screen="not-this-one")
    assert "blocks" in region_data(at)
    send_message(at, "full", screen=browser.screen)
    assert "blocks" in region_data(at)


@pytest.mark.parametrize("message", [
    ("k", {"k": 0}), ("k", {"k": 9}), ("k", {"k": "3"}), ("k", {"k": True}), ("k", {"k": 3.5}), ("k", {"k": 10**40}),
    ("control", {"action": "explode"}), ("control", {"action": "setting", "name": "k", "value": "3"}),
    ("control", {"action": "setting", "name": "returned", "value": "99"}),
    ("control", {"action": "setting", "name": "returned", "value": "x" * 100_000}),
    ("moves", {"row": "tiles-main", "item": "<script>alert(1)</script>"}), ("moves", {"row": 5, "item": "3"}),
    ("moves", {"row": "x" * 100_000, "item": "3"}), ("full", {"k": "a"}),
])
def test_a_malformed_message_changes_nothing_and_raises_nothing(message, open_page):
    """The region's messages are untrusted: a K off the slider, an unknown control or setting, a setting's value that is
    not a choice, a tile that is not on the page change nothing (and never raise)."""
    at = open_page("conventions")
    before = region_data(at)
    kind, fields = message
    send_message(at, kind, **fields, screen=before["screen"])
    assert not at.exception
    after = region_data(at)
    # the controls come again only when they changed (the browser keeps those it was sent)
    assert after["k"] == before["k"] and after.get("controls", before["controls"]) == before["controls"]
    assert "moveScreens" not in after


def test_a_setting_and_reset_grades_are_controls_of_the_region(open_page, tile_change, shown_metrics):
    """Conventions' "items returned" is a setting the region draws and sends; Reset grades puts the rubric back."""
    at = open_page("conventions")
    send_message(at, "control", action="setting", name="returned", value="3")
    [returned] = [item for item in region_data(at)["controls"]["settings"] if item["name"] == "returned"]
    assert returned["value"] == "3" and at.query_params["returned"] == "3"
    at = open_page("ndcg")
    grades = {str(i): g for i, g in zip(range(1, 9), (4, 4, 1, 3, 4, 1, 3, 2))}
    at.session_state[REGION] = tile_change("1 2 3 4 5 6 7 8", grades=grades)
    at.run()
    assert region_data(at)["controls"]["resetGrades"]["enabled"] is True and shown_metrics(at)["NDCG@2"] == "1"
    send_message(at, "control", action="reset-grades")
    assert region_data(at)["controls"]["resetGrades"]["enabled"] is False and shown_metrics(at)["NDCG@2"] == "0.3869"


def test_the_k_form_comes_when_the_learner_comes_to_the_k_slider_or_when_it_was_made_already(open_page, tile_change):
    """A move to a new state does not make seven more screens: its K form comes when the learner comes to the K slider
    (``kform``) or is on it (a K the browser could not draw); a second session reaching the same state gets it with the
    screen, made once for both."""
    at = open_page("ndcg")
    data = region_data(at)
    move = tile_change("8 1 2 3 4 5 6 7", seq=2)["change"]
    at.session_state[REGION] = {"change": {**move, "screen": data["screen"], "n": 1}}
    at.run()
    moved = region_data(at)
    assert "patch" in moved and "kForm" not in moved
    send_message(at, "kform", screen=moved["screen"], form=False)
    asked = region_data(at)
    assert asked["same"] == moved["screen"] and asked["kForm"]["screen"] == moved["screen"]
    other = open_page("ndcg")
    first = region_data(other)
    other.session_state[REGION] = {"change": {**move, "screen": first["screen"], "n": 1}}
    other.run()
    assert region_data(other)["kForm"]["at"] == asked["kForm"]["at"]  # made by the first session


def test_an_ask_carries_the_k_the_browser_shows(open_page):
    """A finger's tap on the K slider asks for the K form and moves K in one gesture: the ask goes out with the new K
    (and stands in for the settled K's message), so the run that answers it takes that K and draws it."""
    at = open_page("ndcg")
    data = region_data(at)
    send_message(at, "kform", screen=data["screen"], form=False, k=5)
    asked = region_data(at)
    assert asked["k"] == 5 and at.query_params["k"] == "5"
    assert "patch" in asked and asked["kForm"]["screen"] == asked["screen"]  # the screen at K = 5, and its K form
    send_message(at, "full", screen=asked["screen"], k=3)
    assert region_data(at)["k"] == 3 and at.query_params["k"] == "3"


def test_a_busy_process_draws_nothing_ahead_and_serves_what_was_made(open_page, tile_change, monkeypatch):
    """While the process is busy (others in a class, each with a state of their own, keep it above half a core), a new
    state's K form and a tile's moves are not made: the answer comes without them (the browser then tells each K and
    drop by a message); a K form some session made already still comes; once the process is quiet again they come
    again."""
    from irlab.ui.walkthrough import screen

    at = open_page("ndcg")
    data = region_data(at)
    now, used = [0.0], [0.0]
    gate = screen.BusyGate(0.5, clock=lambda: now[0], cpu=lambda: used[0])
    monkeypatch.setattr(screen, "AHEAD", gate)
    gate.busy()
    now[0], used[0] = 2.0, 1.8  # others' runs and screens: 90% of a core over the last two seconds
    move = tile_change("7 1 2 3 4 5 6 8", seq=2)["change"]
    at.session_state[REGION] = {"change": {**move, "screen": data["screen"], "n": 1}}
    at.run()
    moved = region_data(at)
    send_message(at, "kform", screen=moved["screen"], form=False)
    assert "kForm" not in region_data(at) and region_data(at)["same"] == moved["screen"]
    assert region_data(at)["busy"] == screen.AHEAD_QUIET  # the browser asks nothing ahead for a while
    send_message(at, "moves", screen=moved["screen"], row="tiles-main", item="3")
    assert "moveScreens" not in region_data(at) and region_data(at)["busy"] == screen.AHEAD_QUIET
    send_message(at, "k", screen=moved["screen"], form=False, k=4)  # a K the browser could not draw: drawn by the run
    assert region_data(at)["k"] == 4 and "kForm" not in region_data(at)
    held = region_data(at)["screen"]
    now[0] = 40.0  # 38 s later, quiet (the CPU this test's runs use is not the fake clock's)
    send_message(at, "moves", screen=held, row="tiles-main", item="3", k=4)
    assert region_data(at)["moveScreens"]["item"] == "3" and "busy" not in region_data(at)
    made = screen.k_form(at.session_state["irlab.state"], _chapter("ndcg"))  # some session made it
    now[0], used[0] = 42.0, 41.0  # busy again
    send_message(at, "kform", screen=held, form=False, k=4)
    assert region_data(at)["kForm"]["base"] == made.base == 4
