"""Text from users stays text; the tile component's data is checked before it reaches the browser."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from irlab.ui.markdown import escape_markdown, markdown_table
from irlab.ui.tiles import build_data


@given(st.text())
def test_escaped_markdown_has_no_live_punctuation(text):
    escaped = escape_markdown(text)
    unescaped = re.sub(r"\\(.)", "", escaped)
    assert not re.search(r"[!-/:-@\[-`{-~]", unescaped)
    assert "\n" not in escaped


def test_tables_escape_every_cell():
    table = markdown_table(["a"], [["<img src=x onerror=alert(1)>"], ["| break"], [":red[x]"]])
    assert "\\<img" in table and "\\| break" in table and "\\:red\\[x\\]" in table


TILE = {"id": "1", "title": "<b>White cat</b>", "alt": "a cat", "picture": "data:,", "relevance": 1}


def test_tile_data_is_checked():
    data = build_data(tiles=[TILE], k=1, mode="binary", default_order=["1"], ideal_order=None, label="L")
    assert data["tiles"][0]["title"] == "<b>White cat</b>"  # passed as data; the component sets textContent
    assert data["tiles"][0]["relevance_label"] == "relevant"
    with pytest.raises(ValueError, match="relevance 2 is outside 0..1"):
        build_data(tiles=[{**TILE, "relevance": 2}], k=1, mode="binary", default_order=[], ideal_order=None, label="L")
    with pytest.raises(ValueError, match="distinct"):
        build_data(tiles=[TILE, TILE], k=1, mode="binary", default_order=[], ideal_order=None, label="L")
    with pytest.raises(ValueError, match="mode"):
        build_data(tiles=[TILE], k=1, mode="fuzzy", default_order=[], ideal_order=None, label="L")
