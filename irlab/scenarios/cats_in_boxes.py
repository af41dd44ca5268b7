"""The cats-in-boxes walkthrough as data: eight pictures, four queries, their default rankings.

The pool is the reference file's coherent reading of the sources: it reproduces every
relevance position they use.

* "cat in a box" (binary): relevant items 2, 4, 5, 7; the default ranking 1..8 puts them at
  ranks 2, 4, 5, 7.
* "white cat" (binary): relevant 1, 2, 5, 6; its example ranking puts them at ranks 1, 4, 5, 7.
* "dark cat" (binary): relevant 4, 7; its example ranking puts them at ranks 5, 8.
* "white cat in a box" (graded 0-4): grades 0, 4, 1, 3, 4, 1, 3, 2 at ranks 1..8.

>>> scenario = CATS_IN_BOXES
>>> q = scenario.query(CAT_IN_A_BOX)
>>> [rank for rank, item in enumerate(q.default_ranking, 1) if q.judgments[item]]
[2, 4, 5, 7]
>>> g = scenario.query(WHITE_CAT_IN_A_BOX)
>>> [g.judgments[item] for item in g.default_ranking]
[0, 4, 1, 3, 4, 1, 3, 2]
"""

from __future__ import annotations

from irlab.data.judgments import Judgments
from irlab.data.scenario import Item, Query, Scenario
from irlab.scenarios.art import ALT_TEXT

CAT_IN_A_BOX = "cat-in-a-box"
WHITE_CAT = "white-cat"
DARK_CAT = "dark-cat"
WHITE_CAT_IN_A_BOX = "white-cat-in-a-box"

BINARY_QUERIES = (CAT_IN_A_BOX, WHITE_CAT, DARK_CAT)
"""The three queries of the MRR and MAP examples, in the sources' order."""

_ITEMS = (
    # id, title, description, picture
    ("1", "White cat", "A white cat, no box.", "white-cat"),
    ("2", "White cat in a box", "A white cat inside a box.", "white-cat-in-box"),
    ("3", "Empty box", "A box with nothing in it.", "empty-box"),
    ("4", "Dark cat in a box", "A dark cat inside a box.", "dark-cat-in-box"),
    ("5", "Another white cat in a box", "A different white cat inside a different box.", "white-cat-in-box-2"),
    ("6", "White cat beside a box", "A white cat next to a box, not in it.", "white-cat-beside-box"),
    ("7", "Another dark cat in a box", "A different dark cat inside a different box.", "dark-cat-in-box-2"),
    ("8", "Dog in a box", "A dog inside a box.", "dog-in-box"),
)

GRADED_RUBRIC = ("4: a white cat in a box; 3: another cat in a box; 2: another animal in a box; "
                 "1: a box, but nothing inside it fits (an empty box, a cat beside the box); 0: no box at all")


def _binary(relevant: str) -> Judgments:
    return Judgments({item: int(item in relevant.split()) for item, *_ in _ITEMS}, scale="binary")


def _ranking(items: str) -> tuple[str, ...]:
    return tuple(items.split())


CATS_IN_BOXES = Scenario(
    id="cats-in-boxes",
    title="Cats in boxes",
    description="Eight pictures, searched with the query \"cat in a box\" and three related queries.",
    items=tuple(Item(id=item_id, title=title, description=description, alt=ALT_TEXT[picture], picture=picture)
                for item_id, title, description, picture in _ITEMS),
    queries=(
        Query(CAT_IN_A_BOX, "cat in a box", _binary("2 4 5 7"), _ranking("1 2 3 4 5 6 7 8"),
              rubric="Relevant: a cat inside a box."),
        Query(WHITE_CAT, "white cat", _binary("1 2 5 6"), _ranking("1 3 4 2 5 7 6 8"),
              rubric="Relevant: the picture shows a white cat."),
        Query(DARK_CAT, "dark cat", _binary("4 7"), _ranking("1 2 3 5 4 6 8 7"),
              rubric="Relevant: the picture shows a dark cat."),
        Query(WHITE_CAT_IN_A_BOX, "white cat in a box",
              Judgments({"1": 0, "2": 4, "3": 1, "4": 3, "5": 4, "6": 1, "7": 3, "8": 2}, scale="graded",
                        max_grade=4),
              _ranking("1 2 3 4 5 6 7 8"), rubric=GRADED_RUBRIC),
    ),
)
"""The walkthrough scenario."""
