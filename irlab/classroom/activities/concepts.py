"""The concept questions a class can be asked as "which is it": a small bank of multiple-choice questions.

Each question is about a convention or a property of the measures the walkthrough teaches, with
the right option(s) and why (shown after the reveal). The rest of IR Lab asks numbers (Practise,
the walkthrough's quiz); these ask the ideas behind them. Every "why" names what IR Lab computes,
and a test checks the claims against irlab's measures where a computation can (AP's denominator, RR
without a relevant item, which measures never fall as K grows, trec_eval's relevance level).

>>> [c.id for c in CONCEPTS][:3]
['ap-denominator', 'rr-none-relevant', 'grows-with-k']
>>> CONCEPT["grows-with-k"].several, CONCEPT["grows-with-k"].right
(True, ('recall', 'dcg'))
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Concept:
    """A concept question: its id, a short title, the prompt, options (id, text), the right option ids, whether
    several may be chosen (the prompt says so), and why."""

    id: str
    title: str
    prompt: str
    options: tuple[tuple[str, str], ...]
    right: tuple[str, ...]
    several: bool
    why: str


CONCEPTS: tuple[Concept, ...] = (
    Concept("ap-denominator", "What AP divides by",
            "Average precision (AP) adds up the precision at each relevant item's rank. "
            "What does it divide that sum by?",
            (("relevant", "R: the number of relevant items judged for the query"),
             ("found", "the number of relevant items the ranking returned"),
             ("k", "K, the cut-off"), ("min", "min(K, R)")),
            ("relevant",), False,
            "AP divides by R, every relevant item judged for the query (trec_eval's map), so a relevant item the "
            "ranking never returns counts as precision 0. Dividing by the relevant items returned is a common "
            "mistake: it rewards a ranking for missing relevant items."),
    Concept("rr-none-relevant", "RR without a relevant item",
            "A ranking returns no relevant item at all. What is its reciprocal rank (RR)?",
            (("zero", "0"), ("one", "1"), ("skip", "undefined: the query is left out of MRR"),
             ("last", "1 / the length of the ranking")),
            ("zero",), False,
            "RR is 0 when no relevant item is ranked, and the query still counts in MRR's mean (trec_eval's "
            "recip_rank). Leaving it out would make a system look better for failing."),
    Concept("grows-with-k", "What never falls as K grows",
            "Which of these can never fall as K grows? (Choose every one that cannot fall.)",
            (("recall", "Recall@K"), ("precision", "Precision@K"), ("ndcg", "NDCG@K"), ("dcg", "DCG@K")),
            ("recall", "dcg"), True,
            "Recall@K and DCG@K only add terms as K grows (a relevant item found, a gain discounted), so they "
            "never fall. Precision@K falls with every non-relevant item added; NDCG@K can fall too, because its "
            "ideal DCG@K grows as well."),
    Concept("relevance-level", "Grades and trec_eval's -l",
            "Grades go from 0 to 4 and trec_eval runs with -l 2. Which grades count as "
            "relevant for P@K, recall and AP? (Choose every one.)",
            (("g0", "grade 0"), ("g1", "grade 1"), ("g2", "grade 2"), ("g3", "grade 3"), ("g4", "grade 4")),
            ("g2", "g3", "g4"), True,
            "-l 2 means a grade of 2 or more counts as relevant for the binary measures; grades 0 and 1 do not. "
            "NDCG still reads the grades themselves."),
    Concept("idcg", "The ranking IDCG@K scores",
            "NDCG@K divides DCG@K by IDCG@K. IDCG@K is the DCG@K of which ranking?",
            (("judged", "all judged items sorted by grade, highest first"),
             ("returned", "the returned items sorted by grade"),
             ("system", "the system's own top K"), ("one", "no ranking: IDCG@K is always K")),
            ("judged",), False,
            "IDCG@K is the DCG@K of the ideal ranking of every judged item (trec_eval's ndcg_cut), so missing a "
            "highly relevant item lowers NDCG@K. Sorting only the returned items is a known mistake: it can "
            "give NDCG 1 to a ranking that misses the best items."),
    Concept("mrr", "How MRR averages",
            "How is MRR over several queries computed?",
            (("mean", "the mean of the queries' reciprocal ranks"),
             ("pooled", "the reciprocal rank of all queries' rankings pooled into one"),
             ("best", "the best query's reciprocal rank"),
             ("reciprocal", "1 / the mean rank of the first relevant items")),
            ("mean",), False,
            "MRR is the plain mean of each query's RR (0 for a query without a relevant item). One over the mean "
            "rank is not the same: the mean of 1/1 and 1/3 is 0.67, one over the mean rank 2 is 0.5."),
)
"""The bank, in the order a lecturer is offered it."""

CONCEPT = {concept.id: concept for concept in CONCEPTS}
