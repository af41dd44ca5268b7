"""The activity kind "predict a number": the class predicts a number a walkthrough chapter shows.

**Settings** (checked by :meth:`PredictNumber.settings`, stored in canonical form):

=============  ==============================================================================
``chapter``    the chapter's slug (``ndcg``), or give ``link`` instead: a walkthrough link
               (``https://host/ndcg?order=...&k=3&rel=graded``), its path naming the chapter
``params``     the walkthrough's URL parameters (:mod:`irlab.walkthrough.urlstate`): order,
               k, rel, level, grades, the other queries' orders, returned. Every one must be
               valid (a link in a lecture must show what the lecturer meant, so nothing is
               silently replaced by a default); stored as the chapter writes them back
``number``     which number of the chapter (:mod:`irlab.classroom.activities.chapter_numbers`:
               ``nDCG@K``, ``Recall@K``, ``MRR``, ``AP@K:white-cat``, ``TP``, ...)
``tolerance``  how close counts as right (absolute, 0 to :data:`MAX_TOLERANCE`); default
               0.005 (two decimals), 0 for counts
=============  ==============================================================================

**Answers** are read as on Practise (:func:`irlab.exercises.questions.answers.parse_answer`: ``0.75``,
``0,75``, ``3/4``, ``75%``), finite and at most :data:`MAX_MAGNITUDE` in size; anything else is
refused with a message saying how to type a number. The check is Practise's
(:func:`irlab.exercises.questions.answers.check_answer` on the number asked as a one-question exercise), so
a wrong answer is matched to a named mistake (:mod:`irlab.exercises.questions.mistakes`), and the student
reads Practise's feedback after the reveal.

**Summary** per round (:class:`NumberSummary`): the count of answers; once the round is revealed
and holds at least 3 answers, a histogram (bins centred on the right value, the same bins for
every round of the activity), the share within tolerance, and the named mistakes with their
counts ("original Järvelin–Kekäläinen discount instead of log2(k + 1): 14").

>>> kind = PredictNumber()
>>> settings = kind.settings({"chapter": "ndcg", "params": {"order": "1,2,3,4,5,6,7,8", "k": "3",
...                           "rel": "graded"}, "number": "nDCG@K"})
>>> kind.describe(settings), settings["tolerance"]
('NDCG@3 · CG, DCG, IDCG and NDCG@K', 0.005)
>>> me = Respondent(number=1, seed=7)
>>> value = kind.parse(settings, "0,47", me).value
>>> kind.check(settings, value, me)
Verdict(correct=False, mistake='discount-jk', detail=None)
>>> kind.parse(settings, "inf", me)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
irlab.errors.ValidationError: 'inf' is not a number: type a decimal such as 0.75, ...
"""

from __future__ import annotations

import json
import unicodedata
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
    known_settings,
)
from irlab.classroom.activities.chapter_numbers import QUESTION, ChapterNumber, chapter_number
from irlab.classroom.activities.histogram import Histogram, bin_edges, count_into, unmarked
from irlab.classroom.activities.states import chapter_of as _chapter
from irlab.classroom.activities.states import link_parts as _link_parts
from irlab.classroom.activities.states import plain_text as _plain_text
from irlab.classroom.activities.states import strict_state as _strict_state
from irlab.errors import ValidationError
from irlab.exercises.model import DEFAULT_TOLERANCE, Question
from irlab.exercises.questions.answers import Feedback, check_answer, parse_answer
from irlab.exercises.questions.mistakes import MISTAKES
from irlab.explain.formula import format_number
from irlab.walkthrough import views
from irlab.walkthrough.chapters import Chapter
from irlab.walkthrough.state import WalkthroughState
from irlab.walkthrough.urlstate import params_from_state

MAX_TOLERANCE = 1.0
MAX_MAGNITUDE = 1e6
"""Answers larger than this (in size) are refused: no number a chapter shows comes near it."""
MAX_TEXT = 100
MISTAKE_TITLES = {mistake.name: mistake.title for mistake in MISTAKES}


@dataclass(frozen=True)
class PredictQuestion:
    """What a student sees while the round is open: the chapter's state, the question, and the tiles (no numbers).

    ``params`` restore the state in the walkthrough (a link to the chapter); ``rows`` are the chapter's
    tile rows for the state (the three queries' rows in the MRR and MAP chapters), without TP/FP classes.
    """

    chapter: Chapter
    state: WalkthroughState
    params: Mapping[str, str]
    label: str
    prompt: str
    tolerance: float
    whole_numbers: bool
    rows: tuple[views.TileRow, ...]


@dataclass(frozen=True)
class PredictSolution:
    """The right answer: the number with its breakdown (the chapter's computation), and the state as a link."""

    chapter: Chapter
    params: Mapping[str, str]
    number: ChapterNumber

    @property
    def display_value(self) -> str:
        return self.number.breakdown.display_value


@dataclass(frozen=True)
class MistakeCount:
    """A named mistake and how many answers of a round it explains."""

    name: str
    title: str
    count: int

    @property
    def text(self) -> str:
        """``title: count``, as the projector shows it."""
        return f"{self.title}: {self.count}"


@dataclass(frozen=True)
class NumberSummary:
    """A round's answers. Only ``count`` before the reveal or below :data:`MIN_ANSWERS_SHOWN` answers; after
    the reveal (with enough answers) also the histogram, how many were within tolerance, and the named mistakes."""

    round: int
    state: str
    count: int
    right_value: float | None = None
    histogram: Histogram | None = None
    within: int | None = None
    mistakes: tuple[MistakeCount, ...] = ()

    @property
    def shown(self) -> bool:
        """Whether the distribution may be shown (revealed, and enough answers)."""
        return self.histogram is not None

    @property
    def share_within(self) -> float | None:
        """The share of answers within tolerance (0-1), when shown."""
        return None if self.within is None or not self.count else self.within / self.count


class PredictNumber:
    """Predict a number a walkthrough chapter shows (the kind's methods are described in
    :mod:`irlab.classroom.activities.base`)."""

    name = "predict"
    title = "Predict a number"

    # --- the lecturer's settings ---------------------------------------------------------------------------------

    def settings(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        """The settings in canonical form; ValidationError names what is wrong."""
        raw = known_settings(raw, {"chapter", "link", "params", "number", "tolerance"})
        if "link" in raw:
            slug, params = _link_parts(raw["link"])
        else:
            slug, params = raw.get("chapter"), raw.get("params", {})
        chapter = _chapter(slug)
        state = _strict_state(params)
        number = raw.get("number")
        if not isinstance(number, str):
            raise ValidationError("choose the number to predict (e.g. 'nDCG@K')", path="number")
        asked = chapter_number(state, chapter, number)
        tolerance = raw.get("tolerance", 0.0 if asked.whole_numbers else DEFAULT_TOLERANCE)
        if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float)) \
                or not 0 <= tolerance <= MAX_TOLERANCE:
            raise ValidationError(f"the tolerance must be a number from 0 to {format_number(MAX_TOLERANCE)}",
                                  path="tolerance")
        return {"chapter": chapter.slug, "params": params_from_state(state, chapter), "number": number,
                "tolerance": float(tolerance)}

    def describe(self, settings: Mapping[str, Any]) -> str:
        chapter, _, asked = _asked(_key(settings))
        return f"{asked.label} \u00b7 {chapter.title}"

    # --- the student's side --------------------------------------------------------------------------------------

    def question(self, settings: Mapping[str, Any], respondent: Respondent | None = None) -> PredictQuestion:
        chapter, state, asked = _asked(_key(settings))
        k = state.effective_k(chapter)
        rows = views.binary_rows(state, k if chapter.uses_k else None) if chapter.binary_only else \
            (views.main_row(state, chapter),)
        return PredictQuestion(chapter, state, params_from_state(state, chapter), asked.label, asked.prompt,
                               float(settings["tolerance"]), asked.whole_numbers, rows)

    def parse(self, settings: Mapping[str, Any], raw: Any, respondent: Respondent) -> Parsed:
        """A finite number of sane size; ValidationError with Practise's message otherwise.

        Invisible characters (controls, zero-width and direction marks a phone keyboard or a paste may add) are
        dropped before reading."""
        if isinstance(raw, str):
            if len(raw) > 10 * MAX_TEXT:
                raise ValidationError("The answer is far too long: type a number such as 0.75.")
            raw = "".join(c for c in raw if unicodedata.category(c) not in ("Cc", "Cf") or c.isspace())
        value = parse_answer(raw)
        if abs(value) > MAX_MAGNITUDE:
            raise ValidationError(f"{_excerpt(raw)} is far too large: type a number such as 0.75.")
        return Parsed(_plain_text(raw), value)

    def check(self, settings: Mapping[str, Any], value: Any, respondent: Respondent) -> Verdict:
        feedback = self.feedback_for(settings, value)
        return Verdict(feedback.correct, feedback.mistake.mistake.name if feedback.mistake else None)

    def feedback(self, settings: Mapping[str, Any], answer: StoredAnswer) -> Feedback:
        """Practise's feedback on a stored answer (shown to the student after the reveal)."""
        return self.feedback_for(settings, answer.value)

    def feedback_for(self, settings: Mapping[str, Any], value: float) -> Feedback:
        """Practise's verdict on ``value``: right within the tolerance, or the named mistake it matches."""
        _, _, asked = _asked(_key(settings))
        tolerance = float(settings["tolerance"])
        if asked.exercise is not None:
            return check_answer(asked.exercise, QUESTION, value, tolerance)
        # the confusion counts are no irlab measure, so no mistake applies; the verdict is Practise's all the same
        question = Question(QUESTION, asked.label, "", "")
        correct = abs(float(value) - asked.value) <= tolerance + 1e-9
        return Feedback(question, asked.breakdown, float(value), correct, tolerance)

    # --- the projector -------------------------------------------------------------------------------------------

    def solution(self, settings: Mapping[str, Any], respondent: Respondent | None = None) -> PredictSolution:
        chapter, state, asked = _asked(_key(settings))
        return PredictSolution(chapter, params_from_state(state, chapter), asked)

    def summarise(self, settings: Mapping[str, Any], rounds: Sequence[RoundAnswers]) -> tuple[NumberSummary, ...]:
        """One summary per round, all counted into the same bins."""
        _, _, asked = _asked(_key(settings))
        tolerance = float(settings["tolerance"])
        edges = bin_edges(asked.value, asked.low, asked.high, tolerance, asked.whole_numbers)
        summaries = []
        for round_ in rounds:
            count = len(round_.answers)
            if not round_.spread_shown or count < MIN_ANSWERS_SHOWN:
                summaries.append(NumberSummary(round_.number, round_.state, count))
                continue
            values = [float(a.value) for a in round_.answers]
            if not round_.revealed:  # shown live: the spread, nothing that tells the right answer
                summaries.append(NumberSummary(round_.number, round_.state, count,
                                               histogram=unmarked(count_into(edges, values, asked.value))))
                continue
            mistakes = Counter(a.mistake for a in round_.answers if a.mistake and not a.correct)
            named = tuple(MistakeCount(name, MISTAKE_TITLES.get(name, name), n)
                          for name, n in sorted(mistakes.items(), key=lambda item: (-item[1], item[0])))
            summaries.append(NumberSummary(round_.number, round_.state, count, asked.value,
                                           count_into(edges, values, asked.value),
                                           sum(1 for a in round_.answers if a.correct), named))
        return tuple(summaries)

    # --- exports -------------------------------------------------------------------------------------------------

    def answer_cell(self, settings: Mapping[str, Any], answer: StoredAnswer) -> str:
        return answer.text

    def right_cell(self, settings: Mapping[str, Any], respondent: Respondent) -> str:
        return _asked(_key(settings))[2].breakdown.display_value


PREDICT = PredictNumber()


def predict_settings(state: WalkthroughState, chapter: Chapter, number: str,
                     tolerance: float | None = None) -> dict[str, Any]:
    """Raw settings for the walkthrough as it stands (the lecturer's own state), to pass to ``settings``."""
    raw: dict[str, Any] = {"chapter": chapter.slug, "params": params_from_state(state, chapter), "number": number}
    if tolerance is not None:
        raw["tolerance"] = tolerance
    return raw


# --- helpers -------------------------------------------------------------------------------------------------------

def _key(settings: Mapping[str, Any]) -> str:
    return json.dumps({"chapter": settings["chapter"], "params": settings["params"], "number": settings["number"]},
                      sort_keys=True)


@lru_cache(maxsize=512)
def _asked(key: str) -> tuple[Chapter, WalkthroughState, ChapterNumber]:
    """The chapter, state and number of stored settings (pure, so cached: a projector polls every second)."""
    settings = json.loads(key)
    chapter = _chapter(settings["chapter"])
    state = _strict_state(settings["params"])
    return chapter, state, chapter_number(state, chapter, settings["number"])


def _excerpt(raw: Any) -> str:
    return repr(_plain_text(raw)[:30]) if isinstance(raw, str) else "the number"
