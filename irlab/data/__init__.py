"""Validated data: judgments, rankings and scenarios (items, queries, judgments, rankings).

Everything here is checked on construction, with messages that name the problem; the metrics
above rely on it. Imports only :mod:`irlab.errors` and this package.
"""
