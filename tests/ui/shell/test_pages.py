"""Every page under AppTest runs and has a title; the home page reads the one page list."""

from __future__ import annotations

from irlab.ui.shell.pages import SECTIONS
from irlab.walkthrough.chapters import CHAPTERS


def test_every_page_runs_and_has_a_title(pages, open_page):
    for slug in pages:
        at = open_page(slug)
        assert at.title and at.title[0].value


def test_home_introduces_the_pictures_and_links_every_chapter(open_page):
    at = open_page("home")
    text = " ".join(m.value for m in at.markdown)
    assert "cat in a box" in text and "drag the pictures" in text
    links = [link.proto.label for link in at.main.get("page_link")]  # the sidebar has its own
    # first the self-study path (chapter 1, then Practise), then a card per chapter and per other page
    assert links[:2] == ["Begin with 1. Actual vs predicted", "Then: Practise"]
    assert "Start here" in at.markdown[0].value
    cards = links[2:]
    assert len(cards) == len(CHAPTERS) + 3  # the chapters, then the builder, Practise and Your runs
    assert all(any(chapter.title in link for link in cards) for chapter in CHAPTERS)
    assert {"Build an exercise", "Practise", "Your runs"} <= set(cards)
    captions = " ".join(c.value for c in at.caption)
    assert all(chapter.teaches and chapter.teaches in captions for chapter in CHAPTERS)


def test_the_page_list_names_every_page_file_once(pages):
    listed = [entry.path for entries in SECTIONS.values() for entry in entries]
    assert len(listed) == len(set(listed))
    assert set(listed) == set(pages.values())
