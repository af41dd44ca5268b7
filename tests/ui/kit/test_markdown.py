"""Text from users stays text: escaped Markdown and tables of escaped cells."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from irlab.ui.kit.markdown import escape_markdown, markdown_table


@given(st.text())
def test_escaped_markdown_has_no_live_punctuation(text):
    escaped = escape_markdown(text)
    unescaped = re.sub(r"\\(.)", "", escaped)
    assert not re.search(r"[!-/:-@\[-`{-~]", unescaped)
    assert "\n" not in escaped


def test_tables_escape_every_cell():
    table = markdown_table(["a"], [["<img src=x onerror=alert(1)>"], ["| break"], [":red[x]"]])
    assert "\\<img" in table and "\\| break" in table and "\\:red\\[x\\]" in table
