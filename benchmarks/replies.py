"""What the stream floor aggregators share: a call assembled from fragments, the final message.

Kept apart from ``stream_floors.py`` so that module holds the four wings' aggregators and bare
passes only; nothing here runs per chunk except ``Call.fragments.append``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from llmbridge import Message, Role, TextMessage, ToolCall, ToolCallMessage, Usage

__all__ = ["Call", "done", "reply"]


class Call:
    """A tool call being assembled: its id and name from its first delta, then its fragments."""

    __slots__ = ("fragments", "name", "tool_call_id")

    def __init__(self, tool_call_id: str | None, name: str) -> None:
        self.tool_call_id = tool_call_id
        self.name = name
        self.fragments: list[str] = []

    def done(self) -> ToolCall:
        """The neutral call, its arguments the fragments joined."""
        return ToolCall(self.name, "".join(self.fragments), tool_call_id=self.tool_call_id)


def done(calls: dict[int, Call]) -> list[ToolCall]:
    """The neutral calls of ``calls`` (index -> call), in index order."""
    return [calls[index].done() for index in sorted(calls)]


def reply(
    agent_name: str,
    content: str,
    calls: list[ToolCall],
    usage: Usage | None,
    finish_reason: str,
    provider_data: Mapping[str, Mapping[str, Any]] | None = None,
) -> Message:
    """A stream's final message: a ``ToolCallMessage`` (``content`` beside the calls, ``None``
    when empty) when it made calls, else a ``TextMessage`` of ``content``."""
    state = provider_data or {}
    if calls:
        return ToolCallMessage(
            calls,
            agent_name,
            content=content or None,
            usage=usage,
            finish_reason=finish_reason,
            provider_data=state,
        )
    return TextMessage(
        Role.ASSISTANT,
        content,
        agent_name,
        usage=usage,
        finish_reason=finish_reason,
        provider_data=state,
    )
