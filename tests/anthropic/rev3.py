"""Shared by the revision-3 tests (API.md 19) until the strict validator knows the new blocks.

``tests/anthropic/wire.py`` does not know ``file`` sources, citations or hosted tool blocks yet
(they come with branch wave3-wire); until it lands, these tests use ``convert`` here, which
checks no mutation but not the wire, and switch the conftest's validator off with
``validate_every_payload``. Both go once the validator knows the blocks.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import httpx
import pytest
import respx
from anthropic._models import construct_type
from anthropic.types import Message as AnthropicMessage

from llmbridge import Message, Role, TextMessage
from llmbridge.anthropic import (
    AnthropicChatAgent,
    AnthropicMessageConnector,
    AnthropicRequest,
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
from tests.anthropic.helpers import URL
from tests.corpus import AGENT


@pytest.fixture(autouse=True)
def validate_every_payload() -> None:
    """Replaces the conftest's fixture of this name in the modules that import it."""


def convert(
    messages: Sequence[Message], *, strict: bool = False, **kwargs: Any
) -> AnthropicRequest:
    """``to_anthropic`` for ``AGENT``; proves the input unchanged."""
    before = copy.deepcopy(list(messages))
    request = to_anthropic(messages, agent_name=AGENT, strict_mode=strict, **kwargs)
    assert list(messages) == before, "the conversion mutated its input"
    return request


def router_for(body: dict[str, Any], events: list[dict[str, Any]] | None = None) -> respx.Router:
    """Plain requests get ``body``, streaming ones ``events`` (default: the kit's of ``body``)."""

    def answer(request: httpx.Request) -> httpx.Response:
        if json.loads(request.content).get("stream"):
            return anthropic_sse_response(
                anthropic_stream_events(body) if events is None else events
            )
        return httpx.Response(200, json=body)

    router = respx.Router(assert_all_called=False)
    router.post(URL).mock(side_effect=answer)
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
