"""``python -m irlab compare QRELS RUN_A RUN_B [RUN ...]``: two (or more) systems, topic by topic, with paired tests.

For each measure (``-m``, repeatable; default AP, P@10, nDCG@10): both means, the mean
difference B − A with its 95% confidence interval, wins / ties / losses, the paired t-test, the
Wilcoxon signed-rank test, a seeded paired randomisation test and the effect size; with more than
two runs every pair, its randomisation p-value adjusted by Holm's method over all pairs and
measures. The same numbers as the runs page's Compare tab (:mod:`irlab.runs.compare`).
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import math
import sys

HELP = "compare runs topic by topic: mean difference, paired t, Wilcoxon and randomisation tests, Holm"
DEFAULT_MEASURES = ("AP", "P@10", "nDCG@10")
FIELDS = ("measure", "run_a", "run_b", "queries", "mean_a", "mean_b", "mean_difference", "ci_low", "ci_high", "wins",
          "ties", "losses", "t_statistic", "t_p", "wilcoxon_statistic", "wilcoxon_p", "randomisation_p", "holm_p",
          "effect_size")

EPILOG = """\
Queries: those evaluated for every run (trec_eval's rules; with -c a judged query a run misses counts
as 0 for it). The randomisation test flips the sign of each difference at random 10,000 times with a
fixed seed, so the same files always give the same p-value.

examples:
  python -m irlab compare qrels.txt bm25.txt dense.txt
  python -m irlab compare -m nDCG@10 -m map qrels.txt a.txt b.txt c.txt     (every pair, Holm-adjusted)
  python -m irlab compare --format csv qrels.txt a.txt b.txt > comparison.csv
"""


def register(commands: argparse._SubParsersAction) -> None:
    """Add the ``compare`` command."""
    parser = commands.add_parser("compare", help=HELP, description=HELP + ".", epilog=EPILOG,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("qrels", help="the qrels file: query iteration doc grade")
    parser.add_argument("runs", nargs="+", metavar="run", help="two or more run files (run A, run B, ...)")
    parser.add_argument("-m", dest="measures", action="append", metavar="MEASURE",
                        help=f"a measure (repeatable; default {', '.join(DEFAULT_MEASURES)}); trec_eval's or "
                             "ir_measures' names")
    parser.add_argument("-c", dest="complete", action="store_true",
                        help="count judged queries a run misses, as 0")
    parser.add_argument("-l", dest="level", type=int, default=1, metavar="N", help="relevance level (default 1)")
    parser.add_argument("--format", choices=("text", "json", "csv"), default="text", help="output format")
    parser.add_argument("--max-size", type=int, default=1024, metavar="MB",
                        help="refuse files larger than this many MB after decompression (default 1024)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Compare the runs and print the result."""
    from irlab.cli.common import CliError
    from irlab.metrics.registry import parse_measure
    from irlab.runs.compare import holm
    from irlab.runs.trec import read_bytes
    from irlab.runs.workspace import Options, Workspace, read_upload

    if len(args.runs) < 2:
        raise CliError("compare needs at least two runs (run A and run B)")
    if args.max_size < 1:
        raise CliError(f"--max-size must be at least 1 MB, got {args.max_size}")
    limit = args.max_size << 20
    measures = [str(parse_measure(m)) for m in (args.measures or DEFAULT_MEASURES)]
    options = Options(relevance_level=args.level, complete=args.complete)
    def read(path: str, kind: str):  # named when a qrels file is given as a run, or the reverse
        return read_upload(read_bytes(path, limit=limit), path, kind, limit=limit,
                           mixed_up="; the qrels file comes first, then the runs")

    workspace = Workspace(read(args.qrels, "qrels"))
    for path in args.runs:
        workspace = workspace.with_run(path, read(path, "run"))
    for name in workspace.run_names:
        workspace.judged(name, options)  # raises, naming the files, when a run shares no query with the qrels
    names = list(workspace.run_names)
    comparisons = [c for measure in measures for c, _ in workspace.compare_all(names, measure, options)]
    adjusted = holm([c.randomisation_p for c in comparisons]) if len(comparisons) > 1 else \
        [c.randomisation_p for c in comparisons]
    records = [_record(c, p) for c, p in zip(comparisons, adjusted)]
    if args.format == "json":
        text = json.dumps(records, indent=2) + "\n"
    elif args.format == "csv":
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=FIELDS, lineterminator="\n")
        writer.writeheader()
        writer.writerows({k: "" if v is None else v for k, v in r.items()} for r in records)
        text = out.getvalue()
    else:
        text = _text(comparisons, adjusted)
    sys.stdout.write(text)
    return 0


def _record(c, holm_p: float) -> dict:
    values = {"measure": c.measure, "run_a": c.run_a, "run_b": c.run_b, "queries": c.n, "mean_a": c.mean_a,
              "mean_b": c.mean_b, "mean_difference": c.mean_difference, "ci_low": c.ci_low, "ci_high": c.ci_high,
              "wins": c.wins, "ties": c.ties, "losses": c.losses, "t_statistic": c.t_statistic, "t_p": c.t_p,
              "wilcoxon_statistic": c.wilcoxon_statistic, "wilcoxon_p": c.wilcoxon_p,
              "randomisation_p": c.randomisation_p, "holm_p": holm_p, "effect_size": c.effect_size}
    return {k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in values.items()}


def _text(comparisons, adjusted) -> str:
    from irlab.runs.compare import format_p

    lines = []
    several = len(comparisons) > 1
    for c, p in zip(comparisons, adjusted):
        lines += [f"{c.measure}: B = {c.run_b} against A = {c.run_a}, {c.n} queries",
                  f"  mean A {c.mean_a:.4f}   mean B {c.mean_b:.4f}   B - A {c.mean_difference:+.4f} "
                  f"(95% CI {_num(c.ci_low)} to {_num(c.ci_high)})",
                  f"  B wins {c.wins}, ties {c.ties}, loses {c.losses}",
                  f"  paired t-test        t = {_num(c.t_statistic, 3)}   p = {format_p(c.t_p)}",
                  f"  Wilcoxon signed-rank W = {_plain(c.wilcoxon_statistic)}   p = {format_p(c.wilcoxon_p)}",
                  f"  randomisation test   p = {format_p(c.randomisation_p)}"
                  + (f"   Holm-adjusted over {len(comparisons)} comparisons: p = {format_p(p)}" if several else ""),
                  f"  effect size d = {_num(c.effect_size, 2)}", ""]
    return "\n".join(lines)


def _num(value: float, digits: int = 4) -> str:
    return "-" if math.isnan(value) else f"{value:+.{digits}f}"


def _plain(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:g}"
