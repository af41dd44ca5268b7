"""IR Lab's command line, ``python -m irlab COMMAND ...``.

Each command lives in a module of its own that adds its parser with ``register(commands)``
and sets ``run`` to the function that carries it out; this module only dispatches and turns
bad input into one line on stderr with exit status 2 (see :mod:`irlab.cli.common`).

>>> main(["exercise", "validate", "builtin:ndcg-exercise"])
ok: builtin:ndcg-exercise: 'NDCG calculation', 10 items, 3 queries, 1 system, 6 questions
0
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from irlab.cli import exercise
from irlab.cli.common import CliError, Parser, fail
from irlab.errors import ValidationError

COMMANDS = (exercise,)
"""The command modules, in the order ``--help`` lists them."""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (exposed for --help tests and documentation)."""
    parser = Parser(prog="python -m irlab", description="IR Lab on the command line.",
                    formatter_class=argparse.RawDescriptionHelpFormatter, epilog=exercise.EPILOG)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        command.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (errors raise SystemExit(2) after one line)."""
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except (ValidationError, CliError) as error:
        fail(str(error))
    except OSError as error:
        where = f"{error.filename}: " if getattr(error, "filename", None) else ""
        fail(f"{where}{error.strerror or error}")
