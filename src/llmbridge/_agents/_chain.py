"""The middleware chain: middleware agents, their methods, and the ``register_*`` helpers.

A chain is built once, when an agent is registered, and read outermost first: the middleware
registered last runs first. Registering never changes an agent; it returns a new one. The
agent methods live here with the agents whose constructors they call, so every import of this
package points one way: protocols <- context <- processing, printing, registry <- chain.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import IO, TYPE_CHECKING, Any, cast, overload

from llmbridge._agents._context import (
    DelegateMiddleware,
    Middleware,
    MiddlewareContext,
    MiddlewareFunction,
    StreamingMiddleware,
)
from llmbridge._agents._printing import PrintMessageMiddleware
from llmbridge._agents._processing import (
    PostProcess,
    PostProcessMiddleware,
    PreProcess,
    PreProcessMiddleware,
)
from llmbridge._agents._protocols import Agent, GenerateReplyOptions, StreamingAgent, build_messages
from llmbridge._agents._registry import Connector, default_connector_for
from llmbridge._messages import Message

if TYPE_CHECKING:
    from llmbridge._tracing import MeterProvider, TracerProvider

__all__ = [
    "AgentMethods",
    "MiddlewareAgent",
    "MiddlewareStreamingAgent",
    "innermost_agent",
    "register_message_connector",
    "register_middleware",
    "register_post_process",
    "register_pre_process",
    "register_print_message",
    "register_streaming_middleware",
    "register_tracing",
]


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
    """A wrapped middleware agent seen under the innermost agent's name (it has another)."""

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
        return register_print_message(cast(Agent, self), file=file)

    def register_message_connector(self, connector: Connector | None = None) -> MiddlewareAgent:
        """Return a new agent that speaks neutral messages (``register_message_connector``)."""
        return register_message_connector(cast(Agent, self), connector)

    def register_tracing(
        self,
        *,
        tracer_provider: TracerProvider | None = None,
        meter_provider: MeterProvider | None = None,
        capture_content: bool = False,
    ) -> MiddlewareAgent:
        """Return a new agent that traces every call (see ``llmbridge.register_tracing``)."""
        return register_tracing(
            cast(Agent, self),
            tracer_provider=tracer_provider,
            meter_provider=meter_provider,
            capture_content=capture_content,
        )


class MiddlewareAgent(AgentMethods):
    """An agent wrapped in middlewares; the last of ``middlewares`` runs first.

    ``.name`` is the wrapped agent's name unless ``name`` is given. Every middleware receives an
    agent that reports the innermost agent's name, also under a given ``name``: connectors tell
    the agent's own messages by it.
    """

    __slots__ = ("_chain", "_explicit_name", "agent", "middlewares", "name")

    def __init__(
        self, agent: Agent, middlewares: Sequence[Middleware] = (), *, name: str | None = None
    ) -> None:
        self.agent = agent
        self.middlewares: tuple[Middleware, ...] = tuple(middlewares)
        self._explicit_name = name
        self.name: str = name if name is not None else agent.name
        inner_name = innermost_agent(agent).name
        # A wrapped middleware agent may have been given its own name: the first middleware
        # must see the innermost name all the same.
        chain: Agent = agent if agent.name == inner_name else _Renamed(agent, inner_name)
        link_type = _StreamingLink if isinstance(self, MiddlewareStreamingAgent) else _Link
        for middleware in self.middlewares:
            chain = link_type(middleware, chain, inner_name)
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


@overload
def register_pre_process(agent: StreamingAgent, fn: PreProcess) -> MiddlewareStreamingAgent: ...
@overload
def register_pre_process(agent: Agent, fn: PreProcess) -> MiddlewareAgent: ...
def register_pre_process(agent: Agent, fn: PreProcess) -> MiddlewareAgent:
    """Return a new agent that passes ``fn(messages)`` (sync or async) on instead."""
    return _wrap(agent, PreProcessMiddleware(fn))


@overload
def register_post_process(agent: StreamingAgent, fn: PostProcess) -> MiddlewareStreamingAgent: ...
@overload
def register_post_process(agent: Agent, fn: PostProcess) -> MiddlewareAgent: ...
def register_post_process(agent: Agent, fn: PostProcess) -> MiddlewareAgent:
    """Return a new agent that returns ``fn(messages, reply)`` (sync or async) instead of the reply.

    On the streaming path ``fn`` sees each complete message; updates pass through unchanged.
    """
    return _wrap(agent, PostProcessMiddleware(fn))


@overload
def register_print_message(
    agent: StreamingAgent, *, file: IO[str] | None = None
) -> MiddlewareStreamingAgent: ...
@overload
def register_print_message(agent: Agent, *, file: IO[str] | None = None) -> MiddlewareAgent: ...
def register_print_message(agent: Agent, *, file: IO[str] | None = None) -> MiddlewareAgent:
    """Return a new agent that prints every reply (and, when streaming, deltas as they arrive)."""
    return register_middleware(agent, PrintMessageMiddleware(file))


@overload
def register_tracing(
    agent: StreamingAgent,
    *,
    tracer_provider: TracerProvider | None = None,
    meter_provider: MeterProvider | None = None,
    capture_content: bool = False,
) -> MiddlewareStreamingAgent: ...
@overload
def register_tracing(
    agent: Agent,
    *,
    tracer_provider: TracerProvider | None = None,
    meter_provider: MeterProvider | None = None,
    capture_content: bool = False,
) -> MiddlewareAgent: ...
def register_tracing(
    agent: Agent,
    *,
    tracer_provider: TracerProvider | None = None,
    meter_provider: MeterProvider | None = None,
    capture_content: bool = False,
) -> MiddlewareAgent:
    """Return a new agent that records every call as an OpenTelemetry GenAI client span.

    Register it right after the connector, so it sees neutral messages and replies; inside the
    connector it records what envelopes show. The provider and model come from the innermost
    agent (its class's ``provider`` tag and its ``model``). ``tracer_provider`` and
    ``meter_provider`` default to the global ones. Message content (inputs, outputs, tool-call
    arguments) is recorded only with ``capture_content=True``, media as their type and size
    only; credentials never. A streaming agent stays streaming.

    Raises ``ImportError`` naming ``pip install 'llmbridge[otel]'`` when the OpenTelemetry API
    or semantic conventions are not installed.
    """
    # Lazily: the tracing package needs the otel extra; it never imports this chain back.
    from llmbridge._tracing import tracing_middleware

    middleware = tracing_middleware(
        innermost_agent(agent),
        tracer_provider=tracer_provider,
        meter_provider=meter_provider,
        capture_content=capture_content,
    )
    return register_middleware(agent, middleware)


@overload
def register_message_connector(
    agent: StreamingAgent, connector: Connector | None = None
) -> MiddlewareStreamingAgent: ...
@overload
def register_message_connector(
    agent: Agent, connector: Connector | None = None
) -> MiddlewareAgent: ...
def register_message_connector(agent: Agent, connector: Connector | None = None) -> MiddlewareAgent:
    """Return a new agent that speaks neutral messages, with ``connector`` outermost.

    With no connector, the default for the innermost agent's type is used (built-in provider
    agents register theirs). The result streams when ``agent`` streams.
    Raises ``TypeError`` when no default connector exists for the agent's type.
    """
    if connector is None:
        connector = default_connector_for(type(innermost_agent(agent)))
    return register_middleware(agent, connector)
