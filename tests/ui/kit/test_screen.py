"""The region's JSON of a chapter's blocks: every chart's figure is what Plotly's own encoder gives."""

from __future__ import annotations

import itertools
import json
from dataclasses import replace

import plotly.io
import pytest

from irlab.ui.kit.screen import figure_json
from irlab.walkthrough.chapters import CHAPTERS
from irlab.walkthrough.screens import Chart, Columns, Details, Tabs, chapter_screen
from irlab.walkthrough.state import DEFAULT_STATE


def charts(blocks):
    for block in blocks:
        if isinstance(block, Chart):
            yield block
        elif isinstance(block, (Columns, Details, Tabs)):
            yield from charts(block.children)


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda chapter: chapter.slug)
def test_every_chart_figure_is_what_plotlys_encoder_gives(chapter):
    figures = [block.spec for mode, k, present in itertools.product(("binary", "graded"), (1, 4, 8), (False, True))
               for block in charts(chapter_screen(replace(DEFAULT_STATE, mode=mode, k=k, present=present), chapter))]
    for spec in figures:
        assert figure_json(spec) == json.loads(plotly.io.to_json(spec, validate=False))


def test_a_figure_json_cannot_hold_is_encoded_by_plotly():
    import numpy as np

    spec = {"data": [{"y": np.array([1.5, np.nan]), "x": [np.int64(1), 2]}]}
    assert figure_json(spec) == {"data": [{"y": [1.5, None], "x": [1, 2]}]}
