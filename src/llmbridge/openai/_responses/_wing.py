"""What the command line and the demo use of the Responses wing (``llmbridge.kit.ProviderWing``).

Registered as provider ``"openai-responses"``: ``llmbridge convert --to openai-responses``
writes ``{"input": [...]}``; the SDK client is the Chat wing's (one ``openai.AsyncOpenAI``
serves both APIs).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from llmbridge import ConversionNote, Message, MiddlewareStreamingAgent
from llmbridge.openai._responses._agent import OpenAIResponsesAgent
from llmbridge.openai._responses._import import from_openai_responses_input
from llmbridge.openai._responses._request import check_name_policy, to_openai_responses
from llmbridge.openai._wing import default_http_client, payload_list, sdk_client

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
    """``{"input": [...]}`` for ``messages``, and the notes; ``ValueError`` for an unknown
    ``name_policy``."""
    check_name_policy(name_policy)
    request = to_openai_responses(
        messages,
        agent_name=agent_name,
        strict_mode=strict_mode,
        name_policy="prefix" if name_policy == "prefix" else "drop",
    )
    return {"input": request.input}, request.notes


def import_payload(
    payload: Mapping[str, Any], *, agent_name: str, strict_mode: bool
) -> list[Message]:
    """Neutral messages for an ``{"input": [...]}`` payload (what ``request_payload`` writes),
    through ``from_openai_responses_input``.

    Raises ``InvalidMessageError`` for another top-level key or ``input`` not a list, and
    (strict) for an item that cannot be imported, naming its index.
    """
    items = payload_list(payload, "input", "an OpenAI Responses payload")
    return from_openai_responses_input(items, agent_name=agent_name, strict_mode=strict_mode)


def connected_agent(client: Any, *, name: str, model: str) -> MiddlewareStreamingAgent:
    """An ``OpenAIResponsesAgent`` with its default connector (``OpenAIResponsesConnector``)."""
    return OpenAIResponsesAgent(client, name=name, model=model).register_message_connector()
