"""Shared test helpers: every conversion goes through the wire validator and a mutation check."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable, Sequence
from typing import Any

import pytest
from anthropic.types import Message as AnthropicMessage
from anthropic.types import (
    RawContentBlockDeltaEvent,
    RawContentBlockStartEvent,
    RawContentBlockStopEvent,
    RawMessageDeltaEvent,
    RawMessageStartEvent,
    RawMessageStopEvent,
    RawMessageStreamEvent,
)
from pydantic import TypeAdapter

from llmbridge import Message
from llmbridge.anthropic import AnthropicRequest, AnthropicStreamAggregator, to_anthropic
from llmbridge.testing import anthropic_message, anthropic_stream_events, anthropic_text_block
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


def tool_result(
    tool_id: str, content: str | list[dict[str, Any]] | None = None, **extra: Any
) -> dict[str, Any]:
    block: dict[str, Any] = {"type": "tool_result", "tool_use_id": tool_id, **extra}
    if content is not None:
        block["content"] = content
    return block


def sdk_events_of(events: Iterable[dict[str, Any]]) -> list[Any]:
    """The SDK event objects of event payloads (pings dropped, as the SDK does)."""
    return [_EVENT.validate_python(event) for event in events if event["type"] != "ping"]


def sdk_events(body: dict[str, Any], **kwargs: Any) -> list[Any]:
    """The SDK event objects of a stream of ``body`` (pings dropped, as the SDK does)."""
    return sdk_events_of(anthropic_stream_events(body, **kwargs))


def stream_final(body: dict[str, Any], **kwargs: Any) -> Message:
    """The final message an aggregator builds from a stream of ``body``."""
    aggregator = AnthropicStreamAggregator(AGENT)
    for event in sdk_events(body, **kwargs):
        aggregator.add(event)
    return aggregator.finish()


# -- what the SDK builds: responses and events are constructed without validation -----------

_EVENT_MODELS: dict[str, Any] = {
    "message_start": RawMessageStartEvent,
    "content_block_start": RawContentBlockStartEvent,
    "content_block_delta": RawContentBlockDeltaEvent,
    "content_block_stop": RawContentBlockStopEvent,
    "message_delta": RawMessageDeltaEvent,
    "message_stop": RawMessageStopEvent,
}


def constructed(body: dict[str, Any]) -> AnthropicMessage:
    """The ``Message`` the SDK builds from ``body``: unknown block types become TextBlocks."""
    return AnthropicMessage.model_construct(**body)


def constructed_events_of(events: Iterable[dict[str, Any]]) -> list[Any]:
    """The event objects the SDK builds (without validation) from event payloads."""
    return [
        _EVENT_MODELS[event["type"]].model_construct(**event)
        for event in events
        if event["type"] != "ping"
    ]


def constructed_events(body: dict[str, Any], **kwargs: Any) -> list[Any]:
    """The event objects the SDK builds (without validation) from a stream of ``body``."""
    return constructed_events_of(anthropic_stream_events(body, **kwargs))


# Block types with no neutral form that anthropic 2.x has no model for, as the API sends them
# (the SDK builds each as a TextBlock with that type and text None).
UNMODELLED_BLOCKS = [
    pytest.param(
        {"type": "compaction", "content": "Summary of the earlier turns."}, id="compaction"
    ),
    pytest.param({"type": "hologram_2031", "frames": [1, 2]}, id="future_block_type"),
]

# The MCP connector's blocks (a beta the SDK models only in anthropic.types.beta): hosted tools
# now (API.md 19.5), built by the SDK as TextBlocks of their type as well.
MCP_USE = {
    "type": "mcp_tool_use",
    "id": "mcptoolu_01",
    "name": "search_docs",
    "server_name": "docs",
    "input": {"query": "rate limits"},
}
MCP_RESULT = {
    "type": "mcp_tool_result",
    "tool_use_id": "mcptoolu_01",
    "is_error": False,
    "content": [{"type": "text", "text": "60 requests per minute"}],
}

_SEARCH_ID = "srvtoolu_01WYG3ziw53XMcoyKL4XcZmE"
_SEARCH_RESULT_URL = "https://docs.anthropic.com/en/api/rate-limits"


def web_search_reply(stop_reason: str) -> dict[str, Any]:
    """A reply that used the server-side web search tool, shaped as the API sends it.

    ``"end_turn"``: text, the search, its result, then the answer (with a citation);
    ``"pause_turn"``: the turn paused after the search result, before the answer.
    """
    blocks: list[dict[str, Any]] = [
        anthropic_text_block("I'll look up the current rate limits."),
        {
            "type": "server_tool_use",
            "id": _SEARCH_ID,
            "name": "web_search",
            "input": {"query": "anthropic api rate limits"},
        },
        {
            "type": "web_search_tool_result",
            "tool_use_id": _SEARCH_ID,
            "content": [
                {
                    "type": "web_search_result",
                    "title": "Rate limits - Anthropic",
                    "url": _SEARCH_RESULT_URL,
                    "encrypted_content": "EqgfCioIARgBIiQ3YTAwMjY1Mi1mZjM5LTQ1NGUtODgxNC1k",
                    "page_age": "March 3, 2025",
                }
            ],
        },
    ]
    if stop_reason == "end_turn":
        blocks.append(anthropic_text_block("Based on the search results, "))
        cited = anthropic_text_block("the limit is 50 requests per minute on tier 1.")
        cited["citations"] = [
            {
                "type": "web_search_result_location",
                "url": _SEARCH_RESULT_URL,
                "title": "Rate limits - Anthropic",
                "encrypted_index": "Eo8BCioIAhgBIiQyYjQ0OWJmZi1lNm",
                "cited_text": "Tier 1: 50 requests per minute.",
            }
        ]
        blocks.append(cited)
    body = anthropic_message(blocks, stop_reason=stop_reason, input_tokens=6039, output_tokens=93)
    body["usage"]["server_tool_use"] = {"web_search_requests": 1}
    return body


def _block_stream(index: int, block: dict[str, Any]) -> list[dict[str, Any]]:
    def delta(payload: dict[str, Any]) -> dict[str, Any]:
        return {"type": "content_block_delta", "index": index, "delta": payload}

    deltas: list[dict[str, Any]] = []
    if block["type"] == "text":
        start: dict[str, Any] = {"type": "text", "text": ""}
        deltas = [
            delta({"type": "citations_delta", "citation": c}) for c in block.get("citations", [])
        ]
        deltas.append(delta({"type": "text_delta", "text": block["text"]}))
    elif block["type"] == "server_tool_use":
        start = {**block, "input": {}}
        query = json.dumps(block["input"])
        deltas = [
            delta({"type": "input_json_delta", "partial_json": part})
            for part in ("", query[:12], query[12:])
        ]
    else:
        start = block
    return [
        {"type": "content_block_start", "index": index, "content_block": start},
        *deltas,
        {"type": "content_block_stop", "index": index},
    ]


def web_search_stream(stop_reason: str) -> list[dict[str, Any]]:
    """The events the API streams for ``web_search_reply(stop_reason)``, written out.

    As recorded traffic shows: the ``server_tool_use`` block starts with ``input: {}`` and its
    input arrives as ``input_json_delta`` fragments; the search result arrives whole; cited
    text gets a ``citations_delta`` before its text.
    """
    body = web_search_reply(stop_reason)
    usage = body["usage"]
    start = {**body, "content": [], "stop_reason": None, "usage": {**usage, "output_tokens": 1}}
    events: list[dict[str, Any]] = [{"type": "message_start", "message": start}]
    for index, block in enumerate(body["content"]):
        events += _block_stream(index, block)
    stop = {"stop_reason": stop_reason, "stop_sequence": None}
    events.append({"type": "message_delta", "delta": stop, "usage": usage})
    events.append({"type": "message_stop"})
    return events
