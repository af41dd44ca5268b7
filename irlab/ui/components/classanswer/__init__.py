"""A student's answer form (``classanswer.js``): typed or chosen in the browser, kept on the phone until acknowledged.

The form of an open round (a number, options, a box per question, or the order of the tiles above it) posts
the answer to the app's answer route (:mod:`irlab.ui.classroom.feed`); the answer stays in the phone's outbox
(``outbox.js``: localStorage, numbered sends) until the class acknowledged it, and is sent again when the
connection is back. Its receipt shows right under Send. Pure logic (``outbox.js``) is unit-tested with
``node --test``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from irlab.ui.components import declare

_mount = declare("classanswer", js="classanswer/classanswer.js", css="classanswer/classanswer.css")


def answer_form(data: Mapping[str, Any], *, key: str) -> None:
    """Mount (or update) the answer form ``key`` with ``data`` (``classanswer.js``'s ``AnswerData``)."""
    _mount(key=key, data=dict(data), width="stretch", height="content")
