"""The Per query tab: every query's value, one query explained with the walkthrough's breakdowns, and "what if"."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence

import streamlit as st

from irlab.metrics.measure_names import parse_measure
from irlab.metrics.registry import Measure
from irlab.runs.linkstate import RunsView
from irlab.runs.trec import TIE_RULE, tied
from irlab.runs.workspace import (
    MAX_RANK_ROWS,
    QUERIES_PER_PAGE,
    Options,
    QueryPage,
    QueryView,
    RankedDoc,
    Workspace,
    measure_at,
    page_of,
    query_page,
)
from irlab.ui.components.pictures import DOCUMENT, picture_url
from irlab.ui.components.tiles import latest_change, ranking_tiles
from irlab.ui.kit import formulas
from irlab.ui.kit.markdown import escape_markdown, markdown_table
from irlab.ui.runs.widgets import KEY, choose, from_link, measure_help, score_text, value_text

MAX_TILES = 20
"""Documents shown as tiles at most (K + 5, or 10 without K; the rank-by-rank table goes further)."""
MAX_LISTED = 20
"""Missed relevant and ideal documents listed."""
SEARCH = KEY + "w.query_search"
PAGE = KEY + "w.query_page"


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
    order = [row["query"] for row in rows]
    if linked_query is not None:  # open the page of the table that holds it
        st.session_state[query_key] = linked_query
        st.session_state[SEARCH] = ""
        st.session_state[PAGE] = page_of(order, linked_query)
    page = _page_picker(order)
    shown = [rows[i] for i in page.positions]
    column_config = {"query": st.column_config.TextColumn("query")}
    column_config.update({r: st.column_config.NumberColumn(r, format="%.4f") for r in table_runs})
    if len(table_runs) >= 2:
        column_config["difference"] = st.column_config.NumberColumn(
            f"difference ({others[0]} − {run})", format="%+.4f")
    st.dataframe(shown, hide_index=True, width="stretch", height=260, column_config=column_config,
                 key=KEY + "w.table", on_select=lambda: _pick_row(shown), selection_mode="single-row")
    st.caption(f"Page {page.number} of {page.pages} ({page.matches:,} quer{'y' if page.matches == 1 else 'ies'}"
               f"{' matching the search' if st.session_state.get(SEARCH) else ''}, {QUERIES_PER_PAGE} per page). "
               "Click a column header to sort this page, a row to open that query; or pick it below."
               + ("" if options.complete else " *None*: the run does not rank that query, so trec_eval leaves it out "
                                              "of that run's mean (with -c it counts as 0)."))
    ranked = set(queries)
    choices = [q for q in page.queries if q in ranked]
    current = st.session_state.get(query_key)
    if current not in ranked:
        current = (choices or list(queries))[0]
    if current not in choices:  # another page: keep the query open and offer it first
        choices = [current] + choices
    st.session_state[query_key] = current
    query = st.selectbox("Query", choices, key=query_key,
                         help="The queries of this page of the table (search or turn the page above for others).")
    view = workspace.explain(run, query, measure, options)
    _query_view(workspace, view, options)
    return RunsView(source=link.source, run=run, query=query, measure=base, k=k)


def _page_picker(order: list[str]) -> QueryPage:
    """A search box and a page number: a page of at most QUERIES_PER_PAGE queries reaches the browser."""
    search_col, page_col = st.columns([3, 1])
    search = search_col.text_input("Find a query", key=SEARCH, placeholder="a query id, or part of one",
                                   max_chars=200)
    pages = query_page(order, search, 1).pages
    if not 1 <= st.session_state.get(PAGE, 1) <= pages:
        st.session_state[PAGE] = 1
    number = page_col.number_input(f"Page (of {pages:,})", min_value=1, max_value=pages, step=1, key=PAGE)
    page = query_page(order, search, int(number))
    if not page.matches:
        st.info(f"No query id contains {search.strip()[:60]!r}.", icon=":material/search_off:")
    return page


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
    what_if = _tiles(workspace, view, options, top_grade)
    # after a move, the formula and the rank table are those of the student's order, as the notice says
    shown = what_if or view
    st.markdown("#### The formula, with your order" if what_if else "#### The formula, with this query's numbers")
    formulas.formulas(shown.breakdown)
    for note in shown.breakdown.notes:
        st.caption(escape_markdown(note))
    headers, cells = shown.breakdown.table()  # doc ids are their own labels
    if cells:
        mine = ", your order" if what_if else ""
        with st.expander(f"Rank by rank ({min(len(cells), MAX_RANK_ROWS)} of {len(cells)} rows{mine})"):
            st.markdown(markdown_table(headers, cells[:MAX_RANK_ROWS]))
    if not uses_ideal_ranking(view.measure):
        _missed(view)
        return
    missed, ideal = st.columns(2)
    with missed:
        _missed(view)
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


def uses_ideal_ranking(measure: Measure) -> bool:
    """Whether ``measure`` divides by the score of an ideal ranking (IDCG): the registry says so by the
    family's ``ideal`` parameter (nDCG, IDCG), which chooses what that ranking sorts.

    >>> from irlab.metrics.measure_names import parse_measure
    >>> from irlab.metrics.registry import Measure
    >>> uses_ideal_ranking(parse_measure("nDCG@10")), uses_ideal_ranking(parse_measure("AP"))
    (True, False)
    """
    return "ideal" in measure.definition.param_names


def _missed(view: QueryView) -> None:
    st.markdown("#### Relevant, never retrieved")
    if view.missed:
        st.caption(f"Why recall stays below 1: {len(view.missed)} relevant document"
                   f"{'s' if len(view.missed) != 1 else ''} the run does not return at any rank.")
        st.markdown(markdown_table(["doc", "grade"], [[d, str(g)] for d, g in view.missed[:MAX_LISTED]]))
        if len(view.missed) > MAX_LISTED:
            st.caption(f"… and {len(view.missed) - MAX_LISTED} more.")
    else:
        st.caption("None: the run retrieves every relevant document of this query.")


def _tiles(workspace: Workspace, view: QueryView, options: Options, top_grade: int) -> QueryView | None:
    """The top of the ranking as reorderable tiles; after a move, the view of the student's order ("what if")."""
    shown = view.ranking[:10 if view.k is None else min(max(view.k + 5, 10), MAX_TILES)]
    if not shown:
        st.info("The run does not rank this query (it counts as 0 because of -c).", icon=":material/info:")
        return None
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
                   f"**{value_text(what_if.value)}** (the run's is {value_text(view.value)}); the formula and the rank "
                   "table below follow your order.", icon=":material/lightbulb:")
    else:
        st.caption("Drag a tile (or focus it and press Shift+Arrow) to see what the measure would be with another "
                   "order; **Reset** restores the run's.")
    _scores(shown, mode, top_grade)
    return what_if


def _scores(shown: Sequence[RankedDoc], mode: str, top_grade: int) -> None:
    """The run's score of each tile and trec_eval's tie rule: why the file's rank 1 need not be the page's."""
    ties = tied([d.score for d in shown])
    st.caption(TIE_RULE)
    some_tied = ": some are tied, so their ids order them" if any(ties) else ""
    with st.expander(f"The run's scores of these {len(shown)}{some_tied}", expanded=any(ties)):
        st.markdown(markdown_table(["rank", "document", "score", "grade"],
                                   [[str(d.rank), d.doc, score_text(d.score) + (" (tied)" if tie else ""),
                                     _grade_text(d.grade, mode, top_grade)] for d, tie in zip(shown, ties)]))


def _grade_text(grade: int | None, mode: str, top: int) -> str:
    if grade is None:
        return "not judged (counts as not relevant)"
    if grade < 0:
        return f"judged {grade} (not relevant)"
    return ("relevant" if grade >= 1 else "not relevant") if mode == "binary" else f"grade {grade} of {top}"
