"""The bottom layer: plugged-in formulas as expression trees, and breakdowns.

A :class:`~irlab.explain.breakdown.Breakdown` carries a metric's symbolic formula, the same
formula with the numbers plugged in, per-rank rows and the value; the value *is* the plugged-in
formula evaluated, so a number and its explanation are one computation. Imports nothing from
irlab but :mod:`irlab.errors`.
"""
