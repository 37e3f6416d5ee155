"""Deterministic name and id sanitizing."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from llmbridge.kit._names import NAME_PATTERN, sanitize_identifier, shorten_identifier


@pytest.mark.parametrize("name", ["bot", "a-b_c", "A1", "x" * 64])
def test_valid_names_unchanged(name: str) -> None:
    assert sanitize_identifier(name) == name


def test_invalid_characters_replaced_and_disambiguated() -> None:
    dotted, spaced = sanitize_identifier("a.b"), sanitize_identifier("a b")
    assert dotted.startswith("a_b_")
    assert spaced.startswith("a_b_")
    assert dotted != spaced


def test_long_name_shortened_with_hash() -> None:
    name = "n" * 100
    short = sanitize_identifier(name)
    assert len(short) == 64
    assert short != sanitize_identifier("n" * 101)


def test_shorten_keeps_short_text() -> None:
    assert shorten_identifier("abc", 40) == "abc"
    assert len(shorten_identifier("a" * 41, 40)) == 40


@given(st.text(max_size=100))
def test_result_always_matches_pattern_and_is_deterministic(text: str) -> None:
    result = sanitize_identifier(text)
    assert NAME_PATTERN.match(result)
    assert sanitize_identifier(text) == result


@given(st.text(min_size=1, max_size=100))
def test_unbounded_mode_only_fixes_characters(text: str) -> None:
    assert re.fullmatch(r"[a-zA-Z0-9_-]+", sanitize_identifier(text, max_length=None))
