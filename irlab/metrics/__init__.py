"""The metrics, one module per family, and the measure registry.

Each family has ``explain_*`` functions (the readable definition, a
:class:`~irlab.explain.breakdown.Breakdown`) and plain functions returning their value;
:mod:`irlab.metrics.conventions` names every variant; :mod:`irlab.metrics.registry` declares
each measure once (names, parameters, defaults) for the parser, the pickers and the exercises.
"""
