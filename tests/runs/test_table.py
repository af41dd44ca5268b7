"""The results table (irlab.runs.table) against scipy, and its exports (irlab.runs.table_export) as text,
Markdown (rendered by markdown-it-py), LaTeX (its structure checked as text) and CSV."""

from __future__ import annotations

import csv
import io
import json
import re

import numpy as np
import pytest
from markdown_it import MarkdownIt
from scipy import stats

from irlab.errors import ValidationError
from irlab.runs.coverage import Coverage
from irlab.runs.significance import SEED, adjust, bootstrap_interval, tukey_hsd
from irlab.runs.table import how_to_read, results_table
from irlab.runs.table_export import per_query_csv, table_csv, table_json, table_latex, table_markdown, table_text

TOPICS = [str(401 + i) for i in range(40)]


def collection(seed: int = 0, names: tuple[str, ...] = ("bm25", "dense", "close", "weak")) -> dict:
    rng = np.random.default_rng(seed)
    base = rng.uniform(0.1, 0.7, len(TOPICS))
    shifts = {"bm25": 0.0, "dense": 0.12, "close": 0.005, "weak": -0.1}
    values = {}
    for i, name in enumerate(names):
        shift = shifts.get(name, 0.02 * i)
        ap = np.clip(base + shift + rng.normal(0, 0.05, len(TOPICS)), 0, 1)
        values[name] = {"AP": ap, "P@10": np.round(np.clip(ap + rng.normal(0, 0.05, len(TOPICS)), 0, 1), 1)}
    return values


@pytest.mark.parametrize("test", ["t", "wilcoxon", "randomisation"])
@pytest.mark.parametrize("correction", ["holm", "bonferroni", "bh", "none"])
def test_every_p_value_is_scipys_corrected_over_each_measure(test, correction):
    values = collection()
    table = results_table(values, TOPICS, test=test, correction=correction)
    assert table.baselines == ("bm25",) and table.family_size == 3
    for measure in ("AP", "P@10"):
        raw = []
        for run in ("dense", "close", "weak"):
            d = values[run][measure] - values["bm25"][measure]
            if test == "t":
                p = stats.ttest_rel(values[run][measure], values["bm25"][measure]).pvalue
            elif test == "wilcoxon":
                p = stats.wilcoxon(d[np.abs(d) > 1e-12]).pvalue
            else:
                p = stats.permutation_test((d,), np.mean, permutation_type="samples", n_resamples=10_000,
                                           rng=np.random.default_rng(SEED)).pvalue
            raw.append(p)
            pair = table.comparison(run, "bm25", measure)
            assert pair.p == pytest.approx(p, rel=1e-12, abs=1e-300)
            assert (pair.wins, pair.ties, pair.losses) == (int((d > 1e-12).sum()), int((abs(d) <= 1e-12).sum()),
                                                           int((d < -1e-12).sum()))
            assert pair.mean_difference == pytest.approx(d.mean())
        adjusted = adjust(raw, correction)
        for run, q in zip(("dense", "close", "weak"), adjusted):
            pair = table.comparison(run, "bm25", measure)
            assert pair.p_adjusted == pytest.approx(q, rel=1e-12, abs=1e-300)
            marked = [m.text for m in table.cell(run, measure).markers]
            expected = ([("▲" if pair.mean_difference > 0 else "▼") + "a"] if q < 0.05 else [])
            assert marked == expected


def test_cells_means_intervals_best_and_letters():
    values = collection(1)
    table = results_table(values, TOPICS)
    assert table.letters == {"bm25": "a", "dense": "b", "close": "c", "weak": "d"}
    for run in values:
        cell = table.cell(run, "AP")
        assert cell.mean == pytest.approx(values[run]["AP"].mean())
        assert (cell.ci_low, cell.ci_high) == bootstrap_interval(values[run]["AP"])
        assert cell.ci_low < cell.mean < cell.ci_high
    assert [run for run in values if table.cell(run, "AP").best] == ["dense"]
    assert table.cell("dense", "AP").text.endswith("▲a") and table.cell("weak", "AP").text.endswith("▼a")
    assert not table.cell("bm25", "AP").markers  # a baseline's cell carries no marks against the runs
    again = results_table(values, TOPICS)
    assert again.cell("dense", "AP").interval == table.cell("dense", "AP").interval  # seeded


def test_several_baselines_each_get_their_comparisons_and_family():
    values = collection(2)
    table = results_table(values, TOPICS, baselines=["bm25", "weak"], correction="bonferroni")
    assert table.family_size == 6  # 3 runs against bm25, 3 against weak
    dense = [m.text for m in table.cell("dense", "AP").markers]
    assert dense == ["▲a", "▲d"]
    with pytest.raises(ValidationError, match="the baseline 'nope' is not one of the runs"):
        results_table(values, TOPICS, baselines=["nope"])


def test_tukey_compares_every_pair_without_a_further_correction():
    values = collection(3)
    table = results_table(values, TOPICS, test="tukey", correction="holm")
    assert table.all_pairs and table.correction == "none" and table.family_size == 6
    matrix = tukey_hsd(np.vstack([values[run]["AP"] for run in values]))
    pair = table.comparison("dense", "weak", "AP")
    assert pair.p == pytest.approx(matrix[1, 3]) and pair.p == pair.p_adjusted
    texts = {run: [m.text for m in table.cell(run, "AP").markers] for run in values}
    assert "▲d" in texts["dense"] and "▼b" in texts["weak"]  # both sides of a pair are marked
    assert "Tukey's HSD compares every pair" in how_to_read(table)


def test_bad_settings_are_refused():
    values = collection()
    for kwargs, message in [({"test": "sign"}, "the test must be one of"),
                            ({"correction": "sidak"}, "the correction must be one of"),
                            ({"alpha": 1.5}, "between 0 and 1")]:
        with pytest.raises(ValidationError, match=message):
            results_table(values, TOPICS, **kwargs)
    with pytest.raises(ValidationError, match="one value per topic"):
        results_table({"a": {"AP": [0.1, 0.2]}}, TOPICS)


HOSTILE = "<img src=x onerror=alert(1)>|**run**_{x}$&%#~^\\[link](http://e.vil)=SUM(A1)"


def hostile_table():
    values = collection(4, names=("bm25", HOSTILE, "=cmd|' /C calc'!A0"))
    return results_table(values, TOPICS, coverage={HOSTILE: Coverage(HOSTILE, 41, ("441",), 0, {"AP": (0.3, 0.31)})})


def test_markdown_renders_as_a_table_that_shows_names_as_text():
    table = hostile_table()
    html = MarkdownIt("commonmark").enable("table").render(table_markdown(table))
    rows = re.findall(r"<tr>(.*?)</tr>", html, flags=re.S)
    assert len(rows) == 1 + 3  # the header and one row per run
    cells = [re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, flags=re.S) for row in rows]
    assert all(len(row) == 2 + 2 for row in cells)
    assert "<img" not in html and "<a " not in html and "<em>" not in html.split("</thead>")[1].split("<strong>")[0]
    shown = cells[2][1]
    assert shown.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&").replace("&quot;", '"') == HOSTILE
    best = [c for row in cells[1:] for c in row if "<strong>" in c]
    assert len(best) == 2  # the best mean of each measure is bold
    legend = table_markdown(table, legend=True)
    assert "Runs have letters" in MarkdownIt("commonmark").render(legend)


def test_markdown_escapes_only_what_markdown_reads():
    """Issue 37: the raw Markdown read "P\\@10" and "results\\.test"; it should read as typed."""
    values = collection(4, names=("results.test", "bm25+rm3 (k=10)", "run_2"))
    table = results_table({run: {"P@10": v["AP"]} for run, v in values.items()}, TOPICS)
    markdown = table_markdown(table, legend=True)
    assert "| P@10 |" in markdown and "| results.test |" in markdown and "| bm25+rm3 (k=10) |" in markdown
    assert "run\\_2" in markdown and "\\@" not in markdown and "\\." not in markdown
    html = MarkdownIt("commonmark").enable("table").render(markdown)
    assert ">P@10</th>" in html and "<td>results.test</td>" in html and "<td>run_2</td>" in html


def test_latex_is_a_booktabs_tabular_with_escaped_names_bold_best_and_superscript_markers():
    table = hostile_table()
    latex = table_latex(table)
    body = latex.split("\\begin{tabular}{")[1]
    columns, rest = body.split("}", 1)
    assert columns == "llrr"
    assert [line for line in latex.splitlines() if line in ("\\toprule", "\\midrule", "\\bottomrule")] == [
        "\\toprule", "\\midrule", "\\bottomrule"]
    rows = [line for line in rest.splitlines() if line.endswith("\\\\")]
    assert len(rows) == 4
    for row in rows:  # every row has as many cells as the column spec, and no unescaped specials
        unescaped = re.sub(r"\\[&%$#_{}]", "", row[:-2])
        assert unescaped.count("&") == len(columns) - 1
        assert not re.search(r"(?<!\\)[%#$]", re.sub(r"\$\\blacktriangle(down)?\$", "", row))
    hostile_row = rows[2]
    assert "\\textless{}img src=x" in hostile_row and "<" not in hostile_row and "|" not in hostile_row
    assert "\\_\\{x\\}\\$\\&\\%\\#\\textasciitilde{}\\^{}\\textbackslash{}" in hostile_row
    assert latex.count("\\textbf{") == 2
    assert re.search(r"\\textsuperscript\{\$\\blacktriangle(down)?\$a\}", latex)
    assert latex.count("{") == latex.count("}") + latex.count("\\{") - latex.count("\\}")
    assert latex.startswith("% needs \\usepackage{booktabs} and \\usepackage{amssymb}")


def test_csv_neutralises_formulas_and_keeps_numbers():
    table = hostile_table()
    rows = list(csv.DictReader(io.StringIO(table_csv(table))))
    assert len(rows) == 2 * (1 + 1 + 1)  # per measure: the baseline's row, and one comparison per other run
    names = {row["run"] for row in rows}
    assert "'=cmd|' /C calc'!A0" in names and "bm25" in names
    assert all(not row[f].startswith(("=", "+", "-", "@")) for row in rows for f in ("run", "compared_with"))
    differences = [float(row["difference"]) for row in rows if row["difference"]]
    assert any(d < 0 for d in differences) or any(d > 0 for d in differences)
    per_query = list(csv.DictReader(io.StringIO(per_query_csv(table))))
    assert len(per_query) == 3 * 2 * len(TOPICS)
    assert {row["query"] for row in per_query} == set(TOPICS)


def test_text_and_json_hold_the_same_numbers():
    table = results_table(collection(5), TOPICS, test="randomisation")
    text = table_text(table)
    document = json.loads(table_json(table))
    for row in document["rows"]:
        assert f"{row['mean']:.4f}" in text
    assert "How to read this table" in text and "randomisation" in text
    assert document["test"].startswith("paired randomisation test")


def test_all_pairs_give_wins_ties_and_losses_for_every_pair_once():
    values = {"a": {"AP": [0.1, 0.2, 0.3, 0.4]}, "b": {"AP": [0.2, 0.2, 0.4, 0.3]}, "c": {"AP": [0.3, 0.1, 0.5, 0.4]}}
    table = results_table(values, ["1", "2", "3", "4"], all_pairs=True)
    markdown = table_markdown(table, legend=True)
    assert re.findall(r"Wins / ties / losses against (\w)", markdown) == ["a", "b"]
    # c against b: c is better on topics 1, 3 and 4, worse on 2
    assert "| c | c | 3/0/1 |" in markdown.split("against b")[1]
    assert len(re.findall(r"wins / ties / losses against", table_text(table))) == 2
