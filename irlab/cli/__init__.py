"""IR Lab's command line, ``python -m irlab COMMAND ...`` (also installed as ``irlab``).

Each command lives in a module of its own that adds its parser with ``register(commands)``
and sets ``run`` to the function that carries it out; this module only dispatches and turns
bad input into one line on stderr with exit status 2 (see :mod:`irlab.cli.common`). Only the
module of the command being run is imported, so ``evaluate`` starts as fast as trec_eval.

>>> main(["exercise", "validate", "builtin:ndcg-exercise"])
ok: builtin:ndcg-exercise: 'NDCG calculation', 10 items, 3 queries, 1 system, 6 questions
0
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from irlab.cli.common import CliError, Parser, fail
from irlab.errors import ValidationError

EXIT_INTERNAL = 3
"""Exit status when IR Lab itself fails (bad input is 2)."""

COMMANDS = {"evaluate": "irlab.cli.evaluate", "compare": "irlab.cli.compare", "doctor": "irlab.cli.doctor",
            "exercise": "irlab.cli.exercise", "task": "irlab.cli.task"}
"""Command name -> the module that implements it, in the order ``--help`` lists them."""

EPILOG = """\
examples:
  python -m irlab evaluate qrels.txt run.txt            (trec_eval's output, same numbers)
  python -m irlab evaluate --help                       (flags and measures)
  python -m irlab compare qrels.txt runA.txt runB.txt   (a results table: paired tests, intervals, letters)
  python -m irlab doctor qrels.txt run.txt              (the classic mistakes, before any score)
  python -m irlab exercise validate course/week3.json
  python -m irlab exercise --help
  python -m irlab task --help                           (a class's shared task: hidden qrels, a leaderboard)
"""


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser; ``only`` registers just that command (the others are not imported)."""
    parser = Parser(prog="python -m irlab", description="IR Lab on the command line.",
                    formatter_class=argparse.RawDescriptionHelpFormatter, epilog=EPILOG)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, module in COMMANDS.items():
        if only is None or name == only:
            importlib.import_module(module).register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (errors raise SystemExit(2) after one line)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    only = argv[0] if argv and argv[0] in COMMANDS else None
    args = build_parser(only).parse_args(argv)
    try:
        return args.run(args)
    except (ValidationError, CliError) as error:
        fail(str(error))
    except OSError as error:
        where = f"{error.filename}: " if getattr(error, "filename", None) else ""
        fail(f"{where}{error.strerror or error}")
    except MemoryError:
        fail("not enough memory for these files; try fewer or smaller ones")
    except Exception as error:  # noqa: BLE001 - a bug of ours: still one line, and what to report
        print(f"error: IR Lab failed unexpectedly ({type(error).__name__}: {error}); please report this with "
              "the command you ran", file=sys.stderr)
        raise SystemExit(EXIT_INTERNAL) from None
