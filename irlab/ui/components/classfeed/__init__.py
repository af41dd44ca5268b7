"""The live class's feed on a page (``classfeed.js``): the class's event stream, the round's timer, the projector's
counts and the connection's state.

It follows the class through the app's event stream (:mod:`irlab.ui.classroom.feed`) and reruns the fragment it
is mounted in only when the class changed; it draws the round's timer (``clock.js``, on the server's clock), the
projector's counts from each pulse, and says when the connection is lost in the class's words (hiding
Streamlit's developer dialog on these pages). Pure logic (``clock.js``) is unit-tested with ``node --test``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from irlab.ui.components import declare

_mount = declare("classfeed", js="classfeed/classfeed.js", css="classfeed/classfeed.css")


def _noop() -> None:
    """Trigger callback: a trigger name is only accepted with a callback; the page reads the store again anyway."""


def class_feed(data: Mapping[str, Any], *, key: str) -> None:
    """Mount (or update) the feed ``key`` with ``data`` (``classfeed.js``'s ``LiveData``); its trigger reruns the
    fragment it is in."""
    _mount(key=key, data=dict(data), default=None, width="stretch", height="content", on_changed_change=_noop)
