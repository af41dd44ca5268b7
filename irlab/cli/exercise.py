"""``python -m irlab exercise ...``: validate, export and vary exercises.

Commands (EXERCISE is a file path or ``builtin:NAME``, NAME one of the shipped examples)::

    python -m irlab exercise validate EXERCISE
    python -m irlab exercise key EXERCISE [--seed N]
    python -m irlab exercise export EXERCISE --format notebook|worksheet|answers|csv
                                    [--html | --markdown] [--seed N] [--solutions] [-o OUT]
    python -m irlab exercise variants EXERCISE --count N --format notebook|worksheet|answers|csv
                                      [--first-seed 1] [--html | --markdown] [--solutions] -o DIR
    python -m irlab exercise link EXERCISE
    python -m irlab exercise roster EXERCISE --students IDS (--secret-file F | --secret-env NAME) -o DIR
    python -m irlab exercise grade EXERCISE SUBMISSION... [-o gradebook.csv] [--roster CSV] [--feedback DIR]
                                  [--secret-file F | --secret-env NAME] [--jobs N] [--timeout S]
                                  [--cell-timeout S] [--call-timeout S] [--memory MB]
    python -m irlab exercise schema

``validate`` lists every problem of a file's shape at once (one ``error:`` line each, with the field
path), checked against the format's JSON Schema; when the shape is right, the first problem the
cross-field checks find.

Bad input (a missing file, an invalid exercise, a wrong option) prints one line starting with
``error:`` to stderr and exits with status 2; success exits with 0. ``--seed N`` works on the
variant ``make_variant(exercise, N)``.

>>> from irlab.cli import main
>>> main(["exercise", "key", "builtin:ndcg-exercise"])  # doctest: +NORMALIZE_WHITESPACE
question   query  system  measure                                   answer
ndcg5-q1   q1     system  nDCG(discount='jarvelin-kekalainen')@5    0.7992
ndcg10-q1  q1     system  nDCG(discount='jarvelin-kekalainen')@10   0.7992
ndcg5-q2   q2     system  nDCG(discount='jarvelin-kekalainen')@5    0.5493
ndcg10-q2  q2     system  nDCG(discount='jarvelin-kekalainen')@10   0.7055
ndcg5-q3   q3     system  nDCG(discount='jarvelin-kekalainen')@5    0.908
ndcg10-q3  q3     system  nDCG(discount='jarvelin-kekalainen')@10   0.9486
0
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from irlab.cli.common import EXIT_ERROR, EXIT_OK, CliError
from irlab.errors import ValidationError
from irlab.exercises.exports.csv_key import answer_key_csv
from irlab.exercises.exports.notebook import exercise_notebook, notebook_text
from irlab.exercises.exports.variants import make_variant
from irlab.exercises.exports.worksheet import answer_key_html, answer_key_markdown, worksheet_html, worksheet_markdown
from irlab.exercises.format.examples import BUILTIN_NAMES, BUILTIN_PREFIX, load_exercise_source, source_stem
from irlab.exercises.format.links import exercise_to_link
from irlab.exercises.grading.printable import printable
from irlab.exercises.model import Exercise
from irlab.exercises.questions.answers import answer_key

FORMATS = ("notebook", "worksheet", "answers", "csv")

_EXERCISE_HELP = (f"an exercise JSON file, or {BUILTIN_PREFIX}NAME for a shipped example "
                  f"({', '.join(BUILTIN_PREFIX + name for name in BUILTIN_NAMES)})")
EPILOG = f"""\
examples:
  python -m irlab exercise validate course/week3.json
  python -m irlab exercise key {BUILTIN_PREFIX}ndcg-exercise --seed 7
  python -m irlab exercise export {BUILTIN_PREFIX}ndcg-exercise --format notebook --solutions -o ndcg-solutions.ipynb
  python -m irlab exercise export {BUILTIN_PREFIX}cats-in-boxes --format answers --html -o cats-answers.html
  python -m irlab exercise variants {BUILTIN_PREFIX}ndcg-exercise --count 30 --format notebook -o variants/
  python -m irlab exercise roster {BUILTIN_PREFIX}ndcg-exercise --students ids.txt --secret-env IRLAB_SECRET -o class/
  python -m irlab exercise grade {BUILTIN_PREFIX}ndcg-exercise submissions/ -o gradebook.csv --roster class/roster.csv

formats: notebook (Jupyter, checked by ipytest; --solutions for the completed one), worksheet (questions,
data, blanks), answers (answer key with full breakdowns), csv (answer key for a learning platform).
worksheet and answers are Markdown unless --html is given or OUT ends in .html.
The exercise format is described in docs/exercise-format.md.
"""


def register(commands: argparse._SubParsersAction) -> None:
    """Add ``exercise`` and its actions to the top-level parser's commands."""
    exercise = commands.add_parser("exercise", help="validate, export and vary exercises",
                                   description="Validate, export and vary exercises.", epilog=EPILOG,
                                   formatter_class=argparse.RawDescriptionHelpFormatter)
    actions = exercise.add_subparsers(dest="action", required=True, metavar="ACTION")

    validate = actions.add_parser("validate", help="check an exercise file and say what is wrong")
    validate.add_argument("exercise", metavar="EXERCISE", help=_EXERCISE_HELP)
    validate.set_defaults(run=_validate)

    key = actions.add_parser("key", help="print the answers")
    key.add_argument("exercise", metavar="EXERCISE", help=_EXERCISE_HELP)
    key.add_argument("--seed", type=_seed, help="the answers of the seeded variant N")
    key.set_defaults(run=_key)

    export = actions.add_parser("export", help="write a notebook, worksheet, answer key or CSV answer key")
    export.add_argument("exercise", metavar="EXERCISE", help=_EXERCISE_HELP)
    _export_options(export)
    export.add_argument("--seed", type=_seed, help="export the seeded variant N instead of the exercise itself")
    export.add_argument("-o", "--output", metavar="OUT", help="the file to write (default: standard output)")
    export.set_defaults(run=_export)

    variants = actions.add_parser("variants", help="write N seeded variants into a folder")
    variants.add_argument("exercise", metavar="EXERCISE", help=_EXERCISE_HELP)
    _export_options(variants)
    variants.add_argument("--count", type=_count, required=True, help="how many variants (1-1000)")
    variants.add_argument("--first-seed", type=_seed, default=1, help="the seed of the first variant (default 1)")
    variants.add_argument("-o", "--output", metavar="DIR", required=True, help="the folder to write into")
    variants.set_defaults(run=_variants)

    link = actions.add_parser("link", help="print the exercise as link text (small exercises only)")
    link.add_argument("exercise", metavar="EXERCISE", help=_EXERCISE_HELP)
    link.set_defaults(run=_link)

    schema = actions.add_parser("schema", help="print the exercise format as a JSON Schema")
    schema.set_defaults(run=_schema)

    roster = actions.add_parser(
        "roster", help="make a class roster (a seed per student, from a secret) and one notebook per student",
        description="Derive each student's seed from the student id and a secret (HMAC-SHA256), write roster.csv "
                    "and one notebook per student (the student id in its metadata), and the answer key of all "
                    "their variants. The secret is never printed; keep it to make the same roster again.")
    roster.add_argument("exercise", metavar="EXERCISE", help=_EXERCISE_HELP)
    roster.add_argument("--students", metavar="IDS", required=True,
                        help="a file of student ids, one a line (or a CSV file with a 'student' column)")
    secret = roster.add_mutually_exclusive_group(required=True)
    secret.add_argument("--secret-file", metavar="FILE", help="a file holding the secret (16 bytes or more)")
    secret.add_argument("--secret-env", metavar="NAME", help="the environment variable holding the secret")
    roster.add_argument("--solutions", action="store_true", help="write the completed notebooks")
    roster.add_argument("-o", "--output", metavar="DIR", required=True, help="the folder to write into")
    roster.set_defaults(run=_roster)

    grade = actions.add_parser(
        "grade", help="grade completed notebooks and answers files; write a gradebook and print a class summary",
        description="Grade a class: each notebook runs in boxes of its own (time, memory and process limits, a "
                    "temporary folder, an empty environment, namespaces, a read-only file system of its own and a "
                    "cgroup where the machine allows; docs/grading.md says what each protects against and what "
                    "not), each against the student's own variant (the seed is read from the submission, or "
                    "from the roster or the class secret).")
    grade.add_argument("exercise", metavar="EXERCISE", help=_EXERCISE_HELP)
    grade.add_argument("submissions", nargs="+", metavar="SUBMISSION",
                       help="completed .ipynb notebooks, answers files (.json) from the Practise page, or folders")
    grade.add_argument("-o", "--output", metavar="CSV", help="write the gradebook here (default: standard output)")
    grade.add_argument("--roster", metavar="CSV",
                       help="a roster (student,seed) from 'irlab exercise roster': each submission is graded on its "
                            "student's variant, and a seed, fingerprint or student id that does not match is flagged")
    grade_secret = grade.add_mutually_exclusive_group()
    grade_secret.add_argument("--secret-file", metavar="FILE",
                              help="the class secret 'irlab exercise roster' used: each notebook's signature is "
                                   "checked and each student graded on their own variant, with or without --roster "
                                   "(a relabelled, copied or unsigned notebook is flagged)")
    grade_secret.add_argument("--secret-env", metavar="NAME", help="the environment variable holding the class secret")
    grade.add_argument("--feedback", metavar="DIR", help="write one Markdown feedback file per submission here")
    grade.add_argument("--jobs", type=_between(1, 32), default=1, help="notebooks graded at a time (default 1)")
    grade.add_argument("--timeout", type=_between(5, 3600), default=180,
                       help="seconds the notebook run may take in all (default 180)")
    grade.add_argument("--cell-timeout", type=_between(1, 600), default=30,
                       help="seconds one cell may take (default 30)")
    grade.add_argument("--call-timeout", type=_between(1, 600), default=10,
                       help="seconds one question may take: defining the functions and calling them (default 10)")
    grade.add_argument("--memory", type=_between(1024, 65536), default=2048,
                       help="MB of address space for each process (a Jupyter kernel reserves about 800), and of "
                            "memory for all of a notebook's processes together where a cgroup is available "
                            "(default 2048)")
    grade.add_argument("--processes", type=_between(32, 4096), default=128,
                       help="processes and threads a notebook may have at once (default 128)")
    grade.add_argument("--sandbox", choices=("auto", "basic"), default="auto",
                       help="auto: every layer this machine allows (the default); basic: only the layers every "
                            "Linux machine has (to see what docs/grading.md says about them)")
    grade.set_defaults(run=_grade)


def _export_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--format", choices=FORMATS, required=True, help="what to write")
    style = parser.add_mutually_exclusive_group()
    style.add_argument("--html", dest="style", action="store_const", const="html",
                       help="worksheet or answers as a standalone HTML page")
    style.add_argument("--markdown", dest="style", action="store_const", const="markdown",
                       help="worksheet or answers as Markdown (the default)")
    parser.add_argument("--solutions", action="store_true", help="notebook: the completed version")


def _seed(text: str) -> int:
    if not text.isdigit() or len(text) > 18:
        raise argparse.ArgumentTypeError(f"a seed is a whole number >= 0, got {text!r}")
    return int(text)


def _count(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 1000:
        raise argparse.ArgumentTypeError(f"the count is a whole number from 1 to 1000, got {text!r}")
    return int(text)


def _between(low: int, high: int) -> Callable[[str], int]:
    def check(text: str) -> int:
        if not (text.isascii() and text.isdigit()) or not low <= int(text) <= high:
            raise argparse.ArgumentTypeError(f"a whole number from {low} to {high}, got {text!r}")
        return int(text)
    return check


def _load(args: argparse.Namespace) -> Exercise:
    exercise = load_exercise_source(args.exercise)
    seed = getattr(args, "seed", None)
    return make_variant(exercise, seed) if seed is not None else exercise


def _validate(args: argparse.Namespace) -> int:
    try:
        exercise = load_exercise_source(args.exercise)
    except ValidationError as first:
        problems = _all_problems(args.exercise)
        if len(problems) <= 1:
            raise
        for problem in problems:
            print(f"error: {args.exercise}: {' '.join(str(problem).split())}", file=sys.stderr)
        raise SystemExit(EXIT_ERROR) from first
    counts = [_plural(len(exercise.items), "item"), _plural(len(exercise.queries), "query", "queries"),
              _plural(len(exercise.systems), "system"), _plural(len(exercise.questions), "question")]
    print(f"ok: {args.exercise}: {exercise.title!r}, {', '.join(counts)}")
    return EXIT_OK


def _plural(count: int, one: str, many: str | None = None) -> str:
    return f"{count} {one if count == 1 else many or one + 's'}"


def _key(args: argparse.Namespace) -> int:
    exercise = _load(args)
    rows = [("question", "query", "system", "measure", "answer")]
    rows += [(q.id, q.query, q.system, q.measure, b.display_value) for q, b in answer_key(exercise)]
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    for row in rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())
    return EXIT_OK


def _renderer(args: argparse.Namespace, output: str | None) -> tuple[Callable[[Exercise], str], str]:
    """The function writing the chosen format, and the file suffix it uses."""
    if args.format in ("notebook", "csv") and args.style:
        raise CliError(f"--{args.style} applies to --format worksheet and answers only")
    if args.solutions and args.format != "notebook":
        raise CliError("--solutions applies to --format notebook only")
    if args.format == "notebook":
        return (lambda ex: notebook_text(exercise_notebook(ex, solutions=args.solutions)),
                "-solutions.ipynb" if args.solutions else ".ipynb")
    if args.format == "csv":
        return answer_key_csv, "-answers.csv"
    html = args.style == "html" or (args.style is None and output is not None
                                    and output.lower().endswith((".html", ".htm")))
    if args.format == "worksheet":
        return (worksheet_html, ".html") if html else (worksheet_markdown, ".md")
    return (answer_key_html, "-answers.html") if html else (answer_key_markdown, "-answers.md")


def _write(output: str | None, text: str) -> None:
    if output is None or output == "-":
        sys.stdout.write(text)
        return
    Path(output).write_text(text, encoding="utf-8")


def _export(args: argparse.Namespace) -> int:
    render, _ = _renderer(args, args.output)
    exercise = _load(args)
    _write(args.output, render(exercise))
    if args.output not in (None, "-"):
        print(f"wrote {args.output}", file=sys.stderr)
    return EXIT_OK


def _variants(args: argparse.Namespace) -> int:
    render, suffix = _renderer(args, None)
    exercise = load_exercise_source(args.exercise)
    folder = Path(args.output)
    if folder.exists() and not folder.is_dir():
        raise CliError(f"{folder} is a file, not a folder")
    folder.mkdir(parents=True, exist_ok=True)
    stem = source_stem(args.exercise)
    width = len(str(args.count))
    variants = []
    for number, seed in enumerate(range(args.first_seed, args.first_seed + args.count), start=1):
        variant = make_variant(exercise, seed)
        variants.append(variant)
        path = folder / f"{stem}-seed{seed:03d}{suffix}"
        path.write_text(render(variant), encoding="utf-8")
        print(f"[{number:>{width}}/{args.count}] seed {seed} -> {path}", flush=True)
    key_path = folder / f"{stem}-answer-key.csv"
    key_path.write_text(answer_key_csv(variants), encoding="utf-8")
    print(f"answer key of all {args.count} variants -> {key_path}")
    return EXIT_OK


def _all_problems(source: str) -> list[ValidationError]:
    """Every problem of a file that reads as JSON ([] when it does not: the reader's message says why). The file
    is read as the reader reads it (size, depth and syntax checked first), so no file can crash the listing."""
    from irlab.exercises.format.exercise_file import exercise_problems, read_exercise_json

    try:
        data = read_exercise_json(source)
    except ValidationError:
        return []
    return exercise_problems(data)


def _schema(args: argparse.Namespace) -> int:
    from irlab.exercises.format.schema import schema_text

    sys.stdout.write(schema_text())
    return EXIT_OK


def _roster(args: argparse.Namespace) -> int:
    from irlab.exercises.grading.feedback import write_atomically
    from irlab.exercises.grading.roster import (
        file_stem,
        make_roster,
        read_secret,
        read_students,
        roster_csv,
        secret_file_warning,
    )
    from irlab.exercises.grading.signature import sign_notebook

    exercise = load_exercise_source(args.exercise)
    try:
        students = read_students(Path(args.students).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        raise CliError(f"cannot read the student ids from {args.students}: {error}") from None
    secret = read_secret(file=args.secret_file, variable=args.secret_env)
    if warning := secret_file_warning(args.secret_file):
        print(printable(warning), file=sys.stderr)
    roster = make_roster(secret, students)
    folder = Path(args.output)
    if folder.exists() and not folder.is_dir():
        raise CliError(f"{folder} is a file, not a folder")
    folder.mkdir(parents=True, exist_ok=True)
    stem = source_stem(args.exercise)
    width, used, variants = len(str(len(roster))), set(), []
    for number, (student, seed) in enumerate(roster.items(), start=1):
        variant = make_variant(exercise, seed)
        variants.append(variant)
        name, suffix = f"{stem}-{file_stem(student)}", 2
        while name in used:  # two ids that differ only in characters a file name cannot hold
            name, suffix = f"{stem}-{file_stem(student)}-{suffix}", suffix + 1
        used.add(name)
        path = folder / f"{name}{'-solutions' if args.solutions else ''}.ipynb"
        notebook = exercise_notebook(variant, solutions=args.solutions, student=student)
        write_atomically(path, notebook_text(sign_notebook(notebook, secret)))
        print(f"[{number:>{width}}/{len(roster)}] {printable(student)} -> {path}", flush=True)
    write_atomically(folder / "roster.csv", roster_csv(roster))
    write_atomically(folder / f"{stem}-answer-key.csv", answer_key_csv(variants))
    print(f"roster of {len(roster)} students -> {folder / 'roster.csv'}; answer key -> "
          f"{folder / (stem + '-answer-key.csv')}")
    return EXIT_OK


EXIT_NOTHING_GRADED = 1
"""``grade`` ran, but not one submission could be graded (the gradebook says why for each)."""


def _grade(args: argparse.Namespace) -> int:
    from irlab.exercises.grading.feedback import write_atomically, write_feedback
    from irlab.exercises.grading.gradebook import class_summary, gradebook_csv
    from irlab.exercises.grading.grader import Limits, grade_all, notebook_grading_problem, submission_files
    from irlab.exercises.grading.roster import read_roster, read_secret, secret_file_warning
    from irlab.exercises.grading.sandbox import BASIC, detect_isolation

    exercise = load_exercise_source(args.exercise)
    files = submission_files(args.submissions)
    if not files:
        raise CliError("no submissions found (.ipynb or .json files, or folders holding them)")
    roster = None
    if args.roster is not None:
        try:
            roster = read_roster(Path(args.roster).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as error:
            raise CliError(f"cannot read the roster {args.roster}: {error}") from None
    secret = None
    if args.secret_file is not None or args.secret_env is not None:
        secret = read_secret(file=args.secret_file, variable=args.secret_env)  # read before any submission's code runs
        if warning := secret_file_warning(args.secret_file):
            print(printable(warning), file=sys.stderr)
    isolation = BASIC if args.sandbox == "basic" else detect_isolation()
    if any(path.suffix == ".ipynb" for path in files):
        if problem := notebook_grading_problem():
            raise CliError(problem)
        print(f"sandbox: {isolation.describe()}", file=sys.stderr, flush=True)
    limits = Limits(cell_seconds=args.cell_timeout, call_seconds=args.call_timeout, total_seconds=args.timeout,
                    memory_mb=args.memory, processes=args.processes)
    width = len(str(len(files)))

    def progress(done: int, total: int, name: str) -> None:  # name: made printable by grade_all
        print(f"[{done:>{width}}/{total}] {name}", file=sys.stderr, flush=True)

    rows = grade_all(exercise, files, limits, progress, roster=roster, isolation=isolation, jobs=args.jobs,
                     secret=secret)
    book = gradebook_csv(exercise, rows)  # every process of every submission has ended by now
    if args.output in (None, "-"):
        sys.stdout.write(book)
        sys.stderr.write(class_summary(exercise, rows))
    else:
        write_atomically(Path(args.output), book)
        sys.stdout.write(class_summary(exercise, rows))
        print(f"gradebook -> {args.output}")
    if args.feedback is not None:
        written = write_feedback(Path(args.feedback), exercise, rows)
        print(f"{len(written)} feedback files -> {args.feedback}", file=sys.stderr)
    if not any(row.status == "graded" for row in rows):
        print(f"error: none of the {len(rows)} submissions could be graded (the gradebook's status column says why)",
              file=sys.stderr)
        return EXIT_NOTHING_GRADED
    return EXIT_OK


def _link(args: argparse.Namespace) -> int:
    print(exercise_to_link(load_exercise_source(args.exercise)))
    return EXIT_OK
