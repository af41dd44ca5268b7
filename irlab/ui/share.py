"""A "copy link" button: copies the page's URL, which holds the whole state, to the clipboard.

A tiny custom component (components v2): the clipboard needs the browser. The link is also
shown in a read-only field so it can be selected by hand where the clipboard is not allowed
(plain http on a classroom network is not a secure context).
"""

from __future__ import annotations

import streamlit as st

_HTML = """
<div class="irl-share">
  <button type="button" class="irl-copy" data-testid="irl-copy-link">Copy link to this view</button>
  <span class="irl-copied" role="status" aria-live="polite" data-testid="irl-copied"></span>
  <label class="irl-url-label">Link<input class="irl-url" data-testid="irl-url" readonly aria-label="Link to this view"></label>
</div>
"""

_CSS = """
.irl-share { display: flex; flex-direction: column; gap: .35rem; font-family: var(--st-font, sans-serif); }
.irl-copy { font: inherit; font-weight: 600; padding: .45rem .8rem; border-radius: .5rem; cursor: pointer;
  border: 1px solid var(--st-primary-color, #0072B2); background: var(--st-primary-color, #0072B2); color: #fff; }
.irl-copy:focus-visible { outline: 3px solid #E69F00; outline-offset: 2px; }
.irl-copied { min-height: 1.2em; font-size: .85rem; color: var(--st-text-color, #222); }
.irl-url-label { font-size: .8rem; color: var(--st-text-color, #444); display: flex; flex-direction: column; gap: .2rem; }
.irl-url { font: .78rem ui-monospace, monospace; padding: .3rem; border: 1px solid #bbb; border-radius: .35rem;
  width: 100%; box-sizing: border-box; color: var(--st-text-color, #222); background: transparent; }
"""

_JS = """
export default function (component) {
  const { parentElement } = component;
  const url = parentElement.querySelector(".irl-url");
  const status = parentElement.querySelector(".irl-copied");
  const button = parentElement.querySelector(".irl-copy");
  const here = () => window.location.href;
  url.value = here();
  // Streamlit rewrites the URL after each run; keep the field current while the page is open.
  if (!parentElement.__irlTimer) {
    parentElement.__irlTimer = setInterval(() => { if (url.value !== here()) url.value = here(); }, 250);
  }
  button.onclick = async () => {
    url.value = here();
    try {
      await navigator.clipboard.writeText(url.value);
      status.textContent = "Copied: paste it anywhere to open this exact view.";
    } catch (error) {
      url.focus();
      url.select();
      status.textContent = "Select the link below and copy it (Ctrl+C / Cmd+C).";
    }
  };
  return () => { clearInterval(parentElement.__irlTimer); parentElement.__irlTimer = null; };
}
"""

_mount = st.components.v2.component("irlab_share_link", html=_HTML, css=_CSS, js=_JS)


def share_link() -> None:
    """Mount the copy-link button with the current URL beside it."""
    _mount(key="irlab-share-link")
