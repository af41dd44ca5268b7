"""What every command shares: exit statuses, one-line errors, and the argument parser class.

Bad input never produces a traceback: the command line prints one line starting with
``error:`` to stderr and exits with status 2 (trec_eval's habit of exiting non-zero on bad
input, with a message a student can act on).
"""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn

EXIT_OK = 0
EXIT_ERROR = 2


class CliError(Exception):
    """Bad input found by the command line itself (an option that does not fit)."""


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr and exit status 2."""

    def error(self, message: str) -> NoReturn:
        fail(f"{message} (see '{self.prog} --help')")


def fail(message: str) -> NoReturn:
    """Print ``error: message`` (on one line) to stderr and exit with status 2."""
    print(f"error: {' '.join(str(message).split())}", file=sys.stderr)
    raise SystemExit(EXIT_ERROR)
