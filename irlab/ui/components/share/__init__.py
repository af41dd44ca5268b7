"""A "copy link" button: copies the page's URL, which holds the whole state, to the clipboard (``share.js``).

The clipboard needs the browser, hence a component. The link is also shown in a read-only field so it
can be selected by hand where the clipboard is not allowed (plain http is not a secure context).
"""

from __future__ import annotations

from irlab.ui.components import declare

_mount = declare("share", js="share/share.js", css="share/share.css")


def share_link() -> None:
    """Mount the copy-link button with the current URL beside it."""
    _mount(key="irlab-share-link")
