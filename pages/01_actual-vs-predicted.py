"""Chapter 1: actual vs predicted conditions, TP/FP/FN/TN at K."""

from irlab.ui.shell.navigation import ensure_navigation
from irlab.ui.walkthrough.page import close_chapter, live_region, open_chapter
from irlab.walkthrough.chapters import chapter

ensure_navigation()  # first: see irlab/ui/shell/navigation.py

CHAPTER = chapter("actual-vs-predicted")
state = open_chapter(CHAPTER)
live_region(CHAPTER)  # what the chapter shows: irlab/walkthrough/chapters/actual_vs_predicted.py
close_chapter(state, CHAPTER)
