"""The Anthropic side of ``ScriptedProvider``: one scripted reply as a ``Message`` or a stream.

Kept apart from ``_provider`` (which routes requests and keeps the script) so each wire format
lives in its own module. Plain data in, plain JSON out: no SDK import. Reasoning is a signed
thinking block; a stream sends text and thinking in word-sized deltas.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from typing import Any, Final

from llmbridge._messages import ToolCall
from llmbridge.testing._anthropic import (
    anthropic_message,
    anthropic_sse,
    anthropic_stream_events,
    anthropic_text_block,
    anthropic_thinking_block,
    anthropic_tool_use_block,
)
from llmbridge.testing._scripted_responses import words

__all__ = ["ANTHROPIC_PATH", "anthropic_body", "anthropic_frames"]

ANTHROPIC_PATH: Final = r"/messages$"
"""The path of the Messages API (matched on the path only, so any base URL works)."""

# Neutral finish reason -> Anthropic stop_reason; any other reason is sent as it is.
_STOP_REASONS: Final[dict[str, str]] = {
    "stop": "end_turn",
    "length": "max_tokens",
    "tool_calls": "tool_use",
    "refusal": "refusal",
    "content_filter": "refusal",
    "pause": "pause_turn",
}
_DELTA_FIELDS: Final = {"text_delta": "text", "thinking_delta": "thinking"}


def _tool_input(call: ToolCall) -> dict[str, Any] | None:
    """The ``input`` object of a tool_use block, or ``None`` when the arguments are no object."""
    try:
        value = json.loads(call.function_arguments or "{}")
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _blocks(text: str, reasoning: str, calls: Sequence[ToolCall]) -> list[dict[str, Any]] | str:
    blocks: list[dict[str, Any]] = []
    if reasoning:
        signature = hashlib.sha256(reasoning.encode()).hexdigest()[:32]
        blocks.append(anthropic_thinking_block(reasoning, f"sig-{signature}"))
    if text:
        blocks.append(anthropic_text_block(text))
    for call in calls:
        tool_input = _tool_input(call)
        if tool_input is None:
            return (
                f"tool call {call.function_name!r}: arguments {call.function_arguments!r} are "
                "not a JSON object, which an Anthropic tool_use block cannot carry"
            )
        blocks.append(
            anthropic_tool_use_block(call.tool_call_id or "", call.function_name, tool_input)
        )
    return blocks


def anthropic_body(
    *,
    text: str,
    reasoning: str,
    calls: Sequence[ToolCall],
    finish_reason: str,
    usage: tuple[int, int],
    turn: int,
    model: str,
) -> dict[str, Any] | str:
    """The ``Message`` body of one scripted reply (id ``msg_<turn>``), or the problem as text.

    Blocks: a signed thinking block when there is reasoning, a text block when there is text,
    one ``tool_use`` per call (with its id). A call whose arguments are not a JSON object
    cannot be sent: the problem is returned instead.
    """
    blocks = _blocks(text, reasoning, calls)
    if isinstance(blocks, str):
        return blocks
    return anthropic_message(
        blocks,
        stop_reason=_STOP_REASONS.get(finish_reason, finish_reason),
        input_tokens=usage[0],
        output_tokens=usage[1],
        message_id=f"msg_{turn:04d}",
        model=model,
    )


def anthropic_frames(message: dict[str, Any]) -> list[bytes]:
    """The SSE frames of a stream of ``message``, text and thinking split into words."""
    return anthropic_sse(_word_deltas(anthropic_stream_events(message, pieces=1)))


def _word_deltas(events: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Split each whole text or thinking delta into word-sized deltas, as the API streams."""
    result: list[dict[str, Any]] = []
    for event in events:
        delta = event.get("delta") if event["type"] == "content_block_delta" else None
        field = _DELTA_FIELDS.get(delta["type"]) if delta else None
        if delta is None or field is None:
            result.append(event)
            continue
        result += [
            {**event, "delta": {"type": delta["type"], field: piece}}
            for piece in words(delta[field]) or [""]
        ]
    return result
