"""Builders of OpenAI Chat Completions responses for respx mocks: completion JSON and SSE streams.

Every builder returns plain JSON data (dicts) shaped as the API sends it, so tests can also
feed them to ``ChatCompletion.model_validate`` / ``ChatCompletionChunk.model_validate``.
Streams can be made as awkward as real servers make them: tool-call arguments split into
fragments, parallel calls interleaved, ids and names repeated in every delta, a usage chunk with
no choices, an error event, no ``[DONE]``, a connection dropped mid-body.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from itertools import zip_longest
from typing import Any, Final

import httpx

from llmbridge._messages import ToolCall
from llmbridge.testing._sse import sse_stream_response

__all__ = [
    "openai_chunk",
    "openai_completion",
    "openai_error_event",
    "openai_sse",
    "openai_sse_response",
    "openai_text_chunks",
    "openai_tool_call_chunks",
    "openai_usage",
    "openai_usage_chunk",
]

JSON = dict[str, Any]
MODEL: Final = "gpt-4o-mini"
COMPLETION_ID: Final = "chatcmpl-test"
CREATED: Final = 1_700_000_000


def openai_usage(
    prompt_tokens: int = 12,
    completion_tokens: int = 5,
    *,
    cached_tokens: int | None = None,
    reasoning_tokens: int | None = None,
) -> JSON:
    """Return a ``usage`` object; ``prompt_tokens`` includes ``cached_tokens`` as in the API."""
    usage: JSON = {
        "prompt_tokens": prompt_tokens,
        "completion_tokens": completion_tokens,
        "total_tokens": prompt_tokens + completion_tokens,
    }
    if cached_tokens is not None:
        usage["prompt_tokens_details"] = {"cached_tokens": cached_tokens}
    if reasoning_tokens is not None:
        usage["completion_tokens_details"] = {"reasoning_tokens": reasoning_tokens}
    return usage


def _tool_call_json(call: ToolCall, position: int) -> JSON:
    return {
        "id": call.tool_call_id or f"call_{position}",
        "type": "function",
        "function": {"name": call.function_name, "arguments": call.function_arguments},
    }


def openai_completion(
    content: str | None = None,
    *,
    tool_calls: Sequence[ToolCall] = (),
    refusal: str | None = None,
    finish_reason: str | None = None,
    usage: JSON | None = None,
    reasoning_content: str | None = None,
    choices: int = 1,
    model: str = MODEL,
) -> JSON:
    """Return a ``chat.completion`` object with ``choices`` identical choices.

    ``finish_reason`` defaults to ``"tool_calls"`` when there are tool calls, else ``"stop"``;
    a call without an id gets ``call_{position}``; ``reasoning_content`` is the field
    OpenAI-compatible servers use for reasoning text.
    """
    message: JSON = {"role": "assistant", "content": content, "refusal": refusal}
    if tool_calls:
        message["tool_calls"] = [_tool_call_json(call, i) for i, call in enumerate(tool_calls)]
    if reasoning_content is not None:
        message["reasoning_content"] = reasoning_content
    reason = finish_reason or ("tool_calls" if tool_calls else "stop")
    return {
        "id": COMPLETION_ID,
        "object": "chat.completion",
        "created": CREATED,
        "model": model,
        "choices": [
            {"index": index, "message": message, "finish_reason": reason, "logprobs": None}
            for index in range(choices)
        ],
        "usage": usage,
    }


def openai_chunk(
    delta: JSON | None = None,
    *,
    finish_reason: str | None = None,
    index: int = 0,
    model: str = MODEL,
) -> JSON:
    """Return one ``chat.completion.chunk`` with a single choice carrying ``delta``."""
    return {
        "id": COMPLETION_ID,
        "object": "chat.completion.chunk",
        "created": CREATED,
        "model": model,
        "choices": [{"index": index, "delta": delta or {}, "finish_reason": finish_reason}],
    }


def openai_usage_chunk(usage: JSON, *, model: str = MODEL) -> JSON:
    """Return the last chunk of a stream with ``include_usage``: no choices, only usage."""
    return {
        "id": COMPLETION_ID,
        "object": "chat.completion.chunk",
        "created": CREATED,
        "model": model,
        "choices": [],
        "usage": usage,
    }


def _ending(finish_reason: str | None, usage: JSON | None) -> list[JSON]:
    chunks = [] if finish_reason is None else [openai_chunk({}, finish_reason=finish_reason)]
    if usage is not None:
        chunks.append(openai_usage_chunk(usage))
    return chunks


def openai_text_chunks(
    parts: Iterable[str],
    *,
    reasoning: Iterable[str] = (),
    refusal: Iterable[str] = (),
    finish_reason: str | None = "stop",
    usage: JSON | None = None,
) -> list[JSON]:
    """Return the chunks of a text reply: a role chunk, the deltas, the finish, the usage.

    ``reasoning`` parts come first as ``reasoning_content`` deltas; ``refusal`` parts as
    ``refusal`` deltas. ``finish_reason=None`` leaves the finishing chunk out.
    """
    chunks = [openai_chunk({"role": "assistant", "content": ""})]
    chunks += [openai_chunk({"reasoning_content": part}) for part in reasoning]
    chunks += [openai_chunk({"content": part}) for part in parts]
    chunks += [openai_chunk({"refusal": part}) for part in refusal]
    return chunks + _ending(finish_reason, usage)


def _fragments(text: str, size: int) -> list[str]:
    return [text[start : start + size] for start in range(0, len(text), size)]


def _call_deltas(
    call: ToolCall, index: int, fragment_size: int, repeat_id_and_name: bool
) -> list[JSON]:
    call_id = call.tool_call_id or f"call_{index}"

    def delta(arguments: str, *, head: bool) -> JSON:
        if not head:
            return {"index": index, "function": {"arguments": arguments}}
        function = {"name": call.function_name, "arguments": arguments}
        return {"index": index, "id": call_id, "type": "function", "function": function}

    fragments = _fragments(call.function_arguments, fragment_size)
    return [delta("", head=True)] + [
        delta(fragment, head=repeat_id_and_name) for fragment in fragments
    ]


def openai_tool_call_chunks(
    calls: Sequence[ToolCall],
    *,
    content: str | None = None,
    fragment_size: int = 4,
    interleave: bool = False,
    repeat_id_and_name: bool = False,
    reverse_indices: bool = False,
    finish_reason: str | None = "tool_calls",
    usage: JSON | None = None,
) -> list[JSON]:
    """Return the chunks of a tool-call reply, arguments split into ``fragment_size`` pieces.

    ``interleave`` alternates the deltas of parallel calls; ``repeat_id_and_name`` repeats
    ``id``, ``type`` and ``name`` in every delta (as some compatible servers do);
    ``reverse_indices`` sends the calls from the highest index down. ``content`` is text sent
    before the calls; a call without an id gets ``call_{index}``.
    """
    chunks = [openai_chunk({"role": "assistant", "content": ""})]
    if content:
        chunks.append(openai_chunk({"content": content}))
    per_call = [
        _call_deltas(call, index, fragment_size, repeat_id_and_name)
        for index, call in enumerate(calls)
    ]
    if reverse_indices:
        per_call.reverse()
    if interleave:
        ordered = [d for group in zip_longest(*per_call) for d in group if d is not None]
    else:
        ordered = [delta for deltas in per_call for delta in deltas]
    chunks += [openai_chunk({"tool_calls": [delta]}) for delta in ordered]
    return chunks + _ending(finish_reason, usage)


def openai_error_event(
    message: str = "The server had an error while processing your request.",
    *,
    error_type: str = "server_error",
    code: str | None = None,
) -> JSON:
    """Return the ``data:`` payload of an error sent inside a stream (after the HTTP 200)."""
    return {"error": {"message": message, "type": error_type, "param": None, "code": code}}


def openai_sse(events: Iterable[JSON], *, done: bool = True) -> list[bytes]:
    """Return each event as one SSE ``data:`` frame, then ``data: [DONE]`` if ``done``."""
    frames = [f"data: {json.dumps(event)}\n\n".encode() for event in events]
    if done:
        frames.append(b"data: [DONE]\n\n")
    return frames


def openai_sse_response(
    events: Iterable[JSON],
    *,
    done: bool = True,
    error: httpx.TransportError | None = None,
    headers: dict[str, str] | None = None,
) -> httpx.Response:
    """Return a streaming ``text/event-stream`` response for a respx route.

    Frames are produced one at a time; ``error`` is raised after the last one (a dropped
    connection), in which case no ``[DONE]`` is sent.
    """
    frames = openai_sse(events, done=done and error is None)
    return sse_stream_response(frames, error=error, headers=headers)
