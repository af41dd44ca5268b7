"""Chapter 4: the Precision@k x rel_k table per query, AP@K per query, and MAP@K."""

from irlab.ui.shell.navigation import ensure_navigation
from irlab.ui.walkthrough.page import close_chapter, live_region, open_chapter
from irlab.walkthrough.chapters import chapter

ensure_navigation()  # first: see irlab/ui/shell/navigation.py

CHAPTER = chapter("map")
state = open_chapter(CHAPTER)
live_region(CHAPTER)  # what the chapter shows: irlab/walkthrough/chapters/average_precision.py
close_chapter(state, CHAPTER)
