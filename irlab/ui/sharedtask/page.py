"""The shared task page, /task: create a task, run it (the lecturer's link), or take part (a student's link).

Links: ``/task`` (create one), ``/task?task=CODE&key=KEY`` (the lecturer, shown once at creation),
``/task?task=CODE&student=TOKEN`` (a student's personal link; on a class task the page makes it when the
student joins with the class's code). The link's secret is kept in the session too, so a trip through the
sidebar keeps it; every call checks it again in the store (:mod:`irlab.sharedtask.store`), which enforces
every limit and decides what may be shown (:mod:`irlab.sharedtask.disclosure`). Names, file names and run
ids are the users' text: tables and escaped Markdown only.

A student's page and the lecturer's ask the store every :data:`POLL_SECONDS` whether the task changed (one
indexed row) and redraw only then: a classmate's submission moves the leaderboard and the lecturer's counts.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from urllib.parse import urlsplit

import streamlit as st
from sqlalchemy.exc import SQLAlchemyError
from streamlit.runtime.scriptrunner import get_script_run_ctx

from irlab.classroom import ClassStore
from irlab.classroom.refusals import AccessDenied, ClassNotFound, RateLimited
from irlab.classroom.tokens import normalise_code
from irlab.errors import ValidationError
from irlab.runs.pooling_lab import PoolingLab
from irlab.runs.texts import read_texts
from irlab.sharedtask.definition import DEFAULT_MEASURES, MAX_SUBMISSIONS
from irlab.sharedtask.disclosure import RELEASES, probe_bits
from irlab.sharedtask.records import TaskView
from irlab.sharedtask.store import TaskStore
from irlab.sharedtask.tables import board_rows, per_topic_rows, submission_rows, time_left, when
from irlab.ui.kit.markdown import escape_markdown
from irlab.ui.shell.client import client_address

KEY = "irl-task-"
HELD = "irlab.task.who"
POLL_SECONDS = 10.0
BROWSER_UPLOAD_MB = 100
"""The largest file a browser sends: the proxy's limit (deploy/nginx_conf.py's MAX_UPLOAD_MB; tests/sharedtask
checks). A task may take larger runs unpacked: a .gz, or the command line's route, carries them."""
UNREACHABLE = "The task store did not answer; try again in a moment."
MEASURE_CHOICES = ("AP", "nDCG@10", "P@10", "RR", "nDCG", "P@5", "R@100", "Bpref", "infAP", "Rprec", "nDCG@20",
                   "Success@10")


def session_id() -> str | None:
    """This browser session's id (the creation limit counts per session and per address)."""
    context = get_script_run_ctx(suppress_warning=True)
    return context.session_id if context is not None else None


def page() -> None:
    """The whole page."""
    st.title("Shared task")
    code, secret, role = _who()
    try:
        if role == "lecturer":
            _lecturer(code, secret)
        elif role == "student":
            _student(code, secret)
        elif code:
            _enter(code)
        else:
            _create()
    except SQLAlchemyError:
        st.error(UNREACHABLE, icon=":material/database:")


def _who() -> tuple[str, str, str | None]:
    """The task's code and the secret from the link (else the session), and whose it is."""
    params = st.query_params
    code = params.get("task", "")[:20]
    for role, name in (("lecturer", "key"), ("student", "student")):
        secret = params.get(name, "")
        if code and secret and len(secret) <= 200:
            st.session_state[HELD] = (code, secret, role)
            return code, secret, role
    held = st.session_state.get(HELD)
    if held and (not code or code == held[0]):
        st.query_params.from_dict({"task": held[0], "key" if held[2] == "lecturer" else "student": held[1]})
        return held
    return code, "", None


def _keep(code: str, secret: str, role: str) -> None:
    st.session_state[HELD] = (code, secret, role)
    st.query_params.from_dict({"task": code, "key" if role == "lecturer" else "student": secret})


def _forget() -> None:
    st.session_state.pop(HELD, None)
    st.query_params.clear()


# --- creating --------------------------------------------------------------------------------------------------------

def _create() -> None:
    st.markdown("TREC in miniature: the class submits runs for the same topics, scored at once on **qrels the "
                "students never see**; the leaderboard shows each student's best run with its interval and whether "
                "it beats the baseline. Per-topic scores and the qrels appear only after the deadline, and only what "
                "you release. Students take part from a personal link (a roster) or with their seat in your live "
                "class, in the browser or from the command line (`python -m irlab task submit`).")
    created = st.session_state.get(KEY + "created")
    if created:
        _show_created(*created)
        return
    with st.form(KEY + "create"):
        st.subheader("Create a task")
        title = st.text_input("Title", max_chars=120, placeholder="Mini TREC: cats in boxes")
        qrels = st.file_uploader("Hidden qrels (never shown to students before you release them)",
                                 key=KEY + "qrels", max_upload_size=BROWSER_UPLOAD_MB)
        baseline = st.file_uploader("Baseline run (optional: every student is compared with it)",
                                    key=KEY + "baseline", max_upload_size=BROWSER_UPLOAD_MB)
        measures = st.multiselect("Measures (the first ranks the leaderboard)", MEASURE_CHOICES,
                                  default=list(DEFAULT_MEASURES), key=KEY + "measures")
        cols = st.columns(3)
        day = cols[0].date_input("Deadline (UTC)", value=date.today() + timedelta(days=14), key=KEY + "day")
        hour = cols[1].time_input("at (UTC)", value=time(23, 59), key=KEY + "hour")
        runs = cols[2].number_input("Runs per student", 1, MAX_SUBMISSIONS, 3, key=KEY + "runs")
        show = st.radio("Before the deadline, students see", ["the first measure only", "every measure"],
                        horizontal=True, key=KEY + "show")
        who = st.radio("Who takes part", ["a roster: one personal link per student", "the students of my live class"],
                       key=KEY + "who")
        roster = st.text_area("Roster: one student per line (only you see these names)", key=KEY + "roster",
                              height=120)
        class_code = st.text_input("Live class: its join code", key=KEY + "class-code", max_chars=20)
        class_key = st.text_input("and its lecturer key (from your class link)", key=KEY + "class-key",
                                  type="password", max_chars=200)
        seen = 1 if show.startswith("the first") else max(1, len(measures))
        st.caption(f"Each scored run tells a student a little about the qrels: with these settings at most about "
                   f"{probe_bits(submissions=int(runs), measures=seen):,.0f} "
                   "bits each before the deadline (docs: irlab/sharedtask/disclosure.py).")
        sent = st.form_submit_button("Create the task", type="primary", icon=":material/add_task:")
    if not sent:
        return
    if qrels is None:
        st.error("Upload the hidden qrels first.", icon=":material/error:")
        return
    settings = {"title": title, "measures": measures, "max_submissions": int(runs),
                "deadline": datetime.combine(day, hour, tzinfo=UTC).timestamp(),
                "visible_before": "primary" if show.startswith("the first") else "all"}
    if who.startswith("a roster"):
        settings["roster"] = [line.strip() for line in roster.splitlines() if line.strip()]
    else:
        settings |= {"enrolment": "class", "class_code": class_code}
    try:
        new = TaskStore().create(settings, qrels.getvalue(), qrels.name,
                                 baseline=baseline.getvalue() if baseline else None,
                                 baseline_name=baseline.name if baseline else "baseline",
                                 class_key=class_key or None, session=session_id(), address=client_address())
    except ValidationError as error:
        st.error(escape_markdown(error), icon=":material/error:")
        return
    st.session_state[KEY + "created"] = (new.code, new.key, new.tokens)
    st.rerun()


def _origin() -> str:
    """The app's address as this browser sees it (scheme, host, port, base path), "" when unknown (AppTest)."""
    parts = urlsplit(st.context.url or "")
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return ""
    base = (st.get_option("server.baseUrlPath") or "").strip("/")
    return f"{parts.scheme}://{parts.netloc}" + (f"/{base}" if base else "")


def _show_created(code: str, key: str, tokens: dict[str, str]) -> None:
    st.success(f"Task {code} created.", icon=":material/task_alt:")
    origin = _origin()
    st.markdown("**Your lecturer link** (keep it secret: whoever has it runs the task; it is shown only now):")
    st.code(f"{origin}/task?task={code}&key={key}", language=None)
    if tokens:
        st.markdown(f"**{len(tokens)} personal links**: send each student only their own.")
        rows = [{"name": name, "link": f"{origin}/task?task={code}&student={token}"} for name, token in tokens.items()]
        st.dataframe(rows, hide_index=True, width="stretch")
        text = "name,link\n" + "".join(f"{_csv(r['name'])},{r['link']}\n" for r in rows)
        st.download_button("Download the links (CSV)", text, file_name=f"task-{code}-links.csv", mime="text/csv",
                           key=KEY + "links", icon=":material/download:")
    else:
        st.markdown(f"Students of your class open **{escape_markdown(origin)}/task?task={code}** and join with the "
                    "class's code.")
    if st.button("Open the task", type="primary", key=KEY + "open", icon=":material/arrow_forward:"):
        st.session_state.pop(KEY + "created", None)
        _keep(code, key, "lecturer")
        st.rerun()


def _csv(text: str) -> str:
    safe = "'" + text if text[:1] in "=+-@" else text
    return '"' + safe.replace('"', '""') + '"'


# --- a class's student entering ---------------------------------------------------------------------------------------

def _enter(code: str) -> None:
    """A link with a task code only: a class task's student joins with the class's code."""
    st.markdown("Open the task with your **personal link** from your lecturer. For a task of a live class, join with "
                "the class's code:")
    with st.form(KEY + "enter"):
        class_code = st.text_input("Class code", max_chars=20, key=KEY + "enter-code")
        nickname = st.text_input("Nickname on the leaderboard (optional)", max_chars=40, key=KEY + "enter-name")
        sent = st.form_submit_button("Join the task", type="primary")
    if not sent:
        return
    try:
        normalised = normalise_code(class_code)
        classes = ClassStore()
        seat = classes.join(normalised, nickname=nickname or None, session=session_id(), address=client_address())
        TaskStore().enrol(code, normalised, seat.token, nickname or None)
    except (ValidationError, RateLimited) as error:
        st.error(escape_markdown(error), icon=":material/error:")
        return
    _keep(code, seat.token, "student")
    st.rerun()


# --- the student ------------------------------------------------------------------------------------------------

def _student(code: str, token: str) -> None:
    try:
        seat = TaskStore().seat(code, token)
    except (AccessDenied, ClassNotFound) as error:
        _forget()
        st.warning(escape_markdown(error), icon=":material/key_off:")
        return
    view = seat.view()
    _heading(view)
    if view.open:
        _submit_form(seat, view)
    receipt = st.session_state.pop(KEY + "receipt", None)
    if receipt:
        kind, text = receipt
        (st.success if kind == "ok" else st.error)(escape_markdown(text), icon=":material/info:")
    if view.submissions:
        st.subheader("Your runs")
        st.dataframe(submission_rows(view.submissions, view.shown_measures), hide_index=True, width="stretch",
                     key=KEY + "mine")
        latest = view.submissions[-1]
        problems = [f for f in latest.findings if not f.ok]
        if problems:
            with st.expander(f"The run doctor on submission {latest.number}: {len(problems)} finding(s)",
                             expanded=True):
                for finding in problems:
                    st.markdown("- " + escape_markdown(finding.line()))
    if not view.open:
        _judge_share(seat, view)
    _board(view)
    _released(seat, view)
    _poll(code, view.version)


def _judge_share(seat, view: TaskView) -> None:
    """After the deadline, when the lecturer opened the pool: this student's share, one document at a time."""
    mine = seat.pool_share()
    if mine is None or not mine.items:
        return
    st.subheader("Judge your share of the class's pool")
    st.progress(mine.done / len(mine.items), text=f"{mine.done} of {len(mine.items)} documents judged")
    item = mine.next_item()
    if item is None:
        st.success("You have judged your whole share. Thank you!", icon=":material/task_alt:")
        return
    topic, doc = item
    with st.container(border=True, key=KEY + "card"):
        st.markdown(f"**Topic {escape_markdown(topic)}**")
        st.text(view.topic_texts.get(topic) or "(the lecturer gave no text for this topic)")
        st.markdown(f"**Document {escape_markdown(doc)}**")
        st.text(mine.texts.get(doc) or "(the lecturer gave no text for this document)")
    names = {0: "not relevant", 1: "relevant", 2: "highly relevant", 3: "perfect"}
    cols = st.columns(4)
    for col, grade in zip(cols, names):
        col.button(f"{grade} · {names[grade]}", key=f"{KEY}judge-{grade}", width="stretch", on_click=_judge,
                   args=(seat, item, grade), type="primary" if grade else "secondary")
    st.caption("Each document goes to several classmates, so the class's agreement can be measured; judge what you "
               "read, not what the runs seem to think.")


def _judge(seat, item, grade: int) -> None:
    try:
        seat.judge(item, grade)
    except ValidationError as error:
        st.session_state[KEY + "receipt"] = ("error", str(error))


def _heading(view: TaskView) -> None:
    st.subheader(escape_markdown(view.title))
    state = time_left(view.deadline, view.now)
    who = f" · you are **{escape_markdown(view.me)}**" if view.me else ""
    st.markdown(f"Task **{escape_markdown(view.code)}** · deadline {when(view.deadline)} UTC ({state}) · "
                f"{len(view.topics)} topics{who}")
    if not view.lecturer:
        shown = ", ".join(view.shown_measures)
        left = (f"{view.submissions_left} of {view.max_submissions} submissions left" if view.open
                else "the task is closed")
        st.caption(f"You see {escape_markdown(shown)} (mean over the topics, trec_eval -c) for your runs and on the "
                   f"leaderboard; {left}. Per-topic scores and the qrels come only after the deadline, if the "
                   "lecturer releases them.")


def _submit_form(seat, view: TaskView) -> None:
    if view.submissions_left <= 0:
        st.info(f"You have used all {view.max_submissions} submissions.", icon=":material/block:")
        return
    with st.form(KEY + "submit", clear_on_submit=True):
        larger = view.max_run_mb > BROWSER_UPLOAD_MB
        run = st.file_uploader(
            f"Your run (TREC format, up to {min(view.max_run_mb, BROWSER_UPLOAD_MB)} MB, .gz accepted)",
            key=KEY + "run", max_upload_size=min(view.max_run_mb, BROWSER_UPLOAD_MB),
            help=(f"The task takes runs of up to {view.max_run_mb} MB unpacked; a browser sends at most "
                  f"{BROWSER_UPLOAD_MB} MB, so gzip a larger run (the server unpacks it) or submit it with "
                  "`python -m irlab task submit`.") if larger else None)
        sent = st.form_submit_button("Submit the run", type="primary", icon=":material/upload:", width="stretch")
    if not sent:
        return
    if run is None:
        st.session_state[KEY + "receipt"] = ("error", "Choose a run file first.")
        st.rerun()
    try:
        with st.spinner("Checking and scoring your run…"):
            done = seat.submit(run.getvalue(), run.name)
    except (ValidationError, RateLimited) as error:
        st.session_state[KEY + "receipt"] = ("error", str(error))
    else:
        scores = ", ".join(f"{m} {v:.4f}" for m, v in done.means.items())
        st.session_state[KEY + "receipt"] = ("ok", f"Submission {done.number} scored: {scores}.")
    st.rerun()


def _board(view: TaskView) -> None:
    st.subheader("Leaderboard")
    if not view.board:
        st.info("No run is scored yet.", icon=":material/hourglass_top:")
        return
    rows = board_rows(view.board, view.shown_measures, p_values=view.lecturer)
    # the lecturer's: wide enough for "= no difference (p 0.1234)" and "0.1234 [0.1234, 0.1234]", four measures fit a
    # projector; a student's (one measure, often on a phone) is sized by its cells
    widths = {column: 165 if column.endswith(" vs baseline") else 150 for column in rows[0]
              if view.lecturer and ("[" in column or column.endswith(" vs baseline"))}
    st.dataframe(rows, hide_index=True, width="stretch", key=KEY + "board",
                 column_config={column: st.column_config.TextColumn(width=px) for column, px in widths.items()})
    st.caption(f"Each student's best run by {escape_markdown(view.measures[0])}; the interval is a 95% bootstrap "
               f"interval over the topics; ▲/▼: significantly better/worse than the baseline ({view.test}-test, "
               "Holm's correction over the class), =: no difference the test can tell from chance"
               + ("; p: the Holm-adjusted p-value." if view.lecturer else "."))


def _released(seat, view: TaskView) -> None:
    if not view.released:
        return
    st.subheader("Released after the deadline")
    if "per_topic" in view.released:
        for sub in view.submissions:
            with st.expander(f"Submission {sub.number}: per topic"):
                st.dataframe(per_topic_rows(sub, view.topics), hide_index=True, width="stretch")
    if "qrels" in view.released:
        st.download_button("Download the qrels", seat.qrels(), file_name=f"task-{view.code}.qrels",
                           mime="text/plain", key=KEY + "qrels-out", icon=":material/download:")


def _poll(code: str, shown: int) -> None:
    @st.fragment(run_every=POLL_SECONDS)
    def poll() -> None:
        try:
            version = TaskStore().version(code)
        except (SQLAlchemyError, ValidationError):
            return
        if version != shown:
            st.rerun(scope="app")

    poll()


# --- the lecturer ---------------------------------------------------------------------------------------------

def _lecturer(code: str, key: str) -> None:
    try:
        desk = TaskStore().desk(code, key)
    except (AccessDenied, ClassNotFound) as error:
        _forget()
        st.error(escape_markdown(error), icon=":material/key_off:")
        return
    view = desk.view()
    _heading(view)
    students = sum(1 for p in view.participants if p[2] != "baseline")
    cols = st.columns(3)
    cols[0].metric("Students", f"{students:,}")
    cols[1].metric("Who submitted", f"{sum(1 for p in view.participants if p[3] and p[2] != 'baseline'):,}")
    cols[2].metric("Runs scored", f"{sum(1 for s in view.submissions if s.state == 'scored'):,}")
    board, runs, people, release = st.tabs(["Leaderboard", "Every run", "Students", "Deadline and release"])
    with board:
        _board(view)
    with runs:
        names = {number: shown for number, shown, _, _ in view.participants}
        st.dataframe(submission_rows(view.submissions, view.measures, who=names), hide_index=True, width="stretch")
        st.download_button("Export every run's scores (CSV)", desk.export_csv(), file_name=f"task-{code}.csv",
                           mime="text/csv", key=KEY + "export", icon=":material/download:")
    with people:
        st.dataframe([{"#": str(n), "shown as": shown, "roster name": label or "", "runs scored": str(count)}
                      for n, shown, label, count in view.participants], hide_index=True, width="stretch")
    with release:
        _release(desk, view)
    st.link_button("Pool the class's best runs in the Pooling lab", f"/pooling?task={code}&key={key}",
                   icon=":material/filter_alt:")  # the key stays in the link, never shown as text
    _poll(code, view.version)  # a student's submission shows on the lecturer's page too, without a reload


def _release(desk, view: TaskView) -> None:
    if view.open:
        st.markdown(f"Open until {when(view.deadline)} UTC ({time_left(view.deadline, view.now)}). Nothing can be "
                    "released before the deadline.")
        if st.button("End the task now", key=KEY + "end", icon=":material/stop_circle:"):
            desk.set_deadline(view.now)
            st.rerun()
        return
    st.markdown("The deadline has passed. Release what students may now see:")
    for name, words in RELEASES.items():
        done = name in view.released
        if st.button(f"{'Released' if done else 'Release'}: {words}", key=f"{KEY}release-{name}", disabled=done,
                     icon=":material/lock_open:"):
            desk.release([name])
            st.rerun()
    _pool_judging(desk)


def _pool_judging(desk) -> None:
    """Let the class judge the pool of the best runs: depth, judges per document, the documents' texts; agreement."""
    st.markdown("**The class judges the pool.** The best runs' top *k* documents per topic are dealt out to the "
                "students, each document to several of them; their agreement is measured, and the Pooling lab shows "
                "how the ranking moves with their judgments.")
    settings = desk.pool_settings()
    cols = st.columns(2)  # an open pool's own settings, so the boxes never say another depth than the pool has
    depth = cols[0].number_input("Pool depth k", 1, 100, settings[0] if settings else 10, key=KEY + "pool-depth")
    overlap = cols[1].number_input("Students per document", 1, 5, settings[1] if settings else 2,
                                   key=KEY + "pool-overlap")
    docs = st.file_uploader("Documents' texts (optional: id, a tab, the text per line; or JSON lines)",
                            key=KEY + "pool-docs", max_upload_size=BROWSER_UPLOAD_MB)
    if st.button("Open the pool for judging", key=KEY + "pool-open", icon=":material/how_to_vote:"):
        try:
            texts = read_texts(docs.getvalue(), docs.name) if docs is not None else None
            size = desk.open_pool(int(depth), int(overlap), texts)
        except ValidationError as error:
            st.error(escape_markdown(error), icon=":material/error:")
        else:
            # drawn by the next run, which reads the task as opened (this run's view is older: the poll would
            # redraw the page at once and lose the note)
            st.session_state[KEY + "pool-note"] = (f"The pool holds {size:,} documents; each student now sees "
                                                   "their share.")
            st.rerun()
    if note := st.session_state.pop(KEY + "pool-note", None):
        st.success(note, icon=":material/task_alt:")
    if settings is None:
        return
    judged = desk.class_judgments()
    lab = PoolingLab({}).with_judges(judged)
    st.caption(f"Open: depth {settings[0]}, {settings[1]} students per document; "
               f"{sum(len(g) for g in judged.values()):,} judgments so far.")
    if judged:
        st.markdown(escape_markdown(lab.agreement_summary()))
        st.dataframe(lab.agreement_rows(), hide_index=True, width="stretch")
