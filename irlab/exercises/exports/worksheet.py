"""Printable worksheets and answer keys, in Markdown and in standalone HTML.

A worksheet holds the instructions, the items, each query's judgments and each system's
rankings, and the questions with a blank for the answer. An answer key holds every answer
with its full breakdown: the formula (in words and as LaTeX source), the formula with the
numbers plugged in, the per-rank table, irlab's notes, and the values the known mistakes give.

Both are built once as a list of blocks and rendered twice, so the Markdown and the HTML say
the same. Every user string (title, instructions, labels, ids, prompts) is escaped by the
renderer (:mod:`irlab.exercises.exports.text`); the HTML has no script and reads without JavaScript,
with a little print CSS. LaTeX is shown as source text next to the plain-text formula.

>>> from irlab.exercises.format.examples import builtin_exercise
>>> md = answer_key_markdown(builtin_exercise("ndcg-exercise"))
>>> "**With the numbers:** NDCG@5 ≈ 4.5 / 5.6309 ≈ 0.7992" in md
True
>>> "<script" in worksheet_html(builtin_exercise("cats-in-boxes"))
False
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from irlab.exercises.exports.text import code_block, html_paragraphs, markdown_paragraphs, markdown_text
from irlab.exercises.model import Exercise
from irlab.exercises.questions.answers import answer_key
from irlab.exercises.questions.mistakes import likely_mistakes
from irlab.exercises.questions.wording import question_wording
from irlab.explain.breakdown import Breakdown
from irlab.explain.formula import format_number


@dataclass(frozen=True)
class Heading:
    level: int
    text: str


@dataclass(frozen=True)
class Paragraph:
    """One paragraph; ``label`` is a bold lead such as "Answer:"."""

    text: str
    label: str = ""


@dataclass(frozen=True)
class Prose:
    """Multi-paragraph plain text (the instructions)."""

    text: str


@dataclass(frozen=True)
class Table:
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Code:
    text: str


@dataclass(frozen=True)
class Blank:
    """A line to write an answer on."""

    label: str


Block = Heading | Paragraph | Prose | Table | Code | Blank


# ---------------------------------------------------------------------------------------------
# Content
# ---------------------------------------------------------------------------------------------

def _title(exercise: Exercise, prefix: str = "") -> str:
    variant = f" (variant {exercise.seed})" if exercise.seed is not None else ""
    return f"{prefix}{exercise.title}{variant}"


def worksheet_blocks(exercise: Exercise) -> list[Block]:
    """The worksheet's content: instructions, data, questions with blanks."""
    labels = exercise.labels()
    blocks: list[Block] = [Heading(1, _title(exercise))]
    if exercise.instructions.strip():
        blocks.append(Prose(exercise.instructions))
    blocks.append(Paragraph(f"Answers within {format_number(exercise.tolerance)} of the exact value count as correct."))
    blocks += [Heading(2, "Items"), Table(("id", "label"), tuple((item.id, item.label) for item in exercise.items))]
    blocks.append(Heading(2, "Queries and judgments"))
    for query in exercise.queries:
        blocks.append(Heading(3, f"Query {query.id}" + (f": {query.text}" if query.text else "")))
        scale = ("Binary judgments: 1 relevant, 0 not relevant." if query.scale == "binary"
                 else f"Graded judgments from 0 to {query.max_grade}.")
        blocks.append(Paragraph(f"{scale} Items not listed have grade 0."))
        # in the items' order, as the Items table lists them (a file may judge them in any order)
        judged = dict(query.judgments.items())
        blocks.append(Table(("item", "label", "grade"),
                            tuple((item.id, labels[item.id], str(judged[item.id]))
                                  for item in exercise.items if item.id in judged)))
    blocks.append(Heading(2, "Rankings"))
    for system in exercise.systems:
        level = 3
        if len(exercise.systems) > 1:
            blocks.append(Heading(3, f"System {system.id}" + (f": {system.name}" if system.name else "")))
            level = 4
        for query_id, ranking in system.rankings.items():
            blocks.append(Heading(level, f"Ranking for query {exercise.query(query_id).display_text}"))
            blocks.append(Table(("rank", "item", "label"),
                                tuple((str(rank), item, labels[item]) for rank, item in enumerate(ranking, start=1))))
    blocks.append(Heading(2, "Questions"))
    for number, question in enumerate(exercise.questions, start=1):
        blocks += _question_heading(exercise, number, question.id, level=3)
        blocks.append(Blank("Answer"))
    return blocks


def _question_heading(exercise: Exercise, number: int, question_id: str, level: int) -> list[Block]:
    """"3. rr-dark-cat: ..." in words, then the measure it asks: spelled out for a question with its own prompt,
    and its exact name (as the exercise file and IR Lab spell it) where the words do not show it."""
    question = exercise.question(question_id)
    wording = question_wording(exercise, question)
    blocks: list[Block] = [Heading(level, f"{number}. {question.id}: {wording.text}")]
    exact = f" (exact name: {wording.exact})" if wording.exact_differs else ""
    if question.prompt:
        queries = exercise.question_queries(question)
        where = f"the mean over the queries {', '.join(queries)}" if question.is_mean else f"query {question.query}"
        system = f", system {question.system}" if len(exercise.systems) > 1 else ""
        blocks.append(Paragraph(f"{wording.measure} for {where}{system}{exact}.", label="Measure:"))
    elif exact:
        blocks.append(Paragraph(wording.exact, label="Exact measure name:"))
    return blocks


def answer_key_blocks(exercise: Exercise) -> list[Block]:
    """The answer key's content: a summary table, then every answer with its breakdown."""
    labels = exercise.labels()
    key = answer_key(exercise)
    blocks: list[Block] = [Heading(1, _title(exercise, "Answer key: ")),
                           Paragraph(f"Answers within {format_number(exercise.tolerance)} of the exact value count "
                                     "as correct. Values are computed by IR Lab and shown to 4 decimals.")]
    blocks.append(Table(("#", "question", "measure", "query", "system", "answer"),
                        tuple((str(n), q.id, q.measure, q.query, q.system, b.display_value)
                              for n, (q, b) in enumerate(key, start=1))))
    for number, (question, breakdown) in enumerate(key, start=1):
        blocks += _question_heading(exercise, number, question.id, level=2)
        exact = "" if format_number(breakdown.value) == repr(breakdown.value) else f" (exactly {breakdown.value!r})"
        blocks.append(Paragraph(f"{breakdown.display_value}{exact}", label="Answer:"))
        blocks += breakdown_blocks(breakdown, labels)
        mistakes = likely_mistakes(exercise, question, breakdown)
        if mistakes:
            blocks.append(Paragraph("What known mistakes give (a student's answer near one of these points to it):",
                                    label="Common wrong answers."))
            blocks.append(Table(("mistake", "value"), tuple((m.mistake.title, m.breakdown.display_value)
                                                            for m in mistakes)))
    return blocks


def breakdown_blocks(breakdown: Breakdown, labels: Mapping[str, str], level: int = 3) -> list[Block]:
    """A breakdown as blocks: formula in words and LaTeX, numbers plugged in, rows, notes, parts.

    A mean's parts (one per query) are shown in full under their own headings; other parts
    (DCG and IDCG of NDCG, the confusion counts of precision and recall) as one line each.
    """
    blocks: list[Block] = [Paragraph(breakdown.symbolic_text, label="Formula:"), Code(breakdown.symbolic),
                           Paragraph(breakdown.plugged_text, label="With the numbers:")]
    is_mean = any(column.key == "query" for column in breakdown.columns)
    if not is_mean:
        for name, part in breakdown.parts.items():
            blocks.append(Paragraph(part.plugged_text, label=f"{name}:"))
    if breakdown.rows:
        columns = [c for c in breakdown.columns if any(row.get(c.key) is not None for row in breakdown.rows)]
        blocks.append(Table(tuple(c.label for c in columns),
                            tuple(tuple(_cell(row.get(c.key), c.key, labels) for c in columns)
                                  for row in breakdown.rows)))
    blocks += [Paragraph(note, label="Note:") for note in breakdown.notes]
    if is_mean:
        for query, part in breakdown.parts.items():
            blocks.append(Heading(level, f"Query {query}: {part.measure} = {part.display_value}"))
            blocks += breakdown_blocks(part, labels, level + 1)
    return blocks


def _cell(value: Any, key: str, labels: Mapping[str, str]) -> str:
    if value is None:
        return ""
    if key in ("item", "ideal_item") and value in labels:
        return f"{value}: {labels[value]}"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (int, float)):
        return format_number(value)
    return str(value)


# ---------------------------------------------------------------------------------------------
# Markdown
# ---------------------------------------------------------------------------------------------

def render_markdown(blocks: Sequence[Block]) -> str:
    """Blocks as GitHub-flavoured Markdown; every text is escaped."""
    out = []
    for block in blocks:
        if isinstance(block, Heading):
            out.append("#" * block.level + " " + markdown_text(block.text))
        elif isinstance(block, Paragraph):
            lead = f"**{markdown_text(block.label)}** " if block.label else ""
            out.append(lead + markdown_text(block.text, line_start=not block.label))
        elif isinstance(block, Prose):
            out.append(markdown_paragraphs(block.text))
        elif isinstance(block, Table):
            out.append(_markdown_table(block))
        elif isinstance(block, Code):
            out.append(code_block(block.text, "latex"))
        elif isinstance(block, Blank):
            out.append(f"**{markdown_text(block.label)}:** " + "\\_" * 24)
    return "\n\n".join(out) + "\n"


def _markdown_table(table: Table) -> str:
    def row(cells: Sequence[str]) -> str:
        return "| " + " | ".join(markdown_text(cell) or " " for cell in cells) + " |"
    lines = [row(table.header), "|" + "|".join(" --- " for _ in table.header) + "|"]
    lines += [row(cells) for cells in table.rows]
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# HTML
# ---------------------------------------------------------------------------------------------

_CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; line-height: 1.45;
       max-width: 52rem; margin: 2rem auto; padding: 0 1rem; color: #1b1f24; }
h1 { font-size: 1.7rem; } h2 { font-size: 1.35rem; margin-top: 2rem; } h3 { font-size: 1.1rem; }
table { border-collapse: collapse; margin: 0.5rem 0 1rem; }
th, td { border: 1px solid #b8c0cc; padding: 0.2rem 0.55rem; text-align: left; vertical-align: top; }
th { background: #eef1f5; }
pre { background: #f5f7fa; padding: 0.5rem 0.75rem; overflow-x: auto; white-space: pre-wrap; }
.blank .line { display: inline-block; min-width: 14rem; border-bottom: 1px solid #1b1f24; height: 1.1rem; }
@media print {
  body { margin: 0; max-width: none; font-size: 11pt; }
  h2, h3 { break-after: avoid; page-break-after: avoid; }
  table, pre, .blank { break-inside: avoid; page-break-inside: avoid; }
  th { background: none; }
}
""".strip()


def render_html(blocks: Sequence[Block], title: str) -> str:
    """Blocks as a standalone HTML page (no scripts); every text is escaped."""
    body = []
    for block in blocks:
        if isinstance(block, Heading):
            body.append(f"<h{block.level}>{_esc(block.text)}</h{block.level}>")
        elif isinstance(block, Paragraph):
            lead = f"<strong>{_esc(block.label)}</strong> " if block.label else ""
            body.append(f"<p>{lead}{_esc(block.text)}</p>")
        elif isinstance(block, Prose):
            body.append(html_paragraphs(block.text))
        elif isinstance(block, Table):
            head = "".join(f"<th>{_esc(cell)}</th>" for cell in block.header)
            rows = "\n".join("<tr>" + "".join(f"<td>{_esc(cell)}</td>" for cell in cells) + "</tr>"
                             for cells in block.rows)
            body.append(f"<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n{rows}\n</tbody>\n</table>")
        elif isinstance(block, Code):
            body.append(f"<pre><code>{_esc(block.text)}</code></pre>")
        elif isinstance(block, Blank):
            body.append(f'<p class="blank"><strong>{_esc(block.label)}:</strong> <span class="line"></span></p>')
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<title>{_esc(title)}</title>\n<style>\n{_CSS}\n</style>\n</head>\n<body>\n"
            + "\n".join(body) + "\n</body>\n</html>\n")


def _esc(text: str) -> str:
    return html.escape(str(text), quote=True)


# ---------------------------------------------------------------------------------------------
# The four documents
# ---------------------------------------------------------------------------------------------

def worksheet_markdown(exercise: Exercise) -> str:
    """The worksheet in Markdown."""
    return render_markdown(worksheet_blocks(exercise))


def worksheet_html(exercise: Exercise) -> str:
    """The worksheet as a standalone HTML page."""
    return render_html(worksheet_blocks(exercise), _title(exercise))


def answer_key_markdown(exercise: Exercise) -> str:
    """The answer key with full breakdowns in Markdown."""
    return render_markdown(answer_key_blocks(exercise))


def answer_key_html(exercise: Exercise) -> str:
    """The answer key with full breakdowns as a standalone HTML page."""
    return render_html(answer_key_blocks(exercise), _title(exercise, "Answer key: "))
