"""What a new state costs the server to draw ahead, per chapter: its screen, its K form, one tile's moves.

    python bench/ahead_cost.py [--states 20] [--chapters ndcg,map] [--profile ndcg]

When each student of a class moves their own way, nearly every state is new, and each new state costs the
process its screen (:func:`irlab.ui.walkthrough.screen.shown_screen`), the screens at the seven other K when the
learner comes to the K slider (:func:`~irlab.ui.walkthrough.screen.k_form`) and the screens after each move of a
tile when the learner comes to a tile (:func:`~irlab.ui.walkthrough.screen.moves_ahead`). This times each, in CPU
time of this process (``time.process_time``), on ``--states`` random orders of the pictures (seeded), every cache
emptied first (the LaTeX -> MathML conversions too, except for the warm-up state): what a class of students who
each move their own way asks. ``--profile`` prints cProfile's top functions for one chapter's K forms.

Not a test: timings depend on the machine and on what else it runs.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import statistics
import sys
import time
from dataclasses import replace
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from irlab.ui.walkthrough import screen
from irlab.ui.walkthrough.state import tile_change_state
from irlab.walkthrough.chapters import BY_SLUG, CHAPTERS
from irlab.walkthrough.state import DEFAULT_STATE


def states(count: int, seed: int = 7) -> list:
    """``count`` distinct random orders of the pictures (the sources' example's grades)."""
    rng = random.Random(seed)
    seen, out = set(), []
    while len(out) < count:
        order = list(DEFAULT_STATE.order)
        rng.shuffle(order)
        if tuple(order) not in seen:
            seen.add(tuple(order))
            out.append(replace(DEFAULT_STATE, order=tuple(order)))
    return out


def timed(work) -> float:
    start = time.process_time()
    work()
    return (time.process_time() - start) * 1000


def clear() -> None:
    for cache in (screen.SCREENS, screen.K_FORMS, screen.MOVES):
        cache.clear()


def costs(chapter, count: int) -> dict[str, float]:
    """Median ms of CPU per new state: its screen, its K form (its screen made already), one tile's moves."""
    mode = chapter.default_mode
    row = next(iter(chapter.tile_rows))
    out: dict[str, list[float]] = {"screen": [], "K form": [], "moves": []}
    warm, *rest = states(count + 1)
    screen.k_form(replace(warm, mode=mode), chapter)
    for state in rest:
        state = replace(state, mode=mode)
        out["screen"].append(timed(partial(screen.shown_screen, state, chapter)))
        out["K form"].append(timed(partial(screen.k_form, state, chapter)))
        item = state.order[-1]

        def after(move, state=state):
            return tile_change_state(state, move, chapter.tile_rows, state.effective_mode(chapter))

        other = replace(state, order=tuple(reversed(state.order)))  # its own screen and tiles, not cached
        screen.shown_screen(other, chapter)
        out["moves"].append(timed(partial(screen.moves_ahead, other, other, chapter, row, item, after)))
        clear()
    return {kind: statistics.median(values) for kind, values in out.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--states", type=int, default=20)
    parser.add_argument("--chapters", default=",".join(chapter.slug for chapter in CHAPTERS))
    parser.add_argument("--profile", default="")
    parser.add_argument("--sort", default="tottime", help="cProfile's order: tottime or cumulative")
    args = parser.parse_args()
    print("| chapter | screen ms | K form ms | a tile's moves ms |\n|---|---|---|---|")
    for slug in args.chapters.split(","):
        row = costs(BY_SLUG[slug], args.states)
        print(f"| {slug} | {row['screen']:.1f} | {row['K form']:.1f} | {row['moves']:.1f} |")
    if args.profile:
        chapter = BY_SLUG[args.profile]
        profile = cProfile.Profile()
        for state in states(args.states, seed=11):
            state = replace(state, mode=chapter.default_mode)
            profile.runcall(screen.k_form, state, chapter)
        pstats.Stats(profile).sort_stats(args.sort).print_stats(30)


if __name__ == "__main__":
    main()
