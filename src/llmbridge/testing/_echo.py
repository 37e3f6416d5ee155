"""``EchoAgent``: a test double that answers with what it was given."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator, Sequence

from llmbridge import GenerateReplyOptions, Message
from llmbridge._agents import AgentMethods

__all__ = ["EchoAgent"]


def _sent_by(message: Message, name: str) -> Message:
    return dataclasses.replace(message, from_=name)  # type: ignore[type-var]


class EchoAgent(AgentMethods):
    """Replies with the last message, re-sent as its own (``from_`` set to its name).

    Streaming yields every input message in order, each with ``from_`` set to its name. Raises
    ``ValueError`` when asked to reply to no message.
    """

    def __init__(self, name: str) -> None:
        self.name = name

    async def generate_reply(
        self, messages: Sequence[Message], options: GenerateReplyOptions | None = None
    ) -> Message:
        """Return the last message with ``from_`` set to this agent's name."""
        if not messages:
            raise ValueError(f"{self.name}: no message to echo")
        return _sent_by(messages[-1], self.name)

    async def generate_streaming_reply(
        self, messages: Sequence[Message], options: GenerateReplyOptions | None = None
    ) -> AsyncIterator[Message]:
        """Yield each input message with ``from_`` set to this agent's name."""
        for message in messages:
            yield _sent_by(message, self.name)

    def __repr__(self) -> str:
        return f"EchoAgent({self.name!r})"
