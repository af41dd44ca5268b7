"""``python -m irlab``: the command line (see :mod:`irlab.cli`)."""

from irlab.cli import main

if __name__ == "__main__":  # importing this module (e.g. to check the layers) must not run the command line
    raise SystemExit(main())
