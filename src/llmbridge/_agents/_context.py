"""What a middleware receives and what it is: ``MiddlewareContext``, the middleware protocols,
``DelegateMiddleware``."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeAlias, runtime_checkable

from llmbridge._agents._protocols import Agent, GenerateReplyOptions, StreamingAgent
from llmbridge._messages import Message

__all__ = [
    "DelegateMiddleware",
    "Middleware",
    "MiddlewareContext",
    "MiddlewareFunction",
    "StreamingMiddleware",
]


@dataclass(frozen=True, slots=True, init=False)
class MiddlewareContext:
    """What a middleware receives: the conversation (as a tuple) and the reply options."""

    messages: tuple[Message, ...]
    options: GenerateReplyOptions | None

    def __init__(
        self, messages: Sequence[Message], options: GenerateReplyOptions | None = None
    ) -> None:
        object.__setattr__(self, "messages", tuple(messages))
        object.__setattr__(self, "options", options)


@runtime_checkable
class Middleware(Protocol):
    """A step around an agent's ``generate_reply``; it may have a ``name``."""

    async def invoke(self, context: MiddlewareContext, agent: Agent) -> Message:
        """Produce the reply, usually by calling ``agent.generate_reply``."""
        ...


@runtime_checkable
class StreamingMiddleware(Middleware, Protocol):
    """A middleware that also takes part in the streaming path."""

    def invoke_streaming(
        self, context: MiddlewareContext, agent: StreamingAgent
    ) -> AsyncIterator[Message]:
        """Yield the streamed reply, usually from ``agent.generate_streaming_reply``."""
        ...


MiddlewareFunction: TypeAlias = Callable[[MiddlewareContext, Agent], Awaitable[Message]]


class DelegateMiddleware:
    """A middleware made of one ``async fn(context, agent) -> Message``."""

    def __init__(self, fn: MiddlewareFunction, name: str | None = None) -> None:
        self.fn = fn
        self.name = name

    async def invoke(self, context: MiddlewareContext, agent: Agent) -> Message:
        """Call the wrapped function."""
        return await self.fn(context, agent)

    def __repr__(self) -> str:
        return (
            f"DelegateMiddleware({getattr(self.fn, '__qualname__', self.fn)!r}, name={self.name!r})"
        )
