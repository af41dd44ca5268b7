"""Chapter 2: Recall@K and Precision@K, order-unaware, and their curves over K."""

from irlab.ui.shell.navigation import ensure_navigation
from irlab.ui.walkthrough.page import close_chapter, live_region, open_chapter
from irlab.walkthrough.chapters import chapter

ensure_navigation()  # first: see irlab/ui/shell/navigation.py

CHAPTER = chapter("recall-precision")
state = open_chapter(CHAPTER)
live_region(CHAPTER)  # what the chapter shows: irlab/walkthrough/chapters/recall_precision.py
close_chapter(state, CHAPTER)
