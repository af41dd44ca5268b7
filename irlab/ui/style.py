"""Page styling: a few base rules, and presentation mode (larger type for a projector).

Only our own constant CSS goes through ``st.html`` (style-only HTML is not rendered as content).
"""

from __future__ import annotations

import streamlit as st

BASE_CSS = """
<style>
[data-testid="stMainBlockContainer"] { padding-top: 2.2rem; }
[data-testid="stMetricValue"] { font-variant-numeric: tabular-nums; }
[data-testid="stMetric"] { background: var(--secondary-background-color, #f6f7f9); }
/* A long formula wraps at its top-level = and + instead of scrolling in a box a keyboard cannot reach */
[data-testid="stMarkdownContainer"] .katex-display { overflow: visible !important; padding: .15rem 0; margin: .35rem 0; }
[data-testid="stMarkdownContainer"] .katex-display > .katex { white-space: normal !important; }
/* Captions at WCAG AA contrast: Streamlit fades them (3.9:1 on white); this grey is 6.6:1 */
[data-testid="stCaptionContainer"] { opacity: 1; }
[data-testid="stCaptionContainer"], [data-testid="stCaptionContainer"] p { color: #5c5b59; }
[data-testid="stCaptionContainer"] code { color: #1f5a4c; }
/* A disabled choice (binary-only chapters) still reads at AA contrast; the greyed radio dot shows it is off */
[data-testid="stWidgetLabel"][disabled] p, [data-testid="stRadioOption"][data-disabled="true"] p {
  color: #5c5b59 !important; opacity: 1 !important; }
[data-testid="stTable"] td, [data-testid="stTable"] th { font-variant-numeric: tabular-nums; }
/* A move redraws the live region within a tenth of a second: fading it out and back in meanwhile only costs
   the browser a repaint of the page on every frame, so the region's elements do not fade */
[data-stale="true"] {
  opacity: 1 !important; transition: none !important; }
/* What happens inside the tiles and the charts does not lay out or repaint the rest of the page */
[data-testid="stBidiComponentIsolated"], .irl-chart { contain: layout paint; }
</style>
"""

PRESENT_CSS = """
<style>
html { font-size: 19px; }
/* the ranking and the headline numbers fit one screen at 1280x800: less room above the title */
[data-testid="stMainBlockContainer"] { padding-top: 2.8rem !important; padding-left: 2rem !important;
  padding-right: 2rem !important; max-width: none !important; }
h1 { font-size: 2.1rem !important; padding: .2rem 0 .3rem !important; }
.katex { font-size: 1.45em !important; }
[data-testid="stMetricValue"] { font-size: 3.1rem !important; line-height: 1.05 !important; }
[data-testid="stMetric"] { padding-top: .35rem !important; padding-bottom: .35rem !important; }
/* MRR and MAP put a heading between the numbers and the first ranking: keep it tight */
h4 { padding: .15rem 0 !important; }
[data-testid="stMetricLabel"] p { font-size: 1.2rem !important; }
[data-testid="stTable"] { font-size: 1.1rem; }
</style>
"""


def apply_style(present: bool) -> None:
    """Inject the presentation rules when ``present`` (the base rules come with the navigation, on every page)."""
    if present:
        st.html(PRESENT_CSS)
