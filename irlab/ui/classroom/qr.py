"""The join link as a QR code: an inline SVG made on the server (segno), which a phone's camera opens.

The SVG has no fixed size (the page's CSS sizes it), a quiet zone of two modules inside it (a
white background even on a dark projector), crisp edges, and a text alternative: it is an image
named "QR code for <link>", and the page prints the link beside it as text.

>>> svg = qr_svg("http://10.0.0.5:8080/join?code=ABCDEF")
>>> svg.startswith('<svg role="img" aria-label="QR code for http://10.0.0.5:8080/join?code=ABCDEF"')
True
>>> "<title>QR code for http://10.0.0.5:8080/join?code=ABCDEF</title>" in svg, "width=" in svg
(True, False)
"""

from __future__ import annotations

import html
from functools import lru_cache

import segno

QUIET_ZONE = 2
"""Modules of white around the code (the standard asks 4; 2 reads fine on a screen and keeps the code larger)."""


@lru_cache(maxsize=64)
def qr_svg(link: str) -> str:
    """``link`` as a QR code in inline SVG (error correction M: a projector's glare or a smudge still reads)."""
    alt = f"QR code for {link}"
    svg = segno.make(link, error="m", micro=False).svg_inline(
        border=QUIET_ZONE, omitsize=True, svgclass="irl-qr", lineclass=None, title=alt, dark="#000", light="#fff")
    return svg.replace("<svg ", f'<svg role="img" aria-label="{html.escape(alt)}" shape-rendering="crispEdges" ', 1)
