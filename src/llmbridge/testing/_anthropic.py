"""Builders for Anthropic Messages responses: ``Message`` JSON, SSE event streams, errors.

One message description drives both paths: ``anthropic_message(...)`` is the non-streaming
body, and ``anthropic_stream_events(message)`` the events a stream of the same reply sends
(text and thinking in pieces, a signature delta, ``input_json_delta`` fragments, cumulative
usage in ``message_delta``). Plain dicts and ``httpx`` responses only: no SDK import.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import httpx

from llmbridge.testing._sse import event_stream_response, named_event_frames

__all__ = [
    "anthropic_error_event",
    "anthropic_error_response",
    "anthropic_message",
    "anthropic_redacted_thinking_block",
    "anthropic_sse",
    "anthropic_sse_response",
    "anthropic_stream_events",
    "anthropic_text_block",
    "anthropic_thinking_block",
    "anthropic_tool_use_block",
]

_USAGE_KEYS = ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")
# Blocks whose input the API streams as input_json_delta fragments: client tools, and the
# server tools (web search, code execution, ...) and MCP tools the API runs itself.
_STREAMED_INPUT = frozenset({"tool_use", "server_tool_use", "mcp_tool_use"})


def anthropic_text_block(text: str) -> dict[str, Any]:
    """A ``text`` content block."""
    return {"type": "text", "text": text}


def anthropic_thinking_block(thinking: str, signature: str = "sig-test") -> dict[str, Any]:
    """A ``thinking`` content block with its signature."""
    return {"type": "thinking", "thinking": thinking, "signature": signature}


def anthropic_redacted_thinking_block(data: str) -> dict[str, Any]:
    """A ``redacted_thinking`` content block."""
    return {"type": "redacted_thinking", "data": data}


def anthropic_tool_use_block(
    tool_use_id: str, name: str, tool_input: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """A ``tool_use`` content block (``input`` defaults to ``{}``)."""
    return {"type": "tool_use", "id": tool_use_id, "name": name, "input": dict(tool_input or {})}


def anthropic_message(
    content: str | Sequence[Mapping[str, Any]],
    *,
    stop_reason: str | None = "end_turn",
    stop_sequence: str | None = None,
    input_tokens: int = 10,
    output_tokens: int = 5,
    cache_read_input_tokens: int | None = None,
    cache_creation_input_tokens: int | None = None,
    message_id: str = "msg_test",
    model: str = "claude-test",
) -> dict[str, Any]:
    """A ``Message`` body; a ``str`` content is one text block."""
    blocks = [anthropic_text_block(content)] if isinstance(content, str) else list(content)
    usage: dict[str, Any] = {"input_tokens": input_tokens, "output_tokens": output_tokens}
    if cache_read_input_tokens is not None:
        usage["cache_read_input_tokens"] = cache_read_input_tokens
    if cache_creation_input_tokens is not None:
        usage["cache_creation_input_tokens"] = cache_creation_input_tokens
    return {
        "id": message_id,
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [dict(block) for block in blocks],
        "stop_reason": stop_reason,
        "stop_sequence": stop_sequence,
        "usage": usage,
    }


def _split(text: str, pieces: int) -> list[str]:
    size = max(1, -(-len(text) // max(pieces, 1)))
    return [text[start : start + size] for start in range(0, len(text), size)]


def _block_events(index: int, block: Mapping[str, Any], pieces: int) -> list[dict[str, Any]]:
    kind = block["type"]
    deltas: list[dict[str, Any]] = []
    start: dict[str, Any]
    if kind == "text":
        start = {"type": "text", "text": ""}
        if block.get("citations"):
            # As the API streams a cited block: "citations": [] at its start, then one
            # citations_delta per citation, before the first text_delta.
            start["citations"] = []
            deltas = [{"type": "citations_delta", "citation": c} for c in block["citations"]]
        deltas += [{"type": "text_delta", "text": part} for part in _split(block["text"], pieces)]
    elif kind == "thinking":
        start = {"type": "thinking", "thinking": "", "signature": ""}
        deltas = [
            {"type": "thinking_delta", "thinking": part}
            for part in _split(block["thinking"], pieces)
        ]
        deltas.append({"type": "signature_delta", "signature": block["signature"]})
    elif kind in _STREAMED_INPUT:
        start = {**block, "input": {}}
        if block["input"]:
            # The API's first fragment is often empty; a tool without arguments sends none.
            fragments = ["", *_split(json.dumps(block["input"]), pieces)]
            deltas = [{"type": "input_json_delta", "partial_json": part} for part in fragments]
    else:
        start = dict(block)
    events: list[dict[str, Any]] = [
        {"type": "content_block_start", "index": index, "content_block": start}
    ]
    events += [{"type": "content_block_delta", "index": index, "delta": d} for d in deltas]
    events.append({"type": "content_block_stop", "index": index})
    return events


def anthropic_stream_events(
    message: Mapping[str, Any], *, pieces: int = 3, ping: bool = True, message_stop: bool = True
) -> list[dict[str, Any]]:
    """The SSE event payloads a stream of ``message`` (an ``anthropic_message``) sends.

    Text, thinking and tool arguments (of ``tool_use``, ``server_tool_use`` and ``mcp_tool_use``
    blocks, whose start carries ``input: {}``) arrive in about ``pieces`` fragments each; a text
    block's ``citations`` arrive as ``citations_delta`` events before its text (its start
    carries ``citations: []``); other blocks (server tool results) arrive whole in their
    ``content_block_start``. ``message_delta`` carries the stop
    reason and the final (cumulative) usage. Slice the list or append
    ``anthropic_error_event()`` to build broken streams; ``message_stop=False`` leaves out the
    last event.
    """
    usage = message["usage"]
    start_usage = {key: usage[key] for key in _USAGE_KEYS if key in usage}
    start_usage["output_tokens"] = 1
    start = {
        **message,
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": start_usage,
    }
    events: list[dict[str, Any]] = [{"type": "message_start", "message": start}]
    if ping:
        events.append({"type": "ping"})
    for index, block in enumerate(message["content"]):
        events += _block_events(index, block, pieces)
    delta = {"stop_reason": message["stop_reason"], "stop_sequence": message["stop_sequence"]}
    events.append({"type": "message_delta", "delta": delta, "usage": dict(usage)})
    if message_stop:
        events.append({"type": "message_stop"})
    return events


def anthropic_error_event(
    error_type: str = "overloaded_error", message: str = "Overloaded"
) -> dict[str, Any]:
    """An SSE ``error`` event, as the API sends mid-stream (e.g. when overloaded)."""
    return {"type": "error", "error": {"type": error_type, "message": message}}


def anthropic_sse(events: Sequence[Mapping[str, Any]]) -> list[bytes]:
    """Encode each event payload as one SSE frame (``event:`` name = the payload's type)."""
    return named_event_frames(events)


def anthropic_sse_response(
    events: Sequence[Mapping[str, Any]], *, drop_connection: bool = False
) -> httpx.Response:
    """A 200 ``text/event-stream`` response sending ``events`` frame by frame.

    ``drop_connection=True`` raises ``httpx.ReadError`` after the last frame, as a dropped
    connection does. The body can be read once: use a route ``side_effect`` for repeats.
    """
    error = httpx.ReadError("connection dropped by the test") if drop_connection else None
    return event_stream_response(anthropic_sse(events), error=error)


def anthropic_error_response(
    status_code: int,
    error_type: str,
    message: str = "error",
    *,
    headers: Mapping[str, str] | None = None,
) -> httpx.Response:
    """An API error response with Anthropic's error body."""
    body = {
        "type": "error",
        "error": {"type": error_type, "message": message},
        "request_id": "req_test",
    }
    return httpx.Response(status_code, json=body, headers=dict(headers or {}))
