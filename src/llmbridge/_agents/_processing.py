"""The pre- and post-processing middlewares behind ``register_pre_process`` /
``register_post_process``."""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any, TypeAlias

from llmbridge._agents._context import MiddlewareContext
from llmbridge._agents._protocols import Agent, StreamingAgent
from llmbridge._messages import UPDATE_TYPES, Message

__all__ = ["PostProcess", "PostProcessMiddleware", "PreProcess", "PreProcessMiddleware"]


PreProcess: TypeAlias = Callable[
    [Sequence[Message]], Sequence[Message] | Awaitable[Sequence[Message]]
]
PostProcess: TypeAlias = Callable[[Sequence[Message], Message], Message | Awaitable[Message]]


async def _resolve(value: Any) -> Any:
    return await value if inspect.isawaitable(value) else value


class PreProcessMiddleware:
    """Rewrites the conversation before the call, on both paths."""

    def __init__(self, fn: PreProcess) -> None:
        self.fn = fn
        self.name = f"pre_process:{getattr(fn, '__name__', 'fn')}"

    async def invoke(self, context: MiddlewareContext, agent: Agent) -> Message:
        messages = await _resolve(self.fn(context.messages))
        return await agent.generate_reply(messages, context.options)

    async def invoke_streaming(
        self, context: MiddlewareContext, agent: StreamingAgent
    ) -> AsyncIterator[Message]:
        messages = await _resolve(self.fn(context.messages))
        async for message in agent.generate_streaming_reply(messages, context.options):
            yield message


class PostProcessMiddleware:
    """Rewrites each complete reply; streamed updates pass through untouched."""

    def __init__(self, fn: PostProcess) -> None:
        self.fn = fn
        self.name = f"post_process:{getattr(fn, '__name__', 'fn')}"

    async def invoke(self, context: MiddlewareContext, agent: Agent) -> Message:
        reply = await agent.generate_reply(context.messages, context.options)
        result: Message = await _resolve(self.fn(context.messages, reply))
        return result

    async def invoke_streaming(
        self, context: MiddlewareContext, agent: StreamingAgent
    ) -> AsyncIterator[Message]:
        async for message in agent.generate_streaming_reply(context.messages, context.options):
            if isinstance(message, UPDATE_TYPES):
                yield message
            else:
                yield await _resolve(self.fn(context.messages, message))
