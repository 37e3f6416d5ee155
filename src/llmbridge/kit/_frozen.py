"""``plain_json``: what a wing kept in ``provider_data``, back as plain JSON data to send."""

from __future__ import annotations

from typing import Any

from llmbridge._messages._provider_data import thaw

__all__ = ["plain_json"]


def plain_json(value: Any) -> Any:
    """``value`` from a frozen ``provider_data`` (``FrozenMapping``, tuples, scalars) as the
    dicts and lists a request body holds; other values are returned as they are. A wing
    replays the exact blocks or items it recorded with it."""
    return thaw(value)
