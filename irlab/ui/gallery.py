"""A read-only strip of pictures with their titles (home page, the ideal order in chapter 5)."""

from __future__ import annotations

import html
from collections.abc import Sequence

import streamlit as st

from irlab.data.scenario import Item
from irlab.ui.served import picture_url

_CSS = """
<style>
.irl-gallery { display: flex; flex-wrap: wrap; gap: .45rem; margin: .4rem 0 1rem; }
.irl-gallery figure { margin: 0; width: 92px; text-align: center; }
.irl-gallery img { width: 84px; height: 84px; display: block; margin: 0 auto; }
.irl-gallery figcaption { font-size: .8rem; line-height: 1.2; margin-top: .25rem; }
.irl-gallery .irl-badge { display: block; font-weight: 700; font-size: .8rem; }
</style>
"""


def picture_strip(items: Sequence[Item], badges: Sequence[str] | None = None) -> None:
    """The items' pictures in order, each with its title and an optional badge (e.g. "rank 1 · grade 4")."""
    figures = []
    for index, item in enumerate(items):
        badge = f'<span class="irl-badge">{html.escape(badges[index])}</span>' if badges else ""
        src = picture_url(item.picture) if item.picture else ""  # a cached file: no 30 KB of data URIs per run
        figures.append(f'<figure><img src="{src}" alt="{html.escape(item.alt or item.title)}">'
                       f"<figcaption>{badge}{html.escape(item.title)}</figcaption></figure>")
    st.html(_CSS + '<div class="irl-gallery" role="list">' + "".join(
        f'<div role="listitem">{figure}</div>' for figure in figures) + "</div>")
