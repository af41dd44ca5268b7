"""The activity kind "which is it": a multiple-choice question about a walkthrough state, or a concept question.

**Settings** (checked by :meth:`WhichIsIt.settings`, stored in canonical form), either a question
about a state, generated from the chapter's view with the right answer computed by IR Lab:

=============  ==============================================================================
``chapter``    the chapter's slug (or ``link``: a walkthrough link)
``params``     the walkthrough's URL parameters
``about``      ``class:TP``, ``class:FP``, ``class:FN``, ``class:TN``: which pictures are of this
               class at the state's K (any chapter: its main ranking, mode and level; several
               answers, or "none of them"); ``lowest:AP`` (chapter map): which query has the
               lowest AP@K; ``lowest:RR`` (chapter mrr): which query has the lowest RR
=============  ==============================================================================

or ``concept``: the id of a question of the bank (:mod:`irlab.classroom.activities.concepts`).

**Answers** are option ids (a list, or one id); an unknown option, several options where the question
asks for one, "none of them" together with a picture, or nothing are refused with a message. Right
means exactly the right set. A wrong set that is exactly another class's pictures is named
(``class-TP``: "chose the true positives (TP) instead").

**Summary** per round (:class:`ChoiceSummary`): the count, and from 3 answers on how many chose each
option (live, so the class can discuss the split); after the reveal also the right options, how many
were right, the named mistakes, and why.

>>> kind = WhichIsIt()
>>> settings = kind.settings({"chapter": "actual-vs-predicted", "params": {"order": "1,2,3,4,5,6,7,8", "k": "4"},
...                           "about": "class:FN"})
>>> kind.describe(settings)
'Which pictures are false negatives (FN) at K = 4? · Actual vs predicted'
>>> kind.solution(settings).right
('5', '7')
>>> me = Respondent(number=1, seed=7)
>>> kind.check(settings, kind.parse(settings, ["1", "3"], me).value, me)
Verdict(correct=False, mistake='class-FP', detail=None)
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
    known_settings,
)
from irlab.classroom.activities.concepts import CONCEPT, Concept
from irlab.classroom.activities.predict import MistakeCount
from irlab.classroom.activities.states import chapter_and_params, chapter_of, strict_state
from irlab.errors import ValidationError
from irlab.explain.formula import format_number
from irlab.metrics.confusion import CLASS_LABELS, explain_confusion_at_k
from irlab.scenarios.cats_in_boxes import BINARY_QUERIES
from irlab.walkthrough import views
from irlab.walkthrough.chapters import Chapter
from irlab.walkthrough.state import SCENARIO, WalkthroughState
from irlab.walkthrough.urlstate import params_from_state

NONE = "none"
CLASSES = tuple(f"class:{name}" for name in CLASS_LABELS)
LOWEST = {"lowest:AP": "map", "lowest:RR": "mrr"}
"""A question about the lowest measure over the three queries, and the chapter it needs."""
MAX_CHOICES = 20


@dataclass(frozen=True)
class ChoiceQuestion:
    """What a student sees: the prompt, the options (id, text), whether several may be chosen (``hint`` says so),
    and for a state question the chapter, state and tile rows (the pictures with ranks and relevance, never the
    classes)."""

    prompt: str
    options: tuple[tuple[str, str], ...]
    several: bool
    chapter: Chapter | None = None
    state: WalkthroughState | None = None
    k: int | None = None
    rows: tuple[views.TileRow, ...] = ()
    hint: str = ""
    """How many to choose, in words (empty when the prompt says it)."""

    def label(self, option: str) -> str:
        return dict(self.options).get(option, option)


@dataclass(frozen=True)
class ChoiceSolution:
    """The right option ids, in words, and why."""

    right: tuple[str, ...]
    text: str
    why: str


@dataclass(frozen=True)
class ChoiceFeedback:
    correct: bool
    message: str


@dataclass(frozen=True)
class OptionCount:
    """An option, how many chose it, and (after the reveal) whether it is right."""

    id: str
    text: str
    count: int
    right: bool | None = None


@dataclass(frozen=True)
class ChoiceSummary:
    """A round: the count; from :data:`MIN_ANSWERS_SHOWN` answers on each option's count; after the reveal how many
    were right and the named mistakes."""

    round: int
    state: str
    count: int
    options: tuple[OptionCount, ...] | None = None
    correct: int | None = None
    mistakes: tuple[MistakeCount, ...] = ()

    @property
    def shown(self) -> bool:
        return self.options is not None


@dataclass(frozen=True)
class _Asked:
    """A question with its answer: what the kind computes once per settings."""

    question: ChoiceQuestion
    right: tuple[str, ...]
    why: str
    classes: Mapping[str, tuple[str, ...]] | None = None
    """For a class question: each class's pictures (to name a wrong set that is another class)."""


class WhichIsIt:
    """Which is it (the kind's methods are described in :mod:`irlab.classroom.activities.base`)."""

    name = "choice"
    title = "Which is it"

    def settings(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        raw = known_settings(raw, {"chapter", "link", "params", "about", "concept"})
        if "concept" in raw:
            if set(raw) != {"concept"} or raw["concept"] not in CONCEPT:
                raise ValidationError(f"choose a concept question; the questions are: {', '.join(CONCEPT)}",
                                      path="concept")
            return {"concept": raw["concept"]}
        chapter, state = chapter_and_params(raw)
        about = raw.get("about")
        if about not in (*CLASSES, *LOWEST):
            raise ValidationError(f"choose what to ask; the questions are: {', '.join((*CLASSES, *LOWEST))}",
                                  path="about")
        if about in LOWEST and chapter.slug != LOWEST[about]:
            raise ValidationError(f"{about.split(':')[1]} over the three queries is a question of the chapter "
                                  f"{chapter_of(LOWEST[about]).title!r}", path="about")
        return {"chapter": chapter.slug, "params": params_from_state(state, chapter), "about": about}

    def describe(self, settings: Mapping[str, Any]) -> str:
        asked = _asked(_key(settings))
        if "concept" in settings:
            return f"Which is it: {CONCEPT[settings['concept']].title}"
        return f"{asked.question.prompt} \u00b7 {asked.question.chapter.title}"

    def question(self, settings: Mapping[str, Any], respondent: Respondent | None = None) -> ChoiceQuestion:
        return _asked(_key(settings)).question

    def parse(self, settings: Mapping[str, Any], raw: Any, respondent: Respondent) -> Parsed:
        """The chosen option ids (in the options' order); ValidationError says what is wrong."""
        question = _asked(_key(settings)).question
        if isinstance(raw, str):
            raw = [raw]
        if not isinstance(raw, (list, tuple)) or len(raw) > MAX_CHOICES \
                or not all(isinstance(item, str) and len(item) <= 40 for item in raw):
            raise ValidationError("Choose one of the options.")
        ids = [option for option, _ in question.options]
        chosen = set(raw)
        for item in raw:
            if item not in ids:
                raise ValidationError(f"There is no option {item[:20]!r} in this question.")
        if not chosen:
            raise ValidationError("Choose at least one option." if question.several else "Choose one option.")
        if len(chosen) > 1 and not question.several:
            raise ValidationError("This question has one answer: choose one option.")
        if NONE in chosen and len(chosen) > 1:
            raise ValidationError("\u201cNone of them\u201d cannot go with a picture: choose one or the other.")
        value = [option for option in ids if option in chosen]
        return Parsed(brief([question.label(option) for option in value]), value)

    def check(self, settings: Mapping[str, Any], value: Any, respondent: Respondent) -> Verdict:
        asked = _asked(_key(settings))
        chosen = tuple(value)
        if chosen == asked.right:
            return Verdict(True)
        mistake = None
        for name, items in (asked.classes or {}).items():
            if items and chosen == items:
                mistake = f"class-{name}"
        return Verdict(False, mistake)

    def summarise(self, settings: Mapping[str, Any], rounds: Sequence[RoundAnswers]) -> tuple[ChoiceSummary, ...]:
        asked = _asked(_key(settings))
        summaries = []
        for round_ in rounds:
            count = len(round_.answers)
            if count < MIN_ANSWERS_SHOWN or not round_.spread_shown:
                summaries.append(ChoiceSummary(round_.number, round_.state, count))
                continue
            chosen = Counter(option for a in round_.answers for option in a.value)
            revealed = round_.revealed
            options = tuple(OptionCount(option, text, chosen[option], option in asked.right if revealed else None)
                            for option, text in asked.question.options)
            if not revealed:
                summaries.append(ChoiceSummary(round_.number, round_.state, count, options))
                continue
            mistakes = Counter(a.mistake for a in round_.answers if a.mistake and not a.correct)
            named = tuple(MistakeCount(name, mistake_title(name), n)
                          for name, n in sorted(mistakes.items(), key=lambda item: (-item[1], item[0])))
            summaries.append(ChoiceSummary(round_.number, round_.state, count, options,
                                           sum(1 for a in round_.answers if a.correct), named))
        return tuple(summaries)

    def solution(self, settings: Mapping[str, Any], respondent: Respondent | None = None) -> ChoiceSolution:
        asked = _asked(_key(settings))
        return ChoiceSolution(asked.right, "; ".join(asked.question.label(o) for o in asked.right), asked.why)

    def feedback(self, settings: Mapping[str, Any], answer: StoredAnswer) -> ChoiceFeedback:
        solution = self.solution(settings)
        if answer.correct:
            return ChoiceFeedback(True, f"Right: {solution.text}. {solution.why}")
        named = f" It looks like you {mistake_title(answer.mistake)}." if answer.mistake else ""
        return ChoiceFeedback(False, f"Not quite: you chose {answer.text}; the right answer is {solution.text}."
                                     f"{named} {solution.why}")

    def answer_cell(self, settings: Mapping[str, Any], answer: StoredAnswer) -> str:
        """Every option chosen, whole (the stored text may be cut short)."""
        question = _asked(_key(settings)).question
        return "; ".join(question.label(option) for option in answer.value)

    def right_cell(self, settings: Mapping[str, Any], respondent: Respondent) -> str:
        return self.solution(settings).text


CHOICE = WhichIsIt()


def mistake_title(name: str | None) -> str:
    """A named mistake of this kind in words.

    >>> mistake_title("class-FP")
    'chose the false positives (FP) instead'
    """
    if name and name.startswith("class-") and name[6:] in CLASS_LABELS:
        return f"chose the {CLASS_LABELS[name[6:]]}s ({name[6:]}) instead"
    return name or ""


# --- the questions -------------------------------------------------------------------------------------------------

def _key(settings: Mapping[str, Any]) -> str:
    return json.dumps(dict(settings), sort_keys=True)


@lru_cache(maxsize=512)
def _asked(key: str) -> _Asked:
    """The question and its answer for stored settings (pure, so cached: a projector polls every second)."""
    settings = json.loads(key)
    if "concept" in settings:
        return _concept(CONCEPT[settings["concept"]])
    chapter = chapter_of(settings["chapter"])
    state = strict_state(settings["params"])
    if settings["about"] in LOWEST:
        return _lowest(state, chapter, settings["about"].split(":")[1])
    return _classes(state, chapter, settings["about"].split(":")[1])


def _concept(concept: Concept) -> _Asked:
    return _Asked(ChoiceQuestion(concept.prompt, concept.options, concept.several), concept.right, concept.why)


def _pictures(items: Sequence[str]) -> str:
    return ", ".join(items) if items else "none"


def _classes(state: WalkthroughState, chapter: Chapter, wanted: str) -> _Asked:
    """Which pictures are of class ``wanted`` at the state's K (main ranking, mode and level)."""
    k, mode, level = state.effective_k(chapter), state.effective_mode(chapter), state.effective_level(chapter)
    confusion = explain_confusion_at_k(state.order, state.judgments(mode), k, relevance_level=level)
    of_class = {name: tuple(row["item"] for row in confusion.rows if row["class"] == name) for name in CLASS_LABELS}
    rule = views.relevance_rule(state, chapter)
    prompt = f"Which pictures are {CLASS_LABELS[wanted]}s ({wanted}) at K = {k}?"
    hint = "Choose every one, or \u201cNone of them\u201d."
    options = (*((item, f"{item} {SCENARIO.item(item).title}") for item in state.order), (NONE, "None of them"))
    row = views.main_row(state, chapter, k=k, show_counts=True)
    right = tuple(item for item in state.order if item in of_class[wanted]) or (NONE,)
    words = {"TP": "relevant and returned (in the top K)", "FP": "returned (in the top K) but not relevant",
             "FN": "relevant but not returned (below K)", "TN": "neither relevant nor returned"}
    why = (f"{wanted} = {words[wanted]}. The top {k} is {_pictures(state.order[:k])}. {rule} So the {wanted}s are "
           f"{_pictures(of_class[wanted])}; TP {_pictures(of_class['TP'])}, FP {_pictures(of_class['FP'])}, "
           f"FN {_pictures(of_class['FN'])}, TN {_pictures(of_class['TN'])}.")
    question = ChoiceQuestion(prompt, tuple(options), True, chapter, state, k, (row,), hint)
    classes = {name: tuple(item for item in state.order if item in items) for name, items in of_class.items()}
    return _Asked(question, right, why, classes)


def _lowest(state: WalkthroughState, chapter: Chapter, measure: str) -> _Asked:
    """Which of the three queries has the lowest AP@K (chapter map) or RR (chapter mrr); ties: every tied query."""
    view = views.chapter_view(state, chapter)  # the map chapter for AP, the mrr chapter for RR (LOWEST)
    label = f"AP@{view.k}" if measure == "AP" else "RR"
    texts = {query: SCENARIO.query(query).text for query in BINARY_QUERIES}
    values = {query: float(view.per_query[texts[query]].value) for query in BINARY_QUERIES}
    low = min(values.values())
    right = tuple(query for query in BINARY_QUERIES if values[query] <= low + 1e-12)
    several = len(right) > 1
    prompt = f"Which query has the lowest {label}?"
    why = f"{label} per query: " + "; ".join(f"\u201c{texts[q]}\u201d {format_number(values[q], 4)}"
                                             for q in BINARY_QUERIES) + "."
    options = tuple((query, f"\u201c{texts[query]}\u201d") for query in BINARY_QUERIES)
    k = view.k if measure == "AP" else None
    question = ChoiceQuestion(prompt, options, several, chapter, state, k, views.binary_rows(state, k),
                              "Choose every query that has it." if several else "Choose one.")
    return _Asked(question, right, why)
