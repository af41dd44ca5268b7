"""Every chapter's "Try this", rendered under several states, names the K on screen and the numbers on screen."""

from __future__ import annotations

import random
import re

import pytest

from irlab.walkthrough.chapters import CHAPTERS
from tests.ui.conftest import region_data

SEEDS = range(5)


def _states(seed: int) -> dict[str, str]:
    rng = random.Random(seed)
    order = [str(i) for i in range(1, 9)]
    rng.shuffle(order)
    params = {"order": ",".join(order), "k": str(rng.randint(1, 8)), "rel": rng.choice(["binary", "graded"])}
    if params["rel"] == "graded":
        params["level"] = str(rng.randint(1, 4))
    return params


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("chapter", [c for c in CHAPTERS if c.slug != "conventions"], ids=lambda c: c.slug)
def test_try_this_speaks_of_the_state_on_screen(open_page, shown_metrics, shown_blocks, chapter, seed):
    params = _states(seed)
    at = open_page(chapter.slug, params)
    shown = shown_metrics(at)
    [steps] = [block for block in shown_blocks(at) if block["kind"] == "try"]
    assert steps["title"].startswith("Try this.") and steps["items"]
    text = " ".join(item["text"] for item in steps["items"])
    k = int(params["k"])
    named = {int(n) for n in re.findall(r"[A-Za-z]+@(\d+)", text)}
    assert named <= {k}, (text, k)  # every Measure@N is the K on screen
    for label, value in re.findall(r"([A-Za-z]+@\d+|MRR) (?:stays|goes from|from) ([0-9.]+)", text):
        if label in shown:  # the "before" number of every claim is the one on screen now
            assert shown[label] == value, (label, value, shown, text)
    if chapter.slug in ("actual-vs-predicted", "recall-precision"):
        # the relevance level's note, under the level in the region's controls
        relevant = [s["note"] for s in region_data(at)["controls"]["settings"] if s["name"] == "level"]
        mode_words = "grade ≥" if params["rel"] == "graded" else "binary judgments"
        assert relevant and mode_words in relevant[0]
