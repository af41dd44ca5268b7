"""Measures and questions in words, from the measure registry's own declarations.

An exercise stores a measure by its exact name (``nDCG(discount='jarvelin-kekalainen')@5``), which reads
as code. :func:`measure_words` says it in words, built from what :mod:`irlab.metrics.registry` and
:mod:`irlab.metrics.conventions` declare about the measure (its short label, each convention's label
and description, each parameter's help), so a new variant or parameter is worded without a second
table. Options equal to their default (trec_eval's convention) are left out, as in the exact name.

:func:`question_wording` gives a question's text in words beside its exact name, for the Practise
page, worksheets and notebooks.

>>> print(measure_words("nDCG(discount='jarvelin-kekalainen')@5"))
nDCG@5 with the original Järvelin–Kekäläinen discount (rank 1 is not discounted)
>>> print(measure_words("P(rel=2, denominator='retrieved')@10"))
Precision@10 dividing by items returned (at most K), with relevance level 2 (a grade at least 2 is relevant)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from irlab.exercises.model import Exercise, Question
from irlab.metrics.conventions import variant
from irlab.metrics.measure_names import parse_measure
from irlab.metrics.registry import FAMILIES, REL, Family, Measure, Param


def _name(family: Family, cutoff: int | float | None) -> str:
    """The family's short label at ``cutoff``: ``Precision@10``, ``nDCG``, ``RR@3``, ``R-precision``."""
    cut = None if cutoff is None else (str(cutoff) if isinstance(cutoff, int) else f"{cutoff:g}")
    short = family.short_label
    if "@K" in short:
        return short.replace("@K", f"@{cut}" if cut else "")
    return short if cut is None else f"{family.name}@{cut}"


def _without_tool_note(text: str) -> str:
    """``text`` less a closing note on trec_eval's spelling (``(trec_eval -l)``), which is not the meaning."""
    return re.sub(r"\s*\(trec_eval[^)]*\)", "", text).strip()


def _gist(description: str) -> str:
    """The first clause of a convention's description, lower-cased: "Rank 1 is not discounted; ..." -> "rank 1 is
    not discounted"."""
    clause = re.split(r";|, so |\. ", description.rstrip("."), maxsplit=1)[0].strip()
    return clause[0].lower() + clause[1:]


def _value(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, (list, tuple)):
        return ", ".join(_value(v) for v in value)
    return str(value)


def _param_words(param: Param, value: Any) -> str:
    """One parameter's value in words, from its declaration (a convention's variant, or its help text)."""
    if isinstance(value, str) and param.topic:
        chosen = variant(param.topic, value)
        if param.topic.endswith("_denominator"):
            return f"dividing by {chosen.label}"
        return f"with the {chosen.label} ({_gist(chosen.description)})"
    if isinstance(value, Mapping):  # a gain per grade (trec_eval's ndcg.1=3,2=9)
        gains = ", ".join(f"grade {grade} \u2192 {_value(gain)}" for grade, gain in sorted(value.items()))
        rest = param.help.split("; ", 1)[1] if "; " in param.help else ""
        return f"with the gains {gains}" + (f" ({rest})" if rest else "")
    help_text = _without_tool_note(param.help)
    noun, colon, meaning = help_text.partition(": ")
    if colon and "(" not in noun:  # "relevance level: a grade at least this is relevant"
        return f"with {noun} {_value(value)} ({meaning.replace('this', _value(value))})"
    return f"with {param.name} = {_value(value)} ({help_text})"


def _param_for(family: Family, keyword: str, value: Any) -> Param:
    """The declared parameter that sets the explain keyword ``keyword`` (``gain`` is set by gain, gains or dcg)."""
    params = [p for p in family.params if p.keyword == keyword]
    if isinstance(value, Mapping):
        fitting = [p for p in params if p.name == "gains"]
    elif isinstance(value, str):
        fitting = [p for p in params if p.topic]
    else:
        fitting = [p for p in params if p.name == keyword]
    return (fitting or params)[0]


def measure_words(measure: Measure | str) -> str:
    """``measure`` in words: its short label at its cutoff, then each option that is not the default.

    >>> measure_words("AP@8"), measure_words("RR"), measure_words("nDCG(gain='exponential')@10")
    ('AP@8', 'Reciprocal rank', 'nDCG@10 with the exponential gain (each grade step doubles the gain)')
    >>> measure_words("nDCG(gain={1: 3, 2: 9})")
    'nDCG with the gains grade 1 → 3, grade 2 → 9 (other grades gain their grade)'
    """
    measure = parse_measure(measure) if isinstance(measure, str) else measure
    family = FAMILIES[measure.family]
    parts = []
    for keyword, value in measure.options.items():
        param = _param_for(family, keyword, value)
        if value == param.default:
            continue
        parts.append(_param_words(param, value))
    if measure.relevance_level is not None and measure.relevance_level != REL.default:
        parts.append(_param_words(REL, measure.relevance_level))
    name = _name(family, measure.cutoff)
    return name if not parts else f"{name} {', '.join(parts)}"


def _query_name(exercise: Exercise, query_id: str) -> str:
    """A query as the exercise shows it, in quotes when it is a phrase (``q1``, ``“cat in a box”``)."""
    text = exercise.query(query_id).display_text
    return f"\u201c{text}\u201d" if " " in text else text


def _listed(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


@dataclass(frozen=True)
class QuestionWording:
    """A question as a person reads it (``text``), the measure in words, and its exact name as the exercise
    file, IR Lab and ir_measures spell it (``exact``), to show beside the words."""

    text: str
    measure: str
    exact: str

    @property
    def exact_differs(self) -> bool:
        """Whether the exact name says something the words do not show as written (worth showing beside them)."""
        return self.exact != self.measure


def question_wording(exercise: Exercise, question: Question) -> QuestionWording:
    """The question in words: its prompt if it has one, else the measure, query and system spelled out.

    >>> from irlab.exercises.format.examples import builtin_exercise
    >>> ex = builtin_exercise("ndcg-exercise")
    >>> wording = question_wording(ex, ex.questions[0])
    >>> print(wording.text)
    nDCG@5 with the original Järvelin–Kekäläinen discount (rank 1 is not discounted) for query q1
    >>> print(wording.exact)
    nDCG(discount='jarvelin-kekalainen')@5
    """
    words = measure_words(question.parsed)
    if question.prompt:
        return QuestionWording(question.prompt, words, question.measure)
    if question.is_mean:
        queries = exercise.question_queries(question)
        over = ((f"all {len(queries)} queries" if len(queries) != 1 else "its one query") if question.mean_over is None
                else "the queries " + _listed([_query_name(exercise, q) for q in queries]))
        text = f"{words}, averaged over {over}"
    else:
        text = f"{words} for query {_query_name(exercise, question.query)}"
    if len(exercise.systems) > 1:
        system = exercise.system(question.system)
        text += f", system {system.name or system.id}"
    return QuestionWording(text, words, question.measure)
