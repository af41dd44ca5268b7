"""The builder's downloads: the exercise file, a link to the practice page, course files, a batch of variants.

Everything is made from the last valid exercise (the page says so when the draft has
problems). Course files are built when their button is clicked and cached per exercise and seed,
with a bound on entries and age (:data:`EXPORT_CACHE_ENTRIES`, :data:`EXPORT_CACHE_SECONDS`),
and the seed of every variant is shown and part of every file name.
"""

from __future__ import annotations

import hashlib

import streamlit as st

from irlab.errors import ValidationError
from irlab.exercises import Exercise, dump_exercise, make_variant, parse_exercise
from irlab.exercises.builder.drafts import file_stem
from irlab.exercises.builder.sharing import (
    EXPORTS,
    MAX_BATCH,
    PRACTICE_PAGE,
    export_name,
    practice_path,
    variant_bundle,
    variant_seeds,
)
from irlab.exercises.exports.text import count_noun
from irlab.ui.exercises.state import Builder
from irlab.ui.kit.markdown import escape_markdown

BATCH = "irlab.builder.batch"
KEY = "irlab.builder.w."


def app_url(path: str, here: str) -> str:
    """``path`` (e.g. ``practise?exercise=...``) as a full URL beside the current page ``here``.

    >>> app_url("practise?x=1", "http://h:8501/build"), app_url("practise?x=1", "https://h/course/build")
    ('http://h:8501/practise?x=1', 'https://h/course/practise?x=1')
    >>> app_url("practise?x=1", "")
    'practise?x=1'
    """
    if not here:
        return path
    return here.rsplit("/", 1)[0] + "/" + path


def exercise_file(exercise: Exercise, *, valid: bool) -> None:
    """Download the exercise as JSON (always the last valid version)."""
    stem = file_stem(exercise.title)
    st.download_button("Download the exercise (JSON)", data=dump_exercise(exercise), file_name=f"{stem}.json",
                       mime="application/json", icon=":material/download:", key=KEY + "json", type="primary")
    what = "the exercise as it is now" if valid else "the last valid version (the draft has problems)"
    questions = count_noun(len(exercise.questions), "question")
    st.caption(f"Downloads {what}: \u201c{escape_markdown(exercise.title)}\u201d, {questions}, "
               f"as {escape_markdown(stem)}.json. Load it back here later, or give it to students.")


def share_link(exercise: Exercise) -> None:
    """A link that opens the exercise on the practice page, optionally as a seeded variant."""
    seed = st.number_input("Variant seed for the link (blank: the exercise as written)", min_value=0, step=1,
                           value=None, placeholder="as written", key=KEY + "link_seed",
                           help="Give each student a different seed: same questions, differently ordered rankings.")
    try:
        url = app_url(practice_path(exercise, seed), st.context.url or "")
    except ValidationError as error:
        st.warning(f"No link: {escape_markdown(error)}. Students can load the JSON file on the practice page.",
                   icon=":material/link_off:")
        return
    st.code(url, language=None)
    shown = f"variant seed {seed}" if seed is not None else "the exercise as written"
    st.caption(f"Copy it with the copy button at the top right of the box (it shows when you point at or tab to "
               f"the box), or select the text. It opens {shown} on the practice page "
               f"({PRACTICE_PAGE}); the whole exercise is inside the link, nothing is stored on a server.")
    st.link_button("Open it on the practice page", url, icon=":material/open_in_new:")


EXPORT_CACHE_ENTRIES = 16
"""Exports kept in the server's memory (an answer key of the largest exercise is a few MB)."""
EXPORT_CACHE_SECONDS = 15 * 60
"""How long an export stays cached after it was built."""


@st.cache_data(max_entries=EXPORT_CACHE_ENTRIES, ttl=EXPORT_CACHE_SECONDS, show_spinner=False)
def export_text(exercise_json: str, export_key: str) -> str:
    """One export of an exercise (given as its canonical JSON, so the cache can key on it).

    Built only when its download button is clicked, and cached with a bound on entries and age:
    every export built on every run, cached without bound, kept an upload's exports in the server's
    memory for good.
    """
    export = next(e for e in EXPORTS if e.key == export_key)
    return export.make(parse_exercise(exercise_json))


def course_files(exercise: Exercise) -> None:
    """Notebooks, worksheet and answer keys of the exercise or of one seeded variant."""
    seed = st.number_input("Variant seed for these files (blank: the exercise as written)", min_value=0, step=1,
                           value=None, placeholder="as written", key=KEY + "file_seed")
    target = dump_exercise(make_variant(exercise, seed) if seed is not None else exercise)
    stem = file_stem(exercise.title)
    if seed is not None:
        st.caption(f"Files of variant seed {seed}: the same questions, with the rankings reordered for this seed. "
                   "The seed is in each file and its name.")
    columns = st.columns(2)
    for index, export in enumerate(EXPORTS):
        columns[index % 2].download_button(
            export.label, data=lambda key=export.key: export_text(target, key),
            file_name=export_name(stem, export, seed),
            mime=export.mime, help=export.help, icon=":material/download:", key=KEY + export.key, width="stretch",
            on_click="ignore")


def _fingerprint(exercise: Exercise, seeds: range) -> str:
    return hashlib.sha256(f"{dump_exercise(exercise)}{seeds}".encode()).hexdigest()


def variants(exercise: Exercise) -> None:
    """A zip of N seeded variants (student and solution notebooks, one CSV answer key), with progress."""
    left, right = st.columns(2)
    count = left.number_input("How many variants", min_value=1, max_value=MAX_BATCH, step=1, value=30,
                              key=KEY + "count")
    first = right.number_input("First seed", min_value=0, step=1, value=1, key=KEY + "first_seed")
    seeds = variant_seeds(int(first), int(count))
    fingerprint = _fingerprint(exercise, seeds)
    stem = file_stem(exercise.title)
    if st.button(f"Build {len(seeds)} variants (seeds {seeds[0]} to {seeds[-1]})", icon=":material/build:",
                 key=KEY + "build"):
        bar = st.progress(0.0, text="Building the variants ...")

        def progress(done: int, total: int, seed: int) -> None:
            bar.progress(done / total, text=f"Variant {done} of {total} (seed {seed})")

        data = variant_bundle(exercise, stem, seeds, progress)
        bar.progress(1.0, text=f"Built {len(seeds)} variants.")
        st.session_state[BATCH] = (fingerprint, data, f"{stem}-seeds-{seeds[0]}-{seeds[-1]}.zip")
    batch = st.session_state.get(BATCH)
    if batch and batch[0] == fingerprint:
        st.download_button(f"Download the {len(seeds)} variants (zip)", data=batch[1], file_name=batch[2],
                           mime="application/zip", icon=":material/folder_zip:", key=KEY + "zip", type="primary")
        st.caption("The zip holds students/ (one notebook per seed), solutions/ and one CSV answer key with a "
                   "seed column. Give each student the link with their seed to practise the same variant.")


def share_tab(state: Builder) -> None:
    """The builder's sharing and exports: the JSON file, a practice link, course files, variants."""
    exercise = state.valid
    st.subheader("The exercise file")
    exercise_file(exercise, valid=state.is_valid)
    st.subheader("Share a link")
    share_link(exercise)
    st.subheader("Files for your course")
    course_files(exercise)
    st.subheader("One variant per student")
    variants(exercise)
