"""A read-only strip of pictures with their titles (home page, the ideal order in chapter 5, exercise previews)."""

from __future__ import annotations

import html
from collections.abc import Sequence
from pathlib import Path

import streamlit as st

from irlab.data.scenario import Item
from irlab.ui.components.pictures import DOCUMENT, picture_url

_CSS = "<style>\n" + Path(__file__).with_name("gallery.css").read_text(encoding="utf-8") + "</style>"


def picture_strip(items: Sequence[Item], badges: Sequence[str] | None = None) -> None:
    """The items' pictures in order, each with its title and an optional badge (e.g. "rank 1 · grade 4").

    Titles, badges and text alternatives are escaped: an exercise's items are a lecturer's text.
    """
    figures = []
    for index, item in enumerate(items):
        badge = f'<span class="irl-badge">{html.escape(badges[index])}</span>' if badges else ""
        src = picture_url(item.picture or DOCUMENT)  # a cached file: no 30 KB of data URIs per run
        figures.append(f'<figure><img src="{html.escape(src)}" alt="{html.escape(item.alt or item.title)}">'
                       f"<figcaption>{badge}{html.escape(item.title)}</figcaption></figure>")
    st.html(_CSS + '<div class="irl-gallery" role="list">' + "".join(
        f'<div role="listitem">{figure}</div>' for figure in figures) + "</div>")
