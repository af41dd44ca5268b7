"""Chapter 6: the current ranking scored under every named convention."""

from irlab.ui.shell.navigation import ensure_navigation
from irlab.ui.walkthrough.page import close_chapter, live_region, open_chapter
from irlab.walkthrough.chapters import chapter

ensure_navigation()  # first: see irlab/ui/shell/navigation.py

CHAPTER = chapter("conventions")
state = open_chapter(CHAPTER)
live_region(CHAPTER)  # what the chapter shows: irlab/walkthrough/chapters/conventions.py
close_chapter(state, CHAPTER)
