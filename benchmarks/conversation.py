"""Deterministic inputs for the benchmarks: a mixed neutral conversation, provider streams.

Everything here is built from a seeded ``random.Random``, so two runs (and two machines) time
the same work. Stream chunks and events are parsed with the SDKs' own model classes once, up
front, so parsing is never part of a measurement.
"""

from __future__ import annotations

import json
import random
import struct
from collections.abc import Callable
from typing import Any, Final

import pydantic
from anthropic.types import RawMessageStreamEvent
from openai.types.chat import ChatCompletionChunk
from openai.types.responses import ResponseStreamEvent

from llmbridge import (
    ImageMessage,
    Message,
    Role,
    TextMessage,
    ToolCall,
    ToolCallMessage,
    ToolCallResultMessage,
)
from llmbridge.testing import (
    openai_response,
    openai_response_events,
    openai_response_function_call,
    openai_response_message,
)

__all__ = [
    "AGENT",
    "STREAM_ARGUMENT_KEY",
    "anthropic_stream",
    "big_image_conversation",
    "make_conversation",
    "openai_stream",
    "png_bytes",
    "responses_stream",
    "tool_plan",
    "word_deltas",
]

AGENT: Final = "assistant"
STREAM_ARGUMENT_KEY: Final = "query"

_VOCABULARY: Final = (
    "the weather in paris is sunny and warm today with a light breeze from the west "
    "please check the forecast for tomorrow and tell me whether i need an umbrella or "
    "a coat the meeting moved to three o clock in the large room on the second floor"
)
_WORDS: Final = tuple(_VOCABULARY.split())
_CITIES: Final = ("Paris", "Lyon", "Berlin", "Madrid", "Rome", "Oslo", "Lisbon", "Vienna")
_TOOLS: Final = ("get_weather", "get_time", "search_flights")
_ID_ALPHABET: Final = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
_PNG_MAGIC: Final = b"\x89PNG\r\n\x1a\n"
# ~2 KB of base64 text per inline image: 1,536 bytes encode to 2,048 characters.
_SMALL_IMAGE_BYTES: Final = 1536

# Segment kinds and their weights; a segment is one message, except "tools" (a tool-call
# message and its results) and "users" (two consecutive user turns).
_SEGMENTS: Final = ("user", "assistant", "image_url", "image_data", "tools", "users")
_WEIGHTS: Final = (30, 18, 5, 5, 30, 12)


def png_bytes(rng: random.Random, size: int) -> bytes:
    """Return ``size`` bytes that start with the PNG signature (so they sniff as image/png)."""
    header = _PNG_MAGIC + struct.pack(">I", 13) + b"IHDR"
    return header + rng.randbytes(max(size - len(header), 0))


def _sentence(rng: random.Random, low: int = 5, high: int = 60) -> str:
    words = rng.choices(_WORDS, k=rng.randint(low, high))
    return " ".join(words).capitalize() + "."


def _call_id(rng: random.Random) -> str:
    return "call_" + "".join(rng.choices(_ID_ALPHABET, k=24))


def _tool_round(rng: random.Random, agent_name: str) -> list[Message]:
    calls = []
    for _ in range(rng.randint(1, 3)):
        name = rng.choice(_TOOLS)
        arguments = json.dumps({"city": rng.choice(_CITIES), "days": rng.randint(1, 7)})
        calls.append(ToolCall(name, arguments, tool_call_id=_call_id(rng)))
    content = _sentence(rng, 3, 12) if rng.random() < 0.3 else None
    results = [
        ToolCall(
            call.function_name,
            call.function_arguments,
            tool_call_id=call.tool_call_id,
            result=_sentence(rng, 3, 30),
        )
        for call in calls
    ]
    return [ToolCallMessage(calls, agent_name, content=content), ToolCallResultMessage(results)]


def _segment(kind: str, rng: random.Random, agent_name: str) -> list[Message]:
    match kind:
        case "user":
            return [TextMessage(Role.USER, _sentence(rng))]
        case "assistant":
            return [TextMessage(Role.ASSISTANT, _sentence(rng), agent_name)]
        case "image_url":
            return [ImageMessage(Role.USER, f"https://example.com/img/{rng.randrange(10**6)}.png")]
        case "image_data":
            return [ImageMessage(Role.USER, data=png_bytes(rng, _SMALL_IMAGE_BYTES))]
        case "tools":
            return _tool_round(rng, agent_name)
        case "users":
            return [TextMessage(Role.USER, _sentence(rng)), TextMessage(Role.USER, _sentence(rng))]
    raise ValueError(f"unknown segment kind {kind!r}")


def make_conversation(size: int = 1000, *, seed: int = 0, agent_name: str = AGENT) -> list[Message]:
    """Return a deterministic mixed conversation of exactly ``size`` messages (``size >= 2``).

    It opens with a system message and closes with a user message; in between: user text,
    the agent's own text, images by URL and as ~2 KB inline PNG bytes, tool-call messages with
    1-3 parallel calls (unique ids) each followed by their results, and consecutive user turns.
    Every tool call is answered, so the conversation passes the pairing step unchanged.
    """
    if size < 2:
        raise ValueError("a conversation needs at least 2 messages")
    rng = random.Random(seed)
    messages: list[Message] = [TextMessage(Role.SYSTEM, _sentence(rng, 10, 40))]
    while len(messages) < size - 1:
        kind = rng.choices(_SEGMENTS, _WEIGHTS)[0]
        segment = _segment(kind, rng, agent_name)
        if len(messages) + len(segment) > size - 1:
            segment = segment[:1] if kind == "users" else []
            if not segment:
                continue
        messages.extend(segment)
    messages.append(TextMessage(Role.USER, _sentence(rng)))
    return messages


def big_image_conversation(
    count: int = 20, image_size: int = 4 * 1024 * 1024, *, seed: int = 0
) -> list[Message]:
    """Return a system message, then ``count`` user images of ``image_size`` PNG bytes each,
    each followed by a short user question (the memory benchmark's input)."""
    rng = random.Random(seed)
    messages: list[Message] = [TextMessage(Role.SYSTEM, "Describe the images.")]
    for position in range(count):
        messages.append(ImageMessage(Role.USER, data=png_bytes(rng, image_size)))
        messages.append(TextMessage(Role.USER, f"What is in image {position}?"))
    return messages


def _fragments(rng: random.Random, count: int) -> list[str]:
    """``count`` argument fragments whose concatenation is canonical ``json.dumps`` output."""
    body = [" ".join(rng.choices(_WORDS, k=rng.randint(1, 3))) + " " for _ in range(count - 2)]
    return [f'{{"{STREAM_ARGUMENT_KEY}": "', *body, '"}']


def tool_plan(rng: random.Random, calls: int, fragments: int) -> list[tuple[str, str, list[str]]]:
    """``calls`` tool calls as ``(call id, name, argument fragments)``, fragments per call."""
    return [
        (_call_id(rng), _TOOLS[position % len(_TOOLS)], _fragments(rng, fragments))
        for position in range(calls)
    ]


def word_deltas(rng: random.Random, count: int) -> list[str]:
    """``count`` text deltas of one word and a space each."""
    return [rng.choice(_WORDS) + " " for _ in range(count)]


_OPENAI_CHUNK: Final = {
    "id": "chatcmpl-bench",
    "object": "chat.completion.chunk",
    "created": 0,
    "model": "gpt-bench",
}


def _openai_chunk(body: dict[str, Any]) -> dict[str, Any]:
    return {**_OPENAI_CHUNK, **body}


def _openai_delta(delta: dict[str, Any], finish_reason: str | None = None) -> dict[str, Any]:
    return _openai_chunk(
        {"choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}]}
    )


def openai_stream(
    text_deltas: int = 2000, calls: int = 3, fragments: int = 500, *, seed: int = 0
) -> list[ChatCompletionChunk]:
    """Return a Chat Completions stream as SDK ``ChatCompletionChunk`` objects.

    A role chunk, ``text_deltas`` text chunks, then ``calls`` parallel tool calls whose first
    deltas carry id and name and whose ``fragments`` argument fragments arrive interleaved
    (round robin, joined by ``index``), a ``tool_calls`` finish chunk and a usage-only chunk
    with no choices, as the API sends with ``include_usage``.
    """
    rng = random.Random(seed)
    raw = [_openai_delta({"role": "assistant", "content": ""})]
    raw += [_openai_delta({"content": text}) for text in word_deltas(rng, text_deltas)]
    plan = tool_plan(rng, calls, fragments)
    for index, (call_id, name, _) in enumerate(plan):
        function = {"name": name, "arguments": ""}
        call = {"index": index, "id": call_id, "type": "function", "function": function}
        raw.append(_openai_delta({"tool_calls": [call]}))
    for position in range(fragments):
        for index, (_, _, parts) in enumerate(plan):
            call = {"index": index, "function": {"arguments": parts[position]}}
            raw.append(_openai_delta({"tool_calls": [call]}))
    raw.append(_openai_delta({}, "tool_calls" if calls else "stop"))
    usage = {"prompt_tokens": 1200, "completion_tokens": 900, "total_tokens": 2100}
    raw.append(_openai_chunk({"choices": [], "usage": usage}))
    return [ChatCompletionChunk.model_validate(chunk) for chunk in raw]


def _anthropic_block(
    index: int, block: dict[str, Any], deltas: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    start = {"type": "content_block_start", "index": index, "content_block": block}
    body = [{"type": "content_block_delta", "index": index, "delta": delta} for delta in deltas]
    return [start, *body, {"type": "content_block_stop", "index": index}]


def anthropic_stream(
    text_deltas: int = 2000, calls: int = 3, fragments: int = 500, *, seed: int = 0
) -> list[RawMessageStreamEvent]:
    """Return a Messages stream as SDK ``RawMessageStreamEvent`` objects.

    ``message_start``, one text block of ``text_deltas`` deltas, then ``calls`` tool_use blocks
    of ``fragments`` ``input_json_delta`` fragments each (Anthropic streams blocks one after
    another), ``message_delta`` with ``stop_reason: tool_use`` and usage, ``message_stop``.
    """
    rng = random.Random(seed)
    usage = {"input_tokens": 1200, "output_tokens": 1}
    message: dict[str, Any] = {
        "id": "msg_bench",
        "type": "message",
        "role": "assistant",
        "model": "claude-bench",
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": usage,
    }
    raw: list[dict[str, Any]] = [{"type": "message_start", "message": message}]
    texts = [{"type": "text_delta", "text": text} for text in word_deltas(rng, text_deltas)]
    raw += _anthropic_block(0, {"type": "text", "text": ""}, texts)
    for offset, (call_id, name, parts) in enumerate(tool_plan(rng, calls, fragments)):
        block = {"type": "tool_use", "id": call_id, "name": name, "input": {}}
        deltas = [{"type": "input_json_delta", "partial_json": part} for part in parts]
        raw += _anthropic_block(offset + 1, block, deltas)
    stop = {"stop_reason": "tool_use" if calls else "end_turn", "stop_sequence": None}
    raw.append({"type": "message_delta", "delta": stop, "usage": {"output_tokens": 900}})
    raw.append({"type": "message_stop"})
    parse: Callable[[object], RawMessageStreamEvent] = pydantic.TypeAdapter(
        RawMessageStreamEvent
    ).validate_python
    return [parse(event) for event in raw]


def responses_stream(
    text_count: int = 2000, calls: int = 3, fragments: int = 500, *, seed: int = 0
) -> list[ResponseStreamEvent]:
    """Return a Responses stream as SDK event objects: one message item of ``text_count`` text
    deltas, then ``calls`` function-call items of ``fragments`` argument deltas each (items
    stream one after another), then ``response.completed`` with the whole output and usage."""
    rng = random.Random(seed)
    texts = word_deltas(rng, text_count)
    plan = tool_plan(rng, calls, fragments)
    items = [openai_response_message("".join(texts), item_id="msg_bench")]
    items += [
        openai_response_function_call(name, "".join(parts), call_id=call_id)
        for call_id, name, parts in plan
    ]
    response = openai_response(items, input_tokens=1200, output_tokens=900)
    pieces: dict[int, list[str]] = {0: texts}
    pieces.update({index + 1: parts for index, (_, _, parts) in enumerate(plan)})
    raw: list[dict[str, Any]] = []
    for event in openai_response_events(response, pieces=1):
        if event["type"].endswith(".delta"):
            raw += [{**event, "delta": piece} for piece in pieces[event["output_index"]]]
        else:
            raw.append(event)
    parse: Callable[[object], ResponseStreamEvent] = pydantic.TypeAdapter(
        ResponseStreamEvent
    ).validate_python
    return [parse({**event, "sequence_number": n}) for n, event in enumerate(raw)]
