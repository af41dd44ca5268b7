"""The runs page: upload qrels and runs (or use the sample), see trec_eval's numbers, explain a query, compare.

Everything numeric comes from :class:`irlab.runs.workspace.Workspace`; this module keeps the
workspace in the session, turns uploads into tables (with progress and a size limit checked here,
on the server), and draws what the workspace returns. File names, run ids, query ids and document
ids are the student's text: they reach the browser through widgets that show text (tables, select
boxes, the tile component) or as escaped Markdown, never as HTML.
"""

from __future__ import annotations

import streamlit as st

from irlab.runs.linkstate import RunsView, to_link
from irlab.runs.workspace import Workspace
from irlab.ui.kit.markdown import escape_markdown
from irlab.ui.runs.compare import compare
from irlab.ui.runs.per_query import per_query
from irlab.ui.runs.summary import settings, summary
from irlab.ui.runs.uploads import files_workspace, sample_workspace, uploads
from irlab.ui.runs.widgets import KEY, SOURCE_LABELS, adopt_link, some


def page() -> None:
    """Draw the runs page."""
    adopt_link()
    st.title("Your runs")
    st.markdown("Evaluate your own system's TREC runs against qrels with exactly **trec_eval**'s numbers, open any "
                "query to see *why* it scores what it scores, and compare two systems topic by topic with paired "
                "significance tests.")
    source_label = st.radio("Data", list(SOURCE_LABELS.values()), key=KEY + "w.source", horizontal=True,
                            label_visibility="collapsed")
    source = next(k for k, v in SOURCE_LABELS.items() if v == source_label)
    problems = []
    if source == "files":
        problems = uploads()
        workspace = files_workspace()
    else:
        workspace = sample_workspace()
        st.info("**Simulated data.** A seeded, made-up collection (50 topics, three systems of different quality, "
                "graded judgments 0–3) so the page is never empty. Choose **My files** to use your own qrels and runs.",
                icon=":material/science:")
    for problem in problems:
        st.error(escape_markdown(problem), icon=":material/error:")
    for notice in st.session_state.pop(KEY + "notices", []):
        st.warning(escape_markdown(notice), icon=":material/info:")
    if not _ready(workspace):
        return
    options, measures = settings()
    usable = list(workspace.usable_runs())
    tabs = st.tabs(["Summary", "Per query", "Compare runs"], key=KEY + "w.tab", on_change="rerun")
    link = RunsView(source=source)
    with tabs[0]:
        if tabs[0].open:
            summary(workspace, usable, measures, options)
    with tabs[1]:
        if tabs[1].open:
            link = per_query(workspace, usable, measures, options, link)
    with tabs[2]:
        if tabs[2].open:
            link = compare(workspace, usable, measures, options, link)
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
                                   f"{some(workspace.runs[name].query_ids)}; the qrels judge "
                                   f"{some(workspace.qrels.query_ids)}), so it cannot be evaluated. Is it a run "
                                   "for another track?"), icon=":material/warning:")
    return len(apart) < len(workspace.runs)
