"""Where each chapter's page file lives (app.py's navigation and the home page's links)."""

from __future__ import annotations

from irlab.walkthrough.chapters import Chapter

ICONS = {"actual-vs-predicted": ":material/compare_arrows:", "recall-precision": ":material/filter_list:",
         "mrr": ":material/looks_one:", "map": ":material/stacked_line_chart:", "ndcg": ":material/leaderboard:",
         "conventions": ":material/rule:"}


def chapter_page_path(chapter: Chapter) -> str:
    """The page file of ``chapter``, named so Streamlit's legacy router derives the same URL path.

    >>> from irlab.walkthrough.chapters import chapter
    >>> chapter_page_path(chapter("recall-precision"))
    'pages/02_recall-precision.py'
    """
    return f"pages/{chapter.number:02d}_{chapter.slug}.py"
