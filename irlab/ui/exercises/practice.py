"""The practice page's state and widgets: opening an exercise, answering its questions, feedback, the score.

State (namespaced keys in ``st.session_state``): the opened exercise (:class:`irlab.exercises.builder.sharing.Opened`),
read from the URL on the session's first run and mirrored back into it, and the student's
attempts per exercise (keyed by :func:`irlab.exercises.format.exercise_file.fingerprint`, so answers survive switching
questions and even switching exercises). Checking is irlab's :func:`~irlab.exercises.check_answer`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import streamlit as st

from irlab.errors import ValidationError
from irlab.exercises import (
    BUILTIN_NAMES,
    MAX_FILE_BYTES,
    Exercise,
    Feedback,
    check_answer,
    describe_question,
    explain_question,
    parse_exercise,
)
from irlab.exercises.builder.drafts import file_stem
from irlab.exercises.builder.sharing import Opened, open_link, open_practice, opened_file, opened_params, with_seed
from irlab.exercises.exports.text import count_noun
from irlab.exercises.format.exercise_file import fingerprint
from irlab.exercises.grading.grader import answers_file
from irlab.explain.formula import format_number
from irlab.ui.exercises import view
from irlab.ui.kit.markdown import escape_markdown
from irlab.ui.shell.budgets import forget_upload

OPENED = "irlab.practice.opened"
ATTEMPTS = "irlab.practice.attempts"
CURRENT = "irlab.practice.current"
NOTICES = "irlab.practice.notices"
W = "irlab.practice.w."
BUILTIN_LABELS = {"cats-in-boxes": "Cats in boxes (the walkthrough)", "ndcg-exercise": "NDCG exercise (the sources)"}


@dataclass(frozen=True)
class Attempt:
    """A student's work on one question: the last answer typed, its feedback, whether the solution was shown."""

    text: str = ""
    feedback: Feedback | None = None
    shown: bool = False
    solved: bool = False  # answered correctly before the solution was shown

    @property
    def status(self) -> str:
        if self.feedback is not None and self.feedback.correct:
            return "correct" if self.solved else "correct after the solution"
        if self.shown:
            return "solution shown"
        return "not correct yet" if self.feedback is not None else "not answered"


def opened() -> Opened:
    """The exercise on the page (read from the link on the session's first run)."""
    if OPENED not in st.session_state:
        result = open_practice(st.query_params.to_dict())
        st.session_state[OPENED] = replace(result, notices=())
        st.session_state[NOTICES] = list(result.notices)
    return st.session_state[OPENED]


def _open(result: Opened, notice: str | None = None) -> None:
    st.session_state[OPENED] = result
    st.session_state[W + "seed"] = result.seed
    if notice:
        st.session_state.setdefault(NOTICES, []).append(notice)


def take_notices() -> list[str]:
    """Notices to show once (a damaged link, a refused file, ...)."""
    return st.session_state.pop(NOTICES, None) or []


def sync_url(current: Opened) -> None:
    """Mirror the opened exercise into the URL, so a reload or a copied address reopens it."""
    params = opened_params(current)
    if st.query_params.to_dict() != params:
        st.query_params.from_dict(params)


def _on_builtin() -> None:
    _open(open_practice({"builtin": st.session_state[W + "builtin"]}))


def _on_link() -> None:
    text = st.session_state.get(W + "link") or ""
    if not text.strip():
        return
    try:
        result = open_link(text)
    except ValidationError as error:
        st.session_state.setdefault(NOTICES, []).append(f"That link could not be opened: {error}. "
                                                        "The exercise on the page is unchanged.")
        return
    st.session_state.setdefault(NOTICES, []).extend(result.notices)
    _open(replace(result, notices=()), f"Opened “{result.exercise.title}” from the link.")


def _on_upload() -> None:
    uploaded = st.session_state.get(W + "upload")
    if uploaded is None:
        return
    if uploaded.size > MAX_FILE_BYTES:  # checked here, on the server: the uploader's limit is the browser's
        forget_upload(uploaded)
        st.session_state.setdefault(NOTICES, []).append(
            f"Could not open {uploaded.name}: the file is {uploaded.size:,} bytes; an exercise file is at most "
            f"{MAX_FILE_BYTES:,} bytes. The exercise on the page is unchanged.")
        return
    try:
        exercise = parse_exercise(uploaded.getvalue())
    except ValidationError as error:
        st.session_state.setdefault(NOTICES, []).append(
            f"Could not open {uploaded.name}: {error}. The exercise on the page is unchanged.")
        return
    _open(opened_file(exercise), f"Opened \u201c{exercise.title}\u201d from {uploaded.name}.")


def _on_seed() -> None:
    _open(with_seed(st.session_state[OPENED], st.session_state[W + "seed"]))


def chooser(current: Opened) -> None:
    """Sidebar: open a built-in exercise, a file or a link, and choose the variant (seed)."""
    with st.sidebar:
        st.subheader("Exercise")
        st.session_state[W + "builtin"] = current.builtin if current.builtin in BUILTIN_NAMES else None
        st.selectbox("Built-in exercise", BUILTIN_NAMES, key=W + "builtin", format_func=BUILTIN_LABELS.get,
                     on_change=_on_builtin, index=None, placeholder="Choose an example")
        st.file_uploader("Or open an exercise file (.json)", type=["json"], key=W + "upload", on_change=_on_upload,
                         max_upload_size=1)
        st.text_input("Or paste a link from your lecturer", key=W + "link", on_change=_on_link,
                      placeholder="https://.../practise?exercise=ex1....")
        st.session_state.setdefault(W + "seed", current.seed)
        st.number_input("Variant (seed)", min_value=0, step=1, value=None, key=W + "seed", on_change=_on_seed,
                        placeholder="as written", help="Your lecturer may give you a seed: the same questions with "
                                                       "differently ordered rankings.")


def header(current: Opened) -> None:
    """Title, where it came from, the seed, and the instructions as text."""
    exercise = current.exercise
    st.header(escape_markdown(exercise.title), anchor=False)
    source = {"link": "from a link", "builtin": "a built-in example", "file": "from a file"}[current.source]
    variant = f"variant seed {current.seed}" if current.seed is not None else "the exercise as written (no seed)"
    st.caption(f"Opened {source} · {variant} · answers within {exercise.tolerance:g} count as correct")
    if exercise.instructions:
        with st.expander("Instructions", expanded=True, icon=":material/description:"):
            for paragraph in exercise.instructions.split("\n\n"):
                st.markdown(escape_markdown(paragraph))


def attempts(exercise: Exercise) -> dict[str, Attempt]:
    """The student's attempts on this exercise, by question id."""
    return st.session_state.setdefault(ATTEMPTS, {}).setdefault(fingerprint(exercise), {})


def score(exercise: Exercise) -> tuple[int, int, int]:
    """(answered correctly without the solution, answered correctly in all, questions)."""
    done = attempts(exercise).values()
    return (sum(a.solved for a in done), sum(a.status.startswith("correct") for a in done), len(exercise.questions))


def score_bar(exercise: Exercise) -> None:
    """The score as a progress bar with its text."""
    alone, anyhow, count = score(exercise)
    extra = f" ({anyhow} correct in all, some after seeing the solution)" if anyhow != alone else ""
    st.progress(alone / count, text=f"Score: {alone} of {count_noun(count, 'question')} answered correctly{extra}")


def download_answers(exercise: Exercise) -> None:
    """The student's typed answers as a file a lecturer grades with ``python -m irlab exercise grade``."""
    typed = {question_id: attempt.text for question_id, attempt in attempts(exercise).items() if attempt.text}
    stem = file_stem(exercise.title) + (f"-seed{exercise.seed}" if exercise.seed is not None else "")
    st.download_button("Download my answers", data=lambda: answers_file(exercise, typed),
                       file_name=f"{stem}-my-answers.json", mime="application/json", icon=":material/download:",
                       on_click="ignore", key=W + "answers", disabled=not typed,
                       help="Your answers with this exercise's fingerprint and variant seed: hand the file in if "
                            "your course collects answers. It is graded against your own variant.")


def current_question(exercise: Exercise) -> str:
    """The id of the question on screen (kept per exercise)."""
    chosen = st.session_state.setdefault(CURRENT, {})
    key = fingerprint(exercise)
    if chosen.get(key) not in [q.id for q in exercise.questions]:
        chosen[key] = exercise.questions[0].id
    return chosen[key]


def _go(exercise: Exercise, question_id: str) -> None:
    st.session_state[CURRENT][fingerprint(exercise)] = question_id


def navigator(exercise: Exercise) -> str:
    """Choose a question (with each one's status); Previous and Next. Returns the question id."""
    ids = [q.id for q in exercise.questions]
    current = current_question(exercise)
    done = attempts(exercise)
    key = W + "question." + fingerprint(exercise)
    st.session_state[key] = current
    labels = {q.id: f"{n}. {describe_question(exercise, q)} ({done.get(q.id, Attempt()).status})"
              for n, q in enumerate(exercise.questions, start=1)}
    left, middle, right = st.columns([6, 2, 2], vertical_alignment="bottom")
    left.selectbox(f"Question ({len(ids)} in all)", ids, key=key, format_func=labels.get,
                   on_change=lambda: _go(exercise, st.session_state[key]))
    position = ids.index(current)
    middle.button("Previous", disabled=position == 0, on_click=_go, args=(exercise, ids[max(position - 1, 0)]),
                  icon=":material/arrow_back:", width="stretch", key=W + "previous")
    right.button("Next", disabled=position == len(ids) - 1, on_click=_go,
                 args=(exercise, ids[min(position + 1, len(ids) - 1)]), icon=":material/arrow_forward:",
                 width="stretch", key=W + "next")
    return current


def _check(exercise: Exercise, question_id: str, key: str) -> None:
    text = st.session_state.get(key) or ""
    before = attempts(exercise).get(question_id, Attempt())
    feedback = check_answer(exercise, question_id, text)
    solved = before.solved or (feedback.correct and not before.shown)
    attempts(exercise)[question_id] = replace(before, text=text, feedback=feedback, solved=solved)


def _show(exercise: Exercise, question_id: str) -> None:
    before = attempts(exercise).get(question_id, Attempt())
    attempts(exercise)[question_id] = replace(before, shown=True)


def question(exercise: Exercise, question_id: str) -> None:
    """One question: its text, the data it is computed from, the answer box, the feedback and the solution."""
    item = exercise.question(question_id)
    attempt = attempts(exercise).get(question_id, Attempt())
    st.markdown(f"#### {escape_markdown(describe_question(exercise, item))}")
    st.caption(f"Exact measure name: {escape_markdown(item.measure)} · question id {escape_markdown(item.id)}")
    view.question_data(exercise, item)
    key = f"{W}answer.{fingerprint(exercise)}.{question_id}"
    if attempt.text and key not in st.session_state:
        st.session_state[key] = attempt.text  # back to a question: its last answer
    with st.form(f"{W}form.{fingerprint(exercise)}.{question_id}", border=False, enter_to_submit=True):
        left, right = st.columns([3, 1], vertical_alignment="bottom")
        left.text_input("Your answer", key=key, placeholder="a decimal, a fraction or a percentage",
                        help="A decimal (point or comma), a fraction such as 3/4, or a percentage such as 75%.")
        right.form_submit_button("Check", icon=":material/check:", on_click=_check, args=(exercise, question_id, key),
                                 type="primary", width="stretch")
    feedback(attempt.feedback, exercise)
    correct = attempt.feedback is not None and attempt.feedback.correct
    if not correct and not attempt.shown:
        st.button("Show the solution", on_click=_show, args=(exercise, question_id), icon=":material/visibility:",
                  key=f"{W}show.{question_id}")
    if correct or attempt.shown:
        st.markdown("##### The solution")
        view.breakdown(explain_question(exercise, item), exercise.labels(), per_query=item.is_mean)


def feedback(result: Feedback | None, exercise: Exercise) -> None:
    """The verdict in words with an icon (never colour alone); a matched mistake with its own breakdown."""
    if result is None:
        return
    if result.problem is not None:
        st.warning(escape_markdown(result.problem), icon=":material/help:")
        return
    answer, tolerance = format_number(result.answer), format_number(result.tolerance)
    if result.correct:
        st.success(f"**Correct.** {escape_markdown(answer)} is within {escape_markdown(tolerance)} of "
                   f"{escape_markdown(result.expected.display_value)}.", icon=":material/check_circle:")
        return
    st.error(f"**Not correct yet.** {escape_markdown(answer)} is off by more than {escape_markdown(tolerance)}. "
             "Check each step against the data above, or show the solution.", icon=":material/cancel:")
    if result.mistake is not None:
        mistake = result.mistake.mistake
        with st.container(border=True):
            st.markdown(f"**Known mistake: {escape_markdown(mistake.title)}** ({escape_markdown(mistake.name)})")
            st.markdown(escape_markdown(mistake.explanation))
            st.markdown(f"That computation gives **{escape_markdown(result.mistake.breakdown.display_value)}**, "
                        "which matches your answer:")
            view.breakdown(result.mistake.breakdown, exercise.labels())
