"""Sharing an exercise: practice-page links, the export files, and a batch of seeded variants.

The practice page opens an exercise from its URL: ``practise?exercise=TOKEN&seed=N`` (a link
token of :func:`irlab.exercises.format.links.exercise_to_link`, and optionally the seeded variant N) or
``practise?builtin=NAME&seed=N`` (a shipped example). :func:`open_practice` reads those
parameters and never raises: a damaged token or seed becomes a notice and the page falls back
to a built-in example or the exercise as written.

>>> from irlab.exercises import builtin_exercise
>>> ex = builtin_exercise("ndcg-exercise")
>>> path = practice_path(ex, seed=4)
>>> path.startswith("practise?exercise=ex1."), path.endswith("&seed=4")
(True, True)
>>> opened = open_practice({"exercise": path.split("=")[1].split("&")[0], "seed": "4"})
>>> opened.exercise.seed, opened.source, opened.notices
(4, 'link', ())
>>> open_practice({"exercise": "ex1.AAAA", "seed": "x"}).notices  # doctest: +NORMALIZE_WHITESPACE
("The exercise in the link could not be opened (this exercise link is damaged (it does not decompress);
  copy the whole link again). Showing the built-in example 'cats-in-boxes' instead.",
 "The seed in the link, 'x', is not a whole number of 0 or more; showing the exercise as written.")
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from urllib.parse import unquote, urlencode

from irlab.errors import ValidationError
from irlab.exercises.exports.csv_key import answer_key_csv
from irlab.exercises.exports.notebook import exercise_notebook, notebook_text
from irlab.exercises.exports.variants import make_variant
from irlab.exercises.exports.worksheet import answer_key_html, answer_key_markdown, worksheet_html, worksheet_markdown
from irlab.exercises.format.examples import BUILTIN_NAMES, builtin_exercise
from irlab.exercises.format.links import exercise_from_link, exercise_to_link
from irlab.exercises.model import Exercise

PRACTICE_PAGE = "practise"
"""The practice page's URL path."""

DEFAULT_BUILTIN = BUILTIN_NAMES[0]
MAX_SEED = 2**63 - 1
MAX_BATCH = 200
"""The most variants one batch builds."""


def practice_params(*, token: str | None = None, builtin: str | None = None, seed: int | None = None) -> dict[str, str]:
    """The practice page's URL parameters for a link token or a built-in example, and a seed.

    >>> practice_params(builtin="ndcg-exercise", seed=3)
    {'builtin': 'ndcg-exercise', 'seed': '3'}
    """
    params = {"exercise": token} if token else {"builtin": builtin} if builtin else {}
    return {**params, "seed": str(seed)} if seed is not None else params


def practice_path(exercise: Exercise, seed: int | None = None) -> str:
    """``practise?exercise=TOKEN[&seed=N]``; ValidationError when the exercise is too large for a link."""
    return f"{PRACTICE_PAGE}?{urlencode(practice_params(token=exercise_to_link(exercise), seed=seed))}"


def read_seed(text: object) -> int:
    """A seed typed or given in a link: a whole number from 0 to 2^63 - 1.

    >>> read_seed(" 12 "), read_seed(5)
    (12, 5)
    """
    value = text.strip() if isinstance(text, str) else text
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 19:
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_SEED:
        raise ValidationError(f"{str(text)[:40]!r} is not a whole number of 0 or more")
    return value


@dataclass(frozen=True)
class Opened:
    """What the practice page shows: the exercise (the variant when seeded), where it came from, notices.

    ``source`` is ``"link"``, ``"builtin"`` or ``"file"``; ``token`` or ``builtin`` says which;
    ``base`` is the exercise before the seed was applied.
    """

    exercise: Exercise
    base: Exercise
    source: str
    seed: int | None
    token: str | None = None
    builtin: str | None = None
    notices: tuple[str, ...] = ()


def open_practice(params: Mapping[str, str], default: str = DEFAULT_BUILTIN) -> Opened:
    """The exercise the practice page's URL parameters ask for (never raises on bad parameters)."""
    notices: list[str] = []
    token, builtin, base = params.get("exercise"), params.get("builtin"), None
    if token:
        try:
            base = exercise_from_link(token)
        except ValidationError as error:
            notices.append(f"The exercise in the link could not be opened ({error}). "
                           f"Showing the built-in example {default!r} instead.")
            token = None
    if base is None:
        if builtin and builtin not in BUILTIN_NAMES and not notices:
            notices.append(f"There is no built-in exercise called {builtin[:40]!r}; the built-in exercises are: "
                           f"{', '.join(BUILTIN_NAMES)}. Showing {default!r}.")
        builtin = builtin if builtin in BUILTIN_NAMES else default
        base = builtin_exercise(builtin)
    seed = None
    if params.get("seed") not in (None, ""):
        try:
            seed = read_seed(params["seed"])
        except ValidationError:
            notices.append(f"The seed in the link, {str(params['seed'])[:40]!r}, is not a whole number of 0 or more; "
                           "showing the exercise as written.")
    exercise = make_variant(base, seed) if seed is not None else base
    return Opened(exercise, base, "link" if token else "builtin", seed, token=token,
                  builtin=None if token else builtin, notices=tuple(notices))


_PARAM = re.compile(r"[?&#](exercise|seed)=([^&#\s]*)")


def open_link(text: str) -> Opened:
    """A pasted link (a whole URL with ``exercise=...`` and maybe ``seed=...``, or just the token).

    Unlike :func:`open_practice` it raises :class:`ValidationError` when the exercise cannot be
    opened (the page then keeps what it shows); a bad seed becomes a notice.

    >>> from irlab.exercises import builtin_exercise
    >>> url = "https://x.org/" + practice_path(builtin_exercise("ndcg-exercise"), seed=2)
    >>> opened = open_link(url)
    >>> opened.source, opened.seed, opened.base == builtin_exercise("ndcg-exercise")
    ('link', 2, True)
    >>> open_link("hello")
    Traceback (most recent call last):
    ...
    irlab.errors.ValidationError: this is not an exercise link: it should start with 'ex1.'
    """
    found = dict(match.groups() for match in _PARAM.finditer(text or ""))
    token = unquote(found.get("exercise", "")) or (text or "").strip()
    base = exercise_from_link(token)
    opened = open_practice({"exercise": token, "seed": found.get("seed", "")})
    return Opened(opened.exercise, base, "link", opened.seed, token=token, notices=opened.notices)


def with_seed(opened: Opened, seed: int | None) -> Opened:
    """The same exercise as another variant (None: as written).

    >>> opened = open_practice({"builtin": "ndcg-exercise"})
    >>> with_seed(opened, 3).exercise == make_variant(opened.base, 3), with_seed(opened, None).exercise == opened.base
    (True, True)
    """
    exercise = make_variant(opened.base, seed) if seed is not None else opened.base
    return Opened(exercise, opened.base, opened.source, seed, token=opened.token, builtin=opened.builtin)


def opened_file(exercise: Exercise) -> Opened:
    """An uploaded exercise, with its link token when it is small enough for a link."""
    try:
        token = exercise_to_link(exercise)
    except ValidationError:
        token = None
    return Opened(exercise, exercise, "file", None, token=token)


def opened_params(opened: Opened) -> dict[str, str]:
    """The URL parameters that reopen ``opened`` (empty for a file too large for a link).

    >>> opened_params(open_practice({"builtin": "ndcg-exercise", "seed": "2"}))
    {'builtin': 'ndcg-exercise', 'seed': '2'}
    """
    if opened.token is None and opened.builtin is None:
        return {}
    return practice_params(token=opened.token, builtin=opened.builtin, seed=opened.seed)


@dataclass(frozen=True)
class Export:
    """A file the builder offers: its label, file-name suffix, media type and how it is made."""

    key: str
    label: str
    suffix: str
    mime: str
    make: Callable[[Exercise], str]
    help: str


EXPORTS: tuple[Export, ...] = (
    Export("notebook", "Student notebook", ".ipynb", "application/x-ipynb+json",
           lambda ex: notebook_text(exercise_notebook(ex)),
           "Jupyter notebook: a function to write per measure, with tests that fail until it is right."),
    Export("solutions", "Solution notebook", "-solutions.ipynb", "application/x-ipynb+json",
           lambda ex: notebook_text(exercise_notebook(ex, solutions=True)),
           "The same notebook with working functions: every test passes."),
    Export("worksheet-md", "Worksheet (Markdown)", "-worksheet.md", "text/markdown", worksheet_markdown,
           "Instructions, items, judgments, rankings and the questions, with space for answers."),
    Export("worksheet-html", "Worksheet (HTML, printable)", "-worksheet.html", "text/html", worksheet_html,
           "The worksheet as a web page to print."),
    Export("answers-md", "Answer key (Markdown)", "-answers.md", "text/markdown", answer_key_markdown,
           "Every answer with its formula, the numbers plugged in, the per-rank table and the known mistakes."),
    Export("answers-html", "Answer key (HTML, printable)", "-answers.html", "text/html", answer_key_html,
           "The answer key as a web page to print."),
    Export("answers-csv", "Answer key (CSV)", "-answers.csv", "text/csv", answer_key_csv,
           "question_id, seed, query, system, measure, answer: for a learning platform."),
)
"""The builder's downloads, in the order shown."""


def export_name(stem: str, export: Export, seed: int | None = None) -> str:
    """The file name of an export, with the seed of a variant.

    >>> export_name("week-3", EXPORTS[1], 7), export_name("week-3", EXPORTS[6])
    ('week-3-seed007-solutions.ipynb', 'week-3-answers.csv')
    """
    return f"{stem}{f'-seed{seed:03d}' if seed is not None else ''}{export.suffix}"


def variant_seeds(first_seed: int, count: int) -> range:
    """The seeds of a batch: ``count`` (1..:data:`MAX_BATCH`) seeds from ``first_seed``.

    >>> list(variant_seeds(5, 3))
    [5, 6, 7]
    """
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_BATCH:
        raise ValidationError(f"a batch has 1 to {MAX_BATCH} variants, got {count!r}")
    read_seed(first_seed)
    return range(first_seed, first_seed + count)


def variant_bundle(exercise: Exercise, stem: str, seeds: range,
                   progress: Callable[[int, int, int], None] | None = None) -> bytes:
    """A zip of seeded variants: each variant's student and solution notebook, and one CSV key of all.

    ``progress(done, total, seed)`` is called after each variant. Rebuilding a batch gives the
    same answers and notebook contents (only the notebooks' random cell ids differ).

    >>> from irlab.exercises import builtin_exercise
    >>> data = variant_bundle(builtin_exercise("ndcg-exercise"), "ndcg", range(1, 3))
    >>> sorted(zipfile.ZipFile(io.BytesIO(data)).namelist())  # doctest: +NORMALIZE_WHITESPACE
    ['README.txt', 'ndcg-answer-key.csv', 'solutions/ndcg-seed001-solutions.ipynb',
     'solutions/ndcg-seed002-solutions.ipynb', 'students/ndcg-seed001.ipynb', 'students/ndcg-seed002.ipynb']
    """
    buffer, variants = io.BytesIO(), []
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        def put(name: str, text: str) -> None:
            archive.writestr(zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0)), text.encode("utf-8"),
                             compress_type=zipfile.ZIP_DEFLATED)

        for done, seed in enumerate(seeds, start=1):
            variant = make_variant(exercise, seed)
            variants.append(variant)
            put(f"students/{export_name(stem, EXPORTS[0], seed)}", EXPORTS[0].make(variant))
            put(f"solutions/{export_name(stem, EXPORTS[1], seed)}", EXPORTS[1].make(variant))
            if progress is not None:
                progress(done, len(seeds), seed)
        put(f"{stem}-answer-key.csv", answer_key_csv(variants))
        put("README.txt", _readme(exercise, stem, seeds))
    return buffer.getvalue()


def _readme(exercise: Exercise, stem: str, seeds: range) -> str:
    return (f"{exercise.title}: {len(seeds)} seeded variants, seeds {seeds[0]} to {seeds[-1]}.\n\n"
            f"students/   one notebook per variant to hand out (give each student one seed)\n"
            f"solutions/  the same notebooks completed: every test passes\n"
            f"{stem}-answer-key.csv  every variant's answers, one row per question and seed\n\n"
            "Students can also practise their variant in IR Lab: open the practice page with\n"
            "?exercise=LINK&seed=N (the builder's share link with the seed).\n")
