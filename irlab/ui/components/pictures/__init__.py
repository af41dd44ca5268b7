"""The walkthrough's pictures as files the browser caches (and a plain document icon for other collections).

The SVG files here are written from :mod:`irlab.scenarios.art` by :func:`write_pictures` (run
``python -m irlab.ui.components.pictures`` after changing the art; a test checks they are current).
They are served by the components' route (see :mod:`irlab.ui.components`), so a tile or a strip of
pictures sends a short URL, not 30 KB of ``data:`` URIs with every run.
"""

from __future__ import annotations

from pathlib import Path

from irlab.scenarios.art import PICTURES, picture_svg
from irlab.ui.components import asset_url

FOLDER = Path(__file__).parent
DOCUMENT = "document"
"""A plain page icon, for items without a picture of their own (exercise documents, a run's documents)."""

DOCUMENT_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect width="100" height="100" rx="10" '
    'fill="#eef1f5"/><path d="M30 16h30l14 14v54H30z" fill="#fff" stroke="#7b8596" stroke-width="3" '
    'stroke-linejoin="round"/><path d="M60 16v14h14" fill="none" stroke="#7b8596" stroke-width="3" '
    'stroke-linejoin="round"/><path d="M38 46h28M38 57h28M38 68h18" stroke="#aab2c0" stroke-width="4" '
    'stroke-linecap="round"/></svg>')


def picture_url(key: str) -> str:
    """Where the browser loads picture ``key`` from (``DOCUMENT`` for the plain icon, "" for no picture).

    >>> picture_url("white-cat")
    '/_stcore/bidi-components/irlab.pictures/pictures/white-cat.svg'
    """
    if not key:
        return ""
    if key not in PICTURES and key != DOCUMENT:
        raise KeyError(f"no picture {key!r}")
    return asset_url("pictures", f"pictures/{key}.svg")


def expected_files() -> dict[str, str]:
    """File name -> the SVG it must hold: every picture of :mod:`irlab.scenarios.art`, and the document icon."""
    return {**{f"{key}.svg": picture_svg(key) for key in PICTURES}, f"{DOCUMENT}.svg": DOCUMENT_SVG}


def write_pictures(folder: Path = FOLDER) -> None:
    """Write every picture as an SVG file (run after changing the art)."""
    for name, svg in expected_files().items():
        (folder / name).write_text(svg, encoding="utf-8")


if __name__ == "__main__":
    write_pictures()
