"""Inline SVG illustrations for the "cats in boxes" walkthrough pool.

Eight small flat-style pictures (a white cat, cats in cardboard boxes, an
empty box, a dog in a box ...), one per document of the walkthrough pool.
They are original work drawn for IR Lab, built here from a handful of shape
helpers so that every picture shares one palette and one drawing style.

Every picture is a self-contained SVG string: ``viewBox="0 0 120 120"``,
``role="img"``, a ``<title>`` holding its alt text, its own rounded-square
background tile (so it reads on light and dark pages alike), and no text,
fonts, scripts, ids or external references.

Public API::

    PICTURES               key -> SVG markup
    ALT_TEXT               key -> one-sentence alt text
    picture_svg(key)       SVG markup for one key (KeyError lists valid keys)
    picture_data_uri(key)  ``data:image/svg+xml;base64,...`` for an <img src>
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal
from xml.sax.saxutils import escape

__all__ = ["ALT_TEXT", "PICTURES", "picture_data_uri", "picture_svg"]

SVG_NS = "http://www.w3.org/2000/svg"


# --------------------------------------------------------------------------
# Palettes
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Fur:
    """The two colours every animal shape needs: coat and outline."""

    fill: str
    outline: str


@dataclass(frozen=True)
class CatFur(Fur):
    """A cat's coat plus its face details (``stripe`` makes it a tabby)."""

    inner_ear: str
    nose: str
    whisker: str
    cheek: str
    stripe: str | None = None


@dataclass(frozen=True)
class DogFur(Fur):
    """A dog's coat plus its floppy ears, muzzle and nose."""

    ears: str
    muzzle: str
    nose: str


@dataclass(frozen=True)
class Cardboard:
    """Colours of one cardboard box."""

    face: str
    side: str
    flap: str
    inside: str
    inner_wall: str
    edge: str
    tape: str


WHITE_FUR = CatFur(
    fill="#ffffff",
    outline="#7d828c",
    inner_ear="#f6a9bb",
    nose="#f08ca5",
    whisker="#9aa0aa",
    cheek="#fbc9d4",
)
CHARCOAL_FUR = CatFur(
    fill="#33363d",
    outline="#17181c",
    inner_ear="#8c5a66",
    nose="#d77f95",
    whisker="#b9bec7",
    cheek="#4a4d56",
)
DARK_TABBY_FUR = CatFur(
    fill="#4b4540",
    outline="#1d1a18",
    inner_ear="#9a6a6e",
    nose="#c9788a",
    whisker="#c9c2b8",
    cheek="#5c5550",
    stripe="#221e1b",
)
DOG_FUR = DogFur(
    fill="#c08048",
    outline="#5a3518",
    ears="#6e4121",
    muzzle="#f5e1c4",
    nose="#2b1f1a",
)

KRAFT = Cardboard(
    face="#d9a262",
    side="#bd8447",
    flap="#c68d4f",
    inside="#6e4526",
    inner_wall="#9a6637",
    edge="#8a5a2e",
    tape="#ecd6a6",
)
PALE_KRAFT = Cardboard(
    face="#e9c48c",
    side="#d3a769",
    flap="#dcb072",
    inside="#7d5531",
    inner_wall="#a87a47",
    edge="#9b6f3c",
    tape="#f4e2bd",
)
DEEP_KRAFT = Cardboard(
    face="#c98b4e",
    side="#a86f39",
    flap="#b77c42",
    inside="#5c391e",
    inner_wall="#86552c",
    edge="#73461f",
    tape="#e7cf9c",
)

SHADOW = "#1e2430"


# --------------------------------------------------------------------------
# Markup primitives
# --------------------------------------------------------------------------


def _fmt(value: object) -> str:
    """Format an attribute value: compact numbers, escaped strings."""
    if isinstance(value, float):
        return f"{value:.2f}".rstrip("0").rstrip(".")
    return escape(str(value), {'"': "&quot;"})


def _el(tag: str, **attrs: object) -> str:
    """A self-closing SVG element; ``stroke_width`` becomes ``stroke-width``."""
    rendered = "".join(
        f' {name.replace("_", "-")}="{_fmt(value)}"'
        for name, value in attrs.items()
        if value is not None
    )
    return f"<{tag}{rendered}/>"


def _group(*children: str, transform: str | None = None) -> str:
    """Wrap children in a ``<g>``, optionally transformed."""
    opening = f'<g transform="{transform}">' if transform else "<g>"
    return opening + "".join(children) + "</g>"


def _poly(points: list[tuple[float, float]], **attrs: object) -> str:
    """A closed polygon with rounded joins."""
    pts = " ".join(f"{_fmt(float(x))},{_fmt(float(y))}" for x, y in points)
    return _el("polygon", points=pts, stroke_linejoin="round", **attrs)


def _outlined_stroke(d: str, fur: Fur, width: float) -> str:
    """A thick round-capped stroke (a tail, a leg) with an outline around it."""
    return _el(
        "path", d=d, fill="none", stroke=fur.outline,
        stroke_width=width + 4.5, stroke_linecap="round",
    ) + _el(
        "path", d=d, fill="none", stroke=fur.fill,
        stroke_width=width, stroke_linecap="round",
    )


def _svg(alt: str, *children: str) -> str:
    """Wrap picture content in the root element with its accessible title."""
    return (
        f'<svg xmlns="{SVG_NS}" viewBox="0 0 120 120" role="img">'
        f"<title>{escape(alt)}</title>" + "".join(children) + "</svg>"
    )


# --------------------------------------------------------------------------
# Scenery
# --------------------------------------------------------------------------


def _tile(background: str, floor: str, floor_y: float = 90.0) -> str:
    """The rounded-square background with a plain floor band along the bottom."""
    return _el("rect", width=120, height=120, rx=24, fill=background) + _el(
        "path",
        d=f"M0 {_fmt(floor_y)}H120V96a24 24 0 0 1-24 24H24A24 24 0 0 1 0 96Z",
        fill=floor,
    )


def _floor_shadow(cx: float, cy: float, rx: float) -> str:
    """A soft contact shadow on the floor."""
    return _el("ellipse", cx=cx, cy=cy, rx=rx, ry=rx * 0.14,
               fill=SHADOW, opacity=0.18)


# --------------------------------------------------------------------------
# Cats
# --------------------------------------------------------------------------


EyeStyle = Literal["dark", "green", "yellow"]


def _cat_eyes(style: EyeStyle) -> str:
    """Two eyes either side of the head origin: dark, or green/yellow slits."""
    parts = []
    for side in (-1, 1):
        x = 8.5 * side
        if style == "dark":
            parts.append(_el("ellipse", cx=x, cy=-1, rx=3.2, ry=4, fill="#2c2e35"))
        else:
            iris = "#8fd16a" if style == "green" else "#f5c531"
            parts.append(_el("ellipse", cx=x, cy=-1, rx=4.6, ry=4.8, fill=iris))
            parts.append(_el("ellipse", cx=x, cy=-1, rx=1.4, ry=4, fill="#15161a"))
        parts.append(_el("circle", cx=x + 1.2, cy=-2.6, r=1.2, fill="#ffffff"))
    return "".join(parts)


def _cat_head(fur: CatFur, eyes: EyeStyle = "dark") -> str:
    """A cat's head centred on the origin (about 44 wide, ears to y=-31)."""
    ear_style = {"stroke": fur.outline, "stroke_width": 2.5}
    parts = []
    for s in (-1, 1):
        parts.append(_poly([(20 * s, -4), (17 * s, -31), (2 * s, -17)],
                           fill=fur.fill, **ear_style))
        parts.append(_poly([(15.5 * s, -9), (14.5 * s, -25), (6 * s, -16.5)],
                           fill=fur.inner_ear))
    parts.append(_el("ellipse", cx=0, cy=0, rx=22, ry=18.5,
                     fill=fur.fill, stroke=fur.outline, stroke_width=2.5))
    if fur.stripe:
        parts.append(_el(
            "path", d="M-6 -16L-4 -9M0 -18V-10M6 -16L4 -9M-21 -2H-15M21 -2H15",
            stroke=fur.stripe, stroke_width=2.6, stroke_linecap="round",
        ))
    for s in (-1, 1):
        parts.append(_el("ellipse", cx=13 * s, cy=6, rx=4, ry=2.6, fill=fur.cheek))
    parts.append(_cat_eyes(eyes))
    parts.append(_poly([(-3, 4), (3, 4), (0, 7.2)], fill=fur.nose,
                       stroke=fur.nose, stroke_width=1))
    parts.append(_el("path", d="M0 7.2q-1.8 3.6-5 2M0 7.2q1.8 3.6 5 2",
                     fill="none", stroke=fur.outline, stroke_width=1.4,
                     stroke_linecap="round"))
    parts.append(_el(
        "path", d="M-12 5L-29 2M-12 8L-28 11M12 5L29 2M12 8L28 11",
        stroke=fur.whisker, stroke_width=1.2, stroke_linecap="round",
    ))
    return "".join(parts)


def _cat_sitting(
    fur: CatFur, eyes: EyeStyle = "dark", tail: Literal["left", "right"] = "right"
) -> str:
    """A whole cat sitting upright; origin at the head centre, floor at y=60.

    ``tail`` says on which side (``"right"`` or ``"left"``) the tail curls up.
    """
    tail_path = _group(
        _outlined_stroke("M14 58C30 62 41 52 36 34", fur, 6),
        transform="scale(-1 1)" if tail == "left" else None,
    )
    body = _el(
        "path",
        d="M-13 12C-25 26-27 48-22 60H22C27 48 25 26 13 12Z",
        fill=fur.fill, stroke=fur.outline, stroke_width=2.5,
        stroke_linejoin="round",
    )
    legs = _el("path", d="M-5 38V57M5 38V57", stroke=fur.outline,
               stroke_width=2, stroke_linecap="round")
    paws = "".join(
        _el("ellipse", cx=9 * s, cy=59, rx=8, ry=4.6, fill=fur.fill,
            stroke=fur.outline, stroke_width=2.5)
        for s in (-1, 1)
    )
    return "".join([tail_path, body, legs, paws, _cat_head(fur, eyes)])


def _paws_on_rim(fur: Fur, xs: tuple[float, ...], y: float) -> str:
    """Front paws hooked over a box rim at height ``y``."""
    parts = []
    for x in xs:
        parts.append(_el("ellipse", cx=x, cy=y, rx=7.5, ry=5, fill=fur.fill,
                         stroke=fur.outline, stroke_width=2.5))
        parts.append(_el("path", d=f"M{_fmt(x - 2.5)} {_fmt(y + 1)}v3.5"
                         f"M{_fmt(x + 2.5)} {_fmt(y + 1)}v3.5",
                         stroke=fur.outline, stroke_width=1.3,
                         stroke_linecap="round"))
    return "".join(parts)


def _hidden_body(fur: Fur, cx: float, cy: float, rx: float, ry: float) -> str:
    """The part of an animal's body that sits down inside a box."""
    return _el("ellipse", cx=cx, cy=cy, rx=rx, ry=ry, fill=fur.fill,
               stroke=fur.outline, stroke_width=2.5)


# --------------------------------------------------------------------------
# Dog
# --------------------------------------------------------------------------


def _dog_head(fur: DogFur, collar: str = "#e0474c") -> str:
    """A friendly dog's head centred on the origin: floppy ears, muzzle,
    big nose, tongue out, collar with a tag below the chin."""
    outline = {"stroke": fur.outline, "stroke_width": 2.5, "stroke_linejoin": "round"}
    parts = [
        # collar and tag (below the chin, drawn first so the head overlaps it)
        _el("rect", x=-14, y=13, width=28, height=7, rx=3.5, fill=collar,
            stroke=fur.outline, stroke_width=2),
        _el("circle", cx=0, cy=22, r=3.4, fill="#f3c640",
            stroke=fur.outline, stroke_width=1.5),
        _el("path", d="M-19 -2C-21 -16-11 -21 0 -21S21 -16 19 -2"
            "C19 10 12 17 0 17S-19 10-19 -2Z", fill=fur.fill, **outline),
        # patch over the right eye
        _el("ellipse", cx=8.5, cy=-6, rx=7, ry=6.5, fill=fur.ears),
    ]
    for s in (-1, 1):  # floppy ears hanging down the sides
        parts.append(_el(
            "path",
            d=(f"M{-13 * s} -18C{-30 * s} -20 {-33 * s} 0 {-27 * s} 13"
               f"C{-23 * s} 19 {-16 * s} 14 {-15 * s} 2Z"),
            fill=fur.ears, **outline,
        ))
        parts.append(_el("circle", cx=8 * s, cy=-6, r=3.2, fill="#241a16"))
        parts.append(_el("circle", cx=8 * s + 1.1, cy=-7.3, r=1.1, fill="#ffffff"))
    parts += [
        _el("ellipse", cx=0, cy=7, rx=12.5, ry=9, fill=fur.muzzle,
            stroke=fur.outline, stroke_width=1.6),
        _el("path", d="M-3.6 11.5Q-4 21 0 21T3.6 11.5Z", fill="#f07587",
            stroke=fur.outline, stroke_width=1.3, stroke_linejoin="round"),
        _el("path", d="M0 4.5V10M0 10Q-4 13.5-8 10.5M0 10Q4 13.5 8 10.5",
            fill="none", stroke=fur.outline, stroke_width=1.5,
            stroke_linecap="round"),
        _el("ellipse", cx=0, cy=2.5, rx=5.6, ry=4, fill=fur.nose),
        _el("ellipse", cx=-1.6, cy=1.3, rx=1.7, ry=1, fill="#ffffff", opacity=0.7),
    ]
    return "".join(parts)


# --------------------------------------------------------------------------
# Boxes
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class OpenBox:
    """Geometry of an open box: front face rectangle plus a receding opening.

    ``depth`` is how far back (upwards on the page) the opening reaches,
    ``inset`` how much narrower its back edge is, and ``skew`` shifts the
    back edge sideways; a skew larger than the inset shows the right side.
    """

    x: float
    y: float
    w: float
    h: float
    depth: float = 10.0
    inset: float = 7.0
    skew: float = 0.0

    @property
    def back_left(self) -> tuple[float, float]:
        return (self.x + self.inset + self.skew, self.y - self.depth)

    @property
    def back_right(self) -> tuple[float, float]:
        return (self.x + self.w - self.inset + self.skew, self.y - self.depth)


def _open_box_back(box: OpenBox, card: Cardboard, inner_wall: bool = False) -> str:
    """Everything behind a box's contents: the back flap and the dark inside."""
    (blx, bly), (brx, bry) = box.back_left, box.back_right
    edge = {"stroke": card.edge, "stroke_width": 2}
    parts = [
        _poly([(blx, bly), (brx, bry), (brx - 3, bry - 15), (blx + 3, bly - 15)],
              fill=card.flap, **edge),
        _poly([(box.x, box.y), (box.x + box.w, box.y), (brx, bry), (blx, bly)],
              fill=card.inside, **edge),
    ]
    if inner_wall:  # an empty box: lit back wall, and the front wall's shadow
        wall = box.depth * 0.5
        parts.append(_poly(
            [(blx, bly), (brx, bry), (brx - 2, bry + wall), (blx + 2, bly + wall)],
            fill=card.inner_wall,
        ))
        parts.append(_el("ellipse", cx=box.x + box.w / 2, cy=box.y,
                         rx=box.w / 2 - 4, ry=box.depth * 0.22,
                         fill=SHADOW, opacity=0.35))
    return "".join(parts)


def _open_box_front(box: OpenBox, card: Cardboard, tape: bool = False) -> str:
    """Everything in front of a box's contents: walls and the open flaps."""
    x, y, w, h = box.x, box.y, box.w, box.h
    (blx, bly), (brx, bry) = box.back_left, box.back_right
    edge = {"stroke": card.edge, "stroke_width": 2}
    parts = []
    if brx > x + w:  # right side wall visible in a three-quarter view
        parts.append(_poly([(x + w, y), (brx, bry), (brx, bry + h), (x + w, y + h)],
                           fill=card.side, **edge))
    parts.append(_el("rect", x=x, y=y, width=w, height=h, rx=2, fill=card.face,
                     **edge))
    parts.append(_poly([(x, y), (blx, bly), (blx - 16, bly - 5), (x - 16, y - 4)],
                       fill=card.flap, **edge))
    parts.append(_poly([(x + w, y), (brx, bry), (brx + 16, bry - 5),
                        (x + w + 16, y - 4)], fill=card.flap, **edge))
    parts.append(_poly([(x, y), (x + w, y), (x + w + 3, y + 9), (x - 3, y + 9)],
                       fill=card.side, **edge))
    if tape:
        cx = x + w / 2
        parts.append(_el("rect", x=cx - 6, y=y + 1, width=12, height=16,
                         fill=card.tape, opacity=0.9))
    return "".join(parts)


def _closed_box(x: float, y: float, w: float, h: float, card: Cardboard,
                depth: float = 11.0) -> str:
    """A taped-shut box in three-quarter view: front, top and right side."""
    edge = {"stroke": card.edge, "stroke_width": 2}
    top_mid = x + w / 2
    return "".join([
        _poly([(x + w, y), (x + w + depth, y - depth), (x + w + depth, y + h - depth),
               (x + w, y + h)], fill=card.side, **edge),
        _poly([(x, y), (x + w, y), (x + w + depth, y - depth), (x + depth, y - depth)],
              fill=card.flap, **edge),
        _el("rect", x=x, y=y, width=w, height=h, rx=1.5, fill=card.face, **edge),
        _poly([(top_mid - 5, y), (top_mid + 5, y), (top_mid + 5 + depth, y - depth),
               (top_mid - 5 + depth, y - depth)], fill=card.tape),
        _el("rect", x=top_mid - 5, y=y, width=10, height=14, fill=card.tape),
        _el("path", d=f"M{_fmt(x + 1)} {_fmt(y)}H{_fmt(x + w - 1)}",
            stroke=card.edge, stroke_width=1.5),
    ])


# --------------------------------------------------------------------------
# The eight pictures (one function each; alt text lives in _DRAWINGS)
# --------------------------------------------------------------------------


def _white_cat() -> str:
    return "".join([
        _tile("#d7e7f6", "#c2d6ea"),
        _floor_shadow(62, 100, 30),
        _group(_cat_sitting(WHITE_FUR, tail="right"), transform="translate(56 40)"),
    ])


def _white_cat_in_box() -> str:
    box = OpenBox(x=28, y=70, w=64, h=32)
    return "".join([
        _tile("#d4ecdc", "#bcdcc6"),
        _floor_shadow(60, 102, 40),
        _open_box_back(box, KRAFT),
        _hidden_body(WHITE_FUR, 60, 76, 21, 12),
        _group(_cat_head(WHITE_FUR), transform="translate(60 52)"),
        _open_box_front(box, KRAFT),
        _paws_on_rim(WHITE_FUR, (47, 73), 71),
    ])


def _empty_box() -> str:
    box = OpenBox(x=22, y=68, w=76, h=32, depth=26, inset=12)
    return "".join([
        _tile("#e4def3", "#d0c7e8"),
        _floor_shadow(60, 100, 48),
        _open_box_back(box, KRAFT, inner_wall=True),
        _open_box_front(box, KRAFT, tape=True),
    ])


def _dark_cat_in_box() -> str:
    box = OpenBox(x=28, y=70, w=64, h=32)
    return "".join([
        _tile("#f8edc6", "#ecdca6"),
        _floor_shadow(60, 102, 40),
        _open_box_back(box, KRAFT),
        _hidden_body(CHARCOAL_FUR, 60, 76, 21, 12),
        _group(_cat_head(CHARCOAL_FUR, eyes="green"), transform="translate(60 52)"),
        _open_box_front(box, KRAFT),
        _paws_on_rim(CHARCOAL_FUR, (47, 73), 71),
    ])


def _white_cat_in_box_2() -> str:
    box = OpenBox(x=20, y=76, w=80, h=26, depth=9, inset=6)
    return "".join([
        _tile("#f7dbe3", "#ecc4d0"),
        _floor_shadow(60, 102, 48),
        _open_box_back(box, PALE_KRAFT),
        _outlined_stroke("M86 78C88 66 100 62 96 46", WHITE_FUR, 6),
        _group(_cat_head(WHITE_FUR), transform="translate(48 66) rotate(-12)"),
        _open_box_front(box, PALE_KRAFT),
    ])


def _white_cat_beside_box() -> str:
    return "".join([
        _tile("#d2ecea", "#b7dcd8"),
        _floor_shadow(83, 101, 26),
        _floor_shadow(36, 101, 22),
        _closed_box(66, 64, 38, 37, KRAFT),
        _group(_cat_sitting(WHITE_FUR, tail="left"),
               transform="translate(38 54) scale(0.78)"),
    ])


def _dark_cat_in_box_2() -> str:
    box = OpenBox(x=24, y=72, w=56, h=30, depth=11, inset=3, skew=13)
    return "".join([
        _tile("#d9e3f7", "#c3d1ee"),
        _floor_shadow(62, 102, 42),
        _open_box_back(box, DEEP_KRAFT),
        _hidden_body(DARK_TABBY_FUR, 58, 77, 22, 12),
        _group(_cat_head(DARK_TABBY_FUR, eyes="yellow"),
               transform="translate(57 53) rotate(10)"),
        _open_box_front(box, DEEP_KRAFT),
        _outlined_stroke("M34 74C28 80 30 90 24 96", DARK_TABBY_FUR, 5.5),
        _paws_on_rim(DARK_TABBY_FUR, (66,), 73),
    ])


def _dog_in_box() -> str:
    box = OpenBox(x=28, y=72, w=64, h=30)
    return "".join([
        _tile("#dcefd2", "#c6e2b8"),
        _floor_shadow(60, 102, 40),
        _open_box_back(box, PALE_KRAFT),
        _hidden_body(DOG_FUR, 60, 78, 21, 12),
        _group(_dog_head(DOG_FUR), transform="translate(60 47)"),
        _open_box_front(box, PALE_KRAFT),
        _paws_on_rim(DOG_FUR, (45, 75), 73),
    ])


_DRAWINGS: dict[str, tuple[str, Callable[[], str]]] = {
    "white-cat": (
        "A white cat sitting on the floor, with no box anywhere.",
        _white_cat,
    ),
    "white-cat-in-box": (
        "A white cat sitting inside an open cardboard box, "
        "its head and paws over the rim.",
        _white_cat_in_box,
    ),
    "empty-box": (
        "An empty open cardboard box with its flaps folded out.",
        _empty_box,
    ),
    "dark-cat-in-box": (
        "A black cat with green eyes sitting inside an open cardboard box.",
        _dark_cat_in_box,
    ),
    "white-cat-in-box-2": (
        "A different white cat peeking out of a wide pale cardboard box, "
        "head tilted and tail poking up.",
        _white_cat_in_box_2,
    ),
    "white-cat-beside-box": (
        "A white cat sitting on the floor next to a closed cardboard box, "
        "not inside it.",
        _white_cat_beside_box,
    ),
    "dark-cat-in-box-2": (
        "A dark tabby cat with yellow eyes sitting in a cardboard box, "
        "its tail hanging over the side.",
        _dark_cat_in_box_2,
    ),
    "dog-in-box": (
        "A brown dog with floppy ears and its tongue out sitting inside "
        "a cardboard box.",
        _dog_in_box,
    ),
}

ALT_TEXT: Mapping[str, str] = MappingProxyType(
    {key: alt for key, (alt, _) in _DRAWINGS.items()}
)
PICTURES: Mapping[str, str] = MappingProxyType(
    {key: _svg(alt, draw()) for key, (alt, draw) in _DRAWINGS.items()}
)


def picture_svg(key: str) -> str:
    """Return the SVG markup for ``key``; unknown keys raise ``KeyError``."""
    try:
        return PICTURES[key]
    except KeyError:
        valid = ", ".join(PICTURES)
        raise KeyError(f"unknown picture {key!r}; valid keys: {valid}") from None


def picture_data_uri(key: str) -> str:
    """Return ``key``'s picture as a base64 ``data:image/svg+xml`` URI."""
    encoded = base64.b64encode(picture_svg(key).encode("utf-8")).decode("ascii")
    return f"data:image/svg+xml;base64,{encoded}"
