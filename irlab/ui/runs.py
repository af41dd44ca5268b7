"""The runs page: upload qrels and runs (or use the sample), see trec_eval's numbers, explain a query, compare.

Everything numeric comes from :class:`irlab.runs.workspace.Workspace`; this module keeps the
workspace in the session, turns uploads into tables (with progress and a size limit checked here,
on the server), and draws what the workspace returns. File names, run ids, query ids and document
ids are the student's text: they reach the browser through widgets that show text (tables, select
boxes, the tile component) or as escaped Markdown, never as HTML.
"""

from __future__ import annotations

import hashlib
import math
import weakref
from collections.abc import Mapping, Sequence

import pyarrow as pa
import streamlit as st

from irlab.errors import ValidationError
from irlab.exercises.text import count_noun
from irlab.metrics.registry import families_for_people, parse_measure
from irlab.runs import charts as run_charts
from irlab.runs.compare import format_p, verdict
from irlab.runs.linkstate import RunsView, parse_link, to_link
from irlab.runs.report import csv_text, trec_text
from irlab.runs.workspace import (DEFAULT_MEASURES, MAX_RANK_ROWS, Options, QueryView, Workspace, measure_at,
                                  read_upload)
from irlab.ui import render, session_memory
from irlab.ui.exercise_view import DOCUMENT_PICTURE
from irlab.ui.markdown import escape_markdown, markdown_table
from irlab.ui.tiles import ranking_tiles
from irlab.walkthrough.charts import to_figure

# Arrow's default allocator keeps freed memory for reuse, so a closed session's columns would stay
# in the server's memory; the C library's allocator hands large blocks back to the system.
pa.set_memory_pool(pa.system_memory_pool())

MAX_UPLOAD_MB = 100
"""The largest file the page reads, after unpacking a .gz (a million-line run is 40-80 MB)."""
MAX_TILES = 20
"""Documents shown as tiles at most (K + 5, or 10 without K; the rank-by-rank table goes further)."""
MAX_LISTED = 20
"""Missed relevant and ideal documents listed."""

_KEY = "irlab.runs."
SOURCE_LABELS = {"sample": "Sample collection (simulated)", "files": "My files"}


# --- state -----------------------------------------------------------------------------------------

def _sample() -> Workspace:
    workspace = session_memory.get("runs.sample")
    if workspace is None:
        workspace = Workspace.sample()
        session_memory.put("runs.sample", workspace)
    return workspace


def _files() -> Workspace:
    """The student's files: held outside session_state so a closed tab's columns are freed (see session_memory)."""
    workspace = session_memory.get("runs.files")
    if workspace is None:
        workspace = Workspace(None)
        session_memory.put("runs.files", workspace)
    return workspace


def _adopt_link() -> None:
    """On the session's first run, set the widgets from the link (once: afterwards the widgets lead)."""
    if st.session_state.get(_KEY + "link_read"):
        return
    st.session_state[_KEY + "link_read"] = True
    view, notices = parse_link(dict(st.query_params))
    st.session_state[_KEY + "notices"] = notices
    st.session_state[_KEY + "w.source"] = SOURCE_LABELS[view.source]
    for name in ("run", "query", "a", "b"):
        if getattr(view, name) is not None:
            st.session_state[_KEY + "link." + name] = getattr(view, name)
    if view.measure is not None:
        try:
            st.session_state[_KEY + "link.measure"] = str(parse_measure(view.measure))
        except ValidationError as error:
            notices.append(f"The link's measure is not one IR Lab knows ({error.message}); it was ignored.")
    if view.k is not None:
        st.session_state[_KEY + "link.k"] = view.k
    if view.a is not None or view.b is not None:
        st.session_state[_KEY + "w.tab"] = "Compare runs"
    elif view.query is not None or view.run is not None:
        st.session_state[_KEY + "w.tab"] = "Per query"


def _from_link(name: str, options: Sequence[str]) -> str | None:
    """The link's choice for ``name`` if it is one of ``options`` (consumed: it applies once)."""
    wanted = st.session_state.pop(_KEY + "link." + name, None)
    if wanted is None:
        return None
    if wanted in options:
        return wanted
    st.session_state.setdefault(_KEY + "notices", []).append(
        f"The link's {name} ({wanted[:60]!r}) is not in the loaded files; the first one is shown instead.")
    return None


def _choose(label: str, options: Sequence[str], key: str, *, link: str | None = None, index: int = 0,
            container=st, help: str | None = None) -> str:
    """A select box whose value survives reruns, follows the link once, and falls back when options change."""
    full = _KEY + "w." + key
    linked = _from_link(link, options) if link else None
    if linked is not None:
        st.session_state[full] = linked
    if st.session_state.get(full) not in options:
        st.session_state[full] = options[min(index, len(options) - 1)]
    return container.selectbox(label, options, key=full, help=help)


# --- uploads -----------------------------------------------------------------------------------------

def _read(uploaded, kind: str):
    """One uploaded file as a table, or its problem as text (never raises)."""
    if uploaded.size > MAX_UPLOAD_MB << 20:
        return f"{uploaded.name}: the file is {uploaded.size / 2**20:,.0f} MB, more than the {MAX_UPLOAD_MB} MB this page reads"
    with st.status(f"Reading {uploaded.name} ({uploaded.size / 2**20:,.1f} MB)…", expanded=False) as status:
        try:
            table = read_upload(uploaded.getvalue(), uploaded.name, kind, limit=MAX_UPLOAD_MB << 20,
                                mixed_up=f"; put it under {'Runs' if kind == 'qrels' else 'Qrels'}",
                                progress=lambda message: status.update(label=message + "…"))
        except ValidationError as error:
            status.update(label=f"Could not read {uploaded.name}", state="error")
            return str(error)
        except MemoryError:
            status.update(label=f"Could not read {uploaded.name}", state="error")
            return f"{uploaded.name}: not enough memory on the server for this file"
        status.update(label=f"Read {uploaded.name}: {len(table):,} lines", state="complete")
    return table


def _uploads() -> list[str]:
    """The two uploaders; returns the problems of files that could not be used (what is loaded stays)."""
    problems = []
    left, right = st.columns(2)
    qrels_file = left.file_uploader("Qrels", type=None, key=_KEY + "w.qrels", max_upload_size=MAX_UPLOAD_MB,
                                    help="One qrels file: query iteration doc grade per line (.gz accepted).")
    run_files = right.file_uploader("Runs", type=None, accept_multiple_files=True, key=_KEY + "w.runs",
                                    max_upload_size=MAX_UPLOAD_MB,
                                    help="One or more runs: query Q0 doc rank score tag per line (.gz accepted).")
    st.caption(f"Files up to {MAX_UPLOAD_MB} MB each after unpacking (a million-line run is 40–80 MB), plain text or "
               ".gz. They stay in this browser session only and are gone when you close the tab.")
    done: dict = st.session_state.setdefault(_KEY + "done", {})
    workspace = _files()
    if qrels_file is None:
        if workspace.qrels is not None:  # the student removed it: the runs stay, waiting for qrels
            workspace = Workspace(None, workspace.runs)
    else:
        workspace, problem = _take(done, qrels_file, "qrels", workspace)
        if problem:
            kept = f" The qrels loaded before ({workspace.qrels.name}) are still used." if workspace.qrels else ""
            problems.append(problem + kept)
    present = {("run", uploaded.file_id) for uploaded in run_files or []}
    gone = [key for key in done if key[0] == "run" and key not in present]
    removed = [done.pop(key) for key in gone]  # first, so a file uploaded again keeps its name
    workspace = workspace.without_runs(name for name in removed if isinstance(name, str))
    for uploaded in run_files or []:
        workspace, problem = _take(done, uploaded, "run", workspace)
        if problem:
            problems.append(problem)
    session_memory.put("runs.files", workspace)
    return problems


def _take(done: dict, uploaded, kind: str, workspace: Workspace) -> tuple[Workspace, str]:
    """Read an upload once (``done`` remembers each file id's name, or its problem); the workspace with it."""
    key = (kind, uploaded.file_id)
    if key not in done:
        result = _read(uploaded, kind)
        if isinstance(result, str):
            done[key] = ("failed", result)
        elif kind == "qrels":
            done[key] = uploaded.name
            workspace = workspace.with_qrels(result)
        else:
            before = set(workspace.run_names)
            workspace = workspace.with_run(uploaded.name, result)
            done[key] = (set(workspace.run_names) - before).pop()
    outcome = done[key]
    return workspace, outcome[1] if isinstance(outcome, tuple) else ""


# --- the page ------------------------------------------------------------------------------------

def page() -> None:
    """Draw the runs page."""
    _adopt_link()
    st.title("Your runs")
    st.markdown("Evaluate your own system's TREC runs against qrels with exactly **trec_eval**'s numbers, open any "
                "query to see *why* it scores what it scores, and compare two systems topic by topic with paired "
                "significance tests.")
    source_label = st.radio("Data", list(SOURCE_LABELS.values()), key=_KEY + "w.source", horizontal=True,
                            label_visibility="collapsed")
    source = next(k for k, v in SOURCE_LABELS.items() if v == source_label)
    problems = []
    if source == "files":
        problems = _uploads()
        workspace = _files()
    else:
        workspace = _sample()
        st.info("**Simulated data.** A seeded, made-up collection (50 topics, three systems of different quality, "
                "graded judgments 0–3) so the page is never empty. Choose **My files** to use your own qrels and runs.",
                icon=":material/science:")
    for problem in problems:
        st.error(escape_markdown(problem), icon=":material/error:")
    for notice in st.session_state.pop(_KEY + "notices", []):
        st.warning(escape_markdown(notice), icon=":material/info:")
    if not _ready(workspace):
        return
    options, measures = _settings()
    usable = list(workspace.usable_runs())
    tabs = st.tabs(["Summary", "Per query", "Compare runs"], key=_KEY + "w.tab", on_change="rerun")
    link = RunsView(source=source)
    with tabs[0]:
        if tabs[0].open:
            _summary(workspace, usable, measures, options)
    with tabs[1]:
        if tabs[1].open:
            link = _per_query(workspace, usable, measures, options, link)
    with tabs[2]:
        if tabs[2].open:
            link = _compare(workspace, usable, measures, options, link)
    st.query_params.from_dict(to_link(link))


def _ready(workspace: Workspace) -> bool:
    """Whether there is something to evaluate; otherwise say what is missing."""
    if workspace.qrels is None or not workspace.runs:
        missing = " and ".join(w for w, m in (("a qrels file", workspace.qrels is None), ("at least one run",
                                                                                          not workspace.runs)) if m)
        st.info(f"Upload {missing} to see their numbers. trec_eval's test files, or any TREC track's qrels and runs, "
                "work as they are.", icon=":material/upload_file:")
        return False
    apart = [name for name in workspace.run_names if not workspace.overlapping(name)]
    for name in apart:
        st.warning(escape_markdown(f"{name} ranks no query that {workspace.qrels.name} judges (it ranks "
                                   f"{_some(workspace.runs[name].query_ids)}; the qrels judge "
                                   f"{_some(workspace.qrels.query_ids)}), so it cannot be evaluated. Is it a run "
                                   "for another track?"), icon=":material/warning:")
    return len(apart) < len(workspace.runs)


def _settings() -> tuple[Options, list[str]]:
    """The measure picker and trec_eval's options."""
    offered = _offered_measures()
    key = _KEY + "w.measures"
    if key not in st.session_state:
        st.session_state[key] = list(DEFAULT_MEASURES)
    left, right = st.columns([3, 1])
    chosen = left.multiselect("Measures", offered, key=key, accept_new_options=True,
                              help="Pick from the list or type any measure IR Lab knows, in ir_measures' or "
                                   "trec_eval's spelling: nDCG@20, P_5, map_cut_100, RBP(p=0.8), …")
    measures, bad = [], []
    for name in chosen:
        try:
            measure = parse_measure(name)
        except ValidationError as error:
            bad.append(f"{name}: {error.message}")
            continue
        if measure.definition.kind == "text":
            bad.append(f"{name}: a text measure, shown by the command line only")
            continue
        measures.append(str(measure))
    for problem in bad:
        left.warning(escape_markdown(problem), icon=":material/info:")
    with right.popover("trec_eval options", icon=":material/tune:", width="stretch"):
        level = st.number_input("Relevance level (-l)", min_value=1, max_value=9, value=1, step=1, key=_KEY + "w.level",
                                help="A grade at least this counts as relevant for binary measures (nDCG uses the "
                                     "grades themselves).")
        complete = st.checkbox("Count judged queries a run misses, as 0 (-c)", key=_KEY + "w.complete",
                               help="Without -c (trec_eval's default) a query the run does not rank is left out of "
                                    "the mean.")
    return Options(int(level), bool(complete)), list(dict.fromkeys(measures)) or list(DEFAULT_MEASURES)


def _offered_measures() -> list[str]:
    """The picker's list: the defaults first, then every family at common cutoffs (from the registry)."""
    offered = list(DEFAULT_MEASURES)
    for family in families_for_people():
        if family.kind == "text":
            continue
        if family.cutoff == "none":
            names = [family.name]
        elif family.cutoff_kind == "recall":
            names = [f"{family.name}@0.5"]
        elif family.cutoff == "optional":
            names = [family.name, f"{family.name}@10", f"{family.name}@100"]
        else:
            names = [f"{family.name}@{k}" for k in (5, 10, 20, 100)]
        offered.extend(n for n in names if n not in offered)
    return offered


# --- summary ---------------------------------------------------------------------------------------

def _summary(workspace: Workspace, runs: list[str], measures: list[str], options: Options) -> None:
    rows = workspace.summary(measures, options)
    st.dataframe([{**{"run": r["run"], "run id": r["runid"], "queries": r["queries"]},
                   **{m: r[m] for m in measures}} for r in rows],
                 hide_index=True, width="stretch",
                 column_config={m: st.column_config.NumberColumn(m, format="%.4f", help=_help(m)) for m in measures})
    st.caption("The values trec_eval prints on its \"all\" lines (the mean over the evaluated queries"
               + (", every judged query counting" if options.complete else ", queries a run misses left out")
               + "). Switch to **Per query** to see where they come from.")
    left, right, _ = st.columns([1, 1, 2])
    # built when clicked; a weak reference, so the button does not keep a closed session's runs alive
    held = weakref.ref(workspace)

    def report(render_text) -> str:
        current = held()
        return "" if current is None else render_text([current.evaluation(r, measures, options) for r in runs],
                                                          per_query=True)

    left.download_button("Download CSV", data=lambda: report(csv_text), file_name="irlab-evaluation.csv",
                         mime="text/csv", icon=":material/download:", on_click="ignore", key=_KEY + "w.csv")
    right.download_button("Download trec_eval text", data=lambda: report(trec_text), file_name="irlab-evaluation.txt",
                          mime="text/plain", icon=":material/download:", on_click="ignore", key=_KEY + "w.trec")


def _help(measure: str) -> str:
    family = parse_measure(measure).definition
    return f"{family.label}. {family.help}".strip()


# --- per query -------------------------------------------------------------------------------------

def _pair(runs: list[str], container_a, container_b) -> tuple[str, str | None]:
    a = _choose("Run A", runs, "a", link="a", container=container_a)
    if len(runs) < 2:
        return a, None
    others = [r for r in runs if r != a]
    b = _choose("Run B", others, "b", link="b", container=container_b)
    return a, b


def _per_query(workspace: Workspace, runs: list[str], measures: list[str], options: Options,
               link: RunsView) -> RunsView:
    pick_run, pick_measure, pick_k = st.columns([2, 2, 1])
    run = _choose("Run", runs, "run", link="run", container=pick_run)
    base = _choose("Measure", measures, "measure", link="measure", container=pick_measure)
    parsed = parse_measure(base)
    k = None
    if parsed.cutoff is not None and parsed.definition.cutoff_kind == "rank":
        key = _KEY + "w.k." + base
        linked = st.session_state.pop(_KEY + "link.k", None)
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
    query_key = _KEY + "w.query"
    linked_query = _from_link("query", list(queries))
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
                 key=_KEY + "w.table", on_select=lambda: _pick_row(rows), selection_mode="single-row")
    st.caption("Click a column header to sort, a row to open that query; or pick it below. *None*: the run does not "
               "rank that query, so trec_eval leaves it out of that run's mean (with -c it counts as 0).")
    query = st.selectbox("Query", queries, key=query_key)
    view = workspace.explain(run, query, measure, options)
    _query_view(workspace, view, options)
    return RunsView(source=link.source, run=run, query=query, measure=base, k=k)


def _pick_row(rows: list[dict]) -> None:
    selection = st.session_state.get(_KEY + "w.table")
    picked = getattr(getattr(selection, "selection", None), "rows", None)
    if picked is None and isinstance(selection, Mapping):
        picked = selection.get("selection", {}).get("rows")
    if picked:
        st.session_state[_KEY + "w.query"] = rows[picked[0]]["query"]


def _query_view(workspace: Workspace, view: QueryView, options: Options) -> None:
    st.markdown(f"### Query {escape_markdown(view.query)} · {escape_markdown(view.run)}")
    grades = list(workspace.qrels.judgments(view.query).values())
    top_grade = max([g for g in grades if g > 0], default=1)
    counts = st.columns(4)
    counts[0].metric(view.measure_label, _value(view.value), border=True, help=_help(view.measure_label))
    counts[1].metric("Retrieved", f"{view.retrieved:,}", border=True)
    counts[2].metric(f"Relevant (grade ≥ {view.relevance_level})", f"{view.num_rel:,}", border=True)
    counts[3].metric("Relevant never retrieved", f"{len(view.missed):,}", border=True)
    _tiles(workspace, view, options, top_grade)
    st.markdown("#### The formula, with this query's numbers")
    render.formulas(view.breakdown)
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
    change = (st.session_state.get(key) or {}).get("change") if isinstance(st.session_state.get(key), Mapping) else None
    order = [d.doc for d in shown]
    what_if = None
    if change and change.get("order") and list(change["order"]) != order:
        new_order = [doc for doc in change["order"] if doc in set(order)]
        what_if = workspace.explain(view.run, view.query, view.measure, options, order=new_order)
        order = new_order + [doc for doc in order if doc not in set(new_order)]
    by_doc = {d.doc: d for d in shown}
    mode = "graded" if top_grade > 1 else "binary"
    tiles = [{"id": doc, "title": doc, "alt": f"document {doc}", "picture": DOCUMENT_PICTURE,
              "relevance": max(0, min(by_doc[doc].grade or 0, top_grade)),
              "relevance_label": _grade_text(by_doc[doc].grade, mode, top_grade)} for doc in order]
    st.markdown(f"#### The run's top {len(shown)}" + (f" (the cut after K = {view.k})" if view.k else ""))
    ranking_tiles(key=key, tiles=tiles, k=view.k, mode=mode, max_grade=top_grade, default_order=[d.doc for d in shown],
                  ideal_order=sorted(order, key=lambda d: -(by_doc[d].grade or 0)), label=f"Top of {view.run} "
                  f"for query {view.query}")
    if what_if is not None:
        st.success(f"What if: with your order, {escape_markdown(view.measure_label)} would be "
                   f"**{_value(what_if.value)}** (the run's is {_value(view.value)}).", icon=":material/lightbulb:")
    else:
        st.caption("Drag a tile (or focus it and press Shift+Arrow) to see what the measure would be with another "
                   "order; **Reset** restores the run's.")


def _grade_text(grade: int | None, mode: str, top: int) -> str:
    if grade is None:
        return "not judged (counts as not relevant)"
    if grade < 0:
        return f"judged {grade} (not relevant)"
    return ("relevant" if grade >= 1 else "not relevant") if mode == "binary" else f"grade {grade} of {top}"


def _value(value) -> str:
    if isinstance(value, float):
        return "—" if math.isnan(value) else f"{value:.4f}"
    return str(value)


# --- compare ---------------------------------------------------------------------------------------

def _compare(workspace: Workspace, runs: list[str], measures: list[str], options: Options,
             link: RunsView) -> RunsView:
    if len(runs) < 2:
        st.info("Load a second run to compare two systems topic by topic.", icon=":material/compare_arrows:")
        return link
    pick_a, pick_b, pick_m = st.columns(3)
    a, b = _pair(runs, pick_a, pick_b)
    measure = _choose("Measure", measures, "compare_measure", link="measure", container=pick_m)
    c = workspace.compare(a, b, measure, options)
    cols = st.columns(4)
    cols[0].metric(f"{a} (A)", _value(c.mean_a), border=True)
    cols[1].metric(f"{b} (B)", _value(c.mean_b), border=True)
    cols[2].metric("Mean difference B − A", f"{c.mean_difference:+.4f}", border=True,
                   help=f"95% confidence interval {_signed(c.ci_low)} to {_signed(c.ci_high)}")
    cols[3].metric("B wins / ties / losses", f"{c.wins} / {c.ties} / {c.losses}", border=True,
                   help=f"Over the {count_noun(c.n, 'query', 'queries')} both runs are evaluated on.")
    caption = run_charts.describe_differences(c)
    st.plotly_chart(to_figure(run_charts.difference_spec(c)), config=render.CHART_CONFIG, width="stretch",
                    key=_KEY + "chart", alt=caption)
    st.caption(caption)
    st.markdown("#### Paired tests")
    st.markdown(markdown_table(
        ["test", "statistic", "p-value", "what it assumes"],
        [["paired t-test", _signed(c.t_statistic, 3), format_p(c.t_p), "differences roughly normal"],
         ["Wilcoxon signed-rank", _plain(c.wilcoxon_statistic), format_p(c.wilcoxon_p),
          "differences symmetric; ties dropped"],
         ["randomisation (10,000 sign flips, seeded)", _signed(c.mean_difference, 4), format_p(c.randomisation_p),
          "none beyond the topics being a sample"],
         ["effect size d (mean / sd of differences)", _signed(c.effect_size, 2), "", "about 0.2 small, 0.5 medium, 0.8 large"]]))
    st.markdown(f"95% confidence interval of the mean difference: {_signed(c.ci_low)} to {_signed(c.ci_high)}.")
    with st.container(border=True):
        for paragraph in verdict(c).split("\n\n"):
            st.markdown(escape_markdown(paragraph))
    if len(runs) > 2:
        st.markdown("#### Every pair, with Holm's correction")
        pairs = workspace.compare_all(runs, measure, options)
        st.caption(f"{len(pairs)} comparisons at once: Holm's correction raises each p-value so that the chance of "
                   "any false 'significant' stays at 5%. The randomisation test's p-values, on the queries all runs "
                   "share.")
        st.markdown(markdown_table(
            ["A", "B", "mean B − A", "p", "p after Holm", "significant at 0.05"],
            [[p.run_a, p.run_b, _signed(p.mean_difference), format_p(p.randomisation_p), format_p(adjusted),
              "yes" if adjusted < 0.05 else "no"] for p, adjusted in pairs]))
    return RunsView(source=link.source, measure=measure, a=a, b=b)


def _signed(value: float, digits: int = 4) -> str:
    return "—" if math.isnan(value) else f"{value:+.{digits}f}"


def _plain(value: float) -> str:
    return "—" if math.isnan(value) else f"{value:g}"


def _some(ids: Sequence[str]) -> str:
    shown = ", ".join(ids[:3])
    return shown + (f" and {len(ids) - 3} more" if len(ids) > 3 else "")
