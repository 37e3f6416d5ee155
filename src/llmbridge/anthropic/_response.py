"""An Anthropic ``Message`` -> one neutral reply (API.md 4.3).

The streaming aggregator builds its final message with the same ``reply_from_parts``, so a
stream and the equivalent non-streaming response give equal neutral messages.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Final

from anthropic.types import Message as AnthropicMessage
from anthropic.types import RedactedThinkingBlock, TextBlock, ThinkingBlock, ToolUseBlock

from llmbridge._errors import (
    EmptyResponseError,
    ProviderResponseError,
    RefusalError,
    UnsupportedMessageError,
)
from llmbridge._messages import (
    Message,
    MessageEnvelope,
    Reasoning,
    Role,
    TextMessage,
    ToolCall,
    ToolCallMessage,
    Usage,
)
from llmbridge._notes import NoteRecorder, log_notes
from llmbridge.anthropic._errors import PROVIDER

__all__ = [
    "FINISH_REASONS",
    "ReplyParts",
    "arguments_json",
    "drop_blocks",
    "from_anthropic",
    "neutral_usage",
    "partial_from_parts",
    "reply_from_parts",
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


@dataclass(slots=True)
class ReplyParts:
    """What a reply is made of, gathered from a ``Message`` or from stream events."""

    text: str = ""
    reasoning: tuple[Reasoning, ...] = ()
    tool_calls: list[ToolCall] = field(default_factory=list)
    stop_reason: str | None = None
    usage: Usage | None = None


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


def _message_from_parts(parts: ReplyParts, agent_name: str, raw: Any) -> Message | None:
    # The one place a reply's parts become a message, for the partial and the final reply alike.
    finish_reason = _finish_reason(parts.stop_reason)
    if parts.tool_calls:
        return ToolCallMessage(
            parts.tool_calls,
            agent_name,
            content=parts.text or None,
            reasoning=parts.reasoning,
            usage=parts.usage,
            finish_reason=finish_reason,
            raw=raw,
        )
    if parts.text or parts.reasoning:
        return TextMessage(
            Role.ASSISTANT,
            parts.text,
            agent_name,
            reasoning=parts.reasoning,
            usage=parts.usage,
            finish_reason=finish_reason,
            raw=raw,
        )
    return None


def partial_from_parts(parts: ReplyParts, *, agent_name: str) -> Message | None:
    """What has been assembled so far, unchecked; ``None`` when nothing has arrived."""
    return _message_from_parts(parts, agent_name, None)


def _finish_reason(stop_reason: str | None) -> str | None:
    return None if stop_reason is None else FINISH_REASONS.get(stop_reason, stop_reason)


def reply_from_parts(parts: ReplyParts, *, agent_name: str, raw: Any) -> Message:
    """Build the neutral reply: a ``ToolCallMessage`` when tools were called, else text.

    Raises ``RefusalError`` (``.refusal``: the text before the refusal) for a ``refusal`` stop
    and ``EmptyResponseError`` when there is neither text nor a tool call.
    """
    if parts.stop_reason == "refusal":
        raise RefusalError(
            "the model refused to answer (stop_reason 'refusal')", refusal=parts.text, response=raw
        )
    if parts.tool_calls or parts.text:
        message = _message_from_parts(parts, agent_name, raw)
        assert message is not None
        return message
    raise EmptyResponseError(
        f"the reply holds neither text nor a tool call (stop_reason {parts.stop_reason!r})",
        response=raw,
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
    recorder.unsupported(None, f"{blocks} have no neutral form (the reply's raw keeps them)")


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
    return ReplyParts(
        "".join(texts),
        tuple(reasoning),
        calls,
        message.stop_reason,
        neutral_usage(
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
    return reply_from_parts(parts, agent_name=agent_name, raw=message)
