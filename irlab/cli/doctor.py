"""``python -m irlab doctor QRELS RUN [RUN ...]``: the classic mistakes in runs and qrels, before any score.

One line per finding: what was found and how often, why it matters, what to do; then one ``ok:``
line per check that found nothing (:mod:`irlab.runs.doctor` lists the checks). Exit status 0
when nothing was found, 1 when something was, 2 on bad input (as every command).
"""

from __future__ import annotations

import argparse
import sys

HELP = "check runs and qrels for the classic mistakes (missing topics, ties, ranks, depth, unjudged, duplicates)"
EXIT_FOUND = 1
"""Exit status when the doctor found something (as linters do)."""

EPILOG = """\
checks, per run: judged topics it misses (and MAP with and without them), topics without
judgments, tied scores across rank 10 (trec_eval breaks them by document id), ranks that disagree
with the scores (trec_eval ignores ranks), more than 1,000 documents per topic, unjudged documents
in the top 10 (Judged@10), the same document twice in a topic; for the qrels: grades above 1 read
as binary at -l 1, judged topics without a relevant document.

examples:
  python -m irlab doctor qrels.txt run.txt
  python -m irlab doctor --cutoff 20 qrels.txt bm25.txt dense.txt.gz
"""


def register(commands: argparse._SubParsersAction) -> None:
    """Add the ``doctor`` command."""
    parser = commands.add_parser("doctor", help=HELP, description=HELP + ".", epilog=EPILOG,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("qrels", help="the qrels file: query iteration doc grade")
    parser.add_argument("runs", nargs="+", metavar="run", help="run files: query Q0 doc rank score tag")
    parser.add_argument("-l", dest="level", type=int, default=1, metavar="N",
                        help="relevance level the runs will be evaluated at (default 1)")
    parser.add_argument("--cutoff", type=int, default=10, metavar="K", help="the rank where ties matter (default 10)")
    parser.add_argument("--format", choices=("text", "json"), default="text", help="output format (default text)")
    parser.add_argument("--max-size", type=int, default=1000, metavar="MB",
                        help="refuse files larger than this many MB (10^6 bytes) after decompression (default 1000)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Examine the files and print the findings."""
    import json

    import pyarrow as pa

    from irlab.cli.common import CliError
    from irlab.data.judgments import check_relevance_level
    from irlab.runs.doctor import doctor
    from irlab.runs.table_export import plain_text
    from irlab.runs.trec import MB, read_bytes
    from irlab.runs.workspace import read_upload

    if args.cutoff < 1 or args.cutoff > 1_000_000:
        raise CliError(f"--cutoff must be a whole number from 1 to 1,000,000, got {args.cutoff}")
    if args.max_size < 1:
        raise CliError(f"--max-size must be at least 1 MB, got {args.max_size}")
    if "-" in args.runs:
        raise CliError("the doctor reads run files, not standard input")
    level = check_relevance_level(args.level)
    limit = args.max_size * MB
    pa.set_memory_pool(pa.system_memory_pool())
    qrels = read_upload(read_bytes(args.qrels, limit=limit), args.qrels, "qrels", limit=limit,
                        mixed_up="; the qrels file comes first, then the runs")
    findings = doctor(qrels, {path: path for path in args.runs}, relevance_level=level, cutoff=args.cutoff,
                      limit=limit)
    problems = [f for f in findings if not f.ok]
    if args.format == "json":
        sys.stdout.write(json.dumps([{"check": f.check, "run": f.run, "count": f.count, "what": f.what, "why": f.why,
                                      "todo": f.todo} for f in findings], indent=2, ensure_ascii=False) + "\n")
    else:
        lines = [plain_text(f.line()) for f in problems] + [plain_text(f.line()) for f in findings if f.ok]
        summary = (f"{len(problems)} finding{'' if len(problems) == 1 else 's'} in {len(args.runs)} "
                   f"run{'' if len(args.runs) == 1 else 's'} and the qrels" if problems else "nothing found")
        sys.stdout.write("\n".join([*lines, summary]) + "\n")
    return EXIT_FOUND if problems else 0
