"""What the command line and the demo use of this wing (``llmbridge.kit.ProviderWing``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import openai

from llmbridge import ConversionNote, InvalidMessageError, Message, MiddlewareStreamingAgent
from llmbridge.openai._agent import OpenAIChatAgent
from llmbridge.openai._import import from_openai_messages
from llmbridge.openai._request import to_openai

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
    """``{"messages": [...]}`` for ``messages``, and the notes (``name_policy`` does not apply:
    Chat Completions carries names in its ``name`` field)."""
    request = to_openai(messages, agent_name=agent_name, strict_mode=strict_mode)
    return {"messages": request.messages}, request.notes


def import_payload(
    payload: Mapping[str, Any], *, agent_name: str, strict_mode: bool
) -> list[Message]:
    """Neutral messages for a ``{"messages": [...]}`` payload (what ``request_payload`` writes),
    through ``from_openai_messages``.

    Raises ``InvalidMessageError`` for another top-level key or ``messages`` not a list, and
    (strict) for a message that cannot be imported, naming its index.
    """
    messages = payload_list(payload, "messages", "an OpenAI Chat payload")
    return from_openai_messages(messages, agent_name=agent_name, strict_mode=strict_mode)


def payload_list(payload: Mapping[str, Any], key: str, what: str) -> list[Any]:
    """The list under ``key``, the one key of an OpenAI payload ``what`` (both OpenAI APIs
    write one list under one key).

    Raises ``InvalidMessageError`` (``field`` the key) for another key or a value not a list.
    """
    shape = f'{what} is {{"{key}": [...]}}'
    unknown = sorted(set(payload) - {key})
    if unknown:
        raise InvalidMessageError(f"{shape}; unknown key(s) {unknown}", field=unknown[0])
    items = payload.get(key)
    if not isinstance(items, list):
        raise InvalidMessageError(f"{shape}; {key} must be a list", field=key)
    return items


def sdk_client(*, api_key: str | None, http_client: Any, max_retries: int) -> openai.AsyncOpenAI:
    """An ``openai.AsyncOpenAI`` over ``http_client`` (``api_key=None``: from the environment)."""
    return openai.AsyncOpenAI(api_key=api_key, http_client=http_client, max_retries=max_retries)


def default_http_client(**kwargs: Any) -> Any:
    """The SDK's own default async HTTP client (its timeouts and limits) with ``kwargs``."""
    return openai.DefaultAsyncHttpxClient(**kwargs)


def connected_agent(client: Any, *, name: str, model: str) -> MiddlewareStreamingAgent:
    """An ``OpenAIChatAgent`` with its default connector."""
    return OpenAIChatAgent(client, name=name, model=model).register_message_connector()
