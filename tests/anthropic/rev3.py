"""Shared by the revision-3 tests (API.md 19): replies over the real SDK and respx, both paths.

Every request body goes through the strict validator (the conftest's, and
``assert_valid_http_request`` for the bodies and beta headers the SDK sent).
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import respx
from anthropic._models import construct_type
from anthropic.types import Message as AnthropicMessage

from llmbridge import Message, Role, TextMessage
from llmbridge.anthropic import (
    AnthropicChatAgent,
    AnthropicMessageConnector,
    from_anthropic,
    from_anthropic_messages,
    to_anthropic,
)
from llmbridge.testing import (
    anthropic_client,
    anthropic_message,
    anthropic_sse_response,
    anthropic_stream_events,
)
from tests.anthropic.helpers import URL, convert
from tests.anthropic.wire import assert_valid_http_request
from tests.corpus import AGENT

REV3 = Path(__file__).resolve().parents[1] / "fixtures" / "anthropic" / "rev3"
"""The recorded replies and streams with citations and server tools (facts: rev3-facts.md)."""


def recorded(name: str) -> dict[str, Any]:
    """A recorded reply body of ``REV3``."""
    body: dict[str, Any] = json.loads((REV3 / name).read_text(encoding="utf-8"))
    return body


def without_nulls(value: Any) -> Any:
    """A recorded block as a request replays it: ``null`` fields left out (the request types
    take them absent or ``null`` alike), except in citations, whose titles are nullable."""
    if isinstance(value, dict):
        return {
            key: item if key == "citations" else without_nulls(item)
            for key, item in value.items()
            if item is not None
        }
    if isinstance(value, list):
        return [without_nulls(item) for item in value]
    return value


def router_for(
    body: dict[str, Any], events: list[dict[str, Any]] | None = None, *, sse: bytes | None = None
) -> respx.Router:
    """Plain requests get ``body``; streaming ones the recorded body ``sse``, or ``events``
    (default: the kit's of ``body``)."""

    def answer(request: httpx.Request) -> httpx.Response:
        if not json.loads(request.content).get("stream"):
            return httpx.Response(200, json=body)
        if sse is not None:
            return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=sse)
        return anthropic_sse_response(anthropic_stream_events(body) if events is None else events)

    def checked(request: httpx.Request) -> httpx.Response:
        assert_valid_http_request(request)
        return answer(request)

    router = respx.Router(assert_all_called=False)
    router.post(URL).mock(side_effect=checked)
    return router


def connected(router: respx.Router, *, strict: bool = False, **kwargs: Any) -> Any:
    """An ``AnthropicChatAgent`` over ``router`` with its connector."""
    agent = AnthropicChatAgent(anthropic_client(router), name=AGENT, model="claude-test", **kwargs)
    return agent.register_message_connector(AnthropicMessageConnector(strict_mode=strict))


async def plain_and_streamed(
    body: dict[str, Any], events: list[dict[str, Any]] | None = None, *, strict: bool = False
) -> tuple[Message, Message]:
    """The reply to ``"hi"`` sent plainly and streamed (its last message), through the SDK."""
    agent = connected(router_for(body, events), strict=strict)
    plain = await agent.send("hi")
    streamed = [message async for message in agent.stream("hi")][-1]
    return plain, streamed


def sdk_message(body: dict[str, Any]) -> AnthropicMessage:
    """The ``Message`` the SDK builds from a reply body (without validation, as it does)."""
    message: AnthropicMessage = construct_type(type_=AnthropicMessage, value=body)
    return message


def assert_replayed(
    content: list[dict[str, Any]], *, stop_reason: str = "end_turn", strict: bool = False
) -> None:
    """A reply of ``content`` goes back to Anthropic block for block, with no note, and the
    importer reads that request back to the same reply (exact round trip)."""
    body = anthropic_message(content, stop_reason=stop_reason)
    reply = from_anthropic(sdk_message(body), agent_name=AGENT)
    question = TextMessage(Role.USER, "Look it up.")

    request = convert([question, reply], strict=strict)

    assert request.messages[-1] == {"role": "assistant", "content": content}
    assert request.notes == ()
    imported = from_anthropic_messages(request.messages, agent_name=AGENT, strict_mode=True)
    assert imported[-1] == replace(reply, usage=None, finish_reason=None)
    assert to_anthropic(imported, agent_name=AGENT).messages == request.messages
