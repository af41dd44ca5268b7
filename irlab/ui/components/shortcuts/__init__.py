"""Keyboard shortcuts for a page's Undo and Redo buttons: Ctrl+Z, Ctrl+Shift+Z (Cmd on a Mac) and Ctrl+Y.

A tiny component (``shortcuts.js``): a shortcut needs a listener on the document. It clicks the
buttons whose Streamlit keys it is given, so it does exactly what they do.
"""

from __future__ import annotations

from irlab.ui.components import declare

_mount = declare("shortcuts", js="shortcuts/shortcuts.js")


def undo_shortcuts(*, undo_key: str, redo_key: str) -> None:
    """Install the shortcuts for the buttons keyed ``undo_key`` and ``redo_key``.

    Once per tab: mounting again is free."""
    _mount(key="irlab-undo-shortcuts", data={"undo": undo_key, "redo": redo_key}, height=0)
