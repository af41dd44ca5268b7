"""Chapter 3: reciprocal rank per query and MRR over the three queries."""

from irlab.ui.shell.navigation import ensure_navigation
from irlab.ui.walkthrough.page import close_chapter, live_region, open_chapter
from irlab.walkthrough.chapters import chapter

ensure_navigation()  # first: see irlab/ui/shell/navigation.py

CHAPTER = chapter("mrr")
state = open_chapter(CHAPTER)
live_region(CHAPTER)  # what the chapter shows: irlab/walkthrough/chapters/mrr.py
close_chapter(state, CHAPTER)
