"""The tile component's data is checked before it reaches the browser; user text is passed as data."""

from __future__ import annotations

import pytest

from irlab.ui.components.tiles import build_data

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
