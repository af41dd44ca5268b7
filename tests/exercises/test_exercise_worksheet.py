"""Worksheets, answer keys and CSV answer keys: they hold the answers and escape every user string."""

from __future__ import annotations

import csv
import html
import io
import re
from html.parser import HTMLParser

import pytest

from irlab.exercises import (
    answer_key,
    answer_key_csv,
    answer_key_html,
    answer_key_markdown,
    exercise_from_dict,
    exercise_notebook,
    explain_question,
    make_variant,
    notebook_text,
    worksheet_html,
    worksheet_markdown,
)
from irlab.exercises.exports.csv_key import COLUMNS


class _Tags(HTMLParser):
    """Collects the tags and attributes of an HTML page."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.attributes: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attributes += [name for name, _ in attrs]


def _tags(page: str) -> _Tags:
    parser = _Tags()
    parser.feed(page)
    return parser


@pytest.mark.parametrize("render", [worksheet_html, answer_key_html])
def test_html_escapes_every_user_string(evil, evil_label, render):
    page = render(evil)
    assert evil_label not in page and "<img" not in page and "<b>" not in page and "<i>" not in page
    assert html.escape(evil_label) in page
    parsed = _tags(page)
    assert "script" not in parsed.tags and "img" not in parsed.tags and "a" not in parsed.tags
    assert not [name for name in parsed.attributes if name.startswith("on") or name == "href"]
    assert page.startswith("<!DOCTYPE html>") and "@media print" in page


@pytest.mark.parametrize("render", [worksheet_markdown, answer_key_markdown])
def test_markdown_escapes_every_user_string(evil, evil_label, render):
    text = render(evil)
    assert evil_label not in text and "<img" not in text and "<b>" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert "[click me](javascript" not in text and r"\[click me\](javascript:alert(1)) \*\*bold\*\*" in text
    if render is worksheet_markdown:  # the instructions are on the worksheet only
        assert "\n# Not a heading" not in text and r"\# Not a heading" in text
        assert "$x$" not in text and r"\$x\$" in text and r"\`code\`" in text


def test_the_notebook_holds_labels_as_string_literals_and_escapes_markdown(evil, evil_label):
    notebook = exercise_notebook(evil, solutions=True)
    code = "\n".join(c.source for c in notebook.cells if c.cell_type == "code")
    markdown = "\n".join(c.source for c in notebook.cells if c.cell_type == "markdown")
    assert repr(evil_label) in code
    assert evil_label not in markdown and "<img" not in markdown and "<b>" not in markdown
    compile("\n".join(c.source for c in notebook.cells if c.cell_type == "code" and not c.source.startswith("%%")),
            "<nb>", "exec")
    assert "import irlab" not in notebook_text(notebook)


def test_worksheet_has_data_questions_and_blanks_but_no_answers(ndcg):
    text = worksheet_markdown(ndcg)
    assert "Järvelin–Kekäläinen" in text
    assert text.count("**Answer:**") == len(ndcg.questions)
    for question in ndcg.questions:
        assert question.id in text
    assert "0.7992" not in text and "0\\.7992" not in text
    page = worksheet_html(ndcg)
    assert page.count('class="blank"') == len(ndcg.questions) and "0.7992" not in page


@pytest.mark.parametrize("render", [answer_key_markdown, answer_key_html])
def test_answer_keys_hold_every_answer_with_its_breakdown(cats, render):
    text = render(cats)
    plain = html.unescape(text).replace("\\", "")
    for _, breakdown in answer_key(cats):
        assert breakdown.display_value in plain
        assert html.unescape(breakdown.plugged_text) in plain
    assert r"\mathrm{NDCG@}K = \frac{\mathrm{DCG@}K}{\mathrm{IDCG@}K}" in html.unescape(text)  # LaTeX source
    mean = explain_question(cats, cats.question("map8"))
    assert mean.plugged_text in plain and len(mean.parts) == 3
    for part in mean.parts.values():  # a mean's parts, in full
        assert html.unescape(part.plugged_text) in plain
    assert "2: White cat in a box" in plain  # per-rank rows name the items
    assert "recall divided by min(K, R)" in plain  # common wrong answers


def test_csv_answer_key_for_one_exercise_and_for_variants(ndcg):
    rows = list(csv.DictReader(io.StringIO(answer_key_csv(ndcg))))
    assert tuple(rows[0]) == COLUMNS == ("question_id", "seed", "query", "system", "measure", "answer")
    assert [(r["question_id"], round(float(r["answer"]), 4)) for r in rows] == [
        ("ndcg5-q1", 0.7992), ("ndcg10-q1", 0.7992), ("ndcg5-q2", 0.5493), ("ndcg10-q2", 0.7055),
        ("ndcg5-q3", 0.908), ("ndcg10-q3", 0.9486)]
    assert {r["seed"] for r in rows} == {""} and rows[0]["measure"] == "nDCG(discount='jarvelin-kekalainen')@5"
    variants = [make_variant(ndcg, seed) for seed in (1, 2, 3)]
    rows = list(csv.DictReader(io.StringIO(answer_key_csv(variants))))
    assert len(rows) == 18 and [r["seed"] for r in rows[::6]] == ["1", "2", "3"]
    for row in rows:
        variant = variants[int(row["seed"]) - 1]
        expected = {q.id: b.value for q, b in answer_key(variant)}[row["question_id"]]
        assert float(row["answer"]) == expected  # to the last digit


def test_csv_cells_cannot_run_as_spreadsheet_formulas(small_dict):
    small_dict["questions"][0]["id"] = "=HYPERLINK(1)"
    small_dict["queries"][0]["id"] = "@q1"
    small_dict["systems"][0]["rankings"]["@q1"] = small_dict["systems"][0]["rankings"].pop("q1")
    small_dict["questions"][0]["query"] = "@q1"
    rows = list(csv.reader(io.StringIO(answer_key_csv(exercise_from_dict(small_dict)))))
    assert rows[1][0] == "'=HYPERLINK(1)" and rows[1][2] == "'@q1"


def test_answer_key_html_shows_latex_as_readable_text_without_javascript(cats):
    page = answer_key_html(cats)
    assert "<script" not in page and "katex" not in page.lower() and "mathjax" not in page.lower()
    assert re.search(r"<pre><code>\\mathrm\{Recall@\}K", page)


def test_judgments_are_listed_in_item_order(small_dict):
    from irlab.exercises import exercise_from_dict, worksheet_markdown

    small_dict["queries"][0]["judgments"] = {"b": 1, "a": 3}  # the file judges b before a
    text = worksheet_markdown(exercise_from_dict(small_dict))
    section = text[text.index("Query q1"):]
    assert section.index("Doc A") < section.index("Doc B")
