"""Nicknames are one short line of plain text: no controls, no direction overrides, no floods of marks."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from irlab.classroom.nicknames import MAX_LENGTH, MAX_MARKS, clean_nickname


@given(st.text(max_size=300))
def test_a_cleaned_nickname_is_one_short_line_of_visible_text(text):
    name = clean_nickname(text)
    if name is None:
        return
    assert 0 < len(name) <= MAX_LENGTH and name == name.strip() and "  " not in name
    for char in name:
        assert unicodedata.category(char) not in ("Cc", "Cf", "Co", "Cn", "Cs", "Zl", "Zp")
    assert clean_nickname(name) == name  # cleaning twice changes nothing


@given(st.text(alphabet=st.characters(categories=["Mn", "Me"]), min_size=1, max_size=50))
def test_a_flood_of_combining_marks_is_cut(marks):
    name = clean_nickname("Z" + marks)
    assert unicodedata.category(name[0]) == "Lu" and len(name) <= 1 + MAX_MARKS  # Z, or Z composed with a mark


def test_hostile_nicknames():
    assert clean_nickname("<img src=x onerror=alert(1)>") == "<img src=x onerror=alert(1)>"  # text, never markup
    assert clean_nickname("**bold** [link](javascript:x)") == "**bold** [link](javascript:x)"
    assert clean_nickname("evil\u202egnp.exe") == "evilgnp.exe"
    assert clean_nickname("a\u2028b\u2029c\r\nd\te") == "a b c d e"
    assert clean_nickname("\x1b]0;title\x07x") == "]0;titlex"
    assert clean_nickname("x" * 10_000) == "x" * MAX_LENGTH
    assert clean_nickname("\u200b\u200d\ufeff") is None and clean_nickname(None) is None
    assert clean_nickname(42) is None
    assert clean_nickname("Zoë Ñandú 王") == "Zoë Ñandú 王"
