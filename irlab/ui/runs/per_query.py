"""The Per query tab: every query's value, one query explained with the walkthrough's breakdowns, and "what if"."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping

import streamlit as st

from irlab.metrics.registry import parse_measure
from irlab.runs.linkstate import RunsView
from irlab.runs.workspace import MAX_RANK_ROWS, Options, QueryView, Workspace, measure_at
from irlab.ui.components.pictures import DOCUMENT, picture_url
from irlab.ui.components.tiles import latest_change, ranking_tiles
from irlab.ui.kit import formulas
from irlab.ui.kit.markdown import escape_markdown, markdown_table
from irlab.ui.runs.widgets import KEY, choose, from_link, measure_help, value_text

MAX_TILES = 20
"""Documents shown as tiles at most (K + 5, or 10 without K; the rank-by-rank table goes further)."""
MAX_LISTED = 20
"""Missed relevant and ideal documents listed."""


def per_query(workspace: Workspace, runs: list[str], measures: list[str], options: Options,
               link: RunsView) -> RunsView:
    pick_run, pick_measure, pick_k = st.columns([2, 2, 1])
    run = choose("Run", runs, "run", link="run", container=pick_run)
    base = choose("Measure", measures, "measure", link="measure", container=pick_measure)
    parsed = parse_measure(base)
    k = None
    if parsed.cutoff is not None and parsed.definition.cutoff_kind == "rank":
        key = KEY + "w.k." + base
        linked = st.session_state.pop(KEY + "link.k", None)
        if linked is not None:
            st.session_state[key] = linked
        if key not in st.session_state:
            st.session_state[key] = parsed.cutoff
        k = int(pick_k.number_input("K", min_value=1, max_value=10_000, step=1, key=key,
                                    help="The rank cutoff; changes the measure (P@10 → P@5)."))
    measure = str(measure_at(parsed, k))
    queries = workspace.judged(run, options).queries
    others = [r for r in runs if r != run]
    table_runs = [run] + others  # every run's value; the difference is the next run minus the chosen one
    rows = workspace.per_query(measure, table_runs, options)
    st.markdown(f"#### {escape_markdown(measure)} per query")
    query_key = KEY + "w.query"
    linked_query = from_link("query", list(queries))
    if linked_query is not None:
        st.session_state[query_key] = linked_query
    if st.session_state.get(query_key) not in queries:
        st.session_state[query_key] = queries[0]
    column_config = {"query": st.column_config.TextColumn("query")}
    column_config.update({r: st.column_config.NumberColumn(r, format="%.4f") for r in table_runs})
    if len(table_runs) >= 2:
        column_config["difference"] = st.column_config.NumberColumn(
            f"difference ({others[0]} − {run})", format="%+.4f")
    st.dataframe(rows, hide_index=True, width="stretch", height=260, column_config=column_config,
                 key=KEY + "w.table", on_select=lambda: _pick_row(rows), selection_mode="single-row")
    st.caption("Click a column header to sort, a row to open that query; or pick it below. *None*: the run does not "
               "rank that query, so trec_eval leaves it out of that run's mean (with -c it counts as 0).")
    query = st.selectbox("Query", queries, key=query_key)
    view = workspace.explain(run, query, measure, options)
    _query_view(workspace, view, options)
    return RunsView(source=link.source, run=run, query=query, measure=base, k=k)


def _pick_row(rows: list[dict]) -> None:
    selection = st.session_state.get(KEY + "w.table")
    picked = getattr(getattr(selection, "selection", None), "rows", None)
    if picked is None and isinstance(selection, Mapping):
        picked = selection.get("selection", {}).get("rows")
    if picked:
        st.session_state[KEY + "w.query"] = rows[picked[0]]["query"]


def _query_view(workspace: Workspace, view: QueryView, options: Options) -> None:
    st.markdown(f"### Query {escape_markdown(view.query)} · {escape_markdown(view.run)}")
    grades = list(workspace.qrels.judgments(view.query).values())
    top_grade = max([g for g in grades if g > 0], default=1)
    counts = st.columns(4)
    counts[0].metric(view.measure_label, value_text(view.value), border=True, help=measure_help(view.measure_label))
    counts[1].metric("Retrieved", f"{view.retrieved:,}", border=True)
    counts[2].metric(f"Relevant (grade ≥ {view.relevance_level})", f"{view.num_rel:,}", border=True)
    counts[3].metric("Relevant never retrieved", f"{len(view.missed):,}", border=True)
    _tiles(workspace, view, options, top_grade)
    st.markdown("#### The formula, with this query's numbers")
    formulas.formulas(view.breakdown)
    for note in view.breakdown.notes:
        st.caption(escape_markdown(note))
    headers, cells = view.breakdown.table()  # doc ids are their own labels
    if cells:
        with st.expander(f"Rank by rank ({min(len(cells), MAX_RANK_ROWS)} of {len(cells)} rows)"):
            st.markdown(markdown_table(headers, cells[:MAX_RANK_ROWS]))
    missed, ideal = st.columns(2)
    with missed:
        st.markdown("#### Relevant, never retrieved")
        if view.missed:
            st.caption(f"Why recall stays below 1: {len(view.missed)} relevant document"
                       f"{'s' if len(view.missed) != 1 else ''} the run does not return at any rank.")
            st.markdown(markdown_table(["doc", "grade"], [[d, str(g)] for d, g in view.missed[:MAX_LISTED]]))
            if len(view.missed) > MAX_LISTED:
                st.caption(f"… and {len(view.missed) - MAX_LISTED} more.")
        else:
            st.caption("None: the run retrieves every relevant document of this query.")
    with ideal:
        st.markdown("#### The ideal ranking")
        if view.ideal:
            st.caption("Every judged document with a grade above 0, best first: the ranking IDCG scores.")
            st.markdown(markdown_table(["rank", "doc", "grade"],
                                       [[str(i), d, str(g)] for i, (d, g) in enumerate(view.ideal[:MAX_LISTED], 1)]))
            if len(view.ideal) > MAX_LISTED:
                st.caption(f"… and {len(view.ideal) - MAX_LISTED} more.")
        else:
            st.caption("This query has no relevant judged document, so every measure is 0 for every run.")


def _tiles(workspace: Workspace, view: QueryView, options: Options, top_grade: int) -> None:
    """The top of the ranking as reorderable tiles; a move shows what the measure would be ("what if")."""
    shown = view.ranking[:10 if view.k is None else min(max(view.k + 5, 10), MAX_TILES)]
    if not shown:
        st.info("The run does not rank this query (it counts as 0 because of -c).", icon=":material/info:")
        return
    key = "runs-tiles-" + hashlib.sha1(f"{view.run}\0{view.query}".encode()).hexdigest()[:12]
    change = latest_change(key)
    order = [d.doc for d in shown]
    what_if = None
    if change and change.get("order") and list(change["order"]) != order:
        new_order = [doc for doc in change["order"] if doc in set(order)]
        what_if = workspace.explain(view.run, view.query, view.measure, options, order=new_order)
        order = new_order + [doc for doc in order if doc not in set(new_order)]
    by_doc = {d.doc: d for d in shown}
    mode = "graded" if top_grade > 1 else "binary"
    tiles = [{"id": doc, "title": doc, "alt": f"document {doc}", "picture": picture_url(DOCUMENT),
              "relevance": max(0, min(by_doc[doc].grade or 0, top_grade)),
              "relevance_label": _grade_text(by_doc[doc].grade, mode, top_grade)} for doc in order]
    st.markdown(f"#### The run's top {len(shown)}" + (f" (the cut after K = {view.k})" if view.k else ""))
    ranking_tiles(key=key, tiles=tiles, k=view.k, mode=mode, max_grade=top_grade, default_order=[d.doc for d in shown],
                  ideal_order=sorted(order, key=lambda d: -(by_doc[d].grade or 0)), label=f"Top of {view.run} "
                  f"for query {view.query}")
    if what_if is not None:
        st.success(f"What if: with your order, {escape_markdown(view.measure_label)} would be "
                   f"**{value_text(what_if.value)}** (the run's is {value_text(view.value)}).", icon=":material/lightbulb:")
    else:
        st.caption("Drag a tile (or focus it and press Shift+Arrow) to see what the measure would be with another "
                   "order; **Reset** restores the run's.")


def _grade_text(grade: int | None, mode: str, top: int) -> str:
    if grade is None:
        return "not judged (counts as not relevant)"
    if grade < 0:
        return f"judged {grade} (not relevant)"
    return ("relevant" if grade >= 1 else "not relevant") if mode == "binary" else f"grade {grade} of {top}"
