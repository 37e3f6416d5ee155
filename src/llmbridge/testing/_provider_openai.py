"""The OpenAI Chat side of ``ScriptedProvider``: one scripted reply as a completion or a stream.

Kept apart from ``_provider`` (which routes requests and keeps the script) so each wire format
lives in its own module. Plain data in, plain JSON out: no SDK import. A stream sends text and
reasoning in word-sized deltas, reasoning first, and tool-call arguments in fragments.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from llmbridge._messages import ToolCall
from llmbridge.testing._openai import (
    openai_chunk,
    openai_completion,
    openai_sse,
    openai_text_chunks,
    openai_tool_call_chunks,
    openai_usage,
)
from llmbridge.testing._scripted_responses import words

__all__ = ["OPENAI_PATH", "openai_chat_body", "openai_chat_frames"]

OPENAI_PATH: Final = r"/chat/completions$"
"""The path of Chat Completions (matched on the path only, so any base URL works)."""

# Neutral finish reason -> OpenAI finish_reason; any other reason is sent as it is.
_FINISH_REASONS: Final[dict[str, str]] = {
    "stop": "stop",
    "length": "length",
    "tool_calls": "tool_calls",
    "refusal": "stop",
    "content_filter": "content_filter",
    "pause": "stop",
}


def openai_chat_body(
    *,
    text: str,
    reasoning: str,
    calls: Sequence[ToolCall],
    finish_reason: str,
    usage: tuple[int, int],
    model: str,
) -> dict[str, Any]:
    """The ``ChatCompletion`` body of one scripted reply (``usage``: input and output tokens);
    reasoning goes in ``reasoning_content``."""
    return openai_completion(
        text or None,
        tool_calls=calls,
        finish_reason=_FINISH_REASONS.get(finish_reason, finish_reason),
        usage=openai_usage(*usage),
        reasoning_content=reasoning or None,
        model=model,
    )


def openai_chat_frames(
    *,
    text: str,
    reasoning: str,
    calls: Sequence[ToolCall],
    finish_reason: str,
    usage: tuple[int, int] | None,
    model: str,
) -> list[bytes]:
    """The SSE frames of a stream of one scripted reply; a usage chunk only when ``usage``
    is given (the request's ``stream_options.include_usage``)."""
    finish = _FINISH_REASONS.get(finish_reason, finish_reason)
    stream_usage = openai_usage(*usage) if usage is not None else None
    if calls:
        chunks = openai_tool_call_chunks(
            calls, content=text or None, finish_reason=finish, usage=stream_usage
        )
        # Reasoning streams first, right after the opening role chunk.
        chunks[1:1] = [openai_chunk({"reasoning_content": p}) for p in words(reasoning)]
    else:
        chunks = openai_text_chunks(
            words(text), reasoning=words(reasoning), finish_reason=finish, usage=stream_usage
        )
    return openai_sse({**chunk, "model": model} for chunk in chunks)
