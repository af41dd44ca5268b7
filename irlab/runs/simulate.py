"""A simulated test collection: qrels and runs of systems of chosen quality, generated from a seed.

Used for the runs page's sample collection (so it is never empty, and clearly labelled as
simulated) and for the engine's benchmark (a million run lines in a few seconds). Nothing here
is real data: each topic has a pool of candidate documents with hidden grades 0-3; a system
scores each candidate as ``quality × grade + shared noise + own noise``, rounded to one decimal so that ties
happen as they do in real runs; the judgments cover the top of every system plus a random
sample, like a TREC pool, so some retrieved documents are unjudged and some judged relevant
documents are never retrieved. A few topics have no relevant document at all. The shared noise
(what every system finds misleading about a document) makes systems agree on hard topics, as
real systems do, so paired tests have something to pair.

>>> collection = simulate(topics=3, systems={"good": 2.0, "poor": 0.3}, depth=5, seed=1)
>>> sorted(collection.runs), len(collection.qrels_lines()) > 0, collection.run_lines("good")[0].split()[:2]
(['good', 'poor'], True, ['401', 'Q0'])
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from irlab.errors import ValidationError

SAMPLE_SYSTEMS = {"bm25-tuned": 0.72, "bm25": 0.7, "tfidf-baseline": 0.3}
"""The runs page's sample: two close systems (a tuned one barely ahead) and a clearly weaker baseline,
so that comparing them shows both a significant and a not-significant difference."""

SHARED_NOISE = 1.2
"""Spread of the noise every system adds to a document's score (its misleading look)."""
OWN_NOISE = 1.0
"""Spread of each system's own noise."""


@dataclass(frozen=True)
class Collection:
    """Qrels and runs as arrays: per topic id, judged doc ids and grades; per system, ranked docs and scores."""

    topics: tuple[str, ...]
    judged: Mapping[str, tuple[np.ndarray, np.ndarray]]
    runs: Mapping[str, Mapping[str, tuple[np.ndarray, np.ndarray]]]

    def qrels_lines(self) -> list[str]:
        """The qrels in trec_eval's format, one line per judgment."""
        return [f"{topic} 0 {doc} {grade}" for topic in self.topics
                for doc, grade in zip(*self.judged[topic])]

    def run_lines(self, system: str) -> list[str]:
        """One system's run in trec_eval's format (rank column from 1, the tag is the system's name)."""
        return [f"{topic} Q0 {doc} {rank} {score:.1f} {system}" for topic in self.topics
                for rank, (doc, score) in enumerate(zip(*self.runs[system][topic]), start=1)]


def simulate(*, topics: int = 50, systems: Mapping[str, float] = SAMPLE_SYSTEMS, depth: int = 100,
             judged: int | None = None, seed: int = 3) -> Collection:
    """A simulated collection: ``topics`` topics (ids from 401), each system ranking ``depth`` documents.

    ``judged`` documents per topic (default: about a tenth more than ``depth``, at most 100)
    are judged: the top 20 of each system, then a random sample of the candidates.
    """
    if not 1 <= topics <= 100_000 or not 1 <= depth <= 10_000 or not systems:
        raise ValidationError("simulate: 1-100000 topics, depth 1-10000, and at least one system")
    rng = np.random.default_rng(seed)
    judged = judged if judged is not None else min(100, depth + depth // 10)
    pool = depth + max(depth // 2, 10)
    corpus = max(1_000_000, topics * pool)
    ids, judgments, rankings = [], {}, {name: {} for name in systems}
    for t in range(topics):
        topic = str(401 + t)
        ids.append(topic)
        candidates = rng.choice(corpus, size=pool, replace=False)
        no_relevant = rng.random() < 0.06
        grades = np.zeros(pool, dtype=np.int64) if no_relevant else \
            rng.choice(4, size=pool, p=[0.82, 0.09, 0.06, 0.03])
        tops = []
        shared = rng.normal(0.0, SHARED_NOISE, pool)
        for name, quality in systems.items():
            scores = np.round(quality * grades + shared + rng.normal(0.0, OWN_NOISE, pool) + 10.0, 1)
            order = np.argsort(-scores, kind="stable")[:depth]
            rankings[name][topic] = (np.array([f"doc{d:07d}" for d in candidates[order]]), scores[order])
            tops.extend(order[:20].tolist())
        chosen = list(dict.fromkeys(tops))[:judged]
        rest = [i for i in rng.permutation(pool).tolist() if i not in set(chosen)]
        chosen += rest[:max(0, judged - len(chosen))]
        chosen = np.array(sorted(chosen))
        judgments[topic] = (np.array([f"doc{d:07d}" for d in candidates[chosen]]), grades[chosen])
    return Collection(tuple(ids), judgments, rankings)
