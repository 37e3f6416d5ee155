"""``ToolIdRule``: one target's constraint on tool-call ids, and the deterministic mapping to it."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Final

__all__ = ["ToolIdRule"]

_HASH_LENGTH: Final = 8
_CLASS_PATTERN: Final = re.compile(r"^\^\[(?P<chars>[^\]]+)\]\+\$$")


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:_HASH_LENGTH]


@dataclass(frozen=True, slots=True)
class ToolIdRule:
    """The ids a target accepts: ``pattern`` (a regex of the form ``^[class]+$``, whose class
    must admit ``_``) and ``max_length`` (``None``: no constraint).

    ``map(id)`` returns ``id`` itself when it is valid. Otherwise each character outside the
    class becomes ``_`` and ``_`` plus 8 hex digits of the SHA-256 of the original is appended
    (so ``"a.b"`` and ``"a:b"`` stay apart); an id still longer than ``max_length`` keeps a
    prefix and gets ``_`` plus the hash of the whole. The mapping is deterministic, and two
    different ids map to one only through a hash collision (``prepare_conversation`` also makes
    the ids of one request unique). Raises ``ValueError`` for a pattern of another form, a class
    without ``_``, or a ``max_length`` under 10.
    """

    pattern: str | None = field(default=None, kw_only=True)
    max_length: int | None = field(default=None, kw_only=True)
    _valid: re.Pattern[str] | None = field(default=None, init=False, repr=False, compare=False)
    _invalid: re.Pattern[str] | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.pattern is not None:
            match = _CLASS_PATTERN.match(self.pattern)
            if match is None:
                raise ValueError(f"pattern must have the form ^[class]+$, got {self.pattern!r}")
            valid = re.compile(self.pattern)
            if valid.match("_") is None:
                raise ValueError(f"the class of pattern {self.pattern!r} must admit '_'")
            object.__setattr__(self, "_valid", valid)
            object.__setattr__(self, "_invalid", re.compile(f"[^{match['chars']}]"))
        if self.max_length is not None and self.max_length < _HASH_LENGTH + 2:
            raise ValueError(
                f"max_length must be at least {_HASH_LENGTH + 2}, got {self.max_length}"
            )

    def is_valid(self, tool_id: str) -> bool:
        """Whether ``tool_id`` is sent as it is."""
        if self.max_length is not None and len(tool_id) > self.max_length:
            return False
        return self._valid is None or self._valid.match(tool_id) is not None

    def map(self, tool_id: str) -> str:
        """The id to send for ``tool_id`` (see the class)."""
        if self.is_valid(tool_id):
            return tool_id
        mapped = tool_id
        if self._invalid is not None and self._valid is not None and not self._valid.match(tool_id):
            mapped = f"{self._invalid.sub('_', tool_id)}_{_digest(tool_id)}"
        if self.max_length is not None and len(mapped) > self.max_length:
            keep = self.max_length - _HASH_LENGTH - 1
            mapped = f"{mapped[:keep]}_{_digest(mapped)}"
        return mapped
