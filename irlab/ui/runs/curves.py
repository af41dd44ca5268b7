"""The Curves tab: every run's interpolated precision-recall curve, and the sorted per-topic difference of a pair.

The curves and their words come from the core (:meth:`Workspace.precision_recall`,
:mod:`irlab.runs.charts`); each chart's description is its text alternative, shown with it.
"""

from __future__ import annotations

import streamlit as st

from irlab.runs import charts as run_charts
from irlab.runs.workspace import Options, Workspace
from irlab.ui.components.chart import chart
from irlab.ui.runs.widgets import KEY, choose


def curves_tab(workspace: Workspace, runs: list[str], measures: list[str], options: Options) -> None:
    curves = workspace.precision_recall(runs, options)
    chart(run_charts.precision_recall_spec(curves), run_charts.describe_precision_recall(curves),
          key=KEY + "chart.curves")
    st.caption("trec_eval's iprec_at_recall: at each recall level, the best precision at that recall or beyond, "
               "averaged over the topics. Where one curve lies above another, that run is more precise at that recall.")
    if len(runs) < 2:
        st.info("Load a second run to see the two compared topic by topic.", icon=":material/compare_arrows:")
        return
    st.markdown("#### Topic by topic")
    pick_a, pick_b, pick_m = st.columns(3)
    a = choose("Run A", runs, "curve_a", container=pick_a)
    b = choose("Run B", [r for r in runs if r != a], "curve_b", container=pick_b)
    measure = choose("Measure", measures, "curve_measure", container=pick_m)
    comparison = workspace.compare(a, b, measure, options)
    chart(run_charts.difference_spec(comparison), run_charts.describe_differences(comparison),
          key=KEY + "chart.differences")
    st.caption("Each bar is one topic's difference B − A, sorted from B's largest loss to its largest win; losses "
               "are hatched. A mean hides that a run can win on many topics and lose badly on a few.")
