"""Ctrl+Z and Ctrl+Shift+Z (Cmd on a Mac, and Ctrl+Y) press the walkthrough's Undo and Redo buttons.

A tiny custom component (components v2): keyboard shortcuts need a listener on the document. It
computes nothing and keeps no state: it clicks the real buttons (found by their Streamlit keys), so a
shortcut does exactly what the button does, and does nothing while the button is disabled. Typing in
a text field keeps the field's own undo.
"""

from __future__ import annotations

import streamlit as st

from irlab.ui.controls import REDO_KEY, UNDO_KEY

_JS = """
const UNDO = ".st-key-%(undo)s button", REDO = ".st-key-%(redo)s button";
function onKey(event) {
  if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
  const target = event.composedPath()[0];
  if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))
      && target.type !== "range") return;
  const key = event.key.toLowerCase();
  const selector = key === "z" ? (event.shiftKey ? REDO : UNDO) : key === "y" && !event.shiftKey ? REDO : null;
  if (!selector) return;
  const button = document.querySelector(selector);
  if (!button) return;
  event.preventDefault();
  if (!button.disabled) button.click();
}
export default function () {
  if (!window.__irlUndoKeys) {
    window.__irlUndoKeys = true;
    document.addEventListener("keydown", onKey, true);
  }
}
""" % {"undo": UNDO_KEY, "redo": REDO_KEY}

_mount = st.components.v2.component("irlab_undo_shortcuts", js=_JS)


def undo_shortcuts() -> None:
    """Install the shortcuts (once per browser tab; mounting again is free)."""
    _mount(key="irlab-undo-shortcuts", height=0)
