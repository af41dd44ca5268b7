"""What the command-line tests share: running a command in this process."""

from __future__ import annotations

from irlab.cli import main


def run_command(command: str, args: list[str], capsys) -> tuple[int, str, str]:
    """Run ``python -m irlab command args...`` in this process: (exit status, stdout, stderr)."""
    try:
        status = main([command, *args])
    except SystemExit as stop:
        status = stop.code
    out, err = capsys.readouterr()
    return status, out, err
