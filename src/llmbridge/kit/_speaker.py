"""``speaker``: who sent a message, as every provider's From rule sees it."""

from __future__ import annotations

from typing import Literal

from llmbridge._messages import Message

__all__ = ["Speaker", "speaker"]

Speaker = Literal["self", "other", "caller"]
"""Who sent a message, for the agent a conversion is for (see ``speaker``)."""


def speaker(message: Message, agent_name: str) -> Speaker:
    """``"self"`` when ``message.from_`` is ``agent_name``, ``"caller"`` when it is ``None``,
    else ``"other"`` (another agent of the conversation)."""
    sender = message.from_
    if sender is None:
        return "caller"
    return "self" if sender == agent_name else "other"
