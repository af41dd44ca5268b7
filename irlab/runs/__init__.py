"""Evaluating real runs: TREC files, batch evaluation with trec_eval's rules.

``irlab.evaluate`` lives here (:mod:`irlab.runs.evaluate`), as do the readers of trec_eval's
qrels and run formats (:mod:`irlab.runs.trec`).
"""
