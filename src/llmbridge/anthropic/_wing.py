"""What the command line and the demo use of this wing (``llmbridge.kit.ProviderWing``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

import anthropic

from llmbridge import ConversionNote, InvalidMessageError, Message, MiddlewareStreamingAgent
from llmbridge.anthropic._agent import AnthropicChatAgent
from llmbridge.anthropic._import import from_anthropic_messages
from llmbridge.anthropic._request import NamePolicy, check_name_policy, to_anthropic

__all__ = [
    "connected_agent",
    "default_http_client",
    "import_payload",
    "request_payload",
    "sdk_client",
]


def request_payload(
    messages: Sequence[Message], *, agent_name: str, strict_mode: bool, name_policy: str
) -> tuple[dict[str, Any], tuple[ConversionNote, ...]]:
    """``{"system": ..., "messages": [...]}`` for ``messages`` (no ``system`` key without system
    text, so the payload is a valid request body as it stands), and the notes."""
    check_name_policy(name_policy)
    request = to_anthropic(
        messages,
        agent_name=agent_name,
        strict_mode=strict_mode,
        name_policy=cast(NamePolicy, name_policy),
    )
    payload: dict[str, Any] = {"system": request.system} if request.system else {}
    payload["messages"] = request.messages
    return payload, request.notes


def import_payload(
    payload: Mapping[str, Any], *, agent_name: str, strict_mode: bool
) -> list[Message]:
    """Neutral messages for a ``{"system": ..., "messages": [...]}`` payload (what
    ``request_payload`` writes; ``system`` optional), through ``from_anthropic_messages``.

    Raises ``InvalidMessageError`` for another top-level key, ``messages`` not a list or
    ``system`` neither text nor a list, and (strict) for a message or system block that cannot
    be imported, naming its index (system blocks: field ``system[i]``).
    """
    shape = 'an Anthropic payload is {"system": ..., "messages": [...]}'
    unknown = sorted(set(payload) - {"system", "messages"})
    if unknown:
        raise InvalidMessageError(f"{shape}; unknown key(s) {unknown}", field=unknown[0])
    messages, system = payload.get("messages"), payload.get("system")
    if not isinstance(messages, list):
        raise InvalidMessageError(f"{shape}; messages must be a list", field="messages")
    if not isinstance(system, str | list | None):
        raise InvalidMessageError(f"{shape}; system must be text or blocks", field="system")
    return from_anthropic_messages(
        messages, agent_name=agent_name, system=system, strict_mode=strict_mode
    )


def sdk_client(
    *, api_key: str | None, http_client: Any, max_retries: int
) -> anthropic.AsyncAnthropic:
    """An ``anthropic.AsyncAnthropic`` over ``http_client`` (``api_key=None``: from the
    environment)."""
    return anthropic.AsyncAnthropic(
        api_key=api_key, http_client=http_client, max_retries=max_retries
    )


def default_http_client(**kwargs: Any) -> Any:
    """The SDK's own default async HTTP client (its timeouts and limits) with ``kwargs``."""
    return anthropic.DefaultAsyncHttpxClient(**kwargs)


def connected_agent(client: Any, *, name: str, model: str) -> MiddlewareStreamingAgent:
    """An ``AnthropicChatAgent`` with its default connector."""
    connected = AnthropicChatAgent(client, name=name, model=model).register_message_connector()
    assert isinstance(connected, MiddlewareStreamingAgent)  # the agent streams
    return connected
