"""Shared test helpers: every conversion goes through the wire validator and a mutation check."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from anthropic.types import RawMessageStreamEvent
from pydantic import TypeAdapter

from llmbridge import Message
from llmbridge.anthropic import AnthropicRequest, AnthropicStreamAggregator, to_anthropic
from llmbridge.testing import anthropic_stream_events
from tests.anthropic.wire import assert_valid_request
from tests.corpus import AGENT

URL = "https://api.anthropic.com/v1/messages"
_EVENT: TypeAdapter[Any] = TypeAdapter(RawMessageStreamEvent)


def convert(
    messages: Sequence[Message],
    *,
    strict: bool = False,
    check_pairing: bool = True,
    **kwargs: Any,
) -> AnthropicRequest:
    """``to_anthropic`` for ``AGENT``; proves the input unchanged and the payload valid."""
    before = copy.deepcopy(list(messages))
    request = to_anthropic(
        messages, agent_name=AGENT, strict_mode=strict, check_pairing=check_pairing, **kwargs
    )
    assert list(messages) == before, "the conversion mutated its input"
    assert_valid_request(request, fragment=not check_pairing)
    return request


def payload(request: AnthropicRequest) -> dict[str, Any]:
    """The request as the ``{"system", "messages"}`` body part."""
    return {"system": request.system, "messages": request.messages}


def kinds(request: AnthropicRequest) -> list[tuple[int | None, str]]:
    """The notes as ``(index, kind)`` pairs."""
    return [(note.index, note.kind) for note in request.notes]


def text(value: str) -> dict[str, Any]:
    return {"type": "text", "text": value}


def user(*blocks: dict[str, Any]) -> dict[str, Any]:
    return {"role": "user", "content": list(blocks)}


def assistant(*blocks: dict[str, Any]) -> dict[str, Any]:
    return {"role": "assistant", "content": list(blocks)}


def tool_use(tool_id: str, name: str, tool_input: dict[str, Any]) -> dict[str, Any]:
    return {"type": "tool_use", "id": tool_id, "name": name, "input": tool_input}


def tool_result(tool_id: str, content: str | None = None, **extra: Any) -> dict[str, Any]:
    block: dict[str, Any] = {"type": "tool_result", "tool_use_id": tool_id, **extra}
    if content is not None:
        block["content"] = content
    return block


def sdk_events(body: dict[str, Any], **kwargs: Any) -> list[Any]:
    """The SDK event objects of a stream of ``body`` (pings dropped, as the SDK does)."""
    return [
        _EVENT.validate_python(event)
        for event in anthropic_stream_events(body, **kwargs)
        if event["type"] != "ping"
    ]


def stream_final(body: dict[str, Any], **kwargs: Any) -> Message:
    """The final message an aggregator builds from a stream of ``body``."""
    aggregator = AnthropicStreamAggregator(AGENT)
    for event in sdk_events(body, **kwargs):
        aggregator.add(event)
    return aggregator.finish()
