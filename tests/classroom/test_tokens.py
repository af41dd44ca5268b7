"""Join codes, keys and tokens: their alphabet, their randomness, and the constant-time key check."""

from __future__ import annotations

import hmac
import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from irlab.classroom import tokens
from irlab.classroom.tokens import (
    CODE_ALPHABET,
    digest,
    key_matches,
    looks_like_code,
    new_code,
    new_lecturer_key,
    new_student_token,
    normalise_code,
)
from irlab.errors import ValidationError


def test_the_alphabet_has_no_ambiguous_symbols():
    assert not set("0O1I") & set(CODE_ALPHABET)
    assert len(CODE_ALPHABET) == len(set(CODE_ALPHABET)) == 32
    assert set(CODE_ALPHABET) == set(string.ascii_uppercase + string.digits) - set("0O1I")


def test_codes_keys_and_tokens_are_random_and_well_formed():
    codes = {new_code() for _ in range(200)}
    assert len(codes) == 200 and all(looks_like_code(c) for c in codes)
    keys = {new_lecturer_key() for _ in range(50)}
    assert len(keys) == 50 and all(len(k) == 43 and tokens.looks_like_secret(k) for k in keys)
    assert len(new_student_token()) == 22


@given(st.text(alphabet=CODE_ALPHABET, min_size=6, max_size=6), st.sampled_from(["", " ", "-", "  "]))
def test_a_code_typed_in_lower_case_or_with_a_dash_is_read(code, gap):
    typed = f" {code[:3].lower()}{gap}{code[3:]} "
    assert normalise_code(typed) == code


@pytest.mark.parametrize("typed", ["ABC", "ABCDEFG", "ABCDE0", "ABCDEI", "ÄBCDEF", "AB\u200bCDEF", "", None, 123456,
                                   "A" * 10_000, "<script>"])
def test_anything_else_is_not_a_code(typed):
    with pytest.raises(ValidationError, match="no 0, O, 1 or I"):
        normalise_code(typed)


def test_the_key_is_compared_in_constant_time(monkeypatch):
    calls = []
    compare = hmac.compare_digest

    def recording_compare(a, b):
        calls.append((a, b))
        return compare(a, b)

    monkeypatch.setattr(tokens.hmac, "compare_digest", recording_compare)
    key = new_lecturer_key()
    assert key_matches(key, digest(key)) is True
    assert key_matches(new_lecturer_key(), digest(key)) is False
    assert len(calls) == 2 and calls[0][1] == digest(key).encode()


def test_a_key_that_is_no_secret_of_ours_never_matches():
    stored = digest("abc")
    for key in (None, "", "a b", "x" * 201, 42, "abc\n"):
        assert key_matches(key, stored) is False


def test_the_store_checks_lecturer_keys_through_key_matches(monkeypatch, sqlite_url):
    """The desk's check is the constant-time one (no == on secrets anywhere in the lecturer's path)."""
    from irlab.classroom import ClassStore, lecturer

    checked = []
    monkeypatch.setattr(lecturer, "key_matches", lambda key, stored: checked.append(key) or key_matches(key, stored))
    store = ClassStore(sqlite_url)
    new = store.start_class()
    store.lecturer(new.code, new.key).projector()
    assert checked == [new.key, new.key]


def test_a_new_key_or_token_never_starts_with_a_dash(monkeypatch):
    """``--token -abc`` reads as an option on a command line: a secret starting with ``-`` is drawn again."""
    drawn = iter(["-starts-with-a-dash", "plain_secret"] * 2)
    monkeypatch.setattr(tokens.secrets, "token_urlsafe", lambda nbytes: next(drawn))
    assert tokens.new_student_token() == "plain_secret"
    assert tokens.new_lecturer_key() == "plain_secret"
