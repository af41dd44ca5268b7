"""The Results table tab: a paper's table of every run against baselines (or every pair), computed on request.

The numbers, markers, intervals, wins/ties/losses and exports are the core's
(:mod:`irlab.runs.table`, :mod:`irlab.runs.table_export`); this module picks the settings, runs
the computation only when the button is pressed (within the core's CPU budget and the server's
memory guard) and draws the result. Run names are the student's text: the table is the core's
Markdown, which backslash-escapes every punctuation character of a name, so nothing in a name
becomes a link, emphasis or HTML.
"""

from __future__ import annotations

import weakref

import streamlit as st

from irlab.errors import ValidationError
from irlab.runs.compare import PAIRS_BUDGET
from irlab.runs.significance import CORRECTIONS, TESTS
from irlab.runs.table import ResultsTable, how_to_read
from irlab.runs.table_export import per_query_csv, table_csv, table_latex, table_markdown
from irlab.runs.workspace import Options, Workspace, memory_to_compare
from irlab.ui.kit.markdown import escape_markdown, markdown_table
from irlab.ui.runs.widgets import KEY
from irlab.ui.shell import budgets, session_memory

TABLE_BUDGET = PAIRS_BUDGET
"""Seconds of computing time one press of the button may take (the core's budget for a shared server)."""
HELD = "runs.table"
"""session_memory name of the last computed table: (its settings, a weak reference to its workspace, the table)."""
TEST_LABELS = {"t": "paired t-test", "wilcoxon": "Wilcoxon signed-rank",
               "randomisation": "randomisation (10,000 flips)", "tukey": "Tukey's HSD (every pair)"}
CORRECTION_LABELS = {"holm": "Holm", "bonferroni": "Bonferroni", "bh": "Benjamini-Hochberg", "none": "none"}


def results_tab(workspace: Workspace, runs: list[str], measures: list[str], options: Options) -> None:
    """The settings, the Compute button, and the last table computed with these settings."""
    st.markdown("A paper's results table: every run's mean with its 95% interval, ▲/▼ and a letter where a run is "
                "significantly better or worse than the run with that letter, the best mean in bold, and wins / ties "
                "/ losses against the baseline.")
    left, middle, right = st.columns([3, 2, 2])
    _keep(KEY + "w.table_measures", measures, measures[:3])
    chosen = left.multiselect("Measures", measures, key=KEY + "w.table_measures",
                              help="The measures picked above the tabs; a column each.")
    test = middle.selectbox("Test", list(TESTS), format_func=TEST_LABELS.get, key=KEY + "w.table_test",
                            help="Paired by topic. Tukey's HSD compares every pair at once.")
    correction = right.selectbox("Correction", list(CORRECTIONS), format_func=CORRECTION_LABELS.get,
                                 key=KEY + "w.table_correction", disabled=test == "tukey",
                                 help="For the many comparisons of each measure. Tukey's HSD needs none.")
    all_pairs = st.toggle("Compare every pair of runs", key=KEY + "w.table_all_pairs", disabled=test == "tukey",
                          help="Instead of against baselines. Tukey's HSD always compares every pair.")
    all_pairs = all_pairs or test == "tukey"
    baselines = [runs[0]]
    if not all_pairs:
        _keep(KEY + "w.table_baselines", runs, runs[:1])
        baselines = st.multiselect("Baselines", runs, key=KEY + "w.table_baselines",
                                   help="Every other run is compared with each baseline (default: the first run).")
    settings = (tuple(runs), tuple(chosen), options, tuple(baselines), test, correction, all_pairs)
    if not chosen or not baselines:
        st.info("Pick at least one measure" + ("" if baselines else " and one baseline") + ".", icon=":material/info:")
        return
    if st.button("Compute the table", icon=":material/table:", type="primary", key=KEY + "w.table_compute"):
        _compute(workspace, settings)
    held = session_memory.get(HELD)
    if held is None or held[1]() is not workspace:
        st.caption("Computed only when you press the button: the tests and 2,000 bootstrap resamples per cell take a "
                   "moment with many runs or topics.")
        return
    if held[0] != settings:
        st.caption("The settings changed since the table below was computed: press **Compute the table** again.")
        return
    if isinstance(held[2], str):
        st.warning(escape_markdown(held[2]), icon=":material/timer:")
        return
    _draw(held[2], chosen)


def _keep(key: str, options: list[str], default: list[str]) -> None:
    """A multiselect's value limited to ``options`` (they change with the loaded runs and picked measures)."""
    if key in st.session_state:
        st.session_state[key] = [value for value in st.session_state[key] if value in options]
    else:
        st.session_state[key] = list(default)


def _compute(workspace: Workspace, settings: tuple) -> None:
    """The table for ``settings`` (or the reason it was not computed), kept for the next reruns."""
    runs, measures, options, baselines, test, correction, all_pairs = settings
    topics = len(workspace.queries(list(runs), options))
    refusal = budgets.room_for(memory_to_compare(topics, len(runs), len(measures)), "computing this table")
    if refusal is None:
        try:
            with st.spinner("Computing the tests and intervals…"):
                result = workspace.results_table(list(runs), list(measures), options, baselines=list(baselines),
                                                 test=test, correction=correction, all_pairs=all_pairs,
                                                 budget=TABLE_BUDGET)
        except ValidationError as error:  # BudgetExceeded too: its message says what to ask instead
            result = str(error)
    else:
        result = refusal
    session_memory.put(HELD, (settings, weakref.ref(workspace), result))


def _draw(table: ResultsTable, measures: list[str]) -> None:
    st.markdown(table_markdown(table, intervals=True))
    for against, others in table.wtl_groups:
        st.markdown(f"**Wins / ties / losses against {table.letters[against]}** "
                    f"({escape_markdown(against)}): topics where the run is better / equal / worse")
        records = [[table.letters[run], run, *(table.comparison(run, against, m).record(" / ") for m in measures)]
                   for run in others]
        st.markdown(markdown_table(["", "run", *measures], records))
    for c in table.coverage.values():
        if c.missed:
            st.caption(escape_markdown(c.sentence(measures, counted=table.missed_count)))
    with st.expander("How to read this table", icon=":material/help:"):
        for paragraph in how_to_read(table).split("\n\n"):
            st.markdown(escape_markdown(paragraph))
    columns = st.columns(4)
    downloads = (("Markdown", table_markdown(table, legend=True), "irlab-results.md", "text/markdown"),
                 ("LaTeX", table_latex(table), "irlab-results.tex", "text/x-tex"),
                 ("CSV", table_csv(table), "irlab-results.csv", "text/csv"),
                 ("Per-query values (CSV)", per_query_csv(table), "irlab-per-query.csv", "text/csv"))
    for column, (label, data, name, mime) in zip(columns, downloads):
        with column:
            st.download_button(label, data=data, file_name=name, mime=mime, icon=":material/download:",
                               on_click="ignore", key=KEY + "w.table_" + name, width="stretch")
