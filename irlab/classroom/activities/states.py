"""A walkthrough state as an activity's settings: a chapter and its link's parameters, checked strictly.

Kinds that ask about a walkthrough state (predict a number, order the pictures, which is it) store
the chapter's slug and the walkthrough's URL parameters (:mod:`irlab.walkthrough.urlstate`). Every
parameter must be valid: a link in a lecture must show what the lecturer meant, so nothing is
silently replaced by a default.

>>> slug, params = link_parts("https://lab.example.org/ndcg?order=2,1,3,4,5,6,7,8&k=3")
>>> slug, params
('ndcg', {'order': '2,1,3,4,5,6,7,8', 'k': '3'})
>>> strict_state(params).k, chapter_of(slug).title
(3, 'CG, DCG, IDCG and NDCG@K')
>>> walkthrough_path(chapter_of("ndcg"), {"order": "2,1,3,4,5,6,7,8", "k": "3"})
'ndcg?order=2%2C1%2C3%2C4%2C5%2C6%2C7%2C8&k=3'
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

from irlab.errors import ValidationError
from irlab.explain.formula import format_number
from irlab.walkthrough.chapters import BY_SLUG, Chapter
from irlab.walkthrough.state import WalkthroughState
from irlab.walkthrough.urlstate import state_from_params

MAX_PARAMS = 20
MAX_LINK = 2000


def chapter_of(slug: object) -> Chapter:
    """The chapter with this slug; ValidationError lists the chapters."""
    if not isinstance(slug, str) or slug not in BY_SLUG:
        raise ValidationError(f"unknown chapter; the chapters are: {', '.join(BY_SLUG)}", path="chapter")
    return BY_SLUG[slug]


def strict_state(params: object) -> WalkthroughState:
    """The state the parameters describe; ValidationError when any of them would be ignored or replaced."""
    if not isinstance(params, Mapping) or len(params) > MAX_PARAMS \
            or not all(isinstance(k, str) and isinstance(v, str) for k, v in params.items()):
        raise ValidationError("the walkthrough state must be its link's parameters (text)", path="params")
    state, notices = state_from_params({key: value for key, value in params.items() if key != "present"})
    if notices:
        raise ValidationError(notices[0], path="params")
    return state


def link_parts(link: object) -> tuple[str, dict[str, str]]:
    """(chapter slug, parameters) of a walkthrough link; ValidationError when it is not one."""
    if not isinstance(link, str) or len(link) > MAX_LINK:
        raise ValidationError(f"paste a walkthrough link (at most {MAX_LINK:,} characters)", path="link")
    parts = urlsplit(link.strip())
    slug = parts.path.rstrip("/").rsplit("/", 1)[-1]
    if slug not in BY_SLUG:
        raise ValidationError("this is not a link to a walkthrough chapter; open the chapter and copy its link",
                              path="link")
    return slug, dict(parse_qsl(parts.query))


def chapter_and_params(raw: Mapping[str, Any]) -> tuple[Chapter, WalkthroughState]:
    """The chapter and state of raw settings that give ``link``, or ``chapter`` and ``params``."""
    if "link" in raw:
        slug, params = link_parts(raw["link"])
    else:
        slug, params = raw.get("chapter"), raw.get("params", {})
    return chapter_of(slug), strict_state(params)


def walkthrough_path(chapter: Chapter, params: Mapping[str, str]) -> str:
    """The chapter's page with the state's parameters, relative to the app (a link opens the state there)."""
    return f"{chapter.slug}?{urlencode(dict(params))}"


def plain_text(raw: Any, limit: int = 100) -> str:
    """An answer as typed, for the CSV: one line, no control characters, at most ``limit`` characters.

    >>> plain_text("  3,\\u200b1   2 "), plain_text(0.5)
    ('3,1 2', '0.5')
    """
    text = raw if isinstance(raw, str) else format_number(raw) if isinstance(raw, (int, float)) else ""
    text = "".join(c for c in text if unicodedata.category(c)[0] != "C")
    return re.sub(r"\s+", " ", text).strip()[:limit]
