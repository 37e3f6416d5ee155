"""An Anthropic ``Message`` -> one neutral reply.

``from_anthropic`` and the stream aggregator gather the same ``reply_parts`` and build the
message with the kit's ``build_reply``, so a stream and the equivalent non-streaming response
give equal neutral messages.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Final

from anthropic.types import Message as AnthropicMessage
from anthropic.types import RedactedThinkingBlock, TextBlock, ThinkingBlock, ToolUseBlock

from llmbridge import (
    Message,
    MessageEnvelope,
    ProviderResponseError,
    Reasoning,
    ToolCall,
    UnsupportedMessageError,
    Usage,
)
from llmbridge.anthropic._errors import PROVIDER
from llmbridge.kit import NoteRecorder, ReplyParts, build_reply, log_notes

__all__ = [
    "FINISH_REASONS",
    "arguments_json",
    "drop_blocks",
    "from_anthropic",
    "neutral_usage",
    "reply_parts",
]


FINISH_REASONS: Final[dict[str, str]] = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "max_tokens": "length",
    "tool_use": "tool_calls",
    "pause_turn": "pause",
    "refusal": "refusal",
    # The context window filled up: the reply is cut off, as with max_tokens.
    "model_context_window_exceeded": "length",
}
"""Anthropic ``stop_reason`` -> neutral ``finish_reason``; other values pass through raw."""


def neutral_usage(
    input_tokens: int | None,
    output_tokens: int,
    cache_read: int | None,
    cache_creation: int | None,
    thinking_tokens: int | None,
) -> Usage:
    """Build ``Usage``: input counts every processed input token, cached ones included."""
    total_input = (input_tokens or 0) + (cache_read or 0) + (cache_creation or 0)
    return Usage(
        total_input,
        output_tokens,
        cache_read_tokens=cache_read,
        cache_write_tokens=cache_creation,
        reasoning_tokens=thinking_tokens,
    )


def arguments_json(tool_input: object) -> str:
    """The JSON string form of a ``tool_use`` block's ``input`` (one form for both paths)."""
    return json.dumps(tool_input, ensure_ascii=False)


def reply_parts(
    *,
    text: str,
    reasoning: Sequence[Reasoning],
    tool_calls: Sequence[ToolCall],
    stop_reason: str | None,
    usage: Usage | None,
) -> ReplyParts:
    """The neutral parts of one Anthropic reply, the same for a ``Message`` and a stream.

    ``stop_reason`` maps through ``FINISH_REASONS`` (others stay raw); a ``refusal`` stop is a
    refusal whose text is what the model wrote before it.
    """
    finish_reason = None if stop_reason is None else FINISH_REASONS.get(stop_reason, stop_reason)
    return ReplyParts(
        text=text,
        reasoning=tuple(reasoning),
        tool_calls=tuple(tool_calls),
        finish_reason=finish_reason,
        usage=usage,
        refusal=text if stop_reason == "refusal" else None,
    )


def _input_json(message: AnthropicMessage, name: str, tool_input: object) -> str:
    try:
        return arguments_json(tool_input)
    except RecursionError:
        # Only a hand-built Message gets here: the SDK cannot parse such a body at all.
        raise ProviderResponseError(
            f"the input of tool call {name!r} is nested too deeply to serialize as JSON",
            response=message,
        ) from None


def drop_blocks(recorder: NoteRecorder, blocks: str) -> None:
    """The one lenient/strict decision for content blocks with no neutral form.

    Lenient: a ``"dropped"`` note (the reply's ``raw`` keeps the block); strict:
    ``UnsupportedMessageError``. The stream aggregator uses it too, so both paths agree.
    """
    recorder.record(
        None,
        "dropped",
        f"{blocks} have no neutral form (the reply's raw keeps them)",
        error=UnsupportedMessageError,
    )


def _parts_of(message: AnthropicMessage, recorder: NoteRecorder) -> ReplyParts:
    texts: list[str] = []
    reasoning: list[Reasoning] = []
    calls: list[ToolCall] = []
    for block in message.content:
        # The SDK builds responses without validation: a block type it has no model for
        # (compaction, mcp_tool_use, ...) arrives as a TextBlock with that type and text None.
        match block:
            case TextBlock(type="text", text=str() as text):
                texts.append(text)
            case ThinkingBlock(thinking=thinking, signature=signature):
                reasoning.append(Reasoning(thinking, signature=signature, provider=PROVIDER))
            case RedactedThinkingBlock(data=data):
                reasoning.append(Reasoning("", redacted_data=data, provider=PROVIDER))
            case ToolUseBlock(id=tool_id, name=name, input=tool_input):
                calls.append(
                    ToolCall(name, _input_json(message, name, tool_input), tool_call_id=tool_id)
                )
            case TextBlock(type="text"):
                drop_blocks(recorder, "text blocks without text")
            case _:
                drop_blocks(recorder, f"{block.type} blocks")
    usage = message.usage
    details = usage.output_tokens_details
    return reply_parts(
        text="".join(texts),
        reasoning=reasoning,
        tool_calls=calls,
        stop_reason=message.stop_reason,
        usage=neutral_usage(
            usage.input_tokens,
            usage.output_tokens,
            usage.cache_read_input_tokens,
            usage.cache_creation_input_tokens,
            None if details is None else details.thinking_tokens,
        ),
    )


def from_anthropic(
    message: AnthropicMessage | Message, *, agent_name: str, strict_mode: bool = False
) -> Message:
    """Convert an Anthropic ``Message`` (or an envelope of one) into a neutral reply.

    Text blocks are joined; ``tool_use`` blocks become calls with their real ids and JSON
    arguments; thinking becomes ``Reasoning(provider="anthropic")`` with its signature (or
    redacted data); ``stop_reason`` maps through ``FINISH_REASONS``; usage counts cached input.
    Raises ``RefusalError`` for a refusal, ``EmptyResponseError`` for a reply with neither
    text nor tool calls, and ``ProviderResponseError`` for a tool input nested too deeply to
    serialize. Anything that is not an Anthropic ``Message`` is returned unchanged
    (strict mode: ``UnsupportedMessageError``); so are blocks with no neutral form skipped with
    a logged note (strict mode: ``UnsupportedMessageError``).
    """
    if isinstance(message, MessageEnvelope) and isinstance(message.content, AnthropicMessage):
        message = message.content
    if not isinstance(message, AnthropicMessage):
        if strict_mode or not isinstance(message, Message):
            raise UnsupportedMessageError(
                f"expected an Anthropic Message, got {type(message).__name__}"
            )
        return message
    recorder = NoteRecorder(strict_mode=strict_mode)
    parts = _parts_of(message, recorder)
    log_notes(recorder.notes, source="from_anthropic")
    return build_reply(parts, agent_name=agent_name, raw=message)
