"""The registry of default connectors per agent type (``register_default_connector``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from llmbridge._agents._context import StreamingMiddleware
from llmbridge._agents._protocols import Agent
from llmbridge._messages import Message

__all__ = [
    "Connector",
    "default_connector_for",
    "register_default_connector",
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


def default_connector_for(inner_type: type) -> Connector:
    """Return a new default connector for agents of ``inner_type`` (the innermost agent's type).

    Raises ``TypeError`` naming the type when no default is registered for it or its bases.
    """
    for cls in inner_type.__mro__:
        factory = _DEFAULTS.get(cls)
        if factory is not None:
            return factory()
    raise TypeError(
        f"no default message connector for {inner_type.__qualname__}; pass one explicitly "
        "(register_message_connector(agent, connector)) or register a default with "
        "llmbridge.register_default_connector(agent_type, factory)"
    )
