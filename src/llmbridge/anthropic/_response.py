"""An Anthropic ``Message`` -> one neutral reply.

``from_anthropic`` and the stream aggregator feed their blocks, in order, to the same
``_content.ReplyContent``, which builds the message with the kit's ``build_reply``, so a stream
and the equivalent non-streaming response give equal neutral messages.
"""

from __future__ import annotations

from typing import Any

from anthropic.types import Message as AnthropicMessage
from anthropic.types import RedactedThinkingBlock, TextBlock, ThinkingBlock, ToolUseBlock

from llmbridge import (
    InvalidMessageError,
    Message,
    MessageEnvelope,
    ProviderResponseError,
    Reasoning,
    ToolCall,
    UnsupportedMessageError,
)
from llmbridge.anthropic._arguments import arguments_json
from llmbridge.anthropic._content import (
    FINISH_REASONS,
    ReplyContent,
    drop_blocks,
    neutral_usage,
)
from llmbridge.anthropic._errors import PROVIDER
from llmbridge.anthropic._hosted import HOSTED_TYPES
from llmbridge.kit import NoteRecorder, log_notes

__all__ = ["FINISH_REASONS", "from_anthropic", "too_deep", "unreadable"]


def too_deep(message: Any, what: str) -> ProviderResponseError:
    """The error of a reply part nested too deeply to serialize (only hand-built replies get
    here: the SDK cannot parse such a body at all)."""
    return ProviderResponseError(
        f"the {what} is nested too deeply to serialize as JSON", response=message
    )


def unreadable(message: Any, error: InvalidMessageError) -> ProviderResponseError:
    """The error of a reply part no neutral value takes (a hosted block nested deeper than
    ``provider_data`` goes, a block without its id)."""
    return ProviderResponseError(
        f"the reply holds a block llmbridge cannot read: {error.reason}", response=message
    )


def _input_json(message: AnthropicMessage, name: str, tool_input: object) -> str:
    try:
        return arguments_json(tool_input)
    except RecursionError:
        raise too_deep(message, f"input of tool call {name!r}") from None


def _content_of(message: AnthropicMessage, recorder: NoteRecorder) -> ReplyContent:
    content = ReplyContent()
    for block in message.content:
        # The SDK builds responses without validation: a block type it has no model for
        # (mcp_tool_use, compaction, ...) arrives as a TextBlock with that type and text None.
        if block.type in HOSTED_TYPES:
            content.hosted_block(block)
            continue
        match block:
            case TextBlock(type="text", text=str() as text, citations=citations):
                content.text(text, citations or ())
            case ThinkingBlock(thinking=thinking, signature=signature):
                content.reasoning.append(
                    Reasoning(thinking, signature=signature, provider=PROVIDER)
                )
            case RedactedThinkingBlock(data=data):
                content.reasoning.append(Reasoning("", redacted_data=data, provider=PROVIDER))
            case ToolUseBlock(id=tool_id, name=name, input=tool_input):
                content.calls.append(
                    ToolCall(name, _input_json(message, name, tool_input), tool_call_id=tool_id)
                )
            case TextBlock(type="text"):
                drop_blocks(recorder, "text blocks without text")
            case _:
                drop_blocks(recorder, f"{block.type} blocks")
    return content


def from_anthropic(
    message: AnthropicMessage | Message, *, agent_name: str, strict_mode: bool = False
) -> Message:
    """Convert an Anthropic ``Message`` (or an envelope of one) into a neutral reply.

    Text blocks are joined; each text block's ``citations`` become ``Citation``s over that
    block's span of ``content`` (``provider="anthropic"``, the citation as a request takes it
    back in ``provider_data``); ``server_tool_use`` / ``mcp_tool_use`` blocks and their result
    blocks become ``hosted_tools`` (``HostedToolCall``: name, JSON input, id, result text,
    ``is_error``, the exact blocks and their place in ``provider_data``); ``tool_use`` blocks
    become calls with their real ids and JSON arguments; thinking becomes
    ``Reasoning(provider="anthropic")`` with its signature (or redacted data); ``stop_reason``
    maps through ``FINISH_REASONS``; usage counts cached input. A reply of hosted tools only
    that stopped with ``pause_turn`` is a ``TextMessage`` whose content is ``""`` (sent back as
    the last message, the API continues it). Raises ``RefusalError`` for a refusal,
    ``EmptyResponseError`` for a reply with neither text nor tool calls (nor, paused, hosted
    tools), and ``ProviderResponseError`` for a part nested too deeply to serialize. Anything
    that is not an Anthropic ``Message`` is returned unchanged (strict mode:
    ``UnsupportedMessageError``); so are blocks with no neutral form skipped with a logged note
    (strict mode: ``UnsupportedMessageError``).
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
    try:
        content = _content_of(message, recorder)
    except RecursionError:
        raise too_deep(message, "reply") from None
    log_notes(recorder.notes, source="from_anthropic")
    usage = message.usage
    details = usage.output_tokens_details
    parts = content.parts(
        stop_reason=message.stop_reason,
        usage=neutral_usage(
            usage.input_tokens,
            usage.output_tokens,
            usage.cache_read_input_tokens,
            usage.cache_creation_input_tokens,
            None if details is None else details.thinking_tokens,
        ),
    )
    try:
        return content.reply(parts, agent_name=agent_name, raw=message)
    except RecursionError:
        raise too_deep(message, "reply") from None
    except InvalidMessageError as error:
        raise unreadable(message, error) from None
