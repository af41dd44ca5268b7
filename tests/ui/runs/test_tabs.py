"""The runs page's doctor panel, coverage, results table, curves, per-query paging and what-if, under AppTest."""

from __future__ import annotations

import json

import pytest

from irlab.runs import charts as run_charts
from irlab.runs.table import how_to_read
from irlab.runs.table_export import per_query_csv, table_latex, table_markdown
from irlab.runs.trec import parse_qrels, parse_run
from irlab.runs.workspace import MAX_RANK_ROWS, Workspace
from irlab.ui.kit.markdown import escape_markdown, markdown_table

TAB = "irlab.runs.w.tab"
QRELS = "".join(f"q{q} 0 d{q}-{d} {(q + d) % 3} \n" for q in range(1, 9) for d in range(6))
RUN_A = "".join(f"q{q} Q0 d{q}-{d} {d + 1} {10 - d} A\n" for q in range(1, 9) for d in range(6))
RUN_B = "".join(f"q{q} Q0 d{q}-{5 - d} {d + 1} {10 - d} B\n" for q in range(1, 9) for d in range(6))
RUN_C = "".join(f"q{q} Q0 d{q}-{(d + q) % 6} {d + 1} {10 - d} C\n" for q in range(1, 7) for d in range(6))  # no q7, q8


def _upload(at, runs: list[tuple[str, str]], qrels: str = QRELS):
    at.radio(key="irlab.runs.w.source").set_value("My files").run()
    at.file_uploader(key="irlab.runs.w.qrels").set_value(("qrels.txt", qrels.encode(), "text/plain")).run()
    at.file_uploader(key="irlab.runs.w.runs").set_value(
        [(name, text.encode(), "text/plain") for name, text in runs]).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _workspace(runs: list[tuple[str, str]]) -> Workspace:
    ws = Workspace(parse_qrels(QRELS.encode(), "qrels.txt"))
    for name, text in runs:
        ws = ws.with_run(name, parse_run(text.encode(), name))
    return ws


def _tab(at, name: str):
    at.session_state[TAB] = name
    return at.run()


def _markdown(at) -> str:
    return "\n".join(m.value for m in at.markdown)


def _charts(at) -> list[dict]:
    return [json.loads(e.proto.json) for e in at.get("bidi_component") if e.proto.component_name.endswith("chart")]


# --- the doctor and coverage, before the numbers ----------------------------------------------------------

def test_the_doctor_panel_lists_each_finding_on_the_sample_closed(open_page):
    at = open_page("runs")
    panel = at.expander[0]
    assert panel.label.startswith("Run doctor: 5 things to check")
    assert panel.proto.expanded is False  # the sample's findings are there by design: the numbers stay in view
    text = "\n".join(m.value for m in panel.markdown) + "\n".join(c.value for c in panel.caption)
    assert "476 judgments have a grade above 1" in text and "Why it matters" in text and "What to do" in text
    assert text.count("has tied scores across rank 10") == 3


def test_the_doctor_says_no_problems_for_clean_runs(open_page):
    qrels = "".join(f"q{q} 0 d{q}-{d} {1 if d < 2 else 0}\n" for q in range(1, 4) for d in range(4))
    run = "".join(f"q{q} Q0 d{q}-{d} {d + 1} {10 - d} A\n" for q in range(1, 4) for d in range(4))
    at = _upload(open_page("runs"), [("clean.txt", run)], qrels=qrels)
    assert at.expander[0].label == "Run doctor: no problems found"


def test_minus_c_is_on_by_default_and_a_run_that_misses_topics_says_what_it_costs(open_page):
    at = _upload(open_page("runs"), [("a.txt", RUN_A), ("c.txt", RUN_C)])
    assert at.expander[0].proto.expanded is True  # your own runs: the doctor opens on what it found
    assert at.checkbox(key="irlab.runs.w.complete").value is True
    expected = _workspace([("a.txt", RUN_A), ("c.txt", RUN_C)]).coverage("c.txt", ["AP"]).sentence(["AP"])
    assert "c.txt ranks 6 of the 8 judged topics" in expected
    assert any(escape_markdown(expected)[:60] in m.value for m in at.markdown)
    queries = {row["run"]: row["queries"] for _, row in at.dataframe[0].value.iterrows()}
    assert queries == {"a.txt": 8, "c.txt": 8}  # every judged topic counts


# --- the results table --------------------------------------------------------------------------------------

def test_the_results_table_is_computed_on_request_and_exported(open_page, downloads):
    runs = [("a.txt", RUN_A), ("b.txt", RUN_B), ("c.txt", RUN_C)]
    at = _tab(_upload(open_page("runs"), runs), "Results table")
    assert "How to read this table" not in [e.label for e in at.expander]  # nothing computed yet
    at.button(key="irlab.runs.w.table_compute").click().run()
    assert not at.exception, [e.value for e in at.exception]
    table = _workspace(runs).results_table(["a.txt", "b.txt", "c.txt"], ["AP", "P@10", "nDCG@10"])
    assert table_markdown(table, intervals=True) in _markdown(at)
    assert "▲" in _markdown(at) or "▼" in _markdown(at) or not any(c.markers for c in table.cells.values())
    guide = next(e for e in at.expander if e.label == "How to read this table")
    assert escape_markdown(how_to_read(table).split("\n\n")[0]) == guide.markdown[0].value
    assert downloads["LaTeX"]["data"] == table_latex(table)
    assert downloads["Markdown"]["data"].startswith(table_markdown(table))
    assert downloads["Per-query values (CSV)"]["data"] == per_query_csv(table)
    assert "\\textbf{" in downloads["LaTeX"]["data"] and "\\toprule" in downloads["LaTeX"]["data"]


def test_tukey_compares_every_pair_without_a_correction(open_page):
    at = _tab(_upload(open_page("runs"), [("a.txt", RUN_A), ("b.txt", RUN_B), ("c.txt", RUN_C)]), "Results table")
    at.selectbox(key="irlab.runs.w.table_test").set_value("tukey").run()
    assert at.selectbox(key="irlab.runs.w.table_correction").disabled
    at.button(key="irlab.runs.w.table_compute").click().run()
    assert "Tukey" in next(e for e in at.expander if e.label == "How to read this table").markdown[1].value \
        or "Tukey" in _markdown(at)


def test_a_table_over_the_cpu_budget_says_what_to_ask_instead(open_page, monkeypatch):
    monkeypatch.setattr("irlab.ui.runs.table.TABLE_BUDGET", 0.0)
    at = _tab(_upload(open_page("runs"), [("a.txt", RUN_A), ("b.txt", RUN_B)]), "Results table")
    at.button(key="irlab.runs.w.table_compute").click().run()
    notice = " ".join(w.body for w in at.warning).replace("\\", "")
    assert "computing time" in notice and "pick one baseline" in notice


def test_a_table_the_server_has_no_memory_for_is_refused(open_page, monkeypatch):
    at = _tab(_upload(open_page("runs"), [("a.txt", RUN_A), ("b.txt", RUN_B)]), "Results table")
    monkeypatch.setattr("irlab.ui.shell.budgets.available_bytes", lambda: 1)
    at.button(key="irlab.runs.w.table_compute").click().run()
    assert any("cannot spare" in w.body for w in at.warning)


def test_a_file_the_server_has_no_memory_to_read_is_refused(open_page, monkeypatch):
    monkeypatch.setattr("irlab.ui.shell.budgets.available_bytes", lambda: 1)
    at = _upload(open_page("runs"), [("a.txt", RUN_A)])
    assert any("cannot spare" in e.body and "reading a" in e.body.replace("\\", "") for e in at.error)


# --- curves --------------------------------------------------------------------------------------------------

def test_curves_draw_every_run_and_a_pair_with_their_words(open_page):
    at = _tab(open_page("runs"), "Curves")
    ws = Workspace.sample()
    charts = _charts(at)
    curves = ws.precision_recall(list(ws.run_names))
    assert [c["alt"] for c in charts] == [run_charts.describe_precision_recall(curves),
                                          run_charts.describe_differences(ws.compare("bm25-tuned", "bm25", "AP"))]
    assert [t["name"] for t in json.loads(charts[0]["figure"])["data"]] == list(ws.run_names)


# --- compare: every pair only on request -----------------------------------------------------------------------

def test_every_pair_is_computed_only_on_the_button(open_page):
    at = open_page("runs", {"a": "bm25", "b": "bm25-tuned"})
    assert "p after Holm" not in _markdown(at)
    at.button(key="irlab.runs.w.every_pair").click().run()
    assert "p after Holm" in _markdown(at)


# --- the link --------------------------------------------------------------------------------------------------

def test_link_notices_appear_on_the_same_run(open_page):
    at = open_page("runs", {"run": "nope", "query": "999"})
    notices = " ".join(w.body for w in at.warning).replace("\\", "")
    assert "run ('nope')" in notices and "query ('999')" in notices


def test_the_apps_own_link_keeps_a_custom_measure(open_page):
    at = open_page("runs", {"run": "bm25", "query": "405", "measure": "P@5"})
    assert at.selectbox(key="irlab.runs.w.measure").value == "P@5"
    link = {name: at.query_params[name] for name in at.query_params}
    link = {k: v[0] if isinstance(v, list) else v for k, v in link.items()}
    assert link["measure"] == "P@5" and link["query"] == "405"
    again = open_page("runs", link)  # a new session, from the app's own link
    assert again.selectbox(key="irlab.runs.w.measure").value == "P@5"
    assert not again.warning or "measure" not in " ".join(w.body for w in again.warning)
    assert "P@5" in {m.label for m in again.metric}


# --- per query: paged, with a search box ------------------------------------------------------------------------

def _many(n: int) -> tuple[str, str]:
    qrels = "".join(f"t{q} 0 d{q} 1\n" for q in range(n))
    run = "".join(f"t{q} Q0 d{q} 1 1 R\n" for q in range(n))
    return qrels, run


def test_per_query_sends_one_page_and_finds_by_search(open_page):
    qrels, run = _many(130)
    at = _tab(_upload(open_page("runs"), [("many.txt", run)], qrels=qrels), "Per query")
    assert len(at.selectbox(key="irlab.runs.w.query").options) == 50
    assert len(at.dataframe[0].value) == 50
    at.number_input(key="irlab.runs.w.query_page").set_value(3).run()
    assert len(at.dataframe[0].value) == 30
    at.text_input(key="irlab.runs.w.query_search").input("t12").run()
    assert sorted(at.dataframe[0].value["query"]) == sorted(["t12", *(f"t12{d}" for d in range(10))])
    at.selectbox(key="irlab.runs.w.query").set_value("t125").run()
    assert "Query t125" in _markdown(at)


def test_a_linked_query_opens_on_its_page(open_page):
    at = open_page("runs", {"run": "bm25", "query": "449"})
    assert at.selectbox(key="irlab.runs.w.query").value == "449"


# --- what if, and the ideal ranking -----------------------------------------------------------------------------

def test_a_tile_move_updates_the_formula_and_the_rank_table(open_page, tile_change):
    at = open_page("runs", {"run": "bm25", "query": "401", "measure": "AP"})
    ws = Workspace.sample()
    view = ws.explain("bm25", "401", "AP")
    top = [d.doc for d in view.ranking[:10]]
    moved = list(reversed(top))
    key = _tiles_key("bm25", "401")
    at.session_state[key] = tile_change(" ".join(moved), row=key)
    at.run()
    what_if = ws.explain("bm25", "401", "AP", order=moved)
    assert what_if.value != view.value
    assert "The formula, with your order" in _markdown(at)
    rank_table = next(e for e in at.expander if e.label.startswith("Rank by rank"))
    assert "your order" in rank_table.label
    headers, cells = what_if.breakdown.table()
    assert rank_table.markdown[0].value == markdown_table(headers, cells[:MAX_RANK_ROWS])
    assert any(f"{what_if.value:.4f}" in s.body for s in at.success)


def _tiles_key(run: str, query: str) -> str:
    import hashlib

    return "runs-tiles-" + hashlib.sha1(f"{run}\0{query}".encode()).hexdigest()[:12]


@pytest.mark.parametrize("measure, shown", [("nDCG@10", True), ("AP", False), ("P@10", False)])
def test_the_ideal_ranking_only_for_measures_that_use_one(open_page, measure, shown):
    at = open_page("runs", {"run": "bm25", "query": "401", "measure": measure})
    assert ("The ideal ranking" in _markdown(at)) is shown
