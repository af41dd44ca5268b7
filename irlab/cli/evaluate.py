"""``python -m irlab evaluate QRELS RUN [RUN ...]``: a drop-in for trec_eval.

Same numbers and the same output as trec_eval 10.0, the same flags, and the default measure
set when no ``-m`` is given; ``--format json|csv`` for scripts. Several runs give one table
per run. ``.gz`` files are read transparently; ``-`` reads a run from standard input.
"""

from __future__ import annotations

import argparse
import sys

HELP = "evaluate runs against qrels, as trec_eval does (same output, same flags)"

EPILOG = """\
flags as trec_eval: -q per query, -c count judged queries the run misses (as 0), -l N relevance
level, -M N only the top N of each ranking, -J judged documents only, -n no summary, -N N the
collection size (for utility), -m MEASURE (repeatable).

-m takes trec_eval's names and its parameter syntax: P.5,10  ndcg_cut.10  map  bpref  ndcg.1=3,2=9
iprec_at_recall..25,.5  set_F.0.5  11pt_avg  relstring.20, the sets official (the default),
set and all_trec; and IR Lab / ir_measures names: nDCG@10, P(rel=2)@5, AP@100, RR@10,
nDCG(gain='exponential')@10.

trec_eval measures IR Lab computes: {supported}.

Bad input (a malformed line, a score that is not a number, a document twice in a query, an
empty, binary or too large file, a run with no judged query) prints one line naming the file
and the line, and exits with status 2.

examples:
  python -m irlab evaluate qrels.txt run.txt
  python -m irlab evaluate -q -m ndcg_cut.10 -m map qrels.txt run1.txt run2.txt.gz
  python -m irlab evaluate --format csv -m 'nDCG@10' -m 'P@5' qrels.txt run.txt > results.csv
"""


def register(commands: argparse._SubParsersAction) -> None:
    """Add the ``evaluate`` command."""
    from irlab.metrics.registry import supported_trec_names

    parser = commands.add_parser(
        "evaluate", help=HELP, description=HELP + ".", formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=EPILOG.format(supported=", ".join(supported_trec_names())))
    parser.add_argument("qrels", help="the qrels file: query iteration doc grade")
    parser.add_argument("runs", nargs="+", metavar="run", help="run files: query Q0 doc rank score tag ('-': stdin)")
    parser.add_argument("-q", dest="per_query", action="store_true", help="also print each query's values")
    parser.add_argument("-c", dest="complete", action="store_true",
                        help="average over every judged query; a query the run misses counts 0")
    parser.add_argument("-l", dest="level", type=int, default=1, metavar="N",
                        help="relevance level: grade >= N is relevant (default 1)")
    parser.add_argument("-M", dest="depth", type=int, default=None, metavar="N",
                        help="use only the top N documents of each ranking")
    parser.add_argument("-J", dest="judged_only", action="store_true",
                        help="drop unjudged documents from each ranking first")
    parser.add_argument("-n", dest="summary", action="store_false", help="no summary (the 'all' lines)")
    parser.add_argument("-N", dest="collection", type=int, default=0, metavar="N",
                        help="documents in the collection (only utility's true negatives use it)")
    parser.add_argument("-m", dest="measures", action="append", metavar="MEASURE",
                        help="a measure or set of measures (repeatable; default: official)")
    parser.add_argument("--format", choices=("trec", "json", "csv"), default="trec",
                        help="output format (default: trec_eval's)")
    parser.add_argument("--max-size", type=int, default=1024, metavar="MB",
                        help="refuse files larger than this many MB after decompression (default 1024)")
    parser.set_defaults(run=run)


def measures_of(arguments: list[str] | None, collection: int = 0) -> dict:
    """The measures of the ``-m`` arguments (default: trec_eval's ``official`` set), keyed by print name."""
    from dataclasses import replace

    from irlab.metrics.registry import trec_measure_set

    measures = {}
    for measure in trec_measure_set(arguments or ["official"]):
        if measure.family == "utility" and collection:
            measure = replace(measure, options={**measure.options, "collection_size": collection})
        measures[measure.trec_name] = measure
    return measures


def run(args: argparse.Namespace) -> int:
    """Evaluate each run and print the tables."""
    import pyarrow as pa

    from irlab.cli.common import CliError
    from irlab.runs.evaluate import evaluate_tables
    from irlab.runs.report import csv_text, json_text, trec_text
    from irlab.runs.trec import read_qrels_file, read_run_file

    if args.depth is not None and args.depth < 1:
        raise CliError(f"-M must be at least 1, got {args.depth}")
    if args.max_size < 1:
        raise CliError(f"--max-size must be at least 1 MB, got {args.max_size}")
    if args.runs.count("-") > 1:
        raise CliError("only one run can come from standard input ('-')")
    limit = args.max_size << 20
    # the C library's allocator gives memory back as columns are freed (Arrow's own pools keep it)
    pa.set_memory_pool(pa.system_memory_pool())
    measures = measures_of(args.measures, args.collection)
    qrels = read_qrels_file(args.qrels, limit=limit)
    evaluations = [evaluate_tables(qrels, read_run_file(path, limit=limit), measures, relevance_level=args.level,
                                   complete=args.complete, depth=args.depth, judged_only=args.judged_only)
                   for path in args.runs]
    if args.format == "json":
        text = json_text(evaluations, per_query=args.per_query)
    elif args.format == "csv":
        text = csv_text(evaluations, per_query=args.per_query)
    else:
        text = trec_text(evaluations, per_query=args.per_query, summary=args.summary)
    sys.stdout.write(text)
    return 0
