"""The app's pages, listed once: the navigation, the sidebar and the home page's cards all read :data:`SECTIONS`.

Each page file is named after its URL path (see :mod:`irlab.ui.shell.navigation` for why), so the
legacy router and ``st.navigation`` agree on every URL.
"""

from __future__ import annotations

from dataclasses import dataclass

from irlab.walkthrough.chapters import CHAPTERS, Chapter


@dataclass(frozen=True)
class PageEntry:
    """One page of the app: its file, title, URL path, icon and one line on what it is for (the home card);
    ``desk``: the page's own controls fill the sidebar (the app's links fold into one line above them)."""

    path: str
    title: str
    url_path: str
    icon: str
    blurb: str
    desk: bool = False


def chapter_page_path(chapter: Chapter) -> str:
    """The page file of ``chapter``, named so Streamlit's legacy router derives the same URL path.

    >>> from irlab.walkthrough.chapters import chapter
    >>> chapter_page_path(chapter("recall-precision"))
    'pages/02_recall-precision.py'
    """
    return f"pages/{chapter.number:02d}_{chapter.slug}.py"


def chapter_entry(chapter: Chapter) -> PageEntry:
    """The page of one walkthrough chapter."""
    return PageEntry(chapter_page_path(chapter), f"{chapter.number}. {chapter.title}", chapter.slug,
                     chapter.icon, chapter.teaches)


HOME = PageEntry("pages/home.py", "Home", "", ":material/home:", "What IR Lab is and where to start.")
BUILD = PageEntry("pages/build.py", "Build an exercise", "build", ":material/construction:",
                  "Lecturers: your own items, judgments and questions; notebooks, worksheets, a variant per student.")
PRACTISE = PageEntry("pages/practise.py", "Practise", "practise", ":material/school:",
                     "Students: answer an exercise with instant feedback that names the classic mistakes.")
RUNS = PageEntry("pages/runs.py", "Your runs", "runs", ":material/query_stats:",
                 "Your own system's TREC runs: trec_eval's numbers, any query explained, systems compared.")
POOLING = PageEntry("pages/pooling.py", "Pooling lab", "pooling", ":material/filter_alt:",
                    "Pool a class's runs at depth k, judge the pool, and see how the ranking of the systems moves.")
CLASS = PageEntry("pages/class.py", "Run a class", "class", ":material/co_present:",
                  "Lecturers: students join from their phones, predict a number, see the class's answers.", desk=True)
TASK = PageEntry("pages/task.py", "Shared task", "task", ":material/emoji_events:",
                 "A class's shared task: runs scored on hidden qrels, a leaderboard, results after the deadline.")
JOIN = PageEntry("pages/join.py", "Join a class", "join", ":material/how_to_reg:",
                 "Students: join your lecturer's class with its code and answer its questions.")

SECTIONS: dict[str, tuple[PageEntry, ...]] = {
    "IR Lab": (HOME,),
    "Walkthrough: cats in boxes": tuple(chapter_entry(chapter) for chapter in CHAPTERS),
    "Exercises": (BUILD, PRACTISE),
    "Your own system": (RUNS, POOLING),
    "Live class": (CLASS, JOIN, TASK),
}
"""Every page, by sidebar section, in order."""

BEYOND_THE_WALKTHROUGH: tuple[PageEntry, ...] = (BUILD, PRACTISE, RUNS)
"""The home page's second row of cards."""
