"""Builders for Gemini ``generateContent`` responses: response JSON, SSE chunks, errors.

One reply description drives both paths: ``gemini_response(...)`` is the non-streaming body, and
``gemini_stream_chunks(response)`` the chunks a ``streamGenerateContent?alt=sse`` stream of the
same reply sends (text and thought text in pieces, each function call whole, cumulative usage,
the finish reason in the last chunk). The JSON is the REST wire form (camelCase keys; a thought
signature is base64 text), which the SDK parses into ``GenerateContentResponse``. Plain dicts
and ``httpx`` responses only: no SDK import.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import httpx

from llmbridge.testing._sse import event_stream_response

__all__ = [
    "gemini_error",
    "gemini_error_response",
    "gemini_function_call_part",
    "gemini_response",
    "gemini_sse",
    "gemini_sse_response",
    "gemini_stream_chunks",
    "gemini_text_part",
]

JSON = dict[str, Any]

# Usage fields that describe the prompt: a stream repeats them whole in every chunk.
_PROMPT_USAGE = ("promptTokenCount", "cachedContentTokenCount", "toolUsePromptTokenCount")
# Usage fields that grow as the reply streams.
_REPLY_USAGE = ("candidatesTokenCount", "thoughtsTokenCount")
# totalTokenCount is the sum of these (cached tokens are part of promptTokenCount).
_TOTAL_PARTS = ("promptTokenCount", "candidatesTokenCount", "toolUsePromptTokenCount")


def gemini_text_part(
    text: str, *, thought: bool = False, thought_signature: str | None = None
) -> JSON:
    """A text part; ``thought=True`` makes it a thought summary part.

    ``thought_signature`` is the signature's base64 text, as on the wire.
    """
    part: JSON = {"text": text}
    if thought:
        part["thought"] = True
    if thought_signature is not None:
        part["thoughtSignature"] = thought_signature
    return part


def gemini_function_call_part(
    name: str,
    args: Mapping[str, Any] | None = None,
    *,
    call_id: str | None = None,
    thought_signature: str | None = None,
) -> JSON:
    """A ``functionCall`` part (``args`` defaults to ``{}``; the Gemini API often sends no id).

    ``thought_signature`` is the signature's base64 text, as on the wire.
    """
    call: JSON = {"name": name, "args": dict(args or {})}
    if call_id is not None:
        call["id"] = call_id
    part: JSON = {"functionCall": call}
    if thought_signature is not None:
        part["thoughtSignature"] = thought_signature
    return part


def _usage(
    prompt: int,
    candidates: int | None,
    thoughts: int | None,
    cached: int | None,
    tool_use: int | None,
) -> JSON:
    usage: JSON = {"promptTokenCount": prompt}
    optional = {
        "candidatesTokenCount": candidates,
        "thoughtsTokenCount": thoughts,
        "cachedContentTokenCount": cached,
        "toolUsePromptTokenCount": tool_use,
    }
    usage.update({key: value for key, value in optional.items() if value is not None})
    return _with_total(usage)


def _with_total(usage: Mapping[str, Any]) -> JSON:
    total = sum(usage.get(key, 0) for key in (*_TOTAL_PARTS, "thoughtsTokenCount"))
    return {**usage, "totalTokenCount": total}


def gemini_response(
    parts: str | Sequence[Mapping[str, Any]] = (),
    *,
    finish_reason: str | None = "STOP",
    prompt_token_count: int = 10,
    candidates_token_count: int = 5,
    thoughts_token_count: int | None = None,
    cached_content_token_count: int | None = None,
    tool_use_prompt_token_count: int | None = None,
    block_reason: str | None = None,
    response_id: str = "resp_test",
    model_version: str = "gemini-test",
) -> JSON:
    """A ``GenerateContentResponse`` body with one candidate; a ``str`` is one text part.

    Build parts with ``gemini_text_part`` and ``gemini_function_call_part`` (or any part dict).
    ``block_reason`` (e.g. ``"SAFETY"``) builds a blocked prompt instead: no candidates and
    ``promptFeedback.blockReason``, usage without candidate tokens. ``totalTokenCount`` is the sum
    of prompt, candidates, tool-use prompt and thoughts tokens, as the API reports it.
    """
    body: JSON = {}
    if block_reason is not None:
        body["promptFeedback"] = {"blockReason": block_reason}
        body["usageMetadata"] = _usage(
            prompt_token_count, None, None, cached_content_token_count, tool_use_prompt_token_count
        )
    else:
        items = [gemini_text_part(parts)] if isinstance(parts, str) else list(parts)
        candidate: JSON = {
            "content": {"role": "model", "parts": [dict(part) for part in items]},
            "index": 0,
        }
        if finish_reason is not None:
            candidate["finishReason"] = finish_reason
        body["candidates"] = [candidate]
        body["usageMetadata"] = _usage(
            prompt_token_count,
            candidates_token_count,
            thoughts_token_count,
            cached_content_token_count,
            tool_use_prompt_token_count,
        )
    body["modelVersion"] = model_version
    body["responseId"] = response_id
    return body


def _split(text: str, pieces: int) -> list[str]:
    size = max(1, -(-len(text) // max(pieces, 1)))
    return [text[start : start + size] for start in range(0, len(text), size)] or [""]


def _part_pieces(part: Mapping[str, Any], pieces: int) -> list[JSON]:
    """The parts a stream sends for ``part``: text split, its signature on the last piece."""
    if "text" not in part:
        return [dict(part)]
    extras = {key: value for key, value in part.items() if key not in ("text", "thoughtSignature")}
    sent = [{"text": piece, **extras} for piece in _split(part["text"], pieces)]
    if "thoughtSignature" in part:
        sent[-1]["thoughtSignature"] = part["thoughtSignature"]
    return sent


def _cumulative_usage(usage: Mapping[str, Any], step: int, steps: int) -> JSON:
    """The usage snapshot after ``step + 1`` of ``steps`` chunks; the last equals ``usage``."""
    snapshot: JSON = {key: usage[key] for key in _PROMPT_USAGE if key in usage}
    for key in _REPLY_USAGE:
        if key in usage:
            snapshot[key] = usage[key] * (step + 1) // steps
    return _with_total(snapshot)


def gemini_stream_chunks(response: Mapping[str, Any], *, pieces: int = 3) -> list[JSON]:
    """The chunks a stream of ``response`` (a ``gemini_response``) sends, in order.

    Each text part (thought or not) arrives in about ``pieces`` chunks holding the new text only,
    a signature on its last piece; every other part (a function call included) arrives whole in
    one chunk. Every chunk carries the model version, the response id and a cumulative usage
    snapshot (candidate and thought counts grow; the last chunk has the response's usage); the
    last chunk carries the finish reason. A blocked prompt is one chunk, the response itself.
    Append a ``gemini_error()`` to a slice of the result to build a broken stream.
    """
    if not response.get("candidates"):
        return [dict(response)]
    candidate = response["candidates"][0]
    parts = [sent for part in candidate["content"]["parts"] for sent in _part_pieces(part, pieces)]
    steps = max(len(parts), 1)
    chunks: list[JSON] = []
    for step in range(steps):
        chunk_candidate: JSON = {"index": candidate.get("index", 0)}
        if parts:
            chunk_candidate["content"] = {"role": "model", "parts": [parts[step]]}
        chunks.append(
            {
                "candidates": [chunk_candidate],
                "usageMetadata": _cumulative_usage(response["usageMetadata"], step, steps),
                "modelVersion": response["modelVersion"],
                "responseId": response["responseId"],
            }
        )
    if "finishReason" in candidate:
        chunks[-1]["candidates"][0]["finishReason"] = candidate["finishReason"]
    return chunks


def gemini_error(
    code: int = 503, status: str = "UNAVAILABLE", message: str = "The model is overloaded."
) -> JSON:
    """The error body the API sends: as an HTTP error body, or as a chunk inside a 200 stream."""
    return {"error": {"code": code, "message": message, "status": status}}


def gemini_sse(chunks: Sequence[Mapping[str, Any]]) -> list[bytes]:
    """Encode each chunk as one SSE frame, ``data: <json>`` ended by a CRLF blank line."""
    return [f"data: {json.dumps(chunk)}\r\n\r\n".encode() for chunk in chunks]


def gemini_sse_response(
    chunks: Sequence[Mapping[str, Any]],
    *,
    error: Mapping[str, Any] | None = None,
    drop_connection: bool = False,
) -> httpx.Response:
    """A 200 ``text/event-stream`` response sending ``chunks`` frame by frame.

    ``error`` (a ``gemini_error()``) is sent as a last frame, as the API reports a failure after
    the stream started; ``drop_connection=True`` then raises ``httpx.ReadError``, as a dropped
    connection does. The body can be read once: use a route ``side_effect`` for repeats.
    """
    frames = gemini_sse([*chunks, *([error] if error is not None else [])])
    dropped = httpx.ReadError("connection dropped by the test") if drop_connection else None
    return event_stream_response(frames, error=dropped)


def gemini_error_response(
    code: int,
    status: str,
    message: str = "error",
    *,
    headers: Mapping[str, str] | None = None,
) -> httpx.Response:
    """An HTTP error response with the API's error body (``gemini_error``) and status ``code``."""
    return httpx.Response(
        code, json=gemini_error(code, status, message), headers=dict(headers or {})
    )
