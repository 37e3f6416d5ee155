"""Reading a Gemini request object in either casing, and the validator's one error.

google-genai's serialized body mixes camelCase and snake_case keys (``inlineData`` holding
``mime_type``), so every key is read in either casing; both casings of one key in one object is
an error. A failure is a ``WireError`` whose message starts with the path and names the rule in
brackets, e.g. ``contents[2]: [G2 response count] ...``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Final, NoReturn

__all__ = ["WireError", "fail", "non_empty_list", "read_fields", "snake_keys"]

_CAMEL_HUMP: Final = re.compile(r"(?<=[a-z0-9])([A-Z])")


class WireError(AssertionError):
    """A request body the Gemini API would reject."""


def fail(path: str, rule: str, problem: str) -> NoReturn:
    """Raise ``WireError``: ``<path>: [<rule>] <problem>``."""
    raise WireError(f"{path}: [{rule}] {problem}")


def snake_keys(value: Any, path: str) -> dict[str, Any]:
    """``value`` with its keys in snake_case; one key in both casings is an error."""
    if not isinstance(value, Mapping):
        fail(path, "shape", f"expected an object, got {type(value).__name__}")
    fields: dict[str, Any] = {}
    for key, item in value.items():
        name = _CAMEL_HUMP.sub(r"_\1", key).lower()
        if name in fields:
            fail(path, "casing", f"{name!r} is given in both camelCase and snake_case")
        fields[name] = item
    return fields


def read_fields(
    value: Any, path: str, allowed: frozenset[str], required: Sequence[str] = ()
) -> dict[str, Any]:
    """``value``'s keys in snake_case, checked against ``allowed`` and ``required``."""
    fields = snake_keys(value, path)
    unknown = sorted(set(fields) - allowed)
    if unknown:
        fail(path, "shape", f"unknown keys {unknown}")
    missing = [key for key in required if key not in fields]
    if missing:
        fail(path, "shape", f"missing keys {missing}")
    return fields


def non_empty_list(value: Any, path: str, rule: str) -> list[Any]:
    """``value`` when it is a non-empty list, else a ``WireError`` naming ``rule``."""
    if not isinstance(value, list) or not value:
        fail(path, rule, "expected a non-empty list")
    return value
