"""The six walkthrough chapters: titles, defaults, the sources' example, and the teaching text.

Content lives here, not in the pages, so pages stay thin and tests can check the text (every
"try this" claim is verified against the metrics in tests/walkthrough/test_guide.py and
tests/ui/walkthrough/test_text_follows_state.py).

Each chapter opens in its sources' example state (``default_k``, ``default_mode``) until the
learner changes a shared control; from then on K and the relevance mode follow the learner
across chapters. ``preset`` restores the sources' example in one click.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Chapter:
    """One chapter of the walkthrough."""

    slug: str
    number: int
    title: str
    summary: str
    default_k: int
    default_mode: str
    preset_label: str
    rewards: str
    pros: tuple[str, ...]
    cons: tuple[str, ...]
    source_notes: tuple[str, ...] = ()
    uses_k: bool = True
    binary_only: bool = False
    teaches: str = ""  # one line for the home page's card


CHAPTERS: tuple[Chapter, ...] = (
    Chapter(
        slug="actual-vs-predicted", number=1, title="Actual vs predicted",
        teaches="The top K as a prediction: true and false positives, misses and the confusion matrix.",
        summary=("A search system ranks all eight pictures for the query and returns its top K. Everything it "
                 "returns is *predicted* relevant, everything else *predicted* not relevant. Comparing that with "
                 "what is *actually* relevant sorts every picture into one of four boxes: true positive (TP), "
                 "false positive (FP), false negative (FN) or true negative (TN). Every offline metric in this "
                 "walkthrough is built from these counts or from the ranks behind them."),
        default_k=2, default_mode="binary",
        preset_label="The sources' example: \"cat in a box\", K = 2",
        rewards="Nothing yet: this chapter sets up the vocabulary. TP and FN depend on which relevant items made "
                "the top K; FP and TN on the non-relevant ones.",
        pros=("**Offline** metrics need only judgments and a ranking, so a system can be measured before anyone "
              "uses it; **online** metrics (clicks, click-through rate, A/B tests) need real users.",
              "Metrics split into **order-unaware** ones (did the relevant items make the top K?) and "
              "**order-aware** ones (how high did they come?)."),
        cons=("Counting TP/FP/FN/TN ignores the order inside the top K: rank 1 and rank K count the same.",),
    ),
    Chapter(
        slug="recall-precision", number=2, title="Recall@K and Precision@K",
        teaches="How much of the relevant the top K found, and how much of the top K is relevant.",
        summary=("**Recall@K** asks: of all the relevant pictures, how many made the top K? **Precision@K** asks: "
                 "of the top K, how many are relevant? Both only count the relevant items in the top K, so they "
                 "ignore the order inside it."),
        default_k=2, default_mode="binary",
        preset_label="The sources' example: \"cat in a box\", K = 2",
        rewards="Recall rewards finding every relevant item; precision rewards not wasting the user's attention "
                "on irrelevant ones. Usually one rises while the other falls as K grows.",
        pros=("Both are easy to explain: a recall of 1 means every relevant item was returned.",
              "A small K makes recall hard to earn, which matches what a user who reads only the top results sees."),
        cons=("Recall@K can be gamed: with K = N every system has perfect recall.",
              "Both are order-unaware: a relevant item at rank 1 scores the same as one at rank K."),
        source_notes=("The sources divide Precision@K by K, as trec_eval does; some libraries divide by the number of "
                      "items actually returned when fewer than K come back (see Conventions).",),
    ),
    Chapter(
        slug="mrr", number=3, title="Mean reciprocal rank (MRR)",
        teaches="How soon the first relevant result comes, averaged over queries.",
        summary=("For each query, the **reciprocal rank** is 1 divided by the rank of the first relevant result. "
                 "**MRR** averages it over the queries: here \"cat in a box\", \"white cat\" and \"dark cat\", each "
                 "with its own ranking of the same eight pictures."),
        default_k=2, default_mode="binary",
        preset_label="The sources' example: three queries, first hits at ranks 2, 1 and 5",
        rewards="Putting one relevant result at the very top, which is what matters for a chatbot or a question "
                "answering system that shows a single answer.",
        pros=("Order-aware: a first hit at rank 1 scores 1, at rank 2 only 0.5.",
              "Simple to compute and to compare across systems."),
        cons=("Everything after the first relevant result is ignored: one hit at rank 1 and nine irrelevant items "
              "still score a perfect 1.",
              "Less intuitive than recall: an MRR of 0.57 means \"first hit around rank 2\" only on average."),
        source_notes=("The notebook's MRR loop prints the running sum (0.5, 1.5, 1.7) where it means each query's "
                      "reciprocal rank (0.5, 1, 0.2); the MRR it prints, 0.57, is right.",
                      "The sources' code reads the rank of the first relevant result straight from the list of "
                      "relevant ids; that only works because their predicted list is 1, 2, ..., 8. Here the "
                      "rank is looked up in the ranking, so any order works."),
        uses_k=False, binary_only=True,
    ),
    Chapter(
        slug="map", number=4, title="AP@K and MAP@K",
        teaches="Precision at every relevant rank: rewards putting all relevant results early.",
        summary=("**Average precision** looks at every rank k up to K that holds a relevant item, takes Precision@k "
                 "there, and divides their sum by the number of relevant items. **MAP@K** is the mean of AP@K over "
                 "the queries."),
        default_k=8, default_mode="binary",
        preset_label="The sources' example: three queries, K = 8",
        rewards="Returning all the relevant items, and returning them early: every relevant item placed higher "
                "raises the precision at its own rank and at every relevant rank below it.",
        pros=("Order-aware and it counts every relevant item, so it suits search and recommendation lists.",
              "Dividing by all relevant items (not just those found) penalises a system that misses some."),
        cons=("Relevance must be binary: an item is relevant or not, so \"a bit relevant\" cannot be expressed. "
              "Graded judgments need NDCG.",
              "Harder to explain to a non-specialist than precision or recall."),
        source_notes=("The article lists the precision terms of \"white cat\" as 1, 0.5, 0.4, 0.43; they are 1, "
                      "0.5, 0.6, 0.57 (as in the notebook), which gives AP@8 = 0.6679.",
                      "AP@8 of \"dark cat\" is exactly 0.225: the sources print it as 0.22 in one place and 0.23 in "
                      "another (rounding)."),
        binary_only=True,
    ),
    Chapter(
        slug="ndcg", number=5, title="CG, DCG, IDCG and NDCG@K",
        teaches="Graded relevance: gains, rank discounts and the ideal ranking.",
        summary=("With **graded** relevance each picture gets a grade from 0 (not relevant) to 4 (a white cat in a "
                 "box). **CG@K** adds up the grades of the top K; **DCG@K** first divides each grade by a discount "
                 "that grows with the rank; **IDCG@K** is the DCG of the best possible order; **NDCG@K** = DCG@K / "
                 "IDCG@K, between 0 and 1."),
        default_k=2, default_mode="graded",
        preset_label="The sources' example: \"white cat in a box\", graded 0-4, K = 2",
        rewards="Highly relevant items near the top: a grade-4 item at rank 1 is worth more than the same item at "
                "rank 5, and more than a grade-1 item at rank 1.",
        pros=("Uses graded judgments, so \"more relevant\" counts for more.",
              "Order-aware, and normalised: an ideal top K scores 1, so queries with many or few relevant items "
              "can be averaged fairly."),
        cons=("Needs graded judgments for every item, which are costlier to collect than yes/no.",
              "Tools disagree on the gain, the discount and the ideal ranking, so NDCG numbers from different "
              "tools are not always comparable (see Conventions)."),
        source_notes=("The article states NDCG@8 = 0.41 for this ranking, but prints code with other grades "
                      "(0, 7, 2, 4, 6, 1, 4, 3); for the grades in its text and figures the value is 0.7283, as the "
                      "notebook prints (0.73).",),
    ),
    Chapter(
        slug="conventions", number=6, title="Conventions",
        teaches="Why trec_eval, scikit-learn and others print different numbers for the same ranking.",
        summary=("The same ranking can get different scores from different tools, because each metric has "
                 "choices: which gain, which discount, which items the ideal ranking sorts, what AP and precision "
                 "divide by. Here the current ranking is scored under every named convention, with the formula "
                 "and the tools that use it."),
        default_k=8, default_mode="graded",
        preset_label="The sources' example: \"white cat in a box\", K = 8, all eight returned",
        rewards="Knowing which convention a number was computed with before comparing it with another.",
        pros=("IR Lab follows trec_eval, the field's reference implementation, unless you choose otherwise.",),
        cons=("A paper that reports \"NDCG@10\" without saying which gain, discount and ideal ranking it used "
              "cannot be compared digit for digit with another.",),
        source_notes=("The NDCG exercise of the sources uses the original Järvelin–Kekäläinen discount (rank 1 not "
                      "discounted, rank k >= 2 divided by log2 k); the article and notebook use log2(k + 1). Both are "
                      "legitimate; their numbers differ.",),
    ),
)
"""The chapters, in order."""

BY_SLUG = {chapter.slug: chapter for chapter in CHAPTERS}


def chapter(slug: str) -> Chapter:
    """The chapter called ``slug``.

    >>> chapter("ndcg").default_mode
    'graded'
    """
    return BY_SLUG[slug]
