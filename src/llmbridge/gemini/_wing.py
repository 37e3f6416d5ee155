"""What the command line and the demo use of this wing (``llmbridge.kit.ProviderWing``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

import httpx2
from google import genai
from google.genai import types

from llmbridge import ConversionNote, InvalidMessageError, Message, MiddlewareStreamingAgent
from llmbridge.gemini._agent import GeminiChatAgent
from llmbridge.gemini._import import from_gemini_contents
from llmbridge.gemini._request import NamePolicy, check_name_policy, to_gemini

__all__ = [
    "connected_agent",
    "default_http_client",
    "import_payload",
    "request_payload",
    "sdk_client",
]

_KEYS = frozenset({"system_instruction", "contents"})


def request_payload(
    messages: Sequence[Message], *, agent_name: str, strict_mode: bool, name_policy: str
) -> tuple[dict[str, Any], tuple[ConversionNote, ...]]:
    """``{"system_instruction": {"parts": [...]}, "contents": [...]}`` for ``messages`` (no
    ``system_instruction`` key without system text, so the payload is a valid request body as
    it stands), and the notes."""
    check_name_policy(name_policy)
    request = to_gemini(
        messages,
        agent_name=agent_name,
        strict_mode=strict_mode,
        name_policy=cast(NamePolicy, name_policy),
    )
    payload: dict[str, Any] = (
        {"system_instruction": {"parts": request.system_instruction}}
        if request.system_instruction
        else {}
    )
    payload["contents"] = request.contents
    return payload, request.notes


def import_payload(
    payload: Mapping[str, Any], *, agent_name: str, strict_mode: bool
) -> list[Message]:
    """Neutral messages for a ``{"system_instruction": ..., "contents": [...]}`` payload (what
    ``request_payload`` writes; ``system_instruction`` optional), through
    ``from_gemini_contents``.

    Raises ``InvalidMessageError`` for another top-level key or ``contents`` not a list, and
    (strict) for a content or system part that cannot be imported, naming its index.
    """
    shape = 'a Gemini payload is {"system_instruction": ..., "contents": [...]}'
    unknown = sorted(set(payload) - _KEYS)
    if unknown:
        raise InvalidMessageError(f"{shape}; unknown key(s) {unknown}", field=unknown[0])
    contents, system = payload.get("contents"), payload.get("system_instruction")
    if not isinstance(contents, list):
        raise InvalidMessageError(f"{shape}; contents must be a list", field="contents")
    if not isinstance(system, str | dict | list | None):
        raise InvalidMessageError(
            f"{shape}; system_instruction must be text, a content or parts",
            field="system_instruction",
        )
    return from_gemini_contents(
        contents, agent_name=agent_name, system_instruction=system, strict_mode=strict_mode
    )


def sdk_client(*, api_key: str | None, http_client: Any, max_retries: int) -> genai.Client:
    """A ``google.genai.Client`` whose async side runs on ``http_client`` (``api_key=None``:
    ``GEMINI_API_KEY`` / ``GOOGLE_API_KEY`` from the environment); ``max_retries`` retries
    on the SDK's retryable statuses (none at 0)."""
    retry = types.HttpRetryOptions(attempts=max_retries + 1) if max_retries else None
    options = types.HttpOptions(httpx_async_client=http_client, retry_options=retry)
    return genai.Client(api_key=api_key, http_options=options)


def default_http_client(**kwargs: Any) -> httpx2.AsyncClient:
    """An ``httpx2.AsyncClient`` (the SDK's default HTTP library) with ``kwargs`` (hooks,
    transport); the SDK sets each request's timeout itself."""
    return httpx2.AsyncClient(**kwargs)


def connected_agent(client: Any, *, name: str, model: str) -> MiddlewareStreamingAgent:
    """A ``GeminiChatAgent`` with its default connector (``GeminiMessageConnector``)."""
    connected = GeminiChatAgent(client, name=name, model=model).register_message_connector()
    assert isinstance(connected, MiddlewareStreamingAgent)  # the agent streams
    return connected
