"""The Compare runs tab: two systems topic by topic, paired tests, and every pair with Holm's correction."""

from __future__ import annotations

import streamlit as st

from irlab.exercises.text import count_noun
from irlab.runs import charts as run_charts
from irlab.runs.compare import format_p, verdict
from irlab.runs.linkstate import RunsView
from irlab.runs.workspace import Options, Workspace
from irlab.ui.components.chart import chart
from irlab.ui.kit.markdown import escape_markdown, markdown_table
from irlab.ui.runs.widgets import KEY, choose, plain, signed, value_text


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
    cols = st.columns(4)
    cols[0].metric(f"{a} (A)", value_text(c.mean_a), border=True)
    cols[1].metric(f"{b} (B)", value_text(c.mean_b), border=True)
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
          "differences symmetric; ties dropped"],
         ["randomisation (10,000 sign flips, seeded)", signed(c.mean_difference, 4), format_p(c.randomisation_p),
          "none beyond the topics being a sample"],
         ["effect size d (mean / sd of differences)", signed(c.effect_size, 2), "", "about 0.2 small, 0.5 medium, 0.8 large"]]))
    st.markdown(f"95% confidence interval of the mean difference: {signed(c.ci_low)} to {signed(c.ci_high)}.")
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
            [[p.run_a, p.run_b, signed(p.mean_difference), format_p(p.randomisation_p), format_p(adjusted),
              "yes" if adjusted < 0.05 else "no"] for p, adjusted in pairs]))
    return RunsView(source=link.source, measure=measure, a=a, b=b)
