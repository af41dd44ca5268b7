"""Exercises: a JSON file format, answer keys with breakdowns, answer checking with known
mistakes, seeded variants, links, and exports (notebook, worksheet, answer key, CSV); the
builder's drafts (:mod:`~irlab.exercises.builder.drafts`), sharing (:mod:`~irlab.exercises.builder.sharing`)
and the measure picker's choices (:mod:`~irlab.exercises.builder.measure_picker`).

Every number comes from irlab's measures (:func:`explain_question`), so the app, the
exports and the checks agree to the last digit. The format is documented in
``docs/exercise-format.md``; the command line is ``python -m irlab exercise --help``.

>>> from irlab.exercises import builtin_exercise, answer_key, check_answer, make_variant
>>> ex = builtin_exercise("cats-in-boxes")
>>> [round(b.value, 4) for q, b in answer_key(ex) if q.id in ("mrr", "map8")]
[0.5667, 0.4786]
>>> check_answer(ex, "ndcg-2", "0.39").correct, make_variant(ex, 3).seed
(True, 3)
"""

from irlab.exercises.exports.csv_key import answer_key_csv
from irlab.exercises.exports.notebook import exercise_notebook, notebook_text
from irlab.exercises.exports.variants import make_variant
from irlab.exercises.exports.worksheet import answer_key_html, answer_key_markdown, worksheet_html, worksheet_markdown
from irlab.exercises.format.examples import BUILTIN_NAMES, builtin_exercise, load_exercise_source
from irlab.exercises.format.exercise_file import (
    MAX_FILE_BYTES,
    dump_exercise,
    exercise_from_dict,
    exercise_to_dict,
    parse_exercise,
    read_exercise,
    validate_exercise,
    write_exercise,
)
from irlab.exercises.format.links import MAX_LINK_CHARS, exercise_from_link, exercise_to_link
from irlab.exercises.model import (
    DEFAULT_TOLERANCE,
    MEAN,
    SCHEMA_VERSION,
    Exercise,
    ExerciseItem,
    ExerciseQuery,
    ExerciseSystem,
    Question,
)
from irlab.exercises.questions.answers import Feedback, KeyEntry, answer_key, check_answer, parse_answer
from irlab.exercises.questions.explain import describe_question, exercise_scenario, explain_question, question_rankings
from irlab.exercises.questions.mistakes import MISTAKES, Mistake, MistakeMatch, likely_mistakes, match_mistake

__all__ = [
    "BUILTIN_NAMES", "DEFAULT_TOLERANCE", "MAX_FILE_BYTES", "MAX_LINK_CHARS", "MEAN", "MISTAKES", "SCHEMA_VERSION",
    "Exercise", "ExerciseItem", "ExerciseQuery", "ExerciseSystem", "Feedback", "KeyEntry", "Mistake",
    "MistakeMatch", "Question",
    "answer_key", "answer_key_csv", "answer_key_html", "answer_key_markdown", "builtin_exercise", "check_answer",
    "describe_question", "dump_exercise", "exercise_from_dict", "exercise_from_link", "exercise_notebook",
    "exercise_scenario", "exercise_to_dict", "exercise_to_link", "explain_question", "likely_mistakes",
    "load_exercise_source", "make_variant", "match_mistake", "notebook_text", "parse_answer", "parse_exercise",
    "question_rankings", "read_exercise", "validate_exercise", "worksheet_html", "worksheet_markdown",
    "write_exercise",
]
