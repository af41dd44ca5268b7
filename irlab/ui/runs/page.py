"""The runs page: upload qrels and runs (or use the sample), check them, see trec_eval's numbers, explain, compare.

Everything numeric comes from :class:`irlab.runs.workspace.Workspace`; this module keeps the
workspace in the session, turns uploads into tables (with progress and the session's budgets,
checked here, on the server), and draws what the workspace returns: the run doctor first, then a
tab each for the summary, one query, two runs, the results table and the curves. File names, run
ids, query ids and document ids are the student's text: they reach the browser through widgets
that show text (tables, select boxes, the tile component) or as escaped Markdown, never as HTML.

Notices about the link (a run, query or measure it names that is not there) are found while the
tabs are drawn, so they go into a placeholder at the top that is filled last: they appear on the
same run, not one click late.
"""

from __future__ import annotations

import streamlit as st

from irlab.runs.linkstate import RunsView, to_link
from irlab.runs.workspace import Workspace
from irlab.ui.kit.markdown import escape_markdown
from irlab.ui.runs.compare import compare
from irlab.ui.runs.curves import curves_tab
from irlab.ui.runs.doctor import doctor_panel
from irlab.ui.runs.per_query import per_query
from irlab.ui.runs.summary import settings, summary
from irlab.ui.runs.table import results_tab
from irlab.ui.runs.uploads import files_workspace, sample_workspace, uploads
from irlab.ui.runs.widgets import KEY, SOURCE_LABELS, adopt_link, some

TABS = ("Summary", "Per query", "Compare runs", "Results table", "Curves")


def page() -> None:
    """Draw the runs page."""
    adopt_link()
    st.title("Your runs")
    notices = st.container()  # filled at the end, with every notice this run found
    st.markdown("Evaluate your own system's TREC runs against qrels with exactly **trec_eval**'s numbers, open any "
                "query to see *why* it scores what it scores, and compare systems topic by topic with paired "
                "significance tests, up to a paper's results table.")
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
    link = RunsView(source=source)
    if _ready(workspace):
        link = _tabs(workspace, link)
    with notices:
        for notice in st.session_state.pop(KEY + "notices", []):
            st.warning(escape_markdown(notice), icon=":material/info:")
    st.query_params.from_dict(to_link(link))


def _tabs(workspace: Workspace, link: RunsView) -> RunsView:
    """The settings, the run doctor, and the tabs (only the open one is drawn)."""
    options, measures = settings()
    doctor_panel(workspace, options, open_on_findings=link.source == "files")
    usable = list(workspace.usable_runs())
    tabs = st.tabs(list(TABS), key=KEY + "w.tab", on_change="rerun")
    with tabs[0]:
        if tabs[0].open:
            summary(workspace, usable, measures, options)
    with tabs[1]:
        if tabs[1].open:
            link = per_query(workspace, usable, measures, options, link)
    with tabs[2]:
        if tabs[2].open:
            link = compare(workspace, usable, measures, options, link)
    with tabs[3]:
        if tabs[3].open:
            results_tab(workspace, usable, measures, options)
    with tabs[4]:
        if tabs[4].open:
            curves_tab(workspace, usable, measures, options)
    return link


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
