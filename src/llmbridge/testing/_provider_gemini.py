"""The Gemini side of ``ScriptedProvider``: one scripted reply as a ``generateContent`` body.

Kept apart from ``_provider`` (which routes requests and keeps the script) so each wire format
lives in its own module. Plain data in, plain JSON out: no SDK import. Gemini's habits are
played as recorded traffic shows them: function calls come without ids (the client names
them), the first call of a reply carries a thought signature, reasoning is a signed thought
part, and a stream sends text in pieces and each call whole.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Sequence
from typing import Any, Final

import httpx

from llmbridge._messages import ToolCall
from llmbridge.testing._gemini import (
    gemini_error,
    gemini_function_call_part,
    gemini_response,
    gemini_sse,
    gemini_stream_chunks,
    gemini_text_part,
)

__all__ = [
    "GEMINI_PATH",
    "gemini_body",
    "gemini_frames",
    "gemini_prompt_text",
    "gemini_script_error",
    "is_gemini_stream",
]

GEMINI_PATH: Final = r"/models/[^/]+:(generateContent|streamGenerateContent)$"
"""The paths of both Gemini methods (any API version, Gemini API or Vertex AI)."""

# Neutral finish reason -> Gemini finishReason (Gemini has no tool-call or refusal reason).
_FINISH_REASONS: Final[dict[str, str]] = {
    "stop": "STOP",
    "tool_calls": "STOP",
    "length": "MAX_TOKENS",
    "content_filter": "SAFETY",
    "refusal": "STOP",
    "pause": "STOP",
}


def is_gemini_stream(url: str) -> bool:
    """Whether a request URL is a ``streamGenerateContent`` call."""
    return ":streamGenerateContent" in url


def _signature(*seed: str) -> str:
    """A deterministic thought signature (base64 text of opaque bytes) for ``seed``."""
    digest = hashlib.sha256(":".join(seed).encode()).digest()[:18]
    return base64.b64encode(b"sig-" + digest).decode("ascii")


def _args(call: ToolCall) -> dict[str, Any] | None:
    """The ``args`` object of a call, or ``None`` when its arguments are no JSON object."""
    try:
        value = json.loads(call.function_arguments or "{}")
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def gemini_body(
    *,
    text: str,
    reasoning: str,
    calls: Sequence[ToolCall],
    finish_reason: str,
    input_tokens: int,
    output_tokens: int,
    turn: int,
    model: str,
) -> dict[str, Any] | str:
    """The ``GenerateContentResponse`` body of one scripted reply, or the problem as text.

    A call keeps its scripted ``tool_call_id`` when it has one and otherwise has none (as the
    Gemini API sends them); the first call is signed, as Gemini 3 signs parallel calls. A call
    whose arguments are not a JSON object cannot be sent: the problem is returned instead.
    """
    parts: list[dict[str, Any]] = []
    if reasoning:
        parts.append(
            gemini_text_part(reasoning, thought=True, thought_signature=_signature(reasoning))
        )
    if text:
        parts.append(gemini_text_part(text))
    for position, call in enumerate(calls):
        args = _args(call)
        if args is None:
            return (
                f"tool call {call.function_name!r}: arguments {call.function_arguments!r} are "
                "not a JSON object, which a Gemini functionCall cannot carry"
            )
        signature = _signature(str(turn), call.function_name) if position == 0 else None
        parts.append(
            gemini_function_call_part(
                call.function_name, args, call_id=call.tool_call_id, thought_signature=signature
            )
        )
    return gemini_response(
        parts,
        finish_reason=_FINISH_REASONS.get(finish_reason, finish_reason),
        prompt_token_count=input_tokens,
        candidates_token_count=output_tokens,
        response_id=f"resp_{turn + 1:04d}",
        model_version=model,
    )


def gemini_frames(body: dict[str, Any], text: str) -> list[bytes]:
    """The SSE frames of a stream of ``body``: each text part in as many equal pieces as
    ``text`` (what the reply says) has words, each call whole."""
    return gemini_sse(gemini_stream_chunks(body, pieces=max(1, len(text.split()))))


def gemini_prompt_text(body: dict[str, Any]) -> str:
    """The part of a request body a token estimate counts: the contents and system instruction."""
    return json.dumps(body.get("contents", [])) + json.dumps(body.get("systemInstruction"))


def gemini_script_error(detail: str) -> httpx.Response:
    """A 400 in the Gemini API's error shape, so the SDK raises a readable ``ClientError``."""
    return httpx.Response(400, json=gemini_error(400, "INVALID_ARGUMENT", detail))
