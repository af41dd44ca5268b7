"""The pooling lab page: pool the class's runs at depth k, judge the pool, see how the ranking of the systems moves.

Everything numeric comes from :class:`irlab.runs.pooling_lab.PoolingLab` (rows of text, chart points);
this module keeps the lab in the session, reads uploads (every file's size is budgeted by the shell's
upload budget and by the limits below, on the server) and draws. Run names, document ids and texts
are the lecturer's data: they reach the browser as table cells, plain text (``st.text``) or escaped
Markdown, never as HTML.
"""

from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from irlab.errors import ValidationError
from irlab.runs.pooling_lab import GRADE_NAMES, GRADES, SOURCES, PoolingLab, means_rows, sweep_rows, tau_series
from irlab.runs.texts import read_texts, read_topics
from irlab.runs.trec import MB
from irlab.runs.workspace import read_upload
from irlab.sharedtask.store import TaskStore
from irlab.ui.kit.markdown import escape_markdown
from irlab.ui.shell import session_memory

KEY = "irl-pool-"
MAX_RUN_MB = 100
MAX_TEXT_MB = 200
"""The documents' text, unpacked; a browser sends at most :data:`BROWSER_UPLOAD_MB` (a .gz carries more)."""
BROWSER_UPLOAD_MB = 100
"""The largest file a browser sends: the proxy's limit (deploy/nginx_conf.py's MAX_UPLOAD_MB; tests/sharedtask
checks)."""
FILES = "Our files"
TASK = "Our shared task"
SHARES = {"all of it": 1.0, "half": 0.5, "a fifth": 0.2}
"""Shares of each topic's pool judged that the sweep can compare."""


@st.cache_resource(show_spinner="Simulating a class of twelve systems…")
def _sample() -> PoolingLab:
    return PoolingLab.sample()


@st.cache_resource(show_spinner="Pooling at every depth and scoring every run…", max_entries=8)
def _sample_sweep(shares: tuple[float, ...]):
    return _sample().sweep("truth", shares)


def _slot() -> str:
    """Where this session keeps the lab it shows: its copy of the simulated class, its files' lab, or the task's."""
    source = st.session_state.get(KEY + "source")
    return {FILES: "pooling.files", TASK: "pooling.task"}.get(source, "pooling.sample")


def _lab() -> PoolingLab | None:
    """The session's lab (its judgments included); the shared simulated class until the session judges."""
    lab = session_memory.get(_slot())
    return lab if lab is not None or _slot() != "pooling.sample" else _sample()


def _keep(lab: PoolingLab) -> None:
    session_memory.put(_slot(), lab)


def page() -> None:
    """Draw the pooling lab."""
    st.title("Pooling lab")
    st.markdown("TREC judges only a **pool**: the top *k* documents of every run, per topic. Pool your class's runs "
                "at depth *k*, judge the pool (alone, or split among the class with their agreement), then see how "
                "the ranking of the systems by **AP**, **bpref** and **infAP** moves with the depth and with the "
                "documents left unjudged.")
    task = _task_link()
    choices = ["Simulated class", FILES] + ([TASK] if task else [])
    if task:
        st.session_state.setdefault(KEY + "source", TASK)
    source = st.radio("Runs", choices, key=KEY + "source", horizontal=True)
    if source == TASK:
        lab = _task_lab(*task)
        if lab is None:
            return
        st.info(escape_markdown(lab.label), icon=":material/emoji_events:")
    elif source == FILES:
        lab = _files()
        if lab is None:
            return
    else:
        lab = _lab()
        st.info(escape_markdown(lab.label) + ". Nothing here is real data.", icon=":material/science:")
    deepest = min(lab.deepest(), 100)
    depth = st.slider("Pool depth k", 1, max(deepest, 2), min(10, deepest), key=KEY + "depth",
                      help="Each run's top k documents of every topic go into the pool.")
    judged, size = lab.progress(depth)
    cols = st.columns(3)
    cols[0].metric("Documents to judge", f"{size:,}")
    cols[1].metric("Runs pooled", f"{len(lab.runs):,}")
    cols[2].metric("Judged on this page", f"{judged:,}")
    tabs = ["The pool", "Judge", "Several judges", "How the ranking moves"]
    pool_tab, judge_tab, judges_tab, sweep_tab = st.tabs(tabs)
    with pool_tab:
        st.caption("Documents only one run put in the pool: a run that finds what no other run finds depends most "
                   "on the pool's depth (its documents are unjudged in a shallower pool, so not relevant for AP).")
        st.dataframe(lab.pool_rows(depth), hide_index=True, width="stretch")
    with judge_tab:
        _judge(lab, depth)
    with judges_tab:
        _several(lab, depth)
    with sweep_tab:
        _sweep(_lab(), depth)


def _task_link() -> tuple[str, str] | None:
    """The shared task named by the link (``?task=CODE&key=KEY``: the lecturer's), if any."""
    code, key = st.query_params.get("task", ""), st.query_params.get("key", "")
    return (code[:20], key[:200]) if code and key else None


def _task_lab(code: str, key: str) -> PoolingLab | None:
    """The lab on a shared task's runs: each student's best run (its kept top documents), the task's qrels as the
    truth; only with the lecturer's key (the store checks it)."""
    lab = _lab()
    if lab is not None and session_memory.get("pooling.task-link") == (code, key):  # the same link as before
        return lab
    try:
        desk = TaskStore().desk(code, key)
        runs = desk.pooled_runs()
        if not runs:
            st.info("No run of this task is scored yet.", icon=":material/hourglass_top:")
            return None
        truth = read_upload(desk.qrels(), "qrels", "qrels", limit=MAX_RUN_MB * MB)
        view = desk.view()
    except (ValidationError, SQLAlchemyError) as error:
        st.error(escape_markdown(error if isinstance(error, ValidationError) else "The task store did not answer."),
                 icon=":material/error:")
        return None
    lab = PoolingLab(runs, truth, f"Shared task {code}: each student's best run ({len(runs)} runs, the top documents "
                                  f"kept of each), judged by the task's qrels", topics=view.topic_texts,
                     judges=desk.class_judgments())  # the class's own judgments of the pool, if it judged it
    _keep(lab)
    session_memory.put("pooling.task-link", (code, key))
    return lab


def _files() -> PoolingLab | None:
    """The uploaders; the lab built from them (None, with what is missing, when there are no runs)."""
    left, right = st.columns(2)
    runs = left.file_uploader("Runs (the class's)", accept_multiple_files=True, key=KEY + "runs",
                              max_upload_size=MAX_RUN_MB, help="TREC run files, one per system (.gz accepted).")
    qrels = right.file_uploader("Qrels (optional: the true grades)", key=KEY + "qrels", max_upload_size=MAX_RUN_MB)
    docs = left.file_uploader("Documents (optional)", key=KEY + "docs", max_upload_size=BROWSER_UPLOAD_MB,
                              help="One document a line: id, a tab, the text; or JSON lines with id and text.")
    topics = right.file_uploader("Topics (optional)", key=KEY + "topics", max_upload_size=MAX_RUN_MB,
                                 help="TREC topics (<top> <num> <title>), or id, a tab, the text per line.")
    st.caption(f"Runs and qrels up to {MAX_RUN_MB} MB each, documents up to {MAX_TEXT_MB} MB (MB = 10^6 bytes, "
               f"after unpacking a .gz; a file sent is at most {BROWSER_UPLOAD_MB} MB, so gzip larger documents); "
               "only the pooled documents' texts are kept. Files stay in this session.")
    if not runs:
        st.info("Upload the class's runs to pool them (or choose the simulated class).", icon=":material/upload_file:")
        return None
    signature = tuple(f.file_id for f in runs), getattr(qrels, "file_id", None), getattr(docs, "file_id", None), \
        getattr(topics, "file_id", None)
    lab = _lab()
    if lab is not None and session_memory.get("pooling.signature") == signature:
        return lab
    try:
        tables = {f.name: read_upload(f.getvalue(), f.name, "run", limit=MAX_RUN_MB * MB) for f in runs}
        truth = read_upload(qrels.getvalue(), qrels.name, "qrels", limit=MAX_RUN_MB * MB) if qrels else None
        lab = PoolingLab(tables, truth, f"{len(tables)} uploaded runs")
        if topics is not None:
            lab = PoolingLab(lab.runs, lab.truth, lab.label, topics=read_topics(topics.getvalue(), topics.name))
        if docs is not None:
            wanted = {doc for _, doc in lab.pool(min(100, lab.deepest())).items()}
            lab = PoolingLab(lab.runs, lab.truth, lab.label, documents=read_texts(
                docs.getvalue(), docs.name, wanted=wanted, limit=MAX_TEXT_MB * MB), topics=lab.topics)
    except ValidationError as error:
        st.error(escape_markdown(error), icon=":material/error:")
        return None
    _keep(lab)
    session_memory.put("pooling.signature", signature)
    return lab


def _judge(lab: PoolingLab, depth: int) -> None:
    """One pooled document at a time, in a shuffled order, with four grade buttons."""
    judged, size = lab.progress(depth)
    st.progress(judged / size if size else 0.0, text=f"{judged:,} of {size:,} pooled documents judged")
    item = lab.next_item(depth, st.session_state.get(KEY + "skipped"))
    if item is None:
        st.success("Every document of this pool is judged. See how the ranking moves with your judgments.",
                   icon=":material/task_alt:")
    else:
        topic, doc = item
        with st.container(border=True, key=KEY + "card"):
            st.markdown(f"**Topic {escape_markdown(topic)}**")
            words = lab.topic_text(topic)
            st.text(words if words else "(no topic text: upload a topics file to show it)")
            st.markdown(f"**Document {escape_markdown(doc)}**")
            text = lab.document_text(item)
            st.text(text if text else "(no document text: upload a documents file to show it)")
        cols = st.columns(len(GRADES) + 1)
        for col, grade in zip(cols, GRADES):
            col.button(f"{grade} · {GRADE_NAMES[grade]}", key=f"{KEY}grade-{grade}", width="stretch",
                       on_click=_grade, args=(item, grade), type="primary" if grade else "secondary")
        cols[-1].button("Skip", key=KEY + "skip", width="stretch", on_click=_skip, args=(item,))
        st.caption("The documents come in a shuffled order, never a run's: the order would tell you what the runs "
                   "think. Keyboard: Tab to a grade, Enter to give it.")
    if lab.mine:
        st.download_button("Download my judgments (qrels)", lab.mine_as_qrels(), file_name="my-judgments.qrels",
                           mime="text/plain", key=KEY + "mine", icon=":material/download:")


def _grade(item, grade: int) -> None:
    _keep(_lab().judged(item, grade))
    st.session_state[KEY + "skipped"] = item


def _skip(item) -> None:
    st.session_state[KEY + "skipped"] = item


def _several(lab: PoolingLab, depth: int) -> None:
    """Split the pool among judges: their sheets, their filled sheets back, and how much they agree."""
    st.markdown("Split the pool among the class: each document goes to *overlap* students, so their agreement can "
                "be measured (Cohen's kappa per pair, Fleiss' kappa over all). Download each judge's sheet, let them "
                "replace each `-` with a grade (0-3), and upload the sheets here.")
    cols = st.columns(2)
    judges = cols[0].number_input("Judges", 1, 200, 10, key=KEY + "judges")
    overlap = cols[1].number_input("Judges per document", 1, 5, 2, key=KEY + "overlap")
    if overlap > judges:
        st.warning("Each document needs at least as many judges as judges per document.", icon=":material/warning:")
        return
    names = [f"judge-{i:02d}" for i in range(1, int(judges) + 1)]
    sheets = lab.sheets(depth, names, int(overlap))
    st.download_button("Download the judges' sheets (one file, a section per judge)",
                       "".join(f"# {name}\n{sheet}" for name, sheet in sheets.items()), file_name="pool-sheets.txt",
                       mime="text/plain", key=KEY + "sheets", icon=":material/download:")
    filled = st.file_uploader("The judges' filled sheets (one file per judge)", accept_multiple_files=True,
                              key=KEY + "filled", max_upload_size=MAX_RUN_MB)
    if lab.truth is not None:
        error = st.slider("Or simulate judges who err this often", 0.0, 0.5, 0.15, 0.05, key=KEY + "error",
                          help="A simulated judge gives the true grade, or one step off with this probability.")
        if st.button("Simulate the judges", key=KEY + "simulate", icon=":material/groups:"):
            _keep(_lab().simulate_judges(depth, int(judges), int(overlap), float(error)))
            st.rerun()
    if filled:
        try:
            _keep(_lab().with_judges({}).with_judge_files({f.name: f.getvalue() for f in filled}))
        except ValidationError as error:
            st.error(escape_markdown(error), icon=":material/error:")
    current = _lab()
    if current.judges:
        st.markdown(escape_markdown(current.agreement_summary()))
        st.dataframe(current.agreement_rows(), hide_index=True, width="stretch")
        st.caption("Landis and Koch call a kappa of 0.41–0.60 moderate and 0.61–0.80 substantial agreement. The "
                   "grades kept are each document's most frequent grade (a tie goes to the lower grade).")


def _sweep(lab: PoolingLab, depth: int) -> None:
    """The ranking of the runs against the pool: tau by depth, the runs at this depth, leaving one out."""
    sources = lab.sources()
    if not sources:
        st.info("Judge some documents (or upload qrels, or the judges' sheets) to see how the ranking moves.",
                icon=":material/info:")
        return
    source = st.radio("Grades from", sources, format_func=lambda s: SOURCES[s], key=KEY + "grades", horizontal=True)
    chosen = st.multiselect("Share of each topic's pool judged (the rest stays in the pool, unjudged)",
                            list(SHARES), default=["all of it", "a fifth"], key=KEY + "shares")
    shares = tuple(SHARES[c] for c in chosen) or (1.0,)
    try:
        sweep = _sample_sweep(shares) if (lab.simulated and source == "truth") else _session_sweep(lab, source, shares)
    except ValidationError as error:
        st.error(escape_markdown(error), icon=":material/error:")
        return
    st.markdown(f"The reference ranking: the runs by **AP with every judgment of the deepest pool** "
                f"(depth {sweep.reference_depth}). Kendall's τ compares each measure's ranking at a shallower pool "
                "with it: 1 is the same order, 0.9 is what Voorhees took for \u201cthe same ranking\u201d.")
    st.plotly_chart(_tau_figure(sweep), key=KEY + "tau", config={"displayModeBar": False})
    st.caption("The chart's numbers, depth by depth, are in the table below.")
    share = st.radio("Table for", [c for c in SHARES if SHARES[c] in shares] or ["all of it"], key=KEY + "share",
                     horizontal=True)
    st.dataframe(sweep_rows(sweep, SHARES[share]), hide_index=True, width="stretch")
    depths = [p.depth for p in sweep.points]
    shown = depth if depth in depths else max(d for d in depths if d <= depth) if min(depths) <= depth else depths[0]
    st.markdown(f"**The runs at pool depth {shown}** ({share} judged), best first by the reference; "
                "▲/▼ says how many places a measure moves a run.")
    st.dataframe(means_rows(sweep, shown, SHARES[share]), hide_index=True, width="stretch")
    if len(lab.runs) >= 2:
        with st.expander(f"Leave one run out at depth {shown}: is the pool fair to a system that was not pooled?"):
            st.dataframe(_leave_one_out(lab, source, shown), hide_index=True, width="stretch")


def _session_sweep(lab: PoolingLab, source: str, shares: tuple[float, ...]):
    key = (id(lab), source, shares)
    held = session_memory.get("pooling.sweep")
    if held is not None and held[0] == key:
        return held[1]
    with st.spinner("Pooling at every depth and scoring every run…"):
        sweep = lab.sweep(source, shares)
    session_memory.put("pooling.sweep", (key, sweep))
    return sweep


def _leave_one_out(lab: PoolingLab, source: str, depth: int) -> list[dict]:
    key = (id(lab), source, depth)
    held = session_memory.get("pooling.loo")
    if held is not None and held[0] == key:
        return held[1]
    rows = lab.leave_one_out_rows(source, depth)
    session_memory.put("pooling.loo", (key, rows))
    return rows


def _tau_figure(sweep) -> go.Figure:
    """Kendall's tau by pool depth, a line per measure and share judged."""
    figure = go.Figure()
    dashes = {0: "solid", 1: "dash", 2: "dot"}
    symbols = ("circle", "square", "diamond", "triangle-up")  # a measure is told by its marks too, not colour alone
    series = tau_series(sweep)
    shares = list(dict.fromkeys(point["judged"] for point in series))
    for number, m in enumerate(sweep.measures):
        for i, share in enumerate(shares):
            points = [p for p in series if p["measure"] == m and p["judged"] == share]
            figure.add_trace(go.Scatter(x=[p["depth"] for p in points], y=[p["tau"] for p in points],
                                        mode="lines+markers", name=f"{m}, {share}",
                                        marker={"symbol": symbols[number % len(symbols)], "size": 8},
                                        line={"dash": dashes.get(i, "dashdot")}))
    figure.update_layout(xaxis={"title": "pool depth k", "type": "log"},
                         yaxis={"title": "Kendall's τ", "range": [0, 1.02]}, height=360,
                         margin={"l": 50, "r": 10, "t": 10, "b": 40}, legend={"orientation": "h", "y": -0.25})
    return figure
