"""The runs page within a session's budgets (issue 21): runs and bytes held, MB = 10^6 bytes, names as text."""

from __future__ import annotations

import re

from irlab.ui.kit.markdown import escape_markdown
from irlab.ui.runs.uploads import MAX_UPLOAD_BYTES, budget_caption
from irlab.ui.shell.budgets import Budgets

QRELS = "q1 0 a 1\nq1 0 b 0\nq2 0 c 1\nq2 0 d 1\nq3 0 e 1\n"
NAUGHTY = "**bold**[x](javascript:1).txt"


def _run(tag: str) -> str:
    return f"q1 Q0 a 1 3 {tag}\nq1 Q0 b 2 2 {tag}\nq2 Q0 d 1 5 {tag}\nq3 Q0 e 1 1 {tag}\nq3 Q0 x 2 0 {tag}\n"


def _upload(at, runs: list[tuple[str, str]]):
    at.radio(key="irlab.runs.w.source").set_value("My files").run()
    at.file_uploader(key="irlab.runs.w.qrels").set_value(("qrels.txt", QRELS.encode(), "text/plain")).run()
    at.file_uploader(key="irlab.runs.w.runs").set_value(
        [(name, text.encode(), "text/plain") for name, text in runs]).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _runs_shown(at) -> list[str]:
    return list(at.dataframe[0].value["run"])


def _errors(at) -> str:
    return " ".join(e.body for e in at.error).replace("\\", "")


def test_runs_over_the_session_cap_are_refused_and_another_session_is_unaffected(open_page, monkeypatch):
    monkeypatch.setattr("irlab.ui.shell.budgets.BUDGETS", Budgets(session_runs=2))
    greedy = _upload(open_page("runs"), [(f"r{i}.txt", _run(f"R{i}")) for i in range(3)])
    assert _runs_shown(greedy) == ["r0.txt", "r1.txt"]
    assert "r2.txt: this browser session already holds 2 runs" in _errors(greedy)
    assert "at most 2 runs" in " ".join(c.value for c in greedy.caption)
    other = _upload(open_page("runs"), [("mine.txt", _run("M")), ("yours.txt", _run("Y"))])
    assert _runs_shown(other) == ["mine.txt", "yours.txt"] and not other.error
    # removing a run makes room: the refused one is read on the next upload
    greedy.file_uploader(key="irlab.runs.w.runs").set_value(
        [(f"r{i}.txt", _run(f"R{i}").encode(), "text/plain") for i in (1, 2)]).run()
    assert _runs_shown(greedy) == ["r1.txt", "r2.txt"] and not greedy.error


def test_files_over_the_session_bytes_are_refused(open_page, monkeypatch):
    monkeypatch.setattr("irlab.ui.shell.budgets.BUDGETS", Budgets(session_mb=1))
    big = _run("B") * 60_000  # 1.3 MB (10^6 bytes each)
    at = _upload(open_page("runs"), [("small.txt", _run("S")), ("big.txt", big)])
    assert _runs_shown(at) == ["small.txt"]
    assert "big.txt: with it this browser session would hold 1 MB" in _errors(at) or \
        re.search(r"big\.txt: with it this browser session would hold [\d,]+ MB of files, more than the 1 MB",
                  _errors(at))


def test_the_page_states_its_budgets_in_decimal_megabytes(open_page):
    at = _upload(open_page("runs"), [("a.txt", _run("A"))])
    assert MAX_UPLOAD_BYTES == 100_000_000
    assert budget_caption() in [c.value for c in at.caption]
    assert "MB = 10^6 bytes" in budget_caption()


def test_a_removed_run_leaves_the_workspace(open_page):
    at = _upload(open_page("runs"), [("a.txt", _run("A")), ("b.txt", _run("B"))])
    at.file_uploader(key="irlab.runs.w.runs").set_value([("b.txt", _run("B").encode(), "text/plain")]).run()
    assert _runs_shown(at) == ["b.txt"]


def test_a_file_name_with_markdown_shows_literally_everywhere(open_page):
    at = _upload(open_page("runs"), [(NAUGHTY, _run("N")), ("plain.txt", _run("P"))])
    assert _runs_shown(at) == [NAUGHTY, "plain.txt"]
    for tab in ("Compare runs", "Per query", "Results table"):
        at.session_state["irlab.runs.w.tab"] = tab
        at.run()
        if tab == "Results table":
            at.button(key="irlab.runs.w.table_compute").click().run()
        assert not at.exception, [e.value for e in at.exception]
        texts = [m.value for m in at.markdown] + [m.label for m in at.metric] + [e.label for e in at.expander]
        assert all("**bold**" not in t and "](javascript" not in t for t in texts), tab
        assert any(escape_markdown(NAUGHTY) in t or "\\*\\*bold\\*\\*" in t for t in texts), tab
    at.session_state["irlab.runs.w.tab"] = "Compare runs"
    at.run()
    assert escape_markdown(f"{NAUGHTY} (A)") in [m.label for m in at.metric]
