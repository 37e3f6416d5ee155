"""Deterministic sanitizing of names and ids for providers' character rules."""

from __future__ import annotations

import hashlib
import re
from typing import Final

__all__ = ["NAME_PATTERN", "sanitize_identifier", "shorten_identifier"]

NAME_PATTERN: Final = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
"""The names OpenAI carries in a message's ``name`` field (and every provider in tool names)."""
_INVALID_CHARS: Final = re.compile(r"[^a-zA-Z0-9_-]")
_HASH_LENGTH: Final = 8


def _digest(text: str) -> str:
    # surrogatepass: an id holding a lone surrogate still gets its (ASCII) replacement.
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:_HASH_LENGTH]


def shorten_identifier(text: str, max_length: int) -> str:
    """Return ``text`` if it fits ``max_length``, else a prefix plus ``_`` and a hash of the whole.

    Two different long inputs keep different results (up to hash collisions).
    """
    if len(text) <= max_length:
        return text
    keep = max_length - _HASH_LENGTH - 1
    return f"{text[:keep]}_{_digest(text)}"


def sanitize_identifier(text: str, *, max_length: int | None = 64) -> str:
    """Return ``text`` made of ``[a-zA-Z0-9_-]`` only (and at most ``max_length`` characters).

    Valid input comes back unchanged. Otherwise each invalid character becomes ``_`` and a hash
    of the original is appended, so that ``"a.b"`` and ``"a b"`` stay distinct; an empty input
    becomes ``"_"`` plus that hash.
    """
    if not _INVALID_CHARS.search(text) and text and (max_length is None or len(text) <= max_length):
        return text
    cleaned = _INVALID_CHARS.sub("_", text)
    if cleaned != text or not text:
        cleaned = f"{cleaned}_{_digest(text)}"
    return cleaned if max_length is None else shorten_identifier(cleaned, max_length)
