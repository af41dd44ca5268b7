r"""A results table (:mod:`irlab.runs.table`) as text, Markdown, LaTeX, CSV and JSON.

Every format shows the same numbers: means to 4 decimals, the 95% interval, markers ▲/▼ with the
letter of the run compared with (in LaTeX, :math:`\blacktriangle`/:math:`\blacktriangledown` as
superscripts), the best mean of each measure in bold (text has no bold: a ``*`` after it). Run and
measure names come from users, so each format escapes them: Markdown backslash-escapes only the
characters Markdown would read as markup (``P@10`` and ``results.test`` stay as they are; nothing
in a name becomes a link, HTML, emphasis, math or a table column), LaTeX escapes
its ten special characters (and ``< > |``, which its default fonts print as other glyphs), CSV
puts ``'`` before a text cell a spreadsheet would run as a formula (``= + - @``, tab, carriage
return), and control characters become spaces everywhere.

>>> from irlab.runs.table import results_table
>>> t = results_table({"bm25": {"AP": [0.2, 0.3, 0.1, 0.4]}, "my_run": {"AP": [0.4, 0.5, 0.2, 0.6]}},
...                   ["1", "2", "3", "4"])
>>> print(table_markdown(t, intervals=False))
| | run | AP |
|---|---|---:|
| a | bm25 | 0.2500 |
| b | my\_run | **0.4250** ▲a |
>>> print(latex_text("50% of my_run & {x}"))
50\% of my\_run \& \{x\}
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
from collections.abc import Iterator

from irlab.runs.table import ResultsTable, how_to_read

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_LATEX = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&", "#": r"\#", "^": r"\^{}",
          "_": r"\_", "%": r"\%", "~": r"\textasciitilde{}", "<": r"\textless{}", ">": r"\textgreater{}",
          "|": r"\textbar{}"}
"""LaTeX's ten special characters, and three that the default (OT1) fonts print as other glyphs."""
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def plain_text(name: str) -> str:
    """A user's name with control characters (terminal escapes, line breaks) replaced by spaces.

    >>> plain_text("run\\x1b[2J\\nA")
    'run [2J A'
    """
    return _CONTROL.sub(" ", str(name))


def markdown_text(name: str) -> str:
    r"""A name as Markdown that shows exactly the name, escaping only what Markdown would read as markup.

    Escaped with a backslash: ``\ ` * _ [ ] < | ~ $`` everywhere (emphasis, code, links and images,
    HTML and autolinks, table columns, strikethrough, GitHub's math), and ``(`` after ``]`` (a link's
    target, in case a renderer reads escaped brackets); ``&`` before an entity
    (``&amp;``); the ``:`` of ``scheme://``, the ``.`` of ``www.`` and the ``@`` of an e-mail address
    (GitHub turns those into links by themselves); and a start that would make a block (``# x``,
    ``>``, ``- x``, ``1. x``, ``---``). Everything else stays as typed, so a measure reads ``P@10``
    and a run ``results.test`` in the Markdown text too.

    >>> markdown_text("P@10"), markdown_text("results.test"), markdown_text("my_run")
    ('P@10', 'results.test', 'my\\_run')
    >>> print(markdown_text("[click](http://x) <b>*a*|b</b> &amp; 1 $x$"))
    \[click\]\(http\://x) \<b>\*a\*\|b\</b> \&amp; 1 \$x\$
    >>> print(markdown_text("# run@lab.org, www.lab.org"), markdown_text("1. first"), markdown_text("- x"),
    ...       markdown_text("-x 1.5"))
    \# run\@lab.org, www\.lab.org 1\. first \- x -x 1.5
    """
    text = _MARKUP.sub(r"\\\g<0>", plain_text(name))
    return _BLOCK_START.sub(lambda m: m.group()[:-1] + "\\" + m.group()[-1], text, count=1)


_MARKUP = re.compile(r"[\\`*_\[\]<|~$]|(?<=\])\(|&(?=#?\w+;)|(?<=[A-Za-z])[:](?=//)|(?<=\bwww)\.|"
                     r"(?<=[\w.+-])@(?=[\w-]+\.\w)")
"""The characters of a name Markdown (CommonMark with GitHub's tables, strikethrough, math and autolinks) reads."""
_BLOCK_START = re.compile(r"^\s*(?:>|[#+-](?=\s|$)|\d+[.)](?=\s|$)|(?=[-=]+\s*$)[-=])")
"""A first character that would make the line a heading, quote, list or setext underline."""


def latex_text(name: str) -> str:
    """A name as LaTeX text: its ten special characters escaped (see the module's example)."""
    return "".join(_LATEX.get(c, c) for c in plain_text(name))


def spreadsheet_cell(value: object) -> object:
    """A CSV cell no spreadsheet runs as a formula: text starting with ``= + - @``, tab or CR gets ``'``.

    Numbers stay numbers (``-0.25`` is a number, not a formula).

    >>> spreadsheet_cell("=HYPERLINK(\\"x\\")"), spreadsheet_cell("-run"), spreadsheet_cell(-0.25)
    ('\\'=HYPERLINK("x")', "'-run", -0.25)
    """
    if isinstance(value, str):
        text = _CONTROL.sub(" ", value) if not value.startswith(("\t", "\r")) else value
        return "'" + text if text.startswith(_FORMULA_START) else text
    return value


# --- text (the command line) -------------------------------------------------------------------------

def table_text(table: ResultsTable, *, intervals: bool = True) -> str:
    """The table as aligned plain text, wins/ties/losses below it, then coverage and how to read it."""
    header = ["", "run", *(plain_text(m) for m in table.measures)]
    rows = []
    for run in table.runs:
        cells = []
        for measure in table.measures:
            cell = table.cell(run, measure)
            text = _number(cell.mean) + ("*" if cell.best else " ")
            text += ("".join(m.text for m in cell.markers)).ljust(_marks_width(table, measure))
            cells.append(text + (f" {cell.interval}" if intervals else ""))
        rows.append([table.letters[run], plain_text(run), *cells])
    lines = [_settings(table), "", *_aligned([header, *rows])]
    for against, others in table.wtl_groups:
        lines += ["", f"wins / ties / losses against {table.letters[against]} ({plain_text(against)}): topics where "
                      "the run is better / equal / worse"]
        wtl = [[table.letters[run], plain_text(run),
                *(table.comparison(run, against, measure).record() for measure in table.measures)] for run in others]
        lines += _aligned([header, *wtl])
    missed = [c for c in table.coverage.values() if c.missed]
    if missed:
        lines += [""] + [plain_text(c.sentence(list(table.measures), counted=table.missed_count)) for c in missed]
    lines += ["", "How to read this table"]
    for paragraph in how_to_read(table, name=plain_text).split("\n\n"):
        lines += ["", _wrapped(paragraph)]
    return "\n".join(lines) + "\n"


def _wrapped(paragraph: str, width: int = 100) -> str:
    import textwrap

    return textwrap.fill(paragraph, width)


def _marks_width(table: ResultsTable, measure: str) -> int:
    return max((len("".join(m.text for m in table.cell(run, measure).markers)) for run in table.runs), default=0)


def _aligned(rows: list[list[str]]) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in rows]


def _settings(table: ResultsTable) -> str:
    from irlab.runs.significance import CORRECTIONS, TESTS

    against = "every pair of runs" if table.all_pairs else "baseline " + ", ".join(
        f"{table.letters[b]} ({plain_text(b)})" for b in table.baselines)
    fix = "" if table.test == "tukey" else f", {CORRECTIONS[table.correction]}"
    return (f"{', '.join(plain_text(m) for m in table.measures)} over {len(table.queries):,} topics; {against}; "
            f"{TESTS[table.test]}{fix}, alpha {table.alpha:g}; * best, ▲/▼ significantly better/worse than the run "
            "with that letter")


# --- Markdown -------------------------------------------------------------------------------------------

def table_markdown(table: ResultsTable, *, intervals: bool = True, legend: bool = False) -> str:
    """A Markdown (GitHub) pipe table: the best mean in bold, markers after it, the interval in brackets."""
    lines = ["| | run | " + " | ".join(markdown_text(m) for m in table.measures) + " |",
             "|---|---|" + "---:|" * len(table.measures)]
    for run in table.runs:
        cells = []
        for measure in table.measures:
            cell = table.cell(run, measure)
            text = f"**{_number(cell.mean)}**" if cell.best else _number(cell.mean)
            if cell.markers:
                text += " " + "".join(m.text for m in cell.markers)
            if intervals:
                text += f" {cell.interval}"
            cells.append(text)
        lines.append(f"| {table.letters[run]} | {markdown_text(run)} | " + " | ".join(cells) + " |")
    if legend:
        for against, others in table.wtl_groups:
            lines += ["", f"Wins / ties / losses against {table.letters[against]} ({markdown_text(against)}): "
                          "topics where the run is better / equal / worse", "",
                      "| | run | " + " | ".join(markdown_text(m) for m in table.measures) + " |",
                      "|---|---|" + "---:|" * len(table.measures)]
            lines += [f"| {table.letters[run]} | {markdown_text(run)} | "
                      + " | ".join(table.comparison(run, against, m).record() for m in table.measures) + " |"
                      for run in others]
        missed = [c for c in table.coverage.values() if c.missed]
        lines += ["", *(markdown_text(c.sentence(list(table.measures), counted=table.missed_count)) + "\n"
                        for c in missed)]
        lines += [p + "\n" for p in how_to_read(table, name=markdown_text).split("\n\n")]
    return "\n".join(lines).rstrip("\n") + ("\n" if legend else "")


# --- LaTeX ----------------------------------------------------------------------------------------------

def table_latex(table: ResultsTable, *, intervals: bool = False) -> str:
    r"""A LaTeX ``tabular`` with booktabs rules: the best mean in ``\textbf``, markers as superscripts.

    Needs ``\usepackage{booktabs}`` and ``\usepackage{amssymb}`` (for the triangles), as its first
    comment line says.
    """
    from irlab.runs.significance import CORRECTIONS, TESTS

    fix = "" if table.test == "tukey" else f", {CORRECTIONS[table.correction]}"
    lines = [r"% needs \usepackage{booktabs} and \usepackage{amssymb}",
             f"% {len(table.queries):,} topics; {TESTS[table.test]}{fix}, alpha {table.alpha:g}; "
             r"$^{\blacktriangle x}$ / $^{\blacktriangledown x}$: significantly better / worse than run x",
             r"\begin{tabular}{ll" + "r" * len(table.measures) + "}",
             r"\toprule",
             " & Run & " + " & ".join(latex_text(m) for m in table.measures) + r" \\",
             r"\midrule"]
    for run in table.runs:
        cells = []
        for measure in table.measures:
            cell = table.cell(run, measure)
            text = rf"\textbf{{{_number(cell.mean)}}}" if cell.best else _number(cell.mean)
            if cell.markers:
                marks = "".join((r"$\blacktriangle$" if m.better else r"$\blacktriangledown$") + m.letter
                                for m in cell.markers)
                text += rf"\textsuperscript{{{marks}}}"
            if intervals:
                text += rf" {{\scriptsize {latex_text(cell.interval)}}}"
            cells.append(text)
        lines.append(f"{table.letters[run]} & {latex_text(run)} & " + " & ".join(cells) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}"]
    return "\n".join(lines) + "\n"


# --- CSV and JSON -----------------------------------------------------------------------------------------

CSV_FIELDS = ("run", "letter", "measure", "mean", "ci_low", "ci_high", "best", "compared_with", "difference", "wins",
              "ties", "losses", "p", "p_adjusted", "significant", "marker")


def table_csv(table: ResultsTable) -> str:
    """One row per cell and comparison (a cell without comparisons has one row with those fields empty)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_FIELDS)
    for record in table_records(table):
        writer.writerow([spreadsheet_cell("" if record[f] is None else record[f]) for f in CSV_FIELDS])
    return out.getvalue()


def table_records(table: ResultsTable) -> Iterator[dict]:
    """The rows of :func:`table_csv` as dicts (numbers as numbers, undefined as None)."""
    for run in table.runs:
        for measure in table.measures:
            cell = table.cell(run, measure)
            base = {"run": run, "letter": table.letters[run], "measure": measure, "mean": _plain(cell.mean),
                    "ci_low": _plain(cell.ci_low), "ci_high": _plain(cell.ci_high), "best": cell.best}
            pairs = table.comparisons_of(run, measure)
            if not pairs:
                yield {**base, **dict.fromkeys(CSV_FIELDS[7:])}
            for pair in pairs:
                other = pair.against
                marker = ("▲" if pair.mean_difference > 0 else "▼") + table.letters[other] if pair.significant else ""
                yield {**base, "compared_with": other, "difference": _plain(pair.mean_difference), "wins": pair.wins,
                       "ties": pair.ties, "losses": pair.losses, "p": _plain(pair.p),
                       "p_adjusted": _plain(pair.p_adjusted), "significant": pair.significant, "marker": marker}


def table_json(table: ResultsTable) -> str:
    """The table's settings, cells and comparisons as JSON."""
    from irlab.runs.significance import CORRECTIONS, TESTS

    document = {"topics": len(table.queries), "test": TESTS[table.test], "correction": CORRECTIONS[table.correction],
                "alpha": table.alpha, "baselines": list(table.baselines), "all_pairs": table.all_pairs,
                "letters": table.letters, "rows": list(table_records(table)),
                "coverage": {run: {"judged": c.judged, "missed": list(c.missed),
                                   "means": {m: {"all_judged": v[0], "ranked_only": v[1]} for m, v in c.means.items()}}
                             for run, c in table.coverage.items()}}
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def per_query_csv(table: ResultsTable) -> str:
    """Every run's value on every topic and measure: run, measure, query, value."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["run", "measure", "query", "value"])
    for run in table.runs:
        for measure in table.measures:
            for query, value in zip(table.queries, table.per_query[run][measure].tolist()):
                writer.writerow([spreadsheet_cell(run), spreadsheet_cell(measure), spreadsheet_cell(query),
                                 _plain(value)])
    return out.getvalue()


def _plain(value: float) -> float | None:
    return None if isinstance(value, float) and math.isnan(value) else value


def _number(value: float) -> str:
    return "—" if math.isnan(value) else f"{value:.4f}"
