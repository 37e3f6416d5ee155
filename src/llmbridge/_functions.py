"""Function contracts: the tools a model may call."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["FunctionContract"]


@dataclass(frozen=True, slots=True)
class FunctionContract:
    """A function a model may call: its name, a description, and the JSON schema of its arguments.

    ``parameters`` is the JSON schema of an object (``None``: no arguments).
    """

    name: str
    description: str | None = None
    parameters: Mapping[str, Any] | None = field(default=None, hash=False)
