"""The Compare runs tab: two systems topic by topic, paired tests, and every pair with Holm's correction."""

from __future__ import annotations

import weakref

import streamlit as st

from irlab.errors import ValidationError
from irlab.exercises.exports.text import count_noun
from irlab.runs import charts as run_charts
from irlab.runs.compare import format_p, verdict
from irlab.runs.linkstate import RunsView
from irlab.runs.workspace import Options, Workspace, memory_to_compare
from irlab.ui.components.chart import chart
from irlab.ui.kit.markdown import escape_markdown, markdown_table
from irlab.ui.runs.widgets import KEY, choose, plain, signed, value_text
from irlab.ui.shell import budgets, session_memory

HELD = "runs.pairs"
"""session_memory name of the last "every pair": (its settings, a weak reference to its workspace, the result)."""


def _pair(runs: list[str], container_a, container_b) -> tuple[str, str | None]:
    a = choose("Run A", runs, "a", link="a", container=container_a)
    if len(runs) < 2:
        return a, None
    others = [r for r in runs if r != a]
    b = choose("Run B", others, "b", link="b", container=container_b)
    return a, b


def compare(workspace: Workspace, runs: list[str], measures: list[str], options: Options,
             link: RunsView) -> RunsView:
    if len(runs) < 2:
        st.info("Load a second run to compare two systems topic by topic.", icon=":material/compare_arrows:")
        return link
    pick_a, pick_b, pick_m = st.columns(3)
    a, b = _pair(runs, pick_a, pick_b)
    measure = choose("Measure", measures, "compare_measure", link="measure", container=pick_m)
    c = workspace.compare(a, b, measure, options)
    cols = st.columns([0.9, 0.9, 1.3, 1.6])  # wins / ties / losses of hundreds of topics fit at 1280
    # a metric's label is Markdown: the run names are the student's text, escaped
    cols[0].metric(escape_markdown(f"{a} (A)"), value_text(c.mean_a), border=True)
    cols[1].metric(escape_markdown(f"{b} (B)"), value_text(c.mean_b), border=True)
    cols[2].metric("Mean difference B − A", f"{c.mean_difference:+.4f}", border=True,
                   help=f"95% confidence interval {signed(c.ci_low)} to {signed(c.ci_high)}")
    cols[3].metric("B wins / ties / losses", f"{c.wins} / {c.ties} / {c.losses}", border=True,
                   help=f"Over the {count_noun(c.n, 'query', 'queries')} both runs are evaluated on.")
    caption = run_charts.describe_differences(c)
    chart(run_charts.difference_spec(c), caption, key=KEY + "chart")
    st.markdown("#### Paired tests")
    st.markdown(markdown_table(
        ["test", "statistic", "p-value", "what it assumes"],
        [["paired t-test", signed(c.t_statistic, 3), format_p(c.t_p), "differences roughly normal"],
         ["Wilcoxon signed-rank", plain(c.wilcoxon_statistic), format_p(c.wilcoxon_p),
          "differences symmetric; zero differences dropped (scipy's default)"],
         ["randomisation (10,000 sign flips, seeded)", signed(c.mean_difference, 4), format_p(c.randomisation_p),
          "none beyond the topics being a sample"],
         ["effect size d (mean / sd of differences)", signed(c.effect_size, 2), "",
          "about 0.2 small, 0.5 medium, 0.8 large"]]))
    st.markdown(f"95% confidence interval of the mean difference: {signed(c.ci_low)} to {signed(c.ci_high)}.")
    with st.container(border=True):
        for paragraph in verdict(c).split("\n\n"):
            st.markdown(escape_markdown(paragraph))
    if len(runs) > 2:
        _every_pair(workspace, runs, measure, options)
    return RunsView(source=link.source, measure=measure, a=a, b=b)


def _every_pair(workspace: Workspace, runs: list[str], measure: str, options: Options) -> None:
    """Every pair with Holm's correction: computed only when asked (80 runs are 3,160 pairs), within the budgets."""
    st.markdown("#### Every pair, with Holm's correction")
    pairs = len(runs) * (len(runs) - 1) // 2
    settings = (tuple(runs), measure, options)
    if st.button(f"Compare every pair ({pairs:,} comparisons)", icon=":material/join_inner:",
                 key=KEY + "w.every_pair"):
        topics = len(workspace.queries(runs, options))
        result = budgets.room_for(memory_to_compare(topics, len(runs)), "comparing every pair of runs")
        if result is None:
            try:
                with st.spinner("Comparing every pair…"):
                    result = workspace.compare_all(runs, measure, options)
            except ValidationError as error:  # BudgetExceeded: its message says what to ask instead
                result = str(error)
        session_memory.put(HELD, (settings, weakref.ref(workspace), result))
    held = session_memory.get(HELD)
    if held is None or held[1]() is not workspace or held[0] != settings:
        st.caption("Computed only when you press the button: with many runs it takes a while.")
        return
    if isinstance(held[2], str):
        st.warning(escape_markdown(held[2]), icon=":material/timer:")
        return
    st.caption(f"{len(held[2])} comparisons at once: Holm's correction raises each p-value so that the chance of "
               "any false 'significant' stays at 5%. The randomisation test's p-values, on the queries all runs share.")
    st.markdown(markdown_table(
        ["A", "B", "mean B − A", "p", "p after Holm", "significant at 0.05"],
        [[p.run_a, p.run_b, signed(p.mean_difference), format_p(p.randomisation_p), format_p(adjusted),
          "yes" if adjusted < 0.05 else "no"] for p, adjusted in held[2]]))
