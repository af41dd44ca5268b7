"""The activity kind "an exercise in class": every student works their own seeded variant of an exercise.

**Settings** (checked by :meth:`ClassExercise.settings`): ``builtin`` (a shipped exercise's name),
``link`` (a Practise share link, or its token ``ex1....``) or ``file`` (an exercise file's text, as
uploaded; kept as its link token, so at most :data:`irlab.exercises.format.links.MAX_LINK_CHARS` characters
once packed). Stored canonically as ``{"builtin": name}`` or ``{"link": token}``.

**Variants bound to the student.** Each student gets :func:`irlab.exercises.exports.variants.make_variant` of the
exercise with the seed :func:`variant_seed` of their :class:`~irlab.classroom.activities.base.Respondent`,
which the store derives from the hash of the student's token, a random secret the server made when they
joined. A student can neither choose nor see another student's seed, and a reload keeps theirs.

**Answers** are a mapping question id -> text (the answers the student typed; an empty box is no
answer); unknown question ids, non-text answers and texts over 100 characters are refused with a message.
Each answer is checked as on Practise (:func:`irlab.exercises.questions.answers.check_answer` on the student's
variant: the tolerance, the named mistakes), question by question; the verdicts are stored in the
answer's detail, and the answer counts as right when every question is.

**Summary** per round (:class:`ExerciseSummary`): live (the lecturer follows the class while it works),
from 3 answers on: each question's success rate and the most common named mistakes, without names; and the
gradebook rows (one per student: the seed and each question's points and mistake), which
:func:`gradebook` writes with the columns of ``irlab exercise grade``.

>>> kind = ClassExercise()
>>> settings = kind.settings({"builtin": "ndcg-exercise"})
>>> kind.describe(settings)
'NDCG calculation: 6 questions (built in: ndcg-exercise)'
>>> me = Respondent(number=1, seed=41)
>>> variant_seed(me), kind.question(settings, me).exercise.seed
(42, 42)
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from irlab.classroom.activities.base import (
    MIN_ANSWERS_SHOWN,
    Parsed,
    Respondent,
    RoundAnswers,
    StoredAnswer,
    Verdict,
    brief,
)
from irlab.classroom.activities.predict import MistakeCount
from irlab.errors import ValidationError
from irlab.exercises import (
    BUILTIN_NAMES,
    Exercise,
    builtin_exercise,
    describe_question,
    exercise_from_link,
    exercise_to_link,
    make_variant,
)
from irlab.exercises.exports.notebook import POINTS_PER_QUESTION
from irlab.exercises.format.exercise_file import parse_exercise
from irlab.exercises.grading.gradebook import gradebook_csv
from irlab.exercises.grading.grades import QuestionGrade, Submission
from irlab.exercises.grading.roster import SEED_RANGE
from irlab.exercises.questions.answers import Feedback, answer_key, check_answer
from irlab.exercises.questions.mistakes import MISTAKES

MAX_ANSWER = 100
MAX_FILE = 200_000
MISTAKE_TITLES = {mistake.name: mistake.title for mistake in MISTAKES}
KIND_IN_GRADEBOOK = "class"
"""The gradebook's ``kind`` column for answers typed in class (``irlab exercise grade`` writes ``answers`` or
``notebook``)."""


def variant_seed(respondent: Respondent) -> int:
    """The student's variant: their respondent seed reduced to 1 … 999,999,999 (the roster's range)."""
    return 1 + respondent.seed % SEED_RANGE


@dataclass(frozen=True)
class ExerciseQuestion:
    """What a student sees: their variant (the exercise as written on the projector), its seed, and each question
    in words (id, text)."""

    exercise: Exercise
    seed: int | None
    questions: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class QuestionRate:
    """A question of the exercise: how many answered it, how many were right."""

    id: str
    text: str
    answered: int
    right: int

    @property
    def rate(self) -> float | None:
        return self.right / self.answered if self.answered else None


@dataclass(frozen=True)
class ExerciseSummary:
    """A round: the count; from :data:`MIN_ANSWERS_SHOWN` answers on each question's success rate and the named
    mistakes (over all questions); the gradebook's rows (the lecturer's download, never projected)."""

    round: int
    state: str
    count: int
    rates: tuple[QuestionRate, ...] | None = None
    mistakes: tuple[MistakeCount, ...] = ()
    grades: tuple[Submission, ...] = ()

    @property
    def shown(self) -> bool:
        return self.rates is not None


@dataclass(frozen=True)
class ExerciseFeedback:
    """Practise's feedback on each answered question of the student's variant, and how many were right."""

    feedback: tuple[tuple[str, Feedback], ...]
    right: int
    questions: int

    @property
    def correct(self) -> bool:
        return self.right == self.questions


class ClassExercise:
    """An exercise in class (the kind's methods are described in :mod:`irlab.classroom.activities.base`)."""

    name = "exercise"
    title = "An exercise"

    def settings(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        if not isinstance(raw, Mapping) or len(raw) != 1 or next(iter(raw)) not in ("builtin", "link", "file"):
            raise ValidationError("give the exercise as one of: builtin (a name), link (a share link) or file "
                                  "(the file's text)")
        (source, value), = raw.items()
        if source == "builtin":
            if value not in BUILTIN_NAMES:
                raise ValidationError(f"no built-in exercise is called that; they are: {', '.join(BUILTIN_NAMES)}",
                                      path="builtin")
            return {"builtin": value}
        if source == "file":
            if not isinstance(value, (str, bytes)) or len(value) > MAX_FILE:
                raise ValidationError(f"the exercise file must be text of at most {MAX_FILE:,} characters",
                                      path="file")
            return {"link": exercise_to_link(parse_exercise(value))}
        if not isinstance(value, str):
            raise ValidationError("paste the exercise's share link", path="link")
        return {"link": exercise_to_link(exercise_from_link(value))}

    def describe(self, settings: Mapping[str, Any]) -> str:
        exercise = _base(_key(settings))
        where = f"built in: {settings['builtin']}" if "builtin" in settings else "from a link"
        count = len(exercise.questions)
        return f"{exercise.title}: {count} question{'' if count == 1 else 's'} ({where})"

    def question(self, settings: Mapping[str, Any], respondent: Respondent | None = None) -> ExerciseQuestion:
        seed = variant_seed(respondent) if respondent is not None else None
        exercise = _variant(_key(settings), seed)
        return ExerciseQuestion(exercise, seed, tuple((q.id, describe_question(exercise, q))
                                                      for q in exercise.questions))

    def parse(self, settings: Mapping[str, Any], raw: Any, respondent: Respondent) -> Parsed:
        """The answers typed (question id -> text, empty ones dropped); ValidationError says what is wrong."""
        exercise = _base(_key(settings))
        ids = [q.id for q in exercise.questions]
        if not isinstance(raw, Mapping) or len(raw) > len(ids):
            raise ValidationError("Type your answers in the boxes of the questions, then send them.")
        answers: dict[str, str] = {}
        for question_id, text in raw.items():
            if question_id not in ids:
                raise ValidationError(f"This exercise has no question {str(question_id)[:30]!r}.")
            if text is None:
                continue
            if not isinstance(text, str) or len(text) > MAX_ANSWER:
                raise ValidationError(f"The answer to {question_id} is not a short text: type a number such as 0.75.")
            if text.strip():
                answers[question_id] = " ".join(text.split())
        if not answers:
            raise ValidationError("Type at least one answer before sending.")
        value = {q: answers[q] for q in ids if q in answers}
        return Parsed(brief([f"{q}: {a}" for q, a in value.items()]), value)

    def check(self, settings: Mapping[str, Any], value: Any, respondent: Respondent) -> Verdict:
        exercise = _variant(_key(settings), variant_seed(respondent))
        verdicts = {}
        for question in exercise.questions:
            if question.id not in value:
                continue
            feedback = check_answer(exercise, question.id, value[question.id])
            verdicts[question.id] = {"right": feedback.correct,
                                     "mistake": feedback.mistake.mistake.name if feedback.mistake else None,
                                     "unreadable": feedback.problem is not None}
        right = sum(1 for v in verdicts.values() if v["right"])
        first = next((v["mistake"] for v in verdicts.values() if v["mistake"]), None)
        return Verdict(right == len(exercise.questions), first, {"questions": verdicts, "right": right,
                                                                 "seed": variant_seed(respondent)})

    def summarise(self, settings: Mapping[str, Any], rounds: Sequence[RoundAnswers]) -> tuple[ExerciseSummary, ...]:
        exercise = _base(_key(settings))
        summaries = []
        for round_ in rounds:
            count = len(round_.answers)
            grades = tuple(_submission(exercise, answer) for answer in round_.answers)
            if count < MIN_ANSWERS_SHOWN or not round_.spread_shown:
                summaries.append(ExerciseSummary(round_.number, round_.state, count, grades=grades))
                continue
            verdicts = [(answer.detail or {}).get("questions", {}) for answer in round_.answers]
            rates = tuple(QuestionRate(q.id, describe_question(exercise, q),
                                       sum(1 for v in verdicts if q.id in v),
                                       sum(1 for v in verdicts if v.get(q.id, {}).get("right")))
                          for q in exercise.questions)
            counted = Counter(v["mistake"] for found in verdicts for v in found.values() if v.get("mistake"))
            named = tuple(MistakeCount(name, MISTAKE_TITLES.get(name, name), n)
                          for name, n in sorted(counted.items(), key=lambda item: (-item[1], item[0])))
            summaries.append(ExerciseSummary(round_.number, round_.state, count, rates, named, grades))
        return tuple(summaries)

    def solution(self, settings: Mapping[str, Any], respondent: Respondent | None = None) -> ExerciseQuestion:
        """The exercise (the student's variant) whose answer key the pages show after the reveal."""
        return self.question(settings, respondent)

    def feedback(self, settings: Mapping[str, Any], answer: StoredAnswer) -> ExerciseFeedback:
        exercise = _variant(_key(settings), variant_seed(answer.respondent))
        given = answer.value if isinstance(answer.value, Mapping) else {}
        found = tuple((q.id, check_answer(exercise, q.id, given[q.id])) for q in exercise.questions if q.id in given)
        return ExerciseFeedback(found, sum(1 for _, f in found if f.correct), len(exercise.questions))

    def answer_cell(self, settings: Mapping[str, Any], answer: StoredAnswer) -> str:
        """Every answer typed, whole (the stored text may be cut short)."""
        given = answer.value if isinstance(answer.value, Mapping) else {}
        return "; ".join(f"{question}: {text}" for question, text in given.items())

    def right_cell(self, settings: Mapping[str, Any], respondent: Respondent) -> str:
        exercise = _variant(_key(settings), variant_seed(respondent))
        return "; ".join(f"{entry.question.id}: {entry.breakdown.display_value}" for entry in answer_key(exercise))


EXERCISE = ClassExercise()


def gradebook(exercise: Exercise, summary: ExerciseSummary) -> str:
    """A round's gradebook as CSV text, with the columns ``irlab exercise grade`` writes (file, student, kind,
    seed, status, each question's points and mistake, total, out of, notebook errors, roster); ``exercise`` is
    the exercise as written (the projector's question)."""
    return gradebook_csv(exercise, summary.grades)


def _submission(exercise: Exercise, answer: StoredAnswer) -> Submission:
    """A student's answers as a gradebook row: each question's points and named mistake (or why it has none)."""
    detail = answer.detail or {}
    verdicts = detail.get("questions", {})
    grades = []
    for question in exercise.questions:
        verdict = verdicts.get(question.id)
        if verdict is None:
            grades.append(QuestionGrade(question.id, 0, None, problem="no answer"))
            continue
        grades.append(QuestionGrade(question.id, POINTS_PER_QUESTION if verdict.get("right") else 0, None,
                                    mistake=verdict.get("mistake") or "",
                                    problem="not a number" if verdict.get("unreadable") else ""))
    return Submission(file="", kind=KIND_IN_GRADEBOOK, seed=detail.get("seed"), status="graded",
                      grades=tuple(grades), student=f"student {answer.respondent.number}")


def _key(settings: Mapping[str, Any]) -> str:
    return json.dumps(dict(settings), sort_keys=True)


@lru_cache(maxsize=64)
def _base(key: str) -> Exercise:
    """The exercise as written (pure, so cached)."""
    settings = json.loads(key)
    return builtin_exercise(settings["builtin"]) if "builtin" in settings else exercise_from_link(settings["link"])


@lru_cache(maxsize=1024)
def _variant(key: str, seed: int | None) -> Exercise:
    """A student's variant (None: the exercise as written); cached, as a class answers the same few hundred."""
    base = _base(key)
    return base if seed is None else make_variant(base, seed)
