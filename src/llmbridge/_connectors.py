"""``register_message_connector`` and the registry of default connectors per agent type."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, overload, runtime_checkable

from llmbridge._agents import Agent, StreamingAgent
from llmbridge._messages import Message
from llmbridge._middleware import (
    MiddlewareAgent,
    MiddlewareStreamingAgent,
    StreamingMiddleware,
    innermost_agent,
    register_middleware,
)

__all__ = [
    "Connector",
    "default_connector_for",
    "register_default_connector",
    "register_message_connector",
]


@runtime_checkable
class Connector(StreamingMiddleware, Protocol):
    """A middleware that translates neutral messages to one provider's types and back."""

    def process_incoming_messages(self, agent: Agent, messages: Sequence[Message]) -> list[Message]:
        """Convert neutral messages to provider messages wrapped in ``MessageEnvelope``."""
        ...

    def post_process_message(self, agent: Agent, reply: Message) -> Message:
        """Convert a provider reply to a neutral message."""
        ...


ConnectorFactory = Callable[[], Connector]

# The one piece of global mutable state: built-in providers register here on import.
_DEFAULTS: dict[type, ConnectorFactory] = {}


def register_default_connector(agent_type: type, factory: ConnectorFactory) -> None:
    """Make ``factory()`` the connector ``register_message_connector`` uses for ``agent_type``.

    Subclasses of ``agent_type`` use it too unless they have their own entry.
    """
    if not isinstance(agent_type, type):
        raise TypeError(f"agent_type must be a class, got {agent_type!r}")
    _DEFAULTS[agent_type] = factory


def default_connector_for(agent: Agent) -> Connector:
    """Return a new default connector for the innermost agent of ``agent``.

    Raises ``TypeError`` naming the type when no default is registered for it or its bases.
    """
    inner_type = type(innermost_agent(agent))
    for cls in inner_type.__mro__:
        factory = _DEFAULTS.get(cls)
        if factory is not None:
            return factory()
    raise TypeError(
        f"no default message connector for {inner_type.__qualname__}; pass one explicitly "
        "(register_message_connector(agent, connector)) or register a default with "
        "llmbridge.register_default_connector(agent_type, factory)"
    )


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
        connector = default_connector_for(agent)
    return register_middleware(agent, connector)
