"""Builders for OpenAI Responses API replies: ``Response`` JSON, its stream events, SSE frames.

One response description drives both paths, as for Anthropic: ``openai_response(...)`` is the
non-streaming body (``client.responses.create``), and ``openai_response_events(response)`` the
events a stream of the same reply sends, in the order the API sends them: ``response.created``,
``response.in_progress``, then per output item ``response.output_item.added``, its content or
summary parts (``*.added``, the deltas in about ``pieces`` fragments, ``*.done``),
``response.output_item.done``, and last the terminal event of the response's status. Every
event has its ``sequence_number``. Plain dicts and ``httpx`` responses only: no SDK import.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final, Literal

import httpx

from llmbridge.testing._sse import event_stream_response, named_event_frames

__all__ = [
    "openai_response",
    "openai_response_events",
    "openai_response_function_call",
    "openai_response_message",
    "openai_response_reasoning",
    "openai_responses_error_event",
    "openai_responses_sse",
    "openai_responses_sse_response",
]

JSON = dict[str, Any]
MODEL: Final = "gpt-5-mini"
RESPONSE_ID: Final = "resp_test"
CREATED: Final = 1_700_000_000

# The terminal event of each final status; a response in any other status has no stream end.
_TERMINAL_EVENTS: Final = {
    "completed": "response.completed",
    "incomplete": "response.incomplete",
    "failed": "response.failed",
}
# Content part type -> (the prefix of its delta/done events, the key holding its text).
_PART_STREAMS: Final = {
    "output_text": ("response.output_text", "text"),
    "refusal": ("response.refusal", "refusal"),
    "reasoning_text": ("response.reasoning_text", "text"),
}


def openai_response_message(
    text: str | Sequence[str] = (),
    *,
    refusal: str | None = None,
    item_id: str = "msg_test",
    phase: str | None = None,
    status: str = "completed",
) -> JSON:
    """A ``message`` output item: one ``output_text`` part per text, then a ``refusal`` part.

    ``phase`` (``"commentary"`` or ``"final_answer"``) is set only when given.
    """
    texts = [text] if isinstance(text, str) else list(text)
    content: list[JSON] = [
        {"type": "output_text", "text": part, "annotations": [], "logprobs": []} for part in texts
    ]
    if refusal is not None:
        content.append({"type": "refusal", "refusal": refusal})
    item: JSON = {
        "id": item_id,
        "type": "message",
        "role": "assistant",
        "status": status,
        "content": content,
    }
    if phase is not None:
        item["phase"] = phase
    return item


def openai_response_function_call(
    name: str,
    arguments: str = "{}",
    *,
    call_id: str = "call_test",
    item_id: str | None = None,
    status: str = "completed",
) -> JSON:
    """A ``function_call`` output item; its item id defaults to ``fc_<call_id>``."""
    return {
        "id": item_id if item_id is not None else f"fc_{call_id}",
        "type": "function_call",
        "status": status,
        "call_id": call_id,
        "name": name,
        "arguments": arguments,
    }


def openai_response_reasoning(
    summary: str | Sequence[str] = (),
    *,
    item_id: str = "rs_test",
    encrypted_content: str | None = "enc-test",
    content: Sequence[str] = (),
) -> JSON:
    """A ``reasoning`` output item: ``summary_text`` parts, optional ``reasoning_text`` parts.

    ``summary`` is always present (``[]`` when empty); ``content`` (raw reasoning text, as
    open-weight models behind Responses-compatible servers send) only when given;
    ``encrypted_content=None`` leaves the opaque payload out.
    """
    texts = [summary] if isinstance(summary, str) else list(summary)
    item: JSON = {
        "id": item_id,
        "type": "reasoning",
        "summary": [{"type": "summary_text", "text": part} for part in texts],
    }
    if content:
        item["content"] = [{"type": "reasoning_text", "text": part} for part in content]
    if encrypted_content is not None:
        item["encrypted_content"] = encrypted_content
    return item


def _usage(input_tokens: int, output_tokens: int, cached: int, reasoning: int) -> JSON:
    # input_tokens includes the cached ones and output_tokens the reasoning ones, as in the API.
    return {
        "input_tokens": input_tokens,
        "input_tokens_details": {"cached_tokens": cached, "cache_write_tokens": 0},
        "output_tokens": output_tokens,
        "output_tokens_details": {"reasoning_tokens": reasoning},
        "total_tokens": input_tokens + output_tokens,
    }


def _terminal_event(status: str) -> str:
    terminal = _TERMINAL_EVENTS.get(status)
    if terminal is None:
        raise ValueError(f"status must be one of {sorted(_TERMINAL_EVENTS)}, not {status!r}")
    return terminal


def openai_response(
    output: str | Sequence[Mapping[str, Any]],
    *,
    status: Literal["completed", "incomplete", "failed"] = "completed",
    incomplete_reason: str = "max_output_tokens",
    error_code: str = "server_error",
    error_message: str = "The server had an error while processing your request.",
    input_tokens: int = 12,
    output_tokens: int = 5,
    cached_tokens: int = 0,
    reasoning_tokens: int = 0,
    response_id: str = RESPONSE_ID,
    model: str = MODEL,
) -> JSON:
    """A ``response`` object; a ``str`` output is one ``message`` item with that text.

    ``incomplete_reason`` fills ``incomplete_details.reason`` when ``status="incomplete"``,
    ``error_code`` / ``error_message`` fill ``error`` when ``status="failed"``; otherwise both
    are ``null``. ``input_tokens`` includes ``cached_tokens``, ``output_tokens`` includes
    ``reasoning_tokens``. Raises ``ValueError`` for another status (a stream could not end).
    """
    _terminal_event(status)
    items = [openai_response_message(output)] if isinstance(output, str) else output
    failed = status == "failed"
    return {
        "id": response_id,
        "object": "response",
        "created_at": CREATED,
        "status": status,
        "error": {"code": error_code, "message": error_message} if failed else None,
        "incomplete_details": {"reason": incomplete_reason} if status == "incomplete" else None,
        "instructions": None,
        "model": model,
        "output": [dict(item) for item in items],
        "parallel_tool_calls": True,
        "previous_response_id": None,
        "temperature": 1.0,
        "tool_choice": "auto",
        "tools": [],
        "top_p": 1.0,
        "truncation": "disabled",
        "usage": _usage(input_tokens, output_tokens, cached_tokens, reasoning_tokens),
    }


def _split(text: str, pieces: int) -> list[str]:
    size = max(1, -(-len(text) // max(pieces, 1)))
    return [text[start : start + size] for start in range(0, len(text), size)]


def _part_events(frame: JSON, part: Mapping[str, Any], pieces: int) -> list[JSON]:
    # One content part of a message or reasoning item: added (empty), deltas, done, part done.
    prefix, key = _PART_STREAMS[part["type"]]
    extra: JSON = {"logprobs": []} if part["type"] == "output_text" else {}
    empty = {**part, key: ""}
    if "annotations" in part:
        empty["annotations"] = []
    events: list[JSON] = [{"type": "response.content_part.added", **frame, "part": empty}]
    events += [
        {
            "type": "response.output_text.annotation.added",
            **frame,
            "annotation_index": position,
            "annotation": annotation,
        }
        for position, annotation in enumerate(part.get("annotations", ()))
    ]
    events += [
        {"type": f"{prefix}.delta", **frame, "delta": piece, **extra}
        for piece in _split(part[key], pieces)
    ]
    events.append({"type": f"{prefix}.done", **frame, key: part[key], **extra})
    events.append({"type": "response.content_part.done", **frame, "part": dict(part)})
    return events


def _summary_events(frame: JSON, index: int, part: Mapping[str, Any], pieces: int) -> list[JSON]:
    where = {**frame, "summary_index": index}
    text = part["text"]
    events: list[JSON] = [
        {"type": "response.reasoning_summary_part.added", **where, "part": {**part, "text": ""}}
    ]
    events += [
        {"type": "response.reasoning_summary_text.delta", **where, "delta": piece}
        for piece in _split(text, pieces)
    ]
    events.append({"type": "response.reasoning_summary_text.done", **where, "text": text})
    events.append({"type": "response.reasoning_summary_part.done", **where, "part": dict(part)})
    return events


def _opening(item: Mapping[str, Any]) -> JSON:
    # The item as output_item.added shows it: nothing streamed yet, still in progress.
    match item["type"]:
        case "message":
            return {**item, "status": "in_progress", "content": []}
        case "function_call":
            return {**item, "status": "in_progress", "arguments": ""}
        case "reasoning":
            # The opaque payload is complete only in output_item.done.
            opening = {key: value for key, value in item.items() if key != "encrypted_content"}
            opening["summary"] = []
            if "content" in item:
                opening["content"] = []
            return opening
        case _:
            return dict(item)


def _inner_events(item: Mapping[str, Any], output_index: int, pieces: int) -> list[JSON]:
    frame: JSON = {"item_id": item.get("id", ""), "output_index": output_index}
    match item["type"]:
        case "message":
            parts = enumerate(item["content"])
            return [
                e for i, p in parts for e in _part_events({**frame, "content_index": i}, p, pieces)
            ]
        case "reasoning":
            summary = enumerate(item["summary"])
            events = [e for i, p in summary for e in _summary_events(frame, i, p, pieces)]
            content = enumerate(item.get("content") or ())
            return events + [
                e
                for i, p in content
                for e in _part_events({**frame, "content_index": i}, p, pieces)
            ]
        case "function_call":
            arguments = item["arguments"]
            deltas: list[JSON] = [
                {"type": "response.function_call_arguments.delta", **frame, "delta": piece}
                for piece in _split(arguments, pieces)
            ]
            done = {"type": "response.function_call_arguments.done", **frame}
            return [*deltas, {**done, "arguments": arguments}]
        case _:
            return []


def openai_response_events(
    response: Mapping[str, Any],
    *,
    pieces: int = 3,
    terminal_output: Literal["full", "empty", "null"] = "full",
) -> list[JSON]:
    """The SSE event payloads a stream of ``response`` (an ``openai_response``) sends, numbered.

    Texts, refusals, summaries and arguments arrive in about ``pieces`` deltas each; the
    ``response.created`` / ``response.in_progress`` events carry the response in progress (no
    output, no usage); the terminal event (``response.completed``, ``.incomplete`` or
    ``.failed``, by status) carries it whole, or with ``output: []`` (``terminal_output="empty"``,
    the usage-only ending) or ``output: null`` (``"null"``), as servers send. Slice the list and
    append ``openai_responses_error_event(sequence_number=...)`` to build broken streams.
    The events share no object with ``response``. Raises ``ValueError`` for a status that has
    no terminal event.
    """
    terminal = _terminal_event(response["status"])
    pending = {
        **response,
        "status": "in_progress",
        "error": None,
        "incomplete_details": None,
        "output": [],
        "usage": None,
    }
    events: list[JSON] = [
        {"type": "response.created", "response": pending},
        {"type": "response.in_progress", "response": pending},
    ]
    for index, item in enumerate(response["output"]):
        events.append(
            {"type": "response.output_item.added", "output_index": index, "item": _opening(item)}
        )
        events += _inner_events(item, index, pieces)
        events.append(
            {"type": "response.output_item.done", "output_index": index, "item": dict(item)}
        )
    final_output = {"full": response["output"], "empty": [], "null": None}[terminal_output]
    events.append({"type": terminal, "response": {**response, "output": final_output}})
    # Tests edit events to break streams, so each event is copied on its own (one deepcopy of
    # the list would keep created and in_progress sharing their response).
    return [
        copy.deepcopy({**event, "sequence_number": number}) for number, event in enumerate(events)
    ]


def openai_responses_error_event(
    message: str = "The server had an error while processing your request.",
    *,
    sequence_number: int,
    code: str | None = "server_error",
    param: str | None = None,
) -> JSON:
    """The top-level ``error`` event a Responses stream sends mid-stream (after the HTTP 200)."""
    return {
        "type": "error",
        "code": code,
        "message": message,
        "param": param,
        "sequence_number": sequence_number,
    }


def openai_responses_sse(events: Iterable[Mapping[str, Any]]) -> list[bytes]:
    """Encode each event payload as one SSE frame ``event: <type>`` / ``data: <json>``.

    Responses streams end with their terminal event: there is no ``data: [DONE]``.
    """
    return named_event_frames(events)


def openai_responses_sse_response(
    events: Iterable[Mapping[str, Any]],
    *,
    error: httpx.TransportError | None = None,
    headers: Mapping[str, str] | None = None,
) -> httpx.Response:
    """A 200 ``text/event-stream`` response for a respx route, sent frame by frame.

    ``error`` is raised after the last frame (a dropped connection). The body can be read once:
    use a route ``side_effect`` for repeats.
    """
    return event_stream_response(openai_responses_sse(events), error=error, headers=headers)
