"""The middleware chain: context, protocols, middleware agents and the ``register_*`` helpers.

A chain is built once, when an agent is registered, and read outermost first: the middleware
registered last runs first. Registering never changes an agent; it returns a new one.
"""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any, Protocol, TypeAlias, cast, overload, runtime_checkable

from llmbridge._agents import Agent, GenerateReplyOptions, StreamingAgent, build_messages
from llmbridge._messages import UPDATE_TYPES, Message

if TYPE_CHECKING:
    from llmbridge._connectors import Connector
    from llmbridge._tracing import MeterProvider, TracerProvider

__all__ = [
    "AgentMethods",
    "DelegateMiddleware",
    "Middleware",
    "MiddlewareAgent",
    "MiddlewareContext",
    "MiddlewareStreamingAgent",
    "StreamingMiddleware",
    "innermost_agent",
    "register_middleware",
    "register_post_process",
    "register_pre_process",
    "register_streaming_middleware",
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


class _Link:
    """One step of a built chain: the agent a middleware sees as its ``agent`` argument."""

    __slots__ = ("inner", "middleware", "name")

    def __init__(self, middleware: Middleware, inner: Agent, name: str) -> None:
        self.middleware = middleware
        self.inner = inner
        self.name = name

    async def generate_reply(
        self, messages: Sequence[Message], options: GenerateReplyOptions | None = None
    ) -> Message:
        return await self.middleware.invoke(MiddlewareContext(messages, options), self.inner)


class _StreamingLink(_Link):
    __slots__ = ()

    def generate_streaming_reply(
        self, messages: Sequence[Message], options: GenerateReplyOptions | None = None
    ) -> AsyncIterator[Message]:
        inner: Any = self.inner
        if isinstance(self.middleware, StreamingMiddleware):
            return self.middleware.invoke_streaming(MiddlewareContext(messages, options), inner)
        # A plain middleware takes part in generate_reply only: the stream passes it by.
        streaming_inner: StreamingAgent = inner
        return streaming_inner.generate_streaming_reply(messages, options)


class _Renamed:
    """The innermost agent seen under another name (when a chain is given an explicit name)."""

    __slots__ = ("agent", "name")

    def __init__(self, agent: Agent, name: str) -> None:
        self.agent = agent
        self.name = name

    async def generate_reply(
        self, messages: Sequence[Message], options: GenerateReplyOptions | None = None
    ) -> Message:
        return await self.agent.generate_reply(messages, options)

    def generate_streaming_reply(
        self, messages: Sequence[Message], options: GenerateReplyOptions | None = None
    ) -> AsyncIterator[Message]:
        agent: Any = self.agent
        streaming: StreamingAgent = agent
        return streaming.generate_streaming_reply(messages, options)


def innermost_agent(agent: Agent) -> Agent:
    """Follow ``.agent`` through middleware layers down to the agent that does the work."""
    while isinstance(agent, MiddlewareAgent):
        agent = agent.agent
    return agent


class AgentMethods:
    """The ``send`` / ``stream`` / ``register_*`` methods of built-in and middleware agents."""

    __slots__ = ()

    async def send(
        self,
        message: Message | str | None = None,
        *,
        chat_history: Sequence[Message] = (),
        options: GenerateReplyOptions | None = None,
    ) -> Message:
        """Ask this agent for a reply to ``[*chat_history, message]`` (see ``llmbridge.send``)."""
        return await cast(Agent, self).generate_reply(
            build_messages(message, chat_history), options
        )

    def stream(
        self,
        message: Message | str | None = None,
        *,
        chat_history: Sequence[Message] = (),
        options: GenerateReplyOptions | None = None,
    ) -> AsyncIterator[Message]:
        """Stream this agent's reply (see ``llmbridge.stream``); the agent must stream."""
        if not isinstance(self, StreamingAgent):
            raise TypeError(f"{type(self).__name__} does not stream; use send() instead")
        return self.generate_streaming_reply(build_messages(message, chat_history), options)

    def register_middleware(
        self, middleware: Middleware | MiddlewareFunction, *, name: str | None = None
    ) -> MiddlewareAgent:
        """Return a new agent with ``middleware`` outermost (``llmbridge.register_middleware``)."""
        return register_middleware(cast(Agent, self), middleware, name=name)

    def register_streaming_middleware(
        self, middleware: StreamingMiddleware
    ) -> MiddlewareStreamingAgent:
        """Return a new streaming agent with ``middleware`` outermost."""
        return register_streaming_middleware(cast(StreamingAgent, self), middleware)

    def register_pre_process(self, fn: PreProcess) -> MiddlewareAgent:
        """Return a new agent that rewrites the messages with ``fn`` before the call."""
        return register_pre_process(cast(Agent, self), fn)

    def register_post_process(self, fn: PostProcess) -> MiddlewareAgent:
        """Return a new agent that rewrites each complete reply with ``fn``."""
        return register_post_process(cast(Agent, self), fn)

    def register_print_message(self, *, file: IO[str] | None = None) -> MiddlewareAgent:
        """Return a new agent that prints every reply (see ``llmbridge.register_print_message``)."""
        from llmbridge._printing import register_print_message

        return register_print_message(cast(Agent, self), file=file)

    def register_message_connector(self, connector: Connector | None = None) -> MiddlewareAgent:
        """Return a new agent that speaks neutral messages (``register_message_connector``)."""
        from llmbridge._connectors import register_message_connector

        return register_message_connector(cast(Agent, self), connector)

    def register_tracing(
        self,
        *,
        tracer_provider: TracerProvider | None = None,
        meter_provider: MeterProvider | None = None,
        capture_content: bool = False,
    ) -> MiddlewareAgent:
        """Return a new agent that traces every call (see ``llmbridge.register_tracing``)."""
        from llmbridge._tracing import register_tracing

        return register_tracing(
            cast(Agent, self),
            tracer_provider=tracer_provider,
            meter_provider=meter_provider,
            capture_content=capture_content,
        )


class MiddlewareAgent(AgentMethods):
    """An agent wrapped in middlewares; the last of ``middlewares`` runs first.

    ``name`` is the innermost agent's name unless given; every middleware receives an agent that
    reports that name.
    """

    __slots__ = ("_chain", "_explicit_name", "agent", "middlewares", "name")

    def __init__(
        self, agent: Agent, middlewares: Sequence[Middleware] = (), *, name: str | None = None
    ) -> None:
        self.agent = agent
        self.middlewares: tuple[Middleware, ...] = tuple(middlewares)
        self._explicit_name = name
        self.name: str = name if name is not None else agent.name
        chain: Agent = agent if name is None else _Renamed(agent, name)
        link_type = _StreamingLink if isinstance(self, MiddlewareStreamingAgent) else _Link
        for middleware in self.middlewares:
            chain = link_type(middleware, chain, self.name)
        self._chain = chain

    async def generate_reply(
        self, messages: Sequence[Message], options: GenerateReplyOptions | None = None
    ) -> Message:
        """Run the chain, outermost middleware first."""
        return await self._chain.generate_reply(messages, options)

    def _with(self, middleware: Middleware) -> MiddlewareAgent:
        return type(self)(self.agent, [*self.middlewares, middleware], name=self._explicit_name)

    def __repr__(self) -> str:
        names = [getattr(m, "name", None) or type(m).__name__ for m in self.middlewares]
        return f"{type(self).__name__}({self.agent!r}, middlewares={names}, name={self.name!r})"


class MiddlewareStreamingAgent(MiddlewareAgent):
    """A streaming agent wrapped in middlewares; plain middlewares are passed by when streaming."""

    __slots__ = ()

    def __init__(
        self,
        agent: StreamingAgent,
        middlewares: Sequence[Middleware] = (),
        *,
        name: str | None = None,
    ) -> None:
        if not isinstance(agent, StreamingAgent):
            raise TypeError(f"{type(agent).__name__} does not stream; use MiddlewareAgent")
        super().__init__(agent, middlewares, name=name)

    def generate_streaming_reply(
        self, messages: Sequence[Message], options: GenerateReplyOptions | None = None
    ) -> AsyncIterator[Message]:
        """Run the streaming chain, outermost middleware first."""
        chain: Any = self._chain
        streaming: StreamingAgent = chain
        return streaming.generate_streaming_reply(messages, options)


@overload
def _wrap(agent: StreamingAgent, middleware: Middleware) -> MiddlewareStreamingAgent: ...
@overload
def _wrap(agent: Agent, middleware: Middleware) -> MiddlewareAgent: ...
def _wrap(agent: Agent, middleware: Middleware) -> MiddlewareAgent:
    if isinstance(agent, MiddlewareAgent):
        return agent._with(middleware)
    if isinstance(agent, StreamingAgent):
        return MiddlewareStreamingAgent(agent, [middleware])
    return MiddlewareAgent(agent, [middleware])


@overload
def register_middleware(
    agent: StreamingAgent, middleware: Middleware | MiddlewareFunction, *, name: str | None = None
) -> MiddlewareStreamingAgent: ...
@overload
def register_middleware(
    agent: Agent, middleware: Middleware | MiddlewareFunction, *, name: str | None = None
) -> MiddlewareAgent: ...
def register_middleware(
    agent: Agent, middleware: Middleware | MiddlewareFunction, *, name: str | None = None
) -> MiddlewareAgent:
    """Return a new agent with ``middleware`` (or ``async fn(context, agent)``) outermost.

    A streaming agent stays streaming; a plain middleware then takes part in ``generate_reply``
    only and is passed by on the streaming path.
    """
    if not isinstance(middleware, Middleware):
        if not callable(middleware):
            raise TypeError(f"expected a middleware or an async function, got {middleware!r}")
        middleware = DelegateMiddleware(middleware, name)
    return _wrap(agent, middleware)


def register_streaming_middleware(
    agent: StreamingAgent, middleware: StreamingMiddleware
) -> MiddlewareStreamingAgent:
    """Return a new streaming agent with ``middleware`` outermost on both paths.

    Raises ``TypeError`` when ``agent`` does not stream or ``middleware`` has no
    ``invoke_streaming``.
    """
    if not isinstance(agent, StreamingAgent):
        raise TypeError(f"{type(agent).__name__} does not stream")
    if not isinstance(middleware, StreamingMiddleware):
        raise TypeError(f"{type(middleware).__name__} has no invoke_streaming")
    return _wrap(agent, middleware)


PreProcess: TypeAlias = Callable[
    [Sequence[Message]], Sequence[Message] | Awaitable[Sequence[Message]]
]
PostProcess: TypeAlias = Callable[[Sequence[Message], Message], Message | Awaitable[Message]]


async def _resolve(value: Any) -> Any:
    return await value if inspect.isawaitable(value) else value


class _PreProcess:
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


class _PostProcess:
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


@overload
def register_pre_process(agent: StreamingAgent, fn: PreProcess) -> MiddlewareStreamingAgent: ...
@overload
def register_pre_process(agent: Agent, fn: PreProcess) -> MiddlewareAgent: ...
def register_pre_process(agent: Agent, fn: PreProcess) -> MiddlewareAgent:
    """Return a new agent that passes ``fn(messages)`` (sync or async) on instead."""
    return _wrap(agent, _PreProcess(fn))


@overload
def register_post_process(agent: StreamingAgent, fn: PostProcess) -> MiddlewareStreamingAgent: ...
@overload
def register_post_process(agent: Agent, fn: PostProcess) -> MiddlewareAgent: ...
def register_post_process(agent: Agent, fn: PostProcess) -> MiddlewareAgent:
    """Return a new agent that returns ``fn(messages, reply)`` (sync or async) instead of the reply.

    On the streaming path ``fn`` sees each complete message; updates pass through unchanged.
    """
    return _wrap(agent, _PostProcess(fn))
