"""``python -m irlab evaluate QRELS RUN [RUN ...]``: a drop-in for trec_eval.

Same numbers and the same output as trec_eval 10.0, the same flags, and the default measure
set when no ``-m`` is given; ``--format json|csv`` for scripts. Several runs give one table
per run, evaluated in parallel on every core. ``.gz`` files are read transparently; ``-`` reads
a run from standard input. A run file is read topic by topic (:mod:`irlab.runs.stream`), so ten
million lines take less memory than trec_eval itself.

trec_eval 10.0's rule on missing topics: without ``-c``, a run that does not rank every judged
topic is refused with exit status 4 (:data:`EXIT_MISSING_TOPICS`); the message names the topics
and ``-c``, which counts them as 0, as TREC reports do.
"""

from __future__ import annotations

import argparse
import sys

HELP = "evaluate runs against qrels, as trec_eval does (same output, same flags)"
EXIT_MISSING_TOPICS = 4
"""trec_eval 10.0's exit status when a judged topic has no results and -c is not given."""

EPILOG = """\
flags as trec_eval: -q per query, -c count judged queries the run misses (as 0; without -c a run
that misses one is refused with exit status 4, as trec_eval 10.0 does), -l N relevance level,
-M N only the top N of each ranking, -J judged documents only, -n no summary, -N N the
collection size (for utility), -m MEASURE (repeatable), -R FORMAT the judgments' format, -Z FILE
z-scores; and trec_eval's long forms of them (--query_eval_wanted, --complete_rel_info_wanted,
--level_for_rel, --Max_retrieved_per_topic, --Judged_docs_only, --nosummary, --Number_docs_in_coll,
--measure, --Rel_info_format, --Zscore, --Results_format, --version).

-R: qrels (the default); qrels_jg, a qrels file whose second column names a judgment group (one
user), for map_avgjg, P_avgjg, Rprec_mult_avgjg (-m qrels_jg, the default with it); prefs (query
group subgroup doc level) or qrels_prefs (a qrels file read as preferences), for the preference
measures (-m all_prefs; -m prefs, the default with them). -Z FILE: each value a z-score against
FILE's lines "query measure mean stddev" (-1000000 where FILE has no line for it).

-m takes trec_eval's names and its parameter syntax: P.5,10  ndcg_cut.10  map  bpref  ndcg.1=3,2=9
iprec_at_recall..25,.5  set_F.0.5  11pt_avg  relstring.20, the sets official (the default),
set, all_trec, all_prefs, prefs and qrels_jg; and IR Lab / ir_measures names: nDCG@10,
P(rel=2)@5, AP@100, RR@10, nDCG(gain='exponential')@10.

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
    parser.add_argument("-q", "--query_eval_wanted", dest="per_query", action="store_true",
                        help="also print each query's values")
    parser.add_argument("-c", "--complete_rel_info_wanted", dest="complete", action="store_true",
                        help="average over every judged query; a query the run misses counts 0")
    parser.add_argument("-l", "--level_for_rel", dest="level", type=int, default=1, metavar="N",
                        help="relevance level: grade >= N is relevant (default 1)")
    parser.add_argument("-M", "--Max_retrieved_per_topic", dest="depth", type=int, default=None, metavar="N",
                        help="use only the top N documents of each ranking (0: none)")
    parser.add_argument("-J", "--Judged_docs_only", dest="judged_only", action="store_true",
                        help="drop unjudged documents from each ranking first")
    parser.add_argument("-n", "--nosummary", dest="summary", action="store_false",
                        help="no summary (the 'all' lines)")
    parser.add_argument("-N", "--Number_docs_in_coll", dest="collection", type=int, default=0, metavar="N",
                        help="documents in the collection (only utility's true negatives use it)")
    parser.add_argument("-m", "--measure", dest="measures", action="append", metavar="MEASURE",
                        help="a measure or set of measures (repeatable; default: official)")
    parser.add_argument("-R", "--Rel_info_format", dest="rel_format", default="qrels", metavar="FORMAT",
                        help="the judgments' format: qrels (default), qrels_jg (qrels by judgment group), prefs "
                             "(preferences: query group subgroup doc level) or qrels_prefs (a qrels file read as "
                             "preferences)")
    parser.add_argument("-Z", "--Zscore", dest="zscores", metavar="FILE",
                        help="print z-scores against the means and standard deviations of FILE (query measure mean "
                             "stddev)")
    parser.add_argument("-T", "--Results_format", dest="results_format", default="trec_results", metavar="FORMAT",
                        help="the run files' format: trec_results (trec_eval's only one)")
    parser.add_argument("-D", "--Debug_level", dest="debug", default="0", metavar="N",
                        help="trec_eval's debug trace: only 0 (none) is accepted")
    parser.add_argument("-v", "--version", action=_Version, help="print IR Lab's version and exit")
    parser.add_argument("-o", dest="old_format", action="store_true", help=argparse.SUPPRESS)  # obsolete in trec_eval
    parser.add_argument("--format", choices=("trec", "json", "csv"), default="trec",
                        help="output format (default: trec_eval's)")
    parser.add_argument("--max-size", type=int, default=1000, metavar="MB",
                        help="refuse files larger than this many MB (10^6 bytes) after decompression (default 1000)")
    parser.set_defaults(run=run)


class _Version(argparse.Action):
    """``-v``/``--version``: IR Lab's version (looked up only when asked: evaluate starts as fast as trec_eval)."""

    def __init__(self, option_strings: list[str], dest: str, **kwargs) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        from importlib.metadata import PackageNotFoundError, version

        try:
            number = version("irlab")
        except PackageNotFoundError:  # a source tree that was never installed
            number = "(not installed)"
        print(f"irlab evaluate (IR Lab {number}): trec_eval 10.0's measures, flags and output")
        parser.exit()


DEFAULT_SETS = {"qrels": "official", "qrels_jg": "qrels_jg", "prefs": "prefs", "qrels_prefs": "prefs"}
"""The measures printed without ``-m``, per judgments format (trec_eval has ``official`` for every format, and
then stops on the first measure it cannot compute from preferences or judgment groups)."""


def measures_of(arguments: list[str] | None, collection: int = 0, rel_format: str = "qrels") -> dict:
    """The measures of the ``-m`` arguments (default: :data:`DEFAULT_SETS`' set), keyed by print name."""
    from irlab.metrics.measure_names import trec_measure_set
    from irlab.runs.evaluate import with_collection_size

    measures = {m.trec_name: m for m in trec_measure_set(arguments or [DEFAULT_SETS[rel_format]])}
    return with_collection_size(measures, collection)


def run(args: argparse.Namespace) -> int:
    """Evaluate each run and print the tables."""
    import pyarrow as pa

    from irlab.cli.common import CliError
    from irlab.runs.evaluator import read_judgments
    from irlab.runs.report import csv_text, json_text, trec_text
    from irlab.runs.trec import MB
    from irlab.runs.zscores import read_zscores_file, standardised

    if args.rel_format not in DEFAULT_SETS:
        raise CliError(f"-R {args.rel_format}: trec_eval 10.0's judgment formats are {', '.join(DEFAULT_SETS)}")
    if args.results_format != "trec_results":
        raise CliError(f"-T {args.results_format}: trec_eval 10.0 reads one results format, trec_results "
                       "(query Q0 doc rank score tag)")
    if args.debug.split(".")[0].strip() not in ("0", ""):
        raise CliError(f"-D {args.debug}: IR Lab prints no debug trace (trec_eval's -D); leave -D out, and use -q "
                       "to see each query's values")
    if args.depth is not None and args.depth < 0:
        raise CliError(f"-M must be 0 or more (trec_eval 10.0 crashes on a negative -M), got {args.depth}")
    if args.max_size < 1:
        raise CliError(f"--max-size must be at least 1 MB, got {args.max_size}")
    if args.runs.count("-") > 1:
        raise CliError("only one run can come from standard input ('-')")
    # the C library's allocator gives memory back as columns are freed (Arrow's own pools keep it)
    pa.set_memory_pool(pa.system_memory_pool())
    measures = measures_of(args.measures, args.collection, args.rel_format)
    qrels = read_judgments(args.qrels, args.rel_format, limit=args.max_size * MB)  # trec_eval's -R
    zscores = read_zscores_file(args.zscores, limit=args.max_size * MB) if args.zscores else None
    evaluations = evaluate_files(qrels, args.runs, measures, relevance_level=args.level, complete=args.complete,
                                 depth=args.depth, judged_only=args.judged_only, limit=args.max_size * MB)
    if not args.complete:
        refuse_missing_topics(evaluations)
    if zscores is not None:
        evaluations = [standardised(evaluation, zscores) for evaluation in evaluations]
    if args.format == "json":
        text = json_text(evaluations, per_query=args.per_query)
    elif args.format == "csv":
        text = csv_text(evaluations, per_query=args.per_query)
    else:
        text = trec_text(evaluations, per_query=args.per_query, summary=args.summary)
    sys.stdout.write(text)
    return 0


def refuse_missing_topics(evaluations: list) -> None:
    """trec_eval 10.0's rule without ``-c``: a judged topic a run does not rank stops it, exit status 4.

    trec_eval says "result qid 'X' not found in qrels"; this names the run, how many judged topics
    it misses and which, and what ``-c`` does. One line on stderr, nothing on stdout.
    """
    from irlab.runs.coverage import topic_list

    problems = [f"{e.run_name} does not rank {len(e.missed)} of the {e.judged_queries} judged topics "
                f"({topic_list(e.missed)})" for e in evaluations if e.missed]
    if not problems:
        return
    print(f"error: {'; '.join(problems)}. trec_eval 10.0 stops here (exit status {EXIT_MISSING_TOPICS}): a mean "
          "without those topics would flatter the run. Add -c to count them as 0, as TREC reports do.",
          file=sys.stderr)
    raise SystemExit(EXIT_MISSING_TOPICS)


def evaluate_files(qrels, paths: list[str], measures: dict, **options) -> list:
    """Each run file's :class:`~irlab.runs.evaluate.Evaluation`, in order; several files in parallel, one per core.

    Worker processes are forked after the qrels are read, so they share them; each evaluates
    whole files and sends back only the values (a few numbers per query). The first file that
    fails, in the order given, stops the command with its message.
    """
    import os

    from irlab.runs.evaluate import evaluate_run_file

    workers = min(len(paths), len(os.sched_getaffinity(0)))
    if workers < 2 or "-" in paths:
        return [evaluate_run_file(qrels, path, measures, **options) for path in paths]
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    global _SHARED  # read by the forked workers: the qrels are not pickled once per file
    _SHARED = (qrels, measures, options)
    try:
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"),
                                 initializer=_one_thread_each) as pool:
            results = list(pool.map(_evaluate_in_worker, paths))
    finally:
        _SHARED = None
    for result in results:
        if isinstance(result, Exception):
            raise result
    return results


_SHARED = None


def _one_thread_each() -> None:
    """In a worker: Arrow's CSV reader on one thread (the workers already use every core)."""
    import pyarrow as pa

    pa.set_cpu_count(1)
    pa.set_io_thread_count(1)


def _evaluate_in_worker(path: str):
    """Evaluate one file in a worker; bad input comes back as a ValidationError to raise in order."""
    from dataclasses import replace

    from irlab.errors import ValidationError
    from irlab.runs.evaluate import evaluate_run_file

    qrels, measures, options = _SHARED
    try:
        return replace(evaluate_run_file(qrels, path, measures, evaluators=1, **options), judged=None)
    except ValidationError as error:
        return ValidationError(error.message, path=error.path)
    except OSError as error:
        return error
