"""The interpreter tuned for serving a class: fewer, cheaper garbage collections.

A server process holds a few hundred thousand long-lived objects (Streamlit, Plotly, numpy, IR Lab's
modules, then the shared caches of screens drawn ahead) and allocates millions of short-lived ones per
minute building screens (each formula, table row and number is a small object). CPython's cyclic
collector runs every 700 allocations by default and, every few of those runs, walks the long-lived
objects too: bench/ahead_cost.py measured it at 16% of the CPU a new state's screens cost, more in a
server with a bigger heap. Reference counting frees nearly all of these objects anyway; the collector
only finds cycles, and a screen makes few.

:func:`tune_for_serving` moves what the process holds after start-up out of the collector's sight
(``gc.freeze``: modules, classes and constants never become garbage) and lets the youngest generation
grow to :data:`YOUNG` objects before a collection. Called once by ``app.py`` when the server starts.
"""

from __future__ import annotations

import gc

YOUNG = 20_000
"""Allocations (less deallocations) between two collections of the youngest generation (CPython's default: 700).
Cyclic garbage waits for up to this many objects before it is freed: at most a few MB."""


def tune_for_serving() -> None:
    """Freeze what the process holds now and collect the youngest generation less often (see the module docstring).

    >>> tune_for_serving(); gc.get_threshold()[0] == YOUNG and gc.get_freeze_count() > 0
    True
    """
    gc.collect()
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG, older, oldest)
