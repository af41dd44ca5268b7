"""The Summary tab and the settings above the tabs: the measure picker and trec_eval's options."""

from __future__ import annotations

import weakref

import streamlit as st

from irlab.errors import ValidationError
from irlab.metrics.measure_names import parse_measure
from irlab.metrics.registry import families_for_people
from irlab.runs.report import csv_text, trec_text
from irlab.runs.workspace import DEFAULT_MEASURES, Options, Workspace
from irlab.ui.kit.markdown import escape_markdown
from irlab.ui.runs.widgets import KEY, measure_help


def settings() -> tuple[Options, list[str]]:
    """The measure picker and trec_eval's options."""
    offered = _offered_measures()
    key = KEY + "w.measures"
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
        if measure.definition.judgments not in ("qrels", "any"):
            bad.append(f"{name}: computed against judgment groups or preferences, not qrels: the command line's "
                       "evaluate -R qrels_jg or -R prefs computes it")
            continue
        measures.append(str(measure))
    for problem in bad:
        left.warning(escape_markdown(problem), icon=":material/info:")
    with right.popover("trec_eval options", icon=":material/tune:", width="stretch"):
        level = st.number_input("Relevance level (-l)", min_value=1, max_value=9, value=1, step=1, key=KEY + "w.level",
                                help="A grade at least this counts as relevant for binary measures (nDCG uses the "
                                     "grades themselves).")
        st.session_state.setdefault(KEY + "w.complete", Options().complete)
        complete = st.checkbox("Count judged queries a run misses, as 0 (-c)", key=KEY + "w.complete",
                               help="On by default: every judged query counts and one the run does not rank scores "
                                    "0, as in TREC reports and trec_eval 10.0 with -c (without -c trec_eval 10.0 "
                                    "refuses such a run). Off: such queries are left out of the mean, as trec_eval "
                                    "9 did silently, which flatters a run that skips hard queries.")
        st.caption("On by default: every judged query counts." if complete else
                   "Off: queries a run misses are left out of its mean (not the default).")
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


def summary(workspace: Workspace, runs: list[str], measures: list[str], options: Options) -> None:
    rows = workspace.summary(measures, options)
    st.dataframe([{"run": r["run"], "run id": r["runid"], "queries": r["queries"],
                   **{m: r[m] for m in measures}} for r in rows],
                 hide_index=True, width="stretch",
                 column_config={m: st.column_config.NumberColumn(m, format="%.4f", help=measure_help(m))
                                for m in measures})
    st.caption("The values trec_eval prints on its \"all\" lines (the mean over the evaluated queries"
               + (", every judged query counting" if options.complete else ", queries a run misses left out")
               + "). Switch to **Per query** to see where they come from.")
    _coverage(workspace, runs, measures, options)
    left, right, _ = st.columns([1, 1, 2])
    # built when clicked; a weak reference, so the button does not keep a closed session's runs alive
    held = weakref.ref(workspace)

    def report(render_text) -> str:
        current = held()
        return "" if current is None else render_text([current.evaluation(r, measures, options) for r in runs],
                                                          per_query=True)

    left.download_button("Download CSV", data=lambda: report(csv_text), file_name="irlab-evaluation.csv",
                         mime="text/csv", icon=":material/download:", on_click="ignore", key=KEY + "w.csv")
    right.download_button("Download trec_eval text", data=lambda: report(trec_text), file_name="irlab-evaluation.txt",
                          mime="text/plain", icon=":material/download:", on_click="ignore", key=KEY + "w.trec")


def _coverage(workspace: Workspace, runs: list[str], measures: list[str], options: Options) -> None:
    """Per run, the judged topics it misses and each mean with and without them (the core's sentence, as text)."""
    partial = [c for c in (workspace.coverage(run, measures, options) for run in runs) if c.missed]
    if not partial:
        st.caption(f"Every run ranks every one of the {len(workspace.qrels.query_ids):,} judged queries.")
        return
    with st.container(border=True):
        st.markdown("**Judged queries a run misses**")
        for c in partial:
            st.markdown(escape_markdown(c.sentence(measures, counted=options.complete)))
