"""The sources the cats-in-boxes walkthrough and the NDCG exercise are built on, declared once.

The README cites them (its "Sources" section, checked by ``tests/scenarios/test_sources.py``) and the home
page links them; chapters that point out a source's mistake name them by their ``short`` name.

>>> [source.short for source in SOURCES]
['the article', 'the notebook', 'the video', 'the lecture', 'the NDCG exercise']
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Source:
    """One source: how the app names it, what it is, and where to read it (``url`` may be empty)."""

    short: str
    title: str
    what: str
    url: str = ""


SOURCES: tuple[Source, ...] = (
    Source("the article", "Laura Carnevali, \u201cEvaluation Measures in Information Retrieval\u201d, Pinecone, 2023",
           "the cats-in-boxes example: actual vs predicted, Recall@K, Precision@K, MRR, AP@K, MAP@K, CG to NDCG@K",
           "https://www.pinecone.io/learn/offline-evaluation/"),
    Source("the notebook", "The article's companion notebook (pinecone-io/examples, offline-evaluation.ipynb)",
           "the same example as code with its printed outputs",
           "https://github.com/pinecone-io/examples/blob/master/learn/experimental/algos-and-libraries/"
           "offline-evaluation/offline-evaluation.ipynb"),
    Source("the video", "A video walkthrough of the same example",
           "Recall@K, MRR, MAP@K and NDCG@K on the eight pictures, with Python snippets"),
    Source("the lecture", "A lecture on evaluation with multi-level relevance judgements",
           "gain, cumulative gain, discounting, the ideal DCG and normalising across queries"),
    Source("the NDCG exercise", "A Jupyter exercise: NDCG of three system rankings, checked by pytest cases",
           "the J\u00e4rvelin\u2013Kek\u00e4l\u00e4inen discount (rank 1 undiscounted); IR Lab's built-in "
           "\u201cNDCG exercise\u201d reproduces it"),
)
"""Every source, in the order the README lists them."""


def sources_markdown() -> str:
    """The sources as a Markdown list with their links (the home page shows it; the text is ours, not a user's).

    >>> sources_markdown().splitlines()[0].split("](")[0]
    '- **The article**: [Laura Carnevali, “Evaluation Measures in Information Retrieval”, Pinecone, 2023'
    """
    return "\n".join(f"- **{source.short[0].upper()}{source.short[1:]}**: "
                     + (f"[{source.title}]({source.url})" if source.url else source.title)
                     + f" ({source.what})" for source in SOURCES)
