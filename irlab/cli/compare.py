"""``python -m irlab compare QRELS RUN RUN [RUN ...]``: a paper's results table of several runs, with significance.

For each measure (``-m``/``--measure``, repeatable; default AP, P@10, nDCG@10) and run: the mean over the
topics with its 95% bootstrap interval; each run against the baseline (``--baseline``,
repeatable; default the first run) or every pair (``--all-pairs``), by a paired test
(``--test t|wilcoxon|randomisation|tukey``) with a correction over the comparisons of each
measure (``--correction holm|bonferroni|bh|none``); ▲/▼ and a letter for significant
differences; wins / ties / losses; and what it all means, in words (:mod:`irlab.runs.table`).
``--format markdown|latex|csv|json`` writes the table for a paper or a script, ``--per-query FILE``
every run's value on every topic. With exactly two runs the text also gives every test, the
effect size and a verdict (:mod:`irlab.runs.compare`).

Every judged topic counts, as in TREC reports: a topic a run does not rank scores 0 for it, and
the output says per run how many it missed and what its mean would be without them
(``--ranked-only`` compares on the topics every run ranks instead, as trec_eval 9 did). Runs are
read topic by topic and in parallel (as ``irlab evaluate``), and the randomisation test draws
its sign flips in batches, so 10,000 topics fit in 1 GB.
"""

from __future__ import annotations

import argparse
import sys

HELP = "a results table of several runs: means, intervals, paired tests with a correction, wins/ties/losses"
DEFAULT_MEASURES = ("AP", "P@10", "nDCG@10")

EPILOG = """\
Topics: every judged topic; a topic a run does not rank counts 0 for it (trec_eval -c, as TREC
reports), and the output names such runs with their means without those topics. --ranked-only
uses only the topics every run ranks.

Tests: t (paired t-test, the default), wilcoxon (signed-rank), randomisation (10,000 random sign
flips, seeded: the same files give the same p-values), tukey (Tukey's HSD over all runs at once,
paired by topic; no further correction). The correction covers the comparisons of each measure.

examples:
  python -m irlab compare qrels.txt bm25.txt dense.txt
  python -m irlab compare -m nDCG@10 -m map --baseline bm25.txt --test randomisation qrels.txt bm25.txt a.txt b.txt
  python -m irlab compare --all-pairs --test tukey qrels.txt a.txt b.txt c.txt d.txt
  python -m irlab compare --format latex qrels.txt bm25.txt dense.txt > table.tex
  python -m irlab compare --format csv --per-query per-topic.csv qrels.txt a.txt b.txt > table.csv
"""


def register(commands: argparse._SubParsersAction) -> None:
    """Add the ``compare`` command."""
    parser = commands.add_parser("compare", help=HELP, description=HELP + ".", epilog=EPILOG,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("qrels", help="the qrels file: query iteration doc grade")
    parser.add_argument("runs", nargs="+", metavar="run", help="two or more run files")
    parser.add_argument("-m", "--measure", dest="measures", action="append", metavar="MEASURE",
                        help=f"a measure (repeatable; default {', '.join(DEFAULT_MEASURES)}); trec_eval's or "
                             "ir_measures' names")
    parser.add_argument("--baseline", action="append", metavar="RUN",
                        help="a run every other run is compared with (repeatable; default the first run); its file "
                             "name as given, or without the folder")
    parser.add_argument("--all-pairs", action="store_true", help="compare every pair of runs instead")
    parser.add_argument("--test", choices=("t", "wilcoxon", "randomisation", "tukey"), default="t",
                        help="the paired test (default t)")
    parser.add_argument("--correction", choices=("holm", "bonferroni", "bh", "none"), default="holm",
                        help="the correction for many comparisons, per measure (default holm)")
    parser.add_argument("--alpha", type=float, default=0.05, help="the significance level (default 0.05)")
    parser.add_argument("--format", choices=("text", "markdown", "latex", "csv", "json"), default="text",
                        help="output format (default text)")
    parser.add_argument("--per-query", metavar="FILE", help="also write every run's value per topic to FILE (CSV)")
    parser.add_argument("--ranked-only", action="store_true",
                        help="compare on the topics every run ranks (default: every judged topic, missed ones as 0)")
    parser.add_argument("-c", dest="complete", action="store_true",
                        help="count judged topics a run misses as 0 (the default; for trec_eval habits)")
    parser.add_argument("-l", dest="level", type=int, default=1, metavar="N", help="relevance level (default 1)")
    parser.add_argument("--budget", type=float, default=None, metavar="SECONDS",
                        help="stop with a message when the tests need more computing time than this")
    parser.add_argument("--max-size", type=int, default=1000, metavar="MB",
                        help="refuse files larger than this many MB (10^6 bytes) after decompression (default 1000)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Evaluate the runs, build the table and print it."""
    from dataclasses import replace
    from pathlib import Path

    import pyarrow as pa

    from irlab.cli.common import CliError
    from irlab.cli.evaluate import evaluate_files
    from irlab.metrics.measure_names import parse_measure
    from irlab.runs.coverage import coverage
    from irlab.runs.table import results_table
    from irlab.runs.trec import MB, read_bytes, sniff
    from irlab.runs.workspace import read_upload

    if len(args.runs) < 2:
        raise CliError("compare needs at least two runs (a baseline and a run to compare with it)")
    if args.max_size < 1:
        raise CliError(f"--max-size must be at least 1 MB, got {args.max_size}")
    if args.budget is not None and args.budget <= 0:
        raise CliError(f"--budget must be a number of seconds above 0, got {args.budget}")
    if len(set(args.runs)) != len(args.runs):
        raise CliError("a run file is given twice")
    limit = args.max_size * MB
    pa.set_memory_pool(pa.system_memory_pool())
    measures = {str(parse_measure(m)): parse_measure(m) for m in (args.measures or DEFAULT_MEASURES)}
    not_means = [name for name, m in measures.items() if m.definition.kind == "text" or m.definition.summary != "mean"]
    if not_means:
        raise CliError(f"{not_means[0]} is not the mean of a value per topic, so topics cannot be compared on it; "
                       "pick measures such as AP, P@10, nDCG@10")
    mixed_up = "; the qrels file comes first, then the runs"
    qrels = read_upload(read_bytes(args.qrels, limit=limit), args.qrels, "qrels", limit=limit, mixed_up=mixed_up)
    for path in args.runs:
        if path != "-" and sniff(_head(path)) == "qrels":
            raise CliError(f"{path}: this looks like a qrels file (query iteration doc grade), not a run file"
                           f"{mixed_up}")
    names = _names(args.runs)
    evaluations = evaluate_files(qrels, args.runs, measures, relevance_level=args.level,
                                 complete=not args.ranked_only, limit=limit)
    by_name = dict(zip(names, evaluations))
    queries = _common_queries(evaluations)
    if not queries:
        raise CliError("the runs rank no judged topic in common")
    values = {name: {m: _aligned(e, m, queries) for m in measures} for name, e in by_name.items()}
    baselines = [_run_named(b, args.runs, names) for b in args.baseline or []]
    table = results_table(values, queries, baselines=baselines or None, test=args.test, correction=args.correction,
                          all_pairs=args.all_pairs, alpha=args.alpha, budget=args.budget,
                          coverage={name: replace(coverage(e), run=name) for name, e in by_name.items()},
                          missed_count=not args.ranked_only)
    if args.per_query:
        from irlab.runs.table_export import per_query_csv

        Path(args.per_query).write_text(per_query_csv(table), encoding="utf-8")
    sys.stdout.write(_formatted(table, args.format, detail=len(names) == 2))
    return 0


def _formatted(table, kind: str, *, detail: bool) -> str:
    from irlab.runs import table_export

    if kind == "markdown":
        return table_export.table_markdown(table, legend=True)
    if kind == "latex":
        return table_export.table_latex(table)
    if kind == "csv":
        return table_export.table_csv(table)
    if kind == "json":
        return table_export.table_json(table)
    text = table_export.table_text(table)
    if detail:
        text += "\n" + _two_runs(table)
    return text


def _two_runs(table) -> str:
    """Every statistic of the one pair (run B against run A), per measure, and what it means.

    The verdict quotes the p-value of the table's test (``--test``, named in the table's header),
    after the table's correction: one comparison per measure, so the correction changes nothing.
    """
    from irlab.runs.compare import compare, format_p, verdict
    from irlab.runs.table_export import plain_text

    a, b = table.runs
    lines = ["Run B against run A, topic by topic", ""]
    for measure in table.measures:
        c = compare(table.per_query[a][measure], table.per_query[b][measure], table.queries, measure=measure,
                    run_a=plain_text(a), run_b=plain_text(b))
        pair = table.comparison(b, a, measure)
        lines += [f"{measure}: B = {c.run_b} against A = {c.run_a}, {c.n} topics",
                  f"  mean A {c.mean_a:.4f}   mean B {c.mean_b:.4f}   B - A {c.mean_difference:+.4f} "
                  f"(95% CI {_num(c.ci_low)} to {_num(c.ci_high)})",
                  f"  B wins {c.wins}, ties {c.ties}, loses {c.losses}",
                  f"  paired t-test        t = {_num(c.t_statistic, 3)}   p = {format_p(c.t_p)}",
                  f"  Wilcoxon signed-rank W = {_plain(c.wilcoxon_statistic)}   p = {format_p(c.wilcoxon_p)}",
                  f"  randomisation test   p = {format_p(c.randomisation_p)}",
                  f"  effect size d = {_num(c.effect_size, 2)}", "",
                  *verdict(c, test=table.test, p=pair.p_adjusted).split("\n\n"), ""]
    return "\n".join(lines)


def _head(path: str) -> bytes:
    """The first 64 KiB of a file's text (unpacked when gzip), to tell a qrels file from a run."""
    import gzip

    with open(path, "rb") as handle:
        start = handle.read(1 << 16)
    if start[:2] == b"\x1f\x8b":
        try:
            with gzip.open(path, "rb") as unzipped:
                return unzipped.read(1 << 16)
        except (OSError, EOFError):
            return b""
    return start


def _names(paths: list[str]) -> list[str]:
    """Each run's name in the table: its file name, or the path as given when two file names are the same."""
    from pathlib import Path

    short = [Path(p).name for p in paths]
    return short if len(set(short)) == len(short) else list(paths)


def _run_named(name: str, paths: list[str], names: list[str]) -> str:
    from irlab.cli.common import CliError

    for path, shown in zip(paths, names):
        if name in (path, shown):
            return shown
    raise CliError(f"--baseline {name!r} is not one of the runs given ({', '.join(paths)})")


def _common_queries(evaluations: list) -> tuple[str, ...]:
    """The topics evaluated for every run, in trec_eval's order."""
    common = set(evaluations[0].queries)
    for evaluation in evaluations[1:]:
        common &= set(evaluation.queries)
    return tuple(q for q in evaluations[0].queries if q in common)


def _aligned(evaluation, measure: str, queries: tuple[str, ...]):
    import numpy as np

    index = {q: i for i, q in enumerate(evaluation.queries)}
    values = np.asarray(evaluation.per_query[measure], dtype=np.float64)
    return values[[index[q] for q in queries]]


def _num(value: float, digits: int = 4) -> str:
    import math

    return "-" if math.isnan(value) else f"{value:+.{digits}f}"


def _plain(value: float) -> str:
    import math

    return "-" if math.isnan(value) else f"{value:g}"
